// @ts-check
// The libncfw collective context view: the text the library prints, tied to the struct bytes.

import { call, core } from '../core/client.js';
import { $, closestTo, el, toast } from '../dom.js';
import { fmtInt } from '../lib/format.js';
import { MAX_SCROLL_PX, toScroll, toVirtual } from '../lib/virtual-scroll.js';
import { contextReopen, contextState, makeState, renderDocument, replaceDoc, state } from '../state/docs.js';
import { emit, on } from '../state/events.js';
import { unpackDocument, unpackNode } from '../wire.js';
import { contentTitle } from './content.js';
import { mainTree } from './tree.js';
import { ensureHandle, hexShow, ownerOf } from './hex.js';
import { libRemember } from './library.js';
import { KIND } from '../lib/vocab.gen.js';

// libncfw collective context: the text the library would print (virtualised, with line
// numbers), the arch switcher, and highlights both ways between printed values and their
// struct bytes in the hex view (through the field map: text range ↔ struct span).

const CTX_ROW = 18;
export const ctx = { uid: 0, text: '', lines: [], rows: [], spans: [], byLine: null, marked: new Set(), sel: -1, full: 0, hexMarks: [], arch: 0, rc: 0 };
export const RC_TEXT = { 0: 'ok', 22: 'unknown arch, nothing written', 28: 'cut at 1 MiB' };

// byteIndexer maps UTF-8 byte offsets of text to string indices (identity for ASCII text, the
// usual case; a model name with other characters shifts everything after it).
function byteIndexer(text) {
  if (!/[^\x00-\x7f]/.test(text)) return (b) => b;
  const starts = [];
  let b = 0;
  for (let i = 0; i < text.length; i++) {
    starts.push(b);
    const c = text.charCodeAt(i);
    if (c < 0x80) b += 1;
    else if (c < 0x800) b += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) { starts.push(b + 4); b += 4; i++; }
    else b += 3;
  }
  starts.push(b);
  return (byte) => {
    let lo = 0, hi = starts.length - 1;
    while (lo < hi) { const m = (lo + hi + 1) >> 1; if (starts[m] <= byte) lo = m; else hi = m - 1; }
    return lo;
  };
}

