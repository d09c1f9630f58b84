// @ts-check
// Opening files: one NEFF (with progress, the header first, cancel) or several dropped together.
// Each open adds its documents as tabs beside those already open.

import { call, cancel, core, exampleNEFF, onWarm } from '../core/client.js';
import { openWithFingerprint } from '../core/fingerprint.js';
import { $, toast } from '../dom.js';
import { embedded } from '../config.js';
import { dockProgress, hideProgress, onProgress, showProgress } from '../views/progress.js';
import { addDocs, makeState, opening, renderDocument, setOpening, state } from '../state/docs.js';
import { emit } from '../state/events.js';
import { screen, showPage } from '../state/screen.js';
import { libRemember } from '../views/library.js';
import { contentOpening } from '../views/content.js';
import { detailClear } from '../views/detail.js';
import { applyMemberSums } from '../lib/membersums.js';
import { mapSource, sourceHeld } from './mapsource.js';
import { isProfile, openProfiled } from './profile.js';
import { renderSummary } from '../views/summary.js';
import { overviewHide, overviewPartial } from '../views/overview.js';
import { tabsClear, tabsOpening } from '../views/tabs.js';
import { unpackDocument, unpackNode } from '../wire.js';
import { DOC_KIND } from '../lib/vocab.gen.js';
import { isTarName } from '../lib/tar.js';
import { cacheTar } from '../views/cache.js';

// Opening files.

export let lastOpen = null; // {size, headerMs, overviewMs, totalMs, sourceMs, …} of the last file opened, for benchmarks

/**
 * openInit wires the file input (the top bar's Open button) and Ctrl+O.
 */
export function openInit() {
  $('file-input').addEventListener('change', (e) => {
    const input = /** @type {HTMLInputElement} */ (e.target);
    const files = Array.from(input.files || []);
    if (files.length === 1 && isTarName(files[0].name)) cacheTar(files[0]); // a packed compile cache
    else openFiles(files);
    input.value = '';
  });
  window.addEventListener('keydown', (e) => {
    if ((e.ctrlKey || e.metaKey) && e.key === 'o') { e.preventDefault(); if (!embedded) $('file-input').click(); }
  });
}

/** openFocus puts the focus on the Open button (the skip link with no document open). */
export function openFocus() {
  $('file-input').focus();
}

// The partial overview (the core's 'overview' events) is drawn for a file over SMALL_FILE
// bytes, at once, when no document is shown (over a document the progress card shows as
// before: a cancel then leaves that document as it was, with nothing to redraw, and nothing
// for the core to reopen in the worker that replaced the cancelled one). A small NEFF (≤ 2 MB, fully open in ≤ 200 ms with the worker warm)
// gets none: its real overview just appears, with no partial one flashing before it.
const SMALL_FILE = 2 << 20;

/**
 * preparePanes puts the panes up for a file whose partial overview will show (from its header
 * on, so their first layout is done while the core reads on): the content pane empty but for
 * the overview to come, the tab strip the document will have (its tab a placeholder). A full
 * view on show (the compile cache) stays; the panes show with the document.
 * @param {any} token the open
 * @param {File} file
 */
function preparePanes(token, file) {
  if (token.panes) return;
  token.panes = true;
  if (screen.page === 'welcome' || screen.page === 'opening') showPage('document');
  contentOpening(file.name);
  if (!state) {
    detailClear();
    tabsOpening(file.name);
  }
}

/**
 * showPartial draws the open's latest partial overview in the overview's place, with the
 * panes up and the progress card docked in a corner; it stamps token.overviewMs (pick → the
 * first overview painted: the frame after it was drawn).
 * @param {any} token the open
 * @param {File} file
 * @param {number} t0
 */
function showPartial(token, file, t0) {
  if (opening !== token || !token.partial) return;
  if (!token.partialShown) {
    token.partialShown = true;
    preparePanes(token, file);
    dockProgress();
    // Stamped after the frame that shows it (a task queued from the frame's callback runs
    // once it is painted).
    requestAnimationFrame(() => setTimeout(() => {
      if (token.overviewMs === undefined) token.overviewMs = performance.now() - t0;
      if (token.measure && token.measure.overviewMs === undefined) token.measure.overviewMs = token.overviewMs;
      token.firstView();
    }, 0));
  }
  overviewPartial(token.partial, file.name);
}

/** @type {File | null} the last file opened, for Reopen after the core died (core/client.js) */
let lastFile = null;
// The worker's warm-up Document, decoded once and dropped: the first file's decode then runs
// on JIT-compiled code (matmul_small's first decode took 70–170 ms cold, 15–50 after).
// (Not while a file opens: the warm-up stopped for it, and its render comes first.)
onWarm((doc) => { if (opening) return; try { unpackDocument(doc); } catch (e) { /* only a warm-up */ } });

