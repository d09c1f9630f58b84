// @ts-check
// The warm-up. V8 compiles a wasm's functions lazily, at a baseline tier, and optimizes the hot
// ones only after they have run a while: the first open after a load ran 3–6× slower than the
// next (matmul_small: the core 540 ms, then 90–120). So while the worker is idle after its start
// it opens a small real NEFF it was given (warm/matmul_small.neff) WARM_OPENS times as the page
// opens a file (then maps its source, hashes its members, closes it): the user's first open
// runs at the speed of a later one. Once a request carrying a file arrives it stops before its
// next call; the call in progress yields to that request at its next pause (the warm open is a
// background one: it pauses at its progress points and before its encoding). When it starts:
// core-host.js.
export const WARM_OPENS = 3;

/**
 * runWarmUp is the warm-up: src (a URL, or the NEFF's bytes) opened WARM_OPENS times through
 * core.call as the page opens a file, its source mapped, its members hashed, closed, until
 * stop() says a file was asked for; the first open's Document goes to the page as soon as it is
 * made (post({type: 'warm-doc', doc})), and at the end post({type: 'warm', opens, ms, stopped, error}).
 * @param {{call: (method: string, args: object, emit: Function) => Promise<any>}} core
 * @param {string | ArrayBuffer | ArrayBufferView} src
 * @param {() => boolean} stop
 * @param {(msg: object, transfer?: Transferable[]) => void} post
 * @param {() => number} now
 */
export async function runWarmUp(core, src, stop, post, now) {
  const t0 = now();
  const quiet = () => {};
  let opens = 0;
  try {
    let bytes = src;
    if (typeof src === 'string') {
      const r = await fetch(src);
      if (!r.ok) throw new Error('loading ' + src + ': HTTP ' + r.status);
      bytes = new Uint8Array(await r.arrayBuffer());
    } else if (src instanceof ArrayBuffer) bytes = new Uint8Array(src);
    // As a Blob where the worker can read one (FileReaderSync): the path a picked file takes.
    const file = typeof Blob !== 'undefined' && typeof FileReaderSync !== 'undefined' ? new Blob([/** @type {Uint8Array<ArrayBuffer>} */ (bytes)]) : bytes;
    while (opens < WARM_OPENS && !stop()) {
      // background: the open yields at its progress points, so a file asked for meanwhile
      // starts there instead of after it (wasm/bridge.go open).
      const r = await core.call('open', { file, name: 'warm.neff', memberHashes: false, deferSource: true, deferSourceOver: 0, background: true }, quiet);
      // The first Document goes to the page at once: it decodes it while this goes on, so a
      // file picked before the warm-up ends is decoded by warm code too.
      if (opens === 0 && r.doc instanceof ArrayBuffer) post({ type: 'warm-doc', doc: r.doc }, [r.doc]);
      try {
        // (A file asked for meanwhile waits for these too: skip them.)
        if (!stop()) await core.call('indexSource', { handle: r.handle }, quiet);
        if (!stop()) await core.call('hashMembers', { handle: r.handle }, quiet);
      } finally {
        await core.call('close', { handle: r.handle }, quiet);
      }
      opens++;
    }
    post({ type: 'warm', opens, ms: now() - t0, stopped: opens < WARM_OPENS });
  } catch (e) {
    // A warm-up that cannot run (no file, offline without it) costs the page nothing.
    post({ type: 'warm', opens, ms: now() - t0, stopped: true, error: String(e && e.message || e) });
  }
}