function ctxSetup() {
  if (ctx.uid === state.uid) return;
  const root = state.doc.root;
  const textNode = (root.kids || []).find((c) => c.kind === KIND.NCFW_TEXT) || { value: '', table: null };
  const archNode = (root.kids || []).find((c) => c.kind === KIND.NCFW_ARCHES);
  ctx.uid = state.uid;
  ctx.text = textNode.value || '';
  ctx.lines = [0];
  for (let i = ctx.text.indexOf('\n'); i >= 0; i = ctx.text.indexOf('\n', i + 1)) ctx.lines.push(i + 1);
  if (ctx.text.endsWith('\n')) ctx.lines.pop();
  if (!ctx.text) ctx.lines = [];
  const t = textNode.table || { cols: [], rows: [] };
  const col = (name) => (t.cols || []).indexOf(name);
  const cOff = col('offset'), cW = col('width'), cS = col('text_start'), cE = col('text_end'), cL = col('line'), cP = col('path');
  const at = byteIndexer(ctx.text); // the field map counts UTF-8 bytes; JS strings count UTF-16 units
  ctx.rows = (t.rows || []).map((r, k) => ({ k, path: r[cP], off: Number(r[cOff]), width: Number(r[cW]), ts: at(Number(r[cS])), te: at(Number(r[cE])), line: Number(r[cL]), span: t.rspans && t.rspans[k] }));
  ctx.byLine = new Map();
  for (const r of ctx.rows) {
    if (!(r.te > r.ts)) continue;
    if (!ctx.byLine.has(r.line)) ctx.byLine.set(r.line, []);
    ctx.byLine.get(r.line).push(r);
  }
  for (const list of ctx.byLine.values()) list.sort((a, b) => a.ts - b.ts);
  const marks = ctx.rows.filter((r) => r.span && r.span.len > 0).map((r) => ({ off: r.span.off, len: r.span.len }));
  marks.sort((a, b) => a.off - b.off);
  let i = 0;
  ctx.hexMarks = marks.filter((mk, k) => k === 0 || mk.off >= marks[k - 1].off + marks[k - 1].len).map((mk) => ({ off: mk.off, len: mk.len, cls: 'f' + (i++ % 2) }));
  ctx.marked = new Set();
  ctx.sel = -1;
  ctx.arch = Number((root.attrs && root.attrs.arch) || 0);
  ctx.rc = Number((root.attrs && root.attrs.rc) || 0);

  const sel = $('ctx-arch');
  sel.replaceChildren();
  const known = new Set();
  for (const r of (archNode && archNode.table && archNode.table.rows) || []) {
    known.add(Number(r[0]));
    const o = el('option', '', r[1] + ' (' + r[0] + ')' + (r[4] === 'true' ? ' · best guess' : r[3] === 'true' ? '' : ' · needs ' + fmtInt(r[2]) + ' B'));
    o.value = r[0];
    sel.appendChild(o);
  }
  if (!known.has(ctx.arch)) { const o = el('option', '', 'arch ' + ctx.arch + ' (unknown)'); o.value = String(ctx.arch); sel.appendChild(o); }
  sel.value = String(ctx.arch);
  const model = (state.context && state.context.model) || '';
  if ($('ctx-model').value !== model) $('ctx-model').value = model;
  const rc = $('ctx-rc');
  rc.textContent = 'rc ' + ctx.rc + ' · ' + (RC_TEXT[ctx.rc] || 'libncfw error');
  rc.dataset.rc = String(ctx.rc);
  rc.className = 'rc ' + (ctx.rc === 0 ? 'good' : ctx.rc === 28 ? 'warn' : 'bad');
  $('ctx-stats').textContent = fmtInt(ctx.text.length) + ' bytes · ' + fmtInt(ctx.lines.length) + ' lines · ' + fmtInt(ctx.rows.length) + ' fields';
  const banner = $('ctx-banner');
  banner.hidden = ctx.rc === 0;
  banner.textContent = ctx.rc === 22 ? 'libncfw_ctx_log returns 22 (EINVAL) for arch ' + ctx.arch + ': it knows arches 5, 12, 20 and 28 only, and writes nothing.'
    : ctx.rc === 28 ? 'libncfw_ctx_log returns 28 (ENOSPC): its 1 MiB buffer filled, the text is cut after 0xFFFFF bytes (shown as printed).'
      : ctx.rc ? 'libncfw_ctx_log returns ' + ctx.rc + '.' : '';
  banner.className = 'ctx-banner ' + (ctx.rc === 28 ? 'warn' : 'bad');
  ctx.full = ctx.lines.length * CTX_ROW;
  $('ctx-spacer').style.height = Math.min(ctx.full, MAX_SCROLL_PX) + 'px';
  $('ctx-text').scrollTop = 0;
  ctxRoot.dataset.arch = String(ctx.arch);
  ctxRoot.dataset.rc = String(ctx.rc);
  ctxRender();
}

/**
 * ctxOf: in a libncfw context document, the context view shows every node (alone: its bytes
 * below are the struct's); null in any other document.
 * @param {import('../wire.js').Node} n
 */
export function ctxOf(n) {
  return state.doc.kind === KIND.NCFW_CONTEXT && state.doc.root.kind === KIND.NCFW_CONTEXT ? n : null;
}

/** ctxHide hides the view (another document is on show). */
export function ctxHide() {
  ctxRoot.hidden = true;
}

/**
 * ctxShow shows the context's text with the values printed from n's bytes marked, and n's
 * bytes below.
 * @param {import('../wire.js').Node} _v ctxOf's answer (n)
 * @param {import('../wire.js').Node} n
 * @param {string} [from]
 */
export function ctxShow(_v, n, from) {
  ctxRoot.hidden = false;
  contentTitle(state.doc.file + ' · as printed by libncfw');
  ctxSetup();
  const whole = !n.span || n.span.len >= state.doc.size || n.kind === KIND.NCFW_CONTEXT;
  const span = whole ? null : n.span;
  if (span) ctxMarkRange(span.off, span.len, from !== 'ctx');
  else { ctx.marked = new Set(); ctx.sel = -1; ctxRender(); }
  hexShow('', span, true, ctx.hexMarks);
}

// ctxMarkRange marks the printed values whose struct bytes overlap [off, off+len).
function ctxMarkRange(off, len, scroll) {
  ctx.marked = new Set();
  let first = null;
  for (const r of ctx.rows) {
    const s = r.span;
    if (!s || !(s.len > 0) || s.off >= off + len || s.off + s.len <= off || !(r.te > r.ts)) continue;
    ctx.marked.add(r.k);
    if (!first) first = r;
  }
  ctx.sel = first ? first.k : -1;
  if (first && scroll) ctxScrollToLine(first.line);
  ctxRender();
  return first;
}

