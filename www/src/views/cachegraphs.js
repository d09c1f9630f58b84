// @ts-check
// The compile cache's graphs (views/cache.js draws them): the entries grouped by the graph
// digest of their HLO modules (the core's scanGraphs call, what `neffscope scan` says on
// stderr), the keys that can never be hit again flagged with why and the fix, and a graph
// diff of two entries of a group one click away.

import { el } from '../dom.js';
import { fmtInt } from '../lib/format.js';
import { hloDiffSides } from './hlodiff.js';

/**
 * A row of the cache table, as far as the graphs go.
 * @typedef {{path: string, file: File | null, hlo: {file: File, path: string} | null, rec: any}} Row
 */

/**
 * The scan's graphs: scanGraphs's answer, and each row's group.
 * @typedef {{lines: string[], groups: any[], of: Map<string, any>}} Graphs
 */

/**
 * graphsOf asks the core to group the records of rows by graph; null when no row has an HLO
 * module.
 * @param {Row[]} rows
 * @param {(method: string, args: any) => Promise<any>} ask the core's call
 * @returns {Promise<Graphs | null>}
 */
export async function graphsOf(rows, ask) {
  const records = rows.filter((r) => r.rec).map((r) => r.rec);
  if (!records.some((r) => r.hlo)) return null;
  const r = await ask('scanGraphs', { records });
  const of = new Map();
  for (const g of r.groups) for (const p of g.paths) of.set(p, g);
  return { lines: r.lines, groups: r.groups, of };
}

/**
 * graphSides: the two entries of rows as the graph diff takes them (module, NEFF); null
 * unless both rows have an HLO module.
 * @param {Row[]} rows
 */
export function graphSides(rows) {
  if (rows.length !== 2 || !rows.every((r) => r.hlo)) return null;
  return rows.map((r) => ({ hlo: /** @type {any} */ (r.hlo).file, hloPath: /** @type {any} */ (r.hlo).path, neff: r.file, entry: true }));
}

// pairOf picks two entries of a group to compare: ones with a NEFF first (the diff then says
// whether the kernel changed).
function pairOf(g, byPath) {
  const rows = g.paths.map((p) => byPath.get(p)).filter((r) => r && r.hlo);
  rows.sort((a, b) => (b.file ? 1 : 0) - (a.file ? 1 : 0));
  return rows.slice(0, 2);
}

/**
 * graphBanner: what the graphs say, first: how many graphs the entries are, and each group
 * whose keys can never be hit, with why, the fix and a graph diff of two of its entries.
 * @param {Graphs} graphs
 * @param {Map<string, Row>} byPath
 * @returns {HTMLElement}
 */
export function graphBanner(graphs, byPath) {
  const box = el('section', 'cache-graphs');
  box.id = 'cache-graphs';
  box.setAttribute('aria-label', 'Graphs');
  box.appendChild(el('p', 'cache-graphs-line', graphs.lines[0] || ''));
  for (const g of graphs.groups) {
    if (!g.why) continue;
    const p = el('div', 'cache-graph-why' + (g.never_hit ? ' never' : ''));
    p.dataset.graph = g.graph;
    const head = el('div', 'cache-graph-head');
    head.appendChild(el('span', 'cache-graph-badge' + (g.never_hit ? ' never' : ''), g.never_hit ? fmtInt(g.keys) + ' keys can never hit' : fmtInt(g.paths.length) + ' entries'));
    head.appendChild(el('code', 'cache-graph-digest', 'graph ' + g.graph));
    if (g.kernels.length) head.appendChild(el('span', 'muted', 'calls ' + g.kernels.join(', ')));
    const pair = pairOf(g, byPath);
    if (pair.length === 2) head.appendChild(diffButton(pair, 'Graph diff of two', 'cache-graph-diff'));
    p.appendChild(head);
    p.appendChild(el('p', 'cache-graph-text', g.why));
    box.appendChild(p);
  }
  return box;
}

function diffButton(pair, text, cls) {
  const b = el('button', 'button small ' + cls, text);
  b.type = 'button';
  b.title = 'Compare the graphs of ' + pair.map((r) => r.path).join(' and ') + (pair.every((r) => r.file) ? ', and their NEFFs' : '');
  b.addEventListener('click', () => hloDiffSides(/** @type {any} */ (graphSides(pair))));
  return b;
}

/**
 * graphCell: a row's graph — its digest, and whether its key can never be hit.
 * @param {any} rec
 * @param {Graphs | null} graphs
 * @param {string} path
 */
