// @ts-check
// The overview: a NEFF's landing view, drawn from the core's "overview" node (core/inspect
// overview.go). Every answer is a link (Node.link, Table.rlinks: node paths in the URL hash's
// form), followed through select(), so back and forward walk the jumps.

import { el } from '../dom.js';
import { fmtInt, fmtSize } from '../lib/format.js';
import { hashPath, hashPathKey } from '../lib/hash.js';
import { unfetched } from '../lib/lazy.js';
import { parentOf, state } from '../state/docs.js';
import { on } from '../state/events.js';
import { followLink, select } from '../state/selection.js';
import { renderHot } from './hotlines.js';
import { drawerButtons, landFromOverview, setDashboard } from './layout.js';
import { groupByCause } from '../lib/causes.js';
import { headline, newestVerdict, tone, verdictOf } from '../lib/verdict.js';
import { ATTR, CAUSE, KIND, VERDICT } from '../lib/vocab.gen.js';

/**
 * linkTarget: the node a link names in the current document, or null.
 * @param {string | undefined} link
 */
export function linkTarget(link) {
  if (!link || !state) return null;
  const key = hashPathKey(link);
  return key === null ? null : state.byPath.get(key) || null;
}

/**
 * linkFollowable: the link names a node the page holds, or one under a stub the page has not
 * fetched all of (its nearest held ancestor), which the core builds when it is followed.
 * @param {string | undefined} link
 */
export function linkFollowable(link) {
  if (linkTarget(link)) return true;
  const path = link && state ? hashPath(link) : null;
  if (!path) return false;
  for (let i = path.length - 1; i >= 0; i--) {
    const n = state.byPath.get(path.slice(0, i).join('/'));
    if (n) return unfetched(n);
  }
  return false;
}

/**
 * follow selects the node a link names (a jump: it pushes a history entry), fetching it from
 * the core first when it lies under a stub.
 * @param {string | undefined} link
 */
export function follow(link) {
  // A jump from the overview lands on the workbench laid out for its target (views/layout.js).
  if (root && !root.hidden) landFromOverview();
  const n = linkTarget(link);
  if (n) select(n, 'link');
  else if (link && linkFollowable(link)) { followLink(link); return true; }
  return !!n;
}

/**
 * linkButton is a real button that follows link; a plain span when the link leads nowhere.
 * @param {string | undefined} link
 * @param {string} cls
 * @param {string} [text]
 */
function linkButton(link, cls, text) {
  const target = linkFollowable(link);
  const b = el(target ? 'button' : 'span', cls, text);
  if (target) {
    /** @type {HTMLButtonElement} */ (b).type = 'button';
    b.dataset.link = link || '';
    b.classList.add('ov-link');
    b.addEventListener('click', () => follow(link));
  }
  return b;
}

/**
 * overviewOf: the overview node n is or belongs to, or null.
 * @param {import('../wire.js').Node} n
 */
export function overviewOf(n) {
  for (let m = n; m; m = parentOf(m)) if (m.kind === KIND.OVERVIEW) return m;
  return null;
}

/** @type {HTMLElement} the view's root (#overview-view) */
let root;
const view = () => root;

/**
 * overviewInit: the overview hides when another document shows (its own overview lands next),
 * and is drawn again in place when its document's nodes change (the source lines mapped).
 * @param {HTMLElement} box
 */
export function overviewInit(box) {
  root = box;
  root.className = 'overview-view';
  root.setAttribute('role', 'region');
  root.setAttribute('aria-label', 'Overview');
  on('document', overviewHide);
  on('patched', overviewRedraw);
}

/** overviewHide hides the overview (another node is on show). */
export function overviewHide() {
  root.hidden = true;
  setDashboard(false);
}

/**
 * overviewNote says on a pending answer of the overview on show (its section key) how far the
 * core is with it (the source lines being mapped).
 * @param {string} section
 * @param {string} text
 */
