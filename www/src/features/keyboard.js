// @ts-check
// Keyboard: the keymap (SHORTCUTS, which ? shows), the skip link, the focus after a followed
// link (in the pane it opened, never on <body>), and Alt+S for the kernel source view. (The
// views keep their own keys: the trees' type-ahead, the summary's arrows, the search's picks.)

import { $, el } from '../dom.js';
import { on } from '../state/events.js';
import { state } from '../state/docs.js';
import { screen } from '../state/screen.js';
import { detailTarget } from '../views/detail.js';
import { narrow, paneOf, showPane } from '../views/layout.js';
import { listingShown, listingTarget } from '../views/listing.js';
import { plotTarget } from '../views/plot/plot.js';
import { sourceLine, sourceOpen, sourceShown } from '../views/source.js';
import { structureRow } from '../views/structure.js';
import { jsonTree, mainTree } from '../views/tree.js';
import { openFocus } from './open.js';

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
  { keys: ['Esc'], where: 'anywhere', what: 'close the search, this help, a menu or a maximised pane; cancel an open; leave a comparison' },
  { keys: ['Alt+←', 'Alt+→'], where: 'anywhere', what: 'Back and Forward: every place has a URL (copy it with Link)' },
  { keys: ['t', 'd', 'b'], where: 'overview', what: 'show or hide the structure, the details, the bytes beside it' },
  { keys: ['←', '→', '↑', '↓', 'Home', 'End'], where: 'overview, summary', what: 'move between the answers (one tab stop)' },
  { keys: ['↑', '↓', 'PgUp', 'PgDn', 'Home', 'End'], where: 'trees, listing', what: 'move the selection (the URL follows: Back returns to the last row you picked)' },
  { keys: ['←', '→'], where: 'trees', what: 'collapse, expand' },
  { keys: ['a–z'], where: 'trees', what: 'type ahead to the next row starting so' },
  { keys: ['Space', 'Enter'], where: 'trees', what: 'expand or collapse the row' },
  { keys: ['Enter'], where: 'listing', what: 'follow the row\'s link (set, function, DMA queue)' },
  { keys: ['←', '→'], where: 'listing', what: 'scroll the columns sideways' },
  { keys: ['n', 'p'], where: 'listing', what: 'next / previous instruction of the selected one\'s kernel line' },
  { keys: ['←', '→', '↑', '↓', 'PgUp', 'PgDn'], where: 'hex', what: 'move the byte cursor (the head says its offset)' },
  { keys: ['Home', 'End', 'Ctrl+Home', 'Ctrl+End'], where: 'hex', what: 'the start or end of the row; of the bytes' },
  { keys: ['Enter', 'Space', 'click'], where: 'hex', what: 'select the field that holds the byte (in an instruction: its field)' },
  { keys: ['Shift+←', 'Shift+→', 'Shift+↑', 'Shift+↓', 'Shift+click', 'drag'], where: 'hex', what: 'select a range of bytes (its URL has b=0x…-0x…; Copy copies it as hex)' },
  { keys: ['W', 'S', '+', '−'], where: 'schedule, memory view, time lanes', what: 'zoom in, zoom out' },
  { keys: ['A', 'D', '←', '→'], where: 'schedule, memory view, time lanes', what: 'pan left, right' },
  { keys: ['0', 'Home', 'double-click'], where: 'schedule, memory view, time lanes', what: 'fit the whole program' },
  { keys: ['wheel', 'Shift+wheel', 'drag', 'click'], where: 'schedule, memory view, time lanes', what: 'zoom at the pointer, pan, pan, pick a slice or a box' },
  { keys: ['C'], where: 'time lanes', what: 'mark the estimate\'s critical path, or not' },
  { keys: ['+', '−', '↑', '↓', '←', '→', 'Home'], where: 'plot', what: 'zoom in, zoom out, pan, reset the range' },
  { keys: ['↑', '↓', 'Home', 'End', 'Enter'], where: 'source view and pane', what: 'move between the kernel lines; Enter shows the line\'s first instruction' },
  { keys: ['↑', '↓', 'PgUp', 'PgDn', 'Home', 'End', 'Enter'], where: 'findings, tables', what: 'move between the rows; Enter selects what the row is about' },
  { keys: ['↑', '↓', 'Enter', 'Esc'], where: 'search, menus', what: 'move between the results; open one; close' },
  { keys: ['←', '→', 'Home', 'End', 'Delete'], where: 'file tabs, pane tabs', what: 'move between the tabs; close a file\'s tab' },
  { keys: ['←', '→', '↑', '↓', 'Shift+arrows', 'Home', 'End', 'Enter', 'double-click'], where: 'splitters', what: 'resize the panes (Shift: four times the step); Enter or a double-click resets' },
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

const helpShown = () => { const h = $('shortcut-help'); return !!h && !h.hidden; };

/** @type {Element | null} where the focus was before the help opened */
let helpFrom = null;

/**
 * helpToggle shows (or hides) the shortcut help, drawn from SHORTCUTS.
 * @param {boolean} [show]
 */
function helpToggle(show) {
  let h = $('shortcut-help');
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
  const row = structureRow();
  if (!row || screen.page !== 'document') { openFocus(); return; }
  if (narrow.matches) showPane('tree');
  row.focus();
}

function reveal(el) {
  const p = paneOf(el);
  if (narrow.matches && p) showPane(p);
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

// landingTarget: the pane a link opened — a detail table's named row (a DMA queue's row of its
// core's queues table), the listing, the source view's line, the plot, the JSON tree's row,
// else the structure tree's row.
function landingTarget() {
  const row = detailTarget();
  if (row) return row;
  if (listingShown()) return listingTarget();
  if (sourceShown()) return sourceLine(false);
  return plotTarget() || (jsonTree && jsonTree.focusTarget()) || (mainTree && mainTree.focusTarget());
}

// ---- Alt+S: the kernel source view, focus on its current (or first) line ----

function sourceKey(e) {
  if (!e.altKey || e.ctrlKey || e.metaKey || e.code !== 'KeyS' || !state) return false;
  const focusLine = () => {
    const b = sourceLine(true);
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
}
