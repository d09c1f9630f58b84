// @ts-check
// Layout: splitters between the panes (pointer and keyboard, remembered in localStorage), a
// maximise toggle per pane (Esc restores), below 1000 px a folded top bar (a menu) with the
// panes as tabs, and the overview as a dashboard: while it shows it takes the page's width and
// the structure, details and bytes are drawers opened on demand (remembered).

import { $, el } from '../dom.js';
import { on } from '../state/events.js';
import { contentSize } from './content.js';
import { findingsFold, findingsSize } from './findings.js';

const LAYOUT_KEY = 'neffscope.layout';
const STEP = 16; // px per arrow key (Shift: ×4)

/** @type {Record<string, number>} sizes in px, by splitter */
let sizes = {};

function load() {
  try { const v = JSON.parse(localStorage.getItem(LAYOUT_KEY) || '{}'); return v && typeof v === 'object' ? v : {}; } catch (e) { return {}; }
}
function save() {
  // Refused in some file:// contexts and private modes: the sizes then last the visit.
  try { localStorage.setItem(LAYOUT_KEY, JSON.stringify(sizes)); } catch (e) { /* not remembered */ }
}

/**
 * One splitter: which size it sets, along which axis, and its bounds (from the current
 * layout, so a window made smaller never hides a pane).
 * @typedef {object} Split
 * @property {() => HTMLElement} sep the splitter's element
 * @property {string} key its entry in sizes
 * @property {'x' | 'y'} axis
 * @property {string} label what the size is, for aria-valuetext
 * @property {() => number} current the size shown now (px)
 * @property {() => [number, number]} bounds min and max (px)
 * @property {(px: number | null) => void} apply sets (or with null, resets) the size
 * @property {number} [sign] -1 where dragging up/left makes the pane bigger
 */

/** @type {HTMLElement} the document page's root (#panes) */
let root;
const panes = () => root;
/** The panes (their sections) and, in a narrow window, their tabs. */
const PANES = ['tree', 'detail', 'content'];
/** @type {Record<string, {sec: HTMLElement, tab: HTMLElement}>} */
const paneEls = {};
const width = (pane) => paneEls[pane].sec.getBoundingClientRect().width;

/** @type {Split[]} */
const SPLITS = [
  {
    sep: () => $('split-tree'), key: 'tree', axis: 'x', label: 'Structure pane width',
    current: () => width('tree'),
    bounds: () => [160, Math.max(160, panes().clientWidth - width('detail') - 240)],
    apply: (px) => panes().style.setProperty('--tree-w', px === null ? '' : px + 'px'),
  },
  {
    sep: () => $('split-detail'), key: 'detail', axis: 'x', label: 'Details pane width',
    current: () => width('detail'),
    bounds: () => [180, Math.max(180, panes().clientWidth - width('tree') - 240)],
    apply: (px) => panes().style.setProperty('--detail-w', px === null ? '' : px + 'px'),
  },
  {
    // The decoded view above the bytes in the content pane (views/content.js).
    sep: () => $('split-content'), key: 'content', axis: 'y', label: 'Decoded view height (the bytes below)',
    current: contentSize.current,
    bounds: () => [60, Math.max(60, contentSize.max())],
    apply: contentSize.apply,
  },
  {
    sep: () => $('split-findings'), key: 'findings', axis: 'y', sign: -1, label: 'Findings height',
    current: findingsSize.current,
    bounds: () => [60, Math.max(60, Math.round(window.innerHeight * 0.7))],
    apply: findingsSize.apply,
  },
];

function setSize(s, px, remember) {
  const [lo, hi] = s.bounds();
  px = Math.round(Math.max(lo, Math.min(hi, px)));
  s.apply(px);
  sizes[s.key] = px;
  if (remember) save();
  aria(s);
}

function aria(s) {
  const sep = s.sep();
  const [lo, hi] = s.bounds();
  const v = Math.round(s.current());
  sep.setAttribute('aria-valuemin', String(lo));
  sep.setAttribute('aria-valuemax', String(hi));
  sep.setAttribute('aria-valuenow', String(v));
  sep.setAttribute('aria-valuetext', s.label + ': ' + v + ' px');
}

