// @ts-check
// Links beyond the selection (state/selection.js writes the selection's hash): the view open
// over it (the schedule, the memory view, with their window of steps and core) and a
// comparison (its pair, or the files of a comparison of several) go in the URL, and a URL naming them opens them again; a link whose
// files are not open says which to open (views/linkwanted.js) and keeps its place until they
// are.

import { embedded } from '../config.js';
import { toast, toastHide } from '../dom.js';
import { parseHash } from '../lib/hash.js';
import { streamPath } from '../lib/refs.js';
import { PAGE_CODE } from '../lib/vocab.gen.js';
import { diff } from '../state/comparison.js';
import { docs, state } from '../state/docs.js';
import { on } from '../state/events.js';
import { screen, showPage } from '../state/screen.js';
import { docFingerprint, docPlace, recordView, restoreHash, setViewPlace } from '../state/selection.js';
import { compareMany, many } from '../views/diff/many.js';
import { compare } from '../views/diff/render.js';
import { linkedFileText, linkWantedHide, linkWantedPick, linkWantedShow, placeText } from '../views/linkwanted.js';
import { narrow, showPane } from '../views/layout.js';
import { instructionPick, listing } from '../views/listing.js';
import { mem, memviewClose, memviewGoTo, memviewOnMove, memviewOpen, memviewPlace } from '../views/memview.js';
import { sched, scheduleClose, scheduleGoTo, scheduleMark, scheduleOnMove, scheduleOpen, scheduleWindow } from '../views/schedule.js';

/**
 * The link the page was given whose files are not all open: its hash (kept to go back to),
 * what it says, and whether the library was asked for its files.
 * @type {{hash: string, h: import('../lib/hash.js').Hash, looked: boolean} | null}
 */
let wanted = null;

/** @type {WeakSet<object>} documents said to be another file than the link's (once each) */
const told = new WeakSet();

/** @type {import('../lib/hash.js').Place | null} while a link's view opens, the place it names (the hashes written meanwhile are its own) */
let applying = null;

/**
 * place: the view open over the selection, as the hash names it.
 * @returns {import('../state/selection.js').ViewPlace}
 */
function place() {
  if (applying) return applying;
  if (diff.shown && diff.a && diff.b) {
    const b = docPlace(diff.b);
    return { d: diff.a, v: 'diff', vs: docFingerprint(diff.b), vsname: b.name, vssize: b.size, vsuuid: b.uuid };
  }
  if (many.shown && many.list.length >= 2) return { d: many.list[0], v: 'compare', all: many.list.slice(1).map((d) => Object.assign({ f: docFingerprint(d) }, docPlace(d))) };
  if (!state || screen.page !== 'document') return {};
  if (sched.open && sched.doc === state.doc) return { v: 'schedule', w: scheduleWindow() };
  if (mem.open && mem.doc === state.doc) {
    const m = memviewPlace();
    return { v: 'memory', w: m.w, c: m.c || null };
  }
  return {};
}

/**
 * applyView opens the view a hash names over its place (or closes the one open when it names
 * none).
 * @param {import('../state/events.js').Events['hashView']} h
 */
async function applyView(h) {
  if (h.v === 'diff') { compareLinked(h.f, h.vs); return; }
  if (h.v === 'compare') { compareManyLinked([h.f, ...h.all]); return; }
  if (diff.shown || many.shown) showPage('document');
  if (!h.v) {
    if (sched.open) scheduleClose();
    if (mem.open) memviewClose();
    return;
  }
  applying = { v: h.v, w: h.w, c: h.c };
  // One pane at a time (a narrow window): the view's, before it measures itself.
  if (narrow.matches) showPane('content');
  try {
    if (h.inst) await instructionPick(h.inst.stream, h.inst.i, 'hash');
    const member = h.inst ? streamPath(listing.ref) : null;
    if (h.v === 'schedule') {
      if (mem.open) memviewClose();
      if (!sched.open) await scheduleOpen();
      if (member && h.inst) scheduleMark(member, h.inst.i);
      scheduleGoTo(h.w);
    } else {
      if (sched.open) scheduleClose();
      if (!mem.open) await memviewOpen();
      memviewGoTo(h.c || 0, h.w);
    }
  } finally {
    applying = null;
  }
}

// compareLinked shows the comparison of the documents of fingerprints fa and fb, when both
// are open; else the link waits for the one missing (the page says which).
function compareLinked(fa, fb) {
  const a = docs.find((d) => docFingerprint(d) === fa), b = docs.find((d) => docFingerprint(d) === fb);
  if (a && b) {
    if (!(diff.shown && diff.a === a && diff.b === b)) compare(a, b);
    return;
  }
  if (!wanted) wanted = { hash: location.hash, h: parseHash(location.hash), looked: true };
  sayWanted();
}

// compareManyLinked shows the comparison of several of the documents of fingerprints fs, when
// all are open; else the link waits for the ones missing (the page says which).
function compareManyLinked(fs) {
  const list = fs.map((f) => docs.find((d) => docFingerprint(d) === f));
  if (list.every(Boolean)) {
    if (!(many.shown && many.list.length === list.length && many.list.every((d, i) => d === list[i]))) compareMany(list);
    return;
  }
  if (!wanted) wanted = { hash: location.hash, h: parseHash(location.hash), looked: true };
  sayWanted();
}

/**
 * linkedFiles: every file a link's hash names, the first first (a comparison's others after).
 * @param {import('../lib/hash.js').Hash} h
 * @returns {import('../views/linkwanted.js').LinkedFile[]}
 */
function linkedFiles(h) {
  const files = [{ f: h.f, name: h.name, size: h.size, uuid: h.uuid }];
  if (h.vs) files.push({ f: h.vs, name: h.vsname, size: h.vssize, uuid: h.vsuuid });
  return files.concat(h.all);
}

