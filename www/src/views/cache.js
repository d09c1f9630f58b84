// @ts-check
// The cache view: a folder (a neuronx-cc compile cache, or any folder of NEFFs) dropped or
// picked, or a .tar / .tar.gz of one dropped (lib/tar.js), becomes one table of every NEFF in it — the records `neffscope scan --jsonl` prints,
// built by the same core code (the worker's scan method). Each file is read once, in the
// worker, one at a time; nothing is kept but the record, and nothing leaves the tab. The HLO
// module beside each NEFF gives its record a graph digest: the table groups entries by graph
// and flags the keys that can never be hit (views/cachegraphs.js). From the table any file
// opens as a tab, two compare in the diff view (or their graphs in the graph diff), three or
// more in one N-way table. Two entry folders dropped together go to the graph diff.

import { call, cancel, core } from '../core/client.js';
import { $, el, toast } from '../dom.js';
import { embedded } from '../config.js';
import { download } from '../lib/download.js';
import { adoptStyle } from '../lib/style.js';
import { hideProgress, onProgress, showProgress } from './progress.js';
import { fmtInt, fmtSize } from '../lib/format.js';
import { docs, makeState, showDocs, state, switchDoc } from '../state/docs.js';
import { unpackDocument } from '../wire.js';
import { on } from '../state/events.js';
import { screen, showPage } from '../state/screen.js';
import { compareMany, manyTab } from './diff/many.js';
import { GRAPH_CSS, graphBanner, graphCell, graphSides, graphsOf, groupRows } from './cachegraphs.js';
import { tarFiles } from '../lib/tar.js';
import { hloDiffSides, isHLOName } from './hlodiff.js';
import { compare } from './diff/render.js';
import { shortName } from './fullview.js';
import { tabsDraw } from './tabs.js';

// MAX_ENTRIES bounds the files one folder may list (a walk past it stops and says so);
// MAX_ROWS the table rows built at once (the filter narrows the rest).
const MAX_ENTRIES = 200000;
const MAX_ROWS = 2000;
// The cache layout (core/fleet/cache.go): …/neuronxcc-<version>/MODULE_<hash>+<8 hex>/model.neff
const MODULE_DIR = /^MODULE_[0-9a-fA-F]+\+[0-9a-fA-F]{8}$/;
const isNEFF = (p) => /\.neff$/i.test(p);
const dirOf = (p) => (p.lastIndexOf('/') >= 0 ? p.slice(0, p.lastIndexOf('/')) : '');
const baseOf = (p) => p.slice(p.lastIndexOf('/') + 1);
// rel is a row's path inside the folder (the table's title names the folder).
const rel = (p) => (cache.name && p.startsWith(cache.name + '/') ? p.slice(cache.name.length + 1) : p);

// pathCell fills a cell with a path that may break after each '/', the file name in full tone.
function pathCell(td, p) {
  const parts = p.split('/');
  parts.forEach((s, i) => {
    if (i === parts.length - 1) { td.appendChild(el('span', 'cache-base', s)); return; }
    td.appendChild(el('span', 'muted', s + '/'));
    td.appendChild(el('wbr'));
  });
  return td;
}

/**
 * @typedef {Object} CacheRow
 * @property {string} path the path relative to the folder's parent, slash-separated
 * @property {File|null} file null: a cache entry without a NEFF
 * @property {{file: File, path: string} | null} hlo the HLO module beside it (model.hlo_module.pb)
 * @property {string[]} siblings the names beside it
 * @property {number} size
 * @property {any} rec the scan record (ScanRecord), once read
 * @property {string} status waiting, reading, done, error, cancelled
 * @property {string} error
 */

export const cache = {
  get shown() { return screen.page === 'cache'; },
  name: '', // the folder's name
  /** @type {CacheRow[]} */ rows: [],
  running: false,
  done: 0,
  bytes: 0,
  totalBytes: 0,
  ms: 0,
  note: '', // what the walk could not do (too many entries, unreadable folders)
  sort: { key: 'path', dir: 1 },
  filter: '',
  state: '',
  hideDup: false,
  /** @type {import('./cachegraphs.js').Graphs | null} the records grouped by graph */ graphs: null,
  byGraph: true, // the table's rows grouped graph by graph (when there are graphs)
  /** @type {Set<CacheRow>} */ selected: new Set(),
  seq: 0,
};

/** @type {HTMLElement} the page's root (#cache-view) */
let root;

// ---- getting the files: the directory picker, <input webkitdirectory>, or a dropped folder ----

/**
 * cacheInit adds the "Open folder…" control to the top bar; the cache's tab joins the strip.
 * @param {HTMLElement} view the page's root
 */
