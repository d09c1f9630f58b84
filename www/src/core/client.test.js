import test from 'node:test';
import assert from 'node:assert/strict';
import { CoreError, createTransport } from './client.js';

// fakeCore records what is sent and lets a test answer.
function fakeCore() {
  const sent = [];
  const t = createTransport((msg) => sent.push(msg));
  return { t, sent };
}

test('a request is {id, type: method, ...args} and resolves with the result fields alone', async () => {
  const { t, sent } = fakeCore();
  const p = t.request('bytes', { handle: 3, source: 'a/b', off: 16, n: 32 });
  assert.deepEqual(sent, [{ handle: 3, source: 'a/b', off: 16, n: 32, id: 1, type: 'bytes' }]);
  const buf = new ArrayBuffer(4);
  assert.equal(t.receive({ id: 1, type: 'result', bytes: buf }), true);
  assert.deepEqual(await p, { bytes: buf });
  assert.equal(t.inFlight, 0);
});

test('events reach onEvent before the result; other ids are not disturbed', async () => {
  const { t } = fakeCore();
  const events = [];
  const a = t.request('open', { name: 'x.neff' }, { onEvent: (e, d) => events.push([e, d]) });
  const b = t.request('libList', {});
  t.receive({ id: 1, type: 'progress', p: { phase: 'read', done: 5, total: 10 } });
  t.receive({ id: 1, type: 'header', doc: 'HDR' });
  t.receive({ id: 2, type: 'result', list: [] });
  t.receive({ id: 1, type: 'result', handle: 7, ms: 1.5 });
  assert.deepEqual(await b, { list: [] });
  assert.deepEqual(await a, { handle: 7, ms: 1.5 });
  assert.deepEqual(events, [['progress', { phase: 'read', done: 5, total: 10 }], ['header', 'HDR']]);
});

test('an error message and an {error} result both reject with CoreError failed', async () => {
  const { t } = fakeCore();
  const a = t.request('rows', { handle: 1, ref: 'stream:x', from: 0, to: 10 });
  const b = t.request('libPut', { handle: 1, entry: {} });
  t.receive({ id: 1, type: 'error', message: 'rows: unknown ref stream:x' });
  t.receive({ id: 2, type: 'result', error: 'quota exceeded' });
  await assert.rejects(a, (e) => e instanceof CoreError && e instanceof Error && e.code === 'failed' && e.message === 'rows: unknown ref stream:x');
  await assert.rejects(b, (e) => e instanceof CoreError && e.code === 'failed' && e.message === 'quota exceeded');
});

test('failAll rejects everything in flight with one code; late answers are ignored', async () => {
  const { t } = fakeCore();
  const a = t.request('open', {});
  const b = t.request('plot', {});
  t.failAll('internal', 'the worker crashed: out of memory');
  for (const p of [a, b]) await assert.rejects(p, (e) => e.code === 'internal' && /crashed/.test(e.message));
  assert.equal(t.receive({ id: 1, type: 'result' }), false);
  assert.equal(t.inFlight, 0);
});

test('a request that cannot be sent rejects as bad-request', async () => {
  const t = createTransport(() => { throw new Error('DataCloneError: could not be cloned'); });
  await assert.rejects(t.request('open', { file: () => {} }), (e) => e.code === 'bad-request' && e.message.startsWith('open: DataCloneError'));
  assert.equal(t.inFlight, 0);
});
