// @ts-check
// The detail pane: the selected node's fields, tables and findings, renderers by kind.

import { el } from '../dom.js';
import { download } from '../lib/download.js';
import { tableCSV } from '../lib/csv.js';
import { fileStem, fmtInt, spanText } from '../lib/format.js';
import { kindOf, parentOf, pathOf, state } from '../state/docs.js';
import { on } from '../state/events.js';
import { select } from '../state/selection.js';
import { renderContextOffer } from './context.js';
import { findingItem } from './findings.js';
import { activateSpan, detailRefocus, gridify, gridKeyOf, rovingList } from './grid.js';
import { hexShow } from './hex.js';
import { follow, linkFollowable } from './overview.js';
import { childCount } from '../lib/lazy.js';
import { lineWords } from '../lib/words.js';
import { instructionAt } from './listing.js';
import { renderScheduleLink, scheduleLinkWhen } from './schedule.js';
import { sourceJump } from './source.js';
import { mainTree } from './tree.js';
import { ATTR, DOC_KIND, KIND } from '../lib/vocab.gen.js';

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
  const head = tableHead(title || 'Table · ' + fmtInt(rows.length) + (rows.length === 1 ? ' row' : ' rows'), t, node.label || node.key);
  box.appendChild(head);
  box.appendChild(wrap);
  gridify(table, { labelledBy: head.firstChild, total: rows.length, key: gridKeyOf(node, 'table') });
  if (rows.length > limit) box.appendChild(el('p', 'muted', 'Showing the first ' + fmtInt(limit) + ' rows.'));
}

function renderChildren(node, box) {
  const total = childCount(node);
  const kids = node.kids || [];
  const h = el('h3', '', (total === 1 ? '1 child' : fmtInt(total) + ' children') + (kids.length < total ? ' · ' + fmtInt(kids.length) + ' fetched (expand it in the tree for more)' : ''));
  box.appendChild(h);
  const table = el('table', 'grid kv');
  const tbody = el('tbody');
  kids.slice(0, 2000).forEach((c) => {
    const tr = el('tr', 'clickable');
    tr.appendChild(el('td', 'k', c.label));
    tr.appendChild(el('td', 'v', c.value || ''));
    tr.addEventListener('click', () => select(c, 'detail'));
    tbody.appendChild(tr);
  });
  table.appendChild(tbody);
  box.appendChild(table);
  gridify(table, { labelledBy: h, total: kids.length, key: gridKeyOf(node, 'children') });
}

function renderSeries(node, box) {
  // Plots arrive with the activation-table decoder; until then list what would be drawn.
  box.appendChild(el('h3', '', 'Series'));
  for (const s of node.series) box.appendChild(el('p', 'muted', s.name + ': ' + fmtInt((s.x || []).length) + ' points'));
}

// insButton is a button that shows instruction i of a stream member in the listing.
function insButton(member, i, text) {
  const b = el('button', 'link ins-link', text);
  /** @type {HTMLButtonElement} */ (b).type = 'button';
  b.dataset.member = member;
  b.dataset.index = String(i);
  b.title = 'Show ' + member + ' #' + i + ' in the listing';
  b.addEventListener('click', () => instructionAt(member, i));
  return b;
}

// renderVarUses: a def.json variable's instructions (the 0xD4 words that name it), each a link
// to the listing with that instruction selected.
function renderVarUses(n, box) {
  const t = n.table;
  const rows = (t && t.rows) || [];
  const head = el('h3', '', rows.length ? 'Instructions that name ' + n.label + ' · ' + fmtInt(rows.length) : 'No instruction names ' + n.label);
  box.appendChild(head);
  if (!rows.length) return;
  const table = el('table', 'grid var-uses');
  const hr = el('tr');
  for (const c of t.cols) hr.appendChild(el('th', '', c));
  const thead = el('thead');
  thead.appendChild(hr);
  table.appendChild(thead);
  const tbody = el('tbody');
  rows.slice(0, 2000).forEach((r, k) => {
    const tr = el('tr');
    const sp = t.rspans && t.rspans[k];
    r.forEach((cell, j) => {
      const td = el('td');
      if (j === 1 && sp) td.appendChild(insButton(sp.src || r[0], Math.floor(sp.off / 64), '#' + cell));
      else td.textContent = cell;
      tr.appendChild(td);
    });
    tbody.appendChild(tr);
  });
  table.appendChild(tbody);
  box.appendChild(table);
  if (rows.length > 2000) box.appendChild(el('p', 'muted', 'Showing the first 2,000.'));
}

// renderLineWords: a kernel source line's instructions per stream, each a link to the listing.
function renderLineWords(n, box) {
  const words = lineWords(n);
  const go = el('button', 'button small primary line-go', 'Show its first instruction in the listing');
  /** @type {HTMLButtonElement} */ (go).type = 'button';
  go.addEventListener('click', () => sourceJump(n));
  box.appendChild(go);
  const by = new Map();
  for (const w of words) { if (!by.has(w.member)) by.set(w.member, []); by.get(w.member).push(w.index); }
  box.appendChild(el('h3', '', 'Instructions · ' + fmtInt(words.length) + (n.attrs.words_cut ? ' (the first)' : '')));
  for (const [member, idx] of by) {
    const p = el('p', 'line-words');
    p.appendChild(el('span', 'mono', member + ': '));
    idx.slice(0, 200).forEach((i) => { p.appendChild(insButton(member, i, '#' + i)); p.appendChild(document.createTextNode(' ')); });
    if (idx.length > 200) p.appendChild(el('span', 'muted', '… ' + fmtInt(idx.length - 200) + ' more'));
    box.appendChild(p);
  }
}

