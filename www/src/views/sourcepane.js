// @ts-check
// The source pane beside the instruction listing (Compiler Explorer's source ↔ asm): the
// kernel file's lines — the whole file when its .py is attached or dropped (views/source.js
// texts), otherwise the lines the debug info names — each line that made code in a colour of
// its own (lib/names.js lineHue), the listing's rows of that line carrying the same colour
// mark. Hovering a line lights its rows and hovering a row lights its line; a click on a line
// selects its first instruction in this stream (else anywhere). The pane follows the listing
// by watching its rows, so the listing knows nothing of it.

import { el } from '../dom.js';
import { fmtInt } from '../lib/format.js';
import { lineHue, middleEllipsis } from '../lib/names.js';
import { isStreamRef, streamPath } from '../lib/refs.js';
import { lineWords } from '../lib/words.js';
import { state } from '../state/docs.js';
import { on } from '../state/events.js';
import { instructionAt, listing, listingParts } from './listing.js';
import { attachSources, baseName, sourceNode, texts } from './source.js';

/** @typedef {import('../wire.js').Node} Node */

const WIDTH_KEY = 'neffscope.source-pane';
const TEXT_LINES_MAX = 50000; // an attached file longer than this shows its named lines only

/** what the pane shows: the document, the stream member, and per line its colour */
const pane = {
  /** @type {any} */ doc: null,
  member: '',
  /** @type {Node[]} every kernel line of the document, in the source node's order */ lines: [],
  /** @type {Map<number, number>} instruction index (in member) → line number k (of lines) */ rowLine: new Map(),
  /** @type {Map<number, number>} line k → its first instruction in member (-1: none here) */ first: new Map(),
  /** @type {Node | null} the selected instruction's line */ current: null,
  hover: -1,
};

/** @type {HTMLElement} the listing's grid, which the pane sits in */
let grid;
/** @type {HTMLElement} the listing's rows */
let rowsEl;
/** @type {HTMLElement | null} the pane (#source-side), made on first use */
let sideEl = null;

function side() {
  if (sideEl) return sideEl;
  const v = sideEl = el('div', 'source-side');
  v.id = 'source-side';
  v.setAttribute('role', 'region');
  v.setAttribute('aria-label', 'Kernel source beside the listing');
  v.hidden = true;
  grid.appendChild(v);
  // The listing's own keys (arrows move its rows) stay out of the pane.
  v.addEventListener('keydown', (e) => {
    e.stopPropagation();
    const b = e.target instanceof Element ? e.target.closest('.sp-line') : null;
    if (!b) return;
    const all = /** @type {HTMLElement[]} */ (Array.from(v.querySelectorAll('.sp-line.made')));
    const i = all.indexOf(/** @type {HTMLElement} */ (b));
    let j = -1;
    if (e.key === 'ArrowDown') j = Math.min(all.length - 1, i + 1);
    else if (e.key === 'ArrowUp') j = Math.max(0, i - 1);
    else if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); pick(Number(/** @type {HTMLElement} */ (b).dataset.k)); return; }
    if (j < 0) return;
    e.preventDefault();
    all.forEach((x, k) => { x.tabIndex = k === j ? 0 : -1; });
    all[j].focus();
  });
  v.addEventListener('click', (e) => {
    const b = e.target instanceof Element ? e.target.closest('.sp-line.made') : null;
    if (b) pick(Number(/** @type {HTMLElement} */ (b).dataset.k));
  });
  v.addEventListener('mouseover', (e) => {
    const b = e.target instanceof Element ? e.target.closest('.sp-line.made') : null;
    hoverLine(b ? Number(/** @type {HTMLElement} */ (b).dataset.k) : -1);
  });
  v.addEventListener('mouseleave', () => hoverLine(-1));
  const grip = el('div', 'sp-grip');
  grip.title = 'Drag to resize the source pane';
  grip.addEventListener('pointerdown', (e) => dragWidth(e, grip));
  v.appendChild(grip);
  try { const w = Number(localStorage.getItem(WIDTH_KEY)); if (w > 0) grid.style.setProperty('--srcside-w', w + 'px'); } catch (e) { /* not remembered */ }
  // The width remembered is the attached text's: the compact pane (line numbers only) keeps to
  // its own.
  return v;
}

