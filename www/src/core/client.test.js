import test from 'node:test';
import assert from 'node:assert/strict';
import { CoreError, createTransport } from './client.js';

// fakeCore records what is sent and lets a test answer.
function fakeCore() {
  const sent = [];
  const t = createTransport((msg) => sent.push(msg));
  return { t, sent };
}

test('a request is {id, method, args} and resolves with the result object', async () => {
  const { t, sent } = fakeCore();
  const p = t.request('bytes', { handle: 3, source: 'a/b', off: 16, n: 32 });
  assert.deepEqual(sent, [{ id: 1, method: 'bytes', args: { handle: 3, source: 'a/b', off: 16, n: 32 } }]);
  const buf = new ArrayBuffer(4);
  assert.equal(t.receive({ id: 1, type: 'result', result: { bytes: buf } }), true);
  assert.deepEqual(await p, { bytes: buf });
  assert.equal(t.inFlight, 0);
});

test('events reach onEvent before the result; other ids are not disturbed', async () => {
  const { t } = fakeCore();
  const events = [];
  const a = t.request('open', { name: 'x.neff' }, { onEvent: (e, d) => events.push([e, d]) });
  const b = t.request('libList', {});
  t.receive({ id: 1, type: 'event', event: 'progress', data: { phase: 'read', done: 5, total: 10 } });
  t.receive({ id: 1, type: 'event', event: 'header', data: 'HDR' });
  t.receive({ id: 2, type: 'result', result: { list: [] } });
  t.receive({ id: 1, type: 'result', result: { handle: 7, ms: 1.5 } });
  assert.deepEqual(await b, { list: [] });
  assert.deepEqual(await a, { handle: 7, ms: 1.5 });
  assert.deepEqual(events, [['progress', { phase: 'read', done: 5, total: 10 }], ['header', 'HDR']]);
});

test('an error rejects with a CoreError carrying the core\'s code and message', async () => {
  const { t } = fakeCore();
  const a = t.request('rows', { handle: 1, ref: 'stream:x', from: 0, to: 10 });
  const b = t.request('libPut', { handle: 1, entry: {} });
  const c = t.request('bytes', { handle: 1 });
  t.receive({ id: 1, type: 'error', error: { code: 'not-found', message: 'rows: unknown ref stream:x' } });
  t.receive({ id: 2, type: 'error', error: { code: 'unavailable', message: 'quota exceeded' } });
  t.receive({ id: 3, type: 'error', error: {} });
  await assert.rejects(a, (e) => e instanceof CoreError && e instanceof Error && e.code === 'not-found' && e.message === 'rows: unknown ref stream:x');
  await assert.rejects(b, (e) => e instanceof CoreError && e.code === 'unavailable' && e.message === 'quota exceeded');
  await assert.rejects(c, (e) => e instanceof CoreError && e.code === 'failed' && /without a message/.test(e.message));
});

test('failAll rejects everything in flight with one code; late answers are ignored', async () => {
  const { t } = fakeCore();
  const a = t.request('open', {});
  const b = t.request('plot', {});
  t.failAll('internal', 'the worker crashed: out of memory');
  for (const p of [a, b]) await assert.rejects(p, (e) => e.code === 'internal' && /crashed/.test(e.message));
  assert.equal(t.receive({ id: 1, type: 'result', result: {} }), false);
  assert.equal(t.inFlight, 0);
});

test('a request that cannot be sent rejects as bad-request', async () => {
  const t = createTransport(() => { throw new Error('DataCloneError: could not be cloned'); });
  await assert.rejects(t.request('open', { file: () => {} }), (e) => e.code === 'bad-request' && e.message.startsWith('open: DataCloneError'));
  assert.equal(t.inFlight, 0);
});
