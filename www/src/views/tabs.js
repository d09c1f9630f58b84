// @ts-check
// The document tabs: one per open document, named by the shortest suffix of its path no other
// tab shares, shortened in the middle of what it shares with them (the full name in its title),
// a close button; the top bar's file name and the page title name the document on show. The
// strip is drawn again whenever the documents, the document on show or the page change; with
// no document left, the page's URL forgets the closed file.

import { $, el } from '../dom.js';
import { fmtSize } from '../lib/format.js';
import { distinctNames } from '../lib/names.js';
import { closeDoc, docs, state, switchDoc } from '../state/docs.js';
import { emit, on } from '../state/events.js';

/** @type {HTMLElement} the tab bar (#tabbar) */
let bar;

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
 * tabsRendered finishes the tab strip: one tab stop (the selected tab), the page title; the
 * bar shows while a document does (or keepBar: tabs to reopen a session's files).
 * @param {HTMLElement} nav
 * @param {import('../state/docs.js').DocState | null} current
 * @param {boolean} diffShown
 * @param {boolean} [keepBar]
 */
function tabsRendered(nav, current, diffShown, keepBar) {
  const tabs = Array.from(nav.querySelectorAll('[role="tab"]'));
  const sel = tabs.find((t) => t.getAttribute('aria-selected') === 'true') || tabs[0];
  for (const t of tabs) /** @type {HTMLElement} */ (t).tabIndex = t === sel ? 0 : -1;
  // The strip scrolls in itself when the tabs do not fit: keep the one on show in view.
  if (sel) { const r = sel.getBoundingClientRect(), n = nav.getBoundingClientRect(); if (r.left < n.left || r.right > n.right) nav.scrollLeft += r.left < n.left ? r.left - n.left - 8 : r.right - n.right + 8; }
  if (diffShown) {
    const dt = nav.querySelector('.diff-tab');
    document.title = (dt ? dt.textContent.replace(/diff$/, '').trim() + ' ' : '') + 'comparison — neffscope';
  } else document.title = current ? current.doc.file + ' — neffscope' : 'neffscope';
  bar.hidden = !current && !keepBar;
}

/**
 * tabsInit: the strip follows the documents and the page; arrows walk the tabs (they are one
 * tab stop), Home/End go to the ends.
 * @param {HTMLElement} root the tab bar
 */
export function tabsInit(root) {
  bar = root;
  on('document', ({ doc, ms }) => {
    const fn = $('file-name');
    fn.textContent = doc.file + ' · ' + fmtSize(doc.size);
    fn.title = 'opened in ' + ms + ' ms' + (doc.sha256 ? ' · sha-256 ' + doc.sha256 : '');
    tabsDraw();
  });
  on('docs', () => tabsDraw());
  // (With no document open the bar is hidden: a page shown then, such as a file's first
  // overview, draws no strip.)
  on('screen', () => { if (docs.length) tabsDraw(); });
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
 * tabsDraw draws the tab strip: one tab per open document, then those its subscribers add
 * (the comparisons', the compile cache's, a session's files to reopen: the 'tabs' event).
 * @param {boolean} [keepBar] the bar shows with no document on show (the tabs to reopen)
 */
export function tabsDraw(keepBar) {
  const nav = $('doc-tabs');
  nav.replaceChildren();
  nav.hidden = !docs.length;
  const names = distinctNames(docs.map((d) => d.doc.file), TAB_NAME_MAX);
  docs.forEach((d, i) => nav.appendChild(docTab(d, i, d === state, () => switchDoc(i), () => closeDoc(d), names[i])));
  const strip = { nav, diffShown: false };
  emit('tabs', strip);
  tabsRendered(nav, state, strip.diffShown, keepBar);
}

/**
 * tabsOpening puts up the strip a file being opened will have, its tab a placeholder, so the
 * panes do not move down when its document replaces its partial overview.
 * @param {string} name the file's
 */
export function tabsOpening(name) {
  const tab = el('span', 'doc-tab opening', name + ' · opening…');
  tab.setAttribute('aria-disabled', 'true');
  const wrap = el('span', 'doc-tab-wrap');
  wrap.appendChild(tab);
  $('doc-tabs').replaceChildren(wrap);
  $('doc-tabs').hidden = false;
  bar.hidden = false;
}

/** tabsClear takes the strip down (an open that put up its placeholder failed). */
export function tabsClear() {
  bar.hidden = true;
  $('doc-tabs').replaceChildren();
}

/**
 * showEmpty: the last document was closed — no tabs, no file name, and a URL that no longer
 * names it.
 */
function showEmpty() {
  bar.hidden = true;
  $('file-name').textContent = '';
  $('file-name').title = '';
  $('doc-tabs').replaceChildren();
  document.body.dataset.state = 'empty';
  document.title = 'neffscope';
  // The hash named the closed file: a reload must not bring it back.
  try { if (location.hash) history.replaceState(null, '', location.pathname + location.search); } catch (e) { /* file:// */ }
}
