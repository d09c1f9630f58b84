// @ts-check
// The comparison of two NEFFs, a page of its own with a tab: A and B, then the sections
// (summary, why it recompiled, kernel lines, header, model, members, instructions), each row a
// jump to A or B.

import { call } from '../../core/client.js';
import { $, el } from '../../dom.js';
import { download, exporting } from '../../lib/download.js';
import { tableCSV } from '../../lib/csv.js';
import { fileStem, fmtInt, fmtSize } from '../../lib/format.js';
import { docs, keyOf, state, switchDoc } from '../../state/docs.js';
import { on } from '../../state/events.js';
import { showPage } from '../../state/screen.js';
import { unpackNode } from '../../wire.js';
import { search, searchClose } from '../search.js';
import { tabsDraw } from '../tabs.js';
import { CHANGE_MARK, CHANGE_TITLE, changesOf, diff, DIFF_ROWS, diffJump, diffJumpLine, diffJumpWord, docTitle, handleFor, kidOf, shortSHA, targetOf } from './compare.js';

/** @type {HTMLElement} the page's root (#diff-view) */
let root;

// compare asks the core for the diff of a and b and shows it.
export async function compare(a, b) {
  const seq = ++diff.seq;
  Object.assign(diff, { a, b, node: null, error: '', ms: 0 });
  showDiff();
  const t0 = performance.now();
  try {
    const ha = await handleFor(a);
    const hb = await handleFor(b);
    const r = await call('diff', { a: ha, b: hb });
    if (seq !== diff.seq) return;
    diff.node = unpackNode(r.node);
  } catch (e) {
    if (seq !== diff.seq) return;
    diff.error = e.message;
  }
  if (diff.shown) diffRender();
  diff.ms = performance.now() - t0; // core diff, transfer, decode and render: for tests
}

// showDiff shows the comparison's page (drawn anew, with its tab, when it is on show already).
function showDiff() {
  if (!diff.a || !diff.b) return;
  if (!diff.shown) { showPage('diff'); return; }
  diffShow();
  tabsDraw();
}

/** diffShow: the comparison's page shows (the document's search closes). */
export function diffShow() {
  if (search.q) searchClose();
  diffRender();
  $('diff-body').focus({ preventScroll: true });
}

// diffTabs: the tab strip's hook — numbers tabs of the same name, marks A and B, and adds the
// comparison's tab.
function diffTabs(nav) {
  nav.querySelectorAll('.doc-tab').forEach((b) => {
    const d = docs[Number(b.dataset.index)];
    if (d && docs.some((x) => x !== d && x.doc.file === d.doc.file)) b.insertBefore(el('span', 'tab-n', '#' + (docs.indexOf(d) + 1)), b.lastChild);
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
    t.addEventListener('click', () => showDiff());
    nav.appendChild(t);
    nav.hidden = false;
  }
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
    b.addEventListener('click', () => switchDoc(docs.indexOf(st)));
    box.appendChild(b);
  });
}

// setHideSame shows only the differences (on) or every row, keeping the checkbox in step.
function setHideSame(on) {
  diff.hideSame = on;
  $('diff-hide-same').checked = on;
  $('diff-body').classList.toggle('hide-same', on);
}

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
      li.dataset.code = f.code || '';
      li.appendChild(el('span', 'sev', f.sev));
      li.appendChild(el('span', 'msg', f.msg));
      ol.appendChild(li);
    }
    body.appendChild(ol);
  }
  const header = kidOf(d, 'header'), model = kidOf(d, 'model'), instr = kidOf(d, 'instructions');
  const recompile = kidOf(d, 'recompile'); // two compile-cache entries: why they differ first
  if (recompile) body.appendChild(diffRecompileSection(recompile));
  // What changed in the kernel comes before which bytes changed: the core leaves
  // the section out when neither file has debug info.
  const lines = kidOf(d, 'source lines');
  if (lines) body.appendChild(diffSourceSection(lines, kidOf(d, 'source instructions')));
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
        if (!k && diff.hideSame) setHideSame(false);
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