if (typeof window !== 'undefined') window.addEventListener('neffscope:reopen', () => { if (lastFile) openFile(lastFile); });

/**
 * What an open came to (the embedding host is told): the documents opened, or why not.
 * ok: the documents opened (name, kind); else message says why (cancelled: the user's cancel).
 * @typedef {{ok: boolean, name?: string, kind?: string, message?: string, cancelled?: boolean}} OpenResult
 */

/**
 * openFile opens one file: its header shows as soon as the core has read it, then the rest.
 * @param {File} file
 * @returns {Promise<OpenResult>}
 */
export async function openFile(file) {
  if (!file) return { ok: false, message: 'no file' };
  lastFile = file;
  if (opening) cancel();
  const t0 = performance.now();
  const token = {};
  setOpening(token);
  document.body.dataset.state = 'opening';
  showProgress(file);
  // A big file's hash worker starts once the first overview is up (or after a second): until
  // then the two CPU cores go to the core's open and to drawing the page.
  const big = file.size > SMALL_FILE;
  const partial = big && !state;
  const firstView = new Promise((resolve) => { token.firstView = resolve; setTimeout(resolve, 1000); });
  try {
    const r = await openWithFingerprint(file, {
      onEvent: (event, data) => {
        if (event === 'progress') { onProgress(file, t0, data); return; }
        if (event === 'overview' && opening === token) {
          if (!partial) return;
          if (token.partialEventMs === undefined) token.partialEventMs = performance.now() - t0;
          token.partial = unpackNode(data);
          showPartial(token, file, t0);
          return;
        }
        if (event !== 'header' || opening !== token) return;
        token.headerMs = performance.now() - t0;
        // The header arrives before the payload is read: show who the file is at once.
        renderSummary(unpackDocument(data), true);
        if (screen.page === 'welcome') showPage('opening');
        if (partial) preparePanes(token, file);
      },
    }, undefined, { deferMembers: true, deferSource: true, deferSourceOver: sourceHeld() ? 0 : undefined, partial, hashAfter: big ? firstView : undefined });
    if (opening !== token) return superseded;
    const tResult = performance.now();
    const doc = unpackDocument(r.doc);
    if (r.sha256) doc.sha256 = r.sha256;
    const decodeMs = performance.now() - tResult;
    const st = makeState(doc, { file, handle: r.handle, gen: core.gen });
    st.reopen = async () => (await openWithFingerprint(file, null, doc.sha256)).handle;
    const tDecoded = performance.now();
    if (!r.memberHashes && doc.kind === DOC_KIND.NEFF) st.memberHashes = { state: 'computing', done: 0, total: 0 };
    lastOpen = { size: file.size, headerMs: token.headerMs, overviewMs: token.overviewMs, partialEventMs: token.partialEventMs, partial: !!token.partialShown, resultMs: tResult - t0, coreMs: r.ms, digestWaitMs: r.digestWaitMs, walkMs: r.walkMs, encodeMs: r.encodeMs, decodeMs, totalMs: 0, renderMs: 0, wasmBytes: r.wasmBytes, memberHashMs: 0, sourcePending: !!r.sourcePending, sourceMs: 0 };
    // The source lines the open left out are mapped by the worker while this thread draws the
    // Document (the page patches it when they come: features/mapsource.js); the members'
    // sha-256 after them, the library's entry once the Document has them.
    const mapped = r.sourcePending ? mapSource(st, lastOpen, t0) : null;
    addDocs([st], 0, Math.round(tDecoded - t0));
    lastOpen.renderMs = performance.now() - tDecoded;
    lastOpen.totalMs = performance.now() - t0;
    const measured = token.measure = lastOpen;
    // No partial overview was painted: the first overview is this one (the frame after it).
    if (measured.overviewMs === undefined || !mapped) {
      requestAnimationFrame(() => setTimeout(() => {
        const now = performance.now() - t0;
        if (measured.overviewMs === undefined) measured.overviewMs = now;
        if (!mapped) measured.sourceMs = now; // the source lines came with the open
      }, 0));
    }
    document.body.dataset.state = 'open';
    const afterSource = () => {
      libRemember(st, 'open', [file]);
      if (st.memberHashes) hashMembers(st, measured);
    };
    if (mapped) mapped.then(afterSource);
    else afterSource();
    return { ok: true, name: doc.file, kind: doc.kind };
  } catch (e) {
    if (opening !== token) return superseded;
    if (e.code === 'cancelled') toast('Cancelled reading ' + file.name, 'info');
    else toast('Could not open ' + file.name + ': ' + e.message);
    document.body.dataset.state = state && state.handle ? 'open' : 'empty';
    if (token.panes) {
      // The partial overview goes: the document shown before comes back, or the welcome.
      if (state && state.doc) renderDocument(0);
      else {
        overviewHide();
        tabsClear();
        if (screen.page === 'document') showPage('welcome');
      }
    }
    if (state && state.doc) renderSummary(state.doc, false);
    return { ok: false, message: e.code === 'cancelled' ? 'cancelled' : 'could not open ' + file.name + ': ' + e.message, cancelled: e.code === 'cancelled' };
  } finally {
    if (opening === token) { setOpening(null); hideProgress(); }
  }
}

