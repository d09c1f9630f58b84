// @ts-check
// The hex view (virtualised rows, bytes fetched in pages from the core) and its keyboard
// byte cursor.

import { call } from '../core/client.js';
import { $, el, toast } from '../dom.js';
import { inspectBytes } from '../lib/datainspect.js';
import { fmtInt } from '../lib/format.js';
import { LRU } from '../lib/lru.js';
import { MAX_SCROLL_PX, scrollPins, scrollToVirtual, toVirtual } from '../lib/virtual-scroll.js';
import { contentRootOf, findMember, ownerAt, parentOf, pathOf, sourceSize, spanOf, state, stubAt } from '../state/docs.js';
import { unfetched } from '../lib/lazy.js';
import { isStreamRef } from '../lib/refs.js';
import { handleOf, locateNode } from '../state/lazy.js';
import { emit, on } from '../state/events.js';
import { recordByte, select } from '../state/selection.js';
import { KIND } from '../lib/vocab.gen.js';

// Hex view: virtualised rows, bytes fetched in pages from the core on demand.

const HEX_ROW = 16;
// Bytes come from the core in pages this big: a member that is not held in memory is read
// again from the start of the archive for each page, so pages are few and large.
const PAGE = 16384;

export const hex = {
  source: null, size: 0, hl: null, cache: new LRU(128), rowH: 18, full: 0, key: '',
  viewH: 0, // the scroller's height at the last resize (hexKeepSelection)
  scroller: null, rowsEl: null, spacer: null,
  cursor: -1, // the keyboard's byte (hexKeyInit), -1 until there is one
  anchor: -1, // where a shift-click's (or shift-arrow's) range starts: the last byte picked
  // A byte of an instruction stream picked: its field is selected when the listing has
  // fetched the instruction ({src, off, last, from}).
  pendingField: /** @type {{src: string, off: number, last: number, from: string} | null} */ (null),
  /** @type {HTMLElement | null} the view's root (#hex-wrap: the bytes, their head, the data inspector) */
  wrap: null,
  /** a drag over the bytes has just picked a range: the click that ends it picks nothing */
  dragged: false,
};

/**
 * hexInit wires the hex view's scroller (rows are rebuilt on scroll and resize), its keyboard
 * byte cursor, and what it follows: the document, the URL's byte, the instruction a byte pick
 * asked the listing for.
 * @param {HTMLElement} root
 */
export function hexInit(root) {
  hex.wrap = root;
  on('document', hexForget);
  // A byte's URL (b=0x…): that one byte highlighted, the cursor on it.
  on('hashByte', ({ n, off, last }) => {
    const sp = spanOf(n);
    const src = sp ? sp.src || '' : hex.source;
    const size = sourceSize(src);
    if (!(off < size)) return;
    const end = last === undefined ? off : Math.min(last, size - 1);
    // A byte of an instruction: the listing fetches it first (the hash named it too).
    if (streamOf(src)) { hex.pendingField = { src, off, last: end, from: 'hash' }; return; }
    hexShow(src, { src, off, len: end - off + 1, range: end > off }, true, fieldMarks(n, src));
    hex.anchor = off;
  });
  // The listing has shown the instruction a byte pick asked for: its smallest field is
  // selected (after the listing has drawn the instruction's own bytes: hence the microtask).
  on('picked', ({ n }) => {
    const p = hex.pendingField;
    const sp = n.span;
    if (!p || n.kind !== KIND.INSTRUCTION || !sp || (sp.src || '') !== p.src || p.off < sp.off || p.off >= sp.off + sp.len) return;
    hex.pendingField = null;
    Promise.resolve().then(() => selectFieldOf(n, p));
  });
  hex.scroller = $('hex');
  hex.rowsEl = $('hex-rows');
  hex.spacer = $('hex-spacer');
  hex.scroller.addEventListener('scroll', hexRenderSoon);
  // A resize (the pane, or the data inspector below the bytes growing when a byte is picked)
  // keeps the selection in view if it was in view before.
  new ResizeObserver(() => { hexKeepSelection(); hexRender(); }).observe(hex.scroller);
  hex.rowsEl.addEventListener('click', (e) => {
    if (hex.dragged) { hex.dragged = false; return; } // the end of a drag: its range is picked
    const cell = e.target.closest('[data-i]');
    const row = e.target.closest('.hex-row');
    if (!cell || !row) return;
    const off = Number(row.dataset.off) + Number(cell.dataset.i);
    if (e.shiftKey && hex.anchor >= 0 && hex.anchor < hex.size) { hexPickRange(hex.anchor, off); return; }
    hex.anchor = off;
    hexPickByte(off);
  });
  // A shift-click (or a drag) selects bytes, not the page's text; the grid takes the focus all
  // the same.
  hex.rowsEl.addEventListener('mousedown', (e) => {
    if (e.button !== 0) return;
    e.preventDefault();
    hex.scroller.focus({ preventScroll: true });
  });
  hexDragInit();
  const dt = el('div', 'hex-dt');
  dt.id = 'hex-dt';
  dt.setAttribute('role', 'region');
  dt.setAttribute('aria-label', 'Data inspector');
  root.appendChild(dt);
  hex.rowsEl.addEventListener('mouseover', (e) => {
    const cell = e.target.closest('[data-i]');
    const row = e.target.closest('.hex-row');
    if (cell && row) hexInspect(Number(row.dataset.off) + Number(cell.dataset.i));
  });
  hex.rowsEl.addEventListener('mouseleave', () => { $('hex-inspect').textContent = ''; });
  hexKeyInit();
}

