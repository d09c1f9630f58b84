// @ts-check
// The library panel: recent files the core keeps in IndexedDB (wasm/library.go).

import { call, core } from '../core/client.js';
import { $, el, toast } from '../dom.js';
import { embedded, params } from '../config.js';
import { fmtSize } from '../lib/format.js';
import { parseHash } from '../lib/hash.js';
import { PAGE_CODE } from '../lib/vocab.gen.js';
import { addDocs, contextState, makeState, opening, state } from '../state/docs.js';
import { on } from '../state/events.js';
import { unpackDocument } from '../wire.js';

// Library: recent files kept in IndexedDB by the core (wasm/library.go). Each entry holds
// the Document and, when the file fits the cap below, its bytes, so a reload, a discarded
// tab or an offline visit reopens it; a link whose #f= names a kept file opens it too.
// Where IndexedDB is missing (some file:// contexts) the list says so and nothing else
// changes. Embedded viewers keep nothing: the host page's files are not ours to remember.

const LIB_CAP_KEY = 'neffscope.libraryCap';
const LIB_CAPS = [0, 16 << 20, 64 << 20, 256 << 20, 1 << 30];
const LIB_CAP_DEFAULT = 256 << 20;
// unkept: the files this tab could not remember, and why (the list says so under Recent);
// puts: library writes finished, and last: the last one's outcome (for the tests).
export const lib = { ok: null, reason: '', list: [], busy: false, restored: null, unkept: [], puts: 0, last: null };

export function libCap() {
  try { const v = Number(localStorage.getItem(LIB_CAP_KEY)); if (LIB_CAPS.includes(v) && localStorage.getItem(LIB_CAP_KEY) !== null) return v; } catch (e) { /* default */ }
  return LIB_CAP_DEFAULT;
}

function fmtWhen(ms) {
  const d = new Date(ms), now = Date.now();
  const mins = Math.round((now - ms) / 60000);
  if (mins < 1) return 'just now';
  if (mins < 60) return mins + ' min ago';
  if (mins < 24 * 60) return Math.round(mins / 60) + ' h ago';
  return d.toISOString().slice(0, 10);
}

export async function libRefresh() {
  if (embedded) return;
  try {
    if (lib.ok === null) {
      const st = await call('libStatus', {});
      lib.ok = st.ok;
      lib.reason = st.reason;
    }
    lib.list = lib.ok ? (await call('libList', {})).list || [] : [];
  } catch (e) {
    lib.ok = false;
    lib.reason = e.message;
    lib.list = [];
  }
  libRender();
}

