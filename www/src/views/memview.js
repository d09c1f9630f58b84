// @ts-check
// The memory view: SBUF and PSUM of each core, bytes of a partition (up) over the
// schedule's steps (across). A buffer is the bytes one access pattern names (the same boxes
// written and read); it is live from its first write to its last read, drawn as a box whose
// height is its bytes and whose shade says how many partitions it spans. The step where a
// space reaches its peak is marked. A click on a box lists the instructions that write and
// read it, each leading to its listing row.

import { call } from '../core/client.js';
import { $, el, toast } from '../dom.js';
import { fmtInt } from '../lib/format.js';
import { liveByLine } from '../lib/memlive.js';
import { niceTicks } from '../lib/ticks.js';
import { state } from '../state/docs.js';
import { on } from '../state/events.js';
import { ensureHandle } from './hex.js';
import { instructionAt } from './listing.js';
import { overviewOf } from './overview.js';
import { barButton, viewFrame } from './viewframe.js';

const AXIS = 58; // px of the byte axis on the left
const BAND_GAP = 26; // px between bands (their titles)

/**
 * @typedef {object} Buffer a run of bytes one access pattern names, over its life
 * @property {number} space 0 SBUF, 1 PSUM
 * @property {number} lo first byte of a partition
 * @property {number} hi one past its last byte
 * @property {number} p0 first partition
 * @property {number} parts partitions
 * @property {number} from the step of its first access
 * @property {number} to the step of its last access
 * @property {number[]} acc its accesses (indexes of the core's access columns)
 * @property {boolean} [reserved] one of its writes is into the runtime's reserved SBUF bytes
 */

export const mem = {
  open: false,
  doc: null,
  /** @type {any[] | null} per core: {core, engines, members, acc, boxes, sbuf, psum, buffers, total} */
  cores: null,
  core: 0,
  s0: 0,
  scale: 1,
  /** @type {Buffer | null} */
  sel: null,
  fitted: true,
  /** @type {{x: number, y: number, w: number, h: number, b: Buffer}[]} */
  hits: [],
  /** how a peak is counted (the memory call's peak) */
  peak: '',
};

/**
 * memviewOf: the content pane shows the memory view while it is open (its row of views/registry.js); going
 * back to the overview closes it.
 * @param {import('../wire.js').Node} [n]
 */
export function memviewOf(n) {
  if (n && overviewOf(n)) mem.open = false;
  return mem.open && state && state.doc ? mem : null;
}

/** memviewOpen shows the memory view of the document on show. */
export async function memviewOpen() {
  mem.open = true;
  view().hidden = false;
  await load();
  const c = mem.cores && mem.cores[0];
  if (c && c.members.length) await instructionAt(c.members[0], 0);
  redraw();
}

const memCalls = new WeakMap();
/** @type {((doc: any, r: any) => void)[]} */
const memWatchers = [];

/**
 * onMemory calls fn(doc, result) when the memory call of a document answers, whoever asked
 * (the overview's sync card takes its card and verdict from it).
 * @param {(doc: any, r: any) => void} fn
 */
export function onMemory(fn) { memWatchers.push(fn); }

/**
 * memoryLoad is the core's memory model of the document on show (the 'memory' call, asked
 * once per document: its sweep can take longer than the open).
 * @returns {Promise<any>}
 */
export function memoryLoad() {
  const d = state.doc;
  let p = memCalls.get(d);
  if (!p) {
    p = ensureHandle().then((h) => call('memory', { handle: h }));
    p.then((r) => { for (const fn of memWatchers) fn(d, r); }, () => memCalls.delete(d));
    memCalls.set(d, p);
  }
  return p;
}

/** memviewClose hides it. */
export function memviewClose() {
  mem.open = false;
  root.hidden = true;
}

export function memviewShow() { view().hidden = false; load().then(redraw); }
export function memviewHide() { root.hidden = true; }