function ctxScrollToLine(line) {
  const sc = $('ctx-text');
  const first = Math.floor(toVirtual(sc, ctx.full) / CTX_ROW) + 1;
  const view = Math.floor(sc.clientHeight / CTX_ROW);
  if (line >= first + 1 && line < first + view - 2) return;
  sc.scrollTop = toScroll(sc, ctx.full, Math.max(0, (line - 1 - Math.floor(view / 3)) * CTX_ROW));
}

function ctxRender() {
  if (ctxRoot.hidden) return;
  const sc = $('ctx-text');
  const total = ctx.lines.length;
  const box = $('ctx-lines');
  if (!total) { box.replaceChildren(el('div', 'ctx-empty muted', ctx.rc ? 'Nothing printed (rc ' + ctx.rc + ').' : 'Empty text.')); return; }
  const vt = toVirtual(sc, ctx.full);
  const first = Math.max(0, Math.min(total - 1, Math.floor(vt / CTX_ROW)));
  const count = Math.min(total - first, Math.ceil(sc.clientHeight / CTX_ROW) + 2);
  box.style.top = (sc.scrollTop - (vt - first * CTX_ROW)) + 'px';
  const digits = String(total).length;
  const frag = document.createDocumentFragment();
  for (let i = first; i < first + count; i++) {
    const line = i + 1;
    const start = ctx.lines[i], end = i + 1 < total ? ctx.lines[i + 1] - 1 : ctx.text.length;
    const row = el('div', 'tl');
    row.dataset.line = line;
    row.appendChild(el('span', 'ln', String(line).padStart(digits, ' ')));
    const tx = el('span', 'tx');
    let pos = start;
    for (const r of ctx.byLine.get(line) || []) {
      if (r.ts < pos || r.te > end) continue;
      if (r.ts > pos) tx.appendChild(document.createTextNode(ctx.text.slice(pos, r.ts)));
      const v = el('span', 'tv' + (r.span && r.span.len > 0 ? '' : ' nobytes'), ctx.text.slice(r.ts, r.te));
      v.dataset.row = r.k;
      v.title = r.path + (r.span && r.span.len > 0 ? ' · bytes ' + fmtInt(r.span.off) + '..' + fmtInt(r.span.off + r.span.len) + ' · ' + (r.span.len) + ' B' : ' (not from the struct)');
      if (ctx.marked.has(r.k)) v.classList.add('mark');
      if (ctx.sel === r.k) v.classList.add('sel');
      tx.appendChild(v);
      pos = r.te;
    }
    if (pos < end) tx.appendChild(document.createTextNode(ctx.text.slice(pos, end)));
    row.appendChild(tx);
    frag.appendChild(row);
  }
  box.replaceChildren(frag);
}

// ctxFieldNode is the most specific node of the field tree over byte off (for the detail pane).
function ctxFieldNode(off) {
  const owner = ownerOf('', off);
  return owner && owner !== state.doc.root ? owner : null;
}

function ctxPickRow(k) {
  const r = ctx.rows[k];
  if (!r) return;
  ctx.marked = new Set([k]);
  ctx.sel = k;
  ctxRender();
  if (r.span && r.span.len > 0) {
    hexShow('', { src: '', off: r.span.off, len: r.span.len }, true, ctx.hexMarks);
    const f = ctxFieldNode(r.span.off);
    if (f) { emit('picked', { n: f }); mainTree.markSelected(f, false); }
  } else {
    hexShow('', null, false, ctx.hexMarks);
  }
}

// ctxHexClick: a byte of the context highlights the value(s) printed from it.
function ctxHexClick(off) {
  const first = ctxMarkRange(off, 1, true);
  if (first) hexShow('', { src: '', off: first.span.off, len: first.span.len }, false, ctx.hexMarks);
  else hexShow('', { src: '', off, len: 1 }, false, ctx.hexMarks);
  const f = ctxFieldNode(off);
  if (f) { emit('picked', { n: f }); mainTree.markSelected(f, false); }
}

async function ctxSwitchArch(arch, model) {
  if (model === undefined) model = (state.context && state.context.model) || '';
  const t0 = performance.now();
  const prev = state;
  try {
    const h = await ensureHandle();
    const r = await call('recontext', { handle: h, arch, model });
    if (state !== prev) return;
    const doc = unpackDocument(r.doc);
    const next = makeState(doc, { file: prev.file, handle: r.handle, gen: prev.gen, context: { arch, model } });
    next.reopen = contextReopen(next);
    replaceDoc(prev, next);
    renderDocument(Math.round(performance.now() - t0));
    lastRecontext = { ms: performance.now() - t0, coreMs: r.ms };
  } catch (e) {
    toast('Re-emitting for arch ' + arch + ': ' + e.message);
    $('ctx-arch').value = String(ctx.arch);
  }
}

