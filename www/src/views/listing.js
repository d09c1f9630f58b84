// @ts-check
// The instruction listing: a million-row virtual grid whose rows come from the core in blocks.

import { call } from '../core/client.js';
import { $, closestTo, el, toast } from '../dom.js';
import { fmtInt } from '../lib/format.js';
import { fitColumns, grownColumns } from '../lib/colfit.js';
import { LRU } from '../lib/lru.js';
import { isStreamRef, recordsPath, streamPath, streamRef } from '../lib/refs.js';
import { MAX_SCROLL_PX, scrollToVirtual, toVirtual } from '../lib/virtual-scroll.js';
import { adopt, contentRootOf, findMember, ownerAt, pathOf, state } from '../state/docs.js';
import { emit, on } from '../state/events.js';
import { recordPlace, select, setSelected } from '../state/selection.js';
import { unpackNode, unpackTable } from '../wire.js';
import { ensureHandle, fieldMarks, hexShow, streamOf } from './hex.js';
import { follow, linkFollowable, linkTarget } from './overview.js';
import { lineWords } from '../lib/words.js';
import { elideSource } from '../lib/names.js';
import { plotFromActivate } from './plot/plot.js';
import { KIND } from '../lib/vocab.gen.js';

// Listing: a node whose Ref is "stream:<member>" is an instruction stream; its rows come from
// the core a block at a time (rows), and one instruction's fields on demand (instruction),
// so a million-row listing keeps only a screenful in the DOM. A "records:<member>" node (a
// .dbg member's records) is paged the same way; a row's detail is the record's own node.
// Above the listing, the line bar names the kernel source line of the selected instruction
// and steps through the other instructions of that line (n / p).

const LIST_ROW = 20;
const LIST_BLOCK = 256;
export const listing = { node: null, ref: '', total: 0, cols: [], blocks: new LRU(64), full: 0, selected: -1, key: '', line: null, /** @type {Record<string, number>} column widths fitted to the rows fetched (characters) */ fit: {} };

/** @type {HTMLElement} the grid (#listing), the view's root */
let grid;

// refMember: the member a listing ref pages (stream:<member> or records:<member>).
const refMember = (ref) => (isStreamRef(ref) ? streamPath(ref) : recordsPath(ref)) || '';

/**
 * listingOf: the node whose rows the listing pages for n: the instruction stream n's member
 * holds, or n itself when it is a .dbg member's records; null otherwise.
 * @param {import('../wire.js').Node} n
 */
export function listingOf(n) {
  const jroot = contentRootOf(n);
  return jroot && isStreamRef(jroot.ref) ? jroot : recordsPath(n.ref) !== null ? n : null;
}

/** listingShown: the listing is on show. */
export const listingShown = () => !!grid && !grid.hidden;

/**
 * listingFocus puts the focus on the listing (a search pick of one of its rows).
 * @param {FocusOptions} [opts]
 */
export function listingFocus(opts) { grid.focus(opts); }

/** listingTarget: the grid, where the focus lands when a link or a pick opened the listing. */
export const listingTarget = () => grid;

/** listingHasFocus: the focus is in the listing. */
export const listingHasFocus = () => grid.contains(document.activeElement);

/**
 * listingParts: the grid and its rows' box, for the source column beside the rows
 * (views/sourcepane.js), which lives inside the grid.
 * @returns {{grid: HTMLElement, rows: HTMLElement}}
 */
export const listingParts = () => ({ grid, rows: $('listing-rows') });

/**
 * listingShow shows node's rows (a stream's instructions or a member's records), fetched from
 * the core a block at a time; the same node of the same document again keeps its place.
 * @param {import('../wire.js').Node} node
 */