async function load() {
  if (mem.doc === state.doc && mem.cores) return;
  mem.doc = state.doc;
  mem.cores = null;
  mem.sel = null;
  $('mem-status').textContent = 'placing every SBUF and PSUM access…';
  try {
    const h = await ensureHandle();
    const [m, s] = await Promise.all([memoryLoad(), call('schedule', { handle: h })]);
    if (mem.doc !== state.doc) return;
    mem.cores = m.cores.map((c, k) => unpack(c, s.cores[k]));
    mem.peak = m.peak || '';
    fit();
    coreSelect();
    status();
  } catch (e) {
    $('mem-status').textContent = '';
    toast('Memory: ' + (e && e.message ? e.message : e));
  }
}

function unpack(c, sc) {
  const acc = new Int32Array(c.accesses);
  const boxes = new Int32Array(c.boxes);
  // Buffers: accesses of the same space naming the same boxes are one buffer.
  /** @type {Map<string, Buffer>} */
  const byKey = new Map();
  for (let a = 0; a < acc.length / 6; a++) {
    const step = acc[6 * a + 2];
    if (step < 0) continue;
    const space = acc[6 * a + 3] & 4 ? 1 : 0;
    const b0 = acc[6 * a + 4];
    const b1 = acc[6 * a + 5];
    let key = space + ':';
    let lo = Infinity, hi = 0, p0 = Infinity, p1 = 0;
    for (let b = b0; b < b1; b++) {
      const o = 6 * b;
      key += boxes.subarray(o, o + 6).join(',') + ';';
      lo = Math.min(lo, boxes[o + 2]);
      hi = Math.max(hi, boxes[o + 2] + (boxes[o + 5] - 1) * boxes[o + 4] + boxes[o + 3]);
      p0 = Math.min(p0, boxes[o]);
      p1 = Math.max(p1, boxes[o] + boxes[o + 1]);
    }
    if (b1 <= b0) continue;
    let buf = byKey.get(key);
    if (!buf) { buf = { space, lo, hi, p0, parts: p1 - p0, from: step, to: step, acc: [] }; byKey.set(key, buf); }
    buf.from = Math.min(buf.from, step);
    buf.to = Math.max(buf.to, step);
    buf.acc.push(a);
  }
  // The writes into the runtime's reserved SBUF bytes (mem.reserved): their buffers are flagged.
  const reserved = new Set((c.lints || []).filter((l) => l.code === RESERVED).map((l) => l.engine + '#' + l.index));
  const buffers = [...byKey.values()];
  for (const b of buffers) b.reserved = reserved.size > 0 && b.acc.some((a) => acc[6 * a + 3] & 1 && reserved.has(acc[6 * a] + '#' + acc[6 * a + 1]));
  return { core: c.core, engines: c.engines, members: sc ? sc.members : [], acc, boxes, sbuf: c.sbuf, psum: c.psum, lints: c.lints, buffers, total: sc ? Math.max(1, sc.total) : 1, unplaced: c.unplaced || 0, undecided: c.undecided || [] };
}

// RESERVED is the lint of a write into the SBUF bytes the runtime reserves (core/sched codes.go).
const RESERVED = 'mem.reserved';

/** @type {HTMLElement} the view's root (#mem-view), its frame built on first show */
let root;

function view() {
  if (root.childElementCount) return root;
  const { view: v, bar, status: st } = viewFrame(root, {
    cls: 'sched-view mem-view', label: 'Memory: SBUF and PSUM over the steps',
    title: 'Memory', axis: 'bytes of a partition × steps, not time', statusId: 'mem-status',
    axisTitle: 'A box is a buffer: the bytes an access pattern names in each of its partitions, live from its first write to its last read, at the schedule\'s earliest steps.',
  });
  const sel = el('select', 'mem-core');
  sel.id = 'mem-core';
  sel.setAttribute('aria-label', 'Core');
  sel.addEventListener('change', () => { mem.core = Number(/** @type {HTMLSelectElement} */ (sel).value) || 0; mem.sel = null; fit(); status(); redraw(); });
  bar.insertBefore(sel, st);
  barButton(bar, '✕', 'Close the memory view', memviewClose);
  const body = el('div', 'mem-body');
  const canvas = el('canvas', 'mem-canvas');
  canvas.id = 'mem-canvas';
  canvas.tabIndex = 0;
  canvas.setAttribute('role', 'img');
  canvas.setAttribute('aria-label', 'SBUF and PSUM buffers over the steps: wheel to zoom, drag to pan, click a box for its instructions');
  body.appendChild(canvas);
  const side = el('div', 'mem-side');
  side.id = 'mem-side';
  side.appendChild(el('p', 'muted', 'Click a box: the instructions that write and read it.'));
  body.appendChild(side);
  v.appendChild(body);
  wire(canvas);
  new ResizeObserver(() => { if (!v.hidden && mem.cores) { if (mem.fitted) fit(); redraw(); } }).observe(body);
  return v;
}

