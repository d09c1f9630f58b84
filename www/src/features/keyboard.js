// @ts-check
// Keyboard: the keymap (SHORTCUTS, which ? shows), the skip link, the summary as one tab stop,
// type-ahead in the trees, the focus after a search pick or a followed link (in the pane it
// opened, never on <body>), and Alt+S for the kernel source view.

import { $, el } from '../dom.js';
import { on } from '../state/events.js';
import { state } from '../state/docs.js';
import { jsonTree, mainTree } from '../views/content.js';
import { narrow, paneOf, showPane } from '../views/layout.js';
import { search } from '../views/search.js';
import { sourceOpen } from '../views/source.js';

// ---- the keymap: every shortcut of the page, the one table the help (?) is made from ----

/**
 * One shortcut: its keys as the help shows them, where it works, what it does. Rows with run
 * are bound here; the others are bound by the view they belong to (named in where).
 * @typedef {{keys: string[], where: string, what: string, run?: (e: KeyboardEvent) => boolean}} Shortcut
 */
/** @type {Shortcut[]} */
export const SHORTCUTS = [
  { keys: ['?'], where: 'anywhere', what: 'this help', run: () => { helpToggle(); return true; } },
  { keys: ['/', 'Ctrl+K'], where: 'anywhere', what: 'search: names, values, opcodes, a byte (0x1f40) or an instruction of the listing (#5)' },
  { keys: ['Ctrl+O'], where: 'anywhere', what: 'open a file' },
  { keys: ['Alt+S'], where: 'a NEFF', what: 'the kernel source view, focus on its current line', run: (e) => sourceKey(e) },
  { keys: ['Esc'], where: 'anywhere', what: 'close the search, this help or a maximised pane; cancel an open' },
  { keys: ['↑', '↓', 'PgUp', 'PgDn', 'Home', 'End'], where: 'trees, listing, hex', what: 'move the selection (the URL follows: Back returns to the last row you picked)' },
  { keys: ['←', '→'], where: 'trees', what: 'collapse, expand' },
  { keys: ['Enter'], where: 'listing', what: 'follow the row\'s link (set, function, DMA queue)' },
  { keys: ['n', 'p'], where: 'listing', what: 'next / previous instruction of the selected one\'s kernel line' },
  { keys: ['a–z'], where: 'trees', what: 'type ahead to the next row starting so' },
  { keys: ['Space'], where: 'trees', what: 'expand or collapse the row' },
  { keys: ['+', '−', '←', '→', 'Home'], where: 'plot', what: 'zoom, pan, reset the range' },
  { keys: ['↑', '↓', 'Enter'], where: 'source view and pane', what: 'move between the kernel lines; Enter shows the line\'s first instruction' },
  { keys: ['Alt+←', 'Alt+→'], where: 'anywhere', what: 'Back and Forward: every place has a URL (copy it with Link)' },
];

const typing = (t) => !!t && (t.tagName === 'INPUT' || t.tagName === 'TEXTAREA' || t.tagName === 'SELECT' || t.isContentEditable);

// keymap runs the table's own shortcuts.
function keymap(e) {
  for (const s of SHORTCUTS) {
    if (!s.run) continue;
    if (s.keys.includes('?') && (e.key !== '?' || e.ctrlKey || e.metaKey || e.altKey || typing(e.target))) continue;
    if (s.keys.includes('Alt+S') && !(e.altKey && e.code === 'KeyS')) continue;
    if (s.run(e)) { e.preventDefault(); return; }
  }
  if (e.key === 'Escape' && helpShown()) { e.preventDefault(); helpToggle(false); }
}

const helpShown = () => { const h = document.getElementById('shortcut-help'); return !!h && !h.hidden; };

/** @type {Element | null} where the focus was before the help opened */
let helpFrom = null;

/**
 * helpToggle shows (or hides) the shortcut help, drawn from SHORTCUTS.
 * @param {boolean} [show]
 */
