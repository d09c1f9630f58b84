// @ts-check
// The session across a reload: which documents were open (the tabs), which one showed, and the
// comparison. The page keeps no File across a reload, so each tab comes back the way its bytes
// can: from the library (IndexedDB, views/library.js) where it kept them; a file it did not keep
// comes back as a "reopen <name>" tab that asks for the file with one click. The URL (?url=,
// the hash) brings back its own file as before; this adds the others.

import { embedded } from '../config.js';
import { el, toast } from '../dom.js';
import { fmtSize } from '../lib/format.js';
import { diff } from '../state/comparison.js';
import { applyHash, docs, opening, state, switchDoc } from '../state/docs.js';
import { on } from '../state/events.js';
import { docFingerprint } from '../state/selection.js';
import { compare } from '../views/diff/render.js';
import { libRestore } from '../views/library.js';
import { tabsDraw } from '../views/tabs.js';

const SESSION_KEY = 'neffscope.session';

/**
 * What a reload brings back.
 * @typedef {{tabs: {f: string, name: string, size: number}[], current: string, compare: string[] | null}} Session
 */

/** @type {Session | null} the session the page was loaded with (read once, before any open) */
let saved = null;
/** @type {{f: string, name: string, size: number}[]} tabs the reload could not bring back */
let missing = [];
let restoring = false;

/** @type {(f: File) => Promise<any>} */
let openFile = async () => null;

function read() {
  try { const s = JSON.parse(sessionStorage.getItem(SESSION_KEY) || 'null'); return s && Array.isArray(s.tabs) ? s : null; } catch (e) { return null; }
}

function save() {
  if (embedded || restoring) return;
  try {
    if (!docs.length && !missing.length) { sessionStorage.removeItem(SESSION_KEY); return; }
    /** @type {Session} */
    const s = {
      tabs: docs.map((d) => ({ f: docFingerprint(d), name: d.doc.file, size: d.doc.size })).filter((t) => t.f).concat(missing),
      current: docFingerprint(state),
      compare: diff.a && diff.b ? [docFingerprint(diff.a), docFingerprint(diff.b)] : null,
    };
    sessionStorage.setItem(SESSION_KEY, JSON.stringify(s));
  } catch (e) { /* storage refused (file://, private mode): a reload starts afresh */ }
}

// reopenTabs adds a "reopen <name>" tab per document the reload could not bring back.
function reopenTabs(nav) {
  for (const t of missing) {
    const b = /** @type {HTMLButtonElement} */ (el('button', 'doc-tab reopen-tab', 'reopen ' + t.name));
    b.type = 'button';
    b.dataset.fingerprint = t.f;
    b.title = t.name + ' (' + fmtSize(t.size) + ') was open before the reload; the page cannot read a file again without you: pick it';
    b.addEventListener('click', () => {
      const input = /** @type {HTMLInputElement} */ (el('input'));
      input.type = 'file';
      input.addEventListener('change', () => {
        const f = input.files && input.files[0];
        if (!f) return;
        missing = missing.filter((x) => x !== t);
        openFile(f);
      });
      input.click();
    });
    nav.appendChild(b);
  }
  if (missing.length) nav.hidden = false;
}

/**
 * sessionInit reads the session the page was loaded with and keeps the current one as the tabs
 * change.
 * @param {(f: File) => Promise<any>} open features/open.js openFile (a reopen tab's file)
 */
export function sessionInit(open) {
  openFile = open;
  saved = embedded ? null : read();
  on('tabs', ({ nav }) => { reopenTabs(nav); save(); });
  on('empty', () => { if (!restoring) save(); });
}

/**
 * sessionRestore brings back the tabs of the session the page was loaded with (after libBoot,
 * which brings back the file the hash names): each from the library where it kept the bytes,
 * else as a "reopen" tab; then the tab that showed, and the comparison.
 */
export async function sessionRestore() {
  const s = saved;
  saved = null;
  if (!s || !s.tabs.length) return;
  const open = () => new Set(docs.map(docFingerprint));
  // A file the URL names (?url=) may still be opening: an open cancels the one in flight.
  for (let k = 0; opening && k < 600; k++) await new Promise((r) => setTimeout(r, 100));
  const hash = location.hash; // each tab brought back lands on its overview; the hash names the place to return to
  restoring = true;
  let back = 0;
  try {
    for (const t of s.tabs) {
      if (open().has(t.f)) { back++; continue; }
      let ok = false;
      try { ok = await libRestore(t.f, true); } catch (e) { ok = false; }
      if (ok && open().has(t.f)) back++;
      else if (!missing.some((m) => m.f === t.f)) missing.push(t);
    }
  } finally { restoring = false; }
  const i = docs.findIndex((d) => docFingerprint(d) === s.current);
  if (hash && location.hash !== hash) { try { history.replaceState(null, '', hash); } catch (e) { /* file:// */ } }
  if (i >= 0 && docs[i] !== state) switchDoc(i);
  else if (back) applyHash();
  if (s.compare) {
    const a = docs.find((d) => docFingerprint(d) === s.compare[0]), b = docs.find((d) => docFingerprint(d) === s.compare[1]);
    if (a && b) compare(a, b);
  }
  if (missing.length) {
    toast('Reload: ' + back + ' of ' + s.tabs.length + ' tabs brought back from the library; ' + missing.map((m) => m.name).join(', ') + ' must be picked again (the "reopen" tab' + (missing.length === 1 ? '' : 's') + ').', 'info');
  }
  // Draw the strip with the reopen tabs (its bar up even with no document), and keep the
  // session as it now is (the 'tabs' event).
  tabsDraw(missing.length > 0);
}