function coreSelect() {
  const sel = $('mem-core');
  sel.replaceChildren(...(mem.cores || []).map((c, k) => { const o = el('option', '', c.core); o.value = String(k); return o; }));
  sel.hidden = (mem.cores || []).length < 2;
}

function status() {
  const c = mem.cores && mem.cores[mem.core];
  if (!c) return;
  const pct = (u) => (u.partitionBytes ? ' (' + (100 * u.peakBytes / u.partitionBytes).toFixed(1) + '%)' : '');
  const st = $('mem-status');
  const unswept = (c.sbuf.unswept || 0) + (c.psum.unswept || 0);
  const reserved = c.lints.filter((l) => l.code === RESERVED).length;
  st.textContent = fmtInt(c.acc.length / 6) + ' accesses · ' + fmtInt(c.buffers.length) + ' buffers · SBUF peak ' + fmtInt(c.sbuf.peakBytes) + ' B' + pct(c.sbuf) + ' · PSUM peak ' + fmtInt(c.psum.peakBytes) + ' B' + pct(c.psum) +
    (c.unplaced ? ' · ' + fmtInt(c.unplaced) + ' operands not placed' : '') + (unswept ? ' · ' + fmtInt(unswept) + ' accesses past a limit' : '') +
    (reserved ? ' · ⚑ ' + reserved + ' write' + (reserved === 1 ? '' : 's') + ' into reserved SBUF' : '') + (c.lints.length ? ' · ' + c.lints.length + ' lints' : '');
  st.dataset.unplaced = String(c.unplaced);
  st.dataset.unswept = String(unswept);
  st.dataset.reserved = String(reserved);
  st.title = st.textContent + (mem.peak ? '\n' + mem.peak : '');
  if (!mem.sel) peakSide(c);
}

const canvasEl = () => /** @type {HTMLCanvasElement} */ ($('mem-canvas'));
const plotW = () => Math.max(1, canvasEl().clientWidth - AXIS - 8);

function fit() {
  const c = mem.cores && mem.cores[mem.core];
  if (!c) return;
  mem.fitted = true;
  mem.scale = plotW() / (c.total * 1.02);
  mem.s0 = -c.total * 0.01;
}

let frame = 0;
function redraw() {
  if (frame) return;
  frame = requestAnimationFrame(() => { frame = 0; draw(); });
}

