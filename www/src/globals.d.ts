// Globals the modules use that no import declares (for editors and `tsc -p www/src`; the
// bundler ignores this file).

/** wasm_exec.js (Go's): the Go runtime for the core's wasm. */
declare const Go: any;
/** worker/main.js on the page: the core host factory for the no-worker fallback. */
declare const NeffscopeCoreHost: any;
/** Dedicated workers only: synchronous Blob reads. */
declare const FileReaderSync: { new (): { readAsArrayBuffer(blob: Blob): ArrayBuffer } };
/** Workers only. */
declare function importScripts(...urls: string[]): void;
/** Workers only. */
declare const WorkerGlobalScope: any;
/** vendor/msgpack (index.html loads it before app.js). */
declare const MessagePack: { decode(buf: Uint8Array): any };

interface Window {
  /** Set by the single-file build's worker prelude: wait for the wasm bytes in an 'init' message. */
  NEFFSCOPE_WAIT_FOR_WASM?: boolean;
}