export function cacheInit(view) {
  root = view;
  root.className = 'cache-view';
  root.setAttribute('aria-label', 'Compile cache');
  on('tabs', ({ nav }) => cacheTabs(nav));
  adoptStyle(CSS + GRAPH_CSS, 'the cache view');
  const input = /** @type {HTMLInputElement} */ (el('input', 'visually-hidden'));
  input.type = 'file';
  input.id = 'cache-input';
  input.tabIndex = -1;
  input.webkitdirectory = true;
  input.multiple = true;
  input.setAttribute('aria-label', 'A folder of NEFFs (a compile cache)');
  input.addEventListener('change', () => {
    const files = Array.from(input.files || []);
    input.value = '';
    if (!files.length) return;
    const list = files.map((f) => ({ path: f.webkitRelativePath || f.name, file: f }));
    scanFolder(list[0].path.split('/')[0], list, '');
  });
  const button = el('button', 'button small', 'Open folder…');
  button.type = 'button';
  button.id = 'cache-open';
  button.title = 'Scan a folder of NEFFs (a neuronx-cc compile cache): one row per NEFF; nothing is uploaded';
  button.addEventListener('click', () => pickFolder(input));
  // In the top bar's slot before the file input (the input and its label stay adjacent: the
  // Open button's focus ring is drawn by #file-input:focus-visible + .open-button).
  const slot = $('topbar-tools');
  if (!embedded) slot.appendChild(button);
  slot.appendChild(input);
}

/**
 * cacheDrop takes a drop of folders (the page's drop zone asks first: features/drop.js): it
 * scans them, and says whether it did.
 * @param {DataTransfer} dt
 * @returns {boolean}
 */
export function cacheDrop(dt) {
  const dirs = Array.from(dt.items || []).map((it) => (it.kind === 'file' && it.webkitGetAsEntry ? it.webkitGetAsEntry() : null)).filter((x) => x && x.isDirectory);
  if (!dirs.length) return false;
  walkEntries(dirs).then(({ list, note }) => {
    const sides = dirs.length === 2 ? entrySides(dirs.map((d) => d.name), list) : null;
    if (sides) hloDiffSides(sides);
    else scanFolder(dirs.map((d) => d.name).join(', '), list, note);
  });
  return true;
}

/**
 * cacheTar reads a packed compile cache (a .tar, .tar.gz or .tgz dropped) as the folder it
 * was: its paths under the archive's name, as `neffscope scan cache.tar` names them.
 * @param {File} file
 */
export async function cacheTar(file) {
  const { list, note } = await tarFiles(file);
  for (const f of list) f.path = file.name + '/' + f.path;
  scanFolder(file.name, list, note);
}

// entrySides: two dropped folders that each hold an HLO module (two cache entries) as the
// graph diff takes them, with the NEFF beside each; null when one holds none.
function entrySides(names, list) {
  const sides = names.map((d) => {
    const here = list.filter((f) => dirOf(f.path) === d).sort((a, b) => comparePaths(a.path, b.path));
    const hlo = here.find((f) => isHLOName(f.path));
    const neff = here.find((f) => baseOf(f.path) === 'model.neff') || here.find((f) => isNEFF(f.path));
    return hlo ? { hlo: hlo.file, hloPath: hlo.path, neff: neff ? neff.file : null, entry: true } : null;
  });
  return sides.every(Boolean) ? sides : null;
}

// pickFolder uses the directory picker where there is one (it reads nothing until asked),
// else the webkitdirectory input.
async function pickFolder(input) {
  const w = /** @type {any} */ (window);
  if (typeof w.showDirectoryPicker !== 'function') { input.click(); return; }
  let dir;
  try {
    dir = await w.showDirectoryPicker({ mode: 'read' });
  } catch (e) {
    if (e && e.name === 'AbortError') return;
    input.click(); // refused here (a frame, a policy): the input still works
    return;
  }
  const list = [];
  let note = '';
  const walk = async (h, prefix, depth) => {
    if (depth > 64) { note = 'folders nested deeper than 64 levels were not read'; return; }
    for await (const c of h.values()) {
      if (list.length >= MAX_ENTRIES) { note = 'the folder has more than ' + fmtInt(MAX_ENTRIES) + ' files; the rest were not listed'; return; }
      const p = prefix + '/' + c.name;
      try {
        if (c.kind === 'directory') await walk(c, p, depth + 1);
        else list.push({ path: p, file: await c.getFile() });
      } catch (e) { note = 'could not read ' + p + ': ' + (e.message || e); }
    }
  };
  await walk(dir, dir.name, 0);
  scanFolder(dir.name, list, note);
}

