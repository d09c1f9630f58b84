// @ts-check
// The core connection: a Web Worker running the Go core (worker/core-host.js), or failing
// that the core on this page. Every request goes through call(); every failure is a CoreError.

import { $, toast } from '../dom.js';
import { hashStop, hashWorker } from './hasher.js';
import { METHODS } from './methods.gen.js';
import { newWorker, single, workerSource } from './workers.js';

const METHOD_NAMES = new Set(METHODS.map((m) => m.name));

export { newWorker, single };
export const core = {
  mode: 'none', // 'worker' | 'main'
  worker: null,
  host: null,
  gen: 0, // bumped on every (re)start: handles from an older generation are void
  ready: false,
  readyWaiters: [],
  started: 0,
  /** @type {{opens: number, ms: number, stopped: boolean, error?: string} | null} the worker's warm-up, once it ended */
  warm: null,
  /** @type {{size: number, ready: number, jobs: number, failed: number, died: number, wasmBytes: number, why: string} | null} the core worker's pool workers (worker/pool.js), as it last said; why: why it has none */
  pool: null,
};

let wasmBytesPromise = null;
// inflateEmbeddedWasm turns the single file's base64 gzip wasm into bytes (once).
function inflateEmbeddedWasm() {
  if (!wasmBytesPromise) {
    wasmBytesPromise = (async () => {
      const gz = base64Bytes(single.textContent || '');
      const stream = new Blob([gz]).stream().pipeThrough(new DecompressionStream('gzip'));
      return new Response(stream).arrayBuffer();
    })();
  }
  return wasmBytesPromise;
}

/** @type {((doc: ArrayBuffer) => void)[]} */
const warmHooks = [];

/**
 * onWarm runs f with the Document of the worker's first warm-up open (core-host.js), as soon
 * as it is made: the page decodes it once so its own first decode is not a cold one.
 * @param {(doc: ArrayBuffer) => void} f
 */
export function onWarm(f) { warmHooks.push(f); }

// embeddedWarm gives the single file's warm-up NEFF (base64, id warm-data) as bytes, or
// undefined when the page has none: the worker then skips its warm-up.
function embeddedWarm() {
  const e = $('warm-data');
  if (!e) return undefined;
  return base64Bytes(e.textContent || '').buffer;
}

/**
 * exampleNEFF: the small real NEFF the page ships (the worker's warm-up file), as a File: the
 * single file's embedded copy, or the site's warm/matmul_small.neff.
 * @returns {Promise<File>}
 */
export async function exampleNEFF() {
  const e = $('warm-data');
  let bytes;
  if (e) bytes = base64Bytes(e.textContent || '');
  else {
    const r = await fetch('warm/matmul_small.neff');
    if (!r.ok) throw new Error('loading the example: HTTP ' + r.status);
    bytes = new Uint8Array(await r.arrayBuffer());
  }
  return new File([bytes], 'matmul_small.neff', { type: 'application/octet-stream' });
}

// base64Bytes decodes the base64 text of an embedded data script (whitespace ignored).
function base64Bytes(text) {
  const bin = atob(text.replace(/\s+/g, ''));
  const u8 = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) u8[i] = bin.charCodeAt(i);
  return u8;
}

function setCoreStatus(state, text, title) {
  const s = $('core-status');
  s.dataset.state = state;
  s.textContent = text;
  s.title = title || '';
}

/**
 * startCore starts (or restarts) the core worker and the hash worker; without workers it
 * falls back to the core on this page.
 */
export function startCore() {
  core.gen++;
  core.ready = false;
  core.warm = null;
  core.pool = null;
  core.started = performance.now();
  setCoreStatus('starting', 'core starting…');
  let w;
  try {
    const prelude = ['self.NEFFSCOPE_WAIT_FOR_WASM = true;\n', single ? $('wasm-exec-src').textContent : '', '\n'];
    w = newWorker('', prelude);
    if (single) {
      inflateEmbeddedWasm().then((buf) => {
        const copy = buf.slice(0), warm = embeddedWarm();
        w.postMessage({ type: 'init', wasm: copy, warm, src: workerSource(prelude) }, warm ? [copy, warm] : [copy]);
      })
        .catch((e) => fallbackToMainThread('the embedded wasm could not be inflated: ' + e.message));
    }
  } catch (e) {
    fallbackToMainThread('no Web Worker could be created here (' + e.message + ')');
    return;
  }
  core.mode = 'worker';
  core.worker = w;
  // The hash worker starts now too, so opening a file asks the network for nothing.
  try { hashWorker(); } catch (e) { console.info('neffscope: no hash worker (' + e.message + '); the core hashes files itself'); }
  const gen = core.gen;
  w.onmessage = (ev) => { if (gen === core.gen) onCoreMessage(ev.data); };
  w.onerror = (ev) => {
    if (gen !== core.gen) return;
    ev.preventDefault();
    if (!core.ready) fallbackToMainThread('the worker failed to start (' + (ev.message || 'error') + ')');
    else coreDied('the worker crashed: ' + (ev.message || 'error'));
  };
}