export function listingShow(node) {
  grid.hidden = false;
  const key = state.uid + '|' + node.ref;
  if (listing.key === key) { listingRender(); lineBar(); return; }
  listing.key = key;
  listing.node = node;
  listing.ref = node.ref;
  listing.total = 0;
  listing.cols = [];
  listing.blocks.clear();
  listing.selected = -1;
  listing.fit = {};
  // The source line stays only where it produced instructions of this stream.
  if (listing.line && !lineWords(listing.line).some((w) => w.member === refMember(node.ref))) listing.line = null;
  lineBar();
  $('listing-scroll').scrollTop = 0;
  $('listing-rows').replaceChildren();
  fetchBlock(0).promise.then(() => { if (listing.key === key) listingRender(); });
}

export function fetchBlock(idx) {
  let b = listing.blocks.get(idx);
  if (b) return b;
  const ref = listing.ref;
  b = { rows: null, spans: null, links: null, cols: null };
  b.promise = ensureHandle()
    .then((h) => call('rows', { handle: h, ref, from: idx * LIST_BLOCK, to: (idx + 1) * LIST_BLOCK }))
    .then((r) => {
      const t = unpackTable(r.table);
      b.rows = t.rows || [];
      b.spans = t.rspans || [];
      b.links = t.rlinks || null;
      b.cols = t.cols || [];
      if (ref === listing.ref) {
        if (!listing.cols.length) listing.cols = t.cols || [];
        // The columns fit what they hold: they widen as rows further down come, never shrink.
        const g = grownColumns(listing.fit, fitColumns(listing.cols, b.rows));
        if (g.changed) { listing.fit = g.widths; $('listing-head').dataset.ref = ''; }
        if (listing.total !== r.total) {
          listing.total = r.total;
          const full = r.total * LIST_ROW;
          $('listing-spacer').style.height = Math.min(full, MAX_SCROLL_PX) + 'px';
          listing.full = full;
        }
      }
    })
    .catch((e) => { listing.blocks.delete(idx); toast('Listing ' + refMember(ref) + ': ' + e.message); });
  listing.blocks.set(idx, b);
  return b;
}

/**
 * listingRefresh fetches the rows on screen again (the source lines were mapped after the
 * open: rows fetched before lack their source column), keeping the scroll position; the old
 * rows stay until the new ones are drawn. It resolves once they are (false: no instruction
 * listing is shown).
 * @returns {Promise<boolean>}
 */
async function listingRefresh() {
  if (grid.hidden || !isStreamRef(listing.ref) || !listing.total) return false;
  const key = listing.key;
  listing.blocks.clear();
  const top = Math.floor(toVirtual($('listing-scroll'), listing.full) / LIST_ROW);
  await fetchBlock(Math.floor(Math.max(0, Math.min(listing.total - 1, top)) / LIST_BLOCK)).promise;
  if (listing.key !== key) return false;
  const b = listing.blocks.get(Math.floor(Math.max(0, Math.min(listing.total - 1, top)) / LIST_BLOCK));
  if (b && b.cols) listing.cols = b.cols;
  $('listing-head').dataset.ref = '';
  listingRender();
  return true;
}

// colClass names a listing column's cell class from its title (widths live in style.css).
const colClass = (c) => 'lc col-' + c.toLowerCase().replace(/[^a-z0-9]+/g, '-');

// Column widths the user dragged (px by column title), remembered for the next visit.
const COLS_KEY = 'neffscope.listing-cols';
/** @type {Record<string, number>} */
let colWidths = {};
try { colWidths = JSON.parse(localStorage.getItem(COLS_KEY) || '{}') || {}; } catch (e) { /* none remembered */ }
const CHAR_PX = 7.2; // 12px monospace: the source cell is elided to its width in characters