function draw() {
  const v = root;
  const c = mem.cores && mem.cores[mem.core];
  if (!v || v.hidden || !c) return;
  const canvas = canvasEl();
  const W = canvas.clientWidth;
  const H = Math.max(200, canvas.clientHeight);
  const dpr = window.devicePixelRatio || 1;
  canvas.width = Math.round(W * dpr);
  canvas.height = Math.round(H * dpr);
  const g = /** @type {CanvasRenderingContext2D} */ (canvas.getContext('2d'));
  g.setTransform(dpr, 0, 0, dpr, 0, 0);
  const cs = getComputedStyle(document.documentElement);
  const css = (n) => cs.getPropertyValue(n).trim();
  g.clearRect(0, 0, W, H);
  g.font = '11px system-ui, sans-serif';
  g.textBaseline = 'middle';
  mem.hits = [];
  const pw = plotW();
  const bands = [{ space: 0, name: 'SBUF', u: c.sbuf, frac: 0.62, hue: 205 }, { space: 1, name: 'PSUM', u: c.psum, frac: 0.38, hue: 28 }];
  let top = 4;
  const avail = H - 2 * BAND_GAP - 24;
  for (const band of bands) {
    const h = Math.max(60, avail * band.frac);
    const bufs = c.buffers.filter((b) => b.space === band.space);
    const cap = band.u.partitionBytes || Math.max(1, ...bufs.map((b) => b.hi));
    const fold = folded(bufs);
    const ymax = Math.max(1, fold.total);
    const y0 = top + BAND_GAP - 6;
    const Y = (a) => y0 + h - (fold.at(a) / ymax) * h;
    g.fillStyle = css('--text');
    g.fillText(band.name + ' · ' + fmtInt(band.u.partitions) + ' partitions × ' + fmtInt(cap) + ' B · peak ' + fmtInt(band.u.peakBytes) + ' B of a partition' + (band.u.unswept ? ' (' + fmtInt(band.u.unswept) + ' accesses past a limit not counted)' : '') + (fold.runs.length > 1 ? ' · unused bytes folded (≈)' : ''), AXIS, top + 9);
    g.fillStyle = css('--panel-2');
    g.fillRect(AXIS, y0, pw, h);
    g.strokeStyle = css('--border');
    g.strokeRect(AXIS + 0.5, y0 + 0.5, pw - 1, h - 1);
    // The byte axis: each run of used bytes labelled at its start; a fold between runs.
    g.fillStyle = css('--muted');
    let lastY = Infinity;
    for (const r of fold.runs) {
      const y = Y(r.lo);
      if (lastY - y > 12) { g.fillText(hex(r.lo), 2, Math.min(y, y0 + h - 5)); lastY = y; }
      g.beginPath();
      g.moveTo(AXIS, Math.round(y) + 0.5);
      g.lineTo(AXIS + pw, Math.round(y) + 0.5);
      g.stroke();
      if (r.lo > 0) {
        const yg = y + (fold.gap / ymax) * h / 2;
        g.fillText('≈', AXIS + 3, yg);
      }
    }
    g.save();
    g.beginPath();
    g.rect(AXIS, y0, pw, h);
    g.clip();
    for (const b of bufs) {
      const x = AXIS + (b.from - mem.s0) * mem.scale;
      const w = Math.max(2, (b.to + 1 - b.from) * mem.scale);
      if (x > AXIS + pw || x + w < AXIS) continue;
      const yb = Y(b.hi);
      const hb = Math.max(2, Y(b.lo) - yb);
      const shade = 72 - 30 * Math.min(1, b.parts / 128);
      g.fillStyle = 'hsl(' + band.hue + ' 60% ' + shade + '% / 0.78)';
      g.fillRect(x, yb, w, hb);
      g.strokeStyle = b === mem.sel ? css('--text') : b.reserved ? css('--bad') : 'hsl(' + band.hue + ' 55% 35% / 0.9)';
      g.lineWidth = b === mem.sel || b.reserved ? 2 : 1;
      g.strokeRect(x + 0.5, yb + 0.5, w - 1, hb - 1);
      mem.hits.push({ x, y: yb, w, h: hb, b });
    }
    // The peak: the step of the access that reached it.
    const pa = band.u.peakAccess;
    if (pa >= 0) {
      const step = c.acc[6 * pa + 2];
      const x = AXIS + (step + 0.5 - mem.s0) * mem.scale;
      g.strokeStyle = css('--bad');
      g.setLineDash([4, 3]);
      g.lineWidth = 1.5;
      g.beginPath();
      g.moveTo(x, y0);
      g.lineTo(x, y0 + h);
      g.stroke();
      g.setLineDash([]);
      const label = 'peak ' + fmtInt(band.u.peakBytes) + ' B';
      const lx = Math.min(x + 4, AXIS + pw - 90);
      g.fillStyle = css('--panel');
      g.fillRect(lx - 2, y0 + 3, g.measureText(label).width + 4, 14);
      g.fillStyle = css('--bad');
      g.fillText(label, lx, y0 + 10);
    }
    g.restore();
    top = y0 + h + 8;
  }
  // The step axis.
  g.fillStyle = css('--muted');
  g.strokeStyle = css('--border');
  for (const t of niceTicks(Math.max(0, mem.s0), mem.s0 + pw / mem.scale, Math.max(2, Math.floor(pw / 110)))) {
    const x = AXIS + (t - mem.s0) * mem.scale;
    g.fillText(fmtInt(Math.round(t)), x - 6, top + 8);
  }
  g.fillText('step', 2, top + 8);
  canvas.dataset.drawn = String(mem.hits.length);
}