function loadScript(src) {
  return new Promise((resolve, reject) => {
    const s = document.createElement('script');
    s.src = src;
    s.onload = resolve;
    s.onerror = () => reject(new Error('could not load ' + src));
    document.head.appendChild(s);
  });
}

// fallbackToMainThread runs the core on this page: it works, but a big file freezes the
// page while it is read, cancel is not possible, and the file is read whole into memory.
async function fallbackToMainThread(reason) {
  if (core.worker) { core.worker.terminate(); core.worker = null; }
  core.gen++;
  core.mode = 'main';
  core.fallbackReason = reason;
  const gen = core.gen;
  setCoreStatus('starting', 'core starting on the page…', reason);
  try {
    if (typeof Go === 'undefined') await loadScript('wasm_exec.js');
    if (typeof NeffscopeCoreHost === 'undefined') await loadScript('worker.js');
    core.host = NeffscopeCoreHost((msg) => setTimeout(() => { if (gen === core.gen) onCoreMessage(msg); }, 0));
    await core.host.start(single ? (await inflateEmbeddedWasm()).slice(0) : 'neffscope.wasm');
  } catch (e) {
    setCoreStatus('failed', 'core failed', String(e.message || e));
    toast('The neffscope core could not start: ' + (e.message || e));
  }
}

/**
 * CoreError is the one way a core request fails: every rejection of call() is one.
 * code: 'bad-request' (malformed args), 'not-found' (unknown handle, ref or key),
 * 'unavailable' (e.g. IndexedDB off), 'limit' (a size or memory limit), 'internal' (the core
 * died or panicked), 'failed' (any other error; the message says what, where and what to do),
 * and on the page side only 'cancelled' (the user cancelled: the worker was replaced).
 */
export class CoreError extends Error {
  /** @param {string} code @param {string} message */
  constructor(code, message) {
    super(message);
    this.name = 'CoreError';
    this.code = code;
  }
}

function onCoreMessage(msg) {
  if (msg.type === 'ready') {
    core.ready = true;
    const ms = Math.round(performance.now() - core.started);
    if (core.mode === 'worker') {
      setCoreStatus('ready', 'core ready · ' + ms + ' ms', 'Go ' + msg.version + ' WebAssembly in a Web Worker; document model ' + msg.model);
    } else {
      setCoreStatus('fallback', 'core on main thread', 'No Web Worker could be used (' + core.fallbackReason + '). The core runs on this page: big files freeze it while they are read, and Cancel is not available.');
      toast('Running without a Web Worker: ' + core.fallbackReason + '. Large files will freeze the page while they are read.', 'warning');
    }
    core.readyWaiters.splice(0).forEach((f) => f());
    return;
  }
  if (msg.type === 'warm-doc') {
    for (const f of warmHooks) f(msg.doc);
    return;
  }
  if (msg.type === 'pool') {
    const { size, ready, jobs, failed, died, wasmBytes, why } = msg;
    core.pool = { size, ready, jobs, failed, died, wasmBytes, why: why || '' };
    return;
  }
  if (msg.type === 'warm') {
    core.warm = { opens: msg.opens, ms: msg.ms, stopped: !!msg.stopped, error: msg.error };
    return;
  }
  if (msg.type === 'fatal') {
    const wasReady = core.ready;
    const message = (msg.error && msg.error.message) || 'the core failed';
    if (wasReady && core.mode === 'worker') { coreDied(message); return; }
    setCoreStatus('failed', 'core failed', message);
    toast(message);
    failAll('internal', message);
    return;
  }
  transport.receive(msg);
}

// coreDied handles a worker that died after starting (most often the wasm heap ran out: a
// file needing more memory than the page allows): every request in flight fails with
// 'internal', the page says so, a fresh core starts, and a Reopen button opens the file again
// (features/open.js listens for neffscope:reopen).
function coreDied(why) {
  const message = 'The core stopped (' + why + '): this file probably needs more memory than the page allows. A new core was started; your other tabs are kept.';
  setCoreStatus('failed', 'core restarted', message);
  failAll('internal', message);
  toast(message, 'error', { label: 'Reopen', run: () => window.dispatchEvent(new CustomEvent('neffscope:reopen')) });
  if (core.mode === 'worker' && core.worker) { core.worker.terminate(); startCore(); }
}