// openAsContext re-opens the current (unrecognised binary) file as a raw libncfw context.
async function openAsContext(arch) {
  const prev = state;
  const t0 = performance.now();
  try {
    const next = await contextState(prev.file, arch, '');
    if (prev.handle && prev.gen === core.gen) call('close', { handle: prev.handle }).catch(() => {});
    replaceDoc(prev, next);
    renderDocument(Math.round(performance.now() - t0));
    libRemember(next, 'context', [prev.file], { arch });
  } catch (e) {
    toast('Opening ' + prev.file.name + ' as a libncfw context: ' + e.message);
  }
}

/** @type {HTMLElement} the view's root (#ctx-view) */
let ctxRoot;

/**
 * ctxInit wires the view (its text, the arch and model, copy and download) and what it
 * follows: a byte of the struct picked in the hex view.
 * @param {HTMLElement} view
 */
export function ctxInit(view) {
  ctxRoot = view;
  on('bytePicked', ({ src, off }) => { if (src === '' && state.doc.kind === KIND.NCFW_CONTEXT) ctxHexClick(off); });
  const sc = $('ctx-text');
  sc.addEventListener('scroll', () => requestAnimationFrame(ctxRender));
  new ResizeObserver(() => ctxRender()).observe(sc);
  $('ctx-lines').addEventListener('click', (e) => {
    const v = closestTo(e, '.tv');
    if (v) ctxPickRow(Number(v.dataset.row));
  });
  $('ctx-arch').addEventListener('change', (e) => ctxSwitchArch(Number(/** @type {HTMLInputElement} */ (e.target).value)));
  $('ctx-model').addEventListener('change', (e) => ctxSwitchArch(ctx.arch, /** @type {HTMLInputElement} */ (e.target).value));
  $('ctx-copy').addEventListener('click', async () => {
    try {
      await navigator.clipboard.writeText(ctx.text);
      toast('Copied ' + fmtInt(ctx.text.length) + ' bytes of text', 'info');
    } catch (e) {
      // No clipboard permission (file://, an insecure origin): select the text for the user.
      const ta = el('textarea', 'visually-hidden');
      ta.value = ctx.text;
      document.body.appendChild(ta);
      ta.select();
      const ok = document.execCommand && document.execCommand('copy');
      ta.remove();
      toast(ok ? 'Copied ' + fmtInt(ctx.text.length) + ' bytes of text' : 'The browser refused the clipboard: use Download', ok ? 'info' : 'warning');
    }
  });
  $('ctx-download').addEventListener('click', () => {
    const url = URL.createObjectURL(new Blob([ctx.text], { type: 'text/plain' }));
    const a = el('a');
    a.href = url;
    a.download = state.doc.file.replace(/\.[^.]*$/, '') + '.arch' + ctx.arch + '.txt';
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10000);
  });
}

// renderContextOffer: an unrecognised binary may be a raw libncfw context; offer to emulate
// it, with the arches its size allows.
export function renderContextOffer(n, box) {
  const sec = el('section', 'offer');
  sec.appendChild(el('h3', '', 'Raw libncfw collective context?'));
  sec.appendChild(el('p', '', 'A context taken from device memory carries no header. neffscope can emulate what libncfw 2.31 prints for it (libncfw_ctx_log) for the arch you choose, and link every printed value to its bytes.'));
  const row = el('div', 'offer-row');
  const sel = el('select');
  sel.id = 'ctx-arch-offer';
  sel.setAttribute('aria-label', 'Arch');
  const btn = el('button', 'button primary', 'Open as libncfw collective context');
  btn.type = 'button';
  btn.id = 'ctx-open';
  btn.addEventListener('click', () => openAsContext(Number(sel.value)));
  row.appendChild(sel);
  row.appendChild(btn);
  sec.appendChild(row);
  box.appendChild(sec);
  call('contextArches', { size: state.doc.size }).then((r) => {
    const a = unpackNode(r.node);
    for (const rw of (a.table && a.table.rows) || []) {
      const o = el('option', '', rw[1] + ' (' + rw[0] + ')' + (rw[4] === 'true' ? ' · best guess' : rw[3] === 'true' ? ' · fits' : ' · needs ' + fmtInt(rw[2]) + ' B, rest read as zero'));
      o.value = rw[0];
      sel.appendChild(o);
      if (rw[4] === 'true') sel.value = rw[0];
    }
  }).catch((e) => sec.appendChild(el('p', 'eval-err', e.message)));
}
export let lastRecontext = null; // {ms, coreMs} of the last arch switch, for tests