/** hexHide hides the bytes (a file's first overview shows before its document). */
export function hexHide() {
  hex.wrap.hidden = true;
}

/**
 * ensureHandle returns the current document's handle in the core, opening the file again
 * first when the worker was restarted (a cancel) since it was opened.
 * @returns {Promise<number>}
 */
export function ensureHandle() {
  // The worker was restarted (cancel): the file is opened again there, without re-rendering.
  return handleOf(state);
}

function fetchPage(idx) {
  const key = hex.key + ':' + idx;
  let p = hex.cache.get(key);
  if (p) return p;
  const src = hex.source;
  p = { data: null, promise: null };
  p.promise = ensureHandle()
    .then((h) => call('bytes', { handle: h, source: src, off: idx * PAGE, n: PAGE }))
    .then((r) => { p.data = new Uint8Array(r.bytes); })
    // A page that cannot be read stays in the cache with its error (shown above the rows),
    // so the view does not ask again at every frame.
    .catch((e) => { p.error = e.message || String(e); });
  hex.cache.set(key, p);
  return p;
}

/**
 * hexShow shows source ('' = the file, or a member path) with the selected span hl in strong
 * colour; marks are the neighbouring fields' spans, tinted alternately so the structure of the
 * bytes around the selection can be seen (as in Kaitai's WebIDE).
 * @param {string} source
 * @param {import('../wire.js').Span | null} hl
 * @param {boolean} [scroll] bring hl into view
 * @param {import('../wire.js').Span[]} [marks]
 */
export function hexShow(source, hl, scroll, marks) {
  hex.wrap.hidden = false;
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
  if (hex.hl && hex.hl.range) hexRangeHead(head, hex.hl);
  else if (hex.hl) head.appendChild(el('span', 'hex-sel', ' · selected ' + fmtInt(hex.hl.off) + '..' + fmtInt(hex.hl.off + hex.hl.len) + ' (' + fmtInt(hex.hl.len) + ' bytes)'));
  const at = el('span', 'hex-at');
  at.id = 'hex-at';
  head.appendChild(at);
  head.appendChild(insp);
  hexCursorFollow(fresh, scroll);
  if (scroll && hex.hl) hexScrollTo(hex.hl.off);
  hexRender();
}

/**
 * hexKeep notes what the hex view shows of its bytes (the highlight, the field marks, the
 * cursor); the function it returns puts them back if the view still shows the same bytes. A
 * redraw of the same selection (a background patch) must not undo a byte the user picked.
 * @returns {() => void}
 */
/** hexHighlight is the span the hex view highlights now (null: none); a new pick draws a new one. */
export const hexHighlight = () => hex.hl;

export function hexKeep() {
  const { key, hl, marks, cursor } = hex;
  return () => {
    if (!key || key !== hex.key || hex.wrap.hidden) return;
    hex.cursor = cursor;
    hexShow(hex.source, hl, false, marks);
  };
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
  if (!hex.key || hex.wrap.hidden) return;
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
    hex.wrap.insertBefore(n, hex.scroller);
  }
  n.textContent = msg;
  n.hidden = !msg;
}

