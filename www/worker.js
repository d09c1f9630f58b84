// neffscope core host: runs the Go core (neffscope.wasm + wasm_exec.js of the same Go) and
// answers the page's requests. It normally runs in a dedicated Web Worker started at page
// load, so a drop never waits for start-up and decoding never freezes the page. The same code
// can run on the page itself (app.js falls back to that when no worker can be created, e.g.
// a locked-down file:// context); then FileReaderSync is unavailable and the file is read
// whole first.
//
// Protocol (page → host), every request has an id; answers carry the same id:
//   {id, type: 'open', file: File|Blob, name, fingerprint?} → progress*, header?, result {handle, doc, ms}
//        (fingerprint: false — the page computes the sha-256 and sends setFingerprint)
//   {id, type: 'setFingerprint', handle, sha256} → result {set}
//   {id, type: 'bytes', handle, source, off, n} → result {bytes: ArrayBuffer}
//   {id, type: 'rows', handle, ref, from, to}   → result {table: ArrayBuffer (msgpack Table), total}
//   {id, type: 'instruction', handle, ref, index} → result {node: ArrayBuffer (msgpack Node)}
//   {id, type: 'evaluate', handle, ref, x, mode} → result {node: ArrayBuffer (msgpack Node "pwp-eval")}
//   {id, type: 'plot', handle, ref, lo, hi, n, mode} → result {node: ArrayBuffer (msgpack Node "pwp-plot"), ms}
//   {id, type: 'openGroup', files: [File]}       → result {docs: [{handle, doc, name}]}
//   {id, type: 'openContext', file, name, arch, model} → result {handle, doc, ms}
//   {id, type: 'recontext', handle, arch, model} → result {handle, doc, ms} (bytes kept in the core)
//   {id, type: 'contextArches', size}            → result {node: ArrayBuffer (msgpack Node "ncfw-arches")}
//   {id, type: 'json', handle}                  → result {json: ArrayBuffer (the Document as inspect --json prints it)}
//   {id, type: 'diff', a, b}                    → result {node: ArrayBuffer (msgpack Node "diff": the
//                                                  two open files compared, as inspect.Diff)}
//   {id, type: 'diff', a, b, format: 'json'}    → result {json: ArrayBuffer (as `neffscope diff --json A B` prints it)}
//   {id, type: 'close', handle}                 → result {}
// The library (IndexedDB, wasm/library.go); each answers when IndexedDB has:
//   {id, type: 'libStatus'}                     → result {ok, reason?}
//   {id, type: 'libPut', handle, entry}         → result {kept, note?}; entry = {how: 'open'|'group'|
//        'context', files: [{name, size, blob?}], arch?, model?, node?}; the core adds key (the
//        sha-256), sha256, kind, size, summary, doc (msgpack) and opened (ms since 1970)
//   {id, type: 'libList'}                       → result {list: [entry without doc; files[i].kept]}
//   {id, type: 'libGet', key}                   → result {entry|null} (key: a sha-256 prefix)
//   {id, type: 'libRemove', key} / {id, type: 'libClear'} → result {}
// Host → page: {type: 'ready', version, model, ms} once, or {type: 'fatal', message};
//   {id, type: 'progress', p: {phase, done, total, inflated, read}};
//   {id, type: 'header', doc: ArrayBuffer (msgpack Document with only the header)};
//   {id, type: 'result', ...}; {id, type: 'error', message}.
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

  // createCoreHost wires the protocol to the Go core. post(msg, transfer) sends to the page.
  function createCoreHost(post) {
    let core = null;
    let memory = null; // the wasm linear memory, whose size the page reports (it never shrinks)
    const started = (typeof performance !== 'undefined') ? performance.now() : Date.now();

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
        go.run(result.instance).then(() => post({ type: 'fatal', message: 'the neffscope core stopped (the Go runtime exited; a file may have needed more memory than the tab has)' }));
        core = globalThis.neffscopeCore;
        memory = result.instance.exports.mem;
        if (!core) throw new Error('the wasm started but did not register neffscopeCore');
        const now = (typeof performance !== 'undefined') ? performance.now() : Date.now();
        post({ type: 'ready', version: core.version, model: core.model, ms: now - started });
      } catch (e) {
        post({ type: 'fatal', message: 'the neffscope core could not start: ' + (e && e.message || e) });
      }
    }

    // readerFor returns readSlice(off, n) → Uint8Array over a File/Blob.
    async function readerFor(file) {
      if (typeof FileReaderSync !== 'undefined') {
        const frs = new FileReaderSync();
        return (off, n) => new Uint8Array(frs.readAsArrayBuffer(file.slice(off, off + n)));
      }
      // Main-thread fallback: no synchronous file reads there, so read it whole.
      const all = new Uint8Array(await file.arrayBuffer());
      return (off, n) => all.subarray(off, Math.min(all.length, off + n));
    }

    function check(v) {
      if (v && typeof v === 'object' && typeof v.error === 'string') throw new Error(v.error);
      return v;
    }

    async function handle(msg) {
      const id = msg.id;
      try {
        if (!core) throw new Error('the neffscope core is not ready yet');
        switch (msg.type) {
          case 'open': {
            const readSlice = await readerFor(msg.file);
            const opts = {
              progress: (p) => post({ id, type: 'progress', p: { phase: p.phase, done: p.done, total: p.total, inflated: p.inflated, read: p.read } }),
              header: (u8) => { const b = u8.slice().buffer; post({ id, type: 'header', doc: b }, [b]); },
            };
            if (msg.fingerprint === false) opts.fingerprint = false;
            const r = check(core.open(readSlice, msg.file.size, msg.name || msg.file.name || 'file', opts));
            const docBuf = r.doc.buffer;
            post({ id, type: 'result', handle: r.handle, doc: docBuf, ms: r.ms, crossings: r.crossings, wasmBytes: memory ? memory.buffer.byteLength : 0 }, [docBuf]);
            break;
          }
          case 'setFingerprint':
            post({ id, type: 'result', set: check(core.setFingerprint(msg.handle, String(msg.sha256 || ''))) });
            break;
          case 'bytes': {
            const u8 = check(core.bytes(msg.handle, msg.source || '', msg.off, msg.n));
            const b = u8.buffer;
            post({ id, type: 'result', bytes: b }, [b]);
            break;
          }
          case 'rows': {
            const r = check(core.rows(msg.handle, msg.ref, msg.from, msg.to));
            const b = r.table.buffer;
            post({ id, type: 'result', table: b, total: r.total }, [b]);
            break;
          }
          case 'instruction': {
            const b = check(core.instruction(msg.handle, msg.ref, msg.index)).buffer;
            post({ id, type: 'result', node: b }, [b]);
            break;
          }
          case 'evaluate': {
            const b = check(core.evaluate(msg.handle, msg.ref, String(msg.x), msg.mode || '')).buffer;
            post({ id, type: 'result', node: b }, [b]);
            break;
          }
          case 'plot': {
            const t0 = performance.now();
            const b = check(core.plot(msg.handle, msg.ref, msg.lo, msg.hi, msg.n, msg.mode || '')).buffer;
            post({ id, type: 'result', node: b, ms: performance.now() - t0 }, [b]);
            break;
          }
          case 'openGroup': {
            const list = [];
            for (const f of msg.files) list.push({ readSlice: await readerFor(f), size: f.size, name: f.name });
            const r = check(core.openGroup(list));
            const docs = [], transfer = [];
            for (let i = 0; i < r.length; i++) {
              const b = r[i].doc.buffer;
              docs.push({ handle: r[i].handle, doc: b, name: r[i].name });
              transfer.push(b);
            }
            post({ id, type: 'result', docs, wasmBytes: memory ? memory.buffer.byteLength : 0 }, transfer);
            break;
          }
          case 'openContext': case 'recontext': {
            const r = msg.type === 'openContext'
              ? check(core.openContext(await readerFor(msg.file), msg.file.size, msg.name || msg.file.name || 'context', msg.arch || 0, msg.model || ''))
              : check(core.recontext(msg.handle, msg.arch || 0, msg.model || ''));
            const b = r.doc.buffer;
            post({ id, type: 'result', handle: r.handle, doc: b, ms: r.ms }, [b]);
            break;
          }
          case 'contextArches': {
            const b = check(core.contextArches(msg.size)).buffer;
            post({ id, type: 'result', node: b }, [b]);
            break;
          }
          case 'json': {
            const b = check(core.json(msg.handle)).buffer;
            post({ id, type: 'result', json: b }, [b]);
            break;
          }
          case 'libStatus': {
            const r = await core.libStatus();
            post({ id, type: 'result', ok: r.ok, reason: r.reason || '' });
            break;
          }
          case 'libPut': {
            const r = await check(core.libPut(msg.handle, msg.entry));
            post({ id, type: 'result', kept: r.kept, note: r.note || '' });
            break;
          }
          case 'libList':
            post({ id, type: 'result', list: await core.libList() });
            break;
          case 'libGet': {
            const e = await core.libGet(String(msg.key || ''));
            const transfer = e && e.doc ? [e.doc.buffer] : [];
            post({ id, type: 'result', entry: e || null }, transfer);
            break;
          }
          case 'libRemove': case 'libClear':
            await (msg.type === 'libRemove' ? core.libRemove(String(msg.key || '')) : core.libClear());
            post({ id, type: 'result' });
            break;
          case 'diff': {
            const b = check(core.diff(msg.a, msg.b, msg.format || '')).buffer;
            post(Object.assign({ id, type: 'result' }, msg.format === 'json' ? { json: b } : { node: b }), [b]);
            break;
          }
          case 'close':
            check(core.close(msg.handle));
            post({ id, type: 'result' });
            break;
          default:
            throw new Error('unknown request ' + msg.type);
        }
      } catch (e) {
        post({ id, type: 'error', message: String(e && e.message || e) });
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
