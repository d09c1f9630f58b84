// @ts-check
// The Compare control by the tabs: compare the NEFF on show with another open one (a menu),
// with all of them at once, or with a file picked for it (opened as one more tab). An HLO
// module on show compares with another module the same ways, in the graph diff.

import { call, core } from '../../core/client.js';
import { $, el, toast } from '../../dom.js';
import { embedded } from '../../config.js';
import { fmtSize } from '../../lib/format.js';
import { docs, makeState, state } from '../../state/docs.js';
import { on } from '../../state/events.js';
import { unpackDocument } from '../../wire.js';
import { libRemember } from '../library.js';
import { hloCompare, isHLO } from '../hlodiff.js';
import { hideProgress, onProgress, showProgress } from '../progress.js';
import { docTitle, isNEFF, targetOf } from './compare.js';
import { compareMany } from './many.js';
import { compare } from './render.js';

/** @type {HTMLElement} the control (#compare) */
let box;

/**
 * compareMenuInit wires the button, its menu and the file input; the control follows the tab
 * strip (it shows for a NEFF), and a page change closes the menu.
 * @param {HTMLElement} root
 */
export function compareMenuInit(root) {
  box = root;
  on('tabs', updateCompare);
  on('screen', () => closeCompareMenu(false));
  $('compare-button').addEventListener('click', () => { if ($('compare-menu').hidden) openCompareMenu(); else closeCompareMenu(true); });
  $('compare-menu').addEventListener('keydown', compareMenuKey);
  document.addEventListener('mousedown', (e) => { if (!box.contains(/** @type {Node} */ (e.target))) closeCompareMenu(false); });
  $('compare-input').addEventListener('change', (e) => {
    const input = /** @type {HTMLInputElement} */ (e.target);
    const f = input.files && input.files[0];
    input.value = '';
    openForCompare(f);
  });
}

// sameKind: what the document on show compares with (NEFFs with NEFFs, HLO modules with HLO
// modules), and the comparison of two of them.
const sameKind = () => (isHLO(state) ? isHLO : isNEFF);
const compareTwo = (a, b) => (isHLO(a) ? hloCompare(a, b) : compare(a, b));

function updateCompare() {
  box.hidden = embedded || !(isNEFF(state) || isHLO(state));
  const others = docs.filter((d) => d !== state && sameKind()(d));
  const b = $('compare-button');
  b.textContent = others.length ? '⇄ Compare ▾' : '⇄ Compare with…';
  b.title = others.length ? 'Compare ' + state.doc.file + ' with another open NEFF, or with a file' : 'Choose a second NEFF to compare ' + (state ? state.doc.file : '') + ' with';
  if (others.length) b.setAttribute('aria-haspopup', 'menu'); else b.removeAttribute('aria-haspopup');
}

function closeCompareMenu(focusButton) {
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

function openCompareMenu() {
  if (!isNEFF(state) && !isHLO(state)) return;
  const others = docs.filter((d) => d !== state && sameKind()(d));
  if (!others.length) { $('compare-input').click(); return; }
  const a = state;
  const menu = $('compare-menu');
  menu.replaceChildren(el('div', 'menu-note', 'Compare A = ' + docTitle(a) + ' with B ='));
  for (const d of others) {
    const item = menuItem(docTitle(d), [fmtSize(d.doc.size), targetOf(d)].filter(Boolean).join(' · '), () => compareTwo(a, d));
    item.dataset.index = docs.indexOf(d);
    menu.appendChild(item);
  }
  // Three or more NEFFs open: all of them in one table, the odd one out flagged.
  const all = docs.filter(isNEFF);
  if (isNEFF(a) && all.length >= 3) {
    menu.appendChild(el('div', 'menu-sep'));
    const item = menuItem('All ' + all.length + ' open NEFFs', 'one table of what differs', () => compareMany(all));
    item.id = 'compare-all';
    menu.appendChild(item);
  }
  menu.appendChild(el('div', 'menu-sep'));
  menu.appendChild(menuItem(isHLO(a) ? 'Another HLO module…' : 'Another NEFF file…', 'opens it as a new tab', () => $('compare-input').click()));
  menu.hidden = false;
  $('compare-button').setAttribute('aria-expanded', 'true');
  /** @type {HTMLElement} */ (menu.querySelector('.menu-item')).focus();
}

function compareMenuKey(e) {
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
async function openForCompare(file) {
  const a = state;
  if (!file || !(isNEFF(a) || isHLO(a))) return;
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
    compareTwo(a, st);
  } catch (e) {
    toast(e.code === 'cancelled' ? 'Cancelled reading ' + file.name : 'Could not open ' + file.name + ' to compare: ' + e.message, e.code === 'cancelled' ? 'info' : 'error');
  } finally {
    hideProgress();
  }
}