// diffRecompileSection: the two cache keys and compilers, and the reasons, most telling first.
function diffRecompileSection(n) {
  const rows = ((n.table && n.table.rows) || []).map(([k, a, b]) => [k, a, b, a !== b ? 'changed' : '']);
  const s = diffFieldsSection('recompile', 'Why it recompiled', Object.assign({}, n, { table: { cols: n.table && n.table.cols, rows } }), 'key', 'cache keys are MODULE_<graph hash>+<flags hash>, one cache per compiler');
  // The head shows the first reason; more get a list.
  const ol = el('ol', 'diff-reasons');
  for (const r of n.kids || []) ol.appendChild(el('li', '', r.value));
  if ((n.kids || []).length > 1) s.insertBefore(ol, s.children[1] || null);
  return s;
}

// How a kernel line differs (the core's "change" column) as a row class and its mark: a line
// with other counts or opcodes is changed, one with other operands only is "operands".
const LINE_CHANGE = { count: 'changed', opcodes: 'changed', operands: 'operands', added: 'added', removed: 'removed' };
const LINE_WHY = { count: 'other instruction counts per engine', opcodes: 'same counts, other opcodes', operands: 'same opcodes, other operands (outside the sync band)', added: 'only in B', removed: 'only in A' };

// lineKey is a kernel line's key under model › source › lines: the file's base name and line.
const lineKey = (file, line) => (file ? file.slice(file.lastIndexOf('/') + 1) : '?') + ':' + line;

// diffSourceSection: the kernel lines whose instructions differ, most changed first, each with
// the first words that differ (the "source instructions" rows of that line) and jumps to the
// line and to each word in A and B.
function diffSourceSection(node, words) {
  const s = diffSection('source', 'Kernel lines', node, 'instruction words per kernel line: counts per engine, opcodes, or bytes outside the sync band');
  const rows = (node.table && node.table.rows) || [];
  if (!rows.length) {
    if (!/^not compared/.test(node.value || '')) {
      s.classList.add('nodiff');
      s.appendChild(el('p', 'diff-none', 'No kernel line differs.'));
    }
    return s;
  }
  const wordRows = (words && words.table && words.table.rows) || [];
  const table = el('table', 'grid diff-table diff-source');
  table.appendChild(diffHead([['', 'mark'], ['line'], ['kernel'], ['count A', 'num'], ['count B', 'num'], ['Δ', 'num'], ['engines'], ['opcodes'], ['show', 'open']]));
  const tbody = el('tbody');
  rows.forEach((r, i) => {
    const [name, kernel, ca, cb, delta, engines, opcodes, why] = r;
    const attrs = ((node.kids || [])[i] || {}).attrs || {};
    const change = LINE_CHANGE[why] || 'changed';
    const tr = el('tr', change);
    tr.dataset.line = name;
    tr.dataset.change = why;
    const mark = markCell(change);
    mark.title = LINE_WHY[why] || why;
    tr.appendChild(mark);
    const td = el('td', 'path');
    const mine = wordRows.filter((w) => w[0] === name);
    if (mine.length) td.appendChild(twisty(tr, 9, 'Show the instructions of ' + name + ' that differ', (box) => sourceWords(box, mine)));
    else td.appendChild(el('span', 'dtwisty-pad'));
    td.appendChild(el('span', 'stream-name', name));
    tr.appendChild(td);
    const k = el('td', 'muted', kernel);
    k.title = kernel;
    tr.appendChild(k);
    tr.appendChild(ca === '' ? el('td', 'num empty', '—') : el('td', 'num', fmtInt(Number(ca))));
    tr.appendChild(cb === '' ? el('td', 'num empty', '—') : el('td', 'num' + (ca !== '' && ca !== cb ? ' differs' : ''), fmtInt(Number(cb))));
    tr.appendChild(el('td', 'num delta ' + (delta.startsWith('-') ? 'neg' : delta === '+0' ? '' : 'pos'), delta));
    tr.appendChild(el('td', '', engines));
    tr.appendChild(el('td', 'ops', opcodes || (why === 'operands' ? CHANGE_TITLE.operands : '')));
    const open = el('td', 'open');
    const jump = (side, key) => {
      const b = el('button', 'jump side-' + side, side.toUpperCase());
      b.type = 'button';
      b.dataset.side = side;
      b.title = 'Show ' + key + ' in ' + side.toUpperCase() + ' (' + docTitle(side === 'a' ? diff.a : diff.b) + ')';
      b.setAttribute('aria-label', b.title);
      b.addEventListener('click', () => diffJumpLine(side, key));
      return b;
    };
    open.appendChild(ca !== '' ? jump('a', lineKey(attrs.file, attrs.line)) : jumpPad());
    if (cb !== '') open.appendChild(jump('b', lineKey(attrs.file, attrs.line_b || attrs.line)));
    tr.appendChild(open);
    tbody.appendChild(tr);
  });
  table.appendChild(tbody);
  return sealSection(s, table);
}