function wireSplit(s) {
  const sep = s.sep();
  sep.setAttribute('role', 'separator');
  sep.setAttribute('aria-orientation', s.axis === 'x' ? 'vertical' : 'horizontal');
  sep.setAttribute('aria-label', s.label + ' (arrow keys resize, Home/End to the limits, double-click resets)');
  sep.tabIndex = 0;
  const sign = s.sign || 1;
  sep.addEventListener('pointerdown', (e) => {
    if (e.button !== 0) return;
    e.preventDefault();
    sep.setPointerCapture(e.pointerId);
    const start = s.axis === 'x' ? e.clientX : e.clientY;
    const from = s.current();
    document.body.classList.add('resizing');
    const move = (ev) => setSize(s, from + sign * ((s.axis === 'x' ? ev.clientX : ev.clientY) - start), false);
    const up = () => {
      sep.removeEventListener('pointermove', move);
      sep.removeEventListener('pointerup', up);
      sep.removeEventListener('pointercancel', up);
      document.body.classList.remove('resizing');
      save();
    };
    sep.addEventListener('pointermove', move);
    sep.addEventListener('pointerup', up);
    sep.addEventListener('pointercancel', up);
  });
  sep.addEventListener('dblclick', () => { s.apply(null); delete sizes[s.key]; save(); aria(s); });
  sep.addEventListener('keydown', (e) => {
    const step = e.shiftKey ? STEP * 4 : STEP;
    const [lo, hi] = s.bounds();
    const grow = s.axis === 'x' ? 'ArrowRight' : 'ArrowDown';
    const shrink = s.axis === 'x' ? 'ArrowLeft' : 'ArrowUp';
    let v = s.current();
    if (e.key === grow) v += sign * step;
    else if (e.key === shrink) v -= sign * step;
    else if (e.key === 'Home') v = lo;
    else if (e.key === 'End') v = hi;
    else if (e.key === 'Enter') { s.apply(null); delete sizes[s.key]; save(); aria(s); e.preventDefault(); return; }
    else return;
    e.preventDefault();
    setSize(s, v, true);
  });
  sep.addEventListener('focus', () => aria(s));
}

// ---- maximise: one pane takes the page (the listing or plot the pane's full height) ----

/**
 * maximise makes pane ('tree', 'detail', 'content') take the whole page, or restores (null).
 * @param {string | null} pane
 */
export function maximise(pane) {
  if (pane) document.body.dataset.max = pane; else delete document.body.dataset.max;
  document.querySelectorAll('.pane-max').forEach((b) => {
    const on = /** @type {HTMLElement} */ (b).dataset.pane === pane;
    b.setAttribute('aria-pressed', on ? 'true' : 'false');
    b.textContent = on ? '⤡' : '⤢';
    /** @type {HTMLElement} */ (b).title = on ? 'Restore the layout (Esc)' : 'Maximise this pane (Esc restores)';
  });
}

// ---- narrow windows: the panes as tabs, the top bar's extras in a menu ----

export const narrow = window.matchMedia('(max-width: 999px)');

/**
 * showPane shows pane (in a narrow window, where one pane shows at a time).
 * @param {string} pane
 */
export function showPane(pane) {
  if (!PANES.includes(pane)) return;
  panes().dataset.active = pane;
  for (const p of PANES) {
    const t = paneEls[p].tab;
    t.setAttribute('aria-selected', p === pane ? 'true' : 'false');
    t.tabIndex = p === pane ? 0 : -1;
  }
}

function applyNarrow() {
  const on = narrow.matches;
  document.body.classList.toggle('narrow', on);
  // The sections are tab panels only while the tabs show.
  for (const p of PANES) {
    const sec = paneEls[p].sec;
    if (on) { sec.setAttribute('role', 'tabpanel'); sec.setAttribute('aria-labelledby', 'pane-tab-' + p); sec.removeAttribute('aria-label'); }
    else { sec.removeAttribute('role'); sec.removeAttribute('aria-labelledby'); sec.setAttribute('aria-label', sec.dataset.label || ''); }
  }
  if (!on) closeMenu(false);
}

function closeMenu(focus) {
  const bar = document.querySelector('.topbar');
  if (!bar.classList.contains('menu-open')) return;
  bar.classList.remove('menu-open');
  $('menu-toggle').setAttribute('aria-expanded', 'false');
  if (focus) $('menu-toggle').focus();
}

function wireMenu() {
  const bar = document.querySelector('.topbar');
  $('menu-toggle').addEventListener('click', () => {
    const open = !bar.classList.contains('menu-open');
    bar.classList.toggle('menu-open', open);
    $('menu-toggle').setAttribute('aria-expanded', open ? 'true' : 'false');
    if (open) { const f = /** @type {HTMLElement | null} */ ($('topbar-more').querySelector('button:not([hidden]):not(:disabled)')); if (f) f.focus(); }
  });
  $('topbar-more').addEventListener('keydown', (e) => { if (e.key === 'Escape' && bar.classList.contains('menu-open')) { e.preventDefault(); closeMenu(true); } });
  // A click on an item (or anywhere else) closes the menu.
  document.addEventListener('click', (e) => {
    const t = /** @type {Node} */ (e.target);
    if (t === $('menu-toggle') || $('menu-toggle').contains(t)) return;
    if ($('topbar-more').contains(t) && !(t instanceof HTMLButtonElement)) return;
    closeMenu(false);
  });
}