// dragWidth resizes the pane from its left edge, remembered for the next visit.
function dragWidth(e, grip) {
  e.preventDefault();
  const box = grid.getBoundingClientRect();
  grip.setPointerCapture(e.pointerId);
  let w = 0;
  const move = (ev) => {
    w = Math.round(Math.max(160, Math.min(box.width - 240, box.right - ev.clientX)));
    grid.style.setProperty('--srcside-w', w + 'px');
  };
  const up = () => {
    grip.removeEventListener('pointermove', move);
    if (w) { try { localStorage.setItem(WIDTH_KEY, String(w)); } catch (err) { /* not remembered */ } }
  };
  grip.addEventListener('pointermove', move);
  grip.addEventListener('pointerup', up, { once: true });
}

/** linesOf: the source node's line nodes ([] when the NEFF names none). */
function linesOf() {
  const s = sourceNode();
  const lines = s && (s.kids || []).find((c) => c.key === 'lines');
  return (lines && lines.kids) || [];
}

// sync shows the pane when the listing shows an instruction stream of a document with kernel
// lines, and (re)builds it when the document, the stream or the attached texts changed.
function sync(force) {
  const v = side();
  const on = !grid.hidden && isStreamRef(listing.ref) && !!state;
  const lines = on ? linesOf() : [];
  grid.classList.toggle('with-source', lines.length > 0);
  // Without the kernel's text the pane has only line numbers to show: it keeps to their width
  // and gives the rest back to the operands (an attached .py takes its own width again).
  grid.classList.toggle('source-compact', lines.length > 0 && !lines.some((l) => texts.has(baseName(l.attrs.file))));
  v.hidden = !lines.length;
  if (!lines.length) { pane.doc = null; return; }
  const member = streamPath(listing.ref) || '';
  if (force || pane.doc !== state.doc || pane.member !== member || pane.lines !== lines) {
    pane.doc = state.doc;
    pane.member = member;
    pane.lines = lines;
    index();
    draw(v);
  }
  decorateRows();
}

// index maps the stream's instructions to their lines, and each line to its first one here.
function index() {
  pane.rowLine = new Map();
  pane.first = new Map();
  pane.lines.forEach((line, k) => {
    let first = -1;
    for (const w of lineWords(line)) {
      if (w.member !== pane.member) continue;
      pane.rowLine.set(w.index, k);
      if (first < 0) first = w.index;
    }
    pane.first.set(k, first);
  });
}

// draw renders the pane: per kernel file, its text (attached) or its named lines.
function draw(v) {
  for (const c of Array.from(v.children)) if (!c.classList.contains('sp-grip')) c.remove();
  const head = el('div', 'sp-head');
  head.appendChild(el('span', 'sp-title', 'Source'));
  const here = [...pane.first.values()].filter((x) => x >= 0).length;
  const sub = el('span', 'muted sp-sub', fmtInt(here) + ' of ' + fmtInt(pane.lines.length) + ' line' + (pane.lines.length === 1 ? '' : 's') + ' here');
  sub.title = fmtInt(here) + ' of the ' + fmtInt(pane.lines.length) + ' kernel lines made instructions of ' + pane.member;
  head.appendChild(sub);
  timeToggle(head);
  const pick = /** @type {HTMLButtonElement} */ (el('button', 'button small sp-attach', '.py…'));
  pick.setAttribute('aria-label', 'Attach the kernel .py');
  pick.type = 'button';
  pick.title = 'Show the whole kernel file: pick (or drop on the page) the .py the debug info names';
  const input = /** @type {HTMLInputElement} */ (el('input'));
  input.type = 'file';
  input.accept = '.py,.txt,text/*';
  input.multiple = true;
  input.hidden = true;
  pick.addEventListener('click', () => input.click());
  input.addEventListener('change', () => { attachSources(Array.from(input.files || [])); input.value = ''; });
  head.appendChild(pick);
  head.appendChild(input);
  v.appendChild(head);
  const body = el('div', 'sp-body');
  const files = [...new Set(pane.lines.map((l) => l.attrs.file))];
  if (lineTime.sorted && lineTime.of && lineTime.of(pane.lines[0], pane.lines)) drawByTime(body);
  else for (const file of files) {
    const sec = el('section', 'sp-file');
    const text = texts.get(baseName(file));
    const name = el('div', 'sp-file-name', middleEllipsis(file, 56));
    name.title = file + (text ? ' (attached)' : ': the lines the debug info names (attach the .py for the whole file)');
    sec.appendChild(name);
    /** @type {Map<number, number>} line number → k */
    const byNum = new Map();
    pane.lines.forEach((l, k) => { if (l.attrs.file === file) byNum.set(Number(l.attrs.line), k); });
    // A file's last newline ends its last line: it starts no line of its own.
    const count = text ? text.length - (text.length > 0 && text[text.length - 1] === '' ? 1 : 0) : 0;
    const nums = text && count <= TEXT_LINES_MAX ? Array.from({ length: count }, (_, i) => i + 1) : [...byNum.keys()].sort((a, b) => a - b);
    for (const num of nums) sec.appendChild(lineRow(num, byNum.has(num) ? /** @type {number} */ (byNum.get(num)) : -1, text));
    body.appendChild(sec);
  }
  if (!files.some((f) => texts.has(baseName(f)))) body.appendChild(el('p', 'sp-note muted', 'The NEFF records line numbers, not the text: attach or drop the kernel .py to read the whole file here.'));
  v.appendChild(body);
  const firstMade = /** @type {HTMLElement | null} */ (v.querySelector('.sp-line.made'));
  if (firstMade) firstMade.tabIndex = 0;
  markCurrent();
}

