// @ts-check
// An XLA HLO module (core/hlo) in the content pane. Where its document lands, the module at a
// glance, the page's width (the tree, details and bytes are drawers, as for a NEFF's
// overview): the kernels its custom calls run (each backend_config decoded, a temporary path
// flagged), its instructions, its frontend attributes. For a computation or an instruction
// picked in the tree, above its bytes: the computation's instructions, or the instruction's
// wiring (operands, users, the kernel it calls). Everything is drawn from the core's nodes:
// the "instructions" table and its row spans, the "kernel calls" group, the attributes table.

import { el } from '../dom.js';
import { fmtInt } from '../lib/format.js';
import { adoptStyle } from '../lib/style.js';
import { parentOf, state } from '../state/docs.js';
import { on } from '../state/events.js';
import { select } from '../state/selection.js';
import { findingItem } from './findings.js';
import { activateSpan, gridify } from './grid.js';
import { drawerButtons, setDashboard } from './layout.js';
import { ATTR, DOC_KIND, KIND } from '../lib/vocab.gen.js';

/** @typedef {import('../wire.js').Node} Node */
/** @typedef {import('../wire.js').Span} Span */

// The instructions table's columns (core/hlo wiring.go overview).
const COL = { computation: 0, id: 1, name: 2, opcode: 3, shape: 4, operands: 5, calls: 6, source: 7 };
// Rows built at once; "show more" builds the next.
const ROWS = 2000;

/** @type {HTMLElement} the view's root (#hlo-view) */
let root;
// dash: this view put the page in the dashboard (the module shows); only then does it take it away.
let dash = false;

/**
 * hloInit: the view hides when another document shows.
 * @param {HTMLElement} box
 */
export function hloInit(box) {
  root = box;
  root.className = 'hlo-view';
  root.setAttribute('role', 'region');
  root.setAttribute('aria-label', 'HLO module');
  on('document', hloHide);
  adoptStyle(CSS, 'the HLO module view');
}

// The module's own nodes: its root's children (kernel calls, instructions, attributes, fields).
const part = (label) => (state.doc.root.kids || []).find((c) => c.label === label) || null;

/**
 * hloOf: what the view shows for n in an HLO module's document — the module (n is the root,
 * or one of its summary sections), a computation, an instruction (or a value of a kernel
 * call's config: its call) — or null.
 * @param {Node} n
 */
export function hloOf(n) {
  if (!state || state.doc.kind !== DOC_KIND.HLO_MODULE) return null;
  const top = state.doc.root;
  if (n === top || (parentOf(n) === top && n.label !== 'fields')) return { mode: 'module', section: n === top ? '' : n.label };
  if (n.kind === KIND.HLO_COMPUTATION) return { mode: 'computation', n };
  if (n.kind === KIND.HLO_INSTRUCTION) return { mode: 'instruction', n };
  const p = parentOf(n);
  if (p && p.kind === KIND.HLO_INSTRUCTION && parentOf(p) === part('kernel calls')) return { mode: 'instruction', n: p, leaf: n };
  return null;
}

/**
 * hloShow draws what hloOf answered.
 * @param {{mode: string, section?: string, n?: Node, leaf?: Node}} x
 */
export function hloShow(x) {
  root.hidden = false;
  root.dataset.mode = x.mode;
  const module = x.mode === 'module';
  if (module !== dash) { dash = module; setDashboard(module); }
  root.replaceChildren();
  if (module) moduleView(x.section || '');
  else if (x.mode === 'computation') computationView(/** @type {Node} */ (x.n));
  else instructionView(/** @type {Node} */ (x.n), x.leaf || null);
}

/** hloHide hides the view (and the dashboard, when it was this view's). */
export function hloHide() {
  root.hidden = true;
  if (dash) { dash = false; setDashboard(false); }
}

// ---- the module at a glance ----