// renderRelated: an instruction's links (its kernel source line, the variables it moves, its
// set or function) as buttons at the top of its detail.
function renderRelated(n, box) {
  const links = [];
  (function walk(m, depth) {
    for (const c of m.kids || []) {
      if (c.link && linkFollowable(c.link)) links.push(c);
      else if (c.attrs && c.attrs.block === '' && c.attrs.queue) links.push(c); // a DMA word's block the evidence does not name
      if (depth < 2) walk(c, depth + 1);
    }
  })(n, 0);
  if (!links.length) return;
  const row = el('div', 'related');
  row.appendChild(el('span', 'muted', 'Related: '));
  for (const c of links) {
    if (!c.link) {
      const u = el('span', 'related-unknown', c.label + ' ' + (c.value || ''));
      u.dataset.label = c.label;
      u.dataset.block = '';
      u.title = c.detail || '';
      row.appendChild(u);
      continue;
    }
    const b = el('button', 'link related-link', c.label + ' ' + (c.value || ''));
    if (c.attrs && c.attrs.queue) b.dataset.queue = c.attrs.queue; // a DMA word's queue and block (rowlinks.go)
    if (c.attrs && c.attrs.block) b.dataset.block = c.attrs.block;
    /** @type {HTMLButtonElement} */ (b).type = 'button';
    b.dataset.link = c.link;
    b.dataset.label = c.label;
    b.title = 'Go to ' + c.link.split('/').map(decodeURIComponent).join(' › ');
    b.addEventListener('click', () => follow(c.link));
    row.appendChild(b);
  }
  const at = box.querySelector('.d-path');
  if (at) at.after(row); else box.appendChild(row);
}

// renderQueueRow: a DMA queue's node (rowlinks.go) shows its core's DMA queues table with its
// own row selected, revealed and the grid's active cell, so a followed link lands on the row.
function renderQueueRow(n, box) {
  const qs = parentOf(n);
  const t = qs && qs.table;
  const row = Number(n.attrs[ATTR.QUEUE_ROW]);
  if (!t || !t.rows || !(row >= 0 && row < t.rows.length)) return;
  const head = tableHead('DMA queues of ' + (pathOf(qs).slice(-2, -1)[0] || '') + ' · ' + fmtInt(t.rows.length), t, qs.label);
  const wrap = el('div', 'table-wrap');
  const table = el('table', 'grid queue-rows');
  table.dataset.table = 'dma_queues';
  const hr = el('tr');
  for (const c of t.cols || []) hr.appendChild(el('th', '', c));
  const thead = el('thead');
  thead.appendChild(hr);
  table.appendChild(thead);
  const tbody = el('tbody');
  t.rows.forEach((r, i) => {
    const tr = el('tr', 'clickable');
    tr.dataset.row = String(i);
    r.forEach((cell) => tr.appendChild(el('td', '', cell)));
    if (i === row) { tr.classList.add('selected', 'row-target'); tr.setAttribute('aria-selected', 'true'); }
    // Another queue's row goes to that queue's node (its sibling), as the link did to this one.
    const q = (qs.kids || []).find((c) => c.attrs && c.attrs[ATTR.QUEUE_ROW] === String(i));
    if (q && q !== n) tr.addEventListener('click', () => select(q, 'detail'));
    tbody.appendChild(tr);
  });
  table.appendChild(tbody);
  wrap.appendChild(table);
  box.appendChild(head);
  box.appendChild(wrap);
  gridify(table, { labelledBy: head.firstChild, total: t.rows.length, row });
  const at = table.querySelector('tr.selected');
  if (at) at.scrollIntoView({ block: 'nearest', inline: 'nearest' });
}

const isVar = (n) => !!(n.attrs && n.attrs.var !== undefined);

/**
 * memberHashText says where a member's sha-256 is while the page computes the members' sha-256
 * after the open (features/open.js): computing (how far), or why not.
 * @param {{state: string, done?: number, total?: number, message?: string}} h
 * @returns {string}
 */
function memberHashText(h) {
  if (h.state === 'failed') return 'sha-256: not computed (' + (h.message || 'the core stopped') + ')';
  const pct = h.total ? ' ' + Math.min(99, Math.floor((100 * (h.done || 0)) / h.total)) + '%' : '';
  return 'sha-256: computing…' + pct + ' (the members\' sha-256 are computed after the open, reading the archive again)';
}

