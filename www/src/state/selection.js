// @ts-check
// Selection: select() is the hub every view calls; the panes follow it by the 'select' event,
// the URL hash follows it, and back/forward follow the hash.

import { embedded } from '../config.js';
import { fingerprintOf, formHash, hashPath, hashPathKey, instructionOf, parseHash } from '../lib/hash.js';
import { docs, field, pathOf, state } from './store.js';
import { emit } from './events.js';
import { ensurePath } from './lazy.js';

/**
 * select is the one place a selection happens, whoever asked (tree, JSON view, hex, a
 * finding, a table row, the summary): the panes follow (the 'select' event: the detail, the
 * trees and the content, the export buttons), and the URL hash.
 * @param {import('../wire.js').Node} n
 * @param {string} [from] who asked: 'tree', 'json', 'hex', 'table', 'search', 'hash', 'open', …
 * @param {import('../wire.js').Span} [spanOverride] bytes to highlight instead of n's
 */
export function select(n, from, spanOverride) {
  setSelected(n);
  emit('select', { n, from, spanOverride });
  if (from !== 'hash') recordHash(n, from === 'open');
}

// URL hash: #f=<first 16 hex digits of the file's sha-256>&n=<node path>, each path key
// URI-encoded (directory keys end in '/') and joined by '/'; an instruction is "…/#N" under its
// stream, and b=0x<offset> names a byte. Every deliberate selection pushes a history entry
// (a step by the keyboard in the listing replaces it), so back and forward walk the places;
// a hash naming an open file's fingerprint selects its node, now or when that file is opened
// again (a link or a reload).

/**
 * docFingerprint: the fingerprint of document d in the URL hash ('' for none).
 * @param {import('./store.js').DocState | null} d
 */
export const docFingerprint = (d) => (d && d.doc ? fingerprintOf(d.doc.sha256) : '');
const fingerprint = docFingerprint;

/**
 * docPlace: what a hash says of document d beside its fingerprint, so a page without the file
 * can say which one to open: its name, its size, and a NEFF's UUID.
 * @param {import('./store.js').DocState | null} d
 * @returns {{name: string, size: number | null, uuid: string}}
 */
export function docPlace(d) {
  const u = d && d.doc ? field(d.doc, 'header', 'uuid') : null;
  return { name: d && d.doc ? d.doc.file || '' : '', size: d && d.doc && d.doc.size > 0 ? d.doc.size : null, uuid: u && typeof u.value === 'string' ? u.value : '' };
}

/**
 * The view open over the selection, as the hash names it (features/permalink.js says, from
 * the views): v and its window, or a comparison (d: its A, the document the hash names first).
 * @typedef {import('../lib/hash.js').Place & {d?: import('./store.js').DocState}} ViewPlace
 */
/** @type {() => ViewPlace} */
let viewPlace = () => ({});

/**
 * setViewPlace: fn says which view is open over the selection, for every hash written.
 * @param {() => ViewPlace} fn
 */
export function setViewPlace(fn) {
  viewPlace = fn;
}

function hashFor(n, byte, last) {
  const v = viewPlace();
  if (v.d && v.d !== state) return formHash(fingerprint(state), pathOf(n), byte, last, docPlace(state));
  return formHash(fingerprint(state), pathOf(n), byte, last, Object.assign(docPlace(state), v));
}

/**
 * hashTarget finds the open document and node a hash names, or null.
 * @param {string} h
 * @returns {{d: import('./store.js').DocState, node: import('../wire.js').Node} | null}
 */
export function hashTarget(h) {
  const { f, n } = parseHash(h);
  if (!f || n === null) return null;
  const d = docs.find((x) => fingerprint(x) === f) || (fingerprint(state) === f ? state : null);
  if (!d) return null;
  const key = hashPathKey(n);
  const node = key === null ? null : d.byPath.get(key);
  return node ? { d, node } : null;
}

/**
 * hashWanted: the open document a hash names and the path it names there (null path: none,
 * or bad encoding), whether or not the page holds that node yet; null when no open document
 * has the hash's fingerprint.
 * @param {string} h
 * @returns {{d: import('./store.js').DocState, path: string[] | null} | null}
 */
