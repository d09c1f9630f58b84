// neffscope core host: runs the Go core (neffscope.wasm + wasm_exec.js of the same Go) and
// answers the page's requests. It normally runs in a dedicated Web Worker started at page
// load, so a drop never waits for start-up and decoding never freezes the page. The same code
// can run on the page itself (app.js falls back to that when no worker can be created, e.g.
// a locked-down file:// context); then FileReaderSync is unavailable and the file is read
// whole first.
//
// Protocol (wasm/protocol declares every method; www/src/core/methods.gen.js is its page view):
//   page → host: {id, method, args} — args is one object of named arguments;
//   host → page: {id, type: 'event', event: 'progress'|'header', data},
//                {id, type: 'result', result}, {id, type: 'error', error: {code, message}};
//   once: {type: 'ready', version, model, methods, ms} or {type: 'fatal', error: {code, message}}.
// The host is a generic forwarder to neffscopeCore.call: it knows no method. It only reads a
// Blob argument into bytes where FileReaderSync is missing (the core reads Blobs itself in a
// worker), and transfers the ArrayBuffers of a result instead of copying them.
// Cancel is the page terminating the worker and starting a new one.
'use strict';

(function () {
  const inWorker = typeof WorkerGlobalScope !== 'undefined' && self instanceof WorkerGlobalScope;

  // SHA-256 (FIPS 180-4), streaming (the hash role below; WebCrypto has no streaming digest,
  // and a one-shot digest of a big file would hold it in memory twice). update(u8) any number of times, then digest() → hex.
  const K = new Int32Array([
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2]);
  class SHA256 {
    constructor() {
      this.h = new Int32Array([0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19]);
      this.w = new Int32Array(64);
      this.buf = new Uint8Array(64);
      this.fill = 0;
      this.len = 0;
    }
    update(data) {
      let i = 0;
      const n = data.length;
      this.len += n;
      if (this.fill) {
        while (this.fill < 64 && i < n) this.buf[this.fill++] = data[i++];
        if (this.fill < 64) return this;
        this.blocks(this.buf, 0, 64);
        this.fill = 0;
      }
      const whole = (n - i) & ~63;
      if (whole) { this.blocks(data, i, whole); i += whole; }
      while (i < n) this.buf[this.fill++] = data[i++];
      return this;
    }
    blocks(p, off, len) {
      const w = this.w, h = this.h;
      let h0 = h[0], h1 = h[1], h2 = h[2], h3 = h[3], h4 = h[4], h5 = h[5], h6 = h[6], h7 = h[7];
      for (let end = off + len; off < end; off += 64) {
        for (let t = 0, j = off; t < 16; t++, j += 4) w[t] = (p[j] << 24) | (p[j + 1] << 16) | (p[j + 2] << 8) | p[j + 3];
        for (let t = 16; t < 64; t++) {
          const a = w[t - 2], b = w[t - 15];
          w[t] = (((a >>> 17) | (a << 15)) ^ ((a >>> 19) | (a << 13)) ^ (a >>> 10)) + w[t - 7] +
            (((b >>> 7) | (b << 25)) ^ ((b >>> 18) | (b << 14)) ^ (b >>> 3)) + w[t - 16] | 0;
        }
        let a = h0, b = h1, c = h2, d = h3, e = h4, f = h5, g = h6, hh = h7;
        for (let t = 0; t < 64; t++) {
          const t1 = hh + (((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7))) + ((e & f) ^ (~e & g)) + K[t] + w[t] | 0;
          const t2 = (((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10))) + ((a & b) ^ (a & c) ^ (b & c)) | 0;
          hh = g; g = f; f = e; e = d + t1 | 0; d = c; c = b; b = a; a = t1 + t2 | 0;
        }
        h0 = h0 + a | 0; h1 = h1 + b | 0; h2 = h2 + c | 0; h3 = h3 + d | 0;
        h4 = h4 + e | 0; h5 = h5 + f | 0; h6 = h6 + g | 0; h7 = h7 + hh | 0;
      }
      h[0] = h0; h[1] = h1; h[2] = h2; h[3] = h3; h[4] = h4; h[5] = h5; h[6] = h6; h[7] = h7;
    }
    digest() {
      const bits = this.len * 8;
      const pad = new Uint8Array(((this.fill + 9 + 63) & ~63) - this.fill);
      pad[0] = 0x80;
      const hi = Math.floor(bits / 0x100000000), lo = bits >>> 0;
      const m = pad.length;
      pad[m - 8] = hi >>> 24; pad[m - 7] = hi >>> 16; pad[m - 6] = hi >>> 8; pad[m - 5] = hi;
      pad[m - 4] = lo >>> 24; pad[m - 3] = lo >>> 16; pad[m - 2] = lo >>> 8; pad[m - 1] = lo;
      const len = this.len;
      this.update(pad);
      this.len = len;
      return Array.from(this.h, (x) => (x >>> 0).toString(16).padStart(8, '0')).join('');
    }
  }

  // The hash role: a second worker, named HASH_ROLE by the page, that only computes a file's
  // sha-256 (its fingerprint) while the core worker opens it, on another core: the core's
  // own SHA-256 in wasm would add ~2 s to a 200 MB open. It reads the File in slices, so it
  // holds no more than one slice. Protocol: {id, file} → {id, sha256} or {id, error}.
  const HASH_ROLE = 'neffscope-hash';
  const HASH_SLICE = 4 << 20;
  if (inWorker && self.name === HASH_ROLE) {
    self.onmessage = (ev) => {
      const { id, file } = ev.data || {};
      try {
        const frs = new FileReaderSync();
        const h = new SHA256();
        for (let off = 0; off < file.size; off += HASH_SLICE) h.update(new Uint8Array(frs.readAsArrayBuffer(file.slice(off, off + HASH_SLICE))));
        self.postMessage({ id, sha256: h.digest() });
      } catch (e) {
        self.postMessage({ id, error: String(e && e.message || e) });
      }
    };
    return;
  }

  // createCoreHost forwards requests to the Go core. post(msg, transfer) sends to the page.
  function createCoreHost(post) {
    let core = null;
    const now = () => ((typeof performance !== 'undefined') ? performance.now() : Date.now());
    const started = now();
    const fatal = (message) => post({ type: 'fatal', error: { code: 'internal', message } });

    async function start(wasmSource) {
      try {
        if (typeof Go === 'undefined') throw new Error('wasm_exec.js did not load');
        const go = new Go();
        let result;
        if (wasmSource instanceof ArrayBuffer || ArrayBuffer.isView(wasmSource)) {
          result = await WebAssembly.instantiate(wasmSource, go.importObject);
        } else {
          const resp = await fetch(wasmSource);
          if (!resp.ok) throw new Error('loading ' + wasmSource + ': HTTP ' + resp.status);
          try {
            result = await WebAssembly.instantiateStreaming(resp.clone(), go.importObject);
          } catch (e) {
            // A host that serves .wasm with the wrong Content-Type: compile from bytes instead.
            result = await WebAssembly.instantiate(await resp.arrayBuffer(), go.importObject);
          }
        }
        // go.run runs main() until it blocks (the core is registered by then); its promise
        // settles only if the Go program exits, e.g. after running out of memory.
        go.run(result.instance).then(() => fatal('the neffscope core stopped (the Go runtime exited; a file may have needed more memory than the tab has)'));
        core = globalThis.neffscopeCore;
        if (!core) throw new Error('the wasm started but did not register neffscopeCore');
        core.memory = result.instance.exports.mem; // the core reports its size (wasmBytes)
        post({ type: 'ready', version: core.version, model: core.model, methods: Array.from(core.methods), ms: now() - started });
      } catch (e) {
        fatal('the neffscope core could not start: ' + (e && e.message || e));
      }
    }

    // Without FileReaderSync (the page fallback) the core cannot read a Blob in slices, so a
    // Blob argument, or a Blob in an array argument, is read whole first; its bytes keep its name.
    const isBlob = (v) => typeof Blob !== 'undefined' && v instanceof Blob;
    async function bytesOf(blob) {
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

    return { start, handle };
  }

  if (!inWorker) {
    globalThis.NeffscopeCoreHost = createCoreHost;
    return;
  }

  if (typeof Go === 'undefined') importScripts('wasm_exec.js');
  const host = createCoreHost((msg, transfer) => self.postMessage(msg, transfer || []));
  const queue = [];
  let ready = false;
  self.onmessage = (ev) => {
    const msg = ev.data;
    if (msg && msg.type === 'init') {
      // The single-file build hands over the inflated wasm bytes.
      host.start(msg.wasm).then(() => { ready = true; queue.splice(0).forEach((m) => host.handle(m)); });
      return;
    }
    if (!ready) { queue.push(msg); return; }
    host.handle(msg);
  };
  if (!self.NEFFSCOPE_WAIT_FOR_WASM) {
    host.start('neffscope.wasm').then(() => { ready = true; queue.splice(0).forEach((m) => host.handle(m)); });
  }
})();
