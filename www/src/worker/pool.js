// @ts-check
// The pool: workers the core worker starts (nested workers of it, named POOL_ROLE), each the
// same wasm core instantiated from the core worker's compiled WebAssembly.Module (posted to
// it: no second compile, and V8 shares the code, its tier-up included). The core hands them
// the work an open defers (core/pool: the .dbg scans of the source lines, the members'
// sha-256) through neffscopeCore.pool = {size(), run(kind, job, file)}: a job is bytes in,
// bytes out; the file is the open's Blob, which a worker gets without a copy of its bytes; the
// answer comes back as a transferred ArrayBuffer. No SharedArrayBuffer: it needs cross-origin
// isolation, which file:// and embedding cannot give.
//
// They are nested workers so that the page's cancel (terminating the core worker) ends them
// too, and a job in flight with them: the browser closes a worker's workers with it. A worker
// that dies (its Go runtime ran out of memory, a trap) fails its job and leaves the pool; the
// core then does that job's work itself (wasm/pool.go, core/pool), as it does all of it where
// no worker can be started.
//
// Jobs queued ahead (ahead(kind, job, file, key)): an open queues its source lines' scans
// once its archive is walked, while the core resolves the model; their answers wait here, by
// the key the core names each job by (its kind and bytes), until run asks for the same job, or
// forget lets them go (a new batch ahead forgets the last). claim(key) says whether such a job
// has begun (a worker has it, or has answered); one still waiting for a worker is taken out
// of the queue then, so the core may run it itself.
//
// Protocol, core worker → pool worker: {type: 'init', module, dieOnJob} once, then
// {type: 'job', id, kind, job, file}; back: {type: 'ready'} once, then {type: 'answer', id,
// answer, wasmBytes} or {type: 'failed', id, error}; {type: 'fatal', error} when it cannot run.

/** POOL_ROLE names a pool worker (new Worker(url, {name})); worker/main.js dispatches on it. */
export const POOL_ROLE = 'neffscope-pool';

/** POOL_CAP is the most pool workers a core starts. Each is a Go runtime of its own whose
 * wasm memory never shrinks: 11.5 MiB after a small job, 52–85 MiB after the 32 MiB
 * real-shaped NEFF's jobs (docs/performance.md). Four stay within about twice the wasm memory
 * the core worker itself takes on that file (~130 MiB). */
export const POOL_CAP = 4;

/**
 * poolSize is how many pool workers to start: one per core beside the core worker's
 * (hardwareConcurrency − 1), at least 1, at most POOL_CAP.
 * @param {number | undefined} cores navigator.hardwareConcurrency
 */
export function poolSize(cores) {
  return Math.max(1, Math.min(POOL_CAP, (cores || 2) - 1));
}

/**
 * @typedef {{kind: string, job: ArrayBuffer, file: Blob, resolve: (b: ArrayBuffer) => void, reject: (e: Error) => void, key?: string}} Job
 * @typedef {{w: Worker, ready: boolean, jobs: Map<number, Job>}} Member
 * @typedef {{size: number, ready: number, jobs: number, failed: number, died: number, wasmBytes: number, why: string}} PoolStats
 */

/**
 * createPool starts n pool workers of the script at url, each given module. onStats hears the
 * pool's counts whenever they change (the page shows them on neffscope.core.pool).
 * @param {number} n
 * @param {string} url
 * @param {WebAssembly.Module} module
 * @param {{dieOnJob?: boolean, onStats?: (s: PoolStats) => void, spawn?: (url: string, name: string) => Worker}} [opts]
 */
