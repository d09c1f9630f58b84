// @ts-check
// neffscope core host: runs the Go core (neffscope.wasm + wasm_exec.js of the same Go) and
// answers the page's requests. It normally runs in a dedicated Web Worker started at page
// load, so a drop never waits for start-up and decoding never freezes the page. The same code
// can run on the page itself (the page falls back to that when no worker can be created, e.g.
// a locked-down file:// context); then FileReaderSync is unavailable and the file is read
// whole first.
//
// Protocol (wasm/protocol declares every method; www/src/core/methods.gen.js is its page view):
//   page → host: {id, method, args} — args is one object of named arguments;
//   host → page: {id, type: 'event', event: 'progress'|'header'|'overview'|'hits', data},
//                {id, type: 'result', result}, {id, type: 'error', error: {code, message}};
//   once: {type: 'ready', version, model, methods, ms} or {type: 'fatal', error: {code, message}};
//   after ready: {type: 'warm-doc', doc} once the warm-up's first open is done, then once
//   {type: 'warm', opens, ms, stopped} when it ends (the warm-up below).
// The host forwards any request to neffscopeCore.call whatever its method (only the warm-up
// below names the methods it calls itself). It only reads a
// Blob argument into bytes where FileReaderSync is missing (the core reads Blobs itself in a
// worker), and transfers the ArrayBuffers of a result instead of copying them.
// Cancel is the page terminating the worker and starting a new one (its pool workers, nested
// in it, end with it: ./pool.js).
//   page → host, for the tests: {type: 'pool', size, dieOnJob} restarts the pool (./pool.js);
//   host → page: {type: 'pool', size, ready, jobs, failed, died, wasmBytes, why} as its counts
//   change (why: why it has no workers).

import { createPool, poolSize } from './pool.js';
import { runWarmUp } from './warm.js';

// The warm-up (./warm.js) starts WARM_AFTER_MS after the core is ready, and not at all if a
// file was asked for by then: a call cannot be interrupted, and the first warm open is the
// coldest (~0.6–0.8 s), so a file picked at once (a drop onto the page as it loads) would
// otherwise wait for it — the 32 MB real-shaped NEFF's overview took 1.4 s instead of 0.25.
// It runs here, in the core worker, not in a pool worker: the code V8 optimized in a pool
// worker instantiated from the same Module did not make the core worker's first open faster
// (docs/performance.md).
const WARM_AFTER_MS = 1000;

const isBlob = (v) => typeof Blob !== 'undefined' && v instanceof Blob;

// carriesFile says whether a request's args hold a file (a Blob, bytes, or a list of them).
function carriesFile(args) {
  if (!args || typeof args !== 'object') return false;
  const isFile = (v) => isBlob(v) || ArrayBuffer.isView(v) || v instanceof ArrayBuffer;
  return Object.values(args).some((v) => isFile(v) || (Array.isArray(v) && v.some(isFile)));
}

