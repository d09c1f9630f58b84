// @ts-check
// neffscope core host: runs the Go core (neffscope.wasm + wasm_exec.js of the same Go) and
// answers the page's requests. It normally runs in a dedicated Web Worker started at page
// load, so a drop never waits for start-up and decoding never freezes the page. The same code
// can run on the page itself (the page falls back to that when no worker can be created, e.g.
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

// createCoreHost wires the protocol to the Go core. post(msg, transfer) sends to the page.
export function createCoreHost(post) {
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

// serveWorker runs the core host as this worker's message loop. The site's worker loads
// wasm_exec.js itself; the single-file build's Blob worker has it prepended and is told to
// wait for the wasm bytes (NEFFSCOPE_WAIT_FOR_WASM, then an 'init' message).
export function serveWorker() {
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
}
