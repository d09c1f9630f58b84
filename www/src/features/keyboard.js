// @ts-check
// Keyboard: the skip link, the summary as one tab stop, type-ahead in the trees, the focus
// after a search pick (in the pane the pick opened, never on <body>), and Alt+S for the
// kernel source view.

import { $ } from '../dom.js';
import { state } from '../state/docs.js';
import { jsonTree, mainTree } from '../views/content.js';
import { narrow, paneOf, showPane } from '../views/layout.js';
import { search } from '../views/search.js';
import { sourceOpen } from '../views/source.js';

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

// ---- Alt+S: the kernel source view, focus on its current (or first) line ----

function sourceKey(e) {
  if (!e.altKey || e.ctrlKey || e.metaKey || e.code !== 'KeyS' || !state) return;
  const focusLine = () => {
    const v = document.getElementById('source-view');
    const b = v && /** @type {HTMLElement | null} */ (v.querySelector('.src-line[tabindex="0"]') || v.querySelector('.src-line'));
    if (!b) return;
    if (narrow.matches) showPane('content');
    b.focus();
  };
  if (!sourceOpen(focusLine)) return;
  e.preventDefault();
}

export function keyboardInit() {
  $('skip-link').addEventListener('click', skipToStructure);
  window.addEventListener('keydown', sourceKey);
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