// lineRow: one line of the pane; k is the line's index among the kernel lines (-1: it made no code).
function lineRow(num, k, text) {
  const r = el('div', 'sp-line' + (k >= 0 ? ' made' : ''));
  r.appendChild(el('span', 'sp-num', String(num)));
  const line = k >= 0 ? pane.lines[k] : null;
  if (text) r.appendChild(el('span', 'sp-text', text[num - 1] || ''));
  else r.appendChild(el('span', 'sp-text muted', line ? line.attrs.kernel || fmtInt(lineWords(line).length) + ' instruction' + (lineWords(line).length === 1 ? '' : 's') + ' in all' : ''));
  if (line) {
    r.dataset.k = String(k);
    r.dataset.key = line.key;
    r.style.setProperty('--lh', String(lineHue(k)));
    r.tabIndex = -1;
    r.setAttribute('role', 'button');
    const n = lineWords(line);
    const here = n.filter((w) => w.member === pane.member).length;
    r.appendChild(el('span', 'sp-count', here ? fmtInt(here) : '·'));
    r.title = line.key + ': ' + fmtInt(here) + ' instruction' + (here === 1 ? '' : 's') + ' in ' + pane.member + ', ' + fmtInt(n.length) + ' in all' + (pane.first.get(k) >= 0 ? ' · click: its first one here' : ' · click: its first one');
    timeMark(r, line);
  }
  return r;
}

// ---- kernel lines by time: each line's time and heat, the lines sorted longest first ----

/**
 * lineTime: a kernel line's time while the document has time (views/timehooks.js sets of):
 * of(line, lines) gives its time's text, its heat against the hottest line and its rank
 * (null: none); sorted says the pane lists the lines by time, the longest first.
 * @type {{of: ((line: Node, lines: Node[]) => {ps: number, rank: number, heat: number, text: string, measured: boolean, note: string, short: string, title: string} | null) | null, sorted: boolean}}
 */
export const lineTime = { of: null, sorted: false };

/** sourcePaneTimes draws the pane again (the document's time came or changed). */
export function sourcePaneTimes() { if (sideEl && !sideEl.hidden && pane.doc) sync(true); }

// timeToggle is the head's switch between the file's order and time's (when lines have times).
function timeToggle(head) {
  const x = lineTime.of && pane.lines.length ? lineTime.of(pane.lines[0], pane.lines) : null;
  if (!x) return;
  const b = /** @type {HTMLButtonElement} */ (el('button', 'button small sp-bytime', 'by time'));
  b.type = 'button';
  b.setAttribute('aria-pressed', lineTime.sorted ? 'true' : 'false');
  b.title = 'List the kernel lines by their ' + (x.measured ? 'measured' : 'estimated') + ' time (the sum of their instructions\' durations), the longest first';
  b.addEventListener('click', () => { lineTime.sorted = !lineTime.sorted; sync(true); });
  head.appendChild(b);
  if (x.note) { const n = el('span', 'sp-time-note muted', x.short); n.title = x.note; head.appendChild(n); }
}

// timeMark gives a line's row its time and its heat (its share of the hottest line's time).
function timeMark(r, line) {
  const x = lineTime.of ? lineTime.of(line, pane.lines) : null;
  if (!x) return;
  const c = el('span', 'sp-time' + (x.measured ? '' : ' estimated'), x.text);
  c.title = x.title;
  r.appendChild(c);
  r.classList.add('timed');
  r.style.setProperty('--heat', String(Math.max(0, Math.min(1, x.heat))));
  r.dataset.rank = String(x.rank);
  r.dataset.ps = String(x.ps);
  r.dataset.time = x.measured ? 'measured' : 'estimated';
}

