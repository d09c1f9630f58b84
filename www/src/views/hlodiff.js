// @ts-check
// The graph diff: two XLA HLO modules, or two compile-cache entries, compared by the core
// (the hloDiff call: `neffscope diff --json`, byte for byte). Why it recompiled comes first:
// the verdict (its code and what it implies), what the entries' NEFFs say (the same program
// compiled twice, and how to stop it; or a changed kernel), the cache keys; then every
// difference by class (graph, kernel, volatile, metadata) with its instruction, A and B (what
// differs marked) and its note, each side a link to those bytes in that module's tree.

import { call, core } from '../core/client.js';
import { el, toast } from '../dom.js';
import { download } from '../lib/download.js';
import { fileStem, fmtInt, fmtSize } from '../lib/format.js';
import { adoptStyle } from '../lib/style.js';
import { changedRuns } from '../lib/textdiff.js';
import { addDocs, docs, makeState, renderDocument, setCurrent, state, switchDoc } from '../state/docs.js';
import { on } from '../state/events.js';
import { screen, showPage } from '../state/screen.js';
import { unpackDocument } from '../wire.js';
import { activateSpan } from './grid.js';
import { hideProgress, onProgress, showProgress } from './progress.js';
import { tabsDraw } from './tabs.js';
import { ATTR, DOC_KIND } from '../lib/vocab.gen.js';

/**
 * What to compare beside the two modules: their paths (a cache entry's key is read from its
 * directory), whether they are cache entries, the entries' NEFFs, and the page it was asked
 * from (Close goes back to the cache there).
 * @typedef {{nameA?: string, nameB?: string, entries?: boolean, neffA?: File | null, neffB?: File | null, from?: string}} Sides
 */

/** @type {{a: any, b: any, sides: Sides, d: any, json: ArrayBuffer | null, error: string, seq: number, ms: number, from: string, readonly shown: boolean}} */
export const hlodiff = {
  a: null, b: null, sides: {}, d: null, json: null, error: '', seq: 0, ms: 0, from: '',
  get shown() { return screen.page === 'graphdiff'; },
};

// What each verdict means in a few words, and its tone (the core's codes, core/doc codes.go).
const VERDICTS = {
  'hlo.same': ['Same graph', 'good'],
  'hlo.volatile-only': ['Same graph, new cache key', 'warn'],
  'hlo.metadata-only': ['Same graph, other metadata', 'warn'],
  'hlo.kernel-changed': ['A kernel call changed', 'bad'],
  'hlo.graph-changed': ['The graph changed', 'bad'],
};
const NEFF_VERDICTS = {
  'hlo.neff-same-program': ['Same program: a spurious recompile', 'warn'],
  'hlo.neff-changed': ['The kernel changed', 'bad'],
  'hlo.neff-missing': ['Kernel unknown: the NEFFs are not both there', 'muted'],
};
// The classes of difference, in the order they matter (core/hlo class.go).
const CLASSES = [
  ['graph', 'Graph', 'what is computed: opcodes, shapes, wiring, constants, attributes'],
  ['kernel', 'Kernel', 'what a custom call runs: its target, kernel name, grid, version'],
  ['volatile', 'Volatile', 'what changes from trace to trace while the graph does not: temporary paths, generated names'],
  ['metadata', 'Metadata', 'where the graph came from: source lines, op names'],
];

/** @type {HTMLElement} the page's root (#hlodiff-view) */
let root;

/**
 * hlodiffInit: the comparison has a tab of its own, and is dropped when one of its modules is
 * closed.
 * @param {HTMLElement} view
 */
export function hlodiffInit(view) {
  root = view;
  root.className = 'cache-view hlodiff-view';
  root.setAttribute('aria-label', 'Graph diff');
  on('tabs', ({ nav }) => hlodiffTab(nav));
  for (const ev of /** @type {const} */ (['docs', 'document', 'empty'])) on(ev, forget);
  root.addEventListener('keydown', (e) => {
    if (e.key === 'Escape' && !e.defaultPrevented) { e.preventDefault(); close(); }
  });
  adoptStyle(CSS, 'the graph diff');
}