// renderMemberHash says, on a member or the members table, that the sha-256 is still to come.
function renderMemberHash(n, box) {
  const h = state.memberHashes;
  const p = el('p', 'd-sha muted', memberHashText(h));
  p.id = 'member-sha';
  if (h.state === 'failed' && state.hashMembers) {
    const b = el('button', 'link', 'Compute the sha-256');
    b.type = 'button';
    b.addEventListener('click', () => state.hashMembers());
    p.appendChild(document.createTextNode(' '));
    p.appendChild(b);
  }
  const at = box.querySelector('.d-detail') || box.querySelector('.d-path');
  if (at) at.after(p); else box.appendChild(p);
}

// DETAIL_RENDERERS: extra sections of the detail pane, by what a node carries.
const DETAIL_RENDERERS = [
  { when: (n) => (n.kind === KIND.MEMBER || n.kind === KIND.ARCHIVE) && !!state.memberHashes && state.memberHashes.state !== 'done', render: renderMemberHash },
  { when: (n) => n.kind === KIND.INSTRUCTION, render: renderRelated },
  { when: scheduleLinkWhen, render: renderScheduleLink }, // views/schedule.js
  { when: isVar, render: renderVarUses },
  { when: (n) => !!(n.attrs && n.attrs[ATTR.QUEUE_ROW] !== undefined), render: renderQueueRow },
  { when: (n) => !!(n.attrs && n.attrs.words !== undefined), render: renderLineWords },
  { when: (n) => n.kind === KIND.PWP_SET, render: renderSetFunctions },
  { when: (n) => n.kind === KIND.PWP_FUNCTION, render: renderOctaves },
  // Only a file of no recognised kind could be a raw libncfw context (a PNG is not one).
  { when: (n) => n === state.doc.root && state.doc.kind === DOC_KIND.BINARY && !(n.attrs && n.attrs.looks_like), render: renderContextOffer },
  // A DMA block's descriptors (rowlinks.go): the engine JSON's desc[] as a table.
  { when: (n) => !!(n.table && n.table.cols && n.attrs && n.attrs[ATTR.BLOCK]), render: (n, box) => renderTable(n, box, 'Descriptors · ' + fmtInt(n.table.rows.length)) },
  { when: (n) => n.table && n.table.cols && !isVar(n) && !(n.attrs && n.attrs[ATTR.BLOCK]), render: renderTable },
  { when: (n) => n.series && n.series.length, render: renderSeries },
  { when: (n) => !n.table && childCount(n) > 0 && n.kind !== KIND.MEMBER, render: renderChildren },
];

/** @type {HTMLElement} the pane's body (#detail) */
let box;

/**
 * detailInit: the detail pane follows the selection, and what a view picked inside itself
 * (the listing's instruction, a context's field); it is a place for the focus when it is
 * drawn again (detailRefocus).
 * @param {HTMLElement} root
 */
export function detailInit(root) {
  box = root;
  box.tabIndex = -1;
  on('select', ({ n }) => renderDetail(n));
  on('picked', ({ n }) => renderDetail(n));
  on('memberHashes', ({ st, progress }) => { if (state === st) memberHashesChanged(progress); });
  // (The overview, where an open lands, is drawn again in place: its detail too.)
  on('patched', (p) => { if (p.sel && p.st.info.has(p.sel) && p.sel.kind === KIND.OVERVIEW) { renderDetail(p.sel); p.shown = true; } });
}

/** detailClear empties the pane (a file's first overview shows before its document). */
export function detailClear() {
  box.replaceChildren();
}

/**
 * detailTarget: where the focus lands when a link named a row of a table here (a DMA queue's
 * row of its core's queues table), or null.
 * @returns {HTMLElement | null}
 */
export function detailTarget() {
  return box.querySelector('tr.row-target [tabindex="0"]');
}

// memberHashesChanged: the members' sha-256 of the document on show came closer (progress:
// the count on the selected member's line), or arrived (or failed): the selection's detail
// is drawn again where they show.
function memberHashesChanged(progress) {
  if (progress) {
    const line = box.querySelector('.d-sha');
    if (line && line.firstChild) line.firstChild.textContent = memberHashText(state.memberHashes);
    return;
  }
  const n = state.selected;
  if (!n) return;
  if (n.kind === KIND.ARCHIVE) select(n, 'hash');
  else if (n.kind === KIND.MEMBER) renderDetail(n);
}

/**
 * renderDetail fills the detail pane for n: its fields, detail text, tables and findings,
 * with the renderers of DETAIL_RENDERERS that apply.
 * @param {import('../wire.js').Node} n
 */
export function renderDetail(n) {
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
  // A limit of what a view shows (attrs.view_limit) is a note here, not a finding.
  if (n.attrs && n.attrs.view_limit) {
    const note = el('p', 'd-view-limit muted', n.attrs.view_limit);
    note.setAttribute('role', 'note');
    box.appendChild(note);
  }
  if (n.link && linkFollowable(n.link)) {
    // A node that leads elsewhere (an engine's stream → the member with its listing).
    const a = el('button', 'd-link link', 'Go to ' + n.link.split('/').map(decodeURIComponent).join(' › '));
    a.type = 'button';
    a.addEventListener('click', () => follow(n.link));
    box.appendChild(a);
  }
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