function wirePaneTabs() {
  const list = $('pane-tabs');
  for (const p of PANES) paneEls[p].tab.addEventListener('click', () => showPane(p));
  list.addEventListener('keydown', (e) => {
    const i = PANES.indexOf(panes().dataset.active || 'tree');
    let j;
    switch (e.key) {
      case 'ArrowRight': j = (i + 1) % PANES.length; break;
      case 'ArrowLeft': j = (i + PANES.length - 1) % PANES.length; break;
      case 'Home': j = 0; break;
      case 'End': j = PANES.length - 1; break;
      default: return;
    }
    e.preventDefault();
    showPane(PANES[j]);
    paneEls[PANES[j]].tab.focus();
  });
}

/**
 * paneOf: which pane holds el ('tree', 'detail', 'content'), or ''.
 * @param {Element | null} el
 */
export function paneOf(el) {
  const sec = el && el.closest && el.closest('.pane');
  return sec ? sec.id.replace(/^pane-/, '') : '';
}

// ---- the overview as a dashboard: the other panes are drawers ----

const DRAWERS_KEY = 'neffscope.drawers';
/** The drawers, in the order of their buttons: name, label, key, what it holds. */
const DRAWERS = [
  { name: 'tree', label: 'Structure', key: 't', what: 'the document tree' },
  { name: 'detail', label: 'Details', key: 'd', what: 'the selected node\'s details' },
  { name: 'hex', label: 'Bytes', key: 'b', what: 'the file\'s bytes (hex)' },
];
/** @type {Record<string, boolean>} which drawers the user opened (remembered) */
let drawers = {};

function loadDrawers() {
  try { const v = JSON.parse(localStorage.getItem(DRAWERS_KEY) || '{}'); return v && typeof v === 'object' ? v : {}; } catch (e) { return {}; }
}

/**
 * landFromOverview lays the workbench out for a jump from the overview: the content pane on
 * show (the narrow window's tab), no pane maximised, and the findings the page opened by
 * itself (an error) folded to their one line, so the target has the height. The widths and
 * heights are the workbench's own (style.css): the structure and details narrow, the decoded
 * view above the bytes tall.
 */
export function landFromOverview() {
  if (document.body.dataset.max) maximise(null);
  findingsFold();
  if (narrow.matches) showPane('content');
}

/**
 * setDashboard: the overview is (or is no longer) what the content pane shows.
 * @param {boolean} on
 */
export function setDashboard(on) {
  document.body.classList.toggle('dash', on);
}

/**
 * toggleDrawer opens or closes a drawer of the dashboard (open: undefined toggles), and
 * remembers it.
 * @param {string} name 'tree', 'detail' or 'hex'
 * @param {boolean} [open]
 */
export function toggleDrawer(name, open) {
  if (!DRAWERS.some((d) => d.name === name)) return;
  drawers[name] = open === undefined ? !drawers[name] : open;
  try { localStorage.setItem(DRAWERS_KEY, JSON.stringify(drawers)); } catch (e) { /* not remembered */ }
  applyDrawers();
}

function applyDrawers() {
  for (const d of DRAWERS) document.body.classList.toggle('drawer-' + d.name, !!drawers[d.name]);
  document.querySelectorAll('.drawer-toggle').forEach((b) => b.setAttribute('aria-pressed', drawers[/** @type {HTMLElement} */ (b).dataset.drawer || ''] ? 'true' : 'false'));
}

/** drawerButtons: the dashboard's toggles for its drawers (the overview puts them in its head). */
export function drawerButtons() {
  const g = el('span', 'drawer-toggles');
  g.setAttribute('role', 'group');
  g.setAttribute('aria-label', 'Panels beside the overview');
  for (const d of DRAWERS) {
    const b = el('button', 'drawer-toggle', d.label);
    b.type = 'button';
    b.dataset.drawer = d.name;
    b.setAttribute('aria-pressed', drawers[d.name] ? 'true' : 'false');
    b.setAttribute('aria-keyshortcuts', d.key);
    b.title = 'Show or hide ' + d.what + ' beside the overview (' + d.key + ')';
    b.addEventListener('click', () => toggleDrawer(d.name));
    g.appendChild(b);
  }
  return g;
}