// folded maps a band's byte offsets onto its axis with the unused stretches between buffers
// folded to a small gap, so a 256-byte buffer 200 KiB up is as visible as one at 0.
function folded(bufs) {
  const iv = bufs.map((b) => [b.lo, b.hi]).sort((a, b) => a[0] - b[0]);
  /** @type {{lo: number, hi: number, base: number}[]} */
  const runs = [];
  for (const [lo, hi] of iv) {
    const last = runs[runs.length - 1];
    if (last && lo <= last.hi) last.hi = Math.max(last.hi, hi);
    else runs.push({ lo, hi, base: 0 });
  }
  const used = runs.reduce((a, r) => a + r.hi - r.lo, 0) || 1;
  const gap = used * 0.06;
  let at = runs.length && runs[0].lo > 0 ? gap : 0;
  for (const r of runs) { r.base = at; at += r.hi - r.lo + gap; }
  const total = Math.max(1, at);
  return {
    runs, gap, total,
    at(a) {
      let lo = 0, hi = runs.length;
      while (lo < hi) { const m = (lo + hi) >> 1; if (runs[m].hi < a) lo = m + 1; else hi = m; }
      const r = runs[Math.min(lo, runs.length - 1)];
      return r ? r.base + Math.max(0, Math.min(a, r.hi) - r.lo) : 0;
    },
  };
}

// hex is a byte offset as the listing's operands write it (SBUF:0x37b00).
const hex = (n) => '0x' + Math.round(n).toString(16);

/** @param {HTMLCanvasElement} canvas */
function wire(canvas) {
  canvas.addEventListener('wheel', (e) => {
    if (!mem.cores) return;
    e.preventDefault();
    const x = e.offsetX - AXIS;
    const at = mem.s0 + x / mem.scale;
    mem.scale = Math.max(plotW() / (mem.cores[mem.core].total * 2), Math.min(200, mem.scale * Math.exp(-e.deltaY * 0.0025)));
    mem.s0 = at - x / mem.scale;
    mem.fitted = false;
    redraw();
  }, { passive: false });
  let down = null;
  canvas.addEventListener('pointerdown', (e) => { down = { x: e.clientX, s0: mem.s0, moved: false }; canvas.setPointerCapture(e.pointerId); });
  canvas.addEventListener('pointermove', (e) => {
    if (!down) return;
    const dx = e.clientX - down.x;
    if (Math.abs(dx) > 3) down.moved = true;
    if (down.moved) { mem.s0 = down.s0 - dx / mem.scale; mem.fitted = false; redraw(); }
  });
  canvas.addEventListener('pointerup', (e) => {
    const d = down;
    down = null;
    if (d && !d.moved) pick(e.offsetX, e.offsetY);
  });
  canvas.addEventListener('dblclick', () => { fit(); redraw(); });
  // The schedule's keys: W/S zoom, A/D pan, 0 fits.
  canvas.addEventListener('keydown', (e) => {
    if (!mem.cores || e.ctrlKey || e.metaKey || e.altKey) return;
    const pw = plotW();
    const zoom = (k) => { const at = mem.s0 + pw / 2 / mem.scale; mem.scale = Math.max(pw / (mem.cores[mem.core].total * 2), Math.min(200, mem.scale * k)); mem.s0 = at - pw / 2 / mem.scale; };
    switch (e.key) {
      case 'w': case 'W': case '+': case '=': zoom(1.5); break;
      case 's': case 'S': case '-': zoom(1 / 1.5); break;
      case 'a': case 'A': case 'ArrowLeft': mem.s0 -= pw / 5 / mem.scale; break;
      case 'd': case 'D': case 'ArrowRight': mem.s0 += pw / 5 / mem.scale; break;
      case '0': case 'Home': fit(); redraw(); e.preventDefault(); return;
      default: return;
    }
    e.preventDefault();
    mem.fitted = false;
    redraw();
  });
}