/**
 * hashMembers computes the members' sha-256 the open left out (Go's SHA-256 in wasm was most of
 * a big open), in the background: the core reads the archive again, pausing every few MiB to
 * answer the page's other calls. A member's detail says "computing…" until they arrive; then
 * the Document takes them as an open that hashed them shows them, and the library keeps it.
 * @param {any} st the document's state
 * @param {any} [measure] lastOpen, which gets memberHashMs
 */
function hashMembers(st, measure) {
  const t0 = performance.now();
  st.memberHashes = { state: 'computing', done: 0, total: 0 };
  st.hashMembers = () => { hashMembers(st); emit('memberHashes', { st, progress: false }); };
  call('hashMembers', { handle: st.handle }, {
    onEvent: (event, p) => {
      if (event !== 'progress' || !st.memberHashes || st.memberHashes.state !== 'computing') return;
      st.memberHashes.done = p.done;
      st.memberHashes.total = p.total;
      emit('memberHashes', { st, progress: true });
    },
  }).then((r) => {
    applyMemberSums(st.doc, r.members);
    st.memberHashes = null;
    if (measure) measure.memberHashMs = performance.now() - t0;
    emit('memberHashes', { st, progress: false });
    libRemember(st, 'open', [st.file]);
  }, (e) => {
    st.memberHashes = { state: 'failed', message: e.message };
    emit('memberHashes', { st, progress: false });
  });
}

/**
 * openExample opens the NEFF the page ships (the welcome screen's "Try an example").
 * @returns {Promise<OpenResult>}
 */
export async function openExample() {
  let file;
  try { file = await exampleNEFF(); } catch (e) { toast('Could not load the example: ' + (e && e.message || e)); return { ok: false, message: String(e && e.message || e) }; }
  return openFile(file);
}

/** an open of device profiles runs (its own opens go the plain way) */
let profiling = false;

/** @type {OpenResult} */
const superseded = { ok: false, message: 'another file was opened before this one finished', cancelled: true };

/**
 * openFiles opens what was picked or dropped: one file as before; several as a group, in
 * which activation-table files join into one document and the others open on their own.
 * @param {File[]} files
 * @returns {Promise<OpenResult>}
 */
export async function openFiles(files) {
  files = Array.from(files || []).filter(Boolean);
  // Device profiles (.ntff) are paired with their NEFF once open (features/profile.js).
  if (files.some(isProfile) && !profiling) {
    profiling = true;
    try { return await openProfiled(files, { openFile, openGroup: openFiles }); } finally { profiling = false; }
  }
  if (files.length <= 1) return openFile(files[0]);
  if (opening) cancel();
  const t0 = performance.now();
  const token = {};
  setOpening(token);
  document.body.dataset.state = 'opening';
  const total = files.reduce((a, f) => a + f.size, 0);
  showProgress({ name: files.length + ' files', size: total });
  try {
    const r = await call('openGroup', { files });
    if (opening !== token) return superseded;
    const list = r.docs.map((d, i) => {
      const doc = unpackDocument(d.doc);
      const file = files.find((f) => f.name === doc.file) || files[0];
      const st = makeState(doc, { file, files, handle: d.handle, gen: core.gen });
      st.reopen = async () => {
        const rr = await call('openGroup', { files });
        // Every document of the group gets its new handle at once.
        rr.docs.forEach((x, j) => { if (list[j]) { list[j].handle = x.handle; list[j].gen = core.gen; } });
        return rr.docs[i].handle;
      };
      return st;
    });
    lastOpen = { size: total, coreMs: 0, decodeMs: 0, totalMs: performance.now() - t0, renderMs: 0, wasmBytes: r.wasmBytes, documents: list.length };
    // The joined activation tables come first; show them.
    addDocs(list, 0, Math.round(performance.now() - t0));
    document.body.dataset.state = 'open';
    libRemember(list[0], 'group', files);
    return { ok: true, name: list[0].doc.file, kind: list[0].doc.kind };
  } catch (e) {
    if (opening !== token) return superseded;
    toast(e.code === 'cancelled' ? 'Cancelled' : 'Could not open the ' + files.length + ' files: ' + e.message, e.code === 'cancelled' ? 'info' : 'error');
    document.body.dataset.state = state && state.handle ? 'open' : 'empty';
    return { ok: false, message: e.code === 'cancelled' ? 'cancelled' : 'could not open the ' + files.length + ' files: ' + e.message, cancelled: e.code === 'cancelled' };
  } finally {
    if (opening === token) { setOpening(null); hideProgress(); }
  }
}
