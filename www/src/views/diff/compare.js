// @ts-check
// Comparing two NEFFs: picking A and B, the compare menu, running fleet.Diff in the core.

import { call, core } from '../../core/client.js';
import { $, el, toast } from '../../dom.js';
import { embedded } from '../../config.js';
import { onProgress, showProgress } from '../progress.js';
import { fmtSize } from '../../lib/format.js';
import { docs, field, findMember, keyOf, makeState, renderDocument, renderTabs, setCurrent, state, switchDoc } from '../../state/docs.js';
import { diff } from '../../state/comparison.js';
import { select } from '../../state/selection.js';
import { unpackDocument, unpackNode } from '../../wire.js';
import { mainTree } from '../tree.js';
import { follow } from '../overview.js';
import { instructionAt } from '../listing.js';
import { search, searchClose } from '../search.js';
import { emit } from '../../state/events.js';
import { shortName } from '../fullview.js';
import { libRemember } from '../library.js';
import { DOC_KIND, KIND } from '../../lib/vocab.gen.js';

// Comparing two NEFFs (fleet.Diff in the core): the current document against another open
// one (the Compare menu by the tabs) or against a file picked for it (Compare with…). The
// comparison has a tab of its own; every member in it jumps to that member in A or B.

export const DIFF_ROWS = 2000; // rows built per member group before a "show more"
export { diff };
export const CHANGE_MARK = { changed: '≠', added: '+', removed: '−', operands: '≈' };
export const CHANGE_TITLE = { changed: 'differs', added: 'only in B', removed: 'only in A', operands: 'same opcode counts, other operands' };
const isNEFF = (d) => !!(d && d.doc && d.doc.kind === DOC_KIND.NEFF);

// handleFor is ensureHandle for any document: reopened in the core after a worker restart.
export async function handleFor(st) {
  if (st.gen === core.gen && st.handle) return st.handle;
  const h = await st.reopen();
  st.handle = h;
  st.gen = core.gen;
  return h;
}

// docTitle names a document; documents of the same name get their tab number.
// Documents opened from a folder are named by their cache entry (views/cache.js shortName).
export function docTitle(st) {
  const same = docs.filter((d) => d.doc.file === st.doc.file);
  return same.length > 1 ? shortName(st) + ' #' + (docs.indexOf(st) + 1) : shortName(st);
}

// targetOf: the kelf target and arch of a NEFF (from the document's model), or ''.
function targetOf(st) {
  const t = field(st.doc, 'model', 'target');
  if (!t) return '';
  const a = t.attrs || {};
  return (a.target || '') + (a.arch_name ? ' (' + a.arch_name + ')' : '');
}

function updateCompare() {
  const box = $('compare');
  box.hidden = embedded || !isNEFF(state);
  const others = docs.filter((d) => d !== state && isNEFF(d));
  const b = $('compare-button');
  b.textContent = others.length ? '⇄ Compare ▾' : '⇄ Compare with…';
  b.title = others.length ? 'Compare ' + state.doc.file + ' with another open NEFF, or with a file' : 'Choose a second NEFF to compare ' + (state ? state.doc.file : '') + ' with';
  if (others.length) b.setAttribute('aria-haspopup', 'menu'); else b.removeAttribute('aria-haspopup');
}

// diffTabs: hook of renderTabs — numbers tabs of the same name, and adds the comparison's tab.
export function diffTabs(nav) {
  nav.querySelectorAll('.doc-tab').forEach((b) => {
    const d = docs[Number(b.dataset.index)];
    if (d && docs.some((x) => x !== d && x.doc.file === d.doc.file)) b.insertBefore(el('span', 'tab-n', '#' + (docs.indexOf(d) + 1)), b.lastChild);
    if (diff.shown) b.setAttribute('aria-selected', 'false');
    // The compared documents carry their letter.
    const side = d && diff.a && diff.b ? (d === diff.a ? 'a' : d === diff.b ? 'b' : '') : '';
    if (side) {
      const l = el('span', 'side-letter tab-side side-' + side, side.toUpperCase());
      l.title = side === 'a' ? 'A in the comparison' : 'B in the comparison';
      b.insertBefore(l, b.firstChild);
    }
  });
  if (diff.a && diff.b && docs.includes(diff.a) && docs.includes(diff.b)) {
    const t = el('button', 'doc-tab diff-tab');
    t.type = 'button';
    t.setAttribute('role', 'tab');
    t.setAttribute('aria-selected', diff.shown ? 'true' : 'false');
    t.appendChild(el('span', 'diff-glyph', '⇄'));
    t.appendChild(el('span', '', '#' + (docs.indexOf(diff.a) + 1) + ' vs #' + (docs.indexOf(diff.b) + 1)));
    t.appendChild(el('span', 'tab-kind', 'diff'));
    t.title = 'Comparison: A ' + docTitle(diff.a) + ' · B ' + docTitle(diff.b);
    t.addEventListener('click', () => showDiffView());
    nav.appendChild(t);
    nav.hidden = false;
  }
  updateCompare();
}