function moduleView(section) {
  const top = state.doc.root;
  const head = el('div', 'hlo-head');
  head.appendChild(el('h2', 'hlo-title', state.doc.file));
  const sub = el('span', 'hlo-sub muted', top.value || '');
  head.appendChild(sub);
  head.appendChild(drawerButtons());
  root.appendChild(head);
  const graph = top.attrs && top.attrs[ATTR.GRAPH];
  const facts = el('p', 'hlo-facts muted');
  facts.appendChild(document.createTextNode('XLA HloModuleProto · ' + fmtInt(state.doc.size) + ' bytes · graph '));
  const g = el('code', 'hlo-graph', graph || 'unknown');
  g.id = 'hlo-graph';
  g.title = graph ? 'The graph digest: volatile values and metadata left out. neffscope scan groups cache entries by it; neffscope diff prints it as graph_a and graph_b.' : 'The module was read only in part: it has no graph digest';
  facts.appendChild(g);
  root.appendChild(facts);
  for (const f of top.finds || []) root.appendChild(findingLine(f, top));
  const calls = part('kernel calls');
  const sec = section || '';
  if (calls) {
    const s = sectionBox('calls', 'Kernel calls', calls.value || '', 'each custom call, the kernel it runs and its backend_config');
    for (const c of calls.kids || []) s.appendChild(callCard(c, null));
    root.appendChild(s);
  }
  const instr = part('instructions');
  if (instr && instr.table) {
    const s = sectionBox('instructions', 'Instructions', instr.value || '', 'a row selects the instruction in the fields (and its bytes)');
    s.appendChild(instructionTable(instr, 0, Infinity));
    root.appendChild(s);
  }
  const attrs = part('frontend attributes');
  if (attrs && attrs.table) root.appendChild(attributesSection(attrs));
  const target = sec && root.querySelector('[data-section="' + { 'kernel calls': 'calls', instructions: 'instructions', 'frontend attributes': 'attributes' }[sec] + '"]');
  if (target) target.scrollIntoView({ block: 'start' });
  else root.scrollTop = 0;
}

function sectionBox(key, title, value, note) {
  const s = el('section', 'hlo-sec');
  s.dataset.section = key;
  const h = el('div', 'hlo-sec-head');
  h.appendChild(el('h3', '', title));
  if (value) h.appendChild(el('span', 'hlo-sec-value', value));
  if (note) h.appendChild(el('span', 'muted hlo-sec-note', note));
  s.appendChild(h);
  return s;
}

function findingLine(f, n) {
  const ol = el('ol', 'findings-list inline hlo-finds');
  ol.appendChild(findingItem(f, n));
  return ol;
}

// callCard: one custom call — its kernel, target and instruction, what is flagged on it, and
// its decoded backend_config values, each selecting its bytes (the base64 characters).
function callCard(c, leaf) {
  const card = el('div', 'hlo-call');
  card.dataset.kernel = c.label;
  const head = el('div', 'hlo-call-head');
  const name = el('button', 'link hlo-kernel', c.label);
  name.type = 'button';
  name.title = 'Select the call ' + (c.detail || '');
  name.addEventListener('click', () => select(c, 'hlo'));
  head.appendChild(name);
  head.appendChild(el('code', 'hlo-target', c.value || ''));
  if (c.detail) head.appendChild(el('span', 'muted', c.detail));
  card.appendChild(head);
  for (const f of c.finds || []) card.appendChild(findingLine(f, c));
  const kids = c.kids || [];
  if (kids.length) {
    const table = el('table', 'grid hlo-kv');
    const tb = el('tbody');
    for (const k of kids) {
      const tr = el('tr', 'clickable' + (k === leaf ? ' selected' : ''));
      tr.dataset.key = k.label;
      tr.appendChild(el('td', 'k', k.label));
      tr.appendChild(el('td', 'v', k.value || ''));
      tr.appendChild(el('td', 'muted hlo-meaning', k.detail || ''));
      tr.addEventListener('click', () => select(k, 'hlo'));
      tb.appendChild(tr);
    }
    table.appendChild(tb);
    card.appendChild(table);
    gridify(table, { label: 'backend_config of ' + c.label, total: kids.length });
  }
  return card;
}

