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

  function startCore() {
    core.gen++;
    core.ready = false;
    core.started = performance.now();
    setCoreStatus('starting', 'core starting…');
    let w;
    try {
      if (single) {
        const src = ['self.NEFFSCOPE_WAIT_FOR_WASM = true;\n', $('wasm-exec-src').textContent, '\n', $('worker-src').textContent];
        w = new Worker(URL.createObjectURL(new Blob(src, { type: 'text/javascript' })));
        inflateEmbeddedWasm().then((buf) => { const copy = buf.slice(0); w.postMessage({ type: 'init', wasm: copy }, [copy]); })
          .catch((e) => fallbackToMainThread('the embedded wasm could not be inflated: ' + e.message));
      } else {
        w = new Worker('worker.js');
      }
    } catch (e) {
      fallbackToMainThread('no Web Worker could be created here (' + e.message + ')');
      return;
    }
    core.mode = 'worker';
    core.worker = w;
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
      setCoreStatus('failed', 'core failed', msg.message);
      toast(msg.message + (wasReady && core.mode === 'worker' ? '. It was restarted.' : ''));
      failAll(msg.message);
      // A core that had started and then died is replaced, so the next file can open.
      if (wasReady && core.mode === 'worker') { core.worker.terminate(); startCore(); }
      return;
    }
    const p = core.pending.get(msg.id);
    if (!p) return;
    switch (msg.type) {
      case 'progress': if (p.onProgress) p.onProgress(msg.p); break;
      case 'header': if (p.onHeader) p.onHeader(msg.doc); break;
      case 'result': core.pending.delete(msg.id); p.resolve(msg); break;
      case 'error': core.pending.delete(msg.id); p.reject(new Error(msg.message)); break;
    }
  }

  function failAll(message) {
    for (const p of core.pending.values()) p.reject(new Error(message));
    core.pending.clear();
  }

  function whenReady() {
    return core.ready ? Promise.resolve() : new Promise((r) => core.readyWaiters.push(r));
  }

  async function call(type, payload, hooks) {
    await whenReady();
    const id = core.nextId++;
    const msg = Object.assign({ id, type }, payload);
    return new Promise((resolve, reject) => {
      core.pending.set(id, Object.assign({ resolve, reject }, hooks || {}));
      if (core.mode === 'worker') core.worker.postMessage(msg);
      else core.host.handle(msg);
    });
  }

  // cancel stops whatever the core is doing by ending the worker and starting a fresh one.
  function cancel() {
    if (core.mode !== 'worker') return false;
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
    return m && m.span ? m.span.len : 0;
  }
  function findMember(src) {
    if (!state.members) {
      state.members = new Map();
      for (const n of state.info.keys()) if (n.kind === 'member' && n.ref && n.ref.startsWith('member:')) state.members.set(n.ref.slice(7), n);
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
    const range = MAX_SCROLL_PX - sc.clientHeight;
    return range > 0 ? sc.scrollTop / range * (full - sc.clientHeight) : 0;
  }
  function toScroll(sc, full, v) {
    if (full <= MAX_SCROLL_PX) return v;
    return v / Math.max(1, full - sc.clientHeight) * (MAX_SCROLL_PX - sc.clientHeight);
  }

  const hex = {
    source: null, size: 0, hl: null, cache: new Map(), rowH: 18, full: 0, key: '',
    scroller: null, rowsEl: null, spacer: null,
  };

  function hexInit() {
    hex.scroller = $('hex');
    hex.rowsEl = $('hex-rows');
    hex.spacer = $('hex-spacer');
    hex.scroller.addEventListener('scroll', () => requestAnimationFrame(hexRender));
    new ResizeObserver(() => hexRender()).observe(hex.scroller);
    hex.rowsEl.addEventListener('click', (e) => {
      const cell = e.target.closest('[data-i]');
      const row = e.target.closest('.hex-row');
      if (!cell || !row) return;
      const off = Number(row.dataset.off) + Number(cell.dataset.i);
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
    const r = await call('open', { file: state.file, name: state.file.name });
    state.handle = r.handle;
    state.gen = core.gen;
    return state.handle;
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
      .catch((e) => { p.error = e.message; hex.cache.delete(key); });
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
    const key = state.doc.sha256 + '|' + state.file.name + '|' + source;
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
    if (scroll && hex.hl) hexScrollTo(hex.hl.off);
    hexRender();
  }

  function hexScrollTo(off) {
    const row = Math.floor(off / HEX_ROW);
    const viewRows = Math.floor(hex.scroller.clientHeight / hex.rowH);
    const first = Math.floor(toVirtual(hex.scroller, hex.full) / hex.rowH);
    if (row >= first + 1 && row < first + viewRows - 2) return;
    hex.scroller.scrollTop = toScroll(hex.scroller, hex.full, Math.max(0, (row - 2) * hex.rowH));
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
    for (let r = 0; r < count; r++) {
      const off = (first + r) * HEX_ROW;
      const pageIdx = Math.floor(off / PAGE);
      const page = fetchPage(pageIdx);
      if (!page.data) need.add(page);
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
    const key = hex.key;
    need.forEach((p) => p.promise.then(() => { if (key === hex.key) requestAnimationFrame(hexRender); }));
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
      if (ref !== listing.ref) return;
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
    sc.addEventListener('keydown', (e) => {
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
        default: return;
      }
      e.preventDefault();
      listingScrollTo(i);
      listingSelect(i);
    });
  }

  function listingScrollTo(i) {
    const sc = $('listing-scroll');
    const first = Math.floor(toVirtual(sc, listing.full) / LIST_ROW);
    const view = Math.floor(sc.clientHeight / LIST_ROW);
    if (i >= first && i < first + view - 1) return;
    sc.scrollTop = toScroll(sc, listing.full, Math.max(0, (i - Math.floor(view / 2)) * LIST_ROW));
  }

  // ---------------------------------------------------------------------------------------
  // Detail pane, renderers by kind/feature.

  function renderTable(node, box) {
    const t = node.table;
    const limit = 5000;
    const wrap = el('div', 'table-wrap');
    const table = el('table', 'grid');
    table.setAttribute('role', 'grid');
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
        tr.addEventListener('click', () => {
          const m = rs.src ? findMember(rs.src) : null;
          if (m) select(m, 'table');
          else hexShow(rs.src || '', rs, true);
        });
      }
      tbody.appendChild(tr);
    });
    table.appendChild(tbody);
    wrap.appendChild(table);
    box.appendChild(el('h3', '', 'Table · ' + fmtInt(rows.length) + ' rows'));
    box.appendChild(wrap);
    if (rows.length > limit) box.appendChild(el('p', 'muted', 'Showing the first ' + fmtInt(limit) + ' rows.'));
  }

  function renderChildren(node, box) {
    box.appendChild(el('h3', '', (node.kids.length === 1 ? '1 child' : fmtInt(node.kids.length) + ' children')));
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
  }

  function renderSeries(node, box) {
    // Plots arrive with the activation-table decoder; until then list what would be drawn.
    box.appendChild(el('h3', '', 'Series'));
    for (const s of node.series) box.appendChild(el('p', 'muted', s.name + ': ' + fmtInt((s.x || []).length) + ' points'));
  }

  // DETAIL_RENDERERS: extra sections of the detail pane, by what a node carries.
  const DETAIL_RENDERERS = [
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
      box.appendChild(ol);
    }
    for (const r of DETAIL_RENDERERS) if (r.when(n)) r.render(n, box);
  }

  // ---------------------------------------------------------------------------------------
  // Content pane: a JSON member as a tree plus its bytes; anything else as bytes.

  let jsonTree = null;
  let mainTree = null;

  function renderContent(n, from, spanOverride) {
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
    $('content').classList.toggle('split', !!jroot || !!stream);
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
        const iv = integ ? integ.value : 'not checked';
        box.appendChild(chip('hash', iv, iv === 'ok' ? 'good' : iv === 'mismatch' ? 'bad' : 'warn', integ, 'integrity'));
      }
      box.appendChild(chip('features', feat ? (feat.detail && !feat.detail.startsWith('no features') ? feat.detail : 'none') + ' (' + feat.value + ')' : '—', '', nav(feat), 'features'));
      if (verdict && !partial) box.appendChild(chip('runtime', verdict.value, verdict.value === 'accepted' ? 'good' : 'bad', verdict, 'verdict'));
      if (members && !partial) box.appendChild(chip('members', members.value, '', members, 'members'));
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

  async function openFile(file) {
    if (!file) return;
    if (opening) cancel();
    const t0 = performance.now();
    const token = {};
    opening = token;
    document.body.dataset.state = 'opening';
    showProgress(file);
    try {
      const r = await call('open', { file, name: file.name }, {
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
      const decodeMs = performance.now() - tResult;
      if (state && state.handle && state.gen === core.gen) call('close', { handle: state.handle }).catch(() => {});
      state = Object.assign({ doc, file, handle: r.handle, gen: core.gen }, indexDoc(doc));
      const tDecoded = performance.now();
      lastOpen = { size: file.size, headerMs: token.headerMs, coreMs: r.ms, decodeMs, totalMs: 0, renderMs: 0, wasmBytes: r.wasmBytes };
      renderDocument(Math.round(tDecoded - t0));
      lastOpen.renderMs = performance.now() - tDecoded;
      lastOpen.totalMs = performance.now() - t0;
      document.body.dataset.state = 'open';
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

  function renderDocument(ms) {
    const doc = state.doc;
    $('welcome').hidden = true;
    $('panes').hidden = false;
    const fn = $('file-name');
    fn.textContent = doc.file + ' · ' + fmtSize(doc.size);
    fn.title = 'opened in ' + ms + ' ms' + (doc.sha256 ? ' · sha-256 ' + doc.sha256 : '');
    renderSummary(doc, false);
    renderFindings();
    // The top of the tree and the member list open; everything else expands on demand.
    const openKinds = new Set(['neff', 'header', 'archive']);
    mainTree.setRoot(doc.root, (n) => n === doc.root || openKinds.has(n.kind) && parentOf(n) === doc.root);
    hex.key = '';
    hex.cache.clear();
    jsonTree.clear();
    $('json-view').hidden = true;
    const first = field(doc, 'header') || doc.root;
    select(first, 'open');
  }

  // ---------------------------------------------------------------------------------------
  // Wiring.

  function wire() {
    mainTree = new TreeView($('tree'), (n, from) => select(n, from), (n) => (n.kind === 'member' ? [] : n.kids || []));
    jsonTree = new TreeView($('json-tree'), (n) => select(n, 'json'));
    hexInit();
    listingInit();

    $('file-input').addEventListener('change', (e) => {
      const f = e.target.files && e.target.files[0];
      openFile(f);
      e.target.value = '';
    });
    $('cancel').addEventListener('click', () => { if (cancel()) { $('progress').hidden = true; } });
    $('findings-toggle').addEventListener('click', () => setFindingsOpen($('findings-toggle').getAttribute('aria-expanded') !== 'true'));

    // The whole window is the drop zone.
    let depth = 0;
    const overlay = $('drop-overlay');
    const hasFiles = (e) => e.dataTransfer && Array.from(e.dataTransfer.types || []).includes('Files');
    window.addEventListener('dragenter', (e) => { if (!hasFiles(e)) return; e.preventDefault(); depth++; overlay.hidden = false; });
    window.addEventListener('dragover', (e) => { if (!hasFiles(e)) return; e.preventDefault(); e.dataTransfer.dropEffect = 'copy'; overlay.hidden = false; });
    window.addEventListener('dragleave', () => { depth = Math.max(0, depth - 1); if (!depth) overlay.hidden = true; });
    window.addEventListener('drop', (e) => {
      e.preventDefault();
      depth = 0;
      overlay.hidden = true;
      const files = e.dataTransfer && e.dataTransfer.files;
      if (!files || !files.length) return;
      if (files.length > 1) toast('Opening ' + files[0].name + '; several files at once come in a later version.', 'info');
      openFile(files[0]);
    });
    window.addEventListener('keydown', (e) => {
      if ((e.ctrlKey || e.metaKey) && e.key === 'o') { e.preventDefault(); $('file-input').click(); }
      if (e.key === 'Escape' && opening) { if (cancel()) $('progress').hidden = true; }
    });
    document.body.dataset.state = 'empty';
  }

  wire();
  startCore();
  // For tests and the console: read-only peeks at the state.
  globalThis.neffscope = {
    get state() { return state; },
    get core() { return { mode: core.mode, ready: core.ready }; },
    get lastOpen() { return lastOpen; },
  };
})();