export function overviewNote(section, text) {
  const line = root.querySelector('[data-section="' + section + '"] .ov-pending');
  if (line) line.textContent = text;
}

let shown = null;

/** @type {{key: string, title: string, render: (box: HTMLElement, n: import('../wire.js').Node) => void}[]} */
const extraCards = [];

/**
 * overviewCard draws the overview section key with render, in a card titled title after the
 * engines: a view above this one registers it in its init (views/synccard.js), so the
 * overview needs no import of it.
 * @param {string} key
 * @param {string} title
 * @param {(box: HTMLElement, n: import('../wire.js').Node) => void} render
 */
export function overviewCard(key, title, render) { extraCards.push({ key, title, render }); }

/**
 * A source of verdicts newer than the open's: the models' card (views/synccard.js), which
 * decides the sync and memory checks; ask works out a pending check (its key), and cost says
 * how long that may take ('' when it is quick), busy whether it is being worked out.
 * @typedef {{of: () => (import('../wire.js').Node | null | undefined)[], ask?: (key: string) => void, cost?: (key: string) => string, busy?: (key: string) => boolean}} VerdictSource
 */
/** @type {VerdictSource[]} */
const verdictSources = [];
/** @type {(() => void)[]} */
const verdictWatchers = [];

/**
 * overviewVerdictSource registers a source of newer verdicts (a view above this one, in its
 * init), so the overview needs no import of it.
 * @param {VerdictSource} src
 */
export function overviewVerdictSource(src) { verdictSources.push(src); }

/**
 * onVerdict calls fn whenever the verdict on show may have changed (a models' card arrived).
 * @param {() => void} fn
 */
export function onVerdict(fn) { verdictWatchers.push(fn); }

/**
 * overviewVerdict is the verdict of the document on show that decided the most checks: the
 * open's overview's, or a models' card's (lib/verdict.js newestVerdict); null when none.
 * @param {import('../wire.js').Node} [ov] the overview node (default: the document's)
 */
export function overviewVerdict(ov) {
  if (!state) return null;
  const o = ov || (state.doc.root.kids || []).find((k) => k.kind === KIND.OVERVIEW);
  const mine = o && (o.kids || []).find((c) => c.key === 'verdict');
  const vs = [verdictOf(mine)];
  for (const src of verdictSources) for (const n of src.of()) vs.push(verdictOf(n));
  return newestVerdict(vs);
}

/** overviewVerdictChanged draws the verdict again where it shows (a models' card arrived). */
export function overviewVerdictChanged() {
  overviewRedraw();
  for (const fn of verdictWatchers) fn();
}

/**
 * overviewShow draws the overview node ov (once per node) and shows it. When a partial
 * overview was on show (overviewPartial), the real one takes its place keeping the scroll
 * position and the focused answer.
 * @param {import('../wire.js').Node} ov
 */
export function overviewShow(ov) {
  const v = view();
  v.hidden = false;
  setDashboard(true);
  if (shown === ov && v.childElementCount) return;
  shown = ov;
  draw(v, ov, state.doc.file);
}

/**
 * overviewPartial draws a partial overview (the core's 'overview' event while the archive is
 * read: attrs.partial, pending sections) in the overview's place; the real one replaces it.
 * @param {import('../wire.js').Node} ov
 * @param {string} title the file's name
 */
export function overviewPartial(ov, title) {
  const v = view();
  v.hidden = false;
  setDashboard(true);
  shown = ov;
  draw(v, ov, title);
}

/**
 * overviewRedraw draws the overview on show again after its node changed in place (the source
 * lines mapped after the open), keeping the scroll position and the focused answer; one not
 * on show is drawn again when it next shows.
 */
export function overviewRedraw() {
  const v = view();
  if (v.hidden || !shown || !state) { shown = null; return; }
  draw(v, shown, state.doc.file, true);
}

