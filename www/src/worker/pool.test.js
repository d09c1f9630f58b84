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