/**
 * missingOf: the files the wanted link names that are not open.
 * @returns {import('../views/linkwanted.js').LinkedFile[]}
 */
function missingOf() {
  if (!wanted) return [];
  const open = new Set(docs.map(docFingerprint));
  return linkedFiles(wanted.h).filter((f) => !open.has(f.f));
}

// landOnComparison shows the comparison the link names once all its files are open.
function landOnComparison(keep) {
  const { h } = keep;
  restoreHash(keep.hash);
  if (h.vs) compareLinked(h.f, h.vs);
  else if (h.all.length) compareManyLinked([h.f, ...h.all.map((x) => x.f)]);
}

// sayWanted says which files the link still wants: on the welcome screen in its notice,
// over a document in a toast.
function sayWanted() {
  const missing = missingOf();
  if (!wanted || !missing.length) { linkWantedHide(); toastHide(PAGE_CODE.LINK_FILE_MISSING); return; }
  if (screen.page === 'opening') return; // (the file may be the link's: the open says)
  const files = linkedFiles(wanted.h);
  if (screen.page === 'welcome') {
    linkWantedShow({ missing, compare: files.length > 1 ? files.length : 0, place: placeText(wanted.h), looked: wanted.looked });
    return;
  }
  linkWantedHide();
  // Over a document (a comparison's other file came back from the library, or was opened):
  // which file is still wanted, by name, size, UUID and fingerprint, with a button that asks
  // for it; the message stays until the file is open (onDocument takes it down).
  const names = missing.map((m) => m.name || 'the file').join(' and ');
  const compares = files.length > 1;
  toast('The link ' + (compares ? 'compares ' + linkedFileText(files[0]) + ' with ' + files.slice(1).map(linkedFileText).join(', ') : 'names ' + linkedFileText(missing[0])) +
    ': ' + (wanted.looked ? 'this browser\'s library does not have ' + names + '; ' : '') + 'open ' + names + ' (or drop ' + (missing.length === 1 ? 'it' : 'them') + ') to go ' + (compares ? 'to the comparison' : 'there') + '. Nothing was uploaded.',
  'info', { label: 'Open ' + (missing.length === 1 ? names : 'the files') + '…', run: () => linkWantedPick(missing.length > 1) }, PAGE_CODE.LINK_FILE_MISSING);
}

// onDocument: a document is about to land. The wanted link's file: the link's hash comes back
// (the page may have moved on to other files), so it lands on the link's place; its
// comparison's other file, once the first is open: the comparison. Another build of it (its
// name or UUID, not its bytes) is said to be another.
function onDocument() {
  if (!wanted || !state) return;
  const fp = docFingerprint(state);
  const { h } = wanted;
  if (linkedFiles(h).some((x) => x.f === fp)) {
    const keep = wanted;
    if (!missingOf().length) { wanted = null; linkWantedHide(); toastHide(PAGE_CODE.LINK_FILE_MISSING); }
    if (fp === h.f) restoreHash(keep.hash);
    // Every file of a comparison open: the comparison, once this one has landed.
    if ((h.vs || h.all.length) && !wanted) setTimeout(() => landOnComparison(keep), 0);
    return;
  }
  const p = docPlace(state);
  const like = (h.name && p.name === h.name) || (h.uuid && p.uuid === h.uuid);
  if (like && !told.has(state)) {
    told.add(state);
    toast('This ' + (p.name || 'file') + ' is another file than the link\'s: the link names ' + linkedFileText({ f: h.f, name: h.name, size: h.size, uuid: h.uuid }) +
      ', this one has sha-256 ' + fp + '… (another build, or a copy changed since). The link\'s place is not shown; open the file it names.', 'warning', null, PAGE_CODE.LINK_OTHER_FILE);
  }
}

/**
 * linkWanted: the fingerprints of the files the link in the URL names that are not open
 * (empty when none are missing), and whether this browser's library was asked for them.
 * @returns {{missing: string[], looked: boolean}}
 */
export function linkWanted() {
  return { missing: missingOf().map((m) => m.f), looked: !!wanted && wanted.looked };
}

/**
 * permalinkInit: every hash written names the view open; a view opened, moved or left
 * writes it; the URL's view and pair are followed; a link whose file is not open is held
 * until it is.
 */
export function permalinkInit() {
  setViewPlace(place);
  const moved = () => { if (!applying) recordView('replace'); };
  scheduleOnMove(moved);
  memviewOnMove(moved);
  on('hashView', (h) => { applyView(h).catch((e) => toast('The link\'s view: ' + (e && e.message || e))); });
  on('screen', ({ page, was }) => {
    if (page === 'diff' || page === 'many') recordView('push');
    // Left for a document with nothing selected anew (the comparison's close): its hash.
    else if (was === 'diff' || was === 'many') setTimeout(() => { const h = parseHash(location.hash); if (!diff.shown && !many.shown && (h.vs || h.all.length)) recordView('push'); }, 0);
    if (page === 'welcome' && wanted) sayWanted();
  });
  on('document', onDocument);
  on('hashUnknown', ({ f }) => {
    if (wanted && wanted.h.f === f) return;
    wanted = { hash: location.hash, h: parseHash(location.hash), looked: false };
    sayWanted();
  });
  const h = parseHash(location.hash);
  if (h.f && !embedded) {
    wanted = { hash: location.hash, h, looked: false };
    sayWanted();
  }
}

/**
 * permalinkBoot runs once the library and the session have brought back what they kept: a
 * link whose files are still not open says so, now that the library was asked.
 */
export function permalinkBoot() {
  if (!wanted) return;
  wanted.looked = true;
  if (!missingOf().length) { wanted = null; sayWanted(); return; }
  sayWanted();
}