// drawByTime lists the lines that made code, the longest first, each named file:line.
function drawByTime(body) {
  const sec = el('section', 'sp-file sp-bytime-list');
  const ranked = pane.lines.map((l, k) => ({ k, x: lineTime.of ? lineTime.of(l, pane.lines) : null })).filter((r) => r.x).sort((a, b) => a.x.rank - b.x.rank);
  sec.appendChild(el('div', 'sp-file-name', 'kernel lines by ' + (ranked.length && ranked[0].x.measured ? 'measured' : 'estimated') + ' time'));
  for (const { k } of ranked) {
    const line = pane.lines[k];
    const r = lineRow(Number(line.attrs.line), k, texts.get(baseName(line.attrs.file)));
    r.firstChild.textContent = baseName(line.attrs.file) + ':' + line.attrs.line;
    sec.appendChild(r);
  }
  body.appendChild(sec);
}

// decorateRows gives the listing's rows on screen their line's colour mark.
function decorateRows() {
  if (!pane.doc) return;
  for (const r of /** @type {HTMLElement[]} */ (Array.from(rowsEl.children))) {
    const k = pane.rowLine.get(Number(r.dataset.index));
    if (k === undefined) { r.classList.remove('has-line'); delete r.dataset.lk; continue; }
    r.classList.add('has-line');
    r.dataset.lk = String(k);
    r.style.setProperty('--lh', String(lineHue(k)));
    r.classList.toggle('line-hover', k === pane.hover);
  }
}

// hoverLine lights line k's rows and line (-1: none).
function hoverLine(k) {
  if (pane.hover === k) return;
  pane.hover = k;
  const v = side();
  for (const r of [...rowsEl.querySelectorAll('.lrow.line-hover'), ...v.querySelectorAll('.sp-line.line-hover')]) r.classList.remove('line-hover');
  if (k < 0) return;
  for (const r of [...rowsEl.querySelectorAll('.lrow[data-lk="' + k + '"]'), ...v.querySelectorAll('.sp-line[data-k="' + k + '"]')]) r.classList.add('line-hover');
}

// pick selects line k's first instruction: in this stream, else its first anywhere.
function pick(k) {
  const line = pane.lines[k];
  if (!line) return;
  const here = pane.first.get(k);
  const w = here !== undefined && here >= 0 ? { member: pane.member, index: here } : lineWords(line)[0];
  if (w) instructionAt(w.member, w.index);
}

// markCurrent marks the selected instruction's line and scrolls it into view.
function markCurrent() {
  const v = sideEl;
  if (!v) return;
  for (const r of v.querySelectorAll('.sp-line.current')) r.classList.remove('current');
  if (!pane.current) return;
  const row = /** @type {HTMLElement | null} */ (v.querySelector('.sp-line[data-key="' + CSS.escape(pane.current.key) + '"]'));
  if (!row) return;
  row.classList.add('current');
  for (const x of v.querySelectorAll('.sp-line.made')) /** @type {HTMLElement} */ (x).tabIndex = -1;
  row.tabIndex = 0;
  const body = v.querySelector('.sp-body');
  if (body) {
    const top = row.offsetTop - body.scrollTop, h = body.clientHeight;
    if (top < 0 || top > h - row.offsetHeight) body.scrollTop = Math.max(0, row.offsetTop - h / 3);
  }
}

/**
 * sourcePaneInit: the pane follows the listing's rows (shown, scrolled, another stream), the
 * selected instruction's line, and attached texts.
 */
export function sourcePaneInit() {
  ({ grid, rows: rowsEl } = listingParts());
  new MutationObserver(() => sync(false)).observe(rowsEl, { childList: true });
  new MutationObserver(() => sync(false)).observe(grid, { attributes: true, attributeFilter: ['hidden'] });
  on('instructionLine', ({ line }) => { pane.current = line; markCurrent(); });
  on('sourceTexts', () => sync(true));
  on('document', () => { pane.doc = null; pane.current = null; });
  rowsEl.addEventListener('mouseover', (e) => {
    const r = e.target instanceof Element ? /** @type {HTMLElement | null} */ (e.target.closest('.lrow')) : null;
    hoverLine(r && r.dataset.lk !== undefined ? Number(r.dataset.lk) : -1);
  });
  rowsEl.addEventListener('mouseleave', () => hoverLine(-1));
}