// focusKey names the answer el is (its card and its data-* marks), to find it again in a
// redrawn overview.
function focusKey(el) {
  // (The head's drawer toggles are answers too: a redraw while one has the focus keeps it.)
  const card = el.closest('[data-section], .ov-head');
  if (!card) return null;
  const marks = Object.entries(el.dataset).filter(([k]) => k !== 'link').map(([k, x]) => '[data-' + k.replace(/[A-Z]/g, (c) => '-' + c.toLowerCase()) + '="' + CSS.escape(x) + '"]').join('');
  const where = card.classList.contains('ov-head') ? '.ov-head' : '[data-section="' + CSS.escape(/** @type {HTMLElement} */ (card).dataset.section || '') + '"]';
  return where + ' ' + (el.tagName.toLowerCase()) + marks;
}

/**
 * overviewTime: the line under the title that says the program's time, measured when its
 * device profile is paired, else estimated with the model's error (views/timehooks.js sets of).
 * @type {{of: (() => HTMLElement | null) | null}}
 */
export const overviewTime = { of: null };


function draw(v, ov, title, redraw = false) {
  // What a redraw keeps: the scroll position, and the focused answer when it is there again.
  // (Only from a partial overview on show, or a redraw of the one on show: reading the scroll
  // position of a view just shown would lay the page out at once, for nothing to keep.)
  const keep = (redraw || v.dataset.partial === 'true') && v.childElementCount > 0;
  const top = keep ? v.scrollTop : 0;
  const act = document.activeElement;
  const key = keep && act && v.contains(act) && act !== v ? focusKey(act) : null;
  const partial = !!(ov.attrs && ov.attrs.partial === 'true');
  v.replaceChildren();
  if (partial) { v.dataset.partial = 'true'; v.setAttribute('aria-busy', 'true'); } else { delete v.dataset.partial; v.removeAttribute('aria-busy'); }
  const sec = (key) => (ov.kids || []).find((c) => c.key === key);
  const head = el('div', 'ov-head');
  head.appendChild(el('h2', 'ov-title', title));
  if (ov.value) head.appendChild(el('span', 'ov-sub muted', ov.value));
  const reading = sec('reading');
  if (partial) {
    const a = (reading && reading.attrs) || {};
    const what = a.phase === 'padding' || a.phase === 'done' ? 'decoding' : 'filling in';
    const r = el('span', 'ov-filling', what + (a.members ? ' · ' + fmtInt(Number(a.members)) + ' members · ' + fmtSize(Number(a.bytes) || 0) : ''));
    r.id = 'ov-filling';
    r.title = (reading && reading.value ? reading.value + '\n' : '') + (ov.detail || '');
    head.appendChild(r);
  }
  head.appendChild(drawerButtons());
  // The program's time under the title: measured with its profile, else estimated (overviewTime).
  // While the file is read, a line of the same height holds its place: the grid does not move.
  const time = !overviewTime.of ? null : partial ? el('p', 'ov-time muted', 'its time: once the file is read') : overviewTime.of();
  if (time) head.appendChild(time);
  v.appendChild(head);
  const grid = el('div', 'ov-grid');
  v.appendChild(grid);
  const card = (title, key, wide) => {
    const c = el('section', 'ov-card' + (wide ? ' wide' : ''));
    c.dataset.section = key;
    // A card that scrolls in itself would be a tab stop of its own (Chromium's keyboard-focusable
    // scrollers); the answers are one stop, and an arrow onto an answer scrolls its card.
    c.tabIndex = -1;
    const h = el('h3', 'ov-h', title);
    h.id = 'ov-h-' + key;
    c.setAttribute('aria-labelledby', h.id);
    c.appendChild(h);
    grid.appendChild(c);
    return cutCard(c);
  };
  // A file cut short: each figure below is of what was read before the cut, and says so (a
  // count of nothing read is not a count of the file).
  const findings = sec('findings');
  const cut = !!(findings && findings.attrs && findings.attrs.cause === CAUSE.TRUNCATED);
  const cutCard = (c) => {
    if (!cut || !CUT_CARDS.includes(c.dataset.section || '')) return c;
    const p = el('p', 'ov-sum ov-cut', 'Of what was read: the file is cut short, so what lies past the cut is not counted here.');
    p.dataset.cut = 'true';
    c.appendChild(p);
    return c;
  };
  const s = {
    model: sec('model'), io: sec('io'), engines: sec('engines'), act: sec('activation'), dma: sec('dma'),
    memory: sec('memory'), source: sec('source'), verdict: sec('verdict'), findings: sec('findings'), hot: sec('hot_lines'),
  };
  // A section the partial overview does not know yet says what it waits for.
  const pendingOr = (render) => (box, n, ...rest) => {
    if (n.attrs && n.attrs.pending && !(n.kids || []).length && !n.table) {
      box.classList.add('pending');
      box.appendChild(el('p', 'ov-sum muted ov-pending', n.value || '…'));
      return;
    }
    render(box, n, ...rest);
  };
  // The answers users open a NEFF for come first; findings lead only when they are not all info.
  const serious = s.findings && s.findings.attrs && s.findings.attrs.cause || s.findings && (s.findings.kids || []).some((g) => (g.table.rows || []).some((r) => r[0] !== 'info'));
  if (s.verdict) renderVerdict(card('Verdict', 'verdict', true), ov);
  if (s.model) renderModel(card('Model', 'model'), s.model);
  if (s.findings && serious) renderFindingsCard(card('Findings', 'findings', true), s.findings);
  if (s.io) pendingOr(renderRows)(card('Inputs and outputs', 'io', true), s.io, 'io');
  if (s.engines) renderEngines(card('Instructions · cores × engines', 'engines', true), s.engines);
  for (const x of extraCards) { const n = sec(x.key); if (n) x.render(card(x.title, x.key, true), n); }
  if (s.act) pendingOr(renderActivation)(card('Activation functions', 'activation', true), s.act);
  if (s.findings && !serious) pendingOr(renderFindingsCard)(card('Findings', 'findings', true), s.findings);
  if (s.dma) pendingOr(renderRows)(card('DMA queues', 'dma', true), s.dma, 'dma');
  if (s.memory) pendingOr(renderMemory)(card('Device memory (static estimate)', 'memory', true), s.memory);
  if (s.hot) pendingOr((box, n) => renderHot(box, n, linkButton))(card('Hottest source lines', 'hot_lines', true), s.hot);
  if (s.source) pendingOr(renderSource)(card('Kernel source', 'source'), s.source);
  roving(v);
  if (top) v.scrollTop = top;
  if (key) {
    const again = /** @type {HTMLElement | null} */ (v.querySelector(key));
    if (again) { again.tabIndex = 0; again.focus({ preventScroll: true }); }
  }
}