// ---- the Compare menu ----

export function closeCompareMenu(focusButton) {
  const menu = $('compare-menu');
  if (menu.hidden) return;
  menu.hidden = true;
  $('compare-button').setAttribute('aria-expanded', 'false');
  if (focusButton) $('compare-button').focus();
}

function menuItem(label, note, act) {
  const b = el('button', 'menu-item');
  b.type = 'button';
  b.setAttribute('role', 'menuitem');
  b.tabIndex = -1;
  b.appendChild(el('span', 'mi-label', label));
  if (note) b.appendChild(el('span', 'mi-note', note));
  b.addEventListener('click', () => { closeCompareMenu(false); act(); });
  return b;
}

export function openCompareMenu() {
  if (!isNEFF(state)) return;
  const others = docs.filter((d) => d !== state && isNEFF(d));
  if (!others.length) { $('compare-input').click(); return; }
  const a = state;
  const menu = $('compare-menu');
  menu.replaceChildren(el('div', 'menu-note', 'Compare A = ' + docTitle(a) + ' with B ='));
  for (const d of others) {
    const item = menuItem(docTitle(d), [fmtSize(d.doc.size), targetOf(d)].filter(Boolean).join(' · '), () => compare(a, d));
    item.dataset.index = docs.indexOf(d);
    menu.appendChild(item);
  }
  // Three or more NEFFs open: all of them in one table, the odd one out flagged.
  const all = docs.filter(isNEFF);
  if (all.length >= 3) {
    menu.appendChild(el('div', 'menu-sep'));
    const item = menuItem('All ' + all.length + ' open NEFFs', 'one table of what differs', () => emit('compareMany', { list: all }));
    item.id = 'compare-all';
    menu.appendChild(item);
  }
  menu.appendChild(el('div', 'menu-sep'));
  menu.appendChild(menuItem('Another NEFF file…', 'opens it as a new tab', () => $('compare-input').click()));
  menu.hidden = false;
  $('compare-button').setAttribute('aria-expanded', 'true');
  /** @type {HTMLElement} */ (menu.querySelector('.menu-item')).focus();
}

export function compareMenuKey(e) {
  /** @type {HTMLElement[]} */
  const items = Array.from($('compare-menu').querySelectorAll('.menu-item'));
  const i = items.indexOf(/** @type {HTMLElement} */ (document.activeElement));
  switch (e.key) {
    case 'ArrowDown': items[(i + 1) % items.length].focus(); break;
    case 'ArrowUp': items[(i - 1 + items.length) % items.length].focus(); break;
    case 'Home': items[0].focus(); break;
    case 'End': items[items.length - 1].focus(); break;
    case 'Escape': closeCompareMenu(true); break;
    case 'Tab': closeCompareMenu(false); return;
    default: return;
  }
  e.preventDefault();
}

// openForCompare opens a picked file as one more tab and compares the current NEFF with it.
export async function openForCompare(file) {
  const a = state;
  if (!file || !isNEFF(a)) return;
  const t0 = performance.now();
  showProgress(file);
  try {
    const r = await call('open', { file, name: file.name }, { onEvent: (event, p) => { if (event === 'progress') onProgress(file, t0, p); } });
    if (!docs.includes(a)) { call('close', { handle: r.handle }).catch(() => {}); return; } // another open replaced A
    const st = makeState(unpackDocument(r.doc), { file, handle: r.handle, gen: core.gen });
    st.reopen = async () => (await call('open', { file, name: file.name })).handle;
    docs.push(st);
    // Kept like any opened file, so that a reload brings the comparison back with both sides.
    libRemember(st, 'open', [file]);
    compare(a, st);
  } catch (e) {
    toast(e.code === 'cancelled' ? 'Cancelled reading ' + file.name : 'Could not open ' + file.name + ' to compare: ' + e.message, e.code === 'cancelled' ? 'info' : 'error');
  } finally {
    $('progress').hidden = true;
  }
}