// sourceWords lists a changed line's first differing words, A beside B, each a jump to its
// instruction in that document's listing.
function sourceWords(box, rows) {
  const t = el('table', 'grid diff-table sub-table');
  t.appendChild(diffHead([['engine'], ['word', 'num'], ['A', 'col-a'], ['B', 'col-b']]));
  const tb = el('tbody');
  for (const [, engine, nth, sa, ia, ta, sb, ib, tbText] of rows) {
    const r = el('tr', 'changed');
    r.appendChild(el('td', 'k', engine));
    r.appendChild(el('td', 'num', nth));
    const side = (which, stream, index, text) => {
      if (!stream) return el('td', 'empty', '—');
      const td = el('td', which === 'a' ? 'va' : 'vb');
      const b = el('button', 'link word-link', stream + ' #' + index);
      b.type = 'button';
      b.dataset.side = which;
      b.title = 'Show ' + stream + ' #' + index + ' in ' + which.toUpperCase();
      b.addEventListener('click', () => diffJumpWord(which, stream, Number(index)));
      td.appendChild(b);
      td.appendChild(el('span', 'muted', ' ' + text));
      return td;
    };
    r.appendChild(side('a', sa, ia, ta));
    r.appendChild(side('b', sb, ib, tbText));
    tb.appendChild(r);
  }
  t.appendChild(tb);
  box.appendChild(t);
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
  if (!diff.a || !diff.b || !state) return Promise.resolve();
  const a = diff.a, b = diff.b;
  return exporting('the comparison', async () => {
    const r = await call('diff', { a: await handleFor(a), b: await handleFor(b), format: 'json' });
    download([r.json], fileStem(a.doc.file) + '_vs_' + fileStem(b.doc.file) + '.diff.json', 'application/json');
  });
}

/**
 * diffInit wires the page's bar; the comparison has a tab of its own (the tab strip's hook).
 * Its documents' bookkeeping is state/comparison.js's: it is dropped when one of them closes.
 * @param {HTMLElement} view the page's root
 */
export function diffInit(view) {
  root = view;
  on('tabs', (strip) => { diffTabs(strip.nav); strip.diffShown = diff.shown; });
  $('diff-close').addEventListener('click', () => showPage('document'));
  $('diff-swap').addEventListener('click', () => { if (diff.a && diff.b) compare(diff.b, diff.a); });
  $('diff-export').addEventListener('click', () => exportDiff());
  $('diff-hide-same').addEventListener('change', (e) => {
    setHideSame(/** @type {HTMLInputElement} */ (e.target).checked);
  });
  root.addEventListener('keydown', (e) => {
    if (e.key === 'Escape' && !e.defaultPrevented) { e.preventDefault(); showPage('document'); }
  });
}
