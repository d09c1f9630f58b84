// @ts-check
// The notice a link shows on the welcome screen when the file it names is not open here (a
// colleague's link, a reload in a browser that did not keep the file): which file to open, by
// name, size, UUID and fingerprint; the place the link names, which the page goes to once the file
// is opened (features/permalink.js); and that nothing was uploaded.

import { el } from '../dom.js';
import { fmtSize } from '../lib/format.js';
import { hashPath, instructionOf } from '../lib/hash.js';
import { PAGE_CODE } from '../lib/vocab.gen.js';

/** @type {HTMLElement} the notice (#link-wanted) */
let root;

/** @type {{openFiles: (fs: File[]) => Promise<any>}} */
const opener = { openFiles: async () => null };

/**
 * linkWantedInit: the notice's root; app opens what its button picks.
 * @param {HTMLElement} view
 * @param {{app: {openFiles: (fs: File[]) => Promise<any>}}} ctx
 */
export function linkWantedInit(view, { app }) {
  root = view;
  opener.openFiles = app.openFiles;
}

/**
 * A file a link names: its fingerprint, name, size and UUID (as the link says them; '' or
 * null unknown).
 * @typedef {import('../lib/hash.js').LinkedFile} LinkedFile
 */

/**
 * linkedFileText: one file as a link names it, for the notice and the page's toasts.
 * @param {LinkedFile} w
 */
export function linkedFileText(w) {
  return (w.name || 'the file') + ' (' + ids(w) + ')';
}

// ids: a linked file's size, UUID and fingerprint, as the notice and the toasts say them.
function ids(w) {
  return (w.size ? fmtSize(w.size) + ', ' : '') + (w.uuid ? 'UUID ' + w.uuid + ', ' : '') + 'sha-256 ' + w.f + '…';
}

/**
 * placeText: the place a hash names, in words ('' for a file's landing).
 * @param {import('../lib/hash.js').Hash} h
 */
export function placeText(h) {
  const path = h.n ? hashPath(h.n) : null;
  const inst = instructionOf(path);
  let at = inst ? inst.stream.filter((k) => k !== 'members').join('').replace(/\/$/, '') + ' #' + inst.index
    : path && path.length ? path.join(' › ').replace(/\/ ›/g, ' ›') : '';
  if (h.b !== null) at += (at ? ', ' : '') + 'byte 0x' + h.b.toString(16) + (h.bLast !== null ? '–0x' + h.bLast.toString(16) : '');
  if (h.v === 'schedule' || h.v === 'memory') at += (at ? ', ' : '') + 'in the ' + (h.v === 'schedule' ? 'schedule' : 'memory view') + (h.w ? ' (steps ' + h.w.lo + '–' + h.w.hi + ')' : '');
  return at;
}

/**
 * linkWantedShow says which files the link in the URL names and are not open (missing), the
 * place it names, and that the page goes there once they are opened.
 * @param {{missing: LinkedFile[], compare: number, place: string, looked: boolean}} w
 *   compare: the files the link compares (0: it is no comparison); looked: this browser's
 *   library was asked and does not hold them
 */
export function linkWantedShow(w) {
  const one = w.missing.length === 1;
  root.replaceChildren();
  root.appendChild(el('h2', 'lw-title', w.compare ? 'This link compares ' + (w.compare === 2 ? 'two' : w.compare) + ' files' : 'This link points into a file that is not open here'));
  const p = el('p', 'lw-files');
  p.append(one ? 'Open ' : w.missing.length === 2 ? 'Open both ' : 'Open all ' + w.missing.length + ': ', ...w.missing.flatMap((f, i) => [i ? (i === w.missing.length - 1 ? ' and ' : ', ') : '', fileLabel(f)]), w.looked ? ' — this browser does not have ' + (one ? 'it' : 'them') + ' kept.' : '.');
  root.appendChild(p);
  root.appendChild(el('p', 'lw-place', 'Once ' + (one ? 'it is' : 'they are') + ' open, the page goes to ' + (w.compare ? 'their comparison' : w.place ? 'the place the link names: ' + w.place : 'the file') + '.'));
  const actions = el('div', 'lw-actions');
  const b = /** @type {HTMLButtonElement} */ (el('button', 'button primary lw-open', one ? 'Open ' + (w.missing[0].name || 'the file') + '…' : 'Open the files…'));
  b.type = 'button';
  b.addEventListener('click', () => linkWantedPick(!one));
  actions.append(b, el('span', 'muted', 'or drop ' + (one ? 'it' : 'them') + ' anywhere'));
  root.appendChild(actions);
  root.appendChild(el('p', 'muted lw-note', 'Nothing was uploaded: a neffscope link carries only a file\'s name, size, UUID and the start of its sha-256, never its bytes. Whoever sent it has the file.'));
  root.dataset.code = PAGE_CODE.LINK_FILE_MISSING;
  root.hidden = false;
}

/**
 * linkWantedPick asks for the files a link wants (a file picker) and opens them.
 * @param {boolean} multiple more than one file wanted
 */
export function linkWantedPick(multiple) {
  const input = /** @type {HTMLInputElement} */ (el('input'));
  input.type = 'file';
  input.multiple = multiple;
  input.addEventListener('change', () => { if (input.files && input.files.length) opener.openFiles(Array.from(input.files)); });
  input.click();
}

/** linkWantedHide takes the notice down (the files are open, or the link was left). */
export function linkWantedHide() {
  if (root) root.hidden = true;
}

// fileLabel: a file's name (strong) and its size, UUID and fingerprint.
function fileLabel(f) {
  const s = el('span', 'lw-file');
  s.dataset.f = f.f;
  s.dataset.size = f.size ? String(f.size) : '';
  s.appendChild(el('strong', 'lw-name', f.name || 'the file'));
  s.append(' ', el('span', 'lw-ids mono', '(' + ids(f) + ')'));
  return s;
}