export function createPool(n, url, module, opts = {}) {
  const spawn = opts.spawn || ((u, name) => new Worker(u, { name }));
  /** @type {Member[]} */
  const members = [];
  /** @type {Job[]} */
  const queue = [];
  /** @type {PoolStats} */
  const stats = { size: 0, ready: 0, jobs: 0, failed: 0, died: 0, wasmBytes: 0, why: '' };
  let nextId = 1;
  /** @type {Map<string, Promise<ArrayBuffer>>} the answers of jobs started ahead, by key */
  const ahead = new Map();
  const changed = () => {
    stats.size = members.length;
    stats.ready = members.filter((m) => m.ready).length;
    if (opts.onStats) opts.onStats(Object.assign({}, stats));
  };

  // leave takes a dead worker out: its jobs fail (the core does them itself), and when none is
  // left, so does every job waiting.
  const leave = (/** @type {Member} */ m, /** @type {string} */ why) => {
    const at = members.indexOf(m);
    if (at < 0) return;
    members.splice(at, 1);
    m.w.terminate();
    stats.died++;
    for (const j of m.jobs.values()) { stats.failed++; j.reject(new Error('the pool worker stopped: ' + why)); }
    m.jobs.clear();
    if (!members.length) {
      for (const j of queue.splice(0)) { stats.failed++; j.reject(new Error('no pool worker is left (' + why + ')')); }
    }
    changed();
  };

  // send hands j to m; a worker runs the jobs it is sent one after another, in order.
  const send = (/** @type {Member} */ m, /** @type {Job} */ j) => {
    const id = nextId++;
    m.jobs.set(id, j);
    m.w.postMessage({ type: 'job', id, kind: j.kind, job: j.job, file: j.file }, [j.job]);
  };

  // pump hands the jobs waiting to ready workers with none in hand. It runs on the core
  // worker's events only, which a long call of the core holds back: so jobs queued ahead are
  // sent at once (ahead's eager), and a worker takes them one after another by itself.
  const pump = () => {
    for (const m of members) {
      if (!m.ready || m.jobs.size || !queue.length) continue;
      send(m, /** @type {Job} */ (queue.shift()));
    }
  };

  for (let i = 0; i < n; i++) {
    let w;
    try {
      w = spawn(url, POOL_ROLE);
    } catch (e) {
      stats.why = 'no pool worker could be started (' + (e && e.message || e) + '); the core does that work itself';
      console.info('neffscope: ' + stats.why);
      break;
    }
    /** @type {Member} */
    const m = { w, ready: false, jobs: new Map() };
    members.push(m);
    w.onmessage = (ev) => {
      const d = ev.data || {};
      if (d.type === 'ready') { m.ready = true; changed(); pump(); return; }
      if (d.type === 'fatal') { leave(m, (d.error && d.error.message) || 'it failed'); return; }
      const j = m.jobs.get(d.id);
      if (!j) return;
      m.jobs.delete(d.id);
      stats.jobs++;
      if (d.type === 'answer') {
        stats.wasmBytes = Math.max(stats.wasmBytes, d.wasmBytes || 0);
        j.resolve(d.answer);
      } else {
        stats.failed++;
        j.reject(new Error((d.error && d.error.message) || 'the job failed'));
      }
      changed();
      pump();
    };
    w.onerror = (ev) => { ev.preventDefault(); leave(m, ev.message || 'an error'); };
    w.postMessage({ type: 'init', module, dieOnJob: !!opts.dieOnJob });
  }
  changed();

  /** @type {(kind: string, job: ArrayBuffer, file: Blob, key?: string) => Promise<ArrayBuffer>} */
  const start = (kind, job, file, key) => new Promise((resolve, reject) => {
    if (!members.length) { reject(new Error('the pool has no workers')); return; }
    queue.push({ kind, job, file, resolve, reject, key });
    pump();
  });

  return {
    /** size is how many workers the pool has (started or starting). */
    size: () => members.length,
    /**
     * run hands a job to the next free worker, or answers with what the same job started ahead
     * answers (key names it); it rejects when its worker dies, or none is left.
     * @param {string} kind @param {ArrayBuffer} job @param {Blob} file @param {string} [key]
     * @returns {Promise<ArrayBuffer>}
     */
    run: (kind, job, file, key) => {
      const started = key ? ahead.get(key) : undefined;
      if (started && key) { ahead.delete(key); return started; }
      return start(kind, job, file);
    },
    /**
     * ahead queues a job nobody has asked for yet; run with the same key gets its answer. An
     * eager one is sent at once to the worker with the fewest jobs in hand, ready or not (it
     * keeps them until it is).
     * @param {string} kind @param {ArrayBuffer} job @param {Blob} file @param {string} key @param {boolean} [eager]
     */
    ahead: (kind, job, file, key, eager) => {
      /** @type {Promise<ArrayBuffer>} */
      let p;
      if (eager && members.length) {
        const m = members.reduce((a, b) => (b.jobs.size < a.jobs.size ? b : a));
        p = new Promise((resolve, reject) => send(m, { kind, job, file, resolve, reject, key }));
      } else {
        p = start(kind, job, file, key);
      }
      p.catch(() => {}); // a failure is the asker's to hear (run), if anyone asks
      ahead.set(key, p);
    },
    /** claim says whether the job queued ahead under key has begun; one still waiting is dropped. */
    claim: (/** @type {string} */ key) => {
      if (!ahead.has(key)) return false;
      const at = queue.findIndex((j) => j.key === key);
      if (at < 0) return true;
      queue.splice(at, 1)[0].reject(new Error('claimed before it began'));
      ahead.delete(key);
      return false;
    },
    /** forget lets go the answers nobody asked for, and the jobs ahead still waiting for a worker. */
    forget: () => {
      for (let i = queue.length - 1; i >= 0; i--) {
        const k = queue[i].key;
        if (k && ahead.has(k)) { queue.splice(i, 1)[0].reject(new Error('forgotten')); }
      }
      ahead.clear();
    },
    /** stop ends every worker; what they were doing and what waits fails. */
    stop: () => { for (const m of members.slice()) leave(m, 'the pool was stopped'); },
    get stats() { return Object.assign({}, stats); },
  };
}

