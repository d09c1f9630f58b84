// @ts-check
// The source view: the kernel's lines, each with the instructions it produced counted per
// engine (Compiler Explorer's source↔asm, from the NEFF's .dbg debug info alone). Drawn from
// the core's model › source node (core/inspect source.go): its "lines" table and one child
// node per line whose attrs name the line's words per stream. A row leads to the listing with
// the line's first instruction selected; the listing's line bar steps through the rest.

import { closestTo, el, toast } from '../dom.js';
import { fmtInt } from '../lib/format.js';
import { parentOf, state } from '../state/docs.js';
import { select } from '../state/selection.js';
import { lineWords } from '../lib/words.js';
import { emit, on } from '../state/events.js';
import { instructionAt } from './listing.js';
import { KIND } from '../lib/vocab.gen.js';

/** @typedef {import('../wire.js').Node} Node */

/**
 * sourceOf: the source node (model › source) n is or belongs to, or null.
 * @param {Node} n
 */
export function sourceOf(n) {
  for (let m = n; m; m = parentOf(m)) if (m.kind === KIND.SOURCE) return m;
  return null;
}

/**
 * sourceNode: the current document's source node, or null.
 */
export function sourceNode() {
  if (!state) return null;
  const model = (state.doc.root.kids || []).find((c) => c.key === 'model');
  return (model && (model.kids || []).find((c) => c.kind === KIND.SOURCE)) || null;
}

/** the line node of the instruction selected last (highlighted in the view), or null */
let current = null;
/** the .py files the user picked or dropped, by base name: their lines (views/sourcepane.js shows them too) */
export const texts = new Map();

/** @type {HTMLElement} the view's root (#source-view) */
let root;

/**
 * sourceInit: a row leads to its line's first instruction; the view marks the line of the
 * instruction the listing selected.
 * @param {HTMLElement} view
 */
export function sourceInit(view) {
  root = view;
  root.className = 'source-view';
  root.setAttribute('role', 'region');
  root.setAttribute('aria-label', 'Kernel source');
  root.addEventListener('click', (e) => {
    const b = closestTo(e, '.src-line');
    if (b) sourceJump(/** @type {any} */ (b).lineNode);
  });
  root.addEventListener('keydown', rowKeys);
  on('instructionLine', ({ line }) => sourceNoteInstruction(line));
}

/** sourceShown: the source view is on show. */
export const sourceShown = () => !root.hidden;

/**
 * sourceLine: the line in the tab order (the current one), else the first; null when the view
 * is not on show. Where the focus lands when a link opened the view.
 * @param {boolean} [first] with no current line, the first one
 * @returns {HTMLElement | null}
 */
export function sourceLine(first) {
  if (root.hidden) return null;
  return root.querySelector('.src-line[tabindex="0"]') || (first ? root.querySelector('.src-line') : null);
}

/**
 * sourceNoteInstruction: the listing selected an instruction whose source field links to
 * line (a line node), or null: the view highlights that row.
 * @param {Node | null} line
 */
function sourceNoteInstruction(line) {
  current = line;
  if (!root.hidden) markCurrent(root);
}

/** sourceHide hides the view (another node is on show). */
export function sourceHide() {
  root.hidden = true;
}

let shown = null;

/**
 * sourceShow draws the source node src and shows it; sel is the selected node (src, its
 * lines table or one line, whose row is then marked).
 * @param {Node} src
 * @param {Node} sel
 */
export function sourceShow(src, sel) {
  const v = root;
  v.hidden = false;
  if (sel && sel.attrs && sel.attrs.words !== undefined) current = sel;
  if (shown !== src || !v.childElementCount) {
    shown = src;
    draw(v, src);
  }
  markCurrent(v);
}