// createCoreHost wires the protocol to the Go core. post(msg, transfer) sends to the page.
/** @param {(msg: object, transfer?: Transferable[]) => void} post */
export function createCoreHost(post) {
  let core = null;
  const now = () => ((typeof performance !== 'undefined') ? performance.now() : Date.now());
  const started = now();
  const fatal = (message) => post({ type: 'fatal', error: { code: 'internal', message } });

  /**
   * start loads the wasm and starts the core; warmSource (a URL or the bytes of a small NEFF;
   * none: no warm-up) is opened while the worker is idle after it (the warm-up above).
   * @param {string | ArrayBuffer | ArrayBufferView} wasmSource
   * @param {string | ArrayBuffer | ArrayBufferView} [warmSource]
   * @param {string} [selfSource] this worker's script, where the pool workers cannot be
   *   started from its URL (the single file's Blob worker from file://)
   */
  async function start(wasmSource, warmSource, selfSource) {
    // The site's core worker reads its own script (and wasm_exec.js) while the wasm compiles,
    // so a pool worker started with a file is a Blob of it: opening a file asks the network
    // for nothing (e2e TestNoRequestWhenOpening).
    const own = selfSource ? Promise.resolve(selfSource) : ownSource();
    try {
      if (typeof Go === 'undefined') throw new Error('wasm_exec.js did not load');
      const go = new Go();
      // Compiled apart from its instance: the pool workers are instantiated from the same
      // Module (./pool.js), which costs them no compile.
      if (wasmSource instanceof ArrayBuffer || ArrayBuffer.isView(wasmSource)) {
        module = await WebAssembly.compile(/** @type {BufferSource} */ (wasmSource));
      } else {
        const resp = await fetch(wasmSource);
        if (!resp.ok) throw new Error('loading ' + wasmSource + ': HTTP ' + resp.status);
        try {
          module = await WebAssembly.compileStreaming(resp.clone());
        } catch (e) {
          // A host that serves .wasm with the wrong Content-Type: compile from bytes instead.
          module = await WebAssembly.compile(await resp.arrayBuffer());
        }
      }
      const instance = await WebAssembly.instantiate(module, go.importObject);
      // go.run runs main() until it blocks (the core is registered by then); its promise
      // settles only if the Go program exits, e.g. after running out of memory.
      go.run(instance).then(() => fatal('the neffscope core stopped (the Go runtime exited; a file may have needed more memory than the tab has)'));
      core = globalThis.neffscopeCore;
      if (!core) throw new Error('the wasm started but did not register neffscopeCore');
      core.memory = instance.exports.mem; // the core reports its size (wasmBytes)
      const src = await own;
      if (src) poolURL = URL.createObjectURL(new Blob([src], { type: 'text/javascript' }));
      post({ type: 'ready', version: core.version, model: core.model, methods: Array.from(core.methods), ms: now() - started });
      // The pool starts with the first file asked for (handle), not now: on a machine of few
      // cores its workers' start slowed a small file picked at load, and the warm-up runs
      // without it. A test that asked for a pool (setPool) has it now.
      if (poolOpts.size !== undefined || fileAsked) startPool();
      else post({ type: 'pool', size: 0, ready: 0, jobs: 0, failed: 0, died: 0, wasmBytes: 0, why: 'it starts with the first file' });
      if (warmSource) {
        setTimeout(() => {
          if (fileAsked) post({ type: 'warm', opens: 0, ms: 0, stopped: true });
          else warmUp(warmSource);
        }, WARM_AFTER_MS);
      }
    } catch (e) {
      fatal('the neffscope core could not start: ' + (e && e.message || e));
    }
  }

  /**
   * ownSource is this worker's script with wasm_exec.js before it, as a pool worker started
   * from a Blob needs it; undefined where it cannot be read (the pool then starts from the
   * worker's URL).
   * @returns {Promise<string | undefined>}
   */
  async function ownSource() {
    if (typeof self === 'undefined' || !self.location || !/^https?:/.test(self.location.href) || typeof fetch === 'undefined') return undefined;
    try {
      const text = async (u) => { const r = await fetch(u); if (!r.ok) throw new Error(u + ': HTTP ' + r.status); return r.text(); };
      const [exec, me] = await Promise.all([text('wasm_exec.js'), text(self.location.href)]);
      return exec + '\n' + me;
    } catch (e) {
      return undefined;
    }
  }

  /** @type {WebAssembly.Module | null} */
  let module = null;
  /** @type {ReturnType<typeof createPool> | null} */
  let pool = null;
  /** @type {{size?: number, dieOnJob?: boolean}} */
  let poolOpts = {};
  let poolURL = typeof self !== 'undefined' && self.location ? self.location.href : '';
  // startPool starts the pool workers (./pool.js) where this host runs in a worker that can
  // start workers; elsewhere (the page fallback, no nested workers) the core works alone.
  let poolStarted = false;
  function startPool() {
    if (!core) return;
    poolStarted = true;
    if (pool) { pool.stop(); pool = null; }
    if (core) delete core.pool;
    const inWorker = typeof WorkerGlobalScope !== 'undefined' && self instanceof WorkerGlobalScope;
    const n = poolOpts.size !== undefined ? poolOpts.size : poolSize(typeof navigator !== 'undefined' ? navigator.hardwareConcurrency : 0);
    const why = !core || !module ? 'the core did not start' : !inWorker ? 'the core runs on the page' : typeof Worker === 'undefined' ? 'this browser starts no workers from a worker' : n <= 0 ? 'a pool of none was asked for' : '';
    if (why) {
      post({ type: 'pool', size: 0, ready: 0, jobs: 0, failed: 0, died: 0, wasmBytes: 0, why });
      return;
    }
    pool = createPool(n, poolURL, module, { dieOnJob: poolOpts.dieOnJob, onStats: (st) => post(Object.assign({ type: 'pool' }, st)) });
    core.pool = pool;
  }
  /**
   * setPool restarts the pool with opts (size: how many workers, 0: none; dieOnJob: the tests'
   * workers that die with their first job); before the core is ready, it starts that way.
   * @param {{size?: number, dieOnJob?: boolean}} opts
   */
  function setPool(opts) {
    poolOpts = { size: opts.size, dieOnJob: !!opts.dieOnJob };
    if (core) startPool();
  }

  let fileAsked = false; // a request carrying a file came: the warm-up stops
  const warmUp = (src) => runWarmUp(core, src, () => fileAsked, post, now);

  // Without FileReaderSync (the page fallback) the core cannot read a Blob in slices, so a
  // Blob argument, or a Blob in an array argument, is read whole first; its bytes keep its name.
  async function bytesOf(blob) {
    /** @type {Uint8Array & {name?: string}} */
    const u8 = new Uint8Array(await blob.arrayBuffer());
    if (blob.name) u8.name = blob.name;
    return u8;
  }
  async function readBlobs(args) {
    if (typeof FileReaderSync !== 'undefined' || !args || typeof args !== 'object') return args;
    const out = Object.assign({}, args);
    for (const [k, v] of Object.entries(out)) {
      if (isBlob(v)) out[k] = await bytesOf(v);
      else if (Array.isArray(v)) out[k] = await Promise.all(v.map((x) => (isBlob(x) ? bytesOf(x) : x)));
    }
    return out;
  }

  // transferables lists a result's ArrayBuffers: top level, and one level into arrays of objects.
  function transferables(result) {
    const out = new Set();
    const add = (v) => { if (v instanceof ArrayBuffer) out.add(v); };
    if (result && typeof result === 'object') {
      for (const v of Object.values(result)) {
        add(v);
        if (Array.isArray(v)) for (const e of v) if (e && typeof e === 'object') Object.values(e).forEach(add);
      }
    }
    return Array.from(out);
  }

  async function handle(msg) {
    if (carriesFile(msg.args)) {
      fileAsked = true;
      if (!poolStarted) startPool();
    }
    const id = msg.id;
    try {
      if (!core) throw { code: 'unavailable', message: 'the neffscope core is not ready yet' };
      const args = await readBlobs(msg.args);
      const emit = (event, data) => post({ id, type: 'event', event, data }, data instanceof ArrayBuffer ? [data] : []);
      const result = await core.call(msg.method, args, emit);
      post({ id, type: 'result', result }, transferables(result));
    } catch (e) {
      const error = e && typeof e.code === 'string' && typeof e.message === 'string'
        ? { code: e.code, message: e.message }
        : { code: 'internal', message: String(e && e.message || e) };
      post({ id, type: 'error', error });
    }
  }

  return { start, handle, setPool };
}