// failAll rejects every request in flight (the worker died or was cancelled).
function failAll(code, message) {
  transport.failAll(code, message);
}

function whenReady() {
  return core.ready ? Promise.resolve() : new Promise((r) => core.readyWaiters.push(r));
}

/**
 * createTransport keeps the requests in flight over one message channel: send(msg) posts a
 * request, receive(msg) takes every message the core sends back. request() is the one place
 * that knows the wire format (protocol v2; the methods are wasm/protocol's table, typed in
 * methods.gen.js):
 *   page → core: {id, method, args}
 *   core → page: {id, type: 'event', event, data} | {id, type: 'result', result} |
 *                {id, type: 'error', error: {code, message}}
 * @param {(msg: object) => void} send
 */
export function createTransport(send) {
  /** @type {Map<number, (msg: any) => void>} */
  const pending = new Map();
  let nextId = 1;

  /**
   * request sends method with its named args; it resolves with the result's fields or
   * rejects with a CoreError. hooks.onEvent(event, data) gets the request's events before it
   * settles: 'progress' ({phase, done, total, inflated, read}), 'header' (an ArrayBuffer:
   * a msgpack Document with only the header) and 'overview' (an ArrayBuffer: a msgpack Node,
   * the partial overview while the archive is read).
   * @param {string} method
   * @param {object} [args]
   * @param {{onEvent?: (event: string, data: any) => void}} [hooks]
   * @returns {Promise<any>}
   */
  function request(method, args, hooks) {
    const id = nextId++;
    const msg = { id, method, args: args || {} };
    const onEvent = hooks && hooks.onEvent;
    return new Promise((resolve, reject) => {
      pending.set(id, (m) => {
        switch (m.type) {
          case 'event': if (onEvent) onEvent(m.event, m.data); return;
          case 'result': pending.delete(id); resolve(m.result || {}); return;
          case 'error': {
            pending.delete(id);
            const e = m.error;
            reject(e instanceof CoreError ? e : new CoreError((e && e.code) || 'failed', String((e && e.message) || 'the core failed without a message')));
          }
        }
      });
      try {
        send(msg);
      } catch (e) {
        // postMessage refuses arguments it cannot clone (DataCloneError).
        pending.delete(id);
        reject(new CoreError('bad-request', method + ': ' + (e && e.message || e)));
      }
    });
  }

  /** receive hands a message from the core to its request; false when none is waiting. @param {any} msg */
  function receive(msg) {
    const p = msg && pending.get(msg.id);
    if (p) p(msg);
    return !!p;
  }

  /** failAll rejects every request in flight with one CoreError. @param {string} code @param {string} message */
  function failAll(code, message) {
    const err = new CoreError(code, message);
    for (const p of pending.values()) p({ type: 'error', error: err });
    pending.clear();
  }

  return { request, receive, failAll, get inFlight() { return pending.size; } };
}

const transport = createTransport((msg) => {
  if (core.mode === 'worker') core.worker.postMessage(msg);
  else core.host.handle(msg);
});

/**
 * call is how the page asks the core anything: it waits for the core to be ready, then sends
 * method with its named args (see createTransport). Every failure is a CoreError. The methods,
 * their args and results are wasm/protocol's table (methods.gen.js); a name not in it is refused
 * here, before anything is sent.
 * Typed by method: args must be the method's Args and the promise gives its Result
 * (methods.gen.js MethodTypes), so `make typecheck` checks every call.
 * @template {import('./methods.gen.js').Method} M
 * @param {M} method
 * @param {import('./methods.gen.js').MethodTypes[M]['args']} [args]
 * @param {{onEvent?: (event: string, data: any) => void}} [hooks]
 * @returns {Promise<import('./methods.gen.js').MethodTypes[M]['result']>}
 */
export async function call(method, args, hooks) {
  if (!METHOD_NAMES.has(method)) throw new CoreError('bad-request', 'no core method ' + method + ' (wasm/protocol declares ' + METHODS.map((m) => m.name).join(', ') + ')');
  await whenReady();
  return transport.request(method, args, hooks);
}

/**
 * cancel stops whatever the core is doing by ending the worker and starting a fresh one;
 * every request in flight rejects with code 'cancelled'. false when it cannot (no worker).
 * @returns {boolean}
 */
export function cancel() {
  if (core.mode !== 'worker') return false;
  hashStop();
  core.worker.terminate();
  core.worker = null;
  failAll('cancelled', 'cancelled');
  startCore();
  return true;
}