// instructionTable: the module's instructions whose bytes lie in [lo, hi) (a computation's),
// capped at ROWS with a "show more"; a row selects its instruction.
function instructionTable(instr, lo, hi) {
  const t = instr.table;
  const rows = [];
  (t.rows || []).forEach((r, i) => {
    const s = t.rspans && t.rspans[i];
    if (!s || (s.off >= lo && s.off < hi)) rows.push(i);
  });
  const many = new Set(rows.map((i) => t.rows[i][COL.computation])).size > 1;
  const cols = t.cols.map((c, j) => j).filter((j) => (j !== COL.computation || many) && (j !== COL.source || rows.some((i) => t.rows[i][j])));
  const wrap = el('div', 'hlo-table-wrap');
  const table = el('table', 'grid hlo-instr');
  table.id = 'hlo-instr';
  const thead = el('thead');
  const hr = el('tr');
  for (const j of cols) hr.appendChild(el('th', j === COL.id ? 'num' : '', t.cols[j]));
  thead.appendChild(hr);
  table.appendChild(thead);
  const tb = el('tbody');
  const build = (from) => {
    for (const i of rows.slice(from, from + ROWS)) {
      const r = t.rows[i];
      const tr = el('tr', 'clickable' + (r[COL.calls] ? ' call' : ''));
      tr.dataset.name = r[COL.name];
      tr.dataset.opcode = r[COL.opcode];
      for (const j of cols) tr.appendChild(el('td', 'c-' + t.cols[j] + (j === COL.id ? ' num' : ''), r[j]));
      const s = t.rspans && t.rspans[i];
      if (s) tr.addEventListener('click', () => activateSpan(s));
      tb.appendChild(tr);
    }
    if (rows.length > from + ROWS) {
      const tr = el('tr', 'more-row');
      const td = el('td');
      td.colSpan = cols.length;
      const more = el('button', 'more', 'show ' + fmtInt(Math.min(ROWS, rows.length - from - ROWS)) + ' more of ' + fmtInt(rows.length - from - ROWS));
      more.type = 'button';
      more.addEventListener('click', () => { tr.remove(); build(from + ROWS); });
      td.appendChild(more);
      tr.appendChild(td);
      tb.appendChild(tr);
    }
  };
  build(0);
  table.appendChild(tb);
  wrap.appendChild(table);
  gridify(table, { label: 'Instructions', total: rows.length });
  return wrap;
}

// attributesSection: the frontend attributes that hold a value, then the keys set empty.
function attributesSection(attrs) {
  const t = attrs.table;
  const s = sectionBox('attributes', 'Frontend attributes', attrs.value || '', attrs.detail || '');
  const set = [], empty = [];
  (t.rows || []).forEach((r, i) => (r[1] === '' ? empty : set).push(i));
  if (set.length) {
    const table = el('table', 'grid hlo-kv hlo-attrs');
    const tb = el('tbody');
    for (const i of set) {
      const tr = el('tr', 'clickable');
      tr.dataset.key = t.rows[i][0];
      tr.appendChild(el('td', 'k', t.rows[i][0]));
      tr.appendChild(el('td', 'v', t.rows[i][1]));
      const sp = t.rspans && t.rspans[i];
      if (sp) tr.addEventListener('click', () => activateSpan(sp));
      tb.appendChild(tr);
    }
    table.appendChild(tb);
    s.appendChild(table);
    gridify(table, { label: 'Frontend attributes with a value', total: set.length });
  }
  if (empty.length) {
    const p = el('p', 'hlo-empty-keys');
    p.appendChild(el('span', 'muted', fmtInt(empty.length) + ' set without a value: '));
    empty.forEach((i, k) => {
      const b = el('button', 'link hlo-key', t.rows[i][0]);
      b.type = 'button';
      const sp = t.rspans && t.rspans[i];
      if (sp) b.addEventListener('click', () => activateSpan(sp));
      p.appendChild(b);
      if (k < empty.length - 1) p.appendChild(document.createTextNode(' '));
    });
    s.appendChild(p);
  }
  return s;
}