/** isHLO: the document is an HLO module. */
export const isHLO = (d) => !!(d && d.doc && d.doc.kind === DOC_KIND.HLO_MODULE);

/**
 * isHLOName: a file name the core reads as an HLO module (core/hlo Match): *.hlo_module.pb,
 * *.hlo.pb, either gzip'd.
 * @param {string} name
 */
export const isHLOName = (name) => /(hlo_module|\.hlo)\.pb(\.gz)?$/i.test(name);

/**
 * hloCompare compares two open HLO modules (and, for cache entries, their NEFFs) and shows
 * the graph diff.
 * @param {any} a
 * @param {any} b
 * @param {Sides} [sides]
 */
export async function hloCompare(a, b, sides) {
  const seq = ++hlodiff.seq;
  const from = (sides && sides.from) || (hlodiff.shown ? hlodiff.from : screen.page);
  Object.assign(hlodiff, { a, b, sides: sides || {}, d: null, json: null, error: '', ms: 0, from });
  showGraphDiff();
  const t0 = performance.now();
  try {
    /** @type {any} */
    const args = { a: await handleOf(a), b: await handleOf(b), nameA: hlodiff.sides.nameA || a.doc.file, nameB: hlodiff.sides.nameB || b.doc.file };
    if (hlodiff.sides.entries) args.entries = true;
    if (hlodiff.sides.neffA) args.neffA = hlodiff.sides.neffA;
    if (hlodiff.sides.neffB) args.neffB = hlodiff.sides.neffB;
    const r = await call('hloDiff', args);
    if (seq !== hlodiff.seq) return;
    hlodiff.json = r.json;
    hlodiff.d = JSON.parse(new TextDecoder().decode(r.json));
  } catch (e) {
    if (seq !== hlodiff.seq) return;
    hlodiff.error = e.message;
  }
  hlodiff.ms = performance.now() - t0;
  if (hlodiff.shown) render();
}

// handleOf is a document's handle in the core, reopened after a worker restart.
async function handleOf(st) {
  if (st.gen === core.gen && st.handle) return st.handle;
  st.handle = await st.reopen();
  st.gen = core.gen;
  return st.handle;
}

/**
 * openModule opens an HLO module as a tab, named by its path (a cache entry's path names the
 * entry), or finds the tab it has.
 * @param {File} file
 * @param {string} name
 */
async function openModule(file, name) {
  const open = docs.find((d) => d.file === file && d.doc.file === name);
  if (open) return open;
  const t0 = performance.now();
  showProgress({ name, size: file.size });
  try {
    const r = await call('open', { file, name }, { onEvent: (ev, p) => { if (ev === 'progress') onProgress(file, t0, p); } });
    const st = makeState(unpackDocument(r.doc), { file, handle: r.handle, gen: core.gen });
    st.reopen = async () => (await call('open', { file, name })).handle;
    return st;
  } finally {
    hideProgress();
  }
}

/**
 * An entry to compare: its module, and its NEFF when it has one.
 * @typedef {{hlo: File, hloPath: string, neff?: File | null, entry: boolean}} Side
 */

/**
 * hloDiffSides opens two modules (two files dropped, or two cache entries' folders) as tabs
 * and shows their graph diff.
 * @param {Side[]} list two sides
 */
export async function hloDiffSides(list) {
  const from = hlodiff.shown ? hlodiff.from : screen.page;
  const opened = [];
  for (const s of list) {
    try {
      opened.push(await openModule(s.hlo, s.hloPath));
    } catch (e) {
      toast(e.code === 'cancelled' ? 'Cancelled reading ' + s.hloPath : 'Could not open ' + s.hloPath + ': ' + e.message, e.code === 'cancelled' ? 'info' : 'error');
      return;
    }
  }
  const fresh = opened.filter((st) => !docs.includes(st));
  if (fresh.length) addDocs(fresh, 0, 0);
  document.body.dataset.state = 'open';
  const entries = list.some((s) => s.entry);
  return hloCompare(opened[0], opened[1], { nameA: list[0].hloPath, nameB: list[1].hloPath, entries, neffA: list[0].neff || null, neffB: list[1].neff || null, from });
}

