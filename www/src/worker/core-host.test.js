import test from 'node:test';
import assert from 'node:assert/strict';
import { runWarmUp } from './warm.js';

// fakeCore answers the warm-up's calls and records them; fail names a method that throws.
function fakeCore(fail) {
  const calls = [];
  let handle = 0;
  return {
    calls,
    call: async (method, args) => {
      calls.push([method, method === 'open' ? args.name : args.handle]);
      if (method === fail) throw new Error(method + ' failed');
      if (method === 'open') {
        assert.ok(args.file instanceof Uint8Array && args.file.length === 3, 'the warm-up NEFF is opened as bytes here (no FileReaderSync)');
        assert.equal(args.deferSource, true);
        return { handle: ++handle, doc: new ArrayBuffer(8) };
      }
      return {};
    },
  };
}

test('the warm-up opens the NEFF three times as the page does (open, indexSource, hashMembers, close) and says so once', async () => {
  const core = fakeCore();
  const posted = [];
  await runWarmUp(core, new Uint8Array([1, 2, 3]).buffer, () => false, (m, tr) => posted.push([m, tr]), () => 0);
  const once = [['open', 'warm.neff'], ['indexSource', 1], ['hashMembers', 1], ['close', 1]];
  assert.deepEqual(core.calls.slice(0, 4), once);
  assert.equal(core.calls.length, 12);
  assert.deepEqual(core.calls.filter((c) => c[0] === 'close').map((c) => c[1]), [1, 2, 3], 'every warm open is closed');
  assert.deepEqual(posted.map(([m]) => m.type), ['warm-doc', 'warm'], 'the first Document as soon as it is made, then the end');
  const [first, transfer] = posted[0];
  assert.ok(first.doc instanceof ArrayBuffer && transfer[0] === first.doc, 'the first Document is transferred to the page');
  const [msg] = posted[1];
  assert.equal(msg.opens, 3);
  assert.equal(msg.stopped, false);
  assert.equal(msg.doc, undefined, 'the end carries no Document');
});

test('the first Document reaches the page before the first open\'s other calls', async () => {
  const core = fakeCore();
  const order = [];
  const watching = { call: async (m, a, e) => { order.push(m); return core.call(m, a, e); } };
  await runWarmUp(watching, new Uint8Array([1, 2, 3]), () => false, (m) => order.push(m.type), () => 0);
  assert.deepEqual(order.slice(0, 3), ['open', 'warm-doc', 'indexSource']);
});

test('a request carrying a file stops the warm-up before its next call (only the close follows)', async () => {
  const core = fakeCore();
  const posted = [];
  let asked = false;
  const stopping = { call: async (m, a, e) => { const r = await core.call(m, a, e); if (m === 'open') asked = true; return r; } };
  await runWarmUp(stopping, new Uint8Array([1, 2, 3]), () => asked, (m) => posted.push(m), () => 0);
  assert.deepEqual(core.calls.map((c) => c[0]), ['open', 'close']);
  assert.deepEqual(posted.map((m) => m.type), ['warm-doc', 'warm']);
  assert.equal(posted[1].opens, 1);
  assert.equal(posted[1].stopped, true);
});

test('a failing warm-up closes what it opened and reports, without throwing', async () => {
  const core = fakeCore('indexSource');
  const posted = [];
  await runWarmUp(core, new Uint8Array([1, 2, 3]), () => false, (m) => posted.push(m), () => 0);
  assert.deepEqual(core.calls.map((c) => c[0]), ['open', 'indexSource', 'close']);
  assert.deepEqual(posted.map((m) => m.type), ['warm-doc', 'warm']);
  assert.equal(posted[1].opens, 0);
  assert.equal(posted[1].stopped, true);
  assert.match(posted[1].error, /indexSource failed/);
});