function pick(x, y) {
  let found = null;
  for (const h of mem.hits) if (x >= h.x && x <= h.x + h.w && y >= h.y && y <= h.y + h.h) found = h.b;
  mem.sel = found;
  redraw();
  const side = $('mem-side');
  side.replaceChildren();
  const c = mem.cores && mem.cores[mem.core];
  if (!found || !c) { if (c) peakSide(c); else side.appendChild(el('p', 'muted', 'Click a box: the instructions that write and read it.')); return; }
  const b = found;
  if (b.reserved) side.appendChild(el('p', 'mem-flag', '⚑ written into the SBUF bytes the runtime reserves for itself (mem.reserved)'));
  side.appendChild(el('p', 'mem-buf', (b.space ? 'PSUM' : 'SBUF') + ' bytes ' + hex(b.lo) + '–' + hex(b.hi) + ' (' + fmtInt(b.hi - b.lo) + ' B) of partitions ' + b.p0 + '–' + (b.p0 + b.parts - 1)));
  side.appendChild(el('p', 'muted', 'live from step ' + fmtInt(b.from) + ' to ' + fmtInt(b.to)));
  const ul = el('ul', 'mem-accs');
  ul.id = 'mem-accs';
  for (const a of b.acc.slice(0, 200)) {
    const e = c.acc[6 * a];
    const i = c.acc[6 * a + 1];
    const flags = c.acc[6 * a + 3];
    const li = el('li');
    const btn = el('button', 'ov-link mem-acc', (flags & 1 ? 'writes ' : 'reads ') + c.engines[e] + ' #' + fmtInt(i) + (flags & 2 ? ' (DMA)' : '') + ' · step ' + fmtInt(c.acc[6 * a + 2]));
    /** @type {HTMLButtonElement} */ (btn).type = 'button';
    btn.dataset.write = String(flags & 1);
    btn.addEventListener('click', () => instructionAt(c.members[e], i));
    li.appendChild(btn);
    ul.appendChild(li);
  }
  side.appendChild(ul);
}

/**
 * memviewInit follows the document.
 * @param {HTMLElement} box the view's root
 */
export function memviewInit(box) {
  root = box;
  on('document', () => { if (mem.doc !== (state && state.doc)) { mem.cores = null; mem.doc = null; mem.sel = null; } });
  on('empty', () => { memviewClose(); mem.cores = null; mem.doc = null; });
  // The canvas takes its colours from the theme when it draws: a change of theme draws it again.
  const themed = () => { if (mem.open) redraw(); };
  new MutationObserver(themed).observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme'] });
  matchMedia('(prefers-color-scheme: dark)').addEventListener('change', themed);
}

/**
 * memviewBoxPoint: the middle of the k-th box drawn, in client pixels (null when there is
 * none); for the browser tests.
 * @param {number} k
 */
export function memviewBoxPoint(k) {
  const h = mem.hits[k];
  const canvas = $('mem-canvas');
  if (!h || !canvas) return null;
  const r = canvas.getBoundingClientRect();
  return { x: r.left + h.x + Math.min(h.w / 2, 6), y: r.top + h.y + h.h / 2, accesses: h.b.acc.length };
}

// accButton is one access as a link to its instruction: "Pool #12 (DMA) · conv2d.py:40"
// (the words around it say whether it writes or reads).
function accButton(c, a, line) {
  const e = c.acc[6 * a], i = c.acc[6 * a + 1], flags = c.acc[6 * a + 3];
  const b = el('button', 'ov-link mem-acc', c.engines[e] + ' #' + fmtInt(i) + (flags & 2 ? ' (DMA)' : '') + (line ? ' · ' + line : ''));
  /** @type {HTMLButtonElement} */ (b).type = 'button';
  b.dataset.write = String(flags & 1);
  b.addEventListener('click', () => instructionAt(c.members[e], i));
  return b;
}