// ---- a computation, an instruction ----

function computationView(n) {
  const head = el('div', 'hlo-head');
  head.appendChild(el('h2', 'hlo-title', 'computation ' + (n.value || n.label)));
  root.appendChild(head);
  const instr = part('instructions');
  if (!instr || !instr.table || !n.span) { root.appendChild(el('p', 'muted', 'No instruction table: the module was read only in part.')); return; }
  root.appendChild(instructionTable(instr, n.span.off, n.span.off + n.span.len));
}

// rowOf: the instructions table's row of the instruction whose message starts at span s.
function rowOf(s) {
  const instr = part('instructions');
  const t = instr && instr.table;
  if (!t || !s) return -1;
  return (t.rspans || []).findIndex((x) => x && x.off === s.off && (x.src || '') === (s.src || ''));
}

function instructionView(n, leaf) {
  const t = part('instructions').table;
  const i = rowOf(n.span);
  const r = i >= 0 ? t.rows[i] : null;
  const head = el('div', 'hlo-head');
  head.appendChild(el('h2', 'hlo-title', r ? '%' + r[COL.name] : n.label));
  if (r) head.appendChild(el('span', 'hlo-sub muted', r[COL.opcode] + ' in ' + r[COL.computation]));
  root.appendChild(head);
  if (!r) { root.appendChild(el('p', 'muted', 'This instruction is past the instructions table (the module is too big to list every one).')); return; }
  const ops = r[COL.operands] ? r[COL.operands].split(', ') : [];
  const text = el('pre', 'hlo-text', '%' + r[COL.name] + ' = ' + r[COL.shape] + ' ' + r[COL.opcode] + '(' + ops.map((o) => '%' + o).join(', ') + ')');
  root.appendChild(text);
  const same = (j) => t.rows[j][COL.computation] === r[COL.computation];
  const byName = new Map();
  t.rows.forEach((x, j) => { if (same(j)) byName.set(x[COL.name], j); });
  const links = (label, list) => {
    const p = el('p', 'hlo-links');
    p.dataset.links = label;
    p.appendChild(el('span', 'muted', label + ': '));
    if (!list.length) p.appendChild(el('span', 'muted', 'none'));
    list.forEach((j, k) => {
      if (k) p.appendChild(document.createTextNode(' '));
      const b = el('button', 'link hlo-ref', '%' + t.rows[j][COL.name]);
      b.type = 'button';
      b.title = t.rows[j][COL.opcode] + ' ' + t.rows[j][COL.shape];
      b.addEventListener('click', () => activateSpan(t.rspans[j]));
      p.appendChild(b);
    });
    return p;
  };
  root.appendChild(links('operands', ops.map((o) => byName.get(o)).filter((j) => j !== undefined)));
  const users = [];
  t.rows.forEach((x, j) => { if (same(j) && x[COL.operands] && x[COL.operands].split(', ').includes(r[COL.name])) users.push(j); });
  root.appendChild(links('used by', users));
  if (r[COL.source]) root.appendChild(el('p', 'hlo-links', 'source: ' + r[COL.source]));
  // A kernel call: its card (from the kernel calls, whichever of the two nodes was picked).
  const call = (part('kernel calls') || { kids: [] }).kids.find((c) => c.span && c.span.off === n.span.off);
  if (call) {
    root.appendChild(callCard(call, leaf));
    if (call !== n) return;
    const b = el('button', 'link hlo-to-fields', 'Show this instruction in the fields');
    b.type = 'button';
    b.addEventListener('click', () => activateSpan(Object.assign({}, n.span)));
    root.appendChild(b);
  }
}