/**
 * servePool runs this worker as a pool worker: it waits for the core worker's Module, starts
 * the core from it, and answers jobs with the core's poolRun, one at a time, in the order they
 * came (jobs sent before the core started wait for it).
 */
export function servePool() {
  if (typeof Go === 'undefined') importScripts('wasm_exec.js');
  const post = (/** @type {any} */ msg, /** @type {Transferable[]} */ transfer = []) => /** @type {any} */ (self).postMessage(msg, transfer);
  /** @type {any} */
  let core = null;
  /** @type {(v?: any) => void} */
  let started = () => {};
  const ready = new Promise((resolve) => { started = resolve; });
  let dieOnJob = false;
  self.onmessage = async (ev) => {
    const d = ev.data || {};
    if (d.type === 'init') {
      try {
        dieOnJob = !!d.dieOnJob;
        const go = new Go();
        /** @type {WebAssembly.Instance} */
        const instance = await WebAssembly.instantiate(/** @type {WebAssembly.Module} */ (d.module), go.importObject);
        go.run(instance).then(() => post({ type: 'fatal', error: { message: 'the Go runtime exited (out of memory?)' } }));
        core = /** @type {any} */ (globalThis).neffscopeCore;
        if (!core) throw new Error('the wasm did not register neffscopeCore');
        core.memory = instance.exports.mem;
        started();
        post({ type: 'ready' });
      } catch (e) {
        post({ type: 'fatal', error: { message: 'the pool worker could not start: ' + (e && e.message || e) } });
      }
      return;
    }
    if (d.type !== 'job') return;
    await ready;
    if (dieOnJob) {
      // The tests' worker that dies with a job in hand (as one whose wasm ran out of memory).
      setTimeout(() => { throw new Error('a pool worker that dies on its job (dieOnJob)'); }, 0);
      return;
    }
    try {
      const r = await core.call('poolRun', { kind: d.kind, job: d.job, file: d.file });
      post({ type: 'answer', id: d.id, answer: r.answer, wasmBytes: r.wasmBytes }, [r.answer]);
    } catch (e) {
      post({ type: 'failed', id: d.id, error: { message: String(e && e.message || e) } });
    }
  };
}