// peakSide fills the side panel while no box is picked: for each space, what its peak leaves
// out and how it is counted, the buffers live at it summed by the kernel line that wrote them,
// and the writes into the runtime's reserved SBUF bytes.
function peakSide(c) {
  const side = $('mem-side');
  if (!side) return;
  side.replaceChildren();
  side.appendChild(el('p', 'muted', 'Click a box: the instructions that write and read it.'));
  const reserved = c.lints.filter((l) => l.code === RESERVED);
  if (reserved.length) {
    const h = el('p', 'mem-flag', '⚑ ' + reserved.length + ' write' + (reserved.length === 1 ? '' : 's') + ' into the SBUF bytes the runtime reserves for itself (mem.reserved):');
    h.id = 'mem-reserved';
    side.appendChild(h);
    const ul = el('ul', 'mem-accs');
    for (const l of reserved.slice(0, 50)) {
      const li = el('li');
      const b = el('button', 'ov-link mem-acc', c.engines[l.engine] + ' #' + fmtInt(l.index));
      /** @type {HTMLButtonElement} */ (b).type = 'button';
      b.title = l.message;
      b.addEventListener('click', () => instructionAt(c.members[l.engine], l.index));
      li.appendChild(b);
      ul.appendChild(li);
    }
    side.appendChild(ul);
  }
  if (c.unplaced) {
    const p = el('p', 'mem-left', fmtInt(c.unplaced) + ' operands the model could not place are in no peak and no race:');
    p.id = 'mem-unplaced';
    side.appendChild(p);
    const ul = el('ul', 'mem-accs');
    for (const u of c.undecided.slice(0, 20)) {
      const li = el('li', 'muted');
      li.dataset.code = u.code;
      // Each kind leads to its first instruction.
      const b = el('button', 'ov-link mem-acc', 'show ' + c.engines[u.engine] + ' #' + fmtInt(u.index));
      /** @type {HTMLButtonElement} */ (b).type = 'button';
      b.title = u.code;
      b.addEventListener('click', () => instructionAt(c.members[u.engine], u.index));
      li.append(fmtInt(u.count) + ' × ' + u.message + ' ', b);
      ul.appendChild(li);
    }
    side.appendChild(ul);
  }
  // How a peak is counted, said before the peaks.
  if (mem.peak) side.appendChild(el('p', 'muted mem-rule', 'How a peak is counted: ' + mem.peak + '.'));
  for (const [name, u] of /** @type {[string, any][]} */ ([['SBUF', c.sbuf], ['PSUM', c.psum]])) {
    const live = u.live || [];
    const h = el('p', 'mem-peak-head', name + ' peak ' + fmtInt(u.peakBytes) + ' B of a partition' + (u.unswept ? ' (' + fmtInt(u.unswept) + ' accesses past a limit not counted)' : ''));
    side.appendChild(h);
    if (!live.length) { side.appendChild(el('p', 'muted', 'nothing live')); continue; }
    side.appendChild(el('p', 'muted', 'live at the peak (partitions ' + live[0].partition + '–' + (live[0].partition + live[0].partitions - 1) + '), by the kernel line that wrote it:'));
    const byLine = el('ul', 'mem-lines');
    byLine.dataset.space = name;
    const sums = liveByLine(live);
    for (const x of sums.slice(0, 8)) byLine.appendChild(el('li', '', (x.line || '(no line)') + ' · ' + fmtInt(x.bytes) + ' B in ' + x.buffers + (x.buffers === 1 ? ' buffer' : ' buffers')));
    if (sums.length > 8) byLine.appendChild(el('li', 'muted', '… and ' + (sums.length - 8) + ' more lines'));
    side.appendChild(byLine);
    const ul = el('ul', 'mem-accs mem-live');
    for (const l of live.slice(0, 8)) {
      const li = el('li');
      li.appendChild(el('span', 'mem-live-bytes', fmtInt(l.bytes) + ' B'));
      li.appendChild(document.createTextNode(' written by '));
      li.appendChild(accButton(c, l.write, l.writeLine));
      if (l.lastRead >= 0) { li.appendChild(document.createTextNode(', read last by ')); li.appendChild(accButton(c, l.lastRead, l.readLine)); }
      ul.appendChild(li);
    }
    if (live.length > 8) ul.appendChild(el('li', 'muted', '… and ' + (live.length - 8) + ' more buffers'));
    side.appendChild(ul);
  }
}

