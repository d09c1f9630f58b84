// @ts-check
// Showing the open documents: the tabs' list changing (open, add, close, switch) and rendering
// the document on show; the views follow by the facts of state/events.js. The documents and
// their index are state/store.js's, re-exported here.

import { call, core } from '../core/client.js';
import { instructionOf, parseHash } from '../lib/hash.js';
import { unpackDocument } from '../wire.js';
import { diff, forgetComparison } from './comparison.js';
import { emit } from './events.js';
import { ensurePath, stubOnPath } from './lazy.js';
import { showPage } from './screen.js';
import { docFingerprint, followPath, hashTarget, hashWanted, select } from './selection.js';
import { docs, field, makeState, setCurrent, setDocs, state } from './store.js';

export * from './store.js';

/** @typedef {import('./store.js').DocState} DocState */

/**
 * showDocs makes list the open documents (tabs) and shows list[i]; ms: how long opening took.
 * @param {DocState[]} list
 * @param {number} i
 * @param {number} ms
 */
export function showDocs(list, i, ms) {
  setDocs(list);
  setCurrent(list[i]);
  renderDocument(ms);
}

/**
 * addDocs adds list to the open documents (tabs) and shows list[i]; a document already open
 * (same name, kind and sha-256) is replaced in its own tab rather than opened twice.
 * @param {DocState[]} list
 * @param {number} i
 * @param {number} ms
 */
export function addDocs(list, i, ms) {
  for (const st of list) {
    const j = docs.findIndex((d) => d.doc.sha256 && d.doc.sha256 === st.doc.sha256 && d.doc.file === st.doc.file && d.doc.kind === st.doc.kind);
    if (j < 0) { docs.push(st); continue; }
    dropHandle(docs[j]);
    docs[j] = st;
  }
  setCurrent(list[i]);
  renderDocument(ms);
}

function dropHandle(d) {
  if (diff.a === d || diff.b === d) forgetComparison();
  if (d.handle && d.gen === core.gen) call('close', { handle: d.handle }).catch(() => {});
}

/**
 * closeDoc closes one tab: its handle in the core, and the comparison it is part of; the
 * neighbour tab shows, or the welcome screen when it was the last.
 * @param {DocState} d
 */
export function closeDoc(d) {
  const i = docs.indexOf(d);
  if (i < 0) return;
  dropHandle(d);
  docs.splice(i, 1);
  if (d !== state) { emit('docs', {}); return; }
  if (docs.length) { setCurrent(docs[Math.min(i, docs.length - 1)]); renderDocument(0); return; }
  setCurrent(null);
  showPage('welcome');
  emit('empty', {});
}

/**
 * replaceDoc puts next in prev's tab (a context re-emitted for another arch) and shows it.
 * @param {DocState} prev
 * @param {DocState} next
 */
export function replaceDoc(prev, next) {
  const i = docs.indexOf(prev);
  if (i >= 0) docs[i] = next; else setDocs([next]);
  setCurrent(next);
}

/**
 * switchDoc shows tab i; the tab on show already, it leaves a full view (a comparison, the
 * compile cache) for the document's panes.
 * @param {number} i
 */
export function switchDoc(i) {
  if (!docs[i]) return;
  if (docs[i] === state) { showPage('document'); return; }
  setCurrent(docs[i]);
  renderDocument(0);
}

/**
 * renderDocument shows the current document: its page, then the 'document' event (the tabs,
 * search, summary, findings, trees and content start anew), then the selection the URL hash
 * names (else the overview, or the header).
 * @param {number} ms how long opening took (0: not shown)
 */
export function renderDocument(ms) {
  const doc = state.doc;
  showPage('document');
  emit('document', { doc, ms });
  const asked = parseHash(location.hash);
  if (followInstruction(true)) return;
  const linked = hashTarget(location.hash);
  if (linked && linked.d === state) { select(linked.node, 'hash'); hashByte(linked.node); hashView(asked, null, true); return; }
  // A NEFF lands on its overview (the answers); the header is one click away in the tree.
  const first = field(doc, 'overview') || field(doc, 'header') || doc.root;
  const want = hashWanted(location.hash);
  if (want && want.d === state && stubOnPath(state, want.path)) {
    // The hash names a node under a stub: the landing view shows (the hash kept) while the
    // core builds the path, then the node is selected, unless the user has moved on.
    const st = state;
    select(first, 'hash');
    const settle = (n) => {
      if (state !== st || st.selected !== first) return;
      select(n || first, n ? 'hash' : 'open');
      if (n) { hashByte(n); hashView(asked, null, true); }
    };
    ensurePath(want.path, st).then(settle, () => settle(null));
    return;
  }
  select(first, 'open');
  // The place is not there (a comparison's link may name none): the view still opens.
  if (want && want.d === state) hashView(asked, null, true);
}