// showGraphDiff shows the page (drawn anew, with its tab, when it is on show already).
function showGraphDiff() {
  if (!hlodiff.a || !hlodiff.b) return;
  if (!hlodiff.shown) { showPage('graphdiff'); return; }
  render();
  tabsDraw();
}

/** hlodiffShow: the page shows. */
export function hlodiffShow() {
  render();
  const body = root.querySelector('.diff-body');
  if (body) /** @type {HTMLElement} */ (body).focus({ preventScroll: true });
}

// close goes back to the cache when the comparison was asked from it, else to the document.
function close() {
  showPage(hlodiff.from === 'cache' ? 'cache' : state ? 'document' : 'welcome');
}

// forget drops the comparison when one of its modules is closed.
function forget() {
  if (!hlodiff.a || (docs.includes(hlodiff.a) && docs.includes(hlodiff.b))) return;
  hlodiff.seq++;
  Object.assign(hlodiff, { a: null, b: null, d: null, json: null, error: '' });
  if (hlodiff.shown) close();
}

function hlodiffTab(nav) {
  if (!hlodiff.a || !hlodiff.b || !docs.includes(hlodiff.a) || !docs.includes(hlodiff.b)) return;
  if (hlodiff.shown) nav.querySelectorAll('.doc-tab').forEach((b) => b.setAttribute('aria-selected', 'false'));
  const t = el('button', 'doc-tab diff-tab hlodiff-tab');
  t.type = 'button';
  t.id = 'hlodiff-tab';
  t.setAttribute('role', 'tab');
  t.setAttribute('aria-selected', hlodiff.shown ? 'true' : 'false');
  t.appendChild(el('span', 'diff-glyph', '⇄'));
  t.appendChild(el('span', '', '#' + (docs.indexOf(hlodiff.a) + 1) + ' vs #' + (docs.indexOf(hlodiff.b) + 1)));
  t.appendChild(el('span', 'tab-kind', 'graph diff'));
  t.title = 'Graph diff: A ' + hlodiff.a.doc.file + ' · B ' + hlodiff.b.doc.file;
  t.addEventListener('click', () => showGraphDiff());
  nav.appendChild(t);
  nav.hidden = false;
}

// ---- drawing ----

function render() {
  root.replaceChildren();
  root.appendChild(bar());
  const body = el('div', 'diff-body hlodiff-body');
  body.id = 'hlodiff-body';
  body.tabIndex = -1;
  root.appendChild(body);
  if (hlodiff.error) { body.appendChild(el('p', 'diff-error', 'Could not compare: ' + hlodiff.error)); return; }
  const d = hlodiff.d;
  if (!d) { body.appendChild(el('p', 'muted diff-wait', 'Comparing the graphs…')); return; }
  body.appendChild(verdictBox(d));
  // What could not be compared qualifies the verdict: it comes right under it.
  if (d.findings && d.findings.length) {
    const ol = el('ol', 'findings-list inline diff-findings');
    for (const f of d.findings) {
      const li = el('li', 'finding sev-' + f.severity);
      li.dataset.code = f.code || '';
      li.appendChild(el('span', 'sev', f.severity));
      li.appendChild(el('span', 'msg', f.message));
      ol.appendChild(li);
    }
    body.appendChild(ol);
  }
  body.appendChild(neffBox(d));
  if (d.cache && d.cache.length) {
    const s = el('section', 'hlodiff-box hlodiff-cache');
    s.id = 'hlodiff-cache';
    s.appendChild(el('h3', '', 'Cache keys'));
    const ul = el('ul', 'hlodiff-lines');
    for (const l of d.cache) ul.appendChild(el('li', '', l));
    s.appendChild(ul);
    body.appendChild(s);
  }
  body.appendChild(countsLine(d));
  for (const [cls, title, note] of CLASSES) {
    const list = d.differences.filter((x) => x.class === cls);
    if (list.length) body.appendChild(classSection(cls, title, note, list, d.counts[cls] || list.length));
  }
  if (!d.differences.length) body.appendChild(el('p', 'diff-none', 'No differences: field for field the same graph (ids and generated names aside).'));
  if (d.unlisted) body.appendChild(el('p', 'muted', fmtInt(d.unlisted) + ' more differences are not listed (the counts are whole).'));
}

