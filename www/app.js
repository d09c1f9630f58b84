// neffscope page: talks to the core host (worker.js) and renders the Document it returns.
//
// Rules this file keeps:
// - Text that comes from a file is only ever inserted with textContent (el(), text()); there
//   is no innerHTML anywhere in the page.
// - No request leaves the page's origin (the CSP says so too).
// - Renderers are picked by node kind from tables (KINDS, DETAIL_RENDERERS, SUMMARIES), so new
//   node kinds, tables and series from later decoders plug in with one row each.
'use strict';

(function () {
  const $ = (id) => document.getElementById(id);

  // el makes an element; text is set with textContent, never parsed as HTML.
  function el(tag, cls, text) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }

  const fmtInt = (n) => Number(n).toLocaleString('en-US');
  function fmtSize(n) {
    if (n >= 1 << 30) return (n / (1 << 30)).toFixed(2) + ' GiB';
    if (n >= 1 << 20) return (n / (1 << 20)).toFixed(1) + ' MiB';
    if (n >= 1 << 10) return (n / (1 << 10)).toFixed(1) + ' KiB';
    return n + ' B';
  }
  function spanText(s) {
    if (!s) return '';
    const where = s.src ? 'member ' + s.src : 'file';
    return where + ' bytes ' + fmtInt(s.off) + '..' + fmtInt(s.off + s.len) + ' (' + fmtInt(s.len) + ' bytes)';
  }

  function toast(msg, sev) {
    const t = $('toast');
    t.textContent = msg;
    t.dataset.sev = sev || 'error';
    t.hidden = false;
    clearTimeout(toast.timer);
    toast.timer = setTimeout(() => { t.hidden = true; }, 8000);
  }

  // ---------------------------------------------------------------------------------------
  // The core connection: a Web Worker (or, failing that, the core on this page).

  const single = document.getElementById('wasm-data'); // present in the single-file build
  const core = {
    mode: 'none', // 'worker' | 'main'
    worker: null,
    host: null,
    gen: 0, // bumped on every (re)start: handles from an older generation are void
    ready: false,
    readyWaiters: [],
    pending: new Map(),
    nextId: 1,
    started: 0,
  };

  let wasmBytesPromise = null;
  // inflateEmbeddedWasm turns the single file's base64 gzip wasm into bytes (once).
  function inflateEmbeddedWasm() {
    if (!wasmBytesPromise) {
      wasmBytesPromise = (async () => {
        const bin = atob(single.textContent.replace(/\s+/g, ''));
        const gz = new Uint8Array(bin.length);
        for (let i = 0; i < bin.length; i++) gz[i] = bin.charCodeAt(i);
        const stream = new Blob([gz]).stream().pipeThrough(new DecompressionStream('gzip'));
        return new Response(stream).arrayBuffer();
      })();
    }
    return wasmBytesPromise;
  }

  function setCoreStatus(state, text, title) {
    const s = $('core-status');
    s.dataset.state = state;
    s.textContent = text;
    s.title = title || '';
  }

  // newWorker starts worker.js (named name: its role). The single-file build has no worker.js
  // to load: the worker is a Blob of prelude (what the site's worker loads itself) and the code.
  function newWorker(name, prelude) {
    const opts = name ? { name } : undefined;
    if (!single) return new Worker('worker.js', opts);
    return new Worker(URL.createObjectURL(new Blob(prelude.concat([$('worker-src').textContent]), { type: 'text/javascript' })), opts);
  }

  function startCore() {
    core.gen++;
    core.ready = false;
    core.started = performance.now();
    setCoreStatus('starting', 'core starting…');
    let w;
    try {
      w = newWorker('', ['self.NEFFSCOPE_WAIT_FOR_WASM = true;\n', single ? $('wasm-exec-src').textContent : '', '\n']);
      if (single) {
        inflateEmbeddedWasm().then((buf) => { const copy = buf.slice(0); w.postMessage({ type: 'init', wasm: copy }, [copy]); })
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
      else failAll('the worker crashed: ' + (ev.message || 'error'));
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
    if (msg.type === 'fatal') {
      const wasReady = core.ready;
      const message = msg.error.message;
      setCoreStatus('failed', 'core failed', message);
      toast(message + (wasReady && core.mode === 'worker' ? '. It was restarted.' : ''));
      failAll(message);
      // A core that had started and then died is replaced, so the next file can open.
      if (wasReady && core.mode === 'worker') { core.worker.terminate(); startCore(); }
      return;
    }
    const p = core.pending.get(msg.id);
    if (!p) return;
    switch (msg.type) {
      case 'event':
        if (msg.event === 'progress' && p.onProgress) p.onProgress(msg.data);
        else if (msg.event === 'header' && p.onHeader) p.onHeader(msg.data);
        break;
      case 'result': core.pending.delete(msg.id); p.resolve(msg.result || {}); break;
      case 'error': core.pending.delete(msg.id); p.reject(new CoreError(msg.error.code, msg.error.message)); break;
    }
  }

  // CoreError is how a call fails: code is one of wasm/protocol's codes ('bad-request',
  // 'not-found', 'unavailable', 'limit', 'internal', 'failed'); the message says what to do.
  class CoreError extends Error {
    constructor(code, message) {
      super(message);
      this.name = 'CoreError';
      this.code = code;
    }
  }

  // failAll fails every pending call: the core was cancelled, crashed or stopped.
  function failAll(message) {
    for (const p of core.pending.values()) p.reject(new CoreError('unavailable', message));
    core.pending.clear();
  }

  function whenReady() {
    return core.ready ? Promise.resolve() : new Promise((r) => core.readyWaiters.push(r));
  }

  // call(method, args, hooks) → Promise of the method's result (wasm/protocol), rejected with a
  // CoreError; hooks.onProgress and hooks.onHeader get the method's events.
  async function call(method, args, hooks) {
    await whenReady();
    const id = core.nextId++;
    const msg = { id, method, args };
    return new Promise((resolve, reject) => {
      core.pending.set(id, Object.assign({ resolve, reject }, hooks || {}));
      if (core.mode === 'worker') core.worker.postMessage(msg);
      else core.host.handle(msg);
    });
  }

  // cancel stops whatever the core is doing by ending the worker and starting a fresh one.
  function cancel() {
    if (core.mode !== 'worker') return false;
    hashStop();
    core.worker.terminate();
    core.worker = null;
    failAll('cancelled');
    startCore();
    return true;
  }

  // ---------------------------------------------------------------------------------------
  // The document and its index.

  const JSON_KINDS = new Set(['object', 'array', 'string', 'number', 'bool', 'null']);
  const SEV_RANK = { info: 1, warning: 2, error: 3 };

  // KINDS: how each node kind looks in a tree. Unknown kinds get the default row.
  const KINDS = {
    neff: { glyph: '◆', title: 'NEFF file' },
    header: { glyph: 'H', title: 'header' },
    payload: { glyph: 'P', title: 'payload' },
    verdict: { glyph: '✓', title: 'runtime verdict' },
    archive: { glyph: '▦', title: 'archive' },
    dir: { glyph: '▸', title: 'directory' },
    member: { glyph: '▤', title: 'archive member' },
    field: { glyph: '•', title: 'field' },
    flag: { glyph: '⚑', title: 'flag bit' },
    padding: { glyph: '░', title: 'padding' },
    bytes: { glyph: '01', title: 'bytes' },
    object: { glyph: '{}', title: 'JSON object' },
    array: { glyph: '[]', title: 'JSON array' },
    string: { glyph: '"', title: 'JSON string' },
    number: { glyph: '#', title: 'JSON number' },
    bool: { glyph: 'b', title: 'JSON boolean' },
    null: { glyph: '∅', title: 'JSON null' },
  };
  Object.assign(KINDS, {
    manifest: { glyph: '{}', title: 'manifest (JSON)' },
    model: { glyph: 'M', title: 'model' },
    instructions: { glyph: '≡', title: 'instruction stream' },
    table: { glyph: '▦', title: 'table' },
    npy: { glyph: 'N', title: 'NumPy array' },
    'pwp-bundle': { glyph: 'ƒ', title: 'activation tables' },
    'pwp-roster': { glyph: 'R', title: 'activation roster (act_info.json)' },
    'pwp-roster-set': { glyph: 'S', title: 'roster set' },
    'pwp-set': { glyph: 'S', title: 'activation set' },
    'pwp-function': { glyph: 'ƒ', title: 'activation function' },
    'pwp-octaves': { glyph: '≡', title: 'octaves' },
    'pwp-bucket': { glyph: 'B', title: 'bucket record (32 bytes)' },
    'pwp-eval': { glyph: '=', title: 'evaluation' },
    'ncfw-context': { glyph: 'C', title: 'libncfw collective context' },
    'ncfw-arches': { glyph: 'A', title: 'arches' },
    'ncfw-text': { glyph: 'T', title: 'printed text' },
    'ncfw-dump': { glyph: 'D', title: 'libncfw ctx_log dump' },
    group: { glyph: '▣', title: 'group' },
  });
  // Kinds without a row here (new decoders) still get a glyph: their initial.
  const kindOf = (k) => KINDS[k] || { glyph: (k || '?').charAt(0).toUpperCase(), title: k };

  let state = null; // {doc, file, handle, gen, info: Map node → {parent, path, worst}}

  const keyOf = (n) => n.key || n.label || '';

  function indexDoc(doc) {
    const info = new Map();
    const byPath = new Map();
    const findings = [];
    (function walk(n, parent, path) {
      const rec = { parent, path, worst: 0 };
      info.set(n, rec);
      byPath.set(path.join('/'), n);
      for (const f of n.finds || []) {
        findings.push({ f, node: n });
        rec.worst = Math.max(rec.worst, SEV_RANK[f.sev] || 0);
      }
      for (const c of n.kids || []) {
        walk(c, n, path.concat(keyOf(c)));
        rec.worst = Math.max(rec.worst, info.get(c).worst);
      }
    })(doc.root, null, []);
    return { info, byPath, findings };
  }

  const pathOf = (n) => state.info.get(n).path;
  const parentOf = (n) => state.info.get(n).parent;

  // memberOf returns the member node n belongs to (itself included), or null.
  function memberOf(n) {
    for (let m = n; m; m = parentOf(m)) if (m.kind === 'member' && m.ref && m.ref.startsWith('member:')) return m;
    return null;
  }
  // contentRootOf returns the decoded content of the member n belongs to (a JSON tree today;
  // instruction listings and tables from later decoders plug in the same way), which the
  // content pane shows as its own tree above the bytes. null when the member is only bytes.
  function contentRootOf(n) {
    const m = memberOf(n);
    if (!m) return null;
    return (m.kids || []).find((c) => !(c.kind === 'bytes' && !(c.kids && c.kids.length))) || null;
  }
  function spanOf(n) {
    for (let m = n; m; m = parentOf(m)) if (m.span) return m === n ? m.span : { src: m.span.src, off: m.span.off, len: 0, inherited: true };
    return null;
  }
  // sourceSize: how many bytes a source has ('' = the file; a member path = its size).
  function sourceSize(src) {
    if (!src) return state.doc.size;
    const m = findMember(src);
    if (m && m.span) return m.span.len;
    // Files dropped together: a source is one of them, by name.
    const f = (state.files || []).find((x) => x.name === src);
    return f ? f.size : 0;
  }
  function findMember(src) {
    if (!state.members) {
      state.members = new Map();
      // Archive members first; loose files joined into one document (activation blobs) are
      // sources too, named by a node whose Ref is "member:<file>".
      for (const n of state.info.keys()) if (n.kind === 'member' && n.ref && n.ref.startsWith('member:')) state.members.set(n.ref.slice(7), n);
      for (const n of state.info.keys()) if (n.ref && n.ref.startsWith('member:') && n.span && !state.members.has(n.ref.slice(7))) state.members.set(n.ref.slice(7), n);
    }
    return state.members.get(src) || null;
  }

  // ---------------------------------------------------------------------------------------
  // Tree view (ARIA tree; lazy: children are built when a node is first expanded).

  const CHILD_PAGE = 1000; // rows built per "show more" step, so a 100k-element array stays usable

  class TreeView {
    // kidsOf says which children a node shows here (the main tree shows members as leaves:
    // their decoded content has its own tree in the content pane).
    constructor(container, onSelect, kidsOf) {
      this.el = container;
      this.onSelect = onSelect;
      this.kidsOf = kidsOf || ((n) => n.kids || []);
      this.rows = new Map();
      this.expanded = new Set();
      this.shown = new Map(); // node → number of children built
      this.selected = null;
      container.addEventListener('click', (e) => this.onClick(e));
      container.addEventListener('dblclick', (e) => { const n = this.nodeAt(e.target); if (n) this.toggle(n); });
      container.addEventListener('keydown', (e) => this.onKey(e));
    }
    // setRoot shows root; open(n) says which nodes start expanded (default: the root).
    setRoot(root, open) {
      this.clear();
      this.root = root;
      open = open || ((n) => n === root);
      const rec = (n) => {
        const kids = this.kidsOf(n);
        if (!kids.length || !open(n)) return;
        this.expanded.add(n);
        kids.forEach(rec);
      };
      rec(root);
      this.el.replaceChildren(this.buildRow(root, 1, 1, 1));
      this.rows.get(root).tabIndex = 0;
    }
    clear() {
      this.root = null;
      this.rows.clear();
      this.expanded.clear();
      this.shown.clear();
      this.selected = null;
      this.el.replaceChildren();
    }
    has(n) { return !!this.root && this.reveal(n); }
    buildRow(n, level, pos, size) {
      const item = el('div', 'ti');
      item.setAttribute('role', 'treeitem');
      item.setAttribute('aria-level', level);
      item.setAttribute('aria-posinset', pos);
      item.setAttribute('aria-setsize', size);
      item.setAttribute('aria-selected', 'false');
      item.tabIndex = -1;
      item.dataset.path = pathOf(n).join('/');
      item.dataset.key = keyOf(n);
      item.dataset.kind = n.kind;
      if (n.ref) item.dataset.ref = n.ref;
      const row = el('div', 'row');
      row.style.paddingLeft = (level - 1) * 14 + 4 + 'px';
      const hasKids = this.kidsOf(n).length > 0;
      row.appendChild(el('span', 'twisty', hasKids ? '▸' : ''));
      const k = kindOf(n.kind);
      const g = el('span', 'glyph k-' + n.kind, k.glyph);
      g.title = k.title;
      row.appendChild(g);
      row.appendChild(el('span', 'label', n.label));
      if (n.detail) row.title = n.detail;
      if (state.doc.kind === 'ncfw-dump' && n.attrs && n.attrs.line) row.insertBefore(el('span', 'lineno', n.attrs.line), row.firstChild);
      if (n.value) row.appendChild(el('span', 'value v-' + n.kind, n.value));
      const worst = state.info.get(n).worst;
      if (worst) {
        const own = (n.finds || []).length;
        const b = el('span', 'badge sev-' + ['', 'info', 'warning', 'error'][worst], own ? String(own) : '');
        b.title = own ? own + ' finding(s) here' : 'findings below';
        if (!own) b.classList.add('below');
        row.appendChild(b);
      }
      item.appendChild(row);
      item.nodeRef = n;
      this.rows.set(n, item);
      if (hasKids) {
        item.setAttribute('aria-expanded', this.expanded.has(n) ? 'true' : 'false');
        if (this.expanded.has(n)) item.appendChild(this.buildGroup(n, level));
      }
      return item;
    }
    buildGroup(n, level) {
      const g = el('div', 'group');
      g.setAttribute('role', 'group');
      this.appendChildren(g, n, level, 0);
      return g;
    }
    appendChildren(g, n, level, from) {
      const kids = this.kidsOf(n);
      const to = Math.min(kids.length, from + CHILD_PAGE);
      const frag = document.createDocumentFragment();
      for (let i = from; i < to; i++) frag.appendChild(this.buildRow(kids[i], level + 1, i + 1, kids.length));
      this.shown.set(n, to);
      if (to < kids.length) {
        const more = el('button', 'more', 'show ' + fmtInt(Math.min(CHILD_PAGE, kids.length - to)) + ' more of ' + fmtInt(kids.length - to));
        more.type = 'button';
        more.style.marginLeft = level * 14 + 22 + 'px';
        more.addEventListener('click', (e) => { e.stopPropagation(); more.remove(); this.appendChildren(g, n, level, to); });
        frag.appendChild(more);
      }
      g.appendChild(frag);
    }
    nodeAt(target) {
      const item = target.closest && target.closest('.ti');
      return item && this.el.contains(item) ? item.nodeRef : null;
    }
    isOpen(n) { return this.expanded.has(n); }
    expand(n) {
      if (!this.kidsOf(n).length || this.expanded.has(n)) return;
      this.expanded.add(n);
      const item = this.rows.get(n);
      if (item) {
        item.setAttribute('aria-expanded', 'true');
        item.appendChild(this.buildGroup(n, Number(item.getAttribute('aria-level'))));
      }
    }
    collapse(n) {
      if (!this.expanded.has(n)) return;
      this.expanded.delete(n);
      const item = this.rows.get(n);
      if (!item) return;
      item.setAttribute('aria-expanded', 'false');
      const g = item.querySelector(':scope > .group');
      if (g) {
        // Forget the rows of the collapsed subtree: they are rebuilt on the next expand.
        g.querySelectorAll('.ti').forEach((r) => { this.rows.delete(r.nodeRef); this.expanded.delete(r.nodeRef); });
        g.remove();
      }
    }
    toggle(n) { if (this.expanded.has(n)) this.collapse(n); else this.expand(n); }
    // reveal expands n's ancestors (within this tree) so its row exists; false if n is not here.
    reveal(n) {
      const chain = [];
      for (let m = n; m; m = parentOf(m)) { chain.unshift(m); if (m === this.root) break; }
      if (chain[0] !== this.root) return false;
      for (let i = 0; i < chain.length - 1; i++) if (this.kidsOf(chain[i]).indexOf(chain[i + 1]) < 0) return false;
      for (let i = 0; i < chain.length - 1; i++) {
        const parent = chain[i];
        this.expand(parent);
        const idx = this.kidsOf(parent).indexOf(chain[i + 1]);
        while (idx >= (this.shown.get(parent) || 0)) {
          const g = this.rows.get(parent).querySelector(':scope > .group');
          const more = g && g.querySelector(':scope > .more');
          if (!more) break;
          more.click();
        }
      }
      return this.rows.has(n);
    }
    markSelected(n, focus) {
      if (this.selected && this.rows.get(this.selected)) {
        const old = this.rows.get(this.selected);
        old.setAttribute('aria-selected', 'false');
        old.tabIndex = -1;
      }
      this.selected = n;
      if (!n || !this.reveal(n)) return;
      const item = this.rows.get(n);
      item.setAttribute('aria-selected', 'true');
      this.el.querySelectorAll('.ti[tabindex="0"]').forEach((r) => { r.tabIndex = -1; });
      item.tabIndex = 0;
      const row = item.firstChild;
      const box = this.el.getBoundingClientRect(), r = row.getBoundingClientRect();
      if (r.top < box.top || r.bottom > box.bottom) row.scrollIntoView({ block: 'nearest' });
      if (focus) item.focus({ preventScroll: true });
    }
    onClick(e) {
      const n = this.nodeAt(e.target);
      if (!n) return;
      if (e.target.classList.contains('twisty')) { this.toggle(n); return; }
      this.onSelect(n, 'tree');
      this.markSelected(n, true);
    }
    visibleRows() { return Array.from(this.el.querySelectorAll('.ti')).filter((r) => r.offsetParent !== null); }
    onKey(e) {
      const cur = this.nodeAt(document.activeElement) || this.selected || this.root;
      let next = null;
      const rows = () => this.visibleRows();
      switch (e.key) {
        case 'ArrowDown': case 'ArrowUp': {
          const rs = rows();
          const i = rs.indexOf(this.rows.get(cur));
          const j = e.key === 'ArrowDown' ? Math.min(rs.length - 1, i + 1) : Math.max(0, i - 1);
          next = rs[j] && rs[j].nodeRef;
          break;
        }
        case 'ArrowRight':
          if (this.kidsOf(cur).length) { if (!this.isOpen(cur)) this.expand(cur); else next = this.kidsOf(cur)[0]; }
          break;
        case 'ArrowLeft':
          if (this.isOpen(cur)) this.collapse(cur);
          else if (cur !== this.root) next = parentOf(cur);
          break;
        case 'Home': next = this.root; break;
        case 'End': { const rs = rows(); next = rs[rs.length - 1].nodeRef; break; }
        case 'Enter': case ' ':
          if (this.kidsOf(cur).length) this.toggle(cur);
          this.onSelect(cur, 'tree');
          this.markSelected(cur, true);
          break;
        default: return;
      }
      e.preventDefault();
      if (next) { this.onSelect(next, 'tree'); this.markSelected(next, true); }
    }
  }

  // ---------------------------------------------------------------------------------------
  // Hex view: virtualised rows, bytes fetched in pages from the core on demand.

  const HEX_ROW = 16;
  // Bytes come from the core in pages this big: a member that is not held in memory is read
  // again from the start of the archive for each page, so pages are few and large.
  const PAGE = 16384;
  const MAX_SCROLL_PX = 8e6; // browsers cap element heights; beyond this the scroll is scaled

  // A virtual list of height full (px) in a scroller whose spacer is at most MAX_SCROLL_PX:
  // toVirtual maps the scroller's scrollTop to a position in the list, toScroll back. The
  // whole scroll range maps onto the whole list, so the last row is reachable.
  function toVirtual(sc, full) {
    if (full <= MAX_SCROLL_PX) return sc.scrollTop;
    const pin = scrollPins.get(sc);
    if (pin && pin.st === sc.scrollTop && pin.full === full) return pin.v;
    const range = MAX_SCROLL_PX - sc.clientHeight;
    return range > 0 ? sc.scrollTop / range * (full - sc.clientHeight) : 0;
  }
  function toScroll(sc, full, v) {
    if (full <= MAX_SCROLL_PX) return v;
    return v / Math.max(1, full - sc.clientHeight) * (MAX_SCROLL_PX - sc.clientHeight);
  }

  // Beyond MAX_SCROLL_PX one pixel of scroll is many pixels of list (74 in a 500 MiB member's
  // hex), so a scrollTop cannot name a row exactly. scrollToVirtual sets the scroll and pins the
  // exact list position to it: toVirtual returns the pin until the user scrolls elsewhere, so a
  // row put in view by a key or a jump is in view, to the pixel.
  const scrollPins = new WeakMap();
  function scrollToVirtual(sc, full, v) {
    v = Math.max(0, Math.min(v, full - sc.clientHeight));
    sc.scrollTop = toScroll(sc, full, v);
    if (full > MAX_SCROLL_PX) scrollPins.set(sc, { st: sc.scrollTop, full, v });
  }

  const hex = {
    source: null, size: 0, hl: null, cache: new Map(), rowH: 18, full: 0, key: '',
    scroller: null, rowsEl: null, spacer: null,
    cursor: -1, // the keyboard's byte (hexKeyInit), -1 until there is one
  };

  function hexInit() {
    hex.scroller = $('hex');
    hex.rowsEl = $('hex-rows');
    hex.spacer = $('hex-spacer');
    hex.scroller.addEventListener('scroll', hexRenderSoon);
    new ResizeObserver(() => hexRender()).observe(hex.scroller);
    hex.rowsEl.addEventListener('click', (e) => {
      const cell = e.target.closest('[data-i]');
      const row = e.target.closest('.hex-row');
      if (!cell || !row) return;
      const off = Number(row.dataset.off) + Number(cell.dataset.i);
      if (state.doc.kind === 'ncfw-context' && !hex.source) { ctxHexClick(off); return; }
      const owner = ownerOf(hex.source, off);
      if (owner) select(owner, 'hex');
    });
    hex.rowsEl.addEventListener('mouseover', (e) => {
      const cell = e.target.closest('[data-i]');
      const row = e.target.closest('.hex-row');
      if (cell && row) hexInspect(Number(row.dataset.off) + Number(cell.dataset.i));
    });
    hex.rowsEl.addEventListener('mouseleave', () => { $('hex-inspect').textContent = ''; });
  }

  async function ensureHandle() {
    if (state.gen === core.gen && state.handle) return state.handle;
    // The worker was restarted (cancel): open the file again there, without re-rendering.
    const st = state;
    const h = await st.reopen();
    st.handle = h;
    st.gen = core.gen;
    return h;
  }

  function fetchPage(idx) {
    const key = hex.key + ':' + idx;
    let p = hex.cache.get(key);
    if (p) { hex.cache.delete(key); hex.cache.set(key, p); return p; }
    const src = hex.source;
    p = { data: null, promise: null };
    p.promise = ensureHandle()
      .then((h) => call('bytes', { handle: h, source: src, off: idx * PAGE, n: PAGE }))
      .then((r) => { p.data = new Uint8Array(r.bytes); })
      // A page that cannot be read stays in the cache with its error (shown above the rows),
      // so the view does not ask again at every frame.
      .catch((e) => { p.error = e.message || String(e); });
    hex.cache.set(key, p);
    while (hex.cache.size > 128) hex.cache.delete(hex.cache.keys().next().value);
    return p;
  }

  // hexShow shows source ('' = the file, or a member path) with the selected span hl in strong
  // colour; marks are the neighbouring fields' spans, tinted alternately so the structure of the
  // bytes around the selection can be seen (as in Kaitai's WebIDE).
  function hexShow(source, hl, scroll, marks) {
    const wrap = $('hex-wrap');
    wrap.hidden = false;
    const key = state.uid + '|' + source;
    const fresh = key !== hex.key;
    if (key !== hex.key) {
      hex.key = key;
      hex.source = source;
      hex.size = sourceSize(source);
      const rows = Math.ceil(hex.size / HEX_ROW);
      const full = rows * hex.rowH;
      hex.spacer.style.height = Math.min(full, MAX_SCROLL_PX) + 'px';
      hex.full = full;
      hex.scroller.scrollTop = 0;
    }
    hex.hl = hl && hl.len > 0 ? hl : null;
    hex.marks = marks || [];
    const head = $('hex-head');
    head.replaceChildren();
    const insp = el('span', 'hex-inspect muted');
    insp.id = 'hex-inspect';
    head.appendChild(el('span', 'hex-src', source ? 'member ' + source : 'file ' + state.doc.file));
    head.appendChild(el('span', 'muted', ' · ' + fmtInt(hex.size) + ' bytes'));
    if (hex.hl) head.appendChild(el('span', 'hex-sel', ' · selected ' + fmtInt(hex.hl.off) + '..' + fmtInt(hex.hl.off + hex.hl.len) + ' (' + fmtInt(hex.hl.len) + ' bytes)'));
    head.appendChild(insp);
    hexCursorFollow(fresh, scroll);
    if (scroll && hex.hl) hexScrollTo(hex.hl.off);
    hexRender();
  }

  function hexScrollTo(off) {
    const row = Math.floor(off / HEX_ROW);
    const viewRows = Math.floor(hex.scroller.clientHeight / hex.rowH);
    const first = Math.floor(toVirtual(hex.scroller, hex.full) / hex.rowH);
    if (row >= first + 1 && row < first + viewRows - 2) return;
    scrollToVirtual(hex.scroller, hex.full, Math.max(0, (row - 2) * hex.rowH));
  }

  const HEXDIG = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

  function hexRender() {
    if (!hex.key || $('hex-wrap').hidden) return;
    const sc = hex.scroller;
    const totalRows = Math.ceil(hex.size / HEX_ROW);
    const virtualTop = toVirtual(sc, hex.full);
    const first = Math.max(0, Math.min(totalRows - 1, Math.floor(virtualTop / hex.rowH)));
    const count = Math.min(totalRows - first, Math.ceil(sc.clientHeight / hex.rowH) + 2);
    hex.rowsEl.style.top = (sc.scrollTop - (virtualTop - first * hex.rowH)) + 'px';
    const digits = hex.size > 0xffffffff ? 12 : 8;
    const hl = hex.hl;
    const frag = document.createDocumentFragment();
    const need = new Set();
    let failed = '';
    for (let r = 0; r < count; r++) {
      const off = (first + r) * HEX_ROW;
      const pageIdx = Math.floor(off / PAGE);
      const page = fetchPage(pageIdx);
      if (page.error) failed = page.error;
      else if (!page.data) need.add(page);
      const row = el('div', 'hex-row');
      row.dataset.off = off;
      row.setAttribute('role', 'row');
      row.appendChild(el('span', 'hex-off', off.toString(16).padStart(digits, '0')));
      const hexCells = el('span', 'hex-bytes');
      const ascii = el('span', 'hex-ascii');
      for (let i = 0; i < HEX_ROW; i++) {
        const o = off + i;
        const inside = o < hex.size;
        const b = page.data && o - pageIdx * PAGE < page.data.length ? page.data[o - pageIdx * PAGE] : -1;
        const h = el('span', 'hb', !inside ? '  ' : b < 0 ? '··' : HEXDIG[b]);
        const a = el('span', 'ha', !inside ? ' ' : b < 0 ? '·' : (b >= 0x20 && b < 0x7f ? String.fromCharCode(b) : '.'));
        if (inside) { h.dataset.i = i; a.dataset.i = i; }
        if (b === 0) { h.classList.add('zero'); }
        if (inside) {
          const inHl = hl && o >= hl.off && o < hl.off + hl.len;
          const m = inHl && !hl.soft ? 'hl' : markAt(o) || (inHl ? 'hl-soft' : null);
          if (m) { h.classList.add(m); a.classList.add(m); }
        }
        if (i === 8) hexCells.appendChild(el('span', 'gap', ' '));
        hexCells.appendChild(h);
        ascii.appendChild(a);
      }
      row.appendChild(hexCells);
      row.appendChild(ascii);
      frag.appendChild(row);
    }
    hex.rowsEl.replaceChildren(frag);
    hexNote(failed ? 'These bytes cannot be shown: ' + failed : '');
    hexDecorate(totalRows);
    const key = hex.key;
    need.forEach((p) => p.promise.then(() => { if (key === hex.key) requestAnimationFrame(hexRender); }));
  }

  // hexNote shows (or clears) a line above the hex rows saying why bytes are missing.
  function hexNote(msg) {
    let n = $('hex-note');
    if (!n) {
      if (!msg) return;
      n = el('div', 'hex-note');
      n.id = 'hex-note';
      n.setAttribute('role', 'status');
      $('hex-wrap').insertBefore(n, $('hex'));
    }
    n.textContent = msg;
    n.hidden = !msg;
  }

  // byteAt returns byte o of the current source if its page has arrived, else -1.
  function byteAt(o) {
    const p = hex.cache.get(hex.key + ':' + Math.floor(o / PAGE));
    const i = o % PAGE;
    return p && p.data && i < p.data.length && o < hex.size ? p.data[i] : -1;
  }

  // hexInspect shows what the bytes at o read as (little-endian), like a hex editor's data
  // inspector.
  function hexInspect(o) {
    const b = [];
    for (let i = 0; i < 8; i++) b.push(byteAt(o + i));
    const le = (n) => { let v = 0n; for (let i = n - 1; i >= 0; i--) { if (b[i] < 0) return null; v = (v << 8n) | BigInt(b[i]); } return v; };
    const parts = ['@0x' + o.toString(16) + ' (' + fmtInt(o) + ')'];
    if (b[0] >= 0) parts.push('u8 ' + b[0]);
    const u16 = le(2), u32 = le(4), u64 = le(8);
    if (u16 !== null) parts.push('u16 ' + u16);
    if (u32 !== null) {
      parts.push('u32 ' + u32);
      const f = new DataView(new Uint8Array(b.slice(0, 4)).buffer).getFloat32(0, true);
      parts.push('f32 ' + (Number.isFinite(f) ? Number(f.toPrecision(7)) : f));
    }
    if (u64 !== null) parts.push('u64 ' + u64);
    $('hex-inspect').textContent = parts.join(' · ');
  }

  // markAt returns the tint class of byte o (marks are sorted by offset).
  function markAt(o) {
    const ms = hex.marks;
    let lo = 0, hi = ms.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1, m = ms[mid];
      if (o < m.off) hi = mid - 1;
      else if (o >= m.off + m.len) lo = mid + 1;
      else return m.cls;
    }
    return null;
  }

  // fieldMarks tints the spans of n's siblings (or, for a node with children, of its children)
  // that lie in source src.
  function fieldMarks(n, src) {
    const holder = n.kids && n.kids.length ? n : parentOf(n);
    if (!holder || !holder.kids) return [];
    const out = [];
    let i = 0;
    for (const c of holder.kids.slice(0, 5000)) {
      const s = c.span;
      if (!s || (s.src || '') !== src || s.len <= 0) continue;
      out.push({ off: s.off, len: s.len, cls: 'f' + (i++ % 2) });
    }
    out.sort((a, b) => a.off - b.off);
    // Overlapping spans (a field and its sub-fields) would confuse the search: keep the first.
    return out.filter((m, k) => k === 0 || m.off >= out[k - 1].off + out[k - 1].len);
  }

  // ownerOf finds the most specific node whose span holds byte off of source.
  function ownerOf(src, off) {
    let best = null;
    for (const n of state.info.keys()) {
      const s = n.span;
      if (!s || (s.src || '') !== (src || '') || off < s.off || off >= s.off + s.len) continue;
      if (!best || s.len < best.span.len || (s.len === best.span.len && pathOf(n).length > pathOf(best).length)) best = n;
    }
    return best;
  }

  // ---------------------------------------------------------------------------------------
  // Listing: a node whose Ref is "stream:<member>" is an instruction stream; its rows come from
  // the core a block at a time (rows), and one instruction's fields on demand (instruction),
  // so a million-row listing keeps only a screenful in the DOM.

  const LIST_ROW = 20;
  const LIST_BLOCK = 256;
  const listing = { node: null, ref: '', total: 0, cols: [], blocks: new Map(), full: 0, selected: -1, key: '' };

  function listingShow(node) {
    const box = $('listing');
    box.hidden = false;
    const key = hex.key + '|' + node.ref;
    if (listing.key === key) { listingRender(); return; }
    listing.key = key;
    listing.node = node;
    listing.ref = node.ref;
    listing.total = 0;
    listing.cols = [];
    listing.blocks.clear();
    listing.selected = -1;
    $('listing-scroll').scrollTop = 0;
    $('listing-rows').replaceChildren();
    fetchBlock(0).promise.then(() => { if (listing.key === key) listingRender(); });
  }

  function fetchBlock(idx) {
    let b = listing.blocks.get(idx);
    if (b) return b;
    const ref = listing.ref;
    b = { rows: null, spans: null };
    b.promise = ensureHandle()
      .then((h) => call('rows', { handle: h, ref, from: idx * LIST_BLOCK, to: (idx + 1) * LIST_BLOCK }))
      .then((r) => {
        const t = MessagePack.decode(new Uint8Array(r.table));
        b.rows = t.rows || [];
        b.spans = t.rspans || [];
        if (ref === listing.ref) {
          if (!listing.cols.length) listing.cols = t.cols || [];
          if (listing.total !== r.total) {
            listing.total = r.total;
            const full = r.total * LIST_ROW;
            $('listing-spacer').style.height = Math.min(full, MAX_SCROLL_PX) + 'px';
            listing.full = full;
          }
        }
      })
      .catch((e) => { listing.blocks.delete(idx); toast('Listing ' + ref.slice(7) + ': ' + e.message); });
    listing.blocks.set(idx, b);
    while (listing.blocks.size > 64) listing.blocks.delete(listing.blocks.keys().next().value);
    return b;
  }

  // colClass names a listing column's cell class from its title (widths live in style.css).
  const colClass = (c) => 'lc col-' + c.toLowerCase().replace(/[^a-z0-9]+/g, '-');

  function listingRender() {
    if ($('listing').hidden || !listing.total) return;
    const head = $('listing-head');
    if (head.dataset.ref !== listing.ref) {
      head.dataset.ref = listing.ref;
      head.replaceChildren();
      listing.cols.forEach((c) => head.appendChild(el('span', colClass(c), c)));
      head.appendChild(el('span', 'lc-count muted', fmtInt(listing.total) + ' rows'));
    }
    const sc = $('listing-scroll');
    const virtualTop = toVirtual(sc, listing.full);
    const first = Math.max(0, Math.min(listing.total - 1, Math.floor(virtualTop / LIST_ROW)));
    const count = Math.min(listing.total - first, Math.ceil(sc.clientHeight / LIST_ROW) + 2);
    const rowsEl = $('listing-rows');
    rowsEl.style.top = (sc.scrollTop - (virtualTop - first * LIST_ROW)) + 'px';
    const frag = document.createDocumentFragment();
    const key = listing.key;
    let waiting = null;
    for (let i = first; i < first + count; i++) {
      const b = fetchBlock(Math.floor(i / LIST_BLOCK));
      const r = el('div', 'lrow');
      r.dataset.index = i;
      r.setAttribute('role', 'row');
      if (i === listing.selected) r.classList.add('selected');
      if (b.rows) {
        const row = b.rows[i % LIST_BLOCK] || [];
        row.forEach((cell, k) => r.appendChild(el('span', colClass(listing.cols[k] || ''), cell)));
      } else {
        r.appendChild(el('span', 'lc col-index', i));
        r.appendChild(el('span', 'lc muted', '…'));
        waiting = b;
      }
      frag.appendChild(r);
    }
    rowsEl.replaceChildren(frag);
    listingAria();
    if (waiting) waiting.promise.then(() => { if (key === listing.key) requestAnimationFrame(listingRender); });
  }

  // adopt indexes a node fetched on demand (an instruction's fields) under parent, so the
  // detail pane and the hex view treat it like any node of the document.
  function adopt(n, parent, key) {
    const base = pathOf(parent).concat(key);
    (function walk(m, p, path) {
      state.info.set(m, { parent: p, path, worst: 0 });
      (m.kids || []).forEach((c) => walk(c, m, path.concat(keyOf(c))));
    })(n, parent, base);
    return n;
  }

  async function listingSelect(i) {
    listing.selected = i;
    listingRender();
    const ref = listing.ref, node = listing.node;
    try {
      const h = await ensureHandle();
      const r = await call('instruction', { handle: h, ref, index: i });
      // A newer selection (a key held down) supersedes this one.
      if (ref !== listing.ref || i !== listing.selected) return;
      const ins = adopt(MessagePack.decode(new Uint8Array(r.node)), node, '#' + i);
      state.selected = ins;
      renderDetail(ins);
      if (ins.span) hexShow(ins.span.src || '', ins.span, true, fieldMarks(ins, ins.span.src || ''));
    } catch (e) {
      toast('Instruction ' + i + ': ' + e.message);
    }
  }

  function listingInit() {
    const sc = $('listing-scroll');
    sc.addEventListener('scroll', () => { $('listing-head').scrollLeft = sc.scrollLeft; requestAnimationFrame(listingRender); });
    new ResizeObserver(() => listingRender()).observe(sc);
    $('listing-rows').addEventListener('click', (e) => {
      const r = e.target.closest('.lrow');
      if (r) listingSelect(Number(r.dataset.index));
    });
    // The grid (#listing) holds the focus; the scroller inside it is not a tab stop.
    $('listing').addEventListener('keydown', (e) => {
      if (!listing.total) return;
      let i = listing.selected;
      const page = Math.max(1, Math.floor(sc.clientHeight / LIST_ROW) - 1);
      switch (e.key) {
        case 'ArrowDown': i = Math.min(listing.total - 1, i + 1); break;
        case 'ArrowUp': i = Math.max(0, i - 1); break;
        case 'PageDown': i = Math.min(listing.total - 1, i + page); break;
        case 'PageUp': i = Math.max(0, i - page); break;
        case 'Home': i = 0; break;
        case 'End': i = listing.total - 1; break;
        case 'ArrowRight': case 'ArrowLeft': sc.scrollLeft += e.key === 'ArrowRight' ? 48 : -48; e.preventDefault(); return;
        case 'Enter': if (i < 0) i = listingFirstShown(); break;
        default: return;
      }
      e.preventDefault();
      listingKeepVisible(i);
      listingSelect(i);
    });
  }

  // listingKeepVisible scrolls as little as puts row i in view (a step at the edge moves the
  // view by one row, as in any list).
  function listingKeepVisible(i) {
    const sc = $('listing-scroll');
    const top = toVirtual(sc, listing.full);
    const y = i * LIST_ROW;
    if (y < top) scrollToVirtual(sc, listing.full, y);
    else if (y + LIST_ROW > top + sc.clientHeight) scrollToVirtual(sc, listing.full, y + LIST_ROW - sc.clientHeight);
  }

  function listingFirstShown() {
    return Math.max(0, Math.min(listing.total - 1, Math.ceil(toVirtual($('listing-scroll'), listing.full) / LIST_ROW)));
  }

  // listingAria: the listing is an ARIA grid of total+1 rows (the header is row 1) of which a
  // screenful is in the DOM; the grid's active descendant is the selected row when it is shown.
  function listingAria() {
    const grid = $('listing');
    grid.setAttribute('aria-rowcount', listing.total + 1);
    grid.setAttribute('aria-colcount', listing.cols.length);
    grid.setAttribute('aria-label', 'Instruction listing of ' + listing.ref.slice(7) + ', ' + fmtInt(listing.total) + ' instructions');
    const head = $('listing-head');
    for (const c of head.children) {
      if (c.classList.contains('lc-count')) c.setAttribute('aria-hidden', 'true');
      else c.setAttribute('role', 'columnheader');
    }
    let active = null;
    for (const r of $('listing-rows').children) {
      const i = Number(r.dataset.index);
      r.setAttribute('aria-rowindex', i + 2);
      for (const c of r.children) c.setAttribute('role', 'gridcell');
      if (i === listing.selected) {
        r.id = 'lrow-' + i;
        r.setAttribute('aria-selected', 'true');
        active = r.id;
      }
    }
    if (active) grid.setAttribute('aria-activedescendant', active);
    else grid.removeAttribute('aria-activedescendant');
  }

  function listingScrollTo(i) {
    const sc = $('listing-scroll');
    const first = Math.floor(toVirtual(sc, listing.full) / LIST_ROW);
    const view = Math.floor(sc.clientHeight / LIST_ROW);
    if (i >= first && i < first + view - 1) return;
    scrollToVirtual(sc, listing.full, Math.max(0, (i - Math.floor(view / 2)) * LIST_ROW));
  }

  // ---------------------------------------------------------------------------------------
  // Activation functions: an SVG plot of the emulated curve over the true function with its
  // error on a log scale, octave and section boundaries and saturation regions; zoom (wheel or
  // the range inputs), pan (drag), a crosshair; and an evaluate box. Every redraw of a new
  // range asks the core for a fresh Plot of PLOT_N points (debounced), so zooming in shows the
  // real piecewise structure, not a stretched picture.

  const SVGNS = 'http://www.w3.org/2000/svg';
  const PLOT_N = 4096;
  const PLOT_DEBOUNCE = 120;
  const MAX_ABS_X = 3.4e38;
  const plot = {
    key: '', fn: null, ref: '', lo: -8, hi: 8, home: [-8, 8], data: null, seq: 0, timer: 0,
    err: 'rel', ylog: 'auto', mode: '', marker: null, geom: null, timing: null, drag: null, waiters: [],
  };
  // Functions defined for positive inputs only start on a positive range (exp and the rest on
  // [-8, 8]); the user zooms and pans from there.
  const POSITIVE_DOMAIN = /^(ln|log|natural_log|reciprocal_sqrt|rsqrt|sqrt|reciprocal|inverse)/;

  function svg(tag, attrs, cls) {
    const e = document.createElementNS(SVGNS, tag);
    if (cls) e.setAttribute('class', cls);
    for (const k in attrs || {}) e.setAttribute(k, attrs[k]);
    return e;
  }

  // functionOf returns the activation function n belongs to (itself included), or null.
  function functionOf(n) {
    for (let m = n; m; m = parentOf(m)) if (m.kind === 'pwp-function' && m.ref && m.ref.startsWith('pwp:')) return m;
    return null;
  }

  const fmtNum = (v) => {
    if (v === 0) return '0';
    if (!Number.isFinite(v)) return String(v);
    const a = Math.abs(v);
    if (a >= 1e5 || a < 1e-3) return v.toExponential(a >= 1e5 ? 3 : 2).replace('e+', 'e');
    return String(Number(v.toPrecision(5)));
  };
  const f32hex = (v) => { const dv = new DataView(new ArrayBuffer(4)); dv.setFloat32(0, v); return dv.getUint32(0).toString(16).padStart(8, '0'); };

  function plotShow(fn) {
    $('plot-view').hidden = false;
    const key = state.uid + '|' + fn.ref;
    if (plot.key === key) { plotDraw(); return; }
    plot.key = key;
    plot.fn = fn;
    plot.ref = fn.ref;
    plot.home = POSITIVE_DOMAIN.test(fn.label) ? [1 / 16, 16] : [-8, 8];
    plot.lo = plot.home[0];
    plot.hi = plot.home[1];
    plot.data = null;
    plot.marker = null;
    $('plot-title').textContent = fn.label;
    $('eval-out').replaceChildren();
    delete $('eval-out').dataset.bits;
    plotInputs();
    plotDraw();
    plotFetch();
  }

  function plotInputs() {
    $('plot-lo').value = fmtNum(plot.lo);
    $('plot-hi').value = fmtNum(plot.hi);
  }

  // plotSetRange moves the view at once (the curves already held are redrawn) and asks the
  // core for new samples of it shortly after.
  function plotSetRange(lo, hi) {
    if (!(hi > lo) || !Number.isFinite(lo) || !Number.isFinite(hi)) return;
    const mid = (lo + hi) / 2;
    const minSpan = Math.max(Math.abs(mid) * 1e-6, 1e-30);
    if (hi - lo < minSpan) { lo = mid - minSpan / 2; hi = mid + minSpan / 2; }
    plot.lo = Math.max(-MAX_ABS_X, lo);
    plot.hi = Math.min(MAX_ABS_X, hi);
    plotInputs();
    plotDraw();
    clearTimeout(plot.timer);
    plot.timer = setTimeout(plotFetch, PLOT_DEBOUNCE);
  }

  // plotFetch samples the visible range in the core; resolves when the new curves are drawn.
  async function plotFetch() {
    clearTimeout(plot.timer);
    const seq = ++plot.seq;
    const lo = plot.lo, hi = plot.hi, ref = plot.ref;
    const t0 = performance.now();
    $('plot-status').textContent = 'sampling…';
    try {
      const h = await ensureHandle();
      const r = await call('plot', { handle: h, ref, lo, hi, n: PLOT_N, mode: plot.mode });
      if (seq !== plot.seq || ref !== plot.ref) return null;
      const t1 = performance.now();
      plot.data = parsePlot(MessagePack.decode(new Uint8Array(r.node)), lo, hi);
      const t2 = performance.now();
      plotDraw();
      const t3 = performance.now();
      plot.timing = { coreMs: r.ms, decodeMs: t2 - t1, drawMs: t3 - t2, totalMs: t3 - t0 };
      $('plot-status').textContent = fmtInt(plot.data.n) + ' points · ' + Math.round(t3 - t0) + ' ms';
      $('plot-view').dataset.seq = seq;
      plot.waiters.splice(0).forEach((w) => w(plot.timing));
      return plot.timing;
    } catch (e) {
      if (seq === plot.seq) { $('plot-status').textContent = ''; toast('Plot of ' + (plot.fn ? plot.fn.label : ref) + ': ' + e.message); }
      return null;
    }
  }

  function parsePlot(node, lo, hi) {
    const ser = node.series || [];
    const by = (re, i) => ser.find((s) => re.test(s.name)) || ser[i] || { x: [], y: [] };
    const emu = ser[0] || { x: [], y: [] }, tru = ser[1] || { x: [], y: [] };
    const d = {
      lo, hi, n: emu.x.length, x: emu.x, emu: emu.y, tru: tru.y,
      names: { emu: emu.name || 'emulated', tru: tru.name || 'true' },
      err: { abs: by(/^abs error/, 2).y, rel: by(/^rel error/, 3).y, ulp: by(/^ulp error/, 4).y }, // exact names: functions are called relu, abs…
      octaves: [], sections: [], sats: [], summary: node.value || '',
    };
    for (const r of (node.table && node.table.rows) || []) {
      const b = { from: Number(r[1]), to: Number(r[2]), label: r[3] || '' };
      if (r[0] === 'octave') d.octaves.push(b);
      else if (r[0] === 'section') d.sections.push(b);
      else if (r[0] === 'saturation') d.sats.push(b);
    }
    return d;
  }

  // niceTicks gives about count round numbers covering [a, b].
  function niceTicks(a, b, count) {
    const span = b - a;
    if (!(span > 0)) return [a];
    const raw = span / Math.max(1, count);
    const mag = Math.pow(10, Math.floor(Math.log10(raw)));
    const step = [1, 2, 2.5, 5, 10].map((m) => m * mag).find((s) => s >= raw) || 10 * mag;
    const out = [];
    for (let v = Math.ceil(a / step) * step; v <= b + step * 1e-9; v += step) out.push(Math.abs(v) < step * 1e-9 ? 0 : v);
    return out;
  }

  // lowerBound: first index i with xs[i] >= v (xs ascending).
  function lowerBound(xs, v) {
    let lo = 0, hi = xs.length;
    while (lo < hi) { const m = (lo + hi) >> 1; if (xs[m] < v) lo = m + 1; else hi = m; }
    return lo;
  }

  // pathOf builds an SVG path of (xs[i], ys[i]) for i in [i0, i1), broken where ty gives NaN,
  // with consecutive points on the same pixel column merged to their min/max (a 4,096-point
  // curve on a 700-px plot stays a few thousand segments).
  function curvePath(xs, ys, i0, i1, tx, ty) {
    const parts = [];
    let pen = false, col = NaN, cmin = 0, cmax = 0, last = 0;
    const flush = () => {
      if (!Number.isFinite(col)) return;
      if (cmin !== cmax) parts.push('L' + col + ' ' + cmin.toFixed(1) + 'L' + col + ' ' + cmax.toFixed(1));
      parts.push('L' + col + ' ' + last.toFixed(1));
    };
    for (let i = i0; i < i1; i++) {
      const py = ty(ys[i]);
      if (!Number.isFinite(py)) { flush(); col = NaN; pen = false; continue; }
      const px = Math.round(tx(xs[i]) * 2) / 2;
      if (!pen) { parts.push('M' + px + ' ' + py.toFixed(1)); pen = true; col = px; cmin = cmax = last = py; continue; }
      if (px === col) { cmin = Math.min(cmin, py); cmax = Math.max(cmax, py); last = py; continue; }
      flush();
      col = px; cmin = cmax = last = py;
    }
    flush();
    return parts.join('').replace(/^L/, 'M');
  }

  function plotDraw() {
    const root = $('plot');
    const box = $('plot-box');
    if ($('plot-view').hidden) return;
    const W = Math.max(200, box.clientWidth), H = Math.max(160, box.clientHeight);
    root.setAttribute('viewBox', '0 0 ' + W + ' ' + H);
    root.setAttribute('width', W);
    root.setAttribute('height', H);
    const m = { l: 66, r: 14, t: 10, b: 24, gap: 26 };
    const pw = W - m.l - m.r;
    const mainH = Math.round((H - m.t - m.b - m.gap) * 0.64);
    const errH = H - m.t - m.b - m.gap - mainH;
    const mainTop = m.t, errTop = m.t + mainH + m.gap;
    const lo = plot.lo, hi = plot.hi;
    const tx = (x) => m.l + (x - lo) / (hi - lo) * pw;
    const d = plot.data;
    const frag = document.createDocumentFragment();
    const defs = svg('defs');
    const clipMain = svg('clipPath', { id: 'clip-main' });
    clipMain.appendChild(svg('rect', { x: m.l, y: mainTop, width: pw, height: mainH }));
    const clipErr = svg('clipPath', { id: 'clip-err' });
    clipErr.appendChild(svg('rect', { x: m.l, y: errTop, width: pw, height: errH }));
    defs.appendChild(clipMain);
    defs.appendChild(clipErr);
    frag.appendChild(defs);
    frag.appendChild(svg('rect', { x: m.l, y: mainTop, width: pw, height: mainH }, 'plot-bg'));
    frag.appendChild(svg('rect', { x: m.l, y: errTop, width: pw, height: errH }, 'plot-bg'));

    // x ticks (shared by both panels)
    const xt = niceTicks(lo, hi, Math.max(2, Math.floor(pw / 90)));
    const grid = svg('g', null, 'grid');
    const labels = svg('g', null, 'tick');
    for (const v of xt) {
      const px = tx(v);
      grid.appendChild(svg('line', { x1: px, x2: px, y1: mainTop, y2: mainTop + mainH }));
      grid.appendChild(svg('line', { x1: px, x2: px, y1: errTop, y2: errTop + errH }));
      const t = svg('text', { x: px, y: errTop + errH + 15, 'text-anchor': 'middle' });
      t.textContent = fmtNum(v);
      labels.appendChild(t);
    }
    frag.appendChild(grid);

    let yInfo = null, eInfo = null;
    if (d && d.n) {
      const i0 = Math.max(0, lowerBound(d.x, lo) - 1), i1 = Math.min(d.n, lowerBound(d.x, hi) + 1);
      // y range over the visible, finite samples of both curves.
      let ymin = Infinity, ymax = -Infinity, pmin = Infinity;
      for (let i = i0; i < i1; i++) {
        for (const v of [d.emu[i], d.tru[i]]) {
          if (!Number.isFinite(v)) continue;
          if (v < ymin) ymin = v;
          if (v > ymax) ymax = v;
          if (v > 0 && v < pmin) pmin = v;
        }
      }
      if (!(ymax >= ymin)) { ymin = -1; ymax = 1; }
      const useLog = plot.ylog === 'log' ? pmin < Infinity : plot.ylog === 'auto' && ymin > 0 && ymax / ymin > 1e3;
      let ty, yt;
      if (useLog) {
        const a = Math.floor(Math.log10(pmin)), b = Math.max(a + 1, Math.ceil(Math.log10(ymax)));
        ty = (v) => (v > 0 ? mainTop + mainH - (Math.log10(v) - a) / (b - a) * mainH : NaN);
        yt = []; const step = Math.max(1, Math.ceil((b - a) / Math.max(2, mainH / 40)));
        for (let e = a; e <= b; e += step) yt.push(Math.pow(10, e));
      } else {
        if (ymax === ymin) { ymin -= 1; ymax += 1; }
        const pad = (ymax - ymin) * 0.06;
        const a = ymin - pad, b = ymax + pad;
        ty = (v) => mainTop + mainH - (v - a) / (b - a) * mainH;
        yt = niceTicks(a, b, Math.max(2, Math.floor(mainH / 40)));
      }
      yInfo = { ty, log: useLog };
      for (const v of yt) {
        const py = ty(v);
        if (!(py >= mainTop - 0.5 && py <= mainTop + mainH + 0.5)) continue;
        grid.appendChild(svg('line', { x1: m.l, x2: m.l + pw, y1: py, y2: py }));
        const t = svg('text', { x: m.l - 6, y: py + 4, 'text-anchor': 'end' });
        t.textContent = useLog ? (v === 1 ? '1' : '1e' + Math.round(Math.log10(v))) : fmtNum(v);
        labels.appendChild(t);
      }
      // error: log10 of the chosen error, zeros drawn at the floor.
      const es = d.err[plot.err] || [];
      let emax = 0, emin = Infinity;
      for (let i = i0; i < i1; i++) { const v = Math.abs(es[i]); if (v > 0 && Number.isFinite(v)) { emax = Math.max(emax, v); emin = Math.min(emin, v); } }
      const eb = emax > 0 ? Math.ceil(Math.log10(emax)) : 0;
      const ea = emax > 0 ? Math.min(eb - 1, Math.max(eb - 12, Math.floor(Math.log10(emin)))) : -1;
      const te = (v) => { const a = Math.abs(v); if (!Number.isFinite(a)) return NaN; const lv = a > 0 ? Math.max(ea, Math.log10(a)) : ea; return errTop + errH - (lv - ea) / (eb - ea) * errH; };
      eInfo = { te, es };
      const estep = Math.max(1, Math.ceil((eb - ea) / Math.max(2, errH / 28)));
      for (let e = ea; e <= eb; e += estep) {
        const py = te(Math.pow(10, e));
        grid.appendChild(svg('line', { x1: m.l, x2: m.l + pw, y1: py, y2: py }));
        const t = svg('text', { x: m.l - 6, y: py + 4, 'text-anchor': 'end' });
        t.textContent = e === 0 ? '1' : '1e' + e;
        labels.appendChild(t);
      }

      // saturation regions, octave and section boundaries
      const marks = svg('g', null, 'bounds');
      for (const s of d.sats) {
        const a = Math.max(lo, Math.min(s.from, s.to)), b = Math.min(hi, Math.max(s.from, s.to));
        if (!(b > a)) continue;
        const x0 = tx(a), x1 = tx(b);
        if (x1 - x0 < 0.5) continue;
        marks.appendChild(svg('rect', { x: x0, y: mainTop, width: x1 - x0, height: mainH }, 'sat'));
        marks.appendChild(svg('rect', { x: x0, y: errTop, width: x1 - x0, height: errH }, 'sat'));
        if (x1 - x0 > 60) {
          const t = svg('text', { x: (x0 + x1) / 2, y: mainTop + 14, 'text-anchor': 'middle' }, 'sat-label');
          t.textContent = s.label.replace('_', ' ') + ' (saturated)';
          marks.appendChild(t);
        }
      }
      const visSect = d.sections.filter((b) => b.from > lo && b.from < hi);
      if (visSect.length && pw / visSect.length >= 4) {
        let p = '';
        for (const b of visSect) { const px = tx(b.from).toFixed(1); p += 'M' + px + ' ' + mainTop + 'V' + (mainTop + mainH) + 'M' + px + ' ' + errTop + 'V' + (errTop + errH); }
        marks.appendChild(svg('path', { d: p }, 'sect'));
      }
      const visOct = d.octaves.filter((b) => b.from > lo && b.from < hi);
      let p = '';
      let lastLabel = -Infinity;
      for (const b of visOct) {
        const px = tx(b.from);
        p += 'M' + px.toFixed(1) + ' ' + mainTop + 'V' + (mainTop + mainH) + 'M' + px.toFixed(1) + ' ' + errTop + 'V' + (errTop + errH);
        if (px - lastLabel > 44 && px < m.l + pw - 20) {
          const t = svg('text', { x: px + 3, y: errTop - 5 }, 'oct-label');
          t.textContent = b.label.replace(/ \(ctl \d+\)$/, '');
          marks.appendChild(t);
          lastLabel = px;
        }
      }
      if (p) marks.appendChild(svg('path', { d: p }, 'oct'));
      frag.appendChild(marks);

      const gMain = svg('g', { 'clip-path': 'url(#clip-main)' });
      gMain.appendChild(svg('path', { d: curvePath(d.x, d.tru, i0, i1, tx, ty) }, 'c-true'));
      gMain.appendChild(svg('path', { d: curvePath(d.x, d.emu, i0, i1, tx, ty) }, 'c-emu'));
      frag.appendChild(gMain);
      const gErr = svg('g', { 'clip-path': 'url(#clip-err)' });
      gErr.appendChild(svg('path', { d: curvePath(d.x, es, i0, i1, tx, te) }, 'c-err'));
      frag.appendChild(gErr);
      if (plot.marker && plot.marker.x >= lo && plot.marker.x <= hi) {
        const py = ty(plot.marker.y);
        if (Number.isFinite(py)) {
          const g = svg('g', null, 'eval-mark');
          g.appendChild(svg('line', { x1: tx(plot.marker.x), x2: tx(plot.marker.x), y1: mainTop, y2: mainTop + mainH }));
          g.appendChild(svg('circle', { cx: tx(plot.marker.x), cy: py, r: 4.5 }));
          frag.appendChild(g);
        }
      }
    } else {
      const t = svg('text', { x: m.l + pw / 2, y: mainTop + mainH / 2, 'text-anchor': 'middle' }, 'plot-wait');
      t.textContent = 'sampling ' + fmtInt(PLOT_N) + ' points…';
      frag.appendChild(t);
    }
    frag.appendChild(labels);
    const axisT = svg('text', { x: 12, y: mainTop + mainH / 2, transform: 'rotate(-90 12 ' + (mainTop + mainH / 2) + ')', 'text-anchor': 'middle' }, 'axis-title');
    axisT.textContent = 'y' + (yInfo && yInfo.log ? ' (log)' : '');
    frag.appendChild(axisT);
    const axisE = svg('text', { x: 12, y: errTop + errH / 2, transform: 'rotate(-90 12 ' + (errTop + errH / 2) + ')', 'text-anchor': 'middle' }, 'axis-title');
    axisE.textContent = plot.err + ' err';
    frag.appendChild(axisE);
    frag.appendChild(svg('rect', { x: m.l, y: mainTop, width: pw, height: mainH }, 'plot-frame'));
    frag.appendChild(svg('rect', { x: m.l, y: errTop, width: pw, height: errH }, 'plot-frame'));
    const cross = svg('g', { visibility: 'hidden' }, 'cross');
    cross.appendChild(svg('line', { y1: mainTop, y2: errTop + errH }));
    cross.appendChild(svg('circle', { r: 3.5 }, 'dot-emu'));
    cross.appendChild(svg('circle', { r: 3.5 }, 'dot-true'));
    cross.appendChild(svg('circle', { r: 3 }, 'dot-err'));
    frag.appendChild(cross);
    root.replaceChildren(frag);
    // The old crosshair and tooltip describe samples that are gone: the next pointer move redraws them.
    $('plot-tip').hidden = true;
    plot.geom = { m, pw, mainTop, mainH, errTop, errH, tx, yInfo, eInfo, cross };
    $('legend-err').textContent = { rel: 'relative', abs: 'absolute', ulp: 'ulp' }[plot.err] + ' error';
  }

  function plotXAt(clientX) {
    const g = plot.geom;
    const r = $('plot').getBoundingClientRect();
    return plot.lo + (clientX - r.left - g.m.l) / g.pw * (plot.hi - plot.lo);
  }

  function plotHover(e) {
    const g = plot.geom, d = plot.data, tip = $('plot-tip');
    if (!g || !d || !d.n || plot.drag) { if (!plot.drag) { tip.hidden = true; if (g) g.cross.setAttribute('visibility', 'hidden'); } return; }
    const r = $('plot').getBoundingClientRect();
    const px = e.clientX - r.left, py = e.clientY - r.top;
    if (px < g.m.l || px > g.m.l + g.pw || py < g.mainTop || py > g.errTop + g.errH) { tip.hidden = true; g.cross.setAttribute('visibility', 'hidden'); return; }
    const x = plotXAt(e.clientX);
    let i = Math.min(d.n - 1, lowerBound(d.x, x));
    if (i > 0 && Math.abs(d.x[i - 1] - x) < Math.abs(d.x[i] - x)) i--;
    const cx = g.tx(d.x[i]);
    const [line, cEmu, cTrue, cErr] = g.cross.children;
    line.setAttribute('x1', cx); line.setAttribute('x2', cx);
    const place = (c, y) => { if (Number.isFinite(y)) { c.setAttribute('cx', cx); c.setAttribute('cy', y); c.setAttribute('visibility', 'visible'); } else c.setAttribute('visibility', 'hidden'); };
    place(cEmu, g.yInfo.ty(d.emu[i]));
    place(cTrue, g.yInfo.ty(d.tru[i]));
    place(cErr, g.eInfo.te(g.eInfo.es[i]));
    g.cross.setAttribute('visibility', 'visible');
    const rows = [
      ['x', fmtFull(d.x[i]) + '  0x' + f32hex(d.x[i])],
      ['emulated', fmtFull(d.emu[i]) + '  0x' + f32hex(d.emu[i])],
      ['true', fmtFull(d.tru[i])],
      ['abs error', fmtNum(d.err.abs[i])],
      ['rel error', fmtNum(d.err.rel[i])],
      ['ulp error', fmtNum(d.err.ulp[i])],
    ];
    const oct = nearestBelow(d.octaves, d.x[i]);
    if (oct) rows.push(['octave', oct.label]);
    const sat = d.sats.find((s) => d.x[i] >= Math.min(s.from, s.to) && d.x[i] <= Math.max(s.from, s.to));
    if (sat) rows.push(['saturated', sat.label]);
    tip.replaceChildren();
    for (const [k, v] of rows) {
      const row = el('div', 'tip-row');
      row.appendChild(el('span', 'tip-k', k));
      row.appendChild(el('span', 'tip-v', v));
      tip.appendChild(row);
    }
    tip.hidden = false;
    const bw = $('plot-box').clientWidth;
    const left = px + 16 + 230 > bw ? px - 16 - 230 : px + 16;
    tip.style.left = Math.max(4, left) + 'px';
    tip.style.top = Math.max(4, Math.min(py - 20, $('plot-box').clientHeight - 150)) + 'px';
  }
  const fmtFull = (v) => (Number.isFinite(v) ? String(Math.fround(v) === v ? Number(v.toPrecision(9)) : Number(v.toPrecision(12))) : String(v));
  // nearestBelow: the octave whose start is closest to x on x's side of zero.
  function nearestBelow(list, x) {
    let best = null;
    for (const b of list) if (Math.sign(b.from) === Math.sign(x) && Math.abs(b.from) <= Math.abs(x) && (!best || Math.abs(b.from) > Math.abs(best.from))) best = b;
    return best;
  }

  function plotInit() {
    const p = $('plot');
    p.addEventListener('wheel', (e) => {
      if (!plot.geom) return;
      e.preventDefault();
      const x0 = Math.min(plot.hi, Math.max(plot.lo, plotXAt(e.clientX)));
      const k = Math.exp(Math.max(-3, Math.min(3, (e.deltaMode === 1 ? 33 : 1) * e.deltaY * 0.0015)));
      plotSetRange(x0 - (x0 - plot.lo) * k, x0 + (plot.hi - x0) * k);
    }, { passive: false });
    p.addEventListener('pointerdown', (e) => {
      if (e.button !== 0 || !plot.geom) return;
      plot.drag = { x: e.clientX, lo: plot.lo, hi: plot.hi, moved: false };
      p.setPointerCapture(e.pointerId);
      p.classList.add('dragging');
    });
    p.addEventListener('pointermove', (e) => {
      if (plot.drag) {
        const dx = e.clientX - plot.drag.x;
        if (Math.abs(dx) > 2) plot.drag.moved = true;
        const shift = -dx / plot.geom.pw * (plot.drag.hi - plot.drag.lo);
        if (plot.drag.moved) plotSetRange(plot.drag.lo + shift, plot.drag.hi + shift);
        return;
      }
      plotHover(e);
    });
    const end = () => { plot.drag = null; p.classList.remove('dragging'); };
    p.addEventListener('pointerup', end);
    p.addEventListener('pointercancel', end);
    p.addEventListener('pointerleave', () => { if (!plot.drag) { $('plot-tip').hidden = true; if (plot.geom) plot.geom.cross.setAttribute('visibility', 'hidden'); } });
    p.addEventListener('dblclick', () => plotSetRange(plot.home[0], plot.home[1]));
    p.addEventListener('keydown', (e) => {
      const w = plot.hi - plot.lo, mid = (plot.lo + plot.hi) / 2;
      switch (e.key) {
        case 'ArrowLeft': plotSetRange(plot.lo - w * 0.1, plot.hi - w * 0.1); break;
        case 'ArrowRight': plotSetRange(plot.lo + w * 0.1, plot.hi + w * 0.1); break;
        case '+': case '=': case 'ArrowUp': plotSetRange(mid - w * 0.35, mid + w * 0.35); break;
        case '-': case 'ArrowDown': plotSetRange(mid - w * 0.7, mid + w * 0.7); break;
        case 'Home': plotSetRange(plot.home[0], plot.home[1]); break;
        default: return;
      }
      e.preventDefault();
    });
    $('plot-reset').addEventListener('click', () => plotSetRange(plot.home[0], plot.home[1]));
    const rangeInput = () => {
      const lo = Number($('plot-lo').value), hi = Number($('plot-hi').value);
      if (hi > lo) plotSetRange(lo, hi);
      else { toast('The plot range needs x from < to', 'warning'); plotInputs(); }
    };
    $('plot-lo').addEventListener('change', rangeInput);
    $('plot-hi').addEventListener('change', rangeInput);
    $('plot-err').addEventListener('change', (e) => { plot.err = e.target.value; plotDraw(); });
    $('plot-ylog').addEventListener('change', (e) => { plot.ylog = e.target.value; plotDraw(); });
    $('plot-mode').addEventListener('change', (e) => { plot.mode = e.target.value; plotFetch(); });
    new ResizeObserver(() => { if (!$('plot-view').hidden) plotDraw(); }).observe($('plot-box'));
    $('eval-go').addEventListener('click', () => evalRun());
    $('eval-x').addEventListener('keydown', (e) => { if (e.key === 'Enter') { e.preventDefault(); evalRun(); } });
  }

  // evalRun evaluates the function at the typed x (decimal or 0x bits): y, its bits, the path
  // through the tables; the bucket record's 32 bytes are highlighted in the hex view.
  async function evalRun() {
    const text = $('eval-x').value.trim();
    if (!text || !plot.ref) return;
    const out = $('eval-out');
    const ref = plot.ref;
    try {
      const h = await ensureHandle();
      const r = await call('evaluate', { handle: h, ref, x: text, mode: plot.mode });
      if (ref !== plot.ref) return;
      const n = MessagePack.decode(new Uint8Array(r.node));
      adopt(n, plot.fn, 'eval ' + text);
      const get = (label) => (n.kids || []).find((c) => c.label === label);
      const bits = (/0x([0-9a-f]{8})/.exec(n.value || '') || [])[1] || '';
      out.replaceChildren();
      out.dataset.bits = bits;
      const head = el('div', 'eval-head');
      head.appendChild(el('span', 'eval-y', 'y = ' + (n.value || '?')));
      const path = get('path');
      if (path) head.appendChild(el('span', 'eval-path', path.value));
      const rel = get('relative error');
      if (rel) head.appendChild(el('span', 'muted', 'rel err ' + rel.value));
      out.appendChild(head);
      const grid = el('div', 'eval-fields');
      for (const c of n.kids || []) {
        if (c.label === 'path') continue;
        const k = el('span', 'ek', c.label);
        const v = el(c.span ? 'button' : 'span', 'ev' + (c.span ? ' link' : ''), c.value || '');
        if (c.span) { v.type = 'button'; v.title = spanText(c.span); v.addEventListener('click', () => { renderDetail(c); hexShow(c.span.src || '', c.span, true, fieldMarks(c, c.span.src || '')); }); }
        grid.appendChild(k);
        grid.appendChild(v);
      }
      out.appendChild(grid);
      const xv = get('x'), yv = get('y');
      const num = (f) => (f ? Number(String(f.value).split('= ').pop()) : NaN);
      plot.marker = { x: num(xv), y: num(yv) };
      plotDraw();
      if (n.span) hexShow(n.span.src || '', n.span, true, fieldMarks(get('bucket ' + ((/bkt(\d+)/.exec(path ? path.value : '') || [])[1])) || n, n.span.src || ''));
    } catch (e) {
      out.replaceChildren(el('span', 'eval-err', e.message));
      delete out.dataset.bits;
    }
  }

  // ---------------------------------------------------------------------------------------
  // libncfw collective context: the text the library would print (virtualised, with line
  // numbers), the arch switcher, and highlights both ways between printed values and their
  // struct bytes in the hex view (through the field map: text range ↔ struct span).

  const CTX_ROW = 18;
  const ctx = { uid: 0, text: '', lines: [], rows: [], spans: [], byLine: null, marked: new Set(), sel: -1, full: 0, hexMarks: [], arch: 0, rc: 0 };
  const RC_TEXT = { 0: 'ok', 22: 'unknown arch, nothing written', 28: 'cut at 1 MiB' };

  // byteIndexer maps UTF-8 byte offsets of text to string indices (identity for ASCII text, the
  // usual case; a model name with other characters shifts everything after it).
  function byteIndexer(text) {
    if (!/[^\x00-\x7f]/.test(text)) return (b) => b;
    const starts = [];
    let b = 0;
    for (let i = 0; i < text.length; i++) {
      starts.push(b);
      const c = text.charCodeAt(i);
      if (c < 0x80) b += 1;
      else if (c < 0x800) b += 2;
      else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) { starts.push(b + 4); b += 4; i++; }
      else b += 3;
    }
    starts.push(b);
    return (byte) => {
      let lo = 0, hi = starts.length - 1;
      while (lo < hi) { const m = (lo + hi + 1) >> 1; if (starts[m] <= byte) lo = m; else hi = m - 1; }
      return lo;
    };
  }

  function ctxSetup() {
    if (ctx.uid === state.uid) return;
    const root = state.doc.root;
    const textNode = (root.kids || []).find((c) => c.kind === 'ncfw-text') || { value: '', table: null };
    const archNode = (root.kids || []).find((c) => c.kind === 'ncfw-arches');
    ctx.uid = state.uid;
    ctx.text = textNode.value || '';
    ctx.lines = [0];
    for (let i = ctx.text.indexOf('\n'); i >= 0; i = ctx.text.indexOf('\n', i + 1)) ctx.lines.push(i + 1);
    if (ctx.text.endsWith('\n')) ctx.lines.pop();
    if (!ctx.text) ctx.lines = [];
    const t = textNode.table || { cols: [], rows: [] };
    const col = (name) => (t.cols || []).indexOf(name);
    const cOff = col('offset'), cW = col('width'), cS = col('text_start'), cE = col('text_end'), cL = col('line'), cP = col('path');
    const at = byteIndexer(ctx.text); // the field map counts UTF-8 bytes; JS strings count UTF-16 units
    ctx.rows = (t.rows || []).map((r, k) => ({ k, path: r[cP], off: Number(r[cOff]), width: Number(r[cW]), ts: at(Number(r[cS])), te: at(Number(r[cE])), line: Number(r[cL]), span: t.rspans && t.rspans[k] }));
    ctx.byLine = new Map();
    for (const r of ctx.rows) {
      if (!(r.te > r.ts)) continue;
      if (!ctx.byLine.has(r.line)) ctx.byLine.set(r.line, []);
      ctx.byLine.get(r.line).push(r);
    }
    for (const list of ctx.byLine.values()) list.sort((a, b) => a.ts - b.ts);
    const marks = ctx.rows.filter((r) => r.span && r.span.len > 0).map((r) => ({ off: r.span.off, len: r.span.len }));
    marks.sort((a, b) => a.off - b.off);
    let i = 0;
    ctx.hexMarks = marks.filter((mk, k) => k === 0 || mk.off >= marks[k - 1].off + marks[k - 1].len).map((mk) => ({ off: mk.off, len: mk.len, cls: 'f' + (i++ % 2) }));
    ctx.marked = new Set();
    ctx.sel = -1;
    ctx.arch = Number((root.attrs && root.attrs.arch) || 0);
    ctx.rc = Number((root.attrs && root.attrs.rc) || 0);

    const sel = $('ctx-arch');
    sel.replaceChildren();
    const known = new Set();
    for (const r of (archNode && archNode.table && archNode.table.rows) || []) {
      known.add(Number(r[0]));
      const o = el('option', '', r[1] + ' (' + r[0] + ')' + (r[4] === 'true' ? ' · best guess' : r[3] === 'true' ? '' : ' · needs ' + fmtInt(r[2]) + ' B'));
      o.value = r[0];
      sel.appendChild(o);
    }
    if (!known.has(ctx.arch)) { const o = el('option', '', 'arch ' + ctx.arch + ' (unknown)'); o.value = String(ctx.arch); sel.appendChild(o); }
    sel.value = String(ctx.arch);
    const model = (state.context && state.context.model) || '';
    if ($('ctx-model').value !== model) $('ctx-model').value = model;
    const rc = $('ctx-rc');
    rc.textContent = 'rc ' + ctx.rc + ' · ' + (RC_TEXT[ctx.rc] || 'libncfw error');
    rc.dataset.rc = ctx.rc;
    rc.className = 'rc ' + (ctx.rc === 0 ? 'good' : ctx.rc === 28 ? 'warn' : 'bad');
    $('ctx-stats').textContent = fmtInt(ctx.text.length) + ' bytes · ' + fmtInt(ctx.lines.length) + ' lines · ' + fmtInt(ctx.rows.length) + ' fields';
    const banner = $('ctx-banner');
    banner.hidden = ctx.rc === 0;
    banner.textContent = ctx.rc === 22 ? 'libncfw_ctx_log returns 22 (EINVAL) for arch ' + ctx.arch + ': it knows arches 5, 12, 20 and 28 only, and writes nothing.'
      : ctx.rc === 28 ? 'libncfw_ctx_log returns 28 (ENOSPC): its 1 MiB buffer filled, the text is cut after 0xFFFFF bytes (shown as printed).'
        : ctx.rc ? 'libncfw_ctx_log returns ' + ctx.rc + '.' : '';
    banner.className = 'ctx-banner ' + (ctx.rc === 28 ? 'warn' : 'bad');
    ctx.full = ctx.lines.length * CTX_ROW;
    $('ctx-spacer').style.height = Math.min(ctx.full, MAX_SCROLL_PX) + 'px';
    $('ctx-text').scrollTop = 0;
    $('ctx-view').dataset.arch = ctx.arch;
    $('ctx-view').dataset.rc = ctx.rc;
    ctxRender();
  }

  function ctxShow(n, from) {
    $('content-empty').hidden = true;
    $('json-view').hidden = true;
    $('listing').hidden = true;
    $('plot-view').hidden = true;
    $('ctx-view').hidden = false;
    $('content-title').textContent = state.doc.file + ' · as printed by libncfw';
    ctxSetup();
    const whole = !n.span || n.span.len >= state.doc.size || n.kind === 'ncfw-context';
    const span = whole ? null : n.span;
    if (span) ctxMarkRange(span.off, span.len, from !== 'ctx');
    else { ctx.marked = new Set(); ctx.sel = -1; ctxRender(); }
    hexShow('', span, true, ctx.hexMarks);
  }

  // ctxMarkRange marks the printed values whose struct bytes overlap [off, off+len).
  function ctxMarkRange(off, len, scroll) {
    ctx.marked = new Set();
    let first = null;
    for (const r of ctx.rows) {
      const s = r.span;
      if (!s || !(s.len > 0) || s.off >= off + len || s.off + s.len <= off || !(r.te > r.ts)) continue;
      ctx.marked.add(r.k);
      if (!first) first = r;
    }
    ctx.sel = first ? first.k : -1;
    if (first && scroll) ctxScrollToLine(first.line);
    ctxRender();
    return first;
  }

  function ctxScrollToLine(line) {
    const sc = $('ctx-text');
    const first = Math.floor(toVirtual(sc, ctx.full) / CTX_ROW) + 1;
    const view = Math.floor(sc.clientHeight / CTX_ROW);
    if (line >= first + 1 && line < first + view - 2) return;
    sc.scrollTop = toScroll(sc, ctx.full, Math.max(0, (line - 1 - Math.floor(view / 3)) * CTX_ROW));
  }

  function ctxRender() {
    if ($('ctx-view').hidden) return;
    const sc = $('ctx-text');
    const total = ctx.lines.length;
    const box = $('ctx-lines');
    if (!total) { box.replaceChildren(el('div', 'ctx-empty muted', ctx.rc ? 'Nothing printed (rc ' + ctx.rc + ').' : 'Empty text.')); return; }
    const vt = toVirtual(sc, ctx.full);
    const first = Math.max(0, Math.min(total - 1, Math.floor(vt / CTX_ROW)));
    const count = Math.min(total - first, Math.ceil(sc.clientHeight / CTX_ROW) + 2);
    box.style.top = (sc.scrollTop - (vt - first * CTX_ROW)) + 'px';
    const digits = String(total).length;
    const frag = document.createDocumentFragment();
    for (let i = first; i < first + count; i++) {
      const line = i + 1;
      const start = ctx.lines[i], end = i + 1 < total ? ctx.lines[i + 1] - 1 : ctx.text.length;
      const row = el('div', 'tl');
      row.dataset.line = line;
      row.appendChild(el('span', 'ln', String(line).padStart(digits, ' ')));
      const tx = el('span', 'tx');
      let pos = start;
      for (const r of ctx.byLine.get(line) || []) {
        if (r.ts < pos || r.te > end) continue;
        if (r.ts > pos) tx.appendChild(document.createTextNode(ctx.text.slice(pos, r.ts)));
        const v = el('span', 'tv' + (r.span && r.span.len > 0 ? '' : ' nobytes'), ctx.text.slice(r.ts, r.te));
        v.dataset.row = r.k;
        v.title = r.path + (r.span && r.span.len > 0 ? ' · bytes ' + fmtInt(r.span.off) + '..' + fmtInt(r.span.off + r.span.len) + ' · ' + (r.span.len) + ' B' : ' (not from the struct)');
        if (ctx.marked.has(r.k)) v.classList.add('mark');
        if (ctx.sel === r.k) v.classList.add('sel');
        tx.appendChild(v);
        pos = r.te;
      }
      if (pos < end) tx.appendChild(document.createTextNode(ctx.text.slice(pos, end)));
      row.appendChild(tx);
      frag.appendChild(row);
    }
    box.replaceChildren(frag);
  }

  // ctxFieldNode is the most specific node of the field tree over byte off (for the detail pane).
  function ctxFieldNode(off) {
    const owner = ownerOf('', off);
    return owner && owner !== state.doc.root ? owner : null;
  }

  function ctxPickRow(k) {
    const r = ctx.rows[k];
    if (!r) return;
    ctx.marked = new Set([k]);
    ctx.sel = k;
    ctxRender();
    if (r.span && r.span.len > 0) {
      hexShow('', { src: '', off: r.span.off, len: r.span.len }, true, ctx.hexMarks);
      const f = ctxFieldNode(r.span.off);
      if (f) { renderDetail(f); mainTree.markSelected(f, false); }
    } else {
      hexShow('', null, false, ctx.hexMarks);
    }
  }

  // ctxHexClick: a byte of the context highlights the value(s) printed from it.
  function ctxHexClick(off) {
    const first = ctxMarkRange(off, 1, true);
    if (first) hexShow('', { src: '', off: first.span.off, len: first.span.len }, false, ctx.hexMarks);
    else hexShow('', { src: '', off, len: 1 }, false, ctx.hexMarks);
    const f = ctxFieldNode(off);
    if (f) { renderDetail(f); mainTree.markSelected(f, false); }
  }

  async function ctxSwitchArch(arch, model) {
    if (model === undefined) model = (state.context && state.context.model) || '';
    const t0 = performance.now();
    const prev = state;
    try {
      const h = await ensureHandle();
      const r = await call('recontext', { handle: h, arch, model });
      if (state !== prev) return;
      const doc = MessagePack.decode(new Uint8Array(r.doc));
      const next = makeState(doc, { file: prev.file, handle: r.handle, gen: prev.gen, context: { arch, model } });
      next.reopen = contextReopen(next);
      replaceDoc(prev, next);
      renderDocument(Math.round(performance.now() - t0));
      lastRecontext = { ms: performance.now() - t0, coreMs: r.ms };
    } catch (e) {
      toast('Re-emitting for arch ' + arch + ': ' + e.message);
      $('ctx-arch').value = String(ctx.arch);
    }
  }

  function contextReopen(st) {
    return async () => (await call('openContext', { file: st.file, name: st.file.name, arch: st.context.arch, model: st.context.model || '' })).handle;
  }

  // openAsContext re-opens the current (unrecognised binary) file as a raw libncfw context.
  async function openAsContext(arch) {
    const prev = state;
    const t0 = performance.now();
    try {
      const next = await contextState(prev.file, arch, '');
      if (prev.handle && prev.gen === core.gen) call('close', { handle: prev.handle }).catch(() => {});
      replaceDoc(prev, next);
      renderDocument(Math.round(performance.now() - t0));
      libRemember(next, 'context', [prev.file], { arch });
    } catch (e) {
      toast('Opening ' + prev.file.name + ' as a libncfw context: ' + e.message);
    }
  }

  // contextState opens file in the core as a raw libncfw context for arch (and model).
  async function contextState(file, arch, model) {
    const r = await call('openContext', { file, name: file.name, arch, model });
    const st = makeState(MessagePack.decode(new Uint8Array(r.doc)), { file, handle: r.handle, gen: core.gen, context: { arch, model } });
    st.reopen = contextReopen(st);
    st.openMs = r.ms;
    return st;
  }

  function ctxInit() {
    const sc = $('ctx-text');
    sc.addEventListener('scroll', () => requestAnimationFrame(ctxRender));
    new ResizeObserver(() => ctxRender()).observe(sc);
    $('ctx-lines').addEventListener('click', (e) => {
      const v = e.target.closest('.tv');
      if (v) ctxPickRow(Number(v.dataset.row));
    });
    $('ctx-arch').addEventListener('change', (e) => ctxSwitchArch(Number(e.target.value)));
    $('ctx-model').addEventListener('change', (e) => ctxSwitchArch(ctx.arch, e.target.value));
    $('ctx-copy').addEventListener('click', async () => {
      try {
        await navigator.clipboard.writeText(ctx.text);
        toast('Copied ' + fmtInt(ctx.text.length) + ' bytes of text', 'info');
      } catch (e) {
        // No clipboard permission (file://, an insecure origin): select the text for the user.
        const ta = el('textarea', 'visually-hidden');
        ta.value = ctx.text;
        document.body.appendChild(ta);
        ta.select();
        const ok = document.execCommand && document.execCommand('copy');
        ta.remove();
        toast(ok ? 'Copied ' + fmtInt(ctx.text.length) + ' bytes of text' : 'The browser refused the clipboard: use Download', ok ? 'info' : 'warning');
      }
    });
    $('ctx-download').addEventListener('click', () => {
      const url = URL.createObjectURL(new Blob([ctx.text], { type: 'text/plain' }));
      const a = el('a');
      a.href = url;
      a.download = state.doc.file.replace(/\.[^.]*$/, '') + '.arch' + ctx.arch + '.txt';
      document.body.appendChild(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(url), 10000);
    });
  }

  // renderContextOffer: an unrecognised binary may be a raw libncfw context; offer to emulate
  // it, with the arches its size allows.
  function renderContextOffer(n, box) {
    const sec = el('section', 'offer');
    sec.appendChild(el('h3', '', 'Raw libncfw collective context?'));
    sec.appendChild(el('p', '', 'A context taken from device memory carries no header. neffscope can emulate what libncfw 2.31 prints for it (libncfw_ctx_log) for the arch you choose, and link every printed value to its bytes.'));
    const row = el('div', 'offer-row');
    const sel = el('select');
    sel.id = 'ctx-arch-offer';
    sel.setAttribute('aria-label', 'Arch');
    const btn = el('button', 'button primary', 'Open as libncfw collective context');
    btn.type = 'button';
    btn.id = 'ctx-open';
    btn.addEventListener('click', () => openAsContext(Number(sel.value)));
    row.appendChild(sel);
    row.appendChild(btn);
    sec.appendChild(row);
    box.appendChild(sec);
    call('contextArches', { size: state.doc.size }).then((r) => {
      const a = MessagePack.decode(new Uint8Array(r.node));
      for (const rw of (a.table && a.table.rows) || []) {
        const o = el('option', '', rw[1] + ' (' + rw[0] + ')' + (rw[4] === 'true' ? ' · best guess' : rw[3] === 'true' ? ' · fits' : ' · needs ' + fmtInt(rw[2]) + ' B, rest read as zero'));
        o.value = rw[0];
        sel.appendChild(o);
        if (rw[4] === 'true') sel.value = rw[0];
      }
    }).catch((e) => sec.appendChild(el('p', 'eval-err', e.message)));
  }

  // renderSetFunctions: a set's functions (budgets, sizes, findings), each row going to its
  // function view.
  function renderSetFunctions(n, box) {
    const fns = (n.kids || []).find((c) => c.key === 'functions' && c.table);
    if (!fns) return;
    const t = fns.table;
    const head = tableHead('Functions · ' + fmtInt(t.rows.length), t, n.label + '.functions');
    box.appendChild(head);
    const wrap = el('div', 'table-wrap');
    const table = el('table', 'grid');
    const hr = el('tr');
    for (const c of t.cols) hr.appendChild(el('th', '', c));
    const thead = el('thead');
    thead.appendChild(hr);
    table.appendChild(thead);
    const tbody = el('tbody');
    for (const r of t.rows) {
      const tr = el('tr', 'clickable');
      r.forEach((cell, i) => { const td = el('td', '', cell); if (t.cols[i] === 'findings' && cell !== '0') td.classList.add('bad-cell'); tr.appendChild(td); });
      const target = (fns.kids || []).find((c) => c.label === r[0]);
      tr.dataset.function = r[0];
      if (target) tr.addEventListener('click', () => { select(target, 'detail'); mainTree.markSelected(target, false); });
      tbody.appendChild(tr);
    }
    table.appendChild(tbody);
    wrap.appendChild(table);
    box.appendChild(wrap);
    gridify(table, { labelledBy: head.firstChild, key: gridKeyOf(n, 'functions') });
  }

  function renderOctaves(n, box) {
    const oct = (n.kids || []).find((c) => c.key === 'octaves' && c.table);
    if (oct) renderTable(oct, box, 'Octaves · ' + (oct.value || fmtInt(oct.table.rows.length)));
  }

  // ---------------------------------------------------------------------------------------
  // Detail pane, renderers by kind/feature.

  // tableHead is a table's heading with its CSV download (every row, not only those shown).
  function tableHead(title, t, name) {
    const head = el('div', 'table-head');
    head.appendChild(el('h3', '', title));
    const csv = el('button', 'button small csv', 'CSV');
    csv.type = 'button';
    csv.title = 'Download this table (all ' + fmtInt((t.rows || []).length) + ' rows) as CSV';
    csv.addEventListener('click', () => download([tableCSV(t)], fileStem(name || 'table') + '.csv', 'text/csv'));
    head.appendChild(csv);
    return head;
  }

  function renderTable(node, box, title) {
    const t = node.table;
    const limit = 5000;
    const wrap = el('div', 'table-wrap');
    const table = el('table', 'grid');
    const thead = el('thead');
    const hr = el('tr');
    for (const c of t.cols || []) hr.appendChild(el('th', '', c));
    thead.appendChild(hr);
    table.appendChild(thead);
    const tbody = el('tbody');
    const rows = t.rows || [];
    rows.slice(0, limit).forEach((r, i) => {
      const tr = el('tr');
      r.forEach((cell) => tr.appendChild(el('td', '', cell)));
      const rs = t.rspans && t.rspans[i];
      if (rs) {
        tr.classList.add('clickable');
        tr.addEventListener('click', () => activateSpan(rs));
      }
      tbody.appendChild(tr);
    });
    table.appendChild(tbody);
    wrap.appendChild(table);
    const head = tableHead(title || 'Table · ' + fmtInt(rows.length) + ' rows', t, node.label || node.key);
    box.appendChild(head);
    box.appendChild(wrap);
    gridify(table, { labelledBy: head.firstChild, total: rows.length, key: gridKeyOf(node, 'table') });
    if (rows.length > limit) box.appendChild(el('p', 'muted', 'Showing the first ' + fmtInt(limit) + ' rows.'));
  }

  function renderChildren(node, box) {
    const h = el('h3', '', (node.kids.length === 1 ? '1 child' : fmtInt(node.kids.length) + ' children'));
    box.appendChild(h);
    const table = el('table', 'grid kv');
    const tbody = el('tbody');
    node.kids.slice(0, 2000).forEach((c) => {
      const tr = el('tr', 'clickable');
      tr.appendChild(el('td', 'k', c.label));
      tr.appendChild(el('td', 'v', c.value || ''));
      tr.addEventListener('click', () => select(c, 'detail'));
      tbody.appendChild(tr);
    });
    table.appendChild(tbody);
    box.appendChild(table);
    gridify(table, { labelledBy: h, total: node.kids.length, key: gridKeyOf(node, 'children') });
  }

  function renderSeries(node, box) {
    // Plots arrive with the activation-table decoder; until then list what would be drawn.
    box.appendChild(el('h3', '', 'Series'));
    for (const s of node.series) box.appendChild(el('p', 'muted', s.name + ': ' + fmtInt((s.x || []).length) + ' points'));
  }

  // DETAIL_RENDERERS: extra sections of the detail pane, by what a node carries.
  const DETAIL_RENDERERS = [
    { when: (n) => n.kind === 'pwp-set', render: renderSetFunctions },
    { when: (n) => n.kind === 'pwp-function', render: renderOctaves },
    { when: (n) => n === state.doc.root && state.doc.kind === 'binary', render: renderContextOffer },
    { when: (n) => n.table && n.table.cols, render: renderTable },
    { when: (n) => n.series && n.series.length, render: renderSeries },
    { when: (n) => !n.table && n.kids && n.kids.length && n.kind !== 'member', render: renderChildren },
  ];

  function findingItem(f, node) {
    const li = el('li', 'finding sev-' + f.sev);
    li.dataset.sev = f.sev;
    li.appendChild(el('span', 'sev', f.sev));
    li.appendChild(el('span', 'msg', f.msg));
    const where = [pathOf(node).join(' › ') || state.doc.file];
    if (f.span) where.push(spanText(f.span));
    li.appendChild(el('span', 'where', where.join(' · ')));
    li.tabIndex = 0;
    li.addEventListener('click', () => select(node, 'finding', f.span));
    li.addEventListener('keydown', (e) => { if (e.key === 'Enter') select(node, 'finding', f.span); });
    return li;
  }

  function renderDetail(n) {
    const box = $('detail');
    const hadFocus = box.contains(document.activeElement);
    box.replaceChildren();
    const head = el('div', 'd-head');
    const g = el('span', 'glyph k-' + n.kind, kindOf(n.kind).glyph);
    head.appendChild(g);
    head.appendChild(el('span', 'd-label', n.label));
    head.appendChild(el('span', 'chip', n.kind));
    box.appendChild(head);
    box.appendChild(el('div', 'd-path muted', pathOf(n).join(' › ') || state.doc.file));
    if (n.value) box.appendChild(el('pre', 'd-value', n.value));
    if (n.detail) box.appendChild(el('p', 'd-detail', n.detail));
    if (n.span) {
      const s = el('button', 'd-span link', spanText(n.span));
      s.type = 'button';
      s.addEventListener('click', () => hexShow(n.span.src || '', n.span, true));
      box.appendChild(s);
    }
    if (n.finds && n.finds.length) {
      box.appendChild(el('h3', '', 'Findings'));
      const ol = el('ol', 'findings-list inline');
      n.finds.forEach((f) => ol.appendChild(findingItem(f, n)));
      rovingList(ol, '.finding');
      box.appendChild(ol);
    }
    for (const r of DETAIL_RENDERERS) if (r.when(n)) r.render(n, box);
    if (hadFocus) detailRefocus(box);
  }

  // ---------------------------------------------------------------------------------------
  // Content pane: a JSON member as a tree plus its bytes; anything else as bytes.

  let jsonTree = null;
  let mainTree = null;

  function renderContent(n, from, spanOverride) {
    if (state.doc.kind === 'ncfw-context' && state.doc.root.kind === 'ncfw-context') { ctxShow(n, from); return; }
    $('ctx-view').hidden = true;
    const fnode = functionOf(n);
    if (fnode) plotShow(fnode);
    else $('plot-view').hidden = true;
    let jroot = contentRootOf(n);
    const jv = $('json-view');
    const member = memberOf(n);
    $('content-empty').hidden = true;
    // An instruction stream is shown as its listing rather than as a tree.
    const stream = jroot && jroot.ref && jroot.ref.startsWith('stream:') ? jroot : null;
    if (stream) jroot = null;
    if (!stream) { $('listing').hidden = true; listing.key = ''; }
    if (jroot) {
      if (jsonTree.root !== jroot) jsonTree.setRoot(jroot);
      jv.hidden = false;
      if (n !== member && jsonTree.has(n)) jsonTree.markSelected(n, from === 'json');
      else jsonTree.markSelected(null);
    } else {
      jv.hidden = true;
      jsonTree.clear();
    }
    $('content').classList.toggle('split', !!jroot || !!stream || !!fnode);
    const title = member ? member.ref.slice(7) : (n.span && n.span.src) || state.doc.file;
    $('content-title').textContent = title;
    const span = spanOverride || spanOf(n);
    const src = span ? span.src || '' : (member ? member.ref.slice(7) : '');
    // A member node highlights nothing (all of it would be highlighted): it shows from its start.
    let hl = span && !span.inherited && n !== member && !(n.kind === 'bytes' && n.label === 'content') ? span : null;
    // A node with children is shown by its children's tints, its own range only softly.
    if (hl && n.kids && n.kids.length) hl = Object.assign({}, hl, { soft: true });
    hexShow(src, hl, from !== 'hex', n === member ? [] : fieldMarks(n, src));
    if (stream) listingShow(stream);
  }

  // select is the one place a selection happens, whoever asked (tree, JSON view, hex, a
  // finding, a table row, the summary).
  function select(n, from, spanOverride) {
    state.selected = n;
    // The main tree shows members as leaves: a node inside one selects its member row there.
    if (from !== 'tree') mainTree.markSelected(memberOf(n) || n, false);
    renderDetail(n);
    renderContent(n, from, spanOverride);
    updateExport();
    if (from !== 'hash') recordHash(n, from === 'open');
  }

  // ---------------------------------------------------------------------------------------
  // URL hash: #f=<first 16 hex digits of the file's sha-256>&n=<node path>, each path key
  // URI-encoded (directory keys end in '/') and joined by '/'. Every selection pushes a history
  // entry, so back and forward walk the selections; a hash naming an open file's fingerprint
  // selects its node, now or when that file is opened again (a link or a reload).

  const fingerprint = (d) => (d && d.doc && d.doc.sha256 ? String(d.doc.sha256).slice(0, 16).toLowerCase() : '');

  function hashFor(n) {
    const f = fingerprint(state);
    return f ? '#f=' + f + '&n=' + pathOf(n).map(encodeURIComponent).join('/') : '';
  }

  function parseHash(h) {
    const out = { f: '', n: null };
    for (const part of String(h || '').replace(/^#/, '').split('&')) {
      const i = part.indexOf('=');
      if (i < 0) continue;
      const k = part.slice(0, i), v = part.slice(i + 1);
      if (k === 'f') out.f = v.toLowerCase();
      else if (k === 'n') out.n = v;
    }
    return out;
  }

  // hashTarget finds the open document and node a hash names, or null.
  function hashTarget(h) {
    const { f, n } = parseHash(h);
    if (!f || n === null) return null;
    const d = docs.find((x) => fingerprint(x) === f) || (fingerprint(state) === f ? state : null);
    if (!d) return null;
    let key;
    try { key = n === '' ? '' : n.split('/').map(decodeURIComponent).join('/'); } catch (e) { return null; }
    const node = d.byPath.get(key);
    return node ? { d, node } : null;
  }

  let hashWrites = 0; // for tests: history entries this page pushed

  function recordHash(n, replace) {
    if (embedded || !state.info.has(n) || !state.byPath) return;
    const h = hashFor(n);
    if (!h || h === location.hash) return;
    try {
      if (replace) history.replaceState(null, '', h);
      else { history.pushState(null, '', h); hashWrites++; }
    } catch (e) { /* some file:// contexts refuse: the page works without the hash */ }
  }

  // applyHash follows a hash that changed under the page (back/forward, an edited URL).
  function applyHash() {
    const t = hashTarget(location.hash);
    if (!t) {
      const { f } = parseHash(location.hash);
      if (f && f !== fingerprint(state) && lib.ok && !opening) libRestore(f, true);
      return;
    }
    if (t.d !== state) { state = t.d; renderDocument(0); return; }
    if (state.selected !== t.node) select(t.node, 'hash');
  }

  // ---------------------------------------------------------------------------------------
  // Summary and findings.

  function field(doc, ...path) {
    let n = doc.root;
    for (const k of path) { n = n && (n.kids || []).find((c) => keyOf(c) === k); }
    return n || null;
  }

  // chip is one summary item; target is the node it goes to, or a function to run.
  function chip(label, value, cls, target, id) {
    const c = el(target ? 'button' : 'div', 'sum-item ' + (cls || ''));
    if (target) {
      c.type = 'button';
      c.addEventListener('click', () => (typeof target === 'function' ? target() : select(target, 'summary')));
    }
    if (id) c.dataset.field = id;
    c.appendChild(el('span', 'sum-label', label));
    c.appendChild(el('span', 'sum-value', value));
    c.title = label + ': ' + value;
    return c;
  }

  const SUMMARIES = {
    neff(doc, box, partial) {
      // While only the header is known the chips are not links: the tree does not exist yet.
      const nav = (n) => (partial ? null : n);
      const uuid = field(doc, 'header', 'uuid');
      const name = field(doc, 'header', 'name');
      const pkg = field(doc, 'header', 'pkg_version');
      const maj = field(doc, 'header', 'neff_version_major');
      const min = field(doc, 'header', 'neff_version_minor');
      const feat = field(doc, 'header', 'feature_bits');
      const integ = field(doc, 'payload', 'integrity');
      const verdict = field(doc, 'runtime');
      const members = field(doc, 'members');
      box.appendChild(chip('UUID', uuid ? uuid.value : '—', 'mono wide', nav(uuid), 'uuid'));
      box.appendChild(chip('name', name ? name.value : '—', 'mono', nav(name), 'name'));
      box.appendChild(chip('package', 'pkg ' + (pkg ? pkg.value : '?') + ' · NEFF ' + (maj ? maj.value : '?') + '.' + (min ? min.value : '?'), '', nav(pkg), 'version'));
      if (partial) {
        box.appendChild(chip('payload', 'reading…', 'pending'));
      } else {
        const iv = (integ && integ.attrs && integ.attrs.integrity) || 'not-checked';
        box.appendChild(chip('hash', integ ? integ.value : 'not checked', iv === 'ok' ? 'good' : iv === 'mismatch' ? 'bad' : 'warn', integ, 'integrity'));
      }
      box.appendChild(chip('features', feat ? ((feat.attrs && feat.attrs.features) || 'none') + ' (' + feat.value + ')' : '—', '', nav(feat), 'features'));
      if (verdict && !partial) box.appendChild(chip('runtime', verdict.value, verdict.value === 'accepted' ? 'good' : 'bad', verdict, 'verdict'));
      if (members && !partial) box.appendChild(chip('members', members.value, '', members, 'members'));
    },
    pwp(doc, box) {
      const r = doc.root;
      let sets = 0, fns = 0;
      for (const n of state.info.keys()) { if (n.kind === 'pwp-set') sets++; else if (n.kind === 'pwp-function') fns++; }
      box.appendChild(chip('activation tables', r.value || '—', '', r, 'sets'));
      box.appendChild(chip('sets decoded', String(sets), '', null, 'set-count'));
      box.appendChild(chip('functions', String(fns), '', null, 'function-count'));
      box.appendChild(chip('size', fmtInt(doc.size) + ' bytes', '', null, 'size'));
    },
    'ncfw-context'(doc, box) {
      const r = doc.root;
      const kids = r.kids || [];
      const arch = kids.find((c) => c.kind === 'ncfw-arches');
      const text = kids.find((c) => c.kind === 'ncfw-text');
      const rc = Number((r.attrs && r.attrs.rc) || 0);
      box.appendChild(chip('libncfw context', 'arch ' + (arch ? arch.value : '?'), 'mono', r, 'arch'));
      box.appendChild(chip('return code', 'rc ' + rc + ' · ' + (RC_TEXT[rc] || 'error'), rc === 0 ? 'good' : rc === 28 ? 'warn' : 'bad', text || r, 'rc'));
      if (text) box.appendChild(chip('text', fmtInt((text.value || '').length) + ' bytes', '', text, 'text'));
      box.appendChild(chip('context', fmtInt(doc.size) + ' bytes', '', null, 'size'));
    },
    default(doc, box) {
      box.appendChild(chip('kind', doc.kind, '', doc.root, 'kind'));
      box.appendChild(chip('size', fmtInt(doc.size) + ' bytes', '', null, 'size'));
    },
  };

  function renderSummary(doc, partial) {
    const box = $('summary');
    box.replaceChildren();
    (SUMMARIES[doc.kind] || SUMMARIES.default)(doc, box, partial);
    if (!partial) {
      const idx = state.findings;
      const counts = { error: 0, warning: 0, info: 0 };
      idx.forEach(({ f }) => { counts[f.sev] = (counts[f.sev] || 0) + 1; });
      const worst = counts.error ? 'bad' : counts.warning ? 'warn' : 'good';
      const parts = [];
      for (const s of ['error', 'warning', 'info']) if (counts[s]) parts.push(counts[s] + ' ' + s + (counts[s] > 1 && s !== 'info' ? 's' : ''));
      box.appendChild(chip('findings', parts.length ? parts.join(' · ') : 'none', worst, () => { setFindingsOpen(true); $('findings-list').focus(); }, 'findings'));
    }
    box.hidden = false;
  }

  function setFindingsOpen(open) {
    $('findings-toggle').setAttribute('aria-expanded', open ? 'true' : 'false');
    $('findings-list').hidden = !open;
    $('findings').classList.toggle('open', open);
  }

  function renderFindings() {
    const list = $('findings-list');
    list.replaceChildren();
    list.tabIndex = -1;
    const all = state.findings.slice().sort((a, b) => (SEV_RANK[b.f.sev] || 0) - (SEV_RANK[a.f.sev] || 0));
    all.forEach(({ f, node }) => list.appendChild(findingItem(f, node)));
    rovingList(list, '.finding');
    const counts = { error: 0, warning: 0, info: 0 };
    all.forEach(({ f }) => { counts[f.sev] = (counts[f.sev] || 0) + 1; });
    const t = $('findings-toggle');
    t.replaceChildren();
    t.appendChild(el('span', 'caret', '▾'));
    t.appendChild(el('span', '', all.length ? 'Findings' : 'Findings: none — every check passed'));
    for (const s of ['error', 'warning', 'info']) if (counts[s]) t.appendChild(el('span', 'badge sev-' + s, counts[s] + ' ' + s + (counts[s] > 1 && s !== 'info' ? 's' : '')));
    $('findings').hidden = false;
    $('findings').dataset.count = all.length;
    setFindingsOpen(counts.error + counts.warning > 0);
  }

  // ---------------------------------------------------------------------------------------
  // Opening files.

  let opening = null;
  let lastOpen = null; // {size, headerMs, totalMs} of the last file opened, for benchmarks

  function showProgress(file) {
    $('progress').hidden = false;
    $('progress-title').textContent = 'Reading ' + file.name;
    $('progress-bar').style.width = '0%';
    $('progress-text').textContent = fmtSize(file.size) + ' · starting…';
    $('cancel').disabled = core.mode !== 'worker';
  }

  function onProgress(file, t0, p) {
    const secs = (performance.now() - t0) / 1000;
    const read = p.read || p.done;
    const frac = file.size ? Math.min(1, read / file.size) : 1;
    $('progress-bar').style.width = (frac * 100).toFixed(1) + '%';
    const parts = [p.phase, fmtSize(read) + ' of ' + fmtSize(file.size)];
    if (secs > 0.05) parts.push((read / (1 << 20) / secs).toFixed(1) + ' MB/s');
    if (p.inflated) parts.push(fmtSize(p.inflated) + ' inflated');
    $('progress-text').textContent = parts.join(' · ');
  }

  // The file's sha-256 (its fingerprint: URL hash, library key) is computed by a second worker
  // (worker.js in its hash role) in parallel with the core's open, on another CPU core: Go's
  // SHA-256 in wasm runs at about 100 MB/s and was a third of a big file's open time. Without
  // workers (the main-thread fallback) the core hashes the file while it streams, as before.
  const HASH_ROLE = 'neffscope-hash';
  const hasher = { worker: null, next: 1, pending: new Map() };

  function hashWorker() {
    if (hasher.worker) return hasher.worker;
    const w = newWorker(HASH_ROLE, []);
    w.onmessage = (ev) => {
      const d = ev.data || {};
      const p = hasher.pending.get(d.id);
      if (!p) return;
      hasher.pending.delete(d.id);
      if (d.error) console.info('neffscope: the hash worker failed: ' + d.error);
      p(d.sha256 || null);
    };
    w.onerror = (ev) => { ev.preventDefault(); hashStop(); };
    hasher.worker = w;
    return w;
  }

  // hashStop ends the hash worker (a cancel); what it was computing resolves to null.
  function hashStop() {
    if (hasher.worker) hasher.worker.terminate();
    hasher.worker = null;
    for (const p of hasher.pending.values()) p(null);
    hasher.pending.clear();
  }

  function pageFingerprint(file) {
    if (core.mode !== 'worker' || !file) return null;
    let w;
    try { w = hashWorker(); } catch (e) { return null; }
    const id = hasher.next++;
    return new Promise((resolve) => { hasher.pending.set(id, resolve); w.postMessage({ id, file }); });
  }

  // openWithFingerprint opens file in the core with the page computing its sha-256 alongside;
  // known: a sha-256 already known (a reopen after the worker restarted). It resolves with the
  // core's answer plus sha256 (the fingerprint the core accepted, or '').
  async function openWithFingerprint(file, hooks, known) {
    const fp = known ? Promise.resolve(known) : pageFingerprint(file);
    const r = await call('open', { file, name: file.name, fingerprint: fp ? false : undefined }, hooks);
    r.sha256 = '';
    if (fp) {
      const sha = await fp;
      if (sha && (await call('setFingerprint', { handle: r.handle, sha256: sha })).set) r.sha256 = sha;
    }
    return r;
  }

  async function openFile(file) {
    if (!file) return;
    if (opening) cancel();
    const t0 = performance.now();
    const token = {};
    opening = token;
    document.body.dataset.state = 'opening';
    showProgress(file);
    try {
      const r = await openWithFingerprint(file, {
        onProgress: (p) => onProgress(file, t0, p),
        onHeader: (buf) => {
          if (opening !== token) return;
          token.headerMs = performance.now() - t0;
          // The header arrives before the payload is read: show who the file is at once.
          renderSummary(MessagePack.decode(new Uint8Array(buf)), true);
          $('welcome').hidden = true;
        },
      });
      if (opening !== token) return;
      const tResult = performance.now();
      const doc = MessagePack.decode(new Uint8Array(r.doc));
      if (r.sha256) doc.sha256 = r.sha256;
      const decodeMs = performance.now() - tResult;
      closeDocs();
      const st = makeState(doc, { file, handle: r.handle, gen: core.gen });
      st.reopen = async () => (await openWithFingerprint(file, null, doc.sha256)).handle;
      const tDecoded = performance.now();
      lastOpen = { size: file.size, headerMs: token.headerMs, coreMs: r.ms, decodeMs, totalMs: 0, renderMs: 0, wasmBytes: r.wasmBytes };
      showDocs([st], 0, Math.round(tDecoded - t0));
      lastOpen.renderMs = performance.now() - tDecoded;
      lastOpen.totalMs = performance.now() - t0;
      document.body.dataset.state = 'open';
      libRemember(st, 'open', [file]);
    } catch (e) {
      if (opening !== token) return;
      if (e.message === 'cancelled') toast('Cancelled reading ' + file.name, 'info');
      else toast('Could not open ' + file.name + ': ' + e.message);
      document.body.dataset.state = state && state.handle ? 'open' : 'empty';
      if (state && state.doc) renderSummary(state.doc, false);
    } finally {
      if (opening === token) { opening = null; $('progress').hidden = true; }
    }
  }

  // ---- several documents: a drop of several files gives one per group (tabs) ----

  let docs = []; // the documents of the last open, each a state object
  let uidNext = 1;
  let lastRecontext = null; // {ms, coreMs} of the last arch switch, for tests

  function makeState(doc, extra) {
    return Object.assign({ doc, uid: uidNext++ }, extra, indexDoc(doc));
  }

  function closeDocs() {
    diffForget();
    for (const d of docs) if (d.handle && d.gen === core.gen) call('close', { handle: d.handle }).catch(() => {});
    docs = [];
  }

  function showDocs(list, i, ms) {
    docs = list;
    state = list[i];
    renderDocument(ms);
  }

  function replaceDoc(prev, next) {
    const i = docs.indexOf(prev);
    if (i >= 0) docs[i] = next; else docs = [next];
    state = next;
  }

  function switchDoc(i) {
    if (diff.shown && docs[i] === state) { hideDiffView(); renderTabs(); return; }
    hideDiffView();
    if (!docs[i] || docs[i] === state) return;
    state = docs[i];
    renderDocument(0);
  }

  function renderTabs() {
    const nav = $('doc-tabs');
    nav.replaceChildren();
    nav.hidden = docs.length < 2;
    docs.forEach((d, i) => {
      const b = el('button', 'doc-tab', d.doc.file);
      b.type = 'button';
      b.setAttribute('role', 'tab');
      b.setAttribute('aria-selected', d === state ? 'true' : 'false');
      b.dataset.kind = d.doc.kind;
      b.dataset.index = i;
      b.title = d.doc.file + ' · ' + d.doc.kind + ' · ' + fmtSize(d.doc.size);
      b.appendChild(el('span', 'tab-kind', d.doc.kind));
      b.addEventListener('click', () => switchDoc(i));
      nav.appendChild(b);
    });
    diffTabs(nav);
  }

  // openFiles opens what was picked or dropped: one file as before; several as a group, in
  // which activation-table files join into one document and the others open on their own.
  async function openFiles(files) {
    files = Array.from(files || []).filter(Boolean);
    if (files.length <= 1) { openFile(files[0]); return; }
    if (opening) cancel();
    const t0 = performance.now();
    const token = {};
    opening = token;
    document.body.dataset.state = 'opening';
    const total = files.reduce((a, f) => a + f.size, 0);
    showProgress({ name: files.length + ' files', size: total });
    try {
      const r = await call('openGroup', { files });
      if (opening !== token) return;
      closeDocs();
      const list = r.docs.map((d, i) => {
        const doc = MessagePack.decode(new Uint8Array(d.doc));
        const file = files.find((f) => f.name === doc.file) || files[0];
        const st = makeState(doc, { file, files, handle: d.handle, gen: core.gen });
        st.reopen = async () => {
          const rr = await call('openGroup', { files });
          // Every document of the group gets its new handle at once.
          rr.docs.forEach((x, j) => { if (list[j]) { list[j].handle = x.handle; list[j].gen = core.gen; } });
          return rr.docs[i].handle;
        };
        return st;
      });
      lastOpen = { size: total, coreMs: 0, decodeMs: 0, totalMs: performance.now() - t0, renderMs: 0, wasmBytes: r.wasmBytes, documents: list.length };
      // The joined activation tables come first; show them.
      showDocs(list, 0, Math.round(performance.now() - t0));
      document.body.dataset.state = 'open';
      libRemember(list[0], 'group', files);
    } catch (e) {
      if (opening !== token) return;
      toast(e.message === 'cancelled' ? 'Cancelled' : 'Could not open the ' + files.length + ' files: ' + e.message, e.message === 'cancelled' ? 'info' : 'error');
      document.body.dataset.state = state && state.handle ? 'open' : 'empty';
    } finally {
      if (opening === token) { opening = null; $('progress').hidden = true; }
    }
  }

  function renderDocument(ms) {
    const doc = state.doc;
    $('welcome').hidden = true;
    $('panes').hidden = false;
    const fn = $('file-name');
    fn.textContent = doc.file + ' · ' + fmtSize(doc.size);
    fn.title = 'opened in ' + ms + ' ms' + (doc.sha256 ? ' · sha-256 ' + doc.sha256 : '');
    renderTabs();
    $('search-box').hidden = false;
    if (search.q) searchClose();
    renderSummary(doc, false);
    renderFindings();
    // The top of the tree and the member list open; everything else expands on demand.
    const openKinds = new Set(['neff', 'header', 'archive', 'pwp-bundle', 'pwp-set', 'group', 'ncfw-context']);
    mainTree.setRoot(doc.root, (n) => n === doc.root || openKinds.has(n.kind) && parentOf(n) === doc.root);
    hex.key = '';
    hex.cache.clear();
    plot.key = '';
    jsonTree.clear();
    $('json-view').hidden = true;
    const linked = hashTarget(location.hash);
    if (linked && linked.d === state) { select(linked.node, 'hash'); return; }
    const first = field(doc, 'header') || doc.root;
    select(first, 'open');
  }

  // ---------------------------------------------------------------------------------------
  // Search (Ctrl+K or /): node labels, values and member paths of the open document, then the
  // instruction listings' opcode names (fetched from the core a block at a time). The walk
  // yields to the page every SEARCH_SLICE nodes and stops at SEARCH_CAP results, so a big
  // document stays responsive; a newer query abandons an older one.

  const SEARCH_CAP = 500;
  const SEARCH_SLICE = 4000;
  const SEARCH_ROWS = 10000; // the core's cap on one rows() call
  const search = { q: '', seq: 0, results: [], active: -1, done: true, more: false, errors: [], notes: [], timer: 0 };

  const pause = () => new Promise((r) => setTimeout(r, 0));

  function searchMatch(n, q) {
    if (n.label && n.label.toLowerCase().includes(q)) return true;
    if (n.value && String(n.value).toLowerCase().includes(q)) return true;
    return !!(n.ref && n.ref.startsWith('member:') && n.ref.slice(7).toLowerCase().includes(q));
  }

  async function runSearch(raw) {
    const seq = ++search.seq;
    const q = raw.trim().toLowerCase();
    search.q = q;
    search.results = [];
    search.active = -1;
    search.more = false;
    search.errors = [];
    search.notes = [];
    search.done = !q || !state;
    if (search.done) { searchRender(); return; }
    // A byte offset first: its results lead the list.
    const byOffset = offsetResults(q);
    search.notes = byOffset.notes;
    byOffset.results.forEach((r) => { search.results.push(r); search.active = 0; });
    const st = state;
    const live = () => seq === search.seq && st === state;
    const add = (r) => {
      if (search.results.length >= SEARCH_CAP) { search.more = true; return false; }
      search.results.push(r);
      if (search.active < 0) search.active = 0;
      return true;
    };
    const streams = [];
    let i = 0;
    for (const n of st.byPath.values()) {
      if (n.ref && n.ref.startsWith('stream:')) streams.push(n);
      if (searchMatch(n, q) && !add({ node: n })) break;
      if (++i % SEARCH_SLICE === 0) { searchRender(); await pause(); if (!live()) return; }
    }
    searchRender();
    for (const sn of streams) {
      if (search.more) break;
      let total = Infinity, nameCol = -1, opCol = -1;
      for (let from = 0; from < total && !search.more; from += SEARCH_ROWS) {
        let r;
        try {
          r = await call('rows', { handle: await ensureHandle(), ref: sn.ref, from, to: from + SEARCH_ROWS });
        } catch (e) { search.errors.push(sn.ref.slice(7) + ': ' + e.message); break; }
        if (!live()) return;
        total = r.total;
        const t = MessagePack.decode(new Uint8Array(r.table));
        if (from === 0) {
          const cols = (t.cols || []).map((c) => String(c).toLowerCase());
          nameCol = cols.indexOf('name');
          opCol = cols.indexOf('opcode');
        }
        (t.rows || []).forEach((row, k) => {
          const name = nameCol >= 0 ? String(row[nameCol] || '') : '';
          const op = opCol >= 0 ? String(row[opCol] || '') : '';
          if ((name && name.toLowerCase().includes(q)) || (op && op.toLowerCase().includes(q))) {
            add({ stream: sn, index: from + k, text: name + (op ? '  (' + op + ')' : '') });
          }
        });
        searchRender();
      }
    }
    if (!live()) return;
    search.done = true;
    searchRender();
  }

  function searchRender() {
    const box = $('search-results');
    const input = $('search');
    if (!search.q) { box.hidden = true; input.setAttribute('aria-expanded', 'false'); return; }
    box.hidden = false;
    input.setAttribute('aria-expanded', 'true');
    const frag = document.createDocumentFragment();
    search.results.forEach((r, i) => {
      const item = el('div', 'sr' + (i === search.active ? ' active' : ''));
      item.id = 'sr-' + i;
      item.setAttribute('role', 'option');
      item.setAttribute('aria-selected', i === search.active ? 'true' : 'false');
      item.dataset.index = i;
      if (r.offset !== undefined) offsetResultItem(r, item);
      else if (r.node) {
        const n = r.node;
        item.dataset.kind = n.kind === 'member' ? 'member' : 'node';
        item.appendChild(el('span', 'sr-kind', kindOf(n.kind).title || n.kind));
        item.appendChild(el('span', 'sr-what', n.label + (n.value ? ' = ' + n.value : '')));
        const where = n.ref && n.ref.startsWith('member:') ? n.ref.slice(7) : pathOf(n).slice(0, -1).join(' › ');
        item.appendChild(el('span', 'sr-where', where || state.doc.file));
      } else {
        item.dataset.kind = 'instruction';
        item.dataset.row = r.index;
        item.appendChild(el('span', 'sr-kind', 'instruction'));
        item.appendChild(el('span', 'sr-what', r.text));
        item.appendChild(el('span', 'sr-where', r.stream.ref.slice(7) + ' #' + fmtInt(r.index)));
      }
      frag.appendChild(item);
    });
    search.notes.slice().reverse().forEach((n) => frag.insertBefore(el('div', 'sr-note beyond', n), frag.firstChild));
    let note = '';
    if (search.more) note = 'More than ' + fmtInt(SEARCH_CAP) + ' matches: showing the first ' + fmtInt(SEARCH_CAP) + '; type more to narrow.';
    else if (!search.done) note = 'Searching…';
    else if (!search.results.length) note = 'No matches.';
    if (note) frag.appendChild(el('div', 'sr-note', note));
    for (const e of search.errors) frag.appendChild(el('div', 'sr-note', 'Not searched: ' + e));
    box.replaceChildren(frag);
    if (search.active >= 0) {
      input.setAttribute('aria-activedescendant', 'sr-' + search.active);
      const a = box.querySelector('.sr.active');
      if (a) a.scrollIntoView({ block: 'nearest' });
    } else input.removeAttribute('aria-activedescendant');
  }

  function searchClose() {
    search.seq++;
    search.q = '';
    $('search').value = '';
    searchRender();
  }

  async function searchPick(i) {
    const r = search.results[i];
    if (!r || !state) return;
    searchClose();
    $('search').blur();
    if (r.offset !== undefined) { offsetPick(r); return; }
    if (r.node) {
      select(r.node, 'search');
      return;
    }
    select(r.stream, 'search');
    await fetchBlock(0).promise;
    if (listing.ref !== r.stream.ref) return;
    listingScrollTo(r.index);
    listingSelect(r.index);
  }

  function searchInit() {
    const input = $('search');
    input.addEventListener('input', () => {
      clearTimeout(search.timer);
      search.timer = setTimeout(() => runSearch(input.value), 120);
    });
    input.addEventListener('keydown', (e) => {
      const n = search.results.length;
      switch (e.key) {
        case 'ArrowDown': if (n) search.active = (search.active + 1) % n; break;
        case 'ArrowUp': if (n) search.active = (search.active - 1 + n) % n; break;
        case 'Enter':
          // A query typed faster than the debounce runs now; Enter then picks once results come.
          if (search.q !== input.value.trim().toLowerCase()) { clearTimeout(search.timer); runSearch(input.value); return; }
          searchPick(search.active);
          return;
        case 'Escape': searchClose(); input.blur(); break;
        default: return;
      }
      e.preventDefault();
      searchRender();
    });
    $('search-results').addEventListener('mousedown', (e) => e.preventDefault()); // keep the focus in the box
    $('search-results').addEventListener('click', (e) => {
      const item = e.target.closest('.sr');
      if (item) searchPick(Number(item.dataset.index));
    });
    input.addEventListener('blur', () => { if (search.q) $('search-results').hidden = true; });
    input.addEventListener('focus', () => { if (search.q) searchRender(); });
    window.addEventListener('keydown', (e) => {
      const t = e.target;
      const typing = t && (t.tagName === 'INPUT' || t.tagName === 'TEXTAREA' || t.tagName === 'SELECT' || t.isContentEditable);
      if (((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === 'k') || (e.key === '/' && !typing && !e.ctrlKey && !e.metaKey && !e.altKey)) {
        if (!state) return;
        e.preventDefault();
        // A driver (or IME) that delivers the '/' character apart from its keydown must not
        // type it into the box: swallow it until the key comes up.
        if (e.key === '/') slashHeld = true;
        input.focus();
        input.select();
      }
    });
    let slashHeld = false;
    input.addEventListener('beforeinput', (e) => { if (slashHeld && e.data === '/') e.preventDefault(); });
    window.addEventListener('keyup', (e) => { if (e.key === '/') slashHeld = false; });
  }

  // ---------------------------------------------------------------------------------------
  // Theme: the OS preference (system) unless the toggle chose light or dark; the choice is
  // remembered in localStorage, which some file:// contexts refuse (then it lasts the visit).

  const THEMES = ['system', 'light', 'dark'];
  const THEME_KEY = 'neffscope.theme';
  const THEME_GLYPH = { system: '◐', light: '☀', dark: '☾' };

  function storedTheme() {
    try { const t = localStorage.getItem(THEME_KEY); return THEMES.includes(t) ? t : 'system'; } catch (e) { return 'system'; }
  }

  function applyTheme(t) {
    if (t === 'system') delete document.documentElement.dataset.theme;
    else document.documentElement.dataset.theme = t;
    const b = $('theme-toggle');
    const next = THEMES[(THEMES.indexOf(t) + 1) % THEMES.length];
    b.textContent = THEME_GLYPH[t];
    b.dataset.theme = t;
    b.setAttribute('aria-label', 'Theme: ' + t);
    b.title = 'Theme: ' + (t === 'system' ? 'follows the system' : t) + ' (click for ' + next + ')';
  }

  function themeInit() {
    applyTheme(storedTheme());
    $('theme-toggle').addEventListener('click', () => {
      const cur = $('theme-toggle').dataset.theme || 'system';
      const t = THEMES[(THEMES.indexOf(cur) + 1) % THEMES.length];
      applyTheme(t);
      try { if (t === 'system') localStorage.removeItem(THEME_KEY); else localStorage.setItem(THEME_KEY, t); } catch (e) { /* not remembered */ }
    });
  }


  // ---------------------------------------------------------------------------------------
  // Library: recent files kept in IndexedDB by the core (wasm/library.go). Each entry holds
  // the Document and, when the file fits the cap below, its bytes, so a reload, a discarded
  // tab or an offline visit reopens it; a link whose #f= names a kept file opens it too.
  // Where IndexedDB is missing (some file:// contexts) the list says so and nothing else
  // changes. Embedded viewers keep nothing: the host page's files are not ours to remember.

  const LIB_CAP_KEY = 'neffscope.libraryCap';
  const LIB_CAPS = [0, 16 << 20, 64 << 20, 256 << 20, 1 << 30];
  const LIB_CAP_DEFAULT = 256 << 20;
  const lib = { ok: null, reason: '', list: [], busy: false, restored: null };

  function libCap() {
    try { const v = Number(localStorage.getItem(LIB_CAP_KEY)); if (LIB_CAPS.includes(v) && localStorage.getItem(LIB_CAP_KEY) !== null) return v; } catch (e) { /* default */ }
    return LIB_CAP_DEFAULT;
  }

  function fmtWhen(ms) {
    const d = new Date(ms), now = Date.now();
    const mins = Math.round((now - ms) / 60000);
    if (mins < 1) return 'just now';
    if (mins < 60) return mins + ' min ago';
    if (mins < 24 * 60) return Math.round(mins / 60) + ' h ago';
    return d.toISOString().slice(0, 10);
  }

  async function libRefresh() {
    if (embedded) return;
    try {
      if (lib.ok === null) {
        const st = await call('libStatus', {});
        lib.ok = st.ok;
        lib.reason = st.reason;
      }
      lib.list = lib.ok ? (await call('libList', {})).list || [] : [];
    } catch (e) {
      lib.ok = false;
      lib.reason = e.message;
      lib.list = [];
    }
    libRender();
  }

  function libRender() {
    const box = $('library');
    box.hidden = embedded || lib.ok === null;
    $('library-open').hidden = embedded || !lib.ok;
    const list = $('library-list');
    list.replaceChildren();
    $('library-clear').disabled = !lib.list.length;
    $('library-cap').disabled = !lib.ok;
    const note = $('library-note');
    if (!lib.ok) {
      note.textContent = 'The library is off here: ' + (lib.reason || 'IndexedDB is not available') + '. Files open as usual but are not remembered.';
      note.dataset.state = 'off';
      return;
    }
    delete note.dataset.state;
    note.textContent = lib.list.length ? '' : 'Files you open are remembered here (in this browser only), so a reload or an offline visit opens them again.';
    for (const e of lib.list) {
      const files = e.files || [];
      const kept = files.length > 0 && files.every((f) => f.kept);
      const li = el('li', 'lib-item');
      li.dataset.key = e.key;
      const open = el('button', 'lib-open');
      open.type = 'button';
      open.title = 'Open ' + e.name + (kept ? '' : ' (its document only: the bytes were not kept)');
      open.appendChild(el('span', 'lib-name', e.name + (files.length > 1 ? ' + ' + (files.length - 1) + ' more' : '')));
      const meta = el('span', 'lib-meta');
      meta.appendChild(el('span', 'lib-kind', e.kind || '?'));
      meta.appendChild(el('span', '', fmtSize(e.size)));
      meta.appendChild(el('span', 'lib-when', fmtWhen(e.opened)));
      const sha = el('span', 'lib-sha', String(e.sha256 || '').slice(0, 12));
      sha.title = 'sha-256 ' + (e.sha256 || '');
      meta.appendChild(sha);
      const b = el('span', 'lib-bytes ' + (kept ? 'kept' : 'doc-only'), kept ? 'bytes kept' : 'document only');
      b.title = kept ? 'The file\'s bytes are kept in this browser: it reopens completely.' : 'Over the size cap: the decoded document is kept, the bytes are not. Open the file again to see its bytes.';
      meta.appendChild(b);
      // The root's value is often just the size again: show it only when it says more.
      if (e.summary && !/^[\d,]+ B\b/.test(e.summary)) meta.appendChild(el('span', 'lib-summary', e.summary));
      open.appendChild(meta);
      open.addEventListener('click', () => { libClose(); libRestore(e.key, false); });
      const rm = el('button', 'button small lib-remove', '×');
      rm.type = 'button';
      rm.title = 'Forget ' + e.name;
      rm.setAttribute('aria-label', 'Forget ' + e.name);
      rm.addEventListener('click', async () => {
        try { await call('libRemove', { key: e.key }); } catch (err) { toast('Could not forget ' + e.name + ': ' + err.message); }
        libRefresh();
      });
      li.appendChild(open);
      li.appendChild(rm);
      list.appendChild(li);
    }
  }

  // libRemember keeps what was just opened: how ('open', 'group', 'context'), its files (with
  // their bytes when each fits the cap) and extra (arch, model).
  async function libRemember(st, how, files, extra) {
    if (embedded || !st || !st.handle || lib.ok === false) return;
    const cap = libCap();
    const entry = Object.assign({ how, name: st.doc.file, files: files.map((f) => (f.size <= cap ? { name: f.name, size: f.size, blob: f } : { name: f.name, size: f.size })) }, extra || {});
    try {
      const r = await call('libPut', { handle: st.handle, entry });
      if (r.note) toast(r.note, 'info');
    } catch (e) {
      console.info('neffscope: not remembered: ' + e.message);
    }
    libRefresh();
  }

  // libRestore opens a kept entry (key: a sha-256 or a prefix of one). fromHash: the page was
  // loaded with a link naming it, so the hash's node is selected once it is open.
  async function libRestore(key, fromHash) {
    let e;
    try { e = (await call('libGet', { key })).entry; } catch (err) { toast('The library could not be read: ' + err.message); return false; }
    if (!e) { if (!fromHash) toast('That file is no longer in the library'); return false; }
    lib.restored = { key: e.key, fromHash, kept: false };
    const files = (e.files || []).filter((f) => f.blob).map((f) => (f.blob instanceof File ? f.blob : new File([f.blob], f.name)));
    if (!fromHash) { try { history.replaceState(null, '', location.pathname + location.search); } catch (err) { /* file:// */ } }
    if (files.length && files.length === (e.files || []).length) {
      lib.restored.kept = true;
      if (e.how === 'group') await openFiles(files);
      else if (e.how === 'context') await openContextFile(files[0], e.arch || 0, e.model || '');
      else await openFile(files[0]);
      return true;
    }
    // The bytes were not kept: show the Document alone. Bytes-backed views say why they are empty.
    const doc = MessagePack.decode(new Uint8Array(e.doc));
    closeDocs();
    const st = makeState(doc, { file: null, handle: 0, gen: core.gen, stored: true });
    st.reopen = async () => { throw new Error('the bytes of ' + e.name + ' were not kept (it is over the library\'s size cap); open the file again to see them'); };
    showDocs([st], 0, 0);
    document.body.dataset.state = 'open';
    toast('Showing the document kept for ' + e.name + '. Its bytes were not kept: open the file again to see them.', 'info');
    return true;
  }

  // openContextFile opens a file as a raw libncfw context directly (a library entry made that way).
  async function openContextFile(file, arch, model) {
    try {
      const st = await contextState(file, arch, model);
      closeDocs();
      showDocs([st], 0, Math.round(st.openMs));
      document.body.dataset.state = 'open';
    } catch (e) {
      toast('Opening ' + file.name + ' as a libncfw context: ' + e.message);
    }
  }

  function libOpenPanel() {
    const pop = $('library-pop');
    pop.appendChild($('library'));
    pop.hidden = false;
    $('library-open').setAttribute('aria-expanded', 'true');
    libRefresh();
    const first = pop.querySelector('button');
    if (first) first.focus();
  }

  function libClose() {
    const pop = $('library-pop');
    if (pop.hidden) return;
    pop.hidden = true;
    $('library-open').setAttribute('aria-expanded', 'false');
    $('welcome-library').appendChild($('library'));
  }

  function libInit() {
    const sel = $('library-cap');
    for (const c of LIB_CAPS) {
      const o = el('option', '', c ? 'files up to ' + fmtSize(c) : 'no bytes (documents only)');
      o.value = String(c);
      sel.appendChild(o);
    }
    sel.value = String(libCap());
    sel.addEventListener('change', () => { try { localStorage.setItem(LIB_CAP_KEY, sel.value); } catch (e) { /* not remembered */ } });
    $('library-clear').addEventListener('click', async () => {
      try { await call('libClear', {}); } catch (e) { toast('Could not clear the library: ' + e.message); }
      libRefresh();
    });
    $('library-open').addEventListener('click', () => { if ($('library-pop').hidden) libOpenPanel(); else libClose(); });
    document.addEventListener('keydown', (e) => { if (e.key === 'Escape' && !$('library-pop').hidden) { libClose(); $('library-open').focus(); } });
    document.addEventListener('click', (e) => {
      const pop = $('library-pop');
      if (!pop.hidden && !pop.contains(e.target) && e.target !== $('library-open')) libClose();
    });
  }

  // libBoot runs once the core is up: the list, and a link or reload naming a kept file.
  async function libBoot() {
    if (embedded) return;
    await libRefresh();
    const { f } = parseHash(location.hash);
    if (lib.ok && f && !state && !opening && !params.get('url')) await libRestore(f, true);
  }

  // ---------------------------------------------------------------------------------------
  // Comparing two NEFFs (inspect.Diff in the core): the current document against another open
  // one (the Compare menu by the tabs) or against a file picked for it (Compare with…). The
  // comparison has a tab of its own; every member in it jumps to that member in A or B.

  const DIFF_ROWS = 2000; // rows built per member group before a "show more"
  const diff = { a: null, b: null, node: null, shown: false, hideSame: false, seq: 0, error: '' };
  const CHANGE_MARK = { changed: '≠', added: '+', removed: '−', operands: '≈' };
  const CHANGE_TITLE = { changed: 'differs', added: 'only in B', removed: 'only in A', operands: 'same opcode counts, other operands' };
  const isNEFF = (d) => !!(d && d.doc && d.doc.kind === 'neff');

  // handleFor is ensureHandle for any document: reopened in the core after a worker restart.
  async function handleFor(st) {
    if (st.gen === core.gen && st.handle) return st.handle;
    const h = await st.reopen();
    st.handle = h;
    st.gen = core.gen;
    return h;
  }

  // docTitle names a document; documents of the same name get their tab number.
  function docTitle(st) {
    const same = docs.filter((d) => d.doc.file === st.doc.file);
    return same.length > 1 ? st.doc.file + ' #' + (docs.indexOf(st) + 1) : st.doc.file;
  }

  // targetOf: the kelf target and arch of a NEFF (from the document's model), or ''.
  function targetOf(st) {
    const t = field(st.doc, 'model', 'target');
    if (!t) return '';
    const name = String(t.value || '').replace(/^"|"$/g, '');
    const arch = /:\s*([^:]+)$/.exec(t.detail || '');
    return name + (arch ? ' (' + arch[1].trim() + ')' : '');
  }

  function updateCompare() {
    const box = $('compare');
    box.hidden = embedded || !isNEFF(state);
    const others = docs.filter((d) => d !== state && isNEFF(d));
    const b = $('compare-button');
    b.textContent = others.length ? '⇄ Compare ▾' : '⇄ Compare with…';
    b.title = others.length ? 'Compare ' + state.doc.file + ' with another open NEFF, or with a file' : 'Choose a second NEFF to compare ' + (state ? state.doc.file : '') + ' with';
    if (others.length) b.setAttribute('aria-haspopup', 'menu'); else b.removeAttribute('aria-haspopup');
  }

  // diffTabs: hook of renderTabs — numbers tabs of the same name, and adds the comparison's tab.
  function diffTabs(nav) {
    nav.querySelectorAll('.doc-tab').forEach((b) => {
      const d = docs[Number(b.dataset.index)];
      if (d && docTitle(d) !== d.doc.file) b.insertBefore(el('span', 'tab-n', '#' + (docs.indexOf(d) + 1)), b.lastChild);
      if (diff.shown) b.setAttribute('aria-selected', 'false');
      // The compared documents carry their letter.
      const side = d && diff.a && diff.b ? (d === diff.a ? 'a' : d === diff.b ? 'b' : '') : '';
      if (side) {
        const l = el('span', 'side-letter tab-side side-' + side, side.toUpperCase());
        l.title = side === 'a' ? 'A in the comparison' : 'B in the comparison';
        b.insertBefore(l, b.firstChild);
      }
    });
    if (diff.a && diff.b && docs.includes(diff.a) && docs.includes(diff.b)) {
      const t = el('button', 'doc-tab diff-tab');
      t.type = 'button';
      t.setAttribute('role', 'tab');
      t.setAttribute('aria-selected', diff.shown ? 'true' : 'false');
      t.appendChild(el('span', 'diff-glyph', '⇄'));
      t.appendChild(el('span', '', '#' + (docs.indexOf(diff.a) + 1) + ' vs #' + (docs.indexOf(diff.b) + 1)));
      t.appendChild(el('span', 'tab-kind', 'diff'));
      t.title = 'Comparison: A ' + docTitle(diff.a) + ' · B ' + docTitle(diff.b);
      t.addEventListener('click', () => showDiffView());
      nav.appendChild(t);
      nav.hidden = false;
    }
    updateCompare();
  }

  // ---- the Compare menu ----

  function closeCompareMenu(focusButton) {
    const menu = $('compare-menu');
    if (menu.hidden) return;
    menu.hidden = true;
    $('compare-button').setAttribute('aria-expanded', 'false');
    if (focusButton) $('compare-button').focus();
  }

  function menuItem(label, note, act) {
    const b = el('button', 'menu-item');
    b.type = 'button';
    b.setAttribute('role', 'menuitem');
    b.tabIndex = -1;
    b.appendChild(el('span', 'mi-label', label));
    if (note) b.appendChild(el('span', 'mi-note', note));
    b.addEventListener('click', () => { closeCompareMenu(false); act(); });
    return b;
  }

  function openCompareMenu() {
    if (!isNEFF(state)) return;
    const others = docs.filter((d) => d !== state && isNEFF(d));
    if (!others.length) { $('compare-input').click(); return; }
    const a = state;
    const menu = $('compare-menu');
    menu.replaceChildren(el('div', 'menu-note', 'Compare A = ' + docTitle(a) + ' with B ='));
    for (const d of others) {
      const item = menuItem(docTitle(d), [fmtSize(d.doc.size), targetOf(d)].filter(Boolean).join(' · '), () => compare(a, d));
      item.dataset.index = docs.indexOf(d);
      menu.appendChild(item);
    }
    menu.appendChild(el('div', 'menu-sep'));
    menu.appendChild(menuItem('Another NEFF file…', 'opens it as a new tab', () => $('compare-input').click()));
    menu.hidden = false;
    $('compare-button').setAttribute('aria-expanded', 'true');
    menu.querySelector('.menu-item').focus();
  }

  function compareMenuKey(e) {
    const items = Array.from($('compare-menu').querySelectorAll('.menu-item'));
    const i = items.indexOf(document.activeElement);
    switch (e.key) {
      case 'ArrowDown': items[(i + 1) % items.length].focus(); break;
      case 'ArrowUp': items[(i - 1 + items.length) % items.length].focus(); break;
      case 'Home': items[0].focus(); break;
      case 'End': items[items.length - 1].focus(); break;
      case 'Escape': closeCompareMenu(true); break;
      case 'Tab': closeCompareMenu(false); return;
      default: return;
    }
    e.preventDefault();
  }

  // openForCompare opens a picked file as one more tab and compares the current NEFF with it.
  async function openForCompare(file) {
    const a = state;
    if (!file || !isNEFF(a)) return;
    const t0 = performance.now();
    showProgress(file);
    try {
      const r = await call('open', { file, name: file.name }, { onProgress: (p) => onProgress(file, t0, p) });
      if (!docs.includes(a)) { call('close', { handle: r.handle }).catch(() => {}); return; } // another open replaced A
      const st = makeState(MessagePack.decode(new Uint8Array(r.doc)), { file, handle: r.handle, gen: core.gen });
      st.reopen = async () => (await call('open', { file, name: file.name })).handle;
      docs.push(st);
      compare(a, st);
    } catch (e) {
      toast(e.message === 'cancelled' ? 'Cancelled reading ' + file.name : 'Could not open ' + file.name + ' to compare: ' + e.message, e.message === 'cancelled' ? 'info' : 'error');
    } finally {
      $('progress').hidden = true;
    }
  }

  // compare asks the core for the diff of a and b and shows it.
  async function compare(a, b) {
    const seq = ++diff.seq;
    Object.assign(diff, { a, b, node: null, error: '', ms: 0 });
    showDiffView();
    const t0 = performance.now();
    try {
      const ha = await handleFor(a);
      const hb = await handleFor(b);
      const r = await call('diff', { a: ha, b: hb });
      if (seq !== diff.seq) return;
      diff.node = MessagePack.decode(new Uint8Array(r.node));
    } catch (e) {
      if (seq !== diff.seq) return;
      diff.error = e.message;
    }
    if (diff.shown) diffRender();
    diff.ms = performance.now() - t0; // core diff, transfer, decode and render: for tests
  }

  // ---- the view ----

  function showDiffView() {
    if (!diff.a || !diff.b) return;
    closeCompareMenu(false);
    if (search.q) searchClose();
    diff.shown = true;
    document.body.dataset.view = 'diff';
    $('diff-view').hidden = false;
    renderTabs();
    diffRender();
    $('diff-body').focus({ preventScroll: true });
  }

  function hideDiffView() {
    if (!diff.shown) return;
    diff.shown = false;
    delete document.body.dataset.view;
    $('diff-view').hidden = true;
  }

  // diffForget drops the comparison (its documents were closed).
  function diffForget() {
    hideDiffView();
    diff.seq++;
    Object.assign(diff, { a: null, b: null, node: null, error: '' });
  }

  // diffJump shows member path in document A or B (the tab switches, the member is selected).
  function diffJump(side, path) {
    const st = side === 'a' ? diff.a : diff.b;
    if (!docs.includes(st)) { toast('Document ' + side.toUpperCase() + ' is no longer open'); return; }
    hideDiffView();
    state = st;
    renderDocument(0);
    const m = findMember(path);
    if (!m) { toast(path + ' is not a member of ' + st.doc.file, 'warning'); return; }
    select(m, 'diff');
    mainTree.markSelected(m, true);
  }

  function diffSides() {
    const box = $('diff-sides');
    box.replaceChildren();
    [['a', diff.a], ['b', diff.b]].forEach(([side, st], i) => {
      if (i) box.appendChild(el('span', 'diff-arrow', '⇄'));
      const b = el('button', 'diff-side side-' + side);
      b.type = 'button';
      b.dataset.side = side;
      b.title = 'Show ' + docTitle(st) + (st.doc.sha256 ? ' · sha-256 ' + st.doc.sha256 : '');
      b.appendChild(el('span', 'side-letter', side.toUpperCase()));
      b.appendChild(el('span', 'side-name', docTitle(st)));
      b.appendChild(el('span', 'side-note', [fmtSize(st.doc.size), targetOf(st)].filter(Boolean).join(' · ')));
      b.addEventListener('click', () => { const i = docs.indexOf(st); hideDiffView(); if (st === state) renderTabs(); else switchDoc(i); });
      box.appendChild(b);
    });
  }

  const kidOf = (n, key) => (n && n.kids || []).find((c) => keyOf(c) === key) || null;
  // changesOf: a change node's own differences (its children after the "a"/"b" values).
  const changesOf = (n) => (n && n.kids || []).filter((c) => c.kind !== 'field');
  const shortSHA = (s) => (s ? s.slice(0, 12) : '');

  function diffRender() {
    const body = $('diff-body');
    body.replaceChildren();
    body.classList.toggle('hide-same', diff.hideSame);
    diffSides();
    const d = diff.node;
    if (diff.error) {
      body.appendChild(el('p', 'diff-error', 'Could not compare: ' + diff.error));
      return;
    }
    if (!d) { body.appendChild(el('p', 'muted diff-wait', 'Comparing…')); return; }
    const members = kidOf(d, 'members');
    body.appendChild(diffSummary(d, members));
    if (d.finds && d.finds.length) {
      const ol = el('ol', 'findings-list inline diff-findings');
      for (const f of d.finds) {
        const li = el('li', 'finding sev-' + f.sev);
        li.appendChild(el('span', 'sev', f.sev));
        li.appendChild(el('span', 'msg', f.msg));
        ol.appendChild(li);
      }
      body.appendChild(ol);
    }
    const header = kidOf(d, 'header'), model = kidOf(d, 'model'), instr = kidOf(d, 'instructions');
    if (header) body.appendChild(diffFieldsSection('header', 'Header', header, 'field', 'the 1024-byte NEFF header, field by field'));
    if (model) body.appendChild(diffFieldsSection('model', 'Model', model, 'fact', 'the resolved program: kelf target, cores, inputs and outputs, features'));
    if (members) body.appendChild(diffMembersSection(members));
    if (instr) body.appendChild(diffInstrSection(instr));
  }

  function diffSummary(d, members) {
    const box = el('div', 'diff-summary');
    box.id = 'diff-summary';
    const counts = { changed: 0, added: 0, removed: 0, '': 0 };
    for (const r of (members && members.table && members.table.rows) || []) counts[r[0]] = (counts[r[0]] || 0) + 1;
    const cannot = (d.finds || []).some((f) => f.sev === 'error');
    const identical = !cannot && d.value === 'identical';
    const verdict = el('span', 'diff-verdict ' + (cannot ? 'bad' : identical ? 'good' : 'warn'), cannot ? 'Cannot compare' : identical ? 'Identical' : 'Different');
    verdict.dataset.verdict = cannot ? 'error' : identical ? 'identical' : 'different';
    box.appendChild(verdict);
    if (members) {
      const line = el('span', 'diff-counts');
      [['changed', 'changed'], ['added', 'added'], ['removed', 'removed'], ['', 'unchanged']].forEach(([k, word], i) => {
        if (i) line.appendChild(el('span', 'sep', ' · '));
        const c = el('button', 'diff-count c-' + (k || 'same'), fmtInt(counts[k]) + ' ' + word);
        c.type = 'button';
        c.dataset.change = k || 'unchanged';
        c.dataset.n = counts[k];
        c.title = 'Go to the ' + word + ' members';
        c.disabled = !counts[k];
        c.addEventListener('click', () => {
          if (!k && diff.hideSame) { diff.hideSame = false; $('diff-hide-same').checked = false; $('diff-body').classList.remove('hide-same'); }
          const g = $('diff-body').querySelector('tbody[data-group="' + (k || 'unchanged') + '"]');
          if (g) { g.scrollIntoView({ block: 'start' }); const f = g.querySelector('button'); if (f) f.focus({ preventScroll: true }); }
        });
        line.appendChild(c);
      });
      line.appendChild(el('span', 'muted', ' members'));
      box.appendChild(line);
    }
    const text = el('p', 'diff-line', identical
      ? 'Same header fields, the same members (by sha-256), the same instruction counts and the same model.'
      : d.value);
    box.appendChild(text);
    return box;
  }

  function diffSection(id, title, node, note) {
    const s = el('section', 'diff-sec');
    s.id = 'diff-' + id;
    s.dataset.section = id;
    const head = el('div', 'diff-sec-head');
    const h = el('h2', '', title);
    h.id = 'diff-' + id + '-title';
    s.setAttribute('aria-labelledby', h.id);
    head.appendChild(h);
    if (node.value) head.appendChild(el('span', 'diff-sec-value', node.value));
    if (note) head.appendChild(el('span', 'muted diff-sec-note', note));
    if (node.table && node.table.rows && node.table.rows.length) {
      const csv = el('button', 'button small csv', 'CSV');
      csv.type = 'button';
      csv.title = 'Download this table (all ' + fmtInt(node.table.rows.length) + ' rows) as CSV';
      csv.addEventListener('click', () => download([tableCSV(node.table)], fileStem('diff-' + id) + '.csv', 'text/csv'));
      head.appendChild(csv);
    }
    s.appendChild(head);
    for (const f of node.finds || []) s.appendChild(el('p', 'diff-note sev-' + f.sev, f.msg));
    return s;
  }

  // sealSection adds a section's table and, when none of its rows differ, says so (with
  // unchanged rows hidden the empty table goes too).
  function sealSection(s, table) {
    const wrap = el('div', 'diff-wrap');
    wrap.appendChild(table);
    if (!table.querySelector('tr.changed, tr.added, tr.removed, tr.operands')) {
      s.classList.add('nodiff');
      s.appendChild(el('p', 'diff-none', 'No differences.'));
    }
    s.appendChild(wrap);
    return s;
  }

  function markCell(change) {
    const td = el('td', 'mark', CHANGE_MARK[change] || '');
    if (change) td.title = CHANGE_TITLE[change] || change;
    return td;
  }

  function valueCell(v, cls) {
    return v === '' || v === undefined ? el('td', (cls || '') + ' empty', '—') : el('td', cls || '', v);
  }

  function diffHead(cols) {
    const thead = el('thead');
    const tr = el('tr');
    for (const [text, cls] of cols) tr.appendChild(el('th', cls || '', text));
    thead.appendChild(tr);
    return thead;
  }

  // diffFieldsSection: header fields or model facts, A and B side by side.
  function diffFieldsSection(id, title, node, what, note) {
    const s = diffSection(id, title, node, note);
    const rows = (node.table && node.table.rows) || [];
    if (!rows.length) return s;
    const table = el('table', 'grid diff-table diff-fields');
    table.appendChild(diffHead([['', 'mark'], [what], ['A · ' + docTitle(diff.a), 'col-a'], ['B · ' + docTitle(diff.b), 'col-b']]));
    const tbody = el('tbody');
    for (const [name, a, b, change] of rows) {
      const tr = el('tr', change ? 'changed' : 'same');
      tr.dataset.field = name;
      tr.dataset.change = change || '';
      tr.appendChild(markCell(change));
      tr.appendChild(el('td', 'k', name));
      tr.appendChild(valueCell(a, 'va'));
      tr.appendChild(valueCell(b, 'vb'));
      tbody.appendChild(tr);
    }
    table.appendChild(tbody);
    return sealSection(s, table);
  }

  // jumpPad keeps a B button under the other B buttons when there is no A.
  function jumpPad() {
    const s = el('span', 'jump jump-pad', 'A');
    s.setAttribute('aria-hidden', 'true');
    return s;
  }

  function jumpButton(side, path) {
    const b = el('button', 'jump side-' + side, side.toUpperCase());
    b.type = 'button';
    b.dataset.side = side;
    b.title = 'Show ' + path + ' in ' + side.toUpperCase() + ' (' + docTitle(side === 'a' ? diff.a : diff.b) + ')';
    b.setAttribute('aria-label', b.title);
    b.addEventListener('click', () => diffJump(side, path));
    return b;
  }

  // twisty makes an expand button for a row whose details (sub) are built on first open.
  function twisty(tr, cols, label, build) {
    const t = el('button', 'dtwisty', '▸');
    t.type = 'button';
    t.setAttribute('aria-expanded', 'false');
    t.setAttribute('aria-label', label);
    t.title = label;
    let sub = null;
    t.addEventListener('click', () => {
      const open = t.getAttribute('aria-expanded') !== 'true';
      t.setAttribute('aria-expanded', open ? 'true' : 'false');
      if (open && !sub) {
        sub = el('tr', 'sub ' + tr.className);
        const td = el('td');
        td.colSpan = cols;
        build(td);
        sub.appendChild(td);
        tr.after(sub);
      }
      if (sub) sub.hidden = !open;
    });
    return t;
  }

  // pathTable lists a JSON member's path-level differences.
  function pathTable(box, c) {
    for (const f of c.finds || []) box.appendChild(el('p', 'diff-note sev-' + f.sev, f.msg));
    const changes = changesOf(c);
    if (!changes.length) return;
    const table = el('table', 'grid diff-table sub-table');
    table.appendChild(diffHead([['', 'mark'], ['JSON path'], ['A', 'col-a'], ['B', 'col-b']]));
    const tbody = el('tbody');
    for (const p of changes) {
      const tr = el('tr', p.kind);
      tr.dataset.path = keyOf(p);
      tr.appendChild(markCell(p.kind));
      tr.appendChild(el('td', 'k', p.label));
      const a = kidOf(p, 'a'), b = kidOf(p, 'b');
      tr.appendChild(valueCell(a ? a.value : '', 'va'));
      tr.appendChild(valueCell(b ? b.value : '', 'vb'));
      tbody.appendChild(tr);
    }
    table.appendChild(tbody);
    box.appendChild(table);
  }

  const GROUPS = [
    ['changed', 'Changed', 'same path, other bytes'],
    ['added', 'Added', 'only in B'],
    ['removed', 'Removed', 'only in A'],
    ['', 'Unchanged', 'same sha-256'],
  ];

  function diffMembersSection(node) {
    const s = diffSection('members', 'Members', node, 'compared by sha-256; JSON members path by path');
    const rows = (node.table && node.table.rows) || [];
    if (!rows.length) return s;
    const table = el('table', 'grid diff-table diff-members');
    table.appendChild(diffHead([['', 'mark'], ['member'], ['size A', 'num'], ['size B', 'num'], ['sha-256 A'], ['sha-256 B'], ['show', 'open']]));
    for (const [key, title, note] of GROUPS) {
      const list = rows.filter((r) => r[0] === key);
      if (!list.length) continue;
      const tbody = el('tbody', 'diff-group' + (key ? '' : ' same'));
      tbody.dataset.group = key || 'unchanged';
      const gh = el('tr', 'group-row');
      const th = el('th', '', title + ' · ' + fmtInt(list.length));
      th.colSpan = 7;
      th.appendChild(el('span', 'muted', '  ' + note));
      gh.appendChild(th);
      tbody.appendChild(gh);
      const build = (from) => {
        const to = Math.min(list.length, from + DIFF_ROWS);
        for (let i = from; i < to; i++) tbody.appendChild(memberRow(list[i], kidOf(node, list[i][1])));
        if (to < list.length) {
          const tr = el('tr', 'more-row');
          const td = el('td');
          td.colSpan = 7;
          const more = el('button', 'more', 'show ' + fmtInt(Math.min(DIFF_ROWS, list.length - to)) + ' more of ' + fmtInt(list.length - to));
          more.type = 'button';
          more.addEventListener('click', () => { tr.remove(); build(to); });
          td.appendChild(more);
          tr.appendChild(td);
          tbody.appendChild(tr);
        }
      };
      build(0);
      table.appendChild(tbody);
    }
    return sealSection(s, table);
  }

  function memberRow(r, c) {
    const [change, path, sa, sb, ha, hb] = r;
    const inA = change !== 'added', inB = change !== 'removed';
    const tr = el('tr', change || 'same');
    tr.dataset.change = change || 'unchanged';
    tr.dataset.path = path;
    tr.appendChild(markCell(change));
    const td = el('td', 'path');
    const sub = c && (changesOf(c).length || (c.finds || []).length);
    if (sub) td.appendChild(twisty(tr, 7, 'Show the differences inside ' + path, (box) => pathTable(box, c)));
    else td.appendChild(el('span', 'dtwisty-pad'));
    const link = el('button', 'link path-link', path);
    link.type = 'button';
    link.title = 'Show ' + path + ' in ' + (inA ? 'A' : 'B');
    link.addEventListener('click', () => diffJump(inA ? 'a' : 'b', path));
    td.appendChild(link);
    if (c && c.detail) td.appendChild(el('span', 'pill', c.detail));
    if (c && (c.finds || []).some((f) => f.sev !== 'info')) td.appendChild(el('span', 'pill warn', 'not compared'));
    tr.appendChild(td);
    tr.appendChild(inA ? el('td', 'num', fmtInt(sa)) : el('td', 'num empty', '—'));
    tr.appendChild(inB ? el('td', 'num' + (inA && sa !== sb ? ' differs' : ''), fmtInt(sb)) : el('td', 'num empty', '—'));
    const shaCell = (h, differs) => { const t = h ? el('td', 'sha' + (differs ? ' differs' : ''), shortSHA(h)) : el('td', 'sha empty', '—'); if (h) t.title = 'sha-256 ' + h; return t; };
    tr.appendChild(shaCell(ha, false));
    tr.appendChild(shaCell(hb, inA && ha !== hb));
    const open = el('td', 'open');
    open.appendChild(inA ? jumpButton('a', path) : jumpPad());
    if (inB) open.appendChild(jumpButton('b', path));
    tr.appendChild(open);
    return tr;
  }

  // opSummary: the first opcode deltas of a stream, as "0xcc PseudoBranchLabel +1, …".
  function opSummary(t) {
    const rows = (t && t.rows) || [];
    const parts = rows.slice(0, 3).map((r) => r[0] + ' ' + r[3]);
    if (rows.length > 3) parts.push('… ' + (rows.length - 3) + ' more');
    return parts.join(', ');
  }

  function diffInstrSection(node) {
    const s = diffSection('instructions', 'Instructions', node, 'per engine stream: 64-byte instruction words, opcode counts');
    const rows = (node.table && node.table.rows) || [];
    if (!rows.length) return s;
    const table = el('table', 'grid diff-table diff-instr');
    table.appendChild(diffHead([['', 'mark'], ['stream'], ['core'], ['engine'], ['count A', 'num'], ['count B', 'num'], ['Δ', 'num'], ['opcode deltas'], ['show', 'open']]));
    const tbody = el('tbody');
    for (const [stream, coreName, engine, ca, cb, change] of rows) {
      const c = kidOf(node, stream);
      const tr = el('tr', change || 'same');
      tr.dataset.stream = stream;
      tr.dataset.change = change || 'unchanged';
      tr.appendChild(markCell(change));
      const td = el('td', 'path');
      const ops = c && c.table && c.table.rows && c.table.rows.length ? c.table : null;
      if (ops) {
        td.appendChild(twisty(tr, 9, 'Show the opcode counts that differ in ' + stream, (box) => {
          const t = el('table', 'grid diff-table sub-table');
          t.appendChild(diffHead([['opcode'], ['count A', 'num'], ['count B', 'num'], ['Δ', 'num']]));
          const tb = el('tbody');
          for (const [op, oa, ob, delta] of ops.rows) {
            const r = el('tr', 'changed');
            r.appendChild(el('td', 'k', op));
            r.appendChild(el('td', 'num', oa));
            r.appendChild(el('td', 'num', ob));
            r.appendChild(el('td', 'num delta ' + (delta.startsWith('-') ? 'neg' : 'pos'), delta));
            tb.appendChild(r);
          }
          t.appendChild(tb);
          box.appendChild(t);
        }));
      } else td.appendChild(el('span', 'dtwisty-pad'));
      td.appendChild(el('span', 'stream-name', stream));
      tr.appendChild(td);
      tr.appendChild(el('td', '', coreName));
      tr.appendChild(el('td', '', engine));
      tr.appendChild(ca === '' ? el('td', 'num empty', '—') : el('td', 'num', fmtInt(ca)));
      tr.appendChild(cb === '' ? el('td', 'num empty', '—') : el('td', 'num' + (ca !== '' && ca !== cb ? ' differs' : ''), fmtInt(cb)));
      const delta = ca !== '' && cb !== '' ? Number(cb) - Number(ca) : null;
      tr.appendChild(delta ? el('td', 'num delta ' + (delta < 0 ? 'neg' : 'pos'), (delta > 0 ? '+' : '') + fmtInt(delta)) : el('td', 'num empty', delta === 0 ? '0' : '—'));
      const note = change === 'operands' ? CHANGE_TITLE.operands : change === 'added' || change === 'removed' ? CHANGE_TITLE[change] : opSummary(ops);
      tr.appendChild(el('td', 'ops', note));
      const open = el('td', 'open');
      open.appendChild(ca !== '' ? jumpButton('a', stream) : jumpPad());
      if (cb !== '') open.appendChild(jumpButton('b', stream));
      tr.appendChild(open);
      tbody.appendChild(tr);
    }
    table.appendChild(tbody);
    return sealSection(s, table);
  }

  function exportDiff() {
    if (!diff.a || !diff.b) return Promise.resolve();
    const a = diff.a, b = diff.b;
    return exporting('the comparison', async () => {
      const r = await call('diff', { a: await handleFor(a), b: await handleFor(b), format: 'json' });
      download([r.json], fileStem(a.doc.file) + '_vs_' + fileStem(b.doc.file) + '.diff.json', 'application/json');
    });
  }

  function diffInit() {
    $('compare-button').addEventListener('click', () => { if ($('compare-menu').hidden) openCompareMenu(); else closeCompareMenu(true); });
    $('compare-menu').addEventListener('keydown', compareMenuKey);
    document.addEventListener('mousedown', (e) => { if (!$('compare').contains(e.target)) closeCompareMenu(false); });
    $('compare-input').addEventListener('change', (e) => {
      const f = e.target.files && e.target.files[0];
      e.target.value = '';
      openForCompare(f);
    });
    $('diff-close').addEventListener('click', () => { hideDiffView(); renderTabs(); });
    $('diff-swap').addEventListener('click', () => { if (diff.a && diff.b) compare(diff.b, diff.a); });
    $('diff-export').addEventListener('click', () => exportDiff());
    $('diff-hide-same').addEventListener('change', (e) => {
      diff.hideSame = e.target.checked;
      $('diff-body').classList.toggle('hide-same', diff.hideSame);
    });
    $('diff-view').addEventListener('keydown', (e) => {
      if (e.key === 'Escape' && !e.defaultPrevented) { e.preventDefault(); hideDiffView(); renderTabs(); }
    });
  }

  // ---------------------------------------------------------------------------------------
  // Keyboard and screen readers: tables as ARIA grids, the hex view's byte cursor, and the
  // search by byte offset. (The tree is an ARIA tree in TreeView; the instruction listing's
  // grid is in listingAria.)

  // ---- tables: WAI-ARIA APG "data grid" ----
  // One cell is in the tab order (roving tabindex); arrows move it by a cell, Home/End to the
  // row's ends, Ctrl+Home/End to the grid's corners, PageUp/PageDown by a screenful; Enter
  // activates the row exactly as a click does (the row's own click listener runs).

  let gridSeq = 0;
  // Where each table's active cell was (by document, node and table), so a table rebuilt when
  // its node is selected again (Back, a link) comes back at the same cell.
  const gridMemory = new Map();
  const gridKeyOf = (node, name) => state.uid + '|' + pathOf(node).join('/') + '|' + name;

  // gridify makes a built <table> a grid. o: {labelledBy: element, label, total: rows in the
  // data (more than are shown when the table is capped), key: for gridMemory}.
  function gridify(table, o) {
    table.setAttribute('role', 'grid');
    table.setAttribute('aria-readonly', 'true');
    if (o.labelledBy) {
      if (!o.labelledBy.id) o.labelledBy.id = 'grid-label-' + (++gridSeq);
      table.setAttribute('aria-labelledby', o.labelledBy.id);
    } else if (o.label) table.setAttribute('aria-label', o.label);
    const rows = table.rows; // header rows first, as aria-rowindex counts them
    const head = table.tHead ? table.tHead.rows.length : 0;
    table.setAttribute('aria-rowcount', (o.total === undefined ? rows.length - head : o.total) + head);
    for (let i = 0; i < rows.length; i++) {
      const tr = rows[i];
      tr.setAttribute('role', 'row');
      tr.setAttribute('aria-rowindex', i + 1);
      for (const c of tr.cells) c.setAttribute('role', c.tagName === 'TH' ? 'columnheader' : 'gridcell');
    }
    const g = { table, key: o.key, r: 0, c: 0, cell: null };
    if (rows.length) {
      const mem = o.key && gridMemory.get(o.key);
      if (mem && rows[mem[0]] && rows[mem[0]].cells[mem[1]]) gridSetActive(g, mem[0], mem[1], false);
      else gridSetActive(g, rows.length > head ? head : 0, 0, false);
    }
    table.addEventListener('keydown', (e) => gridKey(g, e));
    // A click makes the clicked cell the active one (when the click did not replace the table).
    table.addEventListener('click', (e) => {
      const cell = e.target.closest && e.target.closest('td, th');
      if (cell && table.contains(cell) && table.isConnected) gridSetActive(g, cell.parentElement.rowIndex, cell.cellIndex, true);
    });
  }

  function gridSetActive(g, r, c, focus) {
    const rows = g.table.rows;
    r = Math.max(0, Math.min(rows.length - 1, r));
    const row = rows[r];
    c = Math.max(0, Math.min(row.cells.length - 1, c));
    const cell = row.cells[c];
    if (g.cell && g.cell !== cell) {
      g.cell.removeAttribute('tabindex');
      g.cell.parentElement.classList.remove('active');
    }
    cell.tabIndex = 0;
    row.classList.add('active');
    g.cell = cell;
    g.r = r;
    g.c = c;
    if (g.key) {
      gridMemory.delete(g.key); // the latest last, so the oldest go first
      gridMemory.set(g.key, [r, c]);
      if (gridMemory.size > 500) gridMemory.delete(gridMemory.keys().next().value);
    }
    if (focus) {
      cell.focus({ preventScroll: true });
      cell.scrollIntoView({ block: 'nearest', inline: 'nearest' });
    }
  }

  function gridKey(g, e) {
    if (e.target !== g.cell || e.altKey) return;
    const rows = g.table.rows;
    const ctrl = e.ctrlKey || e.metaKey;
    let r = g.r, c = g.c;
    switch (e.key) {
      case 'ArrowDown': r++; break;
      case 'ArrowUp': r--; break;
      case 'ArrowRight': c++; break;
      case 'ArrowLeft': c--; break;
      case 'PageDown': case 'PageUp': r = gridPageTarget(g, e.key === 'PageDown'); break;
      case 'Home': if (ctrl) r = 0; c = 0; break;
      case 'End': if (ctrl) r = rows.length - 1; c = Infinity; break;
      case 'Enter': {
        e.preventDefault();
        const tr = rows[g.r];
        if (tr.classList.contains('clickable')) tr.click();
        return;
      }
      default: return;
    }
    e.preventDefault();
    gridSetActive(g, r, c, true);
  }

  // gridPageTarget: PageDown goes to the last row in view, or a screenful on from there (the
  // row then scrolls to the bottom); PageUp likewise upwards. Rows are in order on the page,
  // so the rows in view are found by bisection, not by measuring 5,000 of them.
  function gridPageTarget(g, down) {
    const rows = g.table.rows;
    const head = g.table.tHead ? g.table.tHead.rows.length : 0;
    if (rows.length <= head) return g.r;
    const pane = $('detail').getBoundingClientRect();
    const wrap = g.table.closest('.table-wrap');
    const wb = wrap ? wrap.getBoundingClientRect() : pane;
    const sticky = wrap && g.table.tHead ? g.table.tHead.getBoundingClientRect().height : 0;
    const top = Math.max(wb.top + sticky, pane.top), bottom = Math.min(wb.top + (wrap ? wrap.clientHeight : wb.height), pane.bottom);
    const bisect = (ok) => { // the first row index in [head, n) for which ok holds (ok is monotone)
      let lo = head, hi = rows.length;
      while (lo < hi) { const m = (lo + hi) >> 1; if (ok(rows[m].getBoundingClientRect())) hi = m; else lo = m + 1; }
      return lo;
    };
    const first = Math.min(rows.length - 1, bisect((b) => b.top >= top - 0.5));
    const last = Math.max(head, bisect((b) => b.bottom > bottom + 0.5) - 1);
    const page = Math.max(1, last - first);
    if (down) return last > g.r ? last : g.r + page;
    return first < g.r ? first : g.r - page;
  }

  // detailRefocus: the detail pane was rebuilt while it held the focus (Enter on a row, Back):
  // the focus goes to its first table's active cell, else to the pane, never to the page body.
  function detailRefocus(box) {
    const cell = box.querySelector('[role="grid"] [tabindex="0"]');
    const target = cell || box;
    target.focus({ preventScroll: true });
    // Only for the keyboard: a mouse user's pane does not jump to the table.
    if (cell && cell.matches(':focus-visible')) cell.scrollIntoView({ block: 'nearest', inline: 'nearest' });
  }

  // rovingList makes a list of focusable items (the findings) one tab stop: Up/Down,
  // Home/End and PageUp/PageDown move among its items, Enter still picks one.
  function rovingList(list, sel) {
    const items = () => Array.from(list.querySelectorAll(sel));
    items().forEach((li, i) => { li.tabIndex = i === 0 ? 0 : -1; });
    if (list.dataset.roving) return;
    list.dataset.roving = '1';
    list.addEventListener('focusin', (e) => {
      const li = e.target.closest(sel);
      if (!li) return;
      for (const x of items()) if (x !== li) x.tabIndex = -1;
      li.tabIndex = 0;
    });
    list.addEventListener('keydown', (e) => {
      const all = items();
      if (!all.length) return;
      const i = all.indexOf(e.target.closest(sel)); // -1: the list itself has the focus
      let j;
      switch (e.key) {
        case 'ArrowDown': j = i + 1; break;
        case 'ArrowUp': j = i - 1; break;
        case 'PageDown': j = i + 10; break;
        case 'PageUp': j = i - 10; break;
        case 'Home': j = 0; break;
        case 'End': j = all.length - 1; break;
        default: return;
      }
      e.preventDefault();
      const li = all[Math.max(0, Math.min(all.length - 1, j))];
      li.focus({ preventScroll: true });
      li.scrollIntoView({ block: 'nearest' });
    });
  }

  // spanTarget: the node a table row's span stands for: the shallowest node with exactly that
  // span (a member for all of its bytes, a JSON value for its text), else the most specific
  // node holding it, else null.
  function spanTarget(rs) {
    const src = rs.src || '';
    let exact = null, best = null;
    for (const n of state.info.keys()) {
      const s = n.span;
      if (!s || (s.src || '') !== src) continue;
      if (s.off === rs.off && s.len === rs.len) {
        if (!exact || pathOf(n).length < pathOf(exact).length) exact = n;
      } else if (!exact && s.off <= rs.off && s.off + s.len >= rs.off + rs.len) {
        if (!best || s.len < best.span.len || (s.len === best.span.len && pathOf(n).length > pathOf(best).length)) best = n;
      }
    }
    return exact ? { node: exact, exact: true } : best ? { node: best, exact: false } : null;
  }

  // activateSpan: a table row was clicked (or Enter pressed on it): select what its bytes
  // belong to and highlight exactly the row's bytes.
  function activateSpan(rs) {
    const t = spanTarget(rs);
    if (!t || t.node === state.doc.root) { hexShow(rs.src || '', rs, true); return; }
    select(t.node, 'table');
    if (!t.exact) hexShow(rs.src || '', rs, true, fieldMarks(t.node, rs.src || ''));
  }

  // ---- hex view: a byte cursor ----
  // Screen readers: the hex view is an ARIA grid (it must be one of the composite roles for a
  // screen reader to hand it the arrow keys), and the cursor is its aria-activedescendant: a
  // gridcell whose name says the offset, the byte and the field that owns it. DOM focus stays
  // on the grid because the rows are virtual (rebuilt on every scroll), so focus on a cell
  // would be lost when its row is rebuilt; and an active-descendant change interrupts the last
  // announcement, where a live region would queue one per key while an arrow is held.

  function hexCursorFollow(fresh, scroll) {
    if (fresh) { hex.cursor = -1; scrollPins.delete(hex.scroller); }
    // A selection made elsewhere that scrolls the bytes into view brings the cursor along, so
    // the next key starts from what is selected.
    if (scroll && hex.hl) hex.cursor = hex.hl.off;
    if (hex.cursor >= hex.size) hex.cursor = hex.size - 1;
  }

  function hexViewRows() { return Math.max(1, Math.floor(hex.scroller.clientHeight / hex.rowH)); }

  // hexKeepVisible scrolls as little as puts byte off's row in view (vertically and across).
  function hexKeepVisible(off) {
    const sc = hex.scroller;
    const y = Math.floor(off / HEX_ROW) * hex.rowH;
    const top = toVirtual(sc, hex.full);
    if (y < top) scrollToVirtual(sc, hex.full, y);
    else if (y + hex.rowH > top + sc.clientHeight) scrollToVirtual(sc, hex.full, y + hex.rowH - sc.clientHeight);
  }

  // hexMoveCursor moves the cursor to off; the rows are rebuilt only when the view scrolls (a
  // step within the screen re-marks two cells: a held arrow key stays cheap).
  function hexMoveCursor(off, viewDelta) {
    if (!hex.size) return;
    const sc = hex.scroller;
    off = Math.max(0, Math.min(hex.size - 1, off));
    const before = sc.scrollTop;
    const pinBefore = scrollPins.get(sc);
    if (viewDelta) scrollToVirtual(sc, hex.full, toVirtual(sc, hex.full) + viewDelta);
    hex.cursor = off;
    hex.acrossWanted = true;
    hexKeepVisible(off);
    if (sc.scrollTop !== before || scrollPins.get(sc) !== pinBefore) hexRenderSoon();
    else hexMarkCursor();
  }

  // hexRenderSoon renders once in the next frame, however many scroll events or keys came.
  function hexRenderSoon() {
    if (hex.renderQueued) return;
    hex.renderQueued = true;
    requestAnimationFrame(() => { hex.renderQueued = false; hexRender(); });
  }

  // hexCursorAcross scrolls sideways to the cursor when the byte columns are wider than a
  // narrow pane (once a frame: it reads the layout).
  function hexCursorAcross() {
    const sc = hex.scroller;
    const cell = hex.rowsEl.querySelector('.hb.cur');
    if (!cell || sc.scrollWidth <= sc.clientWidth) return;
    const a = cell.getBoundingClientRect(), b = sc.getBoundingClientRect();
    if (a.left < b.left) sc.scrollLeft -= b.left - a.left + 8;
    else if (a.right > b.left + sc.clientWidth) sc.scrollLeft += a.right - (b.left + sc.clientWidth) + 8;
  }

  function hexOnKey(e) {
    if (!hex.key || !hex.size || e.altKey) return;
    const ctrl = e.ctrlKey || e.metaKey;
    let cur = hex.cursor >= 0 ? hex.cursor : hexFirstShown();
    const rowStart = cur - (cur % HEX_ROW);
    const page = hexViewRows() * HEX_ROW;
    let delta = 0;
    switch (e.key) {
      case 'ArrowRight': cur++; break;
      case 'ArrowLeft': cur--; break;
      case 'ArrowDown': cur += HEX_ROW; break;
      case 'ArrowUp': cur -= HEX_ROW; break;
      // A page moves the cursor and the view together, as editors do.
      case 'PageDown': if (cur + page < hex.size) { cur += page; delta = hexViewRows() * hex.rowH; } else cur = hex.size - 1; break;
      case 'PageUp': if (cur - page >= 0) { cur -= page; delta = -hexViewRows() * hex.rowH; } else cur = 0; break;
      case 'Home': cur = ctrl ? 0 : rowStart; break;
      case 'End': cur = ctrl ? hex.size - 1 : Math.min(hex.size - 1, rowStart + HEX_ROW - 1); break;
      case 'Enter': case ' ':
        e.preventDefault();
        if (hex.cursor >= 0) hexPickByte(hex.cursor);
        return;
      default: return;
    }
    e.preventDefault();
    hexMoveCursor(cur, delta);
  }

  // hexPickByte selects the field that owns byte off, as a click on it does.
  function hexPickByte(off) {
    if (state.doc.kind === 'ncfw-context' && !hex.source) { ctxHexClick(off); return; }
    const owner = ownerOf(hex.source, off);
    if (owner) select(owner, 'hex');
  }

  function hexFirstShown() {
    const row = Math.ceil(toVirtual(hex.scroller, hex.full) / hex.rowH);
    return Math.min(hex.size - 1, row * HEX_ROW);
  }

  // hexCursorText says where the cursor is and what it reads, for the inspector line and for
  // screen readers.
  function hexCursorText(o) {
    const b = byteAt(o);
    const parts = ['offset 0x' + o.toString(16) + ' (' + fmtInt(o) + ')', b < 0 ? 'byte not read yet' : 'byte 0x' + HEXDIG[b] + (b >= 0x20 && b < 0x7f ? " '" + String.fromCharCode(b) + "'" : '')];
    const owner = cursorOwner(o);
    if (owner) parts.push('in ' + (pathOf(owner).join(' › ') || state.doc.file));
    return parts.join(', ');
  }

  // hexDecorate runs after each render: grid semantics of the rendered rows, and the cursor.
  function hexDecorate(totalRows) {
    const sc = hex.scroller;
    sc.setAttribute('aria-rowcount', totalRows);
    sc.setAttribute('aria-colcount', HEX_ROW + 1);
    sc.setAttribute('aria-label', 'Hex view of ' + (hex.source ? 'member ' + hex.source : 'file ' + state.doc.file) + ', ' + fmtInt(hex.size) + ' bytes; arrows move the cursor, Enter selects its field');
    for (const row of hex.rowsEl.children) {
      const off = Number(row.dataset.off);
      row.setAttribute('aria-rowindex', off / HEX_ROW + 1);
      row.firstChild.setAttribute('role', 'rowheader');
      for (const c of row.querySelectorAll('.hb[data-i]')) c.setAttribute('role', 'gridcell');
      row.lastChild.setAttribute('aria-hidden', 'true'); // the text column repeats the bytes
    }
    hexMarkCursor();
  }

  // hexMarkCursor marks the cursor's cells among the rendered rows and names it to screen
  // readers as the grid's active descendant.
  function hexMarkCursor() {
    const sc = hex.scroller;
    const cur = hex.cursor;
    for (const c of hex.rowsEl.querySelectorAll('.cur')) {
      c.classList.remove('cur');
      if (c.id) { c.removeAttribute('id'); c.removeAttribute('aria-selected'); c.removeAttribute('aria-label'); }
    }
    let active = null;
    if (cur >= 0) {
      const row = hex.rowsEl.querySelector('.hex-row[data-off="' + (cur - (cur % HEX_ROW)) + '"]');
      if (row) {
        const i = String(cur % HEX_ROW);
        for (const c of row.querySelectorAll('[data-i="' + i + '"]')) c.classList.add('cur');
        active = row.querySelector('.hb[data-i="' + i + '"]');
      }
    }
    if (active) {
      active.id = 'hex-cur-' + cur;
      active.setAttribute('aria-selected', 'true');
      active.setAttribute('aria-label', hexCursorText(cur));
      sc.setAttribute('aria-activedescendant', active.id);
      if (hex.acrossWanted) { hex.acrossWanted = false; requestAnimationFrame(hexCursorAcross); }
    } else sc.removeAttribute('aria-activedescendant');
    if (cur >= 0 && document.activeElement === sc) hexShowCursorInfo(cur);
  }

  // cursorOwner is ownerOf for the cursor, remembered: the renders of a scroll ask again.
  let cursorMemo = { key: '', off: -1, node: null, info: null };
  function cursorOwner(o) {
    if (cursorMemo.key !== hex.key || cursorMemo.off !== o || cursorMemo.info !== state.info) cursorMemo = { key: hex.key, off: o, node: ownerOf(hex.source, o), info: state.info };
    return cursorMemo.node;
  }

  function hexShowCursorInfo(o) {
    const insp = $('hex-inspect');
    if (!insp) return;
    hexInspect(o);
    const owner = cursorOwner(o);
    if (owner) {
      // The field goes right after the offset: it is what a narrow pane must still show.
      const t = insp.textContent, i = t.indexOf(' · ');
      const where = pathOf(owner).join(' › ') || state.doc.file;
      insp.textContent = i < 0 ? t + ' · ' + where : t.slice(0, i) + ' · ' + where + t.slice(i);
    }
    insp.title = insp.textContent;
    insp.classList.add('cursor');
  }

  function hexKeyInit() {
    const sc = hex.scroller;
    sc.addEventListener('keydown', hexOnKey);
    sc.addEventListener('focus', () => {
      if (hex.cursor < 0 && hex.size > 0) hex.cursor = hex.hl ? hex.hl.off : hexFirstShown();
      hexMarkCursor();
    });
    sc.addEventListener('blur', () => {
      const insp = $('hex-inspect');
      if (insp && insp.classList.contains('cursor')) { insp.textContent = ''; insp.classList.remove('cursor'); }
    });
    // A click puts the cursor on the byte (after the click's own selection has run).
    hex.rowsEl.addEventListener('click', (e) => {
      const cell = e.target.closest('[data-i]');
      const row = e.target.closest('.hex-row');
      if (!cell || !row) return;
      hex.cursor = Number(row.dataset.off) + Number(cell.dataset.i);
      hexMarkCursor();
    });
    // When the pointer leaves, the inspector goes back to the cursor.
    hex.rowsEl.addEventListener('mouseleave', () => { if (hex.cursor >= 0 && document.activeElement === sc) hexShowCursorInfo(hex.cursor); });
  }

  // ---- search by byte offset ----
  // "0x1f40", "@0x1f40", "@8000" and "8000" name a byte: the results name, for the file and
  // for the member the hex view shows, the deepest node whose bytes hold it. A hex or @ query
  // past the end says so; a bare decimal past the end is only a number to look for.

  function parseOffsetQuery(q) {
    let m = /^@?0x([0-9a-f]+)$/i.exec(q);
    if (m) return { off: m[1].length > 13 ? Infinity : parseInt(m[1], 16), explicit: true };
    m = /^@?(\d+)$/.exec(q);
    if (m) return { off: m[1].length > 15 ? Infinity : Number(m[1]), explicit: q.startsWith('@') };
    return null;
  }

  // offsetResults gives {results, notes} for query q (lower case, trimmed).
  function offsetResults(q) {
    const out = { results: [], notes: [] };
    const p = parseOffsetQuery(q);
    if (!p || !state) return out;
    const sources = [''];
    if (hex.key && hex.source) sources.push(hex.source);
    for (const src of sources) {
      const size = sourceSize(src);
      const where = src ? src : 'the file';
      if (!(p.off < size)) {
        if (p.explicit) out.notes.push('Byte ' + (Number.isFinite(p.off) ? '0x' + p.off.toString(16) + ' (' + fmtInt(p.off) + ')' : q) + ' is beyond the end of ' + where + ' (size ' + fmtInt(size) + ' bytes).');
        continue;
      }
      const node = ownerOf(src, p.off);
      if (node) out.results.push({ offset: p.off, src, node });
    }
    return out;
  }

  // offsetPick selects the byte's node, highlights that one byte, and hands the keyboard to the
  // hex view with its cursor on the byte.
  function offsetPick(r) {
    select(r.node, 'search');
    hexShow(r.src, { src: r.src, off: r.offset, len: 1 }, true, fieldMarks(r.node, r.src));
    hex.scroller.focus({ preventScroll: true });
  }

  function offsetResultItem(r, item) {
    item.dataset.kind = 'offset';
    item.dataset.offset = r.offset;
    item.appendChild(el('span', 'sr-kind', 'byte'));
    item.appendChild(el('span', 'sr-what', 'byte 0x' + r.offset.toString(16) + ' (' + fmtInt(r.offset) + ') of ' + (r.src || state.doc.file)));
    item.appendChild(el('span', 'sr-where', (pathOf(r.node).join(' › ') || state.doc.file) + (r.node.value ? ' = ' + r.node.value : '')));
  }

  // ---------------------------------------------------------------------------------------
  // Wiring.

  function wire() {
    mainTree = new TreeView($('tree'), (n, from) => select(n, from), (n) => (n.kind === 'member' ? [] : n.kids || []));
    jsonTree = new TreeView($('json-tree'), (n) => select(n, 'json'));
    hexInit();
    hexKeyInit();
    $('detail').tabIndex = -1; // a place for the focus when the pane is rebuilt (detailRefocus)
    listingInit();
    plotInit();
    ctxInit();
    searchInit();
    themeInit();
    libInit();
    diffInit();

    $('file-input').addEventListener('change', (e) => {
      openFiles(Array.from(e.target.files || []));
      e.target.value = '';
    });
    $('cancel').addEventListener('click', () => { if (cancel()) { $('progress').hidden = true; } });
    $('export-json').addEventListener('click', () => exportJSON());
    $('export-member').addEventListener('click', () => exportMember());
    $('export-link').addEventListener('click', () => copyLink());
    $('findings-toggle').addEventListener('click', () => setFindingsOpen($('findings-toggle').getAttribute('aria-expanded') !== 'true'));

    // The whole window is the drop zone.
    let depth = 0;
    const overlay = $('drop-overlay');
    const hasFiles = (e) => e.dataTransfer && Array.from(e.dataTransfer.types || []).includes('Files');
    // Embedded, drop is off: the drop is still refused here so the browser does not navigate
    // the frame to the dropped file.
    window.addEventListener('dragenter', (e) => { if (!hasFiles(e)) return; e.preventDefault(); if (embedded) return; depth++; overlay.hidden = false; });
    window.addEventListener('dragover', (e) => { if (!hasFiles(e)) return; e.preventDefault(); e.dataTransfer.dropEffect = embedded ? 'none' : 'copy'; if (!embedded) overlay.hidden = false; });
    window.addEventListener('dragleave', () => { depth = Math.max(0, depth - 1); if (!depth) overlay.hidden = true; });
    window.addEventListener('drop', (e) => {
      e.preventDefault();
      if (embedded) return;
      depth = 0;
      overlay.hidden = true;
      const files = e.dataTransfer && e.dataTransfer.files;
      if (!files || !files.length) return;
      openFiles(Array.from(files));
    });
    window.addEventListener('keydown', (e) => {
      if ((e.ctrlKey || e.metaKey) && e.key === 'o') { e.preventDefault(); if (!embedded) $('file-input').click(); }
      if (e.key === 'Escape' && opening) { if (cancel()) $('progress').hidden = true; }
    });
    window.addEventListener('popstate', applyHash);
    window.addEventListener('hashchange', applyHash);
    document.body.dataset.state = 'empty';
  }

  // ---------------------------------------------------------------------------------------
  // Export: the Document as JSON (byte for byte what `neffscope inspect --json` prints), a
  // table as CSV, the selected member's bytes, and a link to this page.

  function download(parts, name, type) {
    const url = URL.createObjectURL(new Blob(parts, { type: type || 'application/octet-stream' }));
    const a = el('a');
    a.href = url;
    a.download = name;
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 60000);
  }

  // fileStem makes a download name from text that may come from the file.
  function fileStem(s) {
    return String(s).replace(/[^A-Za-z0-9._-]+/g, '_').replace(/^[._]+/, '').slice(0, 120) || 'neffscope';
  }

  // csvCell quotes per RFC 4180. A cell a spreadsheet would run as a formula (=, +, @, or - not
  // starting a number; the text may come from a hostile file) gets a leading apostrophe.
  function csvCell(v) {
    let s = v === undefined || v === null ? '' : String(v);
    if (/^[=+@\t\r]/.test(s) || /^-(?![0-9.])/.test(s)) s = "'" + s;
    return /[",\r\n]/.test(s) ? '"' + s.replace(/"/g, '""') + '"' : s;
  }

  function tableCSV(t) {
    const lines = [(t.cols || []).map(csvCell).join(',')];
    for (const r of t.rows || []) lines.push(r.map(csvCell).join(','));
    return lines.join('\r\n') + '\r\n';
  }

  // exportBusy keeps a second click from starting a second download while one is read.
  let exportBusy = false;
  async function exporting(what, fn) {
    if (exportBusy || !state) return;
    exportBusy = true;
    try { await fn(); } catch (e) { toast('Could not export ' + what + ': ' + (e && e.message || e)); } finally { exportBusy = false; }
  }

  function exportJSON() {
    return exporting('the document', async () => {
      const st = state;
      const r = await call('json', { handle: await ensureHandle() });
      download([r.json], fileStem(st.doc.file) + '.json', 'application/json');
    });
  }

  // exportMember downloads the selected member's bytes, read from the core in chunks (each
  // bytes call is capped in the core).
  const MEMBER_CHUNK = 8 << 20;
  function exportMember() {
    const m = state && state.selected && memberOf(state.selected);
    if (!m) return Promise.resolve();
    return exporting(m.ref.slice(7), async () => {
      const src = m.ref.slice(7);
      const size = sourceSize(src);
      const parts = [];
      for (let off = 0; off < size;) {
        const r = await call('bytes', { handle: await ensureHandle(), source: src, off, n: Math.min(MEMBER_CHUNK, size - off) });
        if (!r.bytes.byteLength) throw new Error('the core returned no bytes at offset ' + off + ' of ' + size);
        parts.push(r.bytes);
        off += r.bytes.byteLength;
      }
      download(parts, fileStem(src.split('/').pop()), 'application/octet-stream');
    });
  }

  async function copyLink() {
    const link = location.href;
    try {
      await navigator.clipboard.writeText(link);
      toast('Link copied: ' + link, 'info');
    } catch (e) {
      toast('Link (copy it from here): ' + link, 'info');
    }
  }

  function updateExport() {
    $('export').hidden = !state;
    $('export-member').disabled = !(state && state.selected && memberOf(state.selected));
  }

  // ---------------------------------------------------------------------------------------
  // Embedding (README "Embedding"): ?url= opens a file on load; a host page drives the viewer
  // with postMessage, Perfetto-style: it posts 'PING' until the viewer answers 'PONG', then
  // posts {buffer: ArrayBuffer, name: string}. Messages are taken only from this page's own
  // origin and the origins the host lists in ?allow= (comma-separated); others are ignored.
  // ?mode=embedded hides the open button and turns file drop off.

  const params = new URLSearchParams(location.search);
  const embedded = params.get('mode') === 'embedded';

  // allowedOrigins: this page's origin (not the opaque 'null' of file://) and those of ?allow=.
  const allowedOrigins = new Set();
  if (location.origin && location.origin !== 'null') allowedOrigins.add(location.origin);
  for (const a of (params.get('allow') || '').split(',')) {
    try { const o = new URL(a.trim()).origin; if (o && o !== 'null') allowedOrigins.add(o); } catch (e) { /* not a URL: skip */ }
  }

  let messagesSeen = { answered: 0, ignored: 0, opened: 0 }; // for tests

  function onHostMessage(ev) {
    if (!allowedOrigins.has(ev.origin)) { messagesSeen.ignored++; return; }
    const d = ev.data;
    if (d === 'PING') {
      messagesSeen.answered++;
      if (ev.source) ev.source.postMessage('PONG', ev.origin);
      return;
    }
    if (d && typeof d === 'object' && (d.buffer instanceof ArrayBuffer || ArrayBuffer.isView(d.buffer))) {
      messagesSeen.opened++;
      const name = typeof d.name === 'string' && d.name ? d.name : 'file.neff';
      openFiles([new File([d.buffer], name)]);
    }
  }

  // openFromURL fetches ?url= (same origin, or a CORS-enabled host the CSP allows) and opens it
  // as if it had been dropped.
  async function openFromURL(raw) {
    let u;
    try { u = new URL(raw, location.href); } catch (e) { toast('Not a URL: ' + raw); return; }
    if (!/^https?:$/.test(u.protocol)) { toast('Only http(s) URLs can be opened: ' + raw); return; }
    const name = decodeURIComponent(u.pathname.split('/').pop() || '') || 'file';
    toast('Fetching ' + name + '…', 'info');
    try {
      const resp = await fetch(u.href, { credentials: 'same-origin' });
      if (!resp.ok) throw new Error('HTTP ' + resp.status);
      const blob = await resp.blob();
      $('toast').hidden = true;
      openFiles([new File([blob], name)]);
    } catch (e) {
      toast('Could not fetch ' + u.href + ': ' + (e && e.message || e) + (u.origin !== location.origin ? ' (another origin: it must allow CORS and the page\'s connect-src must list it)' : ''));
    }
  }

  function setupEmbedding() {
    if (embedded) {
      document.body.classList.add('embedded');
      const h = document.querySelector('#welcome h1');
      if (h) h.textContent = 'Waiting for a file from the host page';
    }
    window.addEventListener('message', onHostMessage);
    const url = params.get('url');
    if (url) openFromURL(url);
  }

  // registerOffline keeps the app shell for offline visits (sw.js). Only a served site can
  // have a service worker: not file://, and not the single-file build (it needs none).
  function registerOffline() {
    if (single || !('serviceWorker' in navigator) || !/^https?:$/.test(location.protocol)) return;
    navigator.serviceWorker.register('sw.js').catch((e) => {
      // Plain http on a host other than localhost has no service workers: the page works online.
      console.info('neffscope: no offline copy (' + (e && e.message || e) + ')');
    });
  }

  wire();
  startCore();
  registerOffline();
  setupEmbedding();
  libBoot();
  // For tests and the console: read-only peeks at the state.
  globalThis.neffscope = {
    get state() { return state; },
    get core() { return { mode: core.mode, ready: core.ready }; },
    get lastOpen() { return lastOpen; },
    get docs() { return docs.map((d) => ({ file: d.doc.file, kind: d.doc.kind, current: d === state })); },
    get hex() { return { source: hex.source, hl: hex.hl && { off: hex.hl.off, len: hex.hl.len, src: hex.hl.src || '' }, cursor: hex.cursor }; },
    get plot() { return { ref: plot.ref, lo: plot.lo, hi: plot.hi, points: plot.data ? plot.data.n : 0, timing: plot.timing }; },
    get ctx() { return { arch: ctx.arch, rc: ctx.rc, lines: ctx.lines.length, text: ctx.text, marked: Array.from(ctx.marked), sel: ctx.sel, row: ctx.rows[ctx.sel] || null }; },
    get lastRecontext() { return lastRecontext; },
    get hashWrites() { return hashWrites; },
    get search() { return { q: search.q, done: search.done, more: search.more, results: search.results.length, errors: search.errors.slice(), notes: (search.notes || []).slice() }; },
    get library() { return { ok: lib.ok, reason: lib.reason, entries: lib.list.map((e) => ({ key: e.key, name: e.name, kind: e.kind, size: e.size, how: e.how, kept: (e.files || []).every((f) => f.kept) })), restored: lib.restored, cap: libCap() }; },
    libRefresh,
    get embedding() { return { embedded, allowed: Array.from(allowedOrigins), messages: Object.assign({}, messagesSeen) }; },
    // replot(lo, hi) samples and draws a new range now; resolves with {coreMs, decodeMs, drawMs, totalMs}.
    replot(lo, hi) { plot.lo = lo; plot.hi = hi; plotInputs(); return plotFetch(); },
    switchDoc,
    get diff() {
      const n = diff.node;
      return { shown: diff.shown, a: docs.indexOf(diff.a), b: docs.indexOf(diff.b), ready: !!n || !!diff.error, error: diff.error, ms: diff.ms, value: n ? n.value : '', hideSame: diff.hideSame };
    },
  };
})();