// walkEntries lists the files under dropped directory entries (FileSystemDirectoryEntry).
async function walkEntries(dirs) {
  const list = [];
  let note = '';
  const readAll = (reader) => new Promise((resolve, reject) => {
    const out = [];
    const next = () => reader.readEntries((batch) => { if (!batch.length) resolve(out); else { out.push(...batch); next(); } }, reject);
    next();
  });
  const fileOf = (entry) => new Promise((resolve, reject) => entry.file(resolve, reject));
  const walk = async (d, depth) => {
    if (depth > 64) { note = 'folders nested deeper than 64 levels were not read'; return; }
    let entries = [];
    try { entries = await readAll(d.createReader()); } catch (e) { note = 'could not read ' + d.fullPath + ': ' + (e.message || e); return; }
    for (const c of entries) {
      if (list.length >= MAX_ENTRIES) { note = 'the folder has more than ' + fmtInt(MAX_ENTRIES) + ' files; the rest were not listed'; return; }
      if (c.isDirectory) await walk(c, depth + 1);
      else {
        try { list.push({ path: c.fullPath.replace(/^\//, ''), file: await fileOf(c) }); } catch (e) { note = 'could not read ' + c.fullPath + ': ' + (e.message || e); }
      }
    }
  };
  for (const d of dirs) await walk(d, 0);
  return { list, note };
}

// comparePaths orders paths as the CLI's walk does: directory by directory, names sorted.
function comparePaths(a, b) {
  const x = a.split('/'), y = b.split('/');
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i] < y[i] ? -1 : 1;
  return x.length - y.length;
}

// plan makes the rows: every *.neff, and every MODULE_ entry directory that holds none.
function plan(list) {
  const dirs = new Map();
  const hlos = new Map(); // dir → its HLO module, the first by name (as the CLI's scan takes it)
  for (const f of list) {
    const d = dirOf(f.path);
    if (!dirs.has(d)) dirs.set(d, []);
    dirs.get(d).push(baseOf(f.path));
    if (isHLOName(f.path) && (!hlos.has(d) || baseOf(f.path) < baseOf(hlos.get(d).path))) hlos.set(d, f);
  }
  /** @type {CacheRow[]} */
  const rows = [];
  const row = (path, file, siblings) => ({ path, file, siblings, size: file ? file.size : 0, rec: null, status: 'waiting', error: '', hlo: hlos.get(dirOf(path)) || null });
  for (const f of list) if (isNEFF(f.path)) rows.push(row(f.path, f.file, dirs.get(dirOf(f.path))));
  for (const [d, names] of dirs) if (MODULE_DIR.test(baseOf(d)) && !names.some(isNEFF)) rows.push(row(d + '/model.neff', null, names));
  rows.sort((a, b) => comparePaths(a.path, b.path));
  return rows;
}

// ---- the scan ----

async function scanFolder(name, list, note) {
  if (cache.running) cancel();
  const seq = ++cache.seq;
  Object.assign(cache, { name, rows: plan(list), done: 0, bytes: 0, ms: 0, note, selected: new Set(), running: true, filter: '', state: '', hideDup: false, graphs: null });
  cache.totalBytes = cache.rows.reduce((a, r) => a + r.size, 0);
  showCache();
  const t0 = performance.now();
  const seen = new Map(); // sha-256 → first path
  for (const row of cache.rows) {
    if (seq !== cache.seq) return;
    row.status = 'reading';
    progress(row, 0);
    try {
      /** @type {any} */
      const args = { path: row.path, siblings: row.siblings };
      if (row.file) args.file = row.file;
      if (row.hlo) Object.assign(args, { hlo: row.hlo.file, hloPath: row.hlo.path });
      const r = await call('scan', args, { onEvent: (ev, p) => { if (ev === 'progress' && seq === cache.seq) progress(row, p.read || 0); } });
      if (seq !== cache.seq) return;
      row.rec = r.record;
      const sha = row.rec.sha256;
      if (sha && seen.has(sha)) row.rec.duplicate_of = seen.get(sha);
      else if (sha) seen.set(sha, row.path);
      row.status = 'done';
    } catch (e) {
      if (seq !== cache.seq) return;
      if (e.code === 'cancelled') {
        for (const r of cache.rows) if (r.status === 'reading' || r.status === 'waiting') r.status = 'cancelled';
        break;
      }
      row.status = 'error';
      row.error = e.message;
    }
    cache.done++;
    cache.bytes += row.size;
    scheduleRender();
  }
  if (seq !== cache.seq) return;
  try {
    cache.graphs = await graphsOf(cache.rows, call);
  } catch (e) {
    cache.note = (cache.note ? cache.note + '; ' : '') + 'the entries could not be grouped by graph: ' + e.message;
  }
  if (seq !== cache.seq) return;
  cache.running = false;
  cache.ms = performance.now() - t0;
  root.dataset.ms = String(Math.round(cache.ms)); // for the benchmark
  cacheRender();
}

let renderTimer = 0;
// scheduleRender redraws the table at most 4 times a second while records arrive.
function scheduleRender() {
  if (renderTimer) return;
  renderTimer = window.setTimeout(() => { renderTimer = 0; if (cache.shown) renderRows(); updateBar(); }, 250);
}

function progress(row, read) {
  const bar = $('cache-progress');
  if (!bar) return;
  const done = cache.bytes + Math.min(read, row.size);
  const frac = cache.totalBytes ? done / cache.totalBytes : cache.rows.length ? cache.done / cache.rows.length : 1;
  $('cache-progress-fill').style.width = (Math.min(1, frac) * 100).toFixed(1) + '%';
  bar.setAttribute('aria-valuenow', String(Math.round(frac * 100)));
  $('cache-progress-text').textContent = 'Reading ' + fmtInt(cache.done + 1) + ' of ' + fmtInt(cache.rows.length) + ' · ' + fmtSize(done) + ' of ' + fmtSize(cache.totalBytes) + ' · ' + row.path;
}

// ---- showing it ----

// showCache shows the cache's page (drawn anew, with its tab, when it is on show already).
function showCache() {
  if (!cache.rows.length && !cache.name) return;
  if (!cache.shown) { showPage('cache'); return; }
  cacheRender();
  tabsDraw();
}

/** cacheShow: the cache's page shows (its table is drawn). */
export function cacheShow() {
  cacheRender();
}

// back returns from the cache view to the document, or the welcome screen.
function back() {
  showPage(state && docs.includes(state) ? 'document' : 'welcome');
}

// cacheTabs: the tab strip's hook (the 'tabs' event, after the comparison's) — the cache's tab
// and the N-way comparison's.
function cacheTabs(nav) {
  nav.querySelectorAll('.doc-tab').forEach((b) => {
    if (cache.shown) b.setAttribute('aria-selected', 'false');
    const d = docs[Number(b.dataset.index)];
    const text = d && d.cacheRow && Array.from(b.childNodes).find((c) => c.nodeType === Node.TEXT_NODE);
    if (text) text.textContent = shortName(d);
  });
  manyTab(nav);
  if (!cache.name) return;
  const t = el('button', 'doc-tab cache-tab');
  t.type = 'button';
  t.id = 'cache-tab';
  t.setAttribute('role', 'tab');
  t.setAttribute('aria-selected', cache.shown ? 'true' : 'false');
  t.appendChild(el('span', 'diff-glyph', '▦'));
  t.appendChild(el('span', '', cache.name));
  t.appendChild(el('span', 'tab-kind', 'cache'));
  t.title = 'The folder ' + cache.name + ': ' + fmtInt(cache.rows.length) + ' NEFFs';
  t.addEventListener('click', () => showCache());
  nav.insertBefore(t, nav.firstChild);
  nav.hidden = false;
}

const COLS = [
  { key: 'sel', label: '', title: 'Select rows to open or compare' },
  { key: 'path', label: 'path' },
  { key: 'compiler', label: 'compiler', title: 'info.json tool_version' },
  { key: 'target', label: 'device', title: 'the device family the kelf target runs on (the target itself on hover)' },
  { key: 'size', label: 'size', num: true },
  { key: 'instructions', label: 'instructions', num: true, title: 'instruction words, all engines and subgraphs (per engine on hover)' },
  { key: 'state', label: 'state', title: 'the cache entry: done (model.done beside it), incomplete (neither model.done nor model.log), failed (model.log, or the NEFF has an error)' },
  { key: 'graph', label: 'graph', title: 'the graph digest of the HLO module beside the NEFF (volatile values and metadata left out): entries of one graph differ in their key only by those' },
  { key: 'dup', label: 'duplicate of', title: 'a byte-identical NEFF earlier in path order' },
  { key: 'findings', label: 'findings', num: true },
  { key: 'open', label: '' },
];

/** @param {any} rec the device family ("Trn2"), or the kelf target where none is known. */
const deviceOf = (rec) => (rec && (rec.instance || rec.target)) || '';
const total = (rec) => Object.values(rec.instructions || {}).reduce((a, n) => a + n, 0);
const stateOf = (row) => (row.status !== 'done' ? row.status : row.rec.cache ? row.rec.cache.state : '');
const sortValue = {
  path: (r) => r.path,
  compiler: (r) => (r.rec && r.rec.compiler) || '',
  target: (r) => deviceOf(r.rec),
  size: (r) => r.size,
  instructions: (r) => (r.rec ? total(r.rec) : -1),
  state: (r) => stateOf(r),
  graph: (r) => (r.rec && r.rec.graph) || '',
  dup: (r) => (r.rec && r.rec.duplicate_of) || '',
  findings: (r) => (r.rec ? r.rec.findings.error * 1e6 + r.rec.findings.warning * 1e3 + r.rec.findings.info : -1),
};

// visible: the rows the filter keeps, in the chosen order.
function visible() {
  const q = cache.filter.trim().toLowerCase();
  const rows = cache.rows.filter((r) => {
    const rec = r.rec;
    if (cache.hideDup && rec && rec.duplicate_of) return false;
    if (cache.state === 'errors') { if (!rec || !rec.findings.error) return false; }
    else if (cache.state === 'none') { if (!rec || rec.cache) return false; }
    else if (cache.state && stateOf(r) !== cache.state) return false;
    if (!q) return true;
    const text = [r.path, rec && rec.compiler, rec && rec.target, rec && rec.instance, stateOf(r), rec && rec.cache && rec.cache.module, rec && rec.sha256,
      ...(rec ? rec.problems.map((p) => p.message) : [])].join('\n').toLowerCase();
    return text.includes(q);
  });
  if (cache.sort.key !== 'path' || cache.sort.dir !== 1) {
    const get = sortValue[cache.sort.key] || sortValue.path;
    const d = cache.sort.dir;
    rows.sort((a, b) => { const x = get(a), y = get(b); return (x < y ? -d : x > y ? d : 0) || comparePaths(a.path, b.path); });
  }
  return rows;
}

function cacheRender() {
  const v = root;
  v.replaceChildren();
  const bar = el('div', 'diff-bar cache-bar');
  const title = el('h2', 'cache-title');
  title.appendChild(el('span', 'diff-glyph', '▦ '));
  title.appendChild(el('span', '', cache.name));
  bar.appendChild(title);
  bar.appendChild(el('span', 'cache-counts muted'));
  bar.appendChild(el('span', 'spacer'));
  const act = (id, label, titleText, fn) => {
    const b = el('button', 'button small', label);
    b.type = 'button';
    b.id = id;
    b.title = titleText;
    b.addEventListener('click', fn);
    bar.appendChild(b);
    return b;
  };
  act('cache-open-sel', 'Open', 'Open the selected NEFFs as tabs', () => openRows(selectedRows(), true));
  act('cache-compare', 'Compare', 'Compare the selected NEFFs: two side by side, three or more in one table', () => compareRows(selectedRows()));
  act('cache-graphdiff', 'Graph diff', 'Compare the HLO graphs of the two selected entries, and their NEFFs: why the key changed', () => hloDiffSides(/** @type {any} */ (graphSides(graphRows()))));
  act('cache-export', 'JSONL', 'Download the records as JSON lines (what neffscope scan --jsonl prints)', exportJSONL);
  act('cache-close', '✕ Close', 'Back to the document', back).setAttribute('aria-label', 'Close the cache view');
  v.appendChild(bar);

  const prog = el('div', 'cache-progress');
  prog.id = 'cache-progress';
  prog.setAttribute('role', 'progressbar');
  prog.setAttribute('aria-label', 'Reading the folder');
  prog.setAttribute('aria-valuemin', '0');
  prog.setAttribute('aria-valuemax', '100');
  const track = el('div', 'bar');
  const fill = el('div', 'bar-fill');
  fill.id = 'cache-progress-fill';
  track.appendChild(fill);
  prog.appendChild(track);
  const ptext = el('span', 'cache-progress-text muted');
  ptext.id = 'cache-progress-text';
  ptext.setAttribute('aria-live', 'polite');
  prog.appendChild(ptext);
  const stop = el('button', 'button small', 'Cancel');
  stop.type = 'button';
  stop.id = 'cache-cancel';
  stop.disabled = core.mode !== 'worker';
  stop.addEventListener('click', () => { if (cancel()) toast('Stopped reading ' + cache.name + ': the rows read so far stay', 'info'); });
  prog.appendChild(stop);
  v.appendChild(prog);

  const tools = el('div', 'cache-tools');
  const filter = /** @type {HTMLInputElement} */ (el('input', 'search cache-filter'));
  filter.type = 'search';
  filter.id = 'cache-filter';
  filter.placeholder = 'Filter: path, compiler, target, module, finding…';
  filter.setAttribute('aria-label', 'Filter the rows');
  filter.value = cache.filter;
  filter.addEventListener('input', () => { cache.filter = filter.value; renderRows(); });
  tools.appendChild(filter);
  const sel = /** @type {HTMLSelectElement} */ (el('select', 'cache-state'));
  sel.id = 'cache-state';
  sel.setAttribute('aria-label', 'Show rows in state');
  for (const [v2, t] of [['', 'every state'], ['done', 'done'], ['incomplete', 'incomplete'], ['failed', 'failed'], ['none', 'outside a cache'], ['errors', 'with errors']]) {
    const o = el('option', '', t);
    o.value = v2;
    sel.appendChild(o);
  }
  sel.value = cache.state;
  sel.addEventListener('change', () => { cache.state = sel.value; renderRows(); });
  tools.appendChild(sel);
  // A checkbox that sets cache[key] and redraws the rows.
  const toggle = (id, key, text) => {
    const label = el('label', 'diff-toggle');
    const box = /** @type {HTMLInputElement} */ (el('input'));
    box.type = 'checkbox';
    box.id = id;
    box.checked = cache[key];
    box.addEventListener('change', () => { cache[key] = box.checked; renderRows(); });
    label.append(box, ' ' + text);
    tools.appendChild(label);
  };
  toggle('cache-hide-dup', 'hideDup', 'Hide duplicates');
  if (cache.graphs) toggle('cache-by-graph', 'byGraph', 'Group by graph');
  tools.appendChild(el('span', 'cache-note muted', 'Each file is read once, in this tab; nothing is uploaded.'));
  v.appendChild(tools);

  if (cache.graphs) v.appendChild(graphBanner(cache.graphs, new Map(cache.rows.map((r) => [r.path, r]))));
  const wrap = el('div', 'cache-wrap');
  const table = el('table', 'grid diff-table cache-table');
  table.id = 'cache-table';
  const thead = el('thead');
  const hr = el('tr');
  for (const c of COLS) {
    const th = el('th', c.num ? 'num' : '');
    th.dataset.key = c.key;
    if (c.title) th.title = c.title;
    if (sortValue[c.key]) {
      const b = el('button', 'sort', c.label);
      b.type = 'button';
      b.addEventListener('click', () => {
        cache.sort = { key: c.key, dir: cache.sort.key === c.key ? -cache.sort.dir : 1 };
        renderRows();
      });
      th.appendChild(b);
    } else if (c.key === 'sel') {
      const all = /** @type {HTMLInputElement} */ (el('input'));
      all.type = 'checkbox';
      all.id = 'cache-select-all';
      all.setAttribute('aria-label', 'Select every row shown');
      all.addEventListener('change', () => { for (const r of visible().slice(0, MAX_ROWS)) if (r.file) { if (all.checked) cache.selected.add(r); else cache.selected.delete(r); } renderRows(); });
      th.appendChild(all);
    }
    hr.appendChild(th);
  }
  thead.appendChild(hr);
  table.appendChild(thead);
  table.appendChild(el('tbody'));
  wrap.appendChild(table);
  v.appendChild(wrap);
  const foot = el('p', 'cache-foot muted');
  foot.id = 'cache-foot';
  v.appendChild(foot);
  renderRows();
  updateBar();
}

function findingsCell(rec) {
  const td = el('td', 'num cache-findings');
  if (!rec) return td;
  const f = rec.findings;
  for (const [sev, n] of [['error', f.error], ['warning', f.warning]]) {
    if (!n) continue;
    td.appendChild(el('span', 'cache-sev sev-' + sev, fmtInt(n) + (sev === 'error' ? ' err' : ' warn')));
  }
  if (!f.error && !f.warning) td.appendChild(el('span', 'muted', f.info ? fmtInt(f.info) + ' info' : '—'));
  td.title = rec.problems.length ? rec.problems.map((p) => p.severity + ': ' + p.message).join('\n') : fmtInt(f.info) + ' info findings';
  return td;
}

function renderRows() {
  const table = $('cache-table');
  if (!table) return;
  const rows = visible();
  const tb = el('tbody');
  const shown = rows.slice(0, MAX_ROWS);
  const byPath = new Map(cache.rows.map((r) => [r.path, r]));
  if (cache.graphs && cache.byGraph) tb.append(...groupRows(shown, cache.graphs, COLS.length, rowOf, byPath));
  else tb.append(...shown.map(rowOf));
  table.replaceChild(tb, table.tBodies[0]);
  table.querySelectorAll('th').forEach((th) => {
    const k = th.dataset.key;
    if (sortValue[k]) th.setAttribute('aria-sort', cache.sort.key === k ? (cache.sort.dir > 0 ? 'ascending' : 'descending') : 'none');
  });
  $('cache-foot').textContent = rows.length > MAX_ROWS
    ? 'Showing the first ' + fmtInt(MAX_ROWS) + ' of ' + fmtInt(rows.length) + ' rows; filter to narrow them.'
    : fmtInt(rows.length) + ' of ' + fmtInt(cache.rows.length) + ' rows shown.' + (cache.note ? ' ' + cache.note + '.' : '');
  updateBar();
}

// rowOf draws one row of the table.
function rowOf(r) {
  const rec = r.rec;
  const tr = el('tr', 'cache-row');
  tr.dataset.path = r.path;
  tr.dataset.status = r.status;
  const st = stateOf(r);
  if (rec && rec.duplicate_of) tr.classList.add('dup');
  if (rec && rec.findings.error) tr.classList.add('has-error');
  const selTd = el('td', 'sel');
  const box = /** @type {HTMLInputElement} */ (el('input'));
  box.type = 'checkbox';
  box.checked = cache.selected.has(r);
  box.disabled = !r.file && !r.hlo;
  box.setAttribute('aria-label', 'Select ' + r.path);
  box.addEventListener('change', () => { if (box.checked) cache.selected.add(r); else cache.selected.delete(r); updateBar(); });
  selTd.appendChild(box);
  tr.appendChild(selTd);
  const p = pathCell(el('td', 'cache-path'), rel(r.path));
  p.title = r.path + (rec && rec.sha256 ? '\nsha-256 ' + rec.sha256 : '') + (rec && rec.cache ? '\n' + rec.cache.module + '+' + rec.cache.flags_hash + (rec.cache.flags ? ' (' + rec.cache.flags + ')' : '') : '');
  tr.appendChild(p);
  tr.appendChild(el('td', 'cache-compiler', rec ? rec.compiler || '—' : ''));
  const dev = el('td', 'cache-target', rec ? deviceOf(rec) || '—' : '');
  if (rec && rec.target) dev.title = 'kelf target "' + rec.target + '"';
  tr.appendChild(dev);
  tr.appendChild(el('td', 'num', r.file ? fmtSize(r.size) : '—'));
  const ins = el('td', 'num cache-instr', rec && total(rec) ? fmtInt(total(rec)) : rec ? '—' : '');
  if (rec) ins.title = Object.entries(rec.instructions).map(([e, n]) => e + ' ' + fmtInt(n)).join('\n') || 'no instruction streams';
  tr.appendChild(ins);
  const s = el('td', 'cache-state-cell');
  const label = r.status === 'done' ? (st || 'not in a cache') : r.status === 'error' ? 'not read' : r.status === 'reading' ? 'reading…' : r.status;
  const badge = el('span', 'cache-badge st-' + (st || 'none'), label);
  if (r.status === 'error') badge.title = r.error;
  s.appendChild(badge);
  tr.appendChild(s);
  tr.appendChild(graphCell(rec, cache.graphs, r.path));
  const d = el('td', 'cache-dup');
  if (rec && rec.duplicate_of) {
    d.appendChild(el('span', '', '= '));
    pathCell(d, rel(rec.duplicate_of));
    d.title = 'byte-identical to ' + rec.duplicate_of;
  }
  tr.appendChild(d);
  tr.appendChild(findingsCell(rec));
  const o = el('td', 'cache-act');
  if (r.file) {
    const b = el('button', 'button small', 'Open');
    b.type = 'button';
    b.title = 'Open ' + r.path + ' as a tab';
    b.addEventListener('click', () => openRows([r], true));
    o.appendChild(b);
  }
  tr.appendChild(o);
  tr.addEventListener('dblclick', (e) => { if (r.file && !(e.target instanceof HTMLInputElement)) openRows([r], true); });
  return tr;
}

function updateBar() {
  const counts = root.querySelector('.cache-counts');
  if (!counts) return;
  const n = { done: 0, incomplete: 0, failed: 0, dup: 0, errors: 0 };
  for (const r of cache.rows) {
    if (!r.rec) continue;
    if (r.rec.cache) n[r.rec.cache.state]++;
    if (r.rec.duplicate_of) n.dup++;
    if (r.rec.findings.error) n.errors++;
  }
  counts.textContent = [fmtInt(cache.rows.length) + ' NEFFs', fmtSize(cache.totalBytes), n.done + ' done', n.incomplete + ' incomplete',
    n.failed + ' failed', n.dup + ' duplicates', n.errors + ' with errors'].join(' · ') + (cache.running ? '' : cache.ms ? ' · read in ' + (cache.ms / 1000).toFixed(1) + ' s' : '');
  const prog = $('cache-progress');
  prog.hidden = !cache.running;
  document.body.dataset.cache = cache.running ? 'scanning' : 'scanned';
  const k = selectedRows().length;
  $('cache-open-sel').disabled = !k;
  $('cache-open-sel').textContent = k > 1 ? 'Open ' + k : 'Open';
  $('cache-compare').disabled = k < 2 || cache.running;
  $('cache-compare').textContent = k >= 2 ? 'Compare ' + k : 'Compare';
  $('cache-graphdiff').disabled = !graphSides(graphRows()) || cache.running;
}

const selectedRows = () => cache.rows.filter((r) => cache.selected.has(r) && r.file);
const graphRows = () => cache.rows.filter((r) => cache.selected.has(r));

// ---- from the table: open, compare, export ----

// openRow opens a row's file as a tab (or finds the tab it already has). The core gets the
// folder path as the name, so a comparison can read the cache key from it; the sha-256 is
// the scan's, so the file is not hashed again.
async function openRow(r) {
  const open = docs.find((d) => d.cacheRow === r);
  if (open) return open;
  const file = /** @type {File} */ (r.file);
  const t0 = performance.now();
  showProgress({ name: r.path, size: file.size });
  try {
    const sha = r.rec && r.rec.sha256;
    const r1 = await call('open', { file, name: r.path, fingerprint: sha ? false : undefined }, { onEvent: (ev, p) => { if (ev === 'progress') onProgress(file, t0, p); } });
    const doc = unpackDocument(r1.doc);
    if (sha && (await call('setFingerprint', { handle: r1.handle, sha256: sha })).set) doc.sha256 = sha;
    const st = makeState(doc, { file, handle: r1.handle, gen: core.gen, cacheRow: r });
    st.reopen = async () => {
      const again = await call('open', { file, name: r.path, fingerprint: sha ? false : undefined });
      if (sha) await call('setFingerprint', { handle: again.handle, sha256: sha });
      return again.handle;
    };
    return st;
  } finally {
    hideProgress();
  }
}

// openRows opens rows as tabs, keeping the tabs already open; show: switch to the first.
async function openRows(rows, show) {
  const out = [];
  for (const r of rows) {
    try {
      const st = await openRow(r);
      if (!docs.includes(st)) showDocs(docs.concat([st]), docs.length, 0);
      out.push(st);
    } catch (e) {
      toast(e.code === 'cancelled' ? 'Cancelled reading ' + r.path : 'Could not open ' + r.path + ': ' + e.message, e.code === 'cancelled' ? 'info' : 'error');
      return null;
    }
  }
  if (show && out.length) switchDoc(docs.indexOf(out[0]));
  return out;
}

async function compareRows(rows) {
  if (rows.length < 2) return;
  const list = await openRows(rows, false);
  if (!list) return;
  if (list.length === 2) compare(list[0], list[1]);
  else compareMany(list);
}

function exportJSONL() {
  const lines = cache.rows.filter((r) => r.rec).map((r) => JSON.stringify(r.rec) + '\n');
  download(lines, (cache.name || 'scan').replace(/[^\w.-]+/g, '_') + '.jsonl', 'application/x-ndjson');
}

// ---- style: these views' rules, adopted here so the page's CSP (style-src 'self') holds ----

const CSS = `
.cache-view { grid-row: 3; display: flex; flex-direction: column; min-height: 0; min-width: 0; background: var(--panel); }
.cache-view[hidden] { display: none; }
.cache-title { margin: 0; font-size: 14px; font-weight: 650; white-space: nowrap; }
.cache-counts { font-size: 12px; }
.cache-progress { display: flex; align-items: center; gap: 10px; padding: 6px 18px; border-bottom: 1px solid var(--border); }
.cache-progress[hidden] { display: none; }
.cache-progress .bar { flex: 0 0 240px; }
.cache-progress-text { flex: 1; min-width: 0; font-size: 12px; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.cache-tools { display: flex; align-items: center; gap: 10px; padding: 8px 18px; flex-wrap: wrap; }
.cache-filter { width: 340px; }
.cache-state { font: inherit; font-size: 12px; padding: 3px 4px; border: 1px solid var(--border); border-radius: 5px; background: var(--panel); color: var(--text); }
.cache-note { margin-left: auto; font-size: 11.5px; }
.cache-wrap { flex: 0 1 auto; min-height: 0; overflow: auto; margin: 0 18px; border: 1px solid var(--border); border-radius: 6px; }
.cache-table { width: 100%; }
.cache-table thead th { position: sticky; top: 0; z-index: 1; background: var(--panel); }
.cache-table th .sort { border: 0; padding: 0; background: none; font: inherit; color: inherit; cursor: pointer; }
.cache-table th[aria-sort="ascending"] .sort::after { content: " ▲"; font-size: 9px; }
.cache-table th[aria-sort="descending"] .sort::after { content: " ▼"; font-size: 9px; }
.cache-table td { vertical-align: middle; }
.cache-table td.sel, .cache-table th[data-key="sel"] { width: 26px; text-align: center; }
.cache-table td.cache-path { font-family: var(--mono); font-size: 12px; min-width: 26ch; }
.cache-table td.cache-compiler, .cache-table td.cache-target { font-family: var(--mono); font-size: 12px; white-space: nowrap; }
.cache-table td.cache-dup { font-family: var(--mono); font-size: 11.5px; color: var(--warn); }
.cache-table td.cache-dup .muted, .cache-table td.cache-dup .cache-base { color: var(--warn); }
.cache-table td.cache-act { width: 56px; }
.cache-table tr.dup td.cache-path .cache-base { color: var(--muted); }
.cache-badge { display: inline-block; padding: 0 7px; border-radius: 9px; font-size: 11.5px; font-weight: 600; background: var(--grid); color: var(--muted); white-space: nowrap; }
.cache-badge.st-done { background: var(--good-soft); color: var(--good); }
.cache-badge.st-incomplete { background: var(--warn-soft); color: var(--warn); }
.cache-badge.st-failed, .cache-badge.st-error { background: var(--bad-soft); color: var(--bad); }
.cache-sev { display: inline-block; margin-left: 8px; white-space: nowrap; font-weight: 650; font-size: 11.5px; }
.cache-sev.sev-error { color: var(--bad); }
.cache-sev.sev-warning { color: var(--warn); }
.cache-foot { margin: 6px 18px 10px; font-size: 11.5px; }
.many-table td.many-cell { font-family: var(--mono); font-size: 12px; }
.many-table td.odd, .many-table th.odd { background: var(--bad-soft); color: var(--bad); font-weight: 650; }
.many-table td.many-odd { font-weight: 650; color: var(--bad); white-space: nowrap; }
.many-foot { font-size: 11.5px; margin-top: 8px; }
`;