// cell: one cell of column c (its whole value on hover; the source column keeps its line
// number, eliding the file's middle), as wide as the user dragged it, else as its content
// (lib/colfit.js).
function cell(tag, cls, c, text) {
  const w = colWidths[c];
  const fit = listing.fit[c];
  let shown = text;
  if (c === 'source') shown = elideSource(String(text), Math.max(8, w ? Math.floor((w - 1.5 * CHAR_PX) / CHAR_PX) : (fit || 34) - 2));
  const x = el(tag, cls, shown);
  if (w) x.style.width = w + 'px';
  else if (fit) x.style.width = fit + 'ch';
  if (text !== '' && text !== undefined && text !== null) x.title = String(text);
  return x;
}

// colDrag resizes column c from its header's right edge.
function colDrag(e, c, head) {
  e.preventDefault();
  e.stopPropagation();
  const grip = /** @type {HTMLElement} */ (e.currentTarget);
  const start = e.clientX, w0 = head.getBoundingClientRect().width;
  grip.setPointerCapture(e.pointerId);
  const move = (ev) => {
    colWidths[c] = Math.round(Math.max(24, w0 + ev.clientX - start));
    head.style.width = colWidths[c] + 'px';
    listingRender();
  };
  grip.addEventListener('pointermove', move);
  grip.addEventListener('pointerup', () => {
    grip.removeEventListener('pointermove', move);
    try { localStorage.setItem(COLS_KEY, JSON.stringify(colWidths)); } catch (err) { /* lasts the visit */ }
  }, { once: true });
}