// renderSource is the answer "Source: N kernel lines in K files", a link to the source view,
// with the files below.
function renderSource(box, n) {
  const p = el('p', 'ov-sum');
  const b = linkButton(n.link, 'ov-cell ov-source', 'Source: ' + (n.value || ''));
  if (n.detail) b.title = n.detail;
  p.appendChild(b);
  box.appendChild(p);
  const t = n.table;
  if (!t || !t.rows || !t.rows.length) return;
  const ul = el('ul', 'ov-files muted');
  for (const r of t.rows.slice(0, 20)) ul.appendChild(el('li', '', r[0] + ' · ' + r[1] + ' line' + (r[1] === '1' ? '' : 's')));
  box.appendChild(ul);
}

// CUT_CARDS are the answers that count what the file holds: on a file cut short they say
// their figures are of what was read.
const CUT_CARDS = ['engines', 'activation', 'dma', 'memory', 'hot_lines', 'source', 'sync'];

// ---- one tab stop for the answers: arrows move between them (roving tabindex) ----

const ROVING = 'button, summary';

function rovingItems(v) {
  return /** @type {HTMLElement[]} */ (Array.from(v.querySelectorAll(ROVING))).filter((x) => !/** @type {any} */ (x).disabled && x.offsetParent !== null);
}