// draw renders the view: a head, then per kernel file its lines.
function draw(v, src) {
  v.replaceChildren();
  const lines = (src.kids || []).find((c) => c.key === 'lines');
  const rows = (lines && lines.kids) || [];
  const head = el('div', 'ov-head');
  head.appendChild(el('h2', 'ov-title', 'Kernel source'));
  const files = [...new Set(rows.map((r) => r.attrs.file))];
  head.appendChild(el('span', 'ov-sub muted', rows.length ? fmtInt(rows.length) + ' kernel line' + (rows.length === 1 ? '' : 's') + ' in ' + files.length + ' file' + (files.length === 1 ? '' : 's') + ' · ' + (src.value || '') : lines ? src.value || '' : ''));
  v.appendChild(head);
  if (!lines) {
    // Said once, here: the NEFF has no .dbg members.
    v.appendChild(el('p', 'src-none', 'This NEFF carries no debug info (.dbg members), so its instructions cannot be traced to kernel source lines. The compiler writes it by default; it is missing when the NEFF was stripped.'));
    return;
  }
  if (!rows.length) {
    v.appendChild(el('p', 'src-none', 'The debug info names the BIR instruction of each word but no kernel file or line: there are no source lines to show.'));
    return;
  }
  const note = el('p', 'src-note muted', 'The NEFF records line numbers, not the source text. ');
  const pick = el('button', 'link src-pick', 'Show the text of a .py file…');
  /** @type {HTMLButtonElement} */ (pick).type = 'button';
  pick.id = 'source-pick';
  const input = /** @type {HTMLInputElement} */ (el('input'));
  input.type = 'file';
  input.accept = '.py,.txt,text/*';
  input.multiple = true;
  input.hidden = true;
  input.id = 'source-file';
  pick.addEventListener('click', () => input.click());
  input.addEventListener('change', () => { loadTexts(Array.from(input.files || [])); input.value = ''; });
  note.appendChild(pick);
  note.appendChild(input);
  v.appendChild(note);
  const engines = ((lines.table && lines.table.cols) || []).slice(3).filter((c) => !c.endsWith(' first'));
  for (const file of files) {
    const sec = el('section', 'src-file');
    sec.dataset.file = file;
    const h = el('h3', 'src-file-name', file);
    sec.appendChild(h);
    const table = el('table', 'ov-table src-table');
    const hr = el('tr');
    const text = texts.get(baseName(file));
    for (const c of ['line', ...(text ? ['text'] : []), 'kernel', ...engines, 'all']) {
      // Every column sorts (the hot lines: sort by an engine, or all, most first).
      const th = el('th', 'src-sort');
      const b = /** @type {HTMLButtonElement} */ (el('button', 'link src-sort-b', c));
      b.type = 'button';
      b.title = 'Sort by ' + c;
      b.addEventListener('click', () => sortTable(/** @type {HTMLTableElement} */ (table), hr.children.length && Array.from(hr.children).indexOf(th)));
      th.appendChild(b);
      hr.appendChild(th);
    }
    const thead = el('thead');
    thead.appendChild(hr);
    table.appendChild(thead);
    const tbody = el('tbody');
    for (const r of rows) {
      if (r.attrs.file !== file) continue;
      const k = rows.indexOf(r);
      const cells = (lines.table.rows || [])[k] || [];
      const tr = el('tr', 'src-row');
      tr.dataset.key = r.key;
      const td = el('td', 'num');
      const b = el('button', 'src-line ov-link', r.attrs.line);
      /** @type {HTMLButtonElement} */ (b).type = 'button';
      b.tabIndex = -1;
      b.title = 'Show the instructions of ' + r.key + ' in the listing';
      /** @type {any} */ (b).lineNode = r;
      td.appendChild(b);
      tr.appendChild(td);
      if (text) tr.appendChild(el('td', 'src-text', text[Number(r.attrs.line) - 1] || ''));
      tr.appendChild(el('td', 'muted', r.attrs.kernel || ''));
      let all = 0;
      engines.forEach((e, j) => {
        const n = Number(cells[3 + j]) || 0;
        all += n;
        tr.appendChild(el('td', 'num' + (n ? '' : ' muted'), n ? fmtInt(n) : '·'));
      });
      tr.appendChild(el('td', 'num', fmtInt(all)));
      tbody.appendChild(tr);
    }
    table.appendChild(tbody);
    sec.appendChild(table);
    v.appendChild(sec);
  }
  const first = /** @type {HTMLElement | null} */ (v.querySelector('.src-line'));
  if (first) first.tabIndex = 0; // the rows are one tab stop; arrows move between them
}

/** baseName: a path's last part (the .dbg names files by path, a picked file by name). @param {string} p */
export function baseName(p) {
  return String(p || '').split('/').pop() || '';
}

/**
 * sortTable sorts a source table's rows by column k: numbers most first on the first click
 * (the line column ascending), the other way on the next; text columns alphabetically.
 * @param {HTMLTableElement} table
 * @param {number} k
 */