function bar() {
  const b = el('div', 'diff-bar');
  const sides = el('div', 'diff-sides');
  [['a', hlodiff.a], ['b', hlodiff.b]].forEach(([side, st], i) => {
    if (i) sides.appendChild(el('span', 'diff-arrow', '⇄'));
    const x = el('button', 'diff-side side-' + side);
    x.type = 'button';
    x.dataset.side = side;
    x.title = 'Show ' + st.doc.file;
    x.appendChild(el('span', 'side-letter', side.toUpperCase()));
    x.appendChild(el('span', 'side-name', st.doc.file));
    const g = st.doc.root && st.doc.root.attrs && st.doc.root.attrs[ATTR.GRAPH];
    x.appendChild(el('span', 'side-note', [fmtSize(st.doc.size), g ? 'graph ' + g : ''].filter(Boolean).join(' · ')));
    x.addEventListener('click', () => switchDoc(docs.indexOf(st)));
    sides.appendChild(x);
  });
  b.appendChild(sides);
  b.appendChild(el('span', 'spacer'));
  const act = (id, text, title, fn) => {
    const x = el('button', 'button small', text);
    x.type = 'button';
    x.id = id;
    x.title = title;
    x.addEventListener('click', fn);
    b.appendChild(x);
    return x;
  };
  act('hlodiff-swap', '⇆ Swap', 'Compare B with A', () => {
    const s = hlodiff.sides;
    hloCompare(hlodiff.b, hlodiff.a, { nameA: s.nameB, nameB: s.nameA, entries: s.entries, neffA: s.neffB, neffB: s.neffA });
  });
  act('hlodiff-export', 'JSON', 'Download the comparison as neffscope diff --json prints it', () => {
    if (hlodiff.json) download([hlodiff.json], fileStem(hlodiff.a.doc.file) + '_vs_' + fileStem(hlodiff.b.doc.file) + '.hlodiff.json', 'application/json');
  }).toggleAttribute('disabled', !hlodiff.json);
  act('hlodiff-close', '✕ Close', hlodiff.from === 'cache' ? 'Back to the cache' : 'Back to the module', close).setAttribute('aria-label', 'Close the graph diff');
  return b;
}

// verdictBox: the answer — the verdict's code, what it means, the core's sentence.
function verdictBox(d) {
  const [words, tone] = VERDICTS[d.verdict] || [d.verdict, 'warn'];
  // A module read only in part has no graph digest: the verdict holds for what was read.
  const partial = !d.graph_a || !d.graph_b;
  const s = el('section', 'hlodiff-box hlodiff-verdict tone-' + tone);
  s.id = 'hlodiff-verdict';
  s.dataset.verdict = d.verdict;
  s.dataset.partial = String(partial);
  const h = el('div', 'hlodiff-head');
  h.appendChild(el('span', 'diff-verdict ' + tone, partial ? words + ', of what was read' : words));
  h.appendChild(el('code', 'hlodiff-code', d.verdict));
  s.appendChild(h);
  s.appendChild(el('p', 'hlodiff-summary', d.graph_summary || d.summary));
  return s;
}

// neffBox: what the entries' NEFFs say, and how to stop a spurious recompile; without them,
// how to find out.
function neffBox(d) {
  const s = el('section', 'hlodiff-box hlodiff-neff');
  s.id = 'hlodiff-neff';
  const n = d.neff;
  if (!n) {
    s.dataset.code = '';
    s.appendChild(el('h3', '', 'The kernel'));
    s.appendChild(el('p', 'muted', 'The HLO names a kernel\'s compiled binary by its path, not its code: whether the kernel changed is in the NEFFs. Drop the two cache entries\' folders (each with its model.neff beside model.hlo_module.pb) to compare them too.'));
    return s;
  }
  const [words, tone] = NEFF_VERDICTS[n.code] || [n.code, 'muted'];
  s.dataset.code = n.code;
  const h = el('div', 'hlodiff-head');
  h.appendChild(el('h3', '', 'NEFFs'));
  h.appendChild(el('span', 'diff-verdict ' + tone, words));
  h.appendChild(el('code', 'hlodiff-code', n.code));
  s.appendChild(h);
  s.appendChild(el('p', 'hlodiff-summary', n.summary));
  if (n.streams_differ && n.streams_differ.length) {
    const ul = el('ul', 'hlodiff-lines mono');
    for (const x of n.streams_differ) ul.appendChild(el('li', '', x));
    s.appendChild(ul);
  }
  if (d.fix) {
    const fix = el('div', 'hlodiff-fix');
    fix.id = 'hlodiff-fix';
    fix.appendChild(el('h3', '', 'How to stop it'));
    fix.appendChild(el('p', '', d.fix));
    s.appendChild(fix);
  }
  return s;
}

