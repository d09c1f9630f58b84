// @ts-check
// The document tabs: one per open document, named by the shortest suffix of its path no other
// tab shares, shortened in the middle of what it shares with them (the full name in its title), a close button; the page title names the document on show. With no document
// left, the page goes back to its welcome screen.

import { $, el } from '../dom.js';
import { fmtSize } from '../lib/format.js';
import { distinctNames } from '../lib/names.js';
import { closeDoc, docs, state, switchDoc } from '../state/docs.js';
import { emit, on } from '../state/events.js';

export const TAB_NAME_MAX = 20;

/**
 * docTab builds one tab: the tab itself (role=tab, class doc-tab, data-index) and, beside it,
 * its close button (not a tab stop: Delete on the tab closes it too).
 * @param {import('../state/docs.js').DocState} d
 * @param {number} i
 * @param {boolean} current
 * @param {() => void} onPick
 * @param {() => void} onClose
 * @param {string} [name] the name to show (distinctNames among the open tabs)
 */
export function docTab(d, i, current, onPick, onClose, name) {
  const wrap = el('span', 'doc-tab-wrap');
  wrap.setAttribute('role', 'presentation');
  const b = el('button', 'doc-tab');
  b.type = 'button';
  b.setAttribute('role', 'tab');
  b.setAttribute('aria-selected', current ? 'true' : 'false');
  b.tabIndex = current ? 0 : -1;
  b.dataset.kind = d.doc.kind;
  b.dataset.index = String(i);
  b.title = d.doc.file + ' · ' + d.doc.kind + ' · ' + fmtSize(d.doc.size);
  b.setAttribute('aria-label', d.doc.file + ' (' + d.doc.kind + ')');
  b.appendChild(el('span', 'tab-name', name || distinctNames([d.doc.file], TAB_NAME_MAX)[0]));
  b.appendChild(el('span', 'tab-kind', d.doc.kind));
  b.addEventListener('click', onPick);
  b.addEventListener('keydown', (e) => { if (e.key === 'Delete') { e.preventDefault(); onClose(); refocusTabs(); } });
  const x = el('button', 'tab-close', '×');
  x.type = 'button';
  x.tabIndex = -1;
  x.title = 'Close ' + d.doc.file + ' (Delete on the tab)';
  x.setAttribute('aria-label', 'Close ' + d.doc.file);
  x.addEventListener('click', (e) => { e.stopPropagation(); onClose(); });
  // A middle click closes, as in a browser's tab strip.
  b.addEventListener('auxclick', (e) => { if (e.button === 1) { e.preventDefault(); onClose(); } });
  wrap.append(b, x);
  return wrap;
}

function refocusTabs() {
  const t = /** @type {HTMLElement | null} */ ($('doc-tabs').querySelector('[role="tab"][aria-selected="true"]') || $('doc-tabs').querySelector('[role="tab"]'));
  if (t) t.focus();
}

/**
 * tabsRendered finishes the tab strip: one tab stop (the selected tab), the page title.
 * @param {HTMLElement} nav
 * @param {import('../state/docs.js').DocState | null} current
 * @param {boolean} diffShown
 */
export function tabsRendered(nav, current, diffShown) {
  const tabs = Array.from(nav.querySelectorAll('[role="tab"]'));
  const sel = tabs.find((t) => t.getAttribute('aria-selected') === 'true') || tabs[0];
  for (const t of tabs) /** @type {HTMLElement} */ (t).tabIndex = t === sel ? 0 : -1;
  // The strip scrolls in itself when the tabs do not fit: keep the one on show in view.
  if (sel) { const r = sel.getBoundingClientRect(), n = nav.getBoundingClientRect(); if (r.left < n.left || r.right > n.right) nav.scrollLeft += r.left < n.left ? r.left - n.left - 8 : r.right - n.right + 8; }
  if (diffShown) {
    const dt = nav.querySelector('.diff-tab');
    document.title = (dt ? dt.textContent.replace(/diff$/, '').trim() + ' ' : '') + 'comparison — neffscope';
  } else document.title = current ? current.doc.file + ' — neffscope' : 'neffscope';
  $('tabbar').hidden = !current;
}

/**
 * tabsInit: arrows walk the tabs (they are one tab stop), Home/End go to the ends.
 */
export function tabsInit() {
  on('redrawTabs', drawTabs);
  on('empty', showEmpty);
  const nav = $('doc-tabs');
  nav.addEventListener('keydown', (e) => {
    const tabs = /** @type {HTMLElement[]} */ (Array.from(nav.querySelectorAll('[role="tab"]')));
    const i = tabs.indexOf(/** @type {HTMLElement} */ (document.activeElement));
    if (i < 0) return;
    let j;
    switch (e.key) {
      case 'ArrowRight': j = (i + 1) % tabs.length; break;
      case 'ArrowLeft': j = (i - 1 + tabs.length) % tabs.length; break;
      case 'Home': j = 0; break;
      case 'End': j = tabs.length - 1; break;
      default: return;
    }
    e.preventDefault();
    tabs[j].click();
    // The strip was rebuilt by the click: focus the tab now selected.
    refocusTabs();
  });
}

/**
 * drawTabs draws the tab strip: one tab per open document, then those its subscribers add
 * (the comparison's: the 'tabs' event).
 */
function drawTabs() {
  const nav = $('doc-tabs');
  nav.replaceChildren();
  nav.hidden = !docs.length;
  const names = distinctNames(docs.map((d) => d.doc.file), TAB_NAME_MAX);
  docs.forEach((d, i) => nav.appendChild(docTab(d, i, d === state, () => switchDoc(i), () => closeDoc(d), names[i])));
  const strip = { nav, diffShown: false };
  emit('tabs', strip);
  tabsRendered(nav, state, strip.diffShown);
}

/**
 * showEmpty: the last document was closed — back to the welcome screen.
 */
export function showEmpty() {
  for (const id of ['panes', 'summary', 'findings', 'search-box', 'export', 'tabbar']) $(id).hidden = true;
  $('welcome').hidden = false;
  $('file-name').textContent = '';
  $('file-name').title = '';
  $('doc-tabs').replaceChildren();
  document.body.dataset.state = 'empty';
  document.title = 'neffscope';
  // The hash named the closed file: a reload must not bring it back.
  try { if (location.hash) history.replaceState(null, '', location.pathname + location.search); } catch (e) { /* file:// */ }
}