const CSS = `
.hlo-view { flex: 0 0 55%; overflow: auto; min-height: 0; padding: 12px 14px 16px; border-bottom: 1px solid var(--border); background: var(--bg); }
.hlo-view[hidden] { display: none; }
.content.split .hlo-view:not([hidden]) ~ .hex-wrap { flex: 1 1 28%; }
body.dash .content > .hlo-view:not([hidden]) { flex: 1 1 auto; border-bottom: 0; }
body.dash.drawer-hex .content > .hlo-view:not([hidden]) { flex: 1 1 62%; border-bottom: 1px solid var(--border); }
.hlo-head { display: flex; align-items: baseline; gap: 12px; flex-wrap: wrap; margin-bottom: 4px; min-width: 0; }
.hlo-title { margin: 0; font-size: 15px; font-weight: 650; font-family: var(--mono); overflow-wrap: anywhere; }
.hlo-sub { font-size: 12.5px; }
.hlo-facts { margin: 0 0 10px; font-size: 12px; }
.hlo-graph { font-family: var(--mono); color: var(--text); }
.hlo-sec { background: var(--panel); border: 1px solid var(--border); border-radius: 6px; padding: 8px 12px 10px; margin-bottom: 10px; min-width: 0; }
.hlo-sec-head { display: flex; flex-wrap: wrap; align-items: baseline; gap: 4px 12px; margin-bottom: 6px; }
.hlo-sec-head h3 { margin: 0; font-size: 12px; text-transform: uppercase; letter-spacing: .04em; color: var(--muted); font-weight: 600; }
.hlo-sec-value { font-size: 12.5px; font-weight: 600; }
.hlo-sec-note { font-size: 11.5px; }
.hlo-call + .hlo-call { border-top: 1px solid var(--border); margin-top: 8px; padding-top: 8px; }
.hlo-call-head { display: flex; flex-wrap: wrap; align-items: baseline; gap: 4px 12px; }
.hlo-kernel { font: 650 14px var(--mono); }
.hlo-target { font-size: 12px; }
.hlo-finds { margin: 6px 0; }
.hlo-kv { width: 100%; margin-top: 4px; }
.hlo-kv td { vertical-align: top; font-size: 12px; }
.hlo-kv td.k { font-family: var(--mono); white-space: nowrap; width: 1%; padding-right: 14px; }
.hlo-kv td.v { font-family: var(--mono); white-space: normal; max-width: none; width: 55%; overflow-wrap: anywhere; }
.hlo-kv td.hlo-meaning { font-family: var(--sans); font-size: 11.5px; width: 38%; white-space: normal; max-width: none; }
.hlo-kv tr.selected td { background: var(--accent-soft); }
.hlo-table-wrap { overflow: auto; max-height: 60vh; border: 1px solid var(--border); border-radius: 6px; }
.hlo-instr { width: 100%; }
.hlo-instr th { position: sticky; top: 0; background: var(--panel); z-index: 1; }
.hlo-instr td { font-family: var(--mono); font-size: 12px; white-space: nowrap; }
.hlo-instr td.c-operands { white-space: normal; max-width: 60ch; overflow-wrap: anywhere; min-width: 18ch; }
.hlo-instr tr.call td { font-weight: 650; }
.hlo-instr td.num { text-align: right; }
.hlo-empty-keys { margin: 6px 0 0; font-size: 12px; line-height: 1.7; }
.hlo-key { font: 11.5px var(--mono); }
.hlo-text { margin: 4px 0 8px; padding: 6px 8px; font-size: 12px; background: var(--panel); border: 1px solid var(--border); border-radius: 5px; white-space: pre-wrap; overflow-wrap: anywhere; }
.hlo-links { margin: 3px 0; font-size: 12.5px; }
.hlo-ref { font-family: var(--mono); font-size: 12px; }
.hlo-view .hlo-call { margin-top: 10px; }
.hlo-to-fields { margin-top: 8px; font-size: 12.5px; }
`;