function libRender() {
  const box = root;
  box.hidden = embedded || lib.ok === null;
  $('library-open').hidden = embedded || !lib.ok;
  const list = $('library-list');
  list.replaceChildren();
  $('library-clear').disabled = !lib.list.length;
  $('library-cap').disabled = !lib.ok;
  const note = $('library-note');
  delete note.dataset.code;
  if (!lib.ok) {
    note.textContent = 'The library is off here: ' + (lib.reason || 'IndexedDB is not available') + '. Files open as usual but are not remembered.';
    note.dataset.state = 'off';
    return;
  }
  delete note.dataset.state;
  note.textContent = lib.list.length ? '' : 'Files you open are remembered here (in this browser only), so a reload or an offline visit opens them again.';
  if (lib.unkept.length) {
    note.dataset.state = 'unkept';
    note.dataset.code = Array.from(new Set(lib.unkept.map((u) => u.code).filter(Boolean))).join(' ');
    note.textContent = 'Not remembered: ' + lib.unkept.map((u) => u.name + ' (' + u.why + ')').join('; ') + '. Forget files below to make room, then open them again.';
  }
  for (const e of lib.list) {
    const files = e.files || [];
    const kept = files.length > 0 && files.every((f) => f.kept);
    const li = el('li', 'lib-item');
    li.dataset.key = e.key;
    const open = el('button', 'lib-open');
    open.type = 'button';
    open.title = 'Open ' + e.name + (kept ? '' : ' (its document only: the bytes were not kept)');
    open.appendChild(el('span', 'lib-name', e.name + (files.length > 1 ? ' + ' + (files.length - 1) + ' more' : '')));
    const meta = el('span', 'lib-meta');
    meta.appendChild(el('span', 'lib-kind', e.kind || '?'));
    meta.appendChild(el('span', '', fmtSize(e.size)));
    meta.appendChild(el('span', 'lib-when', fmtWhen(e.opened)));
    const sha = el('span', 'lib-sha', String(e.sha256 || '').slice(0, 12));
    sha.title = 'sha-256 ' + (e.sha256 || '');
    meta.appendChild(sha);
    const quota = !kept && e.dropped === 'quota';
    const b = el('span', 'lib-bytes ' + (kept ? 'kept' : 'doc-only'), kept ? 'bytes kept' : quota ? 'document only: storage full' : 'document only');
    b.title = kept ? 'The file\'s bytes are kept in this browser: it reopens completely.'
      : quota ? 'The browser\'s storage quota refused its bytes: the decoded document is kept, the bytes are not. Forget other files to make room, then open it again.'
        : 'Over the size cap: the decoded document is kept, the bytes are not. Open the file again to see its bytes.';
    b.dataset.dropped = kept ? '' : e.dropped || '';
    meta.appendChild(b);
    // The root's value is often just the size again: show it only when it says more.
    if (e.summary && !/^[\d,]+ B\b/.test(e.summary)) meta.appendChild(el('span', 'lib-summary', e.summary));
    open.appendChild(meta);
    open.addEventListener('click', () => { libClose(); libRestore(e.key, false); });
    const rm = el('button', 'button small lib-remove', '×');
    rm.type = 'button';
    rm.title = 'Forget ' + e.name;
    rm.setAttribute('aria-label', 'Forget ' + e.name);
    rm.addEventListener('click', async () => {
      try { await call('libRemove', { key: e.key }); } catch (err) { toast('Could not forget ' + e.name + ': ' + err.message); }
      libRefresh();
    });
    li.appendChild(open);
    li.appendChild(rm);
    list.appendChild(li);
  }
}

// libRemember keeps what was just opened: how ('open', 'group', 'context'), its files (with
// their bytes when each fits the cap) and extra (arch, model).
export async function libRemember(st, how, files, extra) {
  if (embedded || !st || !st.handle || lib.ok === false) return;
  const cap = libCap();
  const entry = Object.assign({ how, name: st.doc.file, files: files.map((f) => (f.size <= cap ? { name: f.name, size: f.size, blob: f } : { name: f.name, size: f.size })) }, extra || {});
  const name = st.doc.file;
  try {
    const r = await call('libPut', { handle: st.handle, entry });
    lib.last = { name, kept: r.kept, stored: r.stored, note: r.note, code: r.code, error: '' };
    lib.unkept = lib.unkept.filter((u) => u.name !== name);
    if (r.note) toast(r.note, 'warning', null, r.code);
  } catch (e) {
    // Said where the user meets it: now, and under Recent while this tab lasts.
    const full = e.code === 'limit';
    const code = full ? PAGE_CODE.LIBRARY_NOT_KEPT : '';
    lib.last = { name, kept: false, stored: false, note: '', code, error: e.message };
    lib.unkept = lib.unkept.filter((u) => u.name !== name).concat({ name, code, why: full ? 'the browser\'s storage is full' : e.message });
    toast(full ? e.message : 'The library could not remember ' + name + ': ' + e.message, 'warning', null, code);
  }
  lib.puts++;
  libRefresh();
}

// libRestore opens a kept entry (key: a sha-256 or a prefix of one). fromHash: the page was
// loaded with a link naming it, so the hash's node is selected once it is open.
export async function libRestore(key, fromHash) {
  let e;
  try { e = (await call('libGet', { key })).entry; } catch (err) { toast('The library could not be read: ' + err.message); return false; }
  if (!e) { if (!fromHash) toast('That file is no longer in the library'); return false; }
  lib.restored = { key: e.key, fromHash, kept: false };
  const files = (e.files || []).filter((f) => f.blob).map((f) => (f.blob instanceof File ? f.blob : new File([f.blob], f.name)));
  if (!fromHash) { try { history.replaceState(null, '', location.pathname + location.search); } catch (err) { /* file:// */ } }
  if (files.length && files.length === (e.files || []).length) {
    lib.restored.kept = true;
    if (e.how === 'group') await opener.openFiles(files);
    else if (e.how === 'context') await openContextFile(files[0], e.arch || 0, e.model || '');
    else await opener.openFile(files[0]);
    return true;
  }
  // The bytes were not kept: show the Document alone. Bytes-backed views say why they are empty.
  const doc = unpackDocument(e.doc);
  const st = makeState(doc, { file: null, handle: 0, gen: core.gen, stored: true });
  const why = e.dropped === 'quota' ? 'the browser\'s storage quota refused them' : 'it is over the library\'s size cap';
  st.reopen = async () => { throw new Error('the bytes of ' + e.name + ' were not kept (' + why + '); open the file again to see them'); };
  addDocs([st], 0, 0);
  document.body.dataset.state = 'open';
  toast('Showing the document kept for ' + e.name + '. Its bytes were not kept (' + why + '): open the file again to see them.', 'info');
  return true;
}