function helpToggle(show) {
  let h = document.getElementById('shortcut-help');
  if (show === undefined) show = !helpShown();
  if (!show) {
    if (h) h.hidden = true;
    if (helpFrom instanceof HTMLElement && helpFrom.isConnected) helpFrom.focus();
    return;
  }
  if (!h) {
    h = el('div', 'shortcut-help');
    h.id = 'shortcut-help';
    h.setAttribute('role', 'dialog');
    h.setAttribute('aria-modal', 'true');
    h.setAttribute('aria-label', 'Keyboard shortcuts');
    h.tabIndex = -1;
    const box = el('div', 'sh-box');
    const head = el('div', 'sh-head');
    head.appendChild(el('h2', 'sh-title', 'Keyboard shortcuts'));
    const x = /** @type {HTMLButtonElement} */ (el('button', 'button small', 'Close'));
    x.type = 'button';
    x.addEventListener('click', () => helpToggle(false));
    head.appendChild(x);
    box.appendChild(head);
    const table = el('table', 'sh-table');
    for (const s of SHORTCUTS) {
      const tr = el('tr');
      const keys = el('td', 'sh-keys');
      s.keys.forEach((k, i) => { if (i) keys.appendChild(document.createTextNode(' ')); keys.appendChild(el('kbd', '', k)); });
      tr.appendChild(keys);
      tr.appendChild(el('td', 'sh-what', s.what));
      tr.appendChild(el('td', 'sh-where muted', s.where));
      table.appendChild(tr);
    }
    box.appendChild(table);
    h.appendChild(box);
    h.addEventListener('click', (e) => { if (e.target === h) helpToggle(false); });
    document.body.appendChild(h);
  }
  helpFrom = document.activeElement;
  h.hidden = false;
  h.focus();
}

// ---- the skip link (the first tab stop) ----

function skipToStructure(e) {
  e.preventDefault(); // its href would change the URL hash, which names the selection
  const row = /** @type {HTMLElement | null} */ ($('tree').querySelector('.ti[tabindex="0"]'));
  if (!row || $('panes').hidden) { $('file-input').focus(); return; }
  if (narrow.matches) showPane('tree');
  row.focus();
}

// ---- the summary: one tab stop, arrows inside ----

const SUMMARY_ITEMS = 'button, a[href], [tabindex]';

function summaryItems() {
  return /** @type {HTMLElement[]} */ (Array.from($('summary').querySelectorAll(SUMMARY_ITEMS))).filter((x) => !x.hidden && !(/** @type {any} */ (x).disabled));
}

let summaryActive = 0;
function summaryRoving() {
  const items = summaryItems();
  summaryActive = Math.min(summaryActive, Math.max(0, items.length - 1));
  items.forEach((x, i) => { x.tabIndex = i === summaryActive ? 0 : -1; });
}

function summaryKey(e) {
  const items = summaryItems();
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
  summaryActive = j;
  summaryRoving();
  items[j].focus();
}

// ---- type-ahead in a tree: letters move to the next visible row whose label starts so ----

const TYPE_AHEAD_MS = 700;

/**
 * typeAhead handles a tree's printable keys.
 * @param {() => import('../views/tree.js').TreeView | null} treeOf
 */
function typeAhead(treeOf) {
  let buf = '';
  let timer = 0;
  return (/** @type {KeyboardEvent} */ e) => {
    // '/' opens the search and Space toggles a row: neither is typed.
    if (e.ctrlKey || e.metaKey || e.altKey || e.key.length !== 1 || e.key === ' ' || e.key === '/') return;
    const tree = treeOf();
    if (!tree || !tree.root) return;
    const ch = e.key.toLowerCase();
    clearTimeout(timer);
    timer = setTimeout(() => { buf = ''; }, TYPE_AHEAD_MS);
    // The same letter again cycles through the rows starting with it.
    buf = buf === ch ? ch : buf + ch;
    const rows = tree.visibleRows();
    const cur = tree.rows.get(tree.nodeAt(document.activeElement) || tree.selected);
    const at = rows.indexOf(cur);
    const start = buf.length === 1 ? at + 1 : Math.max(0, at);
    for (let k = 0; k < rows.length; k++) {
      const r = rows[(start + k) % rows.length];
      const label = r.querySelector(':scope > .row > .label');
      if (!label || !label.textContent.toLowerCase().startsWith(buf)) continue;
      e.preventDefault();
      const n = /** @type {any} */ (r).nodeRef;
      tree.onSelect(n, 'tree');
      tree.markSelected(n, true);
      return;
    }
  };
}

// ---- the focus after a search pick ----

/** @type {any} the result being picked (search.results[i]) */
let picking = null;

function notePick(i) {
  picking = search.results[i] || null;
  if (!picking) return;
  const r = picking;
  // searchPick blurs the box and selects synchronously; an instruction waits for its rows.
  let tries = 0;
  const settle = () => {
    if (picking !== r) return;
    const a = document.activeElement;
    if (a && a !== document.body && a !== $('search')) { picking = null; reveal(a); return; } // the pick placed it
    const target = pickTarget(r);
    if (!target && ++tries < 60) { setTimeout(settle, 50); return; }
    picking = null;
    if (!target) return;
    reveal(target);
    target.focus({ preventScroll: true });
  };
  setTimeout(settle, 0);
}