/**
 * applyHash follows a hash that changed under the page (back/forward, an edited URL).
 */
export function applyHash() {
  if (followInstruction(false)) return;
  const t = hashTarget(location.hash);
  if (!t) {
    // A node under a stub: the core builds the path first.
    const want = hashWanted(location.hash);
    if (want && stubOnPath(want.d, want.path)) {
      if (want.d !== state) { setCurrent(want.d); renderDocument(0); return; } // it follows the hash
      followPath(want.path, 'hash');
      return;
    }
    const { f } = parseHash(location.hash);
    if (f && f !== docFingerprint(state)) emit('hashUnknown', { f }); // the library may hold it
    return;
  }
  const h = parseHash(location.hash);
  if (t.d !== state) {
    setCurrent(t.d);
    renderDocument(0);
    if (h.v === 'diff' || h.v === 'compare') hashView(h, null, false); // (landing names no comparison: see hashView)
    return;
  }
  if (state.selected !== t.node) select(t.node, 'hash');
  hashByte(t.node);
  hashView(h, null, false);
}

/**
 * hashView: the URL hash h names a view over its place (the schedule, the memory view, a
 * comparison) or none: the 'hashView' fact, for whoever opens views. landing: the document is
 * being drawn from the hash (naming no view there says nothing).
 * @param {import('../lib/hash.js').Hash} h the hash, as it was when the page went to its place
 * @param {{stream: import('../wire.js').Node, i: number} | null} inst the hash's instruction, once its stream is held
 * @param {boolean} landing
 */
function hashView(h, inst, landing) {
  // A document landing from a hash that names a comparison is its A shown on its own (a jump
  // out of the comparison; a link's file arriving, which features/permalink.js compares once
  // both are open): not the comparison again.
  if (landing && (!h.v || h.v === 'diff' || h.v === 'compare')) return;
  emit('hashView', { f: h.f, v: h.v, w: h.w, c: h.c, vs: h.vs, all: h.all.map((x) => x.f), inst });
}

// hashByte: the hash names a byte of n's source (b=0x…): the hex view's cursor goes there;
// or a range (b=0x…-0x…), highlighted.
function hashByte(n) {
  const { b, bLast } = parseHash(location.hash);
  if (b !== null) emit('hashByte', { n, off: b, last: bLast === null ? undefined : bLast });
}

/**
 * followInstruction: the hash names instruction N of a stream ("…/#N") of an open document:
 * that document shows (landing: it is being drawn now), and once the stream is held the
 * 'hashInstruction' event says so (the listing selects N, with no history entry). false when
 * the hash names no instruction.
 * @param {boolean} landing renderDocument's call (the current document is being drawn)
 */
function followInstruction(landing) {
  const want = hashWanted(location.hash);
  const inst = want && instructionOf(want.path);
  if (!inst) return false;
  if (want.d !== state) {
    if (landing) return false; // another tab's: the current one lands as usual
    setCurrent(want.d);
    renderDocument(0);
    return true;
  }
  const st = state;
  const asked = parseHash(location.hash);
  const landed = field(st.doc, 'overview') || field(st.doc, 'header') || st.doc.root;
  if (landing) select(landed, 'hash');
  ensurePath(inst.stream, st).then((stream) => {
    if (state !== st) return;
    if (!stream) { if (landing) select(landed, 'open'); return; }
    emit('hashInstruction', { stream, i: inst.index });
    hashByte(stream); // a byte of the instruction: the hex view selects its field when it shows
    hashView(asked, { stream, i: inst.index }, landing);
  }, () => {});
  return true;
}

// contextState opens file in the core as a raw libncfw context for arch (and model).
export async function contextState(file, arch, model) {
  const r = await call('openContext', { file, name: file.name, arch, model });
  const st = makeState(unpackDocument(r.doc), { file, handle: r.handle, gen: core.gen, context: { arch, model } });
  st.reopen = contextReopen(st);
  st.openMs = r.ms;
  return st;
}

// contextReopen: how a libncfw context document opens again in a new core (its reopen).
export function contextReopen(st) {
  return async () => (await call('openContext', { file: st.file, name: st.file.name, arch: st.context.arch, model: st.context.model || '' })).handle;
}