function listingRender() {
  if (grid.hidden || !listing.total) return;
  const head = $('listing-head');
  const tc = timeCol();
  if (head.dataset.ref !== listing.ref + (tc ? '|' + tc.title : '')) {
    head.dataset.ref = listing.ref + (tc ? '|' + tc.title : '');
    head.replaceChildren();
    listing.cols.forEach((c) => {
      const h = cell('span', colClass(c), c, c);
      h.title = c + ' (drag the right edge to resize; double-click it to reset)';
      const grip = el('span', 'lc-grip');
      grip.addEventListener('pointerdown', (e) => colDrag(e, c, h));
      grip.addEventListener('dblclick', () => { delete colWidths[c]; h.style.width = ''; try { localStorage.setItem(COLS_KEY, JSON.stringify(colWidths)); } catch (e) { /* lasts the visit */ } listingRender(); });
      h.appendChild(grip);
      head.appendChild(h);
    });
    head.appendChild(el('span', 'lc-count muted', fmtInt(listing.total) + ' rows'));
    if (tc) timeHead(head, tc);
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
  const inLine = lineSet();
  for (let i = first; i < first + count; i++) {
    const b = fetchBlock(Math.floor(i / LIST_BLOCK));
    const r = el('div', 'lrow');
    r.dataset.index = i;
    r.setAttribute('role', 'row');
    if (i === listing.selected) r.classList.add('selected');
    if (inLine && inLine.has(i)) r.classList.add('in-line');
    if (b.rows) {
      const row = b.rows[i % LIST_BLOCK] || [];
      const link = b.links && b.links[i % LIST_BLOCK];
      row.forEach((v, k) => {
        // The joins' cell of a row that leads somewhere (set, function, DMA queue) is a link.
        if (link && listing.cols[k] === 'resolved' && linkFollowable(link)) {
          const a = cell('button', colClass('resolved') + ' ov-link l-link', 'resolved', v);
          a.type = 'button';
          a.tabIndex = -1; // the grid is one tab stop: Enter on the selected row follows it
          a.dataset.link = link;
          a.title = v + ' · go to ' + link.split('/').map(decodeURIComponent).join(' › ');
          r.appendChild(a);
        } else if (listing.cols[k] === 'sync' && v && syncLinks.of) r.appendChild(syncCell(v, i));
        else r.appendChild(cell('span', colClass(listing.cols[k] || ''), listing.cols[k] || '', v));
      });
      if (link) r.dataset.link = link;
      if (tc) timeCell(r, tc, i);
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

export { adopt };

// ---- the duration column: each instruction's time, measured or estimated, after its name ----

/**
 * timeColumn: the listing's duration column while the document has time (its device profile
 * paired, or its estimate); views/timehooks.js sets of(member, total): the column's title,
 * its header's tooltip, a step to the next of the stream's longest instructions, and each
 * row's cell (its text, its heat against the longest, whether it is among the longest).
 * @type {{of: ((member: string, total: number) => {title: string, kind: string, error: number, head: string, next: () => void, cell: (i: number) => {text: string, heat: number, hot: boolean, title: string}} | null) | null}}
 */
export const timeColumn = { of: null };

// timeCol is the duration column of the listing on show (null: none).
const timeCol = () => (timeColumn.of && isStreamRef(listing.ref) && listing.total ? timeColumn.of(refMember(listing.ref), listing.total) : null);

// timeAt: where the duration column goes in a row or the header (after the name).
const timeAt = (box) => box.children[listing.cols.indexOf('name') + 1] || null;

function timeHead(head, tc) {
  const h = /** @type {HTMLButtonElement} */ (el('button', 'lc col-duration lc-time-head', tc.title + ' ▾'));
  h.type = 'button';
  h.tabIndex = -1;
  h.title = tc.head;
  h.dataset.time = tc.kind;
  if (Number.isFinite(tc.error)) h.dataset.spanError = String(tc.error);
  h.addEventListener('click', (e) => { e.stopPropagation(); tc.next(); });
  head.insertBefore(h, timeAt(head));
}

function timeCell(r, tc, i) {
  const x = tc.cell(i);
  const c = el('span', 'lc col-duration' + (x.hot ? ' hot' : ''), x.text);
  c.style.setProperty('--heat', String(Math.max(0, Math.min(1, x.heat))));
  if (x.title) c.title = x.title;
  if (x.hot) r.classList.add('hot');
  r.insertBefore(c, timeAt(r));
}

/**
 * syncLinks: where the sync band's waits and updates lead (views/schedule.js sets of from the
 * sync model: a wait to its producer, an update to the waits it satisfies; null until the
 * model is loaded).
 * @type {{of: ((member: string, i: number) => {producers: {member: string, index: number, sem: number}[], waiters: {member: string, index: number, sem: number}[]} | null) | null}}
 */
export const syncLinks = { of: null };

/** listingRedraw draws the rows on show again (the sync links arrived). */
export function listingRedraw() { listingRender(); }

// syncCell is the sync column of row i: "wait S[5]>=61" a link to its producer, "inc S[4]" to
// the first wait it satisfies (all of them in its title).
function syncCell(text, i) {
  const box = el('span', colClass('sync'));
  const member = refMember(listing.ref);
  const links = /** @type {any} */ (syncLinks.of)(member, i);
  text.split(', ').forEach((part, k) => {
    if (k) box.appendChild(document.createTextNode(', '));
    const m = /^(wait|inc) S\[(\d+)\]/.exec(part);
    const sem = m ? Number(m[2]) : -1;
    const to = !links || !m ? [] : (m[1] === 'wait' ? links.producers : links.waiters).filter((x) => x.sem === sem);
    if (!to.length) { box.appendChild(el('span', '', part)); return; }
    const a = el('button', 'ov-link l-sync', part);
    /** @type {HTMLButtonElement} */ (a).type = 'button';
    a.tabIndex = -1;
    a.dataset.member = to[0].member;
    a.dataset.index = String(to[0].index);
    a.title = (m && m[1] === 'wait' ? 'Produced by ' : 'Satisfies ') + to.slice(0, 12).map((x) => x.member + ' #' + x.index).join(', ') + (to.length > 12 ? ', … (' + to.length + ')' : '');
    a.addEventListener('click', (e) => { e.stopPropagation(); instructionAt(to[0].member, to[0].index); });
    box.appendChild(a);
  });
  return box;
}

/**
 * listingSelect selects row i; an instruction goes into the URL hash as history says
 * ('push': a deliberate pick, Back returns to the row before; 'replace': a step by the
 * keyboard; 'none': the hash asked for it, or the row is shown again).
 * @param {number} i
 * @param {'push' | 'replace' | 'none'} [history]
 */
export async function listingSelect(i, history = 'push') {
  listing.selected = i;
  listingRender();
  const ref = listing.ref, node = listing.node, key = listing.key;
  if (!isStreamRef(ref)) return recordSelect(i);
  try {
    const h = await ensureHandle();
    const r = await call('instruction', { handle: h, ref, index: i });
    // A newer selection (a key held down) supersedes this one, and so does leaving the listing
    // (Back to a source line while the instruction was fetched).
    if (ref !== listing.ref || i !== listing.selected || key !== listing.key) return;
    const ins = adopt(unpackNode(r.node), node, '#' + i);
    setSelected(ins);
    recordPlace(ins, history);
    emit('picked', { n: ins });
    if (ins.span) hexShow(ins.span.src || '', ins.span, true, fieldMarks(ins, ins.span.src || ''));
    // Its kernel source line: the line bar, the source view's row, the line's other rows.
    const src = (ins.kids || []).find((c) => c.label === 'source');
    const line = src ? lineOfLink(src.link) : null;
    if (line !== listing.line) { listing.line = line; listingRender(); }
    emit('instructionLine', { line });
    lineBar();
  } catch (e) {
    toast('Instruction ' + i + ': ' + e.message);
  }
}

// recordSelect shows row i of a records listing: its row's bytes and the node that owns them.
async function recordSelect(i) {
  const ref = listing.ref;
  const b = fetchBlock(Math.floor(i / LIST_BLOCK));
  await b.promise;
  if (ref !== listing.ref || i !== listing.selected) return;
  const sp = b.spans && b.spans[i % LIST_BLOCK];
  if (!sp || !sp.len) return;
  const owner = ownerAt(sp.src || '', sp.off);
  if (owner) { setSelected(owner); emit('picked', { n: owner }); }
  hexShow(sp.src || '', sp, true, owner ? fieldMarks(owner, sp.src || '') : []);
}

// lineSet: the indexes, in the shown stream, of the instructions of the current source line.
let lineSetFor = null, lineSetCache = null;
function lineSet() {
  const line = listing.line;
  if (!line || !isStreamRef(listing.ref)) return null;
  const key = listing.ref;
  if (lineSetFor !== line || lineSetCache.ref !== key) {
    const m = refMember(key);
    lineSetFor = line;
    lineSetCache = { ref: key, set: new Set(lineWords(line).filter((w) => w.member === m).map((w) => w.index)) };
  }
  return lineSetCache.set;
}

// lineBar draws the bar above the listing: the selected instruction's kernel line, which of
// its instructions this is, and steps to the previous and next one (across engines).
function lineBar() {
  let bar = $('line-bar');
  const line = isStreamRef(listing.ref) && !grid.hidden ? listing.line : null;
  if (!line) { if (bar) bar.hidden = true; return; }
  if (!bar) {
    bar = el('div', 'line-bar');
    bar.id = 'line-bar';
    bar.setAttribute('role', 'toolbar');
    bar.setAttribute('aria-label', 'Kernel source line of the selected instruction');
    grid.before(bar);
  }
  bar.hidden = false;
  bar.replaceChildren();
  const words = lineWords(line);
  const m = refMember(listing.ref);
  const k = words.findIndex((w) => w.member === m && w.index === listing.selected);
  const go = el('button', 'link line-name', 'Source ' + line.key);
  /** @type {HTMLButtonElement} */ (go).type = 'button';
  go.title = (line.detail || line.key) + ': show the source view';
  go.addEventListener('click', () => follow(pathLink(line)));
  bar.appendChild(go);
  bar.appendChild(el('span', 'muted line-pos', (k >= 0 ? fmtInt(k + 1) + ' of ' : '') + fmtInt(words.length) + ' instruction' + (words.length === 1 ? '' : 's') + ' of this line'));
  for (const [dir, text, title] of /** @type {[number, string, string][]} */ ([[-1, '◀ prev', 'Previous instruction of this line (p)'], [1, 'next ▶', 'Next instruction of this line (n)']])) {
    const b = el('button', 'button small line-step', text);
    /** @type {HTMLButtonElement} */ (b).type = 'button';
    b.dataset.dir = String(dir);
    b.title = title;
    /** @type {HTMLButtonElement} */ (b).disabled = k < 0 ? false : (dir < 0 ? k === 0 : k === words.length - 1);
    b.addEventListener('click', () => lineStep(Number(dir)));
    bar.appendChild(b);
  }
}

const pathLink = (n) => pathOf(n).map(encodeURIComponent).join('/');

/**
 * lineStep selects the previous (-1) or next (+1) instruction of the current source line, in
 * this stream or the next one that has some.
 * @param {number} dir
 */
export function lineStep(dir) {
  const line = listing.line;
  if (!line) return;
  const words = lineWords(line);
  const m = refMember(listing.ref);
  let k = words.findIndex((w) => w.member === m && w.index === listing.selected);
  if (k < 0) {
    // Not on one of its words: the first one after (or before) the selected row.
    k = dir > 0 ? words.findIndex((w) => w.member === m && w.index > listing.selected) : words.findLastIndex((w) => w.member === m && w.index < listing.selected);
    if (k < 0) return;
  } else k += dir;
  if (k < 0 || k >= words.length) return;
  const w = words[k];
  instructionAt(w.member, w.index).then(() => { if (grid.contains(document.activeElement) || document.activeElement === document.body) grid.focus(); });
}

/**
 * listingInit wires the grid (its rows, the keyboard) and what it follows: the instruction the
 * URL names, a byte of a stream picked in the hex view, the document's patches.
 * @param {HTMLElement} root
 */
export function listingInit(root) {
  grid = root;
  on('hashInstruction', ({ stream, i }) => { instructionPick(stream, i, 'hash'); });
  on('bytePicked', ({ src, off }) => { const stream = streamOf(src); if (stream) instructionPick(stream, Math.floor(off / 64)); });
  on('patched', (p) => p.waits.push(listingPatched(p)));
  const sc = $('listing-scroll');
  sc.addEventListener('scroll', () => { $('listing-head').scrollLeft = sc.scrollLeft; requestAnimationFrame(listingRender); });
  new ResizeObserver(() => listingRender()).observe(sc);
  $('listing-rows').addEventListener('click', (e) => {
    const a = closestTo(e, '.l-link');
    if (a) { rowFollow(a.dataset.link, Number(/** @type {HTMLElement} */ (a.closest('.lrow')).dataset.index)); return; }
    const r = closestTo(e, '.lrow');
    if (r) listingSelect(Number(r.dataset.index));
  });
  // The grid (#listing) holds the focus; the scroller inside it is not a tab stop.
  grid.addEventListener('keydown', (e) => {
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
      case 'n': case 'p':
        // The next / previous instruction of the selected one's kernel source line.
        if (e.ctrlKey || e.metaKey || e.altKey || !listing.line) return;
        e.preventDefault();
        lineStep(e.key === 'n' ? 1 : -1);
        return;
      case 'Enter': {
        // Enter on the selected row follows its link (set, function, queue), if it has one.
        const row = i >= 0 && $('listing-rows').querySelector('.lrow[data-index="' + i + '"]');
        if (row && row.dataset.link) { e.preventDefault(); rowFollow(row.dataset.link, i); return; }
        if (i < 0) i = listingFirstShown();
        e.preventDefault();
        listingKeepVisible(i);
        listingSelect(i, 'push');
        return;
      }
      default: return;
    }
    e.preventDefault();
    listingKeepVisible(i);
    // A step by the keyboard moves the URL's place without a history entry for every row.
    listingSelect(i, 'replace');
  });
}

// rowFollow follows row i's link; an Activate's function opens its plot, told where from.
function rowFollow(link, i) {
  const t = linkTarget(link);
  if (t && t.kind === KIND.PWP_FUNCTION && t.ref) plotFromActivate(t.ref, refMember(listing.ref) + ' #' + i);
  follow(link);
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
  grid.setAttribute('aria-rowcount', String(listing.total + 1));
  grid.setAttribute('aria-colcount', String(listing.cols.length));
  grid.setAttribute('aria-label', (isStreamRef(listing.ref) ? 'Instruction listing of ' : 'Records of ') + refMember(listing.ref) + ', ' + fmtInt(listing.total) + (isStreamRef(listing.ref) ? ' instructions' : ' records'));
  const head = $('listing-head');
  for (const c of head.children) {
    if (c.classList.contains('lc-count')) c.setAttribute('aria-hidden', 'true');
    else c.setAttribute('role', 'columnheader');
  }
  let active = null;
  for (const r of $('listing-rows').children) {
    const i = Number(r.dataset.index);
    r.setAttribute('aria-rowindex', String(i + 2));
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

export function listingScrollTo(i) {
  const sc = $('listing-scroll');
  const first = Math.floor(toVirtual(sc, listing.full) / LIST_ROW);
  const view = Math.floor(sc.clientHeight / LIST_ROW);
  if (i >= first && i < first + view - 1) return;
  scrollToVirtual(sc, listing.full, Math.max(0, (i - Math.floor(view / 2)) * LIST_ROW));
}

// listingHide hides the listing (the selection has no instruction stream).
export function listingHide() {
  grid.hidden = true;
  listing.key = '';
  lineBar();
}

/**
 * instructionAt shows a stream member's listing and selects instruction i there.
 * @param {string} member
 * @param {number} i
 */
export async function instructionAt(member, i) {
  const m = findMember(member);
  if (!m) { toast('No member ' + member + ' in this NEFF'); return; }
  if (listing.ref !== streamRef(member) || grid.hidden) select(m, 'link');
  if (grid.hidden) return;
  await fetchBlock(0).promise;
  listingScrollTo(i);
  await listingSelect(i);
}

/**
 * lineOfLink: the line node an instruction's source field links to, or null.
 * @param {string | undefined} link
 */
export function lineOfLink(link) {
  const n = linkTarget(link);
  return n && n.attrs && n.attrs.words !== undefined ? n : null;
}

/**
 * instructionPick shows stream's listing (if it is not on show) and selects instruction i.
 * @param {import('../wire.js').Node} stream
 * @param {number} i
 * @param {string} [from] 'hash': the URL names it (no history entry)
 */
export async function instructionPick(stream, i, from) {
  const quiet = from === 'hash';
  if (quiet && listing.node === stream && !grid.hidden && listing.selected === i) return; // already there (popstate and hashchange both ask)
  if (listing.node !== stream || grid.hidden) select(stream, quiet ? 'hash' : 'hex');
  await fetchBlock(0).promise; // the listing's size (its scroll height) comes with its first rows
  listingScrollTo(i);
  return listingSelect(i, quiet ? 'none' : 'push');
}

/**
 * listingPatched: the document on show changed in place (its source lines mapped): the rows
 * on screen are fetched again (the ones fetched before lack their source column), and an
 * instruction the listing had adopted as the selection (forgotten by the reindex) is fetched
 * again too, which shows the selection again.
 * @param {import('../state/events.js').Patched} p
 */
async function listingPatched(p) {
  const listed = await listingRefresh();
  if (state !== p.st || !p.sel || p.st.info.has(p.sel) || !listed || listing.selected < 0) return;
  p.shown = true;
  await listingSelect(listing.selected, 'none');
}
