import test from 'node:test';
import assert from 'node:assert/strict';
import { POOL_CAP, POOL_ROLE, createPool, poolSize } from './pool.js';

// fakeWorkers is a spawn for createPool whose workers record what they are sent; a test
// answers for them (msg) or has them fail (error).
function fakeWorkers() {
  const made = [];
  const spawn = (url, name) => {
    const w = {
      url, name, sent: [], terminated: false, onmessage: null, onerror: null,
      postMessage(m, tr) { w.sent.push({ m, tr }); },
      terminate() { w.terminated = true; },
      msg(d) { w.onmessage({ data: d }); },
      error(message) { w.onerror({ message, preventDefault() {} }); },
      lastJob() { return w.sent.map((s) => s.m).filter((m) => m.type === 'job').pop(); },
    };
    made.push(w);
    return w;
  };
  return { made, spawn };
}

test('the pool is one worker per other core, at least 1, at most POOL_CAP', () => {
  assert.equal(poolSize(1), 1);
  assert.equal(poolSize(2), 1);
  assert.equal(poolSize(4), 3);
  assert.equal(poolSize(64), POOL_CAP);
  assert.equal(poolSize(undefined), 1);
});

test('jobs go to ready workers one at a time, their bytes transferred; answers resolve them', async () => {
  const { made, spawn } = fakeWorkers();
  const module = {};
  const p = createPool(2, 'worker.js', /** @type {any} */ (module), { spawn });
  assert.equal(p.size(), 2);
  assert.deepEqual(made.map((w) => [w.url, w.name]), [['worker.js', POOL_ROLE], ['worker.js', POOL_ROLE]]);
  assert.equal(made[0].sent[0].m.type, 'init');
  assert.equal(made[0].sent[0].m.module, module);
  const file = new Blob([new Uint8Array(4)]);
  const jobs = [1, 2, 3].map((i) => { const b = new ArrayBuffer(i); return { b, done: p.run('member-hashes', b, file) }; });
  assert.equal(made[0].lastJob(), undefined, 'no job before a worker is ready');
  made[0].msg({ type: 'ready' });
  const j0 = made[0].lastJob();
  assert.equal(j0.job, jobs[0].b);
  assert.equal(j0.file, file);
  assert.deepEqual(made[0].sent.at(-1).tr, [jobs[0].b]);
  made[1].msg({ type: 'ready' });
  assert.equal(made[1].lastJob().job, jobs[1].b);
  const a0 = new ArrayBuffer(7);
  made[0].msg({ type: 'answer', id: j0.id, answer: a0, wasmBytes: 5 });
  assert.equal(await jobs[0].done, a0);
  assert.equal(made[0].lastJob().job, jobs[2].b, 'the freed worker takes the next job');
  assert.equal(p.stats.jobs, 1);
  assert.equal(p.stats.wasmBytes, 5);
});

test('a worker that dies fails its job and leaves; with none left, every waiting job fails', async () => {
  const { made, spawn } = fakeWorkers();
  const p = createPool(1, 'w.js', /** @type {any} */ ({}), { spawn });
  made[0].msg({ type: 'ready' });
  const file = new Blob([]);
  const first = p.run('dbg-scan', new ArrayBuffer(1), file);
  const second = p.run('dbg-scan', new ArrayBuffer(1), file);
  made[0].error('out of memory');
  await assert.rejects(first, /stopped: out of memory/);
  await assert.rejects(second, /no pool worker is left/);
  assert.equal(made[0].terminated, true);
  assert.equal(p.size(), 0);
  await assert.rejects(p.run('dbg-scan', new ArrayBuffer(1), file), /no workers/);
  assert.deepEqual([p.stats.died, p.stats.failed], [1, 2]);
});

test('a failed job rejects with its reason and the worker stays', async () => {
  const { made, spawn } = fakeWorkers();
  const p = createPool(1, 'w.js', /** @type {any} */ ({}), { spawn });
  made[0].msg({ type: 'ready' });
  const done = p.run('dbg-scan', new ArrayBuffer(1), new Blob([]));
  made[0].msg({ type: 'failed', id: made[0].lastJob().id, error: { message: 'a pool job without a read plan' } });
  await assert.rejects(done, /read plan/);
  assert.equal(p.size(), 1);
  p.stop();
  assert.equal(made[0].terminated, true);
});