// WARM_NEFF is the small real NEFF the site's worker warms up on (`make wasm` puts it there).
const WARM_NEFF = 'warm/matmul_small.neff';

// serveWorker runs the core host as this worker's message loop. The site's worker loads
// wasm_exec.js itself; the single-file build's Blob worker has it prepended and is told to
// wait for the wasm bytes (NEFFSCOPE_WAIT_FOR_WASM, then an 'init' message).
export function serveWorker() {
  if (typeof Go === 'undefined') importScripts('wasm_exec.js');
  // self is the worker's scope (the dom lib types it as a Window, whose postMessage differs).
  const host = createCoreHost((msg, transfer) => /** @type {any} */ (self).postMessage(msg, transfer || []));
  const queue = [];
  let ready = false;
  self.onmessage = (ev) => {
    const msg = ev.data;
    if (msg && msg.type === 'pool') { host.setPool(msg); return; }
    if (msg && msg.type === 'init') {
      // The single-file build hands over the inflated wasm bytes.
      host.start(msg.wasm, msg.warm, msg.src).then(() => { ready = true; queue.splice(0).forEach((m) => host.handle(m)); });
      return;
    }
    if (!ready) { queue.push(msg); return; }
    host.handle(msg);
  };
  if (!self.NEFFSCOPE_WAIT_FOR_WASM) {
    host.start('neffscope.wasm', WARM_NEFF).then(() => { ready = true; queue.splice(0).forEach((m) => host.handle(m)); });
  }
}