function roving(v) {
  const items = /** @type {HTMLElement[]} */ (Array.from(v.querySelectorAll(ROVING)));
  items.forEach((x, i) => { x.tabIndex = i === 0 ? 0 : -1; });
  if (v.dataset.roving) return;
  v.dataset.roving = '1';
  v.addEventListener('focusin', (e) => {
    const t = /** @type {HTMLElement} */ (e.target);
    if (!t.matches || !t.matches(ROVING)) return;
    for (const x of v.querySelectorAll(ROVING)) /** @type {HTMLElement} */ (x).tabIndex = x === t ? 0 : -1;
  });
  v.addEventListener('keydown', (e) => {
    const items = rovingItems(v);
    const i = items.indexOf(/** @type {HTMLElement} */ (document.activeElement));
    if (i < 0) return;
    let j;
    switch (e.key) {
      case 'ArrowRight': case 'ArrowDown': j = Math.min(items.length - 1, i + 1); break;
      case 'ArrowLeft': case 'ArrowUp': j = Math.max(0, i - 1); break;
      case 'Home': j = 0; break;
      case 'End': j = items.length - 1; break;
      default: return;
    }
    e.preventDefault();
    items[j].focus();
    items[j].scrollIntoView({ block: 'nearest' });
  });
}

function renderModel(box, n) {
  const dl = el('dl', 'ov-kv');
  for (const c of n.kids || []) {
    dl.appendChild(el('dt', '', c.label));
    const dd = el('dd');
    const b = linkButton(c.link, 'ov-value', c.value || '');
    b.dataset.field = c.key || c.label;
    if (c.detail) b.title = c.detail;
    if (c.attrs && c.attrs.pending) b.classList.add('ov-pending');
    dd.appendChild(b);
    if (c.key === 'target' && c.attrs && c.attrs.instances) dd.appendChild(el('span', 'muted ov-note', ' ' + c.attrs.target + ' · ' + c.attrs.instances));
    dl.appendChild(dd);
  }
  box.appendChild(dl);
}

// renderVerdict is the overview's first answer: is the file sound? A headline (never the
// runtime's "accepted" alone), then each check with its state, value, the codes behind it and
// what it means. The verdict shown is the one that decided most (a models' card replaces the
// open's when it comes); a pending check offers to work itself out.
function renderVerdict(box, ov) {
  const v = overviewVerdict(ov);
  if (!v) return;
  box.dataset.verdict = v.verdict;
  box.classList.add('ov-verdict-card');
  const head = el('p', 'ov-verdict-head ' + tone(v.verdict));
  head.id = 'ov-verdict-head';
  head.appendChild(el('span', 'ov-verdict-word', headline(v)));
  // "not sound: sync failed" says its first words in the headline; "nothing failed; not
  // decided: memory" is said whole.
  if (v.value) head.appendChild(el('span', 'ov-verdict-why', v.verdict === VERDICT.OPEN ? v.value : v.value.replace(/^[^:;]*:\s*/, '')));
  head.title = v.value + (v.detail ? '\n' + v.detail : '');
  box.appendChild(head);
  const ask = verdictSources.find((x) => x.ask);
  const list = el('ul', 'ov-checks');
  for (const c of v.checks) {
    const row = el('li', 'ov-verdict ov-check ' + tone(c.state));
    row.dataset.field = c.key;
    row.dataset.state = c.state;
    row.dataset.codes = c.codes.join(',');
    row.appendChild(el('span', 'ov-state', c.state));
    row.appendChild(linkButton(c.link, 'ov-chip', c.label + ': ' + c.value));
    for (const code of c.codes) row.appendChild(el('code', 'ov-code', code));
    const words = el('span', 'ov-words', c.detail);
    words.title = c.detail;
    row.appendChild(words);
    if (c.state === VERDICT.PENDING && ask && ask.busy && ask.busy(c.key)) row.appendChild(el('span', 'muted ov-working', 'working it out…'));
    else if (c.state === VERDICT.PENDING && ask && ask.ask) {
      // A check too costly to decide by itself says how long it may take.
      const cost = ask.cost ? ask.cost(c.key) : '';
      const b = el('button', 'ov-link ov-work', 'work it out' + (cost ? ' (' + cost + ')' : ''));
      /** @type {HTMLButtonElement} */ (b).type = 'button';
      b.dataset.check = c.key;
      if (cost) b.dataset.cost = cost;
      b.title = 'Build the ' + c.label + ' model now' + (cost ? ': ' + cost + ' on a file of this size, the page\'s other answers waiting meanwhile' : '');
      b.addEventListener('click', () => /** @type {any} */ (ask).ask(c.key));
      row.appendChild(b);
    }
    list.appendChild(row);
  }
  box.appendChild(list);
  // The same verdict gates a build: the CLI's check command (cmd/neffscope check.go's exit codes).
  const ci = el('p', 'ov-sum muted ov-verdict-ci', 'As a CI gate: ');
  ci.appendChild(el('code', '', 'neffscope check FILE'));
  ci.appendChild(document.createTextNode(' exits 0 sound, 1 not sound, 3 not decided.'));
  box.appendChild(ci);
}