test('a job queued ahead answers the run that asks for it by key, once; claim drops one still waiting; forget drops the rest', async () => {
  const { made, spawn } = fakeWorkers();
  const p = createPool(1, 'w.js', /** @type {any} */ ({}), { spawn });
  made[0].msg({ type: 'ready' });
  const file = new Blob([]);
  const first = new ArrayBuffer(1);
  p.ahead('dbg-scan', first, file, 'k1');
  p.ahead('dbg-scan', new ArrayBuffer(2), file, 'k2');
  p.ahead('dbg-scan', new ArrayBuffer(3), file, 'k3');
  assert.equal(made[0].lastJob().job, first, 'the first job ahead went to the worker at once');
  assert.equal(p.claim('k1'), true, 'k1 has begun');
  const answer = new ArrayBuffer(9);
  const sent = made[0].sent.length;
  made[0].msg({ type: 'answer', id: made[0].lastJob().id, answer }); // the worker takes k2
  // Asked for later, with a fresh copy of the same bytes: no second job, the same answer.
  assert.equal(await p.run('dbg-scan', new ArrayBuffer(1), file, 'k1'), answer);
  assert.equal(p.claim('k1'), false, 'an answer is handed over once');
  // k2 is with the worker now; k3 waits. Forget drops k3 from the queue and both answers.
  assert.equal(made[0].sent.length, sent + 1);
  p.forget();
  assert.equal(p.claim('k2'), false);
  made[0].msg({ type: 'answer', id: made[0].lastJob().id, answer: new ArrayBuffer(1) });
  assert.equal(made[0].sent.length, sent + 1, 'the forgotten job still waiting was never sent');
  // A run whose key was forgotten is a job of its own.
  const again = p.run('dbg-scan', new ArrayBuffer(2), file, 'k2');
  assert.equal(made[0].sent.length, sent + 2);
  made[0].msg({ type: 'answer', id: made[0].lastJob().id, answer });
  assert.equal(await again, answer);
  // Claimed while still waiting for a worker: out of the queue, never sent.
  p.ahead('dbg-scan', new ArrayBuffer(4), file, 'k4');
  p.ahead('dbg-scan', new ArrayBuffer(5), file, 'k5');
  const before = made[0].sent.length;
  assert.equal(p.claim('k5'), false, 'k5 waits behind k4');
  made[0].msg({ type: 'answer', id: made[0].lastJob().id, answer });
  assert.equal(made[0].sent.length, before, 'k5 was never sent');
  assert.equal(p.claim('k4'), true);
});

test('eager jobs ahead are sent at once, ready or not, to the worker with the fewest; a worker takes its jobs in turn', async () => {
  const { made, spawn } = fakeWorkers();
  const p = createPool(2, 'w.js', /** @type {any} */ ({}), { spawn });
  const file = new Blob([]);
  p.ahead('dbg-scan', new ArrayBuffer(1), file, 'a', true);
  p.ahead('dbg-scan', new ArrayBuffer(2), file, 'b', true);
  p.ahead('dbg-scan', new ArrayBuffer(3), file, 'c', true);
  p.ahead('dbg-scan', new ArrayBuffer(4), file, 'd', false);
  const jobsOf = (w) => w.sent.map((s) => s.m).filter((m) => m.type === 'job').map((m) => m.job.byteLength);
  assert.deepEqual([jobsOf(made[0]), jobsOf(made[1])], [[1, 3], [2]], 'sent before either worker is ready, balanced');
  assert.equal(p.claim('a'), true);
  assert.equal(p.claim('d'), false, 'd was not eager: it waited, and is claimed back');
  made[0].msg({ type: 'ready' });
  made[1].msg({ type: 'ready' });
  assert.deepEqual([jobsOf(made[0]), jobsOf(made[1])], [[1, 3], [2]], 'ready workers with jobs in hand take no more');
  const ids = made[0].sent.map((s) => s.m).filter((m) => m.type === 'job').map((m) => m.id);
  const ans = [new ArrayBuffer(10), new ArrayBuffer(30)];
  made[0].msg({ type: 'answer', id: ids[0], answer: ans[0] });
  made[0].msg({ type: 'answer', id: ids[1], answer: ans[1] });
  assert.equal(await p.run('dbg-scan', new ArrayBuffer(1), file, 'a'), ans[0]);
  assert.equal(p.claim('c'), true);
  assert.equal(await p.run('dbg-scan', new ArrayBuffer(3), file, 'c'), ans[1]);
  // A worker that dies fails every job it holds.
  made[1].error('trap');
  assert.equal(p.claim('b'), true);
  await assert.rejects(p.run('dbg-scan', new ArrayBuffer(2), file, 'b'), /stopped: trap/);
});