export function graphCell(rec, graphs, path) {
  const td = el('td', 'cache-graph');
  if (!rec) return td;
  if (!rec.graph) {
    td.appendChild(el('span', 'muted', rec.hlo ? 'partial' : '—'));
    td.title = rec.hlo ? 'The HLO module was read only in part: no graph digest' : 'No HLO module beside this NEFF';
    return td;
  }
  td.appendChild(el('code', '', rec.graph.slice(0, 8)));
  const g = graphs && graphs.of.get(path);
  td.title = 'graph ' + rec.graph + (g ? ' · ' + fmtInt(g.paths.length) + (g.paths.length === 1 ? ' entry' : ' entries') : '');
  if (g && g.never_hit) td.appendChild(el('span', 'cache-never', 'never hit'));
  else if (rec.hlo && rec.hlo.temporary_paths) {
    const t = el('span', 'cache-temp', 'temp path');
    t.title = 'A kernel call names its binary by a temporary path: every trace makes a new key';
    td.appendChild(t);
  }
  return td;
}

/**
 * groupRows orders rows graph by graph (the groups' order, rows without a graph last) with a
 * heading row before each group of two or more.
 * @template {Row} R
 * @param {R[]} rows
 * @param {Graphs} graphs
 * @param {number} cols the table's columns
 * @param {(r: R) => HTMLElement} rowOf draws a row
 * @param {Map<string, Row>} byPath
 * @returns {HTMLElement[]}
 */
export function groupRows(rows, graphs, cols, rowOf, byPath) {
  const order = new Map(graphs.groups.map((g, i) => [g.graph, i]));
  const rank = (r) => (r.rec && r.rec.graph && order.has(r.rec.graph) ? order.get(r.rec.graph) : graphs.groups.length);
  const at = new Map(rows.map((r, i) => [r, i]));
  const sorted = rows.slice().sort((x, y) => rank(x) - rank(y) || at.get(x) - at.get(y));
  const out = [];
  let last = -2;
  for (const r of sorted) {
    const k = rank(r);
    if (k !== last) {
      last = k;
      const g = graphs.groups[k];
      if (!g || g.paths.length > 1) out.push(groupHead(g, cols, byPath));
    }
    out.push(rowOf(r));
  }
  return out;
}

function groupHead(g, cols, byPath) {
  const tr = el('tr', 'group-row cache-group');
  const th = el('th');
  th.colSpan = cols;
  if (!g) {
    tr.dataset.graph = '';
    th.appendChild(el('span', '', 'No graph'));
    th.appendChild(el('span', 'muted', '  entries without an HLO module (or one read only in part)'));
  } else {
    tr.dataset.graph = g.graph;
    th.appendChild(el('span', '', 'Graph ' + g.graph + ' · ' + fmtInt(g.paths.length) + ' entries'));
    if (g.never_hit) th.appendChild(el('span', 'cache-never', 'keys never hit'));
    th.appendChild(el('span', 'muted', '  ' + (g.kernels.length ? 'calls ' + g.kernels.join(', ') + ' · ' : '') + fmtInt(g.keys) + (g.keys === 1 ? ' key' : ' keys')));
    const pair = pairOf(g, byPath);
    if (pair.length === 2) th.appendChild(diffButton(pair, 'Graph diff', 'cache-group-diff'));
  }
  tr.appendChild(th);
  return tr;
}

export const GRAPH_CSS = `
.cache-graphs { margin: 0 18px 8px; padding: 8px 12px; border: 1px solid var(--border); border-radius: 6px; background: var(--panel-2); }
.cache-graphs-line { margin: 0; font-size: 13px; font-weight: 600; }
.cache-graph-why { margin-top: 6px; padding-top: 6px; border-top: 1px solid var(--border); }
.cache-graph-head { display: flex; flex-wrap: wrap; align-items: baseline; gap: 4px 10px; font-size: 12.5px; }
.cache-graph-badge { padding: 0 8px; border-radius: 9px; font-size: 11.5px; font-weight: 650; background: var(--grid); color: var(--muted); }
.cache-graph-badge.never { background: var(--bad-soft); color: var(--bad); }
.cache-graph-digest { font-family: var(--mono); font-size: 12px; }
.cache-graph-text { margin: 3px 0 0; font-size: 12.5px; line-height: 1.45; max-width: 120ch; }
.cache-table td.cache-graph { font-family: var(--mono); font-size: 12px; white-space: nowrap; }
.cache-never, .cache-temp { display: inline-block; margin-left: 6px; padding: 0 6px; border-radius: 8px; font: 600 10.5px var(--sans); }
.cache-never { background: var(--bad-soft); color: var(--bad); }
.cache-temp { background: var(--warn-soft); color: var(--warn); }
.cache-table tr.cache-group > th { text-align: left; font-size: 12px; text-transform: none; letter-spacing: 0; white-space: normal; }
.cache-table tr.cache-group > th .cache-never { margin: 0 6px; }
.cache-table tr.cache-group .button { margin-left: 10px; }
`;