// renderRows draws a section's table; each row with a link is a button row.
function renderRows(box, n, key) {
  const t = n.table;
  const unknown = n.attrs && n.attrs[ATTR.UNKNOWN];
  if (n.value) {
    const p = el('p', 'ov-sum muted' + (unknown ? ' ov-unknown' : ''), n.value);
    if (unknown) { p.dataset.unknown = unknown; box.dataset.unknown = unknown; }
    box.appendChild(p);
  }
  // A figure the file does not hold is not known: no "none" stands in for it as a fact.
  if (!t || !t.rows || !t.rows.length) { if (!unknown) box.appendChild(el('p', 'muted', 'none')); return; }
  const wrap = el('div', 'ov-table-wrap');
  const table = el('table', 'ov-table');
  table.dataset.section = key;
  const hr = el('tr');
  for (const c of t.cols) hr.appendChild(el('th', '', c));
  const thead = el('thead');
  thead.appendChild(hr);
  table.appendChild(thead);
  const tbody = el('tbody');
  t.rows.slice(0, 200).forEach((r, i) => {
    const tr = el('tr');
    const link = t.rlinks && t.rlinks[i];
    r.forEach((cell, j) => {
      const td = el('td', /^\d+$/.test(cell) ? 'num' : '');
      if (j === (t.cols[0] === '' ? 1 : 0) && linkFollowable(link)) td.appendChild(linkButton(link, 'ov-cell', cell));
      else td.textContent = /^\d{4,}$/.test(cell) ? fmtInt(Number(cell)) : cell;
      tr.appendChild(td);
    });
    tbody.appendChild(tr);
  });
  table.appendChild(tbody);
  wrap.appendChild(table);
  box.appendChild(wrap);
}