// byteAt returns byte o of the current source if its page has arrived, else -1.
function byteAt(o) {
  const p = hex.cache.peek(hex.key + ':' + Math.floor(o / PAGE));
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

/**
 * fieldMarks tints the spans of n's siblings (or, for a node with children, of its children)
 * that lie in source src.
 * @param {import('../wire.js').Node} n
 * @param {string} src
 * @returns {import('../wire.js').Span[]}
 */
export function fieldMarks(n, src) {
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

/**
 * ownerOf finds the most specific node whose span holds byte off of source src.
 * @param {string} src
 * @param {number} off
 * @returns {import('../wire.js').Node | null}
 */
export function ownerOf(src, off) {
  return ownerAt(src, off); // the document's span index (state/docs.js)
}

// ---- hex view: a byte cursor ----
// Screen readers: the hex view is an ARIA grid (it must be one of the composite roles for a
// screen reader to hand it the arrow keys), and the cursor is its aria-activedescendant: a
// gridcell whose name says the offset, the byte and the field that owns it. DOM focus stays
// on the grid because the rows are virtual (rebuilt on every scroll), so focus on a cell
// would be lost when its row is rebuilt; and an active-descendant change interrupts the last
// announcement, where a live region would queue one per key while an arrow is held.

function hexCursorFollow(fresh, scroll) {
  if (fresh) {
    hex.cursor = -1;
    hex.anchor = -1;
    scrollPins.delete(hex.scroller);
    if (hex.pendingField && hex.pendingField.src !== hex.source) hex.pendingField = null; // other bytes now
  }
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

// hexKeepSelection: after the scroller's height changed, the selection (else the cursor) that
// was in view in the old height is put back in view in the new one.
function hexKeepSelection() {
  const sc = hex.scroller, oldH = hex.viewH;
  hex.viewH = sc.clientHeight;
  if (!hex.key || !oldH || oldH === sc.clientHeight) return;
  const off = hex.hl ? hex.hl.off : hex.cursor;
  if (off < 0) return;
  const y = Math.floor(off / HEX_ROW) * hex.rowH;
  const top = toVirtual(sc, hex.full);
  if (y + hex.rowH <= top || y >= top + oldH) return; // the user had scrolled away from it
  // The whole selection where it fits (its last row, then its first), else its first row.
  if (hex.hl) hexKeepVisible(hex.hl.off + hex.hl.len - 1);
  hexKeepVisible(off);
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
      if (hex.cursor >= 0) { hex.anchor = hex.cursor; hexPickByte(hex.cursor); }
      return;
    default: return;
  }
  e.preventDefault();
  const from = hex.cursor >= 0 ? hex.cursor : cur;
  hexMoveCursor(cur, delta);
  // Shift and a move selects from the anchor (as a shift-click does); a plain move moves it.
  if (e.shiftKey) hexPickRange(hex.anchor >= 0 ? hex.anchor : from, hex.cursor);
  else hex.anchor = hex.cursor;
}

// hexPickByte selects the field that owns byte off, as a click on it does.
function hexPickByte(off) {
  // A byte a view above the bytes places: a libncfw context's (the context view marks the
  // values printed from it), an instruction stream's (the listing selects its instruction,
  // then the hex view its smallest field: the 'picked' event).
  if (state.doc.kind === KIND.NCFW_CONTEXT && !hex.source) { emit('bytePicked', { src: '', off }); return; }
  if (streamOf(hex.source)) {
    hex.pendingField = { src: hex.source, off, last: off, from: 'hex' };
    emit('bytePicked', { src: hex.source, off });
    return;
  }
  const owner = ownerOf(hex.source, off);
  if (owner && !unfetched(owner) && !stubAt(hex.source, off)) { select(owner, 'hex'); recordByte(owner, off); return; }
  // Below a stub (or no node the page holds): the core places the byte and the page builds
  // the path to it; the page's own answer stands if the core has none.
  const st = state, src = hex.source, seq = ++pickSeq;
  const live = () => seq === pickSeq && state === st && hex.source === src;
  locateNode(src, off, st).then((n) => {
    if (live() && (n || owner)) { select(n || owner, 'hex'); recordByte(n || owner, off); }
  }, (e) => {
    if (!live()) return;
    if (owner) select(owner, 'hex');
    hexNote('The core could not place byte ' + fmtInt(off) + ': ' + (e && e.message || e));
  });
}
let pickSeq = 0; // a newer byte pick wins over an older one still being located

/**
 * streamOf: the instruction-stream node (Ref stream:<member>) of source src, or null.
 * @param {string} src
 */
export function streamOf(src) {
  if (!src) return null;
  const m = findMember(src);
  const c = m && contentRootOf(m);
  return c && isStreamRef(c.ref) ? c : null;
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
  hexAt();
  hexPanel();
}

// hexAt says in the head which byte the cursor (the byte clicked) is on: its offset in hex
// and decimal, beside the field or range selected.
function hexAt() {
  const at = $('hex-at');
  if (!at) return;
  const cur = hex.cursor;
  at.textContent = cur >= 0 && cur < hex.size ? ' · byte 0x' + cur.toString(16) + ' (' + fmtInt(cur) + ')' : '';
  at.dataset.off = cur >= 0 ? String(cur) : '';
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

/**
 * hexKeyInit gives the hex view its keyboard byte cursor and its accessible names.
 */
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

// byteUnder is the offset of the byte cell under a pointer event (-1: none).
function byteUnder(e) {
  const t = /** @type {Element | null} */ (document.elementFromPoint(e.clientX, e.clientY));
  const cell = t && t.closest('[data-i]');
  const row = cell && cell.closest('.hex-row');
  return cell && row && hex.rowsEl.contains(row) ? Number(/** @type {HTMLElement} */ (row).dataset.off) + Number(/** @type {HTMLElement} */ (cell).dataset.i) : -1;
}

// hexDragInit: a drag over the bytes selects the range from the byte it started on to the one
// under the pointer (shown as it moves; picked, in the URL, when the button is let go).
function hexDragInit() {
  let from = -1, to = -1;
  hex.rowsEl.addEventListener('pointerdown', (e) => {
    from = e.button === 0 && !e.shiftKey ? byteUnder(e) : -1;
    to = from;
    hex.dragged = false;
  });
  hex.rowsEl.addEventListener('pointermove', (e) => {
    if (from < 0 || !(e.buttons & 1)) return;
    const off = byteUnder(e);
    if (off < 0 || off === to) return;
    to = off;
    if (to !== from) hexShowRange(hex.source, Math.min(from, to), Math.max(from, to), hex.marks);
  });
  const end = () => {
    if (from >= 0 && to >= 0 && to !== from) {
      hex.dragged = true;
      setTimeout(() => { hex.dragged = false; }, 0); // the click that ends the drag comes first
      hex.anchor = from;
      hex.cursor = to;
      hexPickRange(from, to);
      hexMarkCursor();
    }
    from = to = -1;
  };
  window.addEventListener('pointerup', end); // let go anywhere: the range so far
  hex.rowsEl.addEventListener('pointercancel', () => { from = to = -1; });
}

// hexForget drops what the hex view holds of the last document (its byte pages).
export function hexForget() {
  hex.key = '';
  hex.cache.clear();
  hex.anchor = -1;
  hex.pendingField = null;
  panelMemo = '';
}

// ---- fields, ranges and the data inspector ----

// selectFieldOf selects the smallest field of instruction ins (the listing has just adopted
// it) that holds the byte p asked for: the instruction itself where no field does. The hash
// names the instruction and the byte (a field's path is not one a reload can follow).
function selectFieldOf(ins, p) {
  if (state.selected !== ins || hex.source !== p.src) return; // the user moved on
  // The field is looked for in this instruction's own nodes: the document's span index may
  // still hold the fields of the same instruction fetched before (a click in the instruction
  // already selected fetches it again).
  const f = fieldIn(ins, p.src, p.off);
  const quiet = p.from === 'hash';
  if (f && f !== ins && f.span && f.span.len < ins.span.len) select(f, quiet ? 'hash' : 'hex');
  if (p.last > p.off) hexShowRange(p.src, p.off, p.last, hex.marks);
  if (!quiet) recordByte(ins, p.off, p.last > p.off ? p.last : undefined);
  hex.cursor = p.off;
  hex.anchor = p.off;
  hexMarkCursor();
}

/**
 * fieldIn is the smallest node under n (n itself when none is smaller) whose span in src
 * holds byte off.
 * @param {import('../wire.js').Node} n
 * @param {string} src
 * @param {number} off
 * @returns {import('../wire.js').Node}
 */
export function fieldIn(n, src, off) {
  let best = n;
  const walk = (m) => {
    for (const c of m.kids || []) {
      const sp = c.span;
      if (sp && (sp.src || '') === src && off >= sp.off && off < sp.off + sp.len && (!best.span || sp.len <= best.span.len)) best = c;
      walk(c);
    }
  };
  walk(n);
  return best;
}

// hexShowRange highlights bytes lo..hi (both in) of src as a range.
function hexShowRange(src, lo, hi, marks) {
  hexShow(src, { src, off: lo, len: hi - lo + 1, range: true }, false, marks);
}

// hexPickRange selects bytes a..b (in either order) of the bytes shown: highlighted, said in
// the head with a Copy button, and put in the URL beside the node that holds the selection.
function hexPickRange(a, b) {
  const lo = Math.max(0, Math.min(a, b)), hi = Math.min(hex.size - 1, Math.max(a, b));
  if (hi < lo) return;
  hexShowRange(hex.source, lo, hi, hex.marks);
  let n = state.selected;
  const sp = n && n.span;
  if (!sp || (sp.src || '') !== hex.source) n = ownerOf(hex.source, lo);
  // An instruction's field is named by its instruction (the path a reload can follow).
  for (let m = n; m; m = parentOf(m)) if (m.kind === KIND.INSTRUCTION) { n = m; break; }
  if (n) recordByte(n, lo, hi);
}

const COPY_MAX = 1 << 20; // a range copied as hex: 1 MiB of bytes is 2 MiB of text

// hexRangeHead says the range in the hex view's head: first and last byte, length, Copy.
function hexRangeHead(head, hl) {
  const last = hl.off + hl.len - 1;
  const t = el('span', 'hex-sel hex-range', ' · range 0x' + hl.off.toString(16) + '–0x' + last.toString(16) + ' (' + fmtInt(hl.off) + '..' + fmtInt(last + 1) + ', ' + fmtInt(hl.len) + ' byte' + (hl.len === 1 ? '' : 's') + ')');
  head.appendChild(t);
  if (hl.len > COPY_MAX) return;
  const b = el('button', 'button small hex-copy', 'Copy');
  /** @type {HTMLButtonElement} */ (b).type = 'button';
  b.id = 'hex-copy';
  b.title = 'Copy the range\'s bytes as hex';
  const src = hex.source;
  b.addEventListener('click', async () => {
    try {
      const h = await ensureHandle();
      const r = await call('bytes', { handle: h, source: src, off: hl.off, n: hl.len });
      const bytes = new Uint8Array(r.bytes);
      let text = '';
      for (let i = 0; i < bytes.length; i++) text += HEXDIG[bytes[i]];
      await navigator.clipboard.writeText(text);
      toast('Copied ' + fmtInt(bytes.length) + ' bytes as hex', 'info');
    } catch (e) {
      toast('The range could not be copied: ' + (e && e.message || e), 'warning');
    }
  });
  head.appendChild(b);
}

let panelMemo = '';

// hexPanel fills the data inspector: the bytes at the cursor (a range's first byte) read as
// every integer and float width, little and big endian. Drawn again only when what it reads
// changed (the cursor moved, or its bytes arrived).
function hexPanel() {
  const box = $('hex-dt');
  if (!box || !hex.key) return;
  const hl = hex.hl;
  const at = hl && hl.range ? hl.off : hex.cursor >= 0 ? hex.cursor : hl ? hl.off : -1;
  const b = [];
  for (let i = 0; i < 8; i++) b.push(at >= 0 && at + i < hex.size ? byteAt(at + i) : -1);
  const memo = hex.key + '|' + at + '|' + b.join(',');
  if (memo === panelMemo) return;
  panelMemo = memo;
  box.replaceChildren();
  // Nothing picked: one line, not a grid of dashes taking the rows of a narrow pane (the
  // selection stays in view when the inspector grows: hexKeepSelection).
  box.dataset.picked = String(at >= 0);
  if (at < 0) { box.appendChild(el('div', 'hex-dt-cap', 'Pick a byte to read it as u8…u64, f16, bf16, f32, f64')); return; }
  box.appendChild(el('div', 'hex-dt-cap', '@0x' + at.toString(16) + ' · LE | BE'));
  // A grid of name, LE, BE: one type a line beside the bytes, several a line below them.
  const g = el('div', 'hex-dt-g');
  for (const r of inspectBytes(b)) {
    const row = el('div', 'hex-dt-r');
    row.dataset.type = r.name;
    row.appendChild(el('span', 'hex-dt-n', r.name));
    const le = el('span', 'le', r.le === null ? '–' : r.le);
    // One byte has no order: its value shows once.
    const be = el('span', 'be', r.size === 1 ? '' : r.be === null ? '–' : r.be);
    le.title = r.name + (r.size === 1 ? ': ' : ' little endian: ') + le.textContent;
    if (r.size > 1) be.title = r.name + ' big endian: ' + be.textContent;
    row.appendChild(le);
    row.appendChild(be);
    g.appendChild(row);
  }
  box.appendChild(g);
}