export function hashWanted(h) {
  const { f, n } = parseHash(h);
  if (!f) return null;
  const d = docs.find((x) => fingerprint(x) === f) || (fingerprint(state) === f ? state : null);
  return d ? { d, path: n === null ? null : hashPath(n) } : null;
}

/**
 * followPath selects the node at path in the document on show, fetching what lies under stubs
 * first (ensurePath); false when there is no such node, or the user moved to another
 * document meanwhile.
 * @param {string[]} path
 * @param {string} [from] as select's (default 'link': a jump, which pushes a history entry)
 * @returns {Promise<boolean>}
 */
export async function followPath(path, from) {
  const st = state;
  const n = await ensurePath(path, st);
  if (!n || state !== st) return false;
  select(n, from || 'link');
  return true;
}

/**
 * followLink is followPath for a link in the URL hash's path form (Node.link, Table.rlinks).
 * @param {string} link
 */
export function followLink(link) {
  const path = link ? hashPath(link) : null;
  return path ? followPath(path, 'link') : Promise.resolve(false);
}

export let hashWrites = 0; // for tests: history entries this page pushed

function recordHash(n, replace) {
  if (embedded || !state.info.has(n) || !state.byPath) return;
  const h = hashFor(n);
  if (!h || h === location.hash) return;
  // An instruction picked where the hash names its stream refines that entry (the stream was
  // selected on the way to it): one history entry per place the user went.
  const inst = instructionOf(state.info.get(n).path);
  if (inst && !replace) {
    const cur = parseHash(location.hash);
    const at = cur.f === fingerprint(state) && cur.n !== null ? hashPathKey(cur.n) : null;
    // (The stream, or its member: a link to an engine's listing names the member.)
    if (at !== null && (at === inst.stream.join('/') || at === inst.stream.slice(0, -1).join('/'))) replace = true;
  }
  try {
    if (replace) history.replaceState(null, '', h);
    else { history.pushState(null, '', h); hashWrites++; }
  } catch (e) { /* some file:// contexts refuse: the page works without the hash */ }
}

/**
 * recordPlace puts n (an instruction the listing adopted, shown without select) in the URL
 * hash: 'push' a history entry (a deliberate pick), 'replace' the current one (a step by the
 * keyboard), 'none' (the hash itself asked for it).
 * @param {import('../wire.js').Node} n
 * @param {'push' | 'replace' | 'none'} mode
 */
export function recordPlace(n, mode) {
  if (mode !== 'none') recordHash(n, mode === 'replace');
}

/**
 * recordByte puts byte off of n's source into the hash beside n (the hex view's pick of one
 * byte: the entry select just pushed for n becomes the byte's), or the range off..last.
 * @param {import('../wire.js').Node} n
 * @param {number} off
 * @param {number} [last] a range's last byte (a shift-click)
 */
export function recordByte(n, off, last) {
  if (embedded || !state.info.has(n)) return;
  const h = hashFor(n, off, last);
  if (!h || h === location.hash) return;
  try { history.replaceState(null, '', h); } catch (e) { /* file:// */ }
}

/**
 * recordView puts the view open now (setViewPlace) in the hash, beside the selection of the
 * document it names: 'push' a history entry (a view opened or left), 'replace' the current
 * one (a view zoomed or panned).
 * @param {'push' | 'replace'} mode
 */
export function recordView(mode) {
  const v = viewPlace();
  const d = v.d || state;
  if (embedded || !d || !d.doc || !d.info) return;
  const sel = d.selected && d.info.has(d.selected) ? d.info.get(d.selected).path : [];
  const h = formHash(fingerprint(d), sel, undefined, undefined, Object.assign(docPlace(d), v));
  if (!h || h === location.hash) return;
  try {
    if (mode === 'replace') history.replaceState(null, '', h);
    else { history.pushState(null, '', h); hashWrites++; }
  } catch (e) { /* file:// */ }
}

/**
 * restoreHash makes h the current entry's hash without following it (a link's hash the
 * page kept while the file it names was not open).
 * @param {string} h
 */
export function restoreHash(h) {
  if (embedded || !h || h === location.hash) return;
  try { history.replaceState(null, '', h); } catch (e) { /* file:// */ }
}

/**
 * setSelected records n as the current document's selection without showing it (a view that
 * has already shown it, such as the listing's instruction detail).
 * @param {import('../wire.js').Node} n
 */
export function setSelected(n) {
  state.selected = n;
}