// renderEngines is the cores × engines grid: the count, a bar scaled to the busiest stream,
// the opcode mix on hover.
function renderEngines(box, n) {
  const cells = (n.kids || []).filter((c) => c.kind === KIND.ENGINE && c.attrs);
  if (n.value) box.appendChild(el('p', 'ov-sum muted', n.value + (n.attrs && n.attrs.pending ? ' so far · ' + n.attrs.pending : '')));
  if (n.attrs && n.attrs.view_limit) box.appendChild(el('p', 'ov-sum muted', n.attrs.view_limit));
  const cores = [], engines = [];
  for (const c of cells) {
    if (!cores.includes(c.attrs.core)) cores.push(c.attrs.core);
    if (!engines.includes(c.attrs.engine)) engines.push(c.attrs.engine);
  }
  const most = Math.max(1, ...cells.map((c) => Number(c.attrs.count) || 0));
  const table = el('table', 'ov-engines');
  const hr = el('tr');
  hr.appendChild(el('th', '', 'core'));
  for (const e of engines) hr.appendChild(el('th', '', e));
  const thead = el('thead');
  thead.appendChild(hr);
  table.appendChild(thead);
  const tbody = el('tbody');
  for (const core of cores) {
    const tr = el('tr');
    tr.appendChild(el('th', '', core));
    for (const e of engines) {
      const td = el('td');
      const c = cells.find((x) => x.attrs.core === core && x.attrs.engine === e);
      if (c) {
        const b = linkButton(c.link, 'ov-eng');
        b.dataset.core = core;
        b.dataset.engine = e;
        b.dataset.count = c.attrs.count;
        b.title = core + ' ' + e + ': ' + fmtInt(Number(c.attrs.count)) + ' instructions' + (c.attrs.mix ? '\n' + c.attrs.mix.split(', ').join('\n') : '');
        b.appendChild(el('span', 'ov-count', fmtInt(Number(c.attrs.count))));
        const bar = el('span', 'ov-bar');
        const fill = el('span', 'ov-bar-fill');
        fill.style.width = Math.max(2, 100 * (Number(c.attrs.count) || 0) / most) + '%';
        bar.appendChild(fill);
        b.appendChild(bar);
        td.appendChild(b);
      }
      tr.appendChild(td);
    }
    tbody.appendChild(tr);
  }
  table.appendChild(tbody);
  box.appendChild(table);
}

function renderActivation(box, n) {
  if (n.value) box.appendChild(el('p', 'ov-sum muted', n.value));
  for (const set of n.kids || []) {
    const row = el('div', 'ov-set');
    row.dataset.core = set.attrs.core;
    row.dataset.set = set.attrs.set;
    const h = el('div', 'ov-set-head');
    h.appendChild(el('span', 'ov-core', set.attrs.core));
    const sb = linkButton(set.link, 'ov-set-name', set.label);
    sb.title = set.detail || '';
    h.appendChild(sb);
    h.appendChild(el('span', 'muted', set.value || ''));
    row.appendChild(h);
    const list = el('div', 'ov-fns');
    for (const f of set.kids || []) {
      const b = linkButton(f.link, 'ov-fn' + (f.attrs.used === 'called' ? ' called' : ''));
      b.dataset.function = f.attrs.function;
      b.appendChild(el('span', 'ov-fn-name', f.attrs.function));
      const ulp = f.attrs.max_ulp;
      b.appendChild(el('span', 'ov-fn-err', ulp === undefined ? 'no reference' : ulp + ' ulp'));
      b.title = f.attrs.function + (f.attrs.used === 'called' ? ' · called by ' + f.attrs.count + ' Activate' : ' · loaded, no Activate names it') + '\n' + (f.value || '') + (f.detail ? '\n' + f.detail : '');
      list.appendChild(b);
    }
    row.appendChild(list);
    box.appendChild(row);
  }
}