// drawerKey: t, d, b toggle the drawers while the dashboard shows (not while typing, nor in a
// tree, where letters jump to rows).
function drawerKey(e) {
  if (!document.body.classList.contains('dash') || narrow.matches || e.ctrlKey || e.metaKey || e.altKey || e.defaultPrevented) return;
  const t = /** @type {HTMLElement} */ (e.target);
  if (t && t.closest && t.closest('input, textarea, select, [contenteditable], [role="tree"], [role="grid"]')) return;
  const d = DRAWERS.find((x) => x.key === e.key);
  if (!d) return;
  e.preventDefault();
  toggleDrawer(d.name);
}

/**
 * layoutInit wires the document page's layout: the splitters, maximise, the narrow window's
 * tabs and menu, the dashboard's drawers.
 * @param {HTMLElement} view the page's root
 */
export function layoutInit(view) {
  root = view;
  Object.assign(paneEls, {
    tree: { sec: $('pane-tree'), tab: $('pane-tab-tree') },
    detail: { sec: $('pane-detail'), tab: $('pane-tab-detail') },
    content: { sec: $('pane-content'), tab: $('pane-tab-content') },
  });
  drawers = loadDrawers();
  applyDrawers();
  window.addEventListener('keydown', drawerKey);
  // Below 1000 px the panes are tabs: a file opens on the content tab (its overview).
  on('document', () => { if (narrow.matches) showPane('content'); });
  sizes = load();
  for (const s of SPLITS) wireSplit(s);
  // The remembered sizes; the panes are hidden until a file opens, so they are clamped then.
  for (const s of SPLITS) {
    const v = sizes[s.key];
    if (typeof v === 'number' && isFinite(v) && v > 0) s.apply(v); else delete sizes[s.key];
  }
  // The panes get a size when a file opens and whenever the window changes: keep the widths
  // inside it (a width remembered from a bigger window must not squeeze the content to 0).
  new ResizeObserver(() => {
    if (root.hidden || narrow.matches) return;
    for (const s of SPLITS) if (s.axis === 'x' && typeof sizes[s.key] === 'number') { const [lo, hi] = s.bounds(); s.apply(Math.max(lo, Math.min(hi, sizes[s.key]))); }
  }).observe(root);
  document.querySelectorAll('.pane-max').forEach((b) => b.addEventListener('click', () => {
    const p = /** @type {HTMLElement} */ (b).dataset.pane;
    maximise(document.body.dataset.max === p ? null : p);
  }));
  window.addEventListener('keydown', (e) => {
    if (e.key !== 'Escape' || e.defaultPrevented || !document.body.dataset.max) return;
    e.preventDefault();
    const pane = document.body.dataset.max;
    maximise(null);
    const b = document.querySelector('.pane-max[data-pane="' + pane + '"]');
    if (document.activeElement === document.body && b) /** @type {HTMLElement} */ (b).focus();
  });
  for (const p of PANES) paneEls[p].sec.dataset.label = paneEls[p].sec.getAttribute('aria-label') || '';
  wireMenu();
  wirePaneTabs();
  showPane('tree');
  applyNarrow();
  narrow.addEventListener('change', applyNarrow);
}

/**
 * panesKeep notes where the panes are scrolled and where the focus is; the function it returns
 * puts them back (a redraw in place: the source lines mapped after the open). A tree row never
 * scrolls: its rows are left out, so a tree of 50,000 rows is not read (a row off screen is not
 * laid out, style.css; reading its scrollTop lays it out: 24 s for a deep def.json var).
 * @returns {() => void}
 */
export function panesKeep() {
  const scrolled = /** @type {[Element, number][]} */ (Array.from(root.querySelectorAll(':not(.ti, .ti *)')).filter((x) => x.scrollTop > 0).map((x) => [x, x.scrollTop]));
  const active = document.activeElement;
  return () => {
    for (const [x, top] of scrolled) if (x.isConnected) x.scrollTop = top;
    if (active instanceof HTMLElement && active.isConnected && document.activeElement !== active) active.focus({ preventScroll: true });
  };
}

/** For the tests: the remembered sizes and the state of the layout. */
export function layoutState() {
  return { sizes: Object.assign({}, sizes), max: document.body.dataset.max || '', narrow: narrow.matches, pane: panes().dataset.active || '', dash: document.body.classList.contains('dash'), drawers: Object.assign({}, drawers) };
}