function countsLine(d) {
  const p = el('p', 'diff-counts hlodiff-counts');
  p.id = 'hlodiff-counts';
  CLASSES.forEach(([cls, title], i) => {
    if (i) p.appendChild(el('span', 'sep', ' · '));
    const n = (d.counts && d.counts[cls]) || 0;
    const b = el('button', 'diff-count c-' + (n ? cls : 'same'), fmtInt(n) + ' ' + title.toLowerCase());
    b.type = 'button';
    b.dataset.class = cls;
    b.dataset.n = String(n);
    b.disabled = !n;
    b.addEventListener('click', () => { const sec = root.querySelector('[data-class-section="' + cls + '"]'); if (sec) sec.scrollIntoView({ block: 'start' }); });
    p.appendChild(b);
  });
  return p;
}

// classSection: one class's differences: where, what, A, B (the differing parts marked), why.
function classSection(cls, title, note, list, count) {
  const s = el('section', 'diff-sec hlodiff-class');
  s.dataset.classSection = cls;
  const head = el('div', 'diff-sec-head');
  head.appendChild(el('h2', '', title));
  head.appendChild(el('span', 'diff-sec-value', fmtInt(count) + (count === 1 ? ' difference' : ' differences')));
  head.appendChild(el('span', 'muted diff-sec-note', note));
  s.appendChild(head);
  const table = el('table', 'grid diff-table hlodiff-table');
  const thead = el('thead');
  const hr = el('tr');
  for (const [t, c] of [['instruction'], ['field'], ['A', 'col-a'], ['B', 'col-b'], ['note'], ['show', 'open']]) hr.appendChild(el('th', c || '', t));
  thead.appendChild(hr);
  table.appendChild(thead);
  const tb = el('tbody');
  for (const x of list) {
    const tr = el('tr', x.before && x.after ? 'changed' : x.after ? 'added' : 'removed');
    tr.dataset.field = x.field;
    tr.appendChild(whereCell(x.instruction || '(module)'));
    tr.appendChild(fieldCell(x.field));
    const marks = changedRuns(x.before || '', x.after || '');
    tr.appendChild(valueCell(x.before, marks.a, 'va'));
    tr.appendChild(valueCell(x.after, marks.b, 'vb'));
    tr.appendChild(el('td', 'hlodiff-note', x.note || ''));
    const open = el('td', 'open');
    open.appendChild(jumpButton('a', x.span_a));
    open.appendChild(jumpButton('b', x.span_b));
    tr.appendChild(open);
    tb.appendChild(tr);
  }
  table.appendChild(tb);
  const wrap = el('div', 'diff-wrap');
  wrap.appendChild(table);
  s.appendChild(wrap);
  return s;
}

// fieldCell names what differs, breakable after each dot ("backend_config.klir_binary.binary").
function fieldCell(f) {
  const td = el('td', 'k mono hlodiff-field');
  f.split('.').forEach((part, i, all) => {
    td.appendChild(document.createTextNode(part + (i < all.length - 1 ? '.' : '')));
    if (i < all.length - 1) td.appendChild(el('wbr'));
  });
  return td;
}

// whereCell: the instruction a difference is in; its name ("%custom-call.1") never broken at
// its hyphen, the words after it wrapping.
function whereCell(text) {
  const td = el('td', 'hlodiff-where');
  const sp = text.indexOf(' ');
  td.appendChild(el('span', 'name', sp < 0 ? text : text.slice(0, sp)));
  if (sp >= 0) td.appendChild(document.createTextNode(text.slice(sp)));
  return td;
}