function renderMemory(box, n) {
  const total = el('p', 'ov-sum muted');
  const tb = linkButton(pathLink(n), 'ov-cell', n.value || '');
  total.appendChild(tb);
  box.appendChild(total);
  // The budget's own findings (a sum past 2⁶³ B) stand beside the figures they explain.
  for (const f of n.finds || []) box.appendChild(el('p', 'ov-why sev-' + f.sev, f.msg));
  const most = Math.max(1, ...(n.kids || []).map((c) => (c.kids || []).reduce((a, x) => a + (Number(x.attrs && x.attrs.bytes) || 0), 0)));
  // One colour per category, whichever group (per NEFF, a core) it is in.
  const hue = new Map();
  for (const g of n.kids || []) for (const it of g.kids || []) if (!hue.has(it.label)) hue.set(it.label, hue.size);
  for (const core of n.kids || []) {
    const row = el('div', 'ov-mem');
    row.dataset.core = core.label;
    row.appendChild(linkButton(pathLink(core), 'ov-core', core.label));
    const bar = el('div', 'ov-mem-bar');
    (core.kids || []).forEach((it) => {
      const bytes = Number(it.attrs && it.attrs.bytes) || 0;
      if (!bytes) return;
      const seg = linkButton(pathLink(it), 'ov-mem-seg m' + hue.get(it.label));
      seg.style.width = (100 * bytes / most) + '%';
      // The figure's own value says "at least" or "more than 2⁶³ B" where the bytes alone would not.
      const size = it.value || fmtSize(bytes);
      seg.title = it.label + ': ' + size;
      seg.setAttribute('aria-label', it.label + ' ' + size);
      bar.appendChild(seg);
    });
    row.appendChild(bar);
    row.appendChild(el('span', 'muted ov-mem-total', core.value || ''));
    box.appendChild(row);
  }
  const legend = el('div', 'ov-legend muted');
  hue.forEach((i, label) => {
    const k = el('span', 'ov-key');
    k.appendChild(el('i', 'ov-sw m' + i));
    k.appendChild(document.createTextNode(label));
    legend.appendChild(k);
  });
  box.appendChild(legend);
}

// pathLink: the link form of a node of the current document.
function pathLink(n) {
  const rec = state.info.get(n);
  return rec ? rec.path.map(encodeURIComponent).join('/') : '';
}

// renderFindingsCard lists the findings: the root cause's group first, its own finding on
// top and the findings that follow from it folded under it with their count, then the rest.
function renderFindingsCard(box, n) {
  box.appendChild(el('p', 'ov-sum', n.value || ''));
  for (const g of n.kids || []) {
    const cause = g.attrs && g.attrs.cause;
    const root = cause !== 'other';
    const grp = el('details', 'ov-cause' + (root ? ' root' : ''));
    grp.dataset.cause = cause || '';
    const rows = (g.table.rows || []).map((r, i) => ({ r, link: g.table.rlinks && g.table.rlinks[i], f: { code: r[3] || '', cause: root && r[3] !== (g.attrs && g.attrs.code) ? (g.attrs && g.attrs.code) : undefined } }));
    grp.open = root || rows.some((x) => x.r[0] !== 'info');
    grp.appendChild(el('summary', '', (root ? 'Root cause: ' : '') + g.label + ' · ' + (g.value || '')));
    if (g.detail && root) grp.appendChild(el('p', 'ov-why', g.detail));
    const ol = el('ol', 'ov-finds');
    for (const x of groupByCause(rows).slice(0, 100)) {
      if (x.item) ol.appendChild(findRow(x.item));
      if (!x.consequences.length) continue;
      // The findings that follow from the root: folded, with their count.
      const li = el('li', 'ov-consequences');
      const d = el('details');
      d.dataset.cause = x.code;
      d.dataset.count = String(x.consequences.length);
      d.appendChild(el('summary', 'muted', x.consequences.length + (x.consequences.length === 1 ? ' finding follows' : ' findings follow') + ' from it'));
      const sub = el('ol', 'ov-finds');
      x.consequences.slice(0, 100).forEach((y) => sub.appendChild(findRow(y)));
      d.appendChild(sub);
      li.appendChild(d);
      ol.appendChild(li);
    }
    grp.appendChild(ol);
    box.appendChild(grp);
  }
}

// findRow is one finding of the findings card: its severity and its message, a link to the
// node that holds it.
/** @param {any} x a row of the card's table: {r, link} */
function findRow(x) {
  const { r, link } = x;
  const li = el('li', 'sev-' + r[0]);
  li.dataset.code = r[3] || '';
  li.appendChild(el('span', 'sev', r[0]));
  const b = linkButton(link, 'ov-find', r[1]);
  b.title = r[2];
  li.appendChild(b);
  return li;
}
