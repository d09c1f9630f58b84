// @ts-check
// Tables as WAI-ARIA data grids (roving tabindex, remembered active cell) and roving lists.

import { pathOf, state } from '../state/docs.js';
import { select } from '../state/selection.js';
import { fieldMarks, hexShow } from './hex.js';

// (The tree is an ARIA tree in views/tree.js; the hex view's byte cursor is in views/hex.js;
// the instruction listing's grid is listingAria in views/listing.js.)

// ---- tables: WAI-ARIA APG "data grid" ----
// One cell is in the tab order (roving tabindex); arrows move it by a cell, Home/End to the
// row's ends, Ctrl+Home/End to the grid's corners, PageUp/PageDown by a screenful; Enter
// activates the row exactly as a click does (the row's own click listener runs).

let gridSeq = 0;
// Where each table's active cell was (by document, node and table), so a table rebuilt when
// its node is selected again (Back, a link) comes back at the same cell.
const gridMemory = new Map();
export const gridKeyOf = (node, name) => state.uid + '|' + pathOf(node).join('/') + '|' + name;

// gridify makes a built <table> a grid. o: {labelledBy: element, label, total: rows in the
// data (more than are shown when the table is capped), key: for gridMemory, row: the data row
// (0-based) whose first cell is active, over what gridMemory remembers}.
export function gridify(table, o) {
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
    if (o.row !== undefined && rows[head + o.row]) gridSetActive(g, head + o.row, 0, false); // the row a link named
    else if (mem && rows[mem[0]] && rows[mem[0]].cells[mem[1]]) gridSetActive(g, mem[0], mem[1], false);
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
  const pane = (g.table.closest('.detail') || g.table).getBoundingClientRect();
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
export function detailRefocus(box) {
  const cell = box.querySelector('[role="grid"] [tabindex="0"]');
  const target = cell || box;
  target.focus({ preventScroll: true });
  // Only for the keyboard: a mouse user's pane does not jump to the table.
  if (cell && cell.matches(':focus-visible')) cell.scrollIntoView({ block: 'nearest', inline: 'nearest' });
}

// rovingList makes a list of focusable items (the findings) one tab stop: Up/Down,
// Home/End and PageUp/PageDown move among its items, Enter still picks one.
export function rovingList(list, sel) {
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
export function activateSpan(rs) {
  const t = spanTarget(rs);
  if (!t || t.node === state.doc.root) { hexShow(rs.src || '', rs, true); return; }
  select(t.node, 'table');
  if (!t.exact) hexShow(rs.src || '', rs, true, fieldMarks(t.node, rs.src || ''));
}