function reveal(el) {
  const p = paneOf(el);
  if (narrow.matches && p) showPane(p);
}

// pickTarget: where the focus goes for result r — the instruction listing, the JSON tree row,
// or the structure tree's row.
function pickTarget(r) {
  if (!state) return null;
  if (r.stream) return !$('listing').hidden ? $('listing') : null;
  const n = r.node;
  if (!n) return null;
  if (jsonTree && jsonTree.selected === n && jsonTree.rows.get(n)) return jsonTree.rows.get(n);
  const sel = mainTree && mainTree.selected && mainTree.rows.get(mainTree.selected);
  return sel || null;
}

// ---- the focus after a followed link: in the pane the link opened, never on <body> ----

function landFocus() {
  setTimeout(() => {
    const a = /** @type {HTMLElement | null} */ (document.activeElement);
    // Where the focus still stands on something on show (the detail pane redrawn, a grid), it
    // stays; only a focus lost with the control that followed the link moves.
    if (a && a !== document.body && a.isConnected && a.offsetParent !== null) return;
    const target = landingTarget();
    if (!target) return;
    reveal(target);
    target.focus({ preventScroll: true });
  }, 0);
}

// landingTarget: the pane a link opened — a detail table's named row, the listing, the source
// view's line, the plot, the JSON tree's row, else the structure tree's row.
function landingTarget() {
  // The row a link named in a detail table (a DMA queue's row of its core's queues table).
  const row = /** @type {HTMLElement | null} */ (document.querySelector('#detail tr.row-target [tabindex="0"]'));
  if (row) return row;
  if (!$('listing').hidden) return $('listing');
  const sv = document.getElementById('source-view');
  if (sv && !sv.hidden) return /** @type {HTMLElement | null} */ (sv.querySelector('.src-line[tabindex="0"]'));
  if (!$('plot-view').hidden) return $('plot');
  if (jsonTree && jsonTree.selected && jsonTree.rows.get(jsonTree.selected)) return jsonTree.rows.get(jsonTree.selected);
  const sel = mainTree && mainTree.selected && mainTree.rows.get(mainTree.selected);
  return sel || null;
}

// ---- Alt+S: the kernel source view, focus on its current (or first) line ----

function sourceKey(e) {
  if (!e.altKey || e.ctrlKey || e.metaKey || e.code !== 'KeyS' || !state) return false;
  const focusLine = () => {
    const v = document.getElementById('source-view');
    const b = v && /** @type {HTMLElement | null} */ (v.querySelector('.src-line[tabindex="0"]') || v.querySelector('.src-line'));
    if (!b) return;
    if (narrow.matches) showPane('content');
    b.focus();
  };
  return sourceOpen(focusLine);
}

export function keyboardInit() {
  $('skip-link').addEventListener('click', skipToStructure);
  window.addEventListener('keydown', keymap);
  on('select', ({ from }) => { if (from === 'link') landFocus(); });
  new MutationObserver(summaryRoving).observe($('summary'), { childList: true, subtree: true });
  $('summary').addEventListener('keydown', summaryKey);
  $('summary').addEventListener('focusin', (e) => {
    const i = summaryItems().indexOf(/** @type {HTMLElement} */ (e.target));
    if (i >= 0 && i !== summaryActive) { summaryActive = i; summaryRoving(); }
  });
  $('tree').addEventListener('keydown', typeAhead(() => mainTree));
  $('json-tree').addEventListener('keydown', typeAhead(() => jsonTree));
  // The search box focused again (/ or Ctrl+K) after a pick: the user has moved on, so a pick
  // still waiting for its pane must not take the focus back.
  $('search').addEventListener('focus', () => { picking = null; });
  // Capture: seen before the search box's own handler picks and closes the list.
  $('search').addEventListener('keydown', (e) => {
    if (e.key === 'Enter' && search.q && search.q === $('search').value.trim().toLowerCase()) notePick(search.active);
  }, true);
  $('search-results').addEventListener('click', (e) => {
    const item = e.target instanceof Element ? e.target.closest('.sr') : null;
    if (item) notePick(Number(/** @type {HTMLElement} */ (item).dataset.index));
  }, true);
}