// openContextFile opens a file as a raw libncfw context directly (a library entry made that way).
async function openContextFile(file, arch, model) {
  try {
    const st = await contextState(file, arch, model);
    addDocs([st], 0, Math.round(st.openMs));
    document.body.dataset.state = 'open';
  } catch (e) {
    toast('Opening ' + file.name + ' as a libncfw context: ' + e.message);
  }
}

function libOpenPanel() {
  const pop = $('library-pop');
  pop.appendChild(root);
  pop.hidden = false;
  $('library-open').setAttribute('aria-expanded', 'true');
  libRefresh();
  const first = pop.querySelector('button');
  if (first) first.focus();
}

function libClose() {
  const pop = $('library-pop');
  if (pop.hidden) return;
  pop.hidden = true;
  $('library-open').setAttribute('aria-expanded', 'false');
  $('welcome-library').appendChild(root);
}

/**
 * The page's opener (features/open.js), which main.js hands to the views: a view does not
 * import features/.
 * @typedef {{openFile: (f: File) => Promise<any>, openFiles: (fs: File[]) => Promise<any>}} Opener
 */
/** @type {Opener} */
const opener = { openFile: async () => null, openFiles: async () => null };

/** @type {HTMLElement} the library (#library), on the welcome screen or in its pop-up */
let root;

/**
 * libInit wires the library's controls; app opens what the library restores. A link naming
 * a file that is not open restores it from the library (the 'hashUnknown' event).
 * @param {HTMLElement} view
 * @param {{app: Opener}} ctx
 */
export function libInit(view, { app }) {
  root = view;
  Object.assign(opener, { openFile: app.openFile, openFiles: app.openFiles });
  on('hashUnknown', ({ f }) => { if (lib.ok && !opening) libRestore(f, true); });
  const sel = $('library-cap');
  for (const c of LIB_CAPS) {
    const o = el('option', '', c ? 'files up to ' + fmtSize(c) : 'no bytes (documents only)');
    o.value = String(c);
    sel.appendChild(o);
  }
  sel.value = String(libCap());
  sel.addEventListener('change', () => { try { localStorage.setItem(LIB_CAP_KEY, sel.value); } catch (e) { /* not remembered */ } });
  $('library-clear').addEventListener('click', async () => {
    try { await call('libClear', {}); } catch (e) { toast('Could not clear the library: ' + e.message); }
    libRefresh();
  });
  $('library-open').addEventListener('click', () => { if ($('library-pop').hidden) libOpenPanel(); else libClose(); });
  document.addEventListener('keydown', (e) => { if (e.key === 'Escape' && !$('library-pop').hidden) { libClose(); $('library-open').focus(); } });
  document.addEventListener('click', (e) => {
    const pop = $('library-pop');
    if (!pop.hidden && !pop.contains(/** @type {Node} */ (e.target)) && e.target !== $('library-open')) libClose();
  });
}

// libBoot runs once the core is up: the list, and a link or reload naming kept files: the
// file it names, and the ones a comparison's link compares it with (vs, all), each the library kept
// (features/permalink.js lands on the comparison once both are open, and names the one not
// kept).
export async function libBoot() {
  if (embedded) return;
  await libRefresh();
  const { f, vs, all } = parseHash(location.hash);
  if (!lib.ok || !f || state || opening || params.get('url')) return;
  for (const key of [f, vs, ...all.map((x) => x.f)].filter(Boolean)) {
    if (opening) break;
    await libRestore(key, true);
  }
}