function valueCell(v, runs, cls) {
  if (!v) return el('td', cls + ' empty', '—');
  const td = el('td', cls + ' mono');
  for (const r of runs) td.appendChild(r.changed ? el('mark', 'hlodiff-mark', r.text) : document.createTextNode(r.text));
  return td;
}

// jumpButton shows where a difference lies in module A or B: its bytes selected in the tree
// and the hex view (a pad when that side has no such bytes).
function jumpButton(side, span) {
  if (!span) {
    const pad = el('span', 'jump jump-pad', side.toUpperCase());
    pad.setAttribute('aria-hidden', 'true');
    return pad;
  }
  const st = side === 'a' ? hlodiff.a : hlodiff.b;
  const b = el('button', 'jump side-' + side, side.toUpperCase());
  b.type = 'button';
  b.dataset.side = side;
  b.dataset.off = String(span.offset);
  b.title = 'Show bytes ' + fmtInt(span.offset) + '…' + fmtInt(span.offset + span.length) + (span.source ? ' of ' + span.source : '') + ' in ' + side.toUpperCase() + ' (' + st.doc.file + ')';
  b.setAttribute('aria-label', b.title);
  b.addEventListener('click', () => jump(st, span));
  return b;
}

function jump(st, span) {
  if (!docs.includes(st)) { toast(st.doc.file + ' is no longer open'); return; }
  setCurrent(st);
  renderDocument(0);
  activateSpan({ src: span.source || '', off: span.offset, len: span.length });
}

const CSS = `
.cache-view.hlodiff-view { grid-row: 4; }
.hlodiff-box p { margin: 4px 0 0; }
.hlodiff-box { margin: 0 0 12px; padding: 10px 14px; border: 1px solid var(--border); border-radius: 6px; background: var(--panel); }
.hlodiff-body > .diff-findings { margin: 0 0 12px; }
.hlodiff-box h3 { margin: 0 0 4px; font-size: 12px; text-transform: uppercase; letter-spacing: .04em; color: var(--muted); font-weight: 600; }
.hlodiff-verdict.tone-warn { border-left: 4px solid var(--warn); }
.hlodiff-verdict.tone-bad { border-left: 4px solid var(--bad); }
.hlodiff-verdict.tone-good { border-left: 4px solid var(--good); }
.hlodiff-head { display: flex; flex-wrap: wrap; align-items: baseline; gap: 6px 12px; }
.hlodiff-head h3 { margin: 0; }
.hlodiff-code { font-family: var(--mono); font-size: 12.5px; font-weight: 650; }
.hlodiff-summary { margin: 6px 0 0; font-size: 13.5px; line-height: 1.45; max-width: 110ch; }
.hlodiff-verdict .hlodiff-summary { font-size: 14.5px; }
.diff-verdict.muted { background: var(--grid); color: var(--muted); }
.hlodiff-fix { margin-top: 10px; padding: 8px 12px; border-radius: 5px; background: var(--warn-soft); }
.hlodiff-fix p { margin: 0; font-size: 13px; line-height: 1.45; max-width: 110ch; }
.hlodiff-lines { margin: 4px 0 0; padding-left: 18px; font-size: 12.5px; }
.hlodiff-lines.mono { font-family: var(--mono); font-size: 12px; }
.hlodiff-counts { margin: 4px 0 0; }
.diff-count.c-graph:not(:disabled), .diff-count.c-kernel:not(:disabled) { color: var(--bad); }
.diff-count.c-volatile:not(:disabled), .diff-count.c-metadata:not(:disabled) { color: var(--warn); }
.hlodiff-table td.mono { font-family: var(--mono); font-size: 12px; }
.hlodiff-table td.hlodiff-field { overflow-wrap: normal; word-break: normal; }
.hlodiff-table td.hlodiff-where { font-family: var(--mono); font-size: 12px; min-width: 16ch; overflow-wrap: normal; word-break: normal; }
.hlodiff-where .name { white-space: nowrap; }
.hlodiff-table td.hlodiff-note { font-size: 12px; min-width: 18ch; }
.hlodiff-table th.col-a, .hlodiff-table th.col-b { width: 24%; }
.hlodiff-mark { background: color-mix(in srgb, var(--warn) 30%, transparent); color: inherit; border-radius: 2px; padding: 0 1px; }
`;