// compare asks the core for the diff of a and b and shows it.
export async function compare(a, b) {
  const seq = ++diff.seq;
  Object.assign(diff, { a, b, node: null, error: '', ms: 0 });
  showDiffView();
  const t0 = performance.now();
  try {
    const ha = await handleFor(a);
    const hb = await handleFor(b);
    const r = await call('diff', { a: ha, b: hb });
    if (seq !== diff.seq) return;
    diff.node = unpackNode(r.node);
  } catch (e) {
    if (seq !== diff.seq) return;
    diff.error = e.message;
  }
  if (diff.shown) emit('diffRender', {});
  diff.ms = performance.now() - t0; // core diff, transfer, decode and render: for tests
}

// ---- the view ----

function showDiffView() {
  if (!diff.a || !diff.b) return;
  closeCompareMenu(false);
  if (search.q) searchClose();
  emit('pageView', { view: 'diff' });
  diff.shown = true;
  document.body.dataset.view = 'diff';
  $('diff-view').hidden = false;
  renderTabs();
  emit('diffRender', {});
  $('diff-body').focus({ preventScroll: true });
}

export function hideDiffView() {
  if (!diff.shown) return;
  diff.shown = false;
  delete document.body.dataset.view;
  $('diff-view').hidden = true;
}

// diffForget drops the comparison (its documents were closed).
export function diffForget() {
  hideDiffView();
  diff.seq++;
  Object.assign(diff, { a: null, b: null, node: null, error: '' });
}

// diffSide leaves the comparison for document A or B (its tab shows); null when it was closed.
function diffSide(side) {
  const st = side === 'a' ? diff.a : diff.b;
  if (!docs.includes(st)) { toast('Document ' + side.toUpperCase() + ' is no longer open'); return null; }
  hideDiffView();
  setCurrent(st);
  renderDocument(0);
  return st;
}

// diffJump shows member path in document A or B (the tab switches, the member is selected).
export function diffJump(side, path) {
  const st = diffSide(side);
  if (!st) return;
  const m = findMember(path);
  if (!m) { toast(path + ' is not a member of ' + st.doc.file, 'warning'); return; }
  select(m, 'diff');
  mainTree.markSelected(m, true);
}

// diffJumpLine shows a kernel line (its key under model › source › lines) in document A or B.
export function diffJumpLine(side, key) {
  if (diffSide(side)) follow(['model', 'source', 'lines', key].map(encodeURIComponent).join('/'));
}

// diffJumpWord shows instruction index of a stream member in document A or B, in its listing.
export function diffJumpWord(side, member, index) {
  if (diffSide(side)) instructionAt(member, index);
}

export function diffSides() {
  const box = $('diff-sides');
  box.replaceChildren();
  [['a', diff.a], ['b', diff.b]].forEach(([side, st], i) => {
    if (i) box.appendChild(el('span', 'diff-arrow', '⇄'));
    const b = el('button', 'diff-side side-' + side);
    b.type = 'button';
    b.dataset.side = side;
    b.title = 'Show ' + docTitle(st) + (st.doc.sha256 ? ' · sha-256 ' + st.doc.sha256 : '');
    b.appendChild(el('span', 'side-letter', side.toUpperCase()));
    b.appendChild(el('span', 'side-name', docTitle(st)));
    b.appendChild(el('span', 'side-note', [fmtSize(st.doc.size), targetOf(st)].filter(Boolean).join(' · ')));
    b.addEventListener('click', () => { const i = docs.indexOf(st); hideDiffView(); if (st === state) renderTabs(); else switchDoc(i); });
    box.appendChild(b);
  });
}

export const kidOf = (n, key) => (n && n.kids || []).find((c) => keyOf(c) === key) || null;
// changesOf: a change node's own differences (its children after the "a"/"b" values).
export const changesOf = (n) => (n && n.kids || []).filter((c) => c.kind !== KIND.FIELD);
export const shortSHA = (s) => (s ? s.slice(0, 12) : '');

// setHideSame shows only the differences (on) or every row, keeping the checkbox in step.
export function setHideSame(on) {
  diff.hideSame = on;
  $('diff-hide-same').checked = on;
  $('diff-body').classList.toggle('hide-same', on);
}