function sortTable(table, k) {
  const ths = Array.from(table.tHead.rows[0].cells);
  const was = ths[k].getAttribute('aria-sort');
  const value = (/** @type {HTMLTableRowElement} */ r) => {
    const t = (r.cells[k] && r.cells[k].textContent) || '';
    const n = Number(t.replace(/[,\s]/g, '').replace('·', '0'));
    return Number.isFinite(n) && t !== '' ? n : t.toLowerCase();
  };
  const rows = Array.from(table.tBodies[0].rows);
  const numeric = rows.every((r) => typeof value(r) === 'number');
  const firstDesc = numeric && k !== 0;
  const desc = was ? was === 'ascending' : firstDesc;
  rows.sort((a, b) => {
    const x = value(a), y = value(b);
    const c = x < y ? -1 : x > y ? 1 : 0;
    return desc ? -c : c;
  });
  table.tBodies[0].append(...rows);
  ths.forEach((th, j) => { if (j === k) th.setAttribute('aria-sort', desc ? 'descending' : 'ascending'); else th.removeAttribute('aria-sort'); });
}

/**
 * attachSources reads kernel .py files the user picked or dropped: their text shows beside the
 * lines (the source view and the pane beside the listing, the 'sourceTexts' event).
 * @param {File[]} files
 */
export async function attachSources(files) {
  return loadTexts(files);
}

async function loadTexts(files) {
  for (const f of files) {
    try {
      texts.set(f.name, (await f.text()).split(/\r?\n/));
    } catch (e) {
      toast('Reading ' + f.name + ': ' + e.message);
    }
  }
  if (shown) { draw(root, shown); markCurrent(root); }
  emit('sourceTexts', {});
}

// markCurrent highlights the row of the line of the instruction selected last.
function markCurrent(v) {
  for (const r of v.querySelectorAll('.src-row.current')) r.classList.remove('current');
  if (!current) return;
  const row = /** @type {HTMLElement | null} */ (Array.from(v.querySelectorAll('.src-row')).find((r) => /** @type {HTMLElement} */ (r).dataset.key === current.key) || null);
  if (!row) return;
  row.classList.add('current');
  const b = /** @type {HTMLElement | null} */ (row.querySelector('.src-line'));
  if (b) {
    for (const x of v.querySelectorAll('.src-line')) /** @type {HTMLElement} */ (x).tabIndex = -1;
    b.tabIndex = 0;
  }
  row.scrollIntoView({ block: 'nearest' });
}

// rowKeys: Up/Down/Home/End move between the line buttons (one tab stop), Enter follows.
function rowKeys(e) {
  const b = closestTo(e, '.src-line');
  if (!b) return;
  const all = /** @type {HTMLElement[]} */ (Array.from(root.querySelectorAll('.src-line')));
  const i = all.indexOf(b);
  let j = -1;
  switch (e.key) {
    case 'ArrowDown': j = Math.min(all.length - 1, i + 1); break;
    case 'ArrowUp': j = Math.max(0, i - 1); break;
    case 'Home': j = 0; break;
    case 'End': j = all.length - 1; break;
    default: return;
  }
  e.preventDefault();
  all.forEach((x, k) => { x.tabIndex = k === j ? 0 : -1; });
  all[j].focus();
}

/**
 * sourceJump selects a line (a history entry: back returns to it) and then shows its first
 * instruction in the listing.
 * @param {Node} line
 */
export async function sourceJump(line) {
  if (!line) return;
  if (state.selected !== line) select(line, 'link');
  const w = lineWords(line);
  if (!w.length) { toast(line.key + ' produced no instruction words'); return; }
  await instructionAt(w[0].member, w[0].index);
}

/**
 * sourceOpen shows the source view (the keyboard's shortcut and the overview's answer), then
 * calls shown; false when the document has no source view. While the source lines are still
 * being mapped it does so once they are.
 * @param {() => void} [shown]
 */
export function sourceOpen(shown) {
  const s = sourceNode();
  if (s) { select(s, 'link'); if (shown) shown(); }
  else if (state && state.sourceWait) {
    const st = state;
    st.sourceWait.then(() => { if (state === st && sourceNode()) sourceOpen(shown); }, () => {});
    return true;
  }
  return !!s;
}
