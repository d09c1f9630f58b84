// @ts-check
// The source lines an open left out (deferSource: the .dbg scans and the source joins were a
// third of a small NEFF's open in wasm): the core maps them in the background (indexSource)
// and answers with what changed; the page patches its Document in place (lib/sourcepatch.js),
// the views redraw what they show of it (the 'patched' event), and the selection, the scroll
// positions and the focus stay.

import { call } from '../core/client.js';
import { applySourcePatch } from '../lib/sourcepatch.js';
import { reindex, state } from '../state/docs.js';
import { emit } from '../state/events.js';
import { ensurePath } from '../state/lazy.js';
import { select } from '../state/selection.js';
import { findingsRedraw } from '../views/findings.js';
import { hexHighlight, hexKeep } from '../views/hex.js';
import { panesKeep } from '../views/layout.js';
import { overviewNote } from '../views/overview.js';
import { unpack, unpackNode } from '../wire.js';

/** @typedef {import('../state/docs.js').DocState} DocState */

/** @type {Promise<void> | null} while the browser tests hold the mapping back (holdSource) */
let held = null;

/**
 * holdSource keeps the next mappings from starting until the function it returns is called, and
 * makes the opens meanwhile defer them whatever their size (sourceHeld):
 * the browser tests (e2e/) use it, through globalThis.neffscope, to act on a Document whose
 * source lines are pending, whatever the machine's speed.
 * @returns {() => void}
 */
export function holdSource() {
  /** @type {() => void} */
  let release = () => {};
  held = new Promise((resolve) => { release = resolve; });
  const mine = held;
  return () => { if (held === mine) held = null; release(); };
}

/**
 * sourceHeld: the tests hold the mapping back, so the next open defers it whatever the size of
 * the debug info (the core maps a few KB in the open otherwise: deferSourceOver).
 * @returns {boolean}
 */
export function sourceHeld() {
  return held !== null;
}

/**
 * mapSource asks the core to map st's source lines (st.sourceWait is set at once and settles
 * when its Document has them, or they failed) and patches st's Document with the answer.
 * measure (lastOpen) gets sourceMs: t0 → the mapped lines painted.
 * @param {DocState} st
 * @param {any} [measure]
 * @param {number} [t0] the pick (performance.now())
 * @returns {Promise<boolean>} whether the lines were mapped
 */
export function mapSource(st, measure, t0) {
  /** @type {() => void} */
  let settle = () => {};
  st.sourceWait = new Promise((resolve) => { settle = resolve; });
  st.sourceFailed = undefined;
  const started = typeof t0 === 'number' ? t0 : performance.now();
  // A big NEFF's .dbg members are read again from the archive: the overview's pending answer
  // says how far (the core's progress events: the file's bytes read so far).
  const onEvent = (/** @type {string} */ event, /** @type {any} */ p) => {
    if (event !== 'progress' || state !== st || !st.sourceWait || !p.total) return;
    overviewNote('source', 'mapping source lines… ' + Math.min(100, Math.floor((100 * p.done) / p.total)) + '% of the file read again');
  };
  return (held || Promise.resolve()).then(() => call('indexSource', { handle: st.handle }, { onEvent })).then(async (r) => {
    if (r.mapped) {
      const node = (/** @type {ArrayBuffer | undefined} */ b) => (b && b.byteLength ? unpackNode(b) : null);
      const contents = r.contents && r.contents.byteLength ? unpack(r.contents) : [];
      const patch = { overview: node(r.overview), source: node(r.source), contents: Array.isArray(contents) ? contents : [], findings: node(r.findings) };
      await patchShown(st, patch);
    } else finish(st);
    settle();
    if (measure) painted(() => { measure.sourceMs = performance.now() - started; measure.sourceCoreMs = r.ms; });
    return !!r.mapped;
  }, (e) => {
    st.sourceFailed = e.message || String(e);
    finish(st);
    settle();
    return false;
  });
}

// painted runs f once the frame drawn after now is on screen.
function painted(f) {
  requestAnimationFrame(() => setTimeout(f, 0));
}

// finish ends the pending state; the findings list drops its note when st is on show.
function finish(st) {
  st.sourceWait = undefined;
  if (state === st) findingsRedraw();
}

/**
 * patchShown puts patch into st's Document and, when st is on show, has the views redraw what
 * they show of it (the 'patched' event: the summary and findings, the tree rows of the nodes
 * that changed, the overview, the listing's rows fetched again: the ones fetched before lack
 * their source column); then the selection is shown again — by identity, or by path when it
 * lay in what was replaced — with the bytes it had highlighted, and the scroll positions and
 * the focus stay.
 * @param {DocState} st
 * @param {import('../lib/sourcepatch.js').SourcePatch} patch
 */
async function patchShown(st, patch) {
  const shown = state === st;
  const sel = st.selected || null;
  const hl = hexHighlight();
  const selRec = sel ? st.info.get(sel) : null;
  const selPath = selRec ? selRec.path : null;
  const keep = shown ? panesKeep() : null;
  const { changed } = applySourcePatch(st.doc, patch);
  reindex(st);
  st.sourceWait = undefined;
  if (!shown) return;
  /** @type {import('../state/events.js').Patched} */
  const p = { st, changed, sel, waits: [], shown: false };
  emit('patched', p);
  await Promise.all(p.waits);
  if (state !== st) return;
  // A selection the user made while the views redrew stands (it was made on the patched
  // Document), and so do bytes picked meanwhile (a pick highlights its byte before it selects
  // the node that holds it); else the same selection is drawn again with the bytes it had
  // highlighted.
  if (!p.shown && sel && st.info.has(sel)) {
    if (st.selected === sel && hexHighlight() === hl) {
      const bytes = hexKeep();
      select(sel, 'hash');
      bytes();
    }
  } else if (!p.shown && selPath) {
    const n = await ensurePath(selPath, st);
    if (n && state === st && st.selected === sel) select(n, 'hash');
  }
  keep();
}
