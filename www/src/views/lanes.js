// @ts-check
// The time lanes: the program in time, one lane per engine of each core. A NEFF alone shows
// its estimate (the cost model, from the NEFF: views/timedata.js); with its device profile
// paired, each engine's measured lane sits above its estimated one (the estimate aligned at
// the core's first measured instruction), the DMA queues' busy stretches below them, the
// runtime's own words greyed in the measured lanes; a profile opened alone shows its image
// words in time. A click selects an instruction: the side panel says when it ran, measured and
// estimated and the error, why it waited (linked to its producer), and the listing below shows
// it. The critical path is marked on the estimated lanes. Drawing is the lanes canvas's
// (views/lanecanvas.js): the rows in view only, a box per pixel column at most.

import { $, el } from '../dom.js';
import { fmtInt } from '../lib/format.js';
import { boxes, makeLane, rowOf, sliceAt } from '../lib/lod.js';
import { streamPath } from '../lib/refs.js';
import { fmtPS } from '../lib/timeaxis.js';
import { fmtPct, modelError, relError, REASONS } from '../lib/timecols.js';
import { state } from '../state/docs.js';
import { on } from '../state/events.js';
import { LaneCanvas, drawLane } from './lanecanvas.js';
import { setDashboard } from './layout.js';
import { instructionAt, listing, listingRedraw, listingShown } from './listing.js';
import { lanesPanel, panelMount } from './lanespanel.js';
import { memviewClose, mem } from './memview.js';
import { overviewHide, overviewOf, overviewRedraw } from './overview.js';
import { peekLines, rowPeek } from './rowpeek.js';
import { opColor, scheduleClose, sched } from './schedule.js';
import { isNEFF, isNTFF, loadEstimate, loadMeasured, onTimes, timesOf } from './timedata.js';
import { barButton, viewFrame } from './viewframe.js';

const LANE = 22; // px of an engine's lane
const QLANE = 14; // px of a DMA queue's lane
const HEAD = 22; // px of a core's header row
const GREY = 'rgb(140 140 140 / 0.55)';

/**
 * The view's state: open (it shows while the document on show is st), the selection (a row of
 * a core's side: m measured, e estimated), whether the critical path is marked, and what the
 * tests read (globalThis.neffscope.lanes).
 */
export const tl = {
  open: false,
  /** @type {import('../state/store.js').DocState | null} */
  st: null,
  /** @type {{side: 'm' | 'e', core: number, engine: number, index: number} | null} */
  sel: null,
  crit: true,
  /** when the lanes were asked, and when their first frame with engines came (ms after) */
  asked: 0,
  firstLanesMs: 0,
  /** the phase the first drawn lanes had ('lanes': a big profile's engines before its DMA) */
  firstPhase: '',
};

/** @type {LaneCanvas | null} */
let lc = null;
/** @type {HTMLElement} */
let root;

/**
 * lanesOf: the content pane shows the time lanes while they are open on the document on
 * show and neither the schedule nor the memory view is (the registry's row).
 * @param {import('../wire.js').Node} [n]
 */
export function lanesOf(n) {
  if (n && overviewOf(n) && isNEFF(state)) tl.open = false;
  return tl.open && state && tl.st === state && !sched.open && !mem.open ? tl : null;
}

/**
 * lanesOpen shows the time lanes of the document on show: a NEFF's estimate, and its paired
 * profile measured beside it; a profile's own.
 */
export async function lanesOpen() {
  if (!state) return;
  scheduleClose();
  memviewClose();
  tl.open = true;
  tl.st = state;
  tl.sel = null;
  tl.asked = performance.now();
  tl.firstLanesMs = 0;
  tl.firstPhase = '';
  view().hidden = false;
  overviewHide();
  setDashboard(true);
  const st = state;
  laidFor = '';
  relayout();
  const t = timesOf(st);
  const asks = [];
  if (isNEFF(st) && !t.profile) asks.push(loadEstimate(st));
  if (isNTFF(st) || t.profile) asks.push(loadMeasured(st));
  status(isNTFF(st) || t.profile ? 'reading the profile…' : 'estimating from the NEFF…');
  try { await Promise.all(asks); } catch (e) { status('could not ' + (t.profile ? 'measure' : 'estimate') + ': ' + (e && e.message ? e.message : e)); return; }
  if (state !== st) return;
  relayout();
  statusNow();
  lanesPanel(tl.sel);
  // A NEFF's listing sits under its lanes (its first stream's, unless one is on show).
  if (isNEFF(st) && !listingShown()) {
    const t2 = timesOf(st);
    const c = (t2.meas && t2.meas.joined ? t2.meas.cores[0] : null) || (t2.est && t2.est.cores[0]);
    if (c && c.members[0]) await instructionAt(c.members[0], 0);
  }
}

/** lanesClose hides the lanes. */
export function lanesClose() {
  tl.open = false;
  if (root) root.hidden = true;
  setDashboard(false);
}

/**
 * lanesShow is its registry row's show. The lanes take the page's width (the dashboard's
 * layout: the structure, details and bytes are drawers), once the overview they replace has
 * hidden (it is asked after them).
 */
export function lanesShow() {
  view().hidden = false;
  relayout();
  queueMicrotask(() => { if (!root.hidden) setDashboard(true); });
  statusNow();
  lanesPanel(tl.sel);
  if (lc) lc.redraw();
}

/** lanesHide is its registry row's hide. */
export function lanesHide() {
  if (root) root.hidden = true;
}

function status(text) {
  const s = $('lanes-status');
  if (s) s.textContent = text;
}

function view() {
  if (root.childElementCount) return root;
  const { view: v, bar } = viewFrame(root, {
    cls: 'sched-view lanes-view', label: 'Time lanes: instructions in time, measured and estimated',
    title: 'Time', axis: 'time', statusId: 'lanes-status', live: true,
    axisTitle: 'Measured lanes are the device profile\'s records (ps from the window\'s start); estimated lanes are the cost model\'s, from the NEFF alone, aligned at the core\'s first measured instruction.',
  });
  const crit = barButton(bar, 'Critical path', 'Mark the estimate\'s critical path: the chain of instructions that sets its span (C)', () => toggleCrit());
  crit.id = 'lanes-crit';
  crit.setAttribute('aria-pressed', 'true');
  barButton(bar, '−', 'Zoom out (S, or Ctrl+wheel)', () => lc && lc.zoomAt(0.5, lc.width() / 2));
  barButton(bar, '+', 'Zoom in (W, or Ctrl+wheel)', () => lc && lc.zoomAt(2, lc.width() / 2));
  barButton(bar, '⟲', 'Fit the whole run (0, or double-click)', () => { if (lc) { lc.fit(); lc.redraw(); } });
  barButton(bar, '✕', 'Close the time lanes', lanesClose);
  const row = el('div', 'lanes-row');
  const main = el('div', 'lanes-main');
  row.appendChild(main);
  const side = el('div', 'lanes-side');
  side.id = 'lanes-side';
  side.setAttribute('role', 'region');
  side.setAttribute('aria-label', 'The selected instruction, the estimate\'s error and idle time');
  row.appendChild(side);
  v.appendChild(row);
  panelMount(side, { pick: (side2, k, e, i) => pick(side2, k, e, i, true), describe, facts: instrFacts, times: () => (tl.st ? timesOf(tl.st) : null) });
  lc = new LaneCanvas(main, v, {
    rulerId: 'lanes-ruler', bodyId: 'lanes-body', labelsId: 'lanes-labels', canvasId: 'lanes-canvas', tipId: 'lanes-tip',
    ariaLabel: 'Time lanes: W/S or Ctrl+wheel zoom, A/D, drag or Shift+wheel pan, the wheel scrolls the lanes, click an instruction to select it, C marks the critical path',
    unit: 'ps', labelsW: 150, drawRow, drawOver, hit, tip,
    pick: (h) => { if (h.side !== 'q') pick(h.side, h.core, h.engine, h.index, false); },
  });
  lc.canvas.addEventListener('keydown', (e) => { if ((e.key === 'c' || e.key === 'C') && !e.ctrlKey && !e.metaKey && !e.altKey) { e.preventDefault(); toggleCrit(); } });
  return v;
}

function toggleCrit() {
  tl.crit = !tl.crit;
  const b = $('lanes-crit');
  if (b) b.setAttribute('aria-pressed', tl.crit ? 'true' : 'false');
  if (lc) lc.redraw();
}

// ---- the rows: per core a head, per engine its measured and estimated lanes, the DMA queues ----

let laidFor = '';
/** per core: the estimate's shift onto the measured window (ps; 0 without a profile) */
let align = [];
/** @type {Map<string, number>} 'side:core:engine' → row */
let rowKey = new Map();

function relayout() {
  if (!lc || !tl.st) return;
  const t = timesOf(tl.st);
  const meas = t.meas, est = t.est;
  const key = [tl.st.uid, t.phase, !!meas, !!est, meas ? meas.cores.length : 0, est ? est.cores.length : 0].join('|');
  if (key === laidFor) return;
  laidFor = key;
  /** @type {import('./lanecanvas.js').Row[]} */
  const rows = [];
  rowKey = new Map();
  align = [];
  const names = meas ? meas.cores.map((c) => c.core) : est ? est.cores.map((c) => c.core) : [];
  names.forEach((name, k) => {
    const mc = meas ? meas.cores[k] : null;
    const ec = est ? est.cores.find((c) => c.core === name) || null : null;
    const ek = ec && est ? est.cores.indexOf(ec) : -1;
    align[k] = mc && ec ? firstStart(mc) : 0;
    rows.push({ kind: 'head', h: HEAD, label: name, data: { core: name }, of: { k, ek }, title: ec && est ? name + ' estimated span ' + fmtPS(ec.span) + '\n' + modelError(est.model) : undefined });
    const engines = mc ? mc.engines : ec ? ec.engines : [];
    engines.forEach((eng, e) => {
      if (mc) { rowKey.set('m:' + k + ':' + e, rows.length); rows.push({ kind: 'lane', h: LANE, label: eng + (ec ? ' measured' : ''), data: { core: name, engine: eng, side: 'measured' }, cls: 'lanes-m', of: { side: 'm', k, e }, title: eng + ' measured: ' + fmtInt(mc.lens[e]) + ' rows of ' + fmtInt(mc.instructions[e]) + (meas && meas.joined ? ' instructions' : ' image words') + ' · busy ' + fmtPS(mc.busy[e]) }); }
      const ee = ec ? ec.engines.indexOf(eng) : -1;
      if (ec && ee >= 0) { rowKey.set('e:' + ek + ':' + ee, rows.length); rows.push({ kind: 'lane', h: LANE, label: eng + (mc ? ' estimated' : ''), data: { core: name, engine: eng, side: 'estimated' }, cls: 'lanes-e', of: { side: 'e', k: ek, e: ee, mk: k }, title: eng + ' estimated: ' + fmtInt(ec.lens[ee]) + ' instructions · busy ' + fmtPS(ec.busy[ee]) + '\n' + modelError(est.model, eng) }); }
    });
    if (mc) mc.queues.forEach((q, qi) => { rows.push({ kind: 'lane', h: QLANE, label: q.name, data: { core: name, queue: q.name, side: 'dma' }, cls: 'lanes-q', of: { side: 'q', k, q: qi }, title: 'DMA ' + q.name + ': ' + fmtInt(q.packets) + ' packets, ' + fmtInt(q.bytes) + ' B, busy ' + fmtPS(q.busy) + ', ' + q.gbps.toFixed(1) + ' GB/s while busy' }); });
  });
  const span = meas ? meas.window : est ? Math.max(1, ...est.cores.map((c) => c.span)) : 1;
  lc.setRows(rows, 0, span);
  lc.fit();
  if (rows.length && !tl.firstLanesMs && (meas || est)) { tl.firstLanesMs = performance.now() - tl.asked; tl.firstPhase = t.phase || 'estimate'; }
}

// firstStart is a measured core's first instruction's start: where its estimate begins.
function firstStart(c) {
  let m = Infinity;
  for (let r = 0; r < c.start.length; r++) if (c.start[r] < m) m = c.start[r];
  return Number.isFinite(m) ? m : 0;
}

// ---- drawing ----

/** per core object: its lanes for drawing (made when first drawn) */
const lanesOfCore = new WeakMap();
function laneOf(c, e, which = 'rows') {
  let m = lanesOfCore.get(c);
  if (!m) { m = new Map(); lanesOfCore.set(c, m); }
  const key = which + e;
  let l = m.get(key);
  if (!l) {
    if (which === 'rows') l = makeLane(c.start.subarray(c.off[e], c.off[e] + c.lens[e]), c.end.subarray(c.off[e], c.off[e] + c.lens[e]));
    else if (which === 'rt') l = makeLane(c.runtime.start.subarray(c.runtime.off[e], c.runtime.off[e] + c.runtime.lens[e]), c.runtime.end.subarray(c.runtime.off[e], c.runtime.off[e] + c.runtime.lens[e]));
    else if (which === 'q') { const s = c.queues[e].segments; const st = new Float64Array(s.length / 2), en = new Float64Array(s.length / 2); for (let i = 0; i < st.length; i++) { st[i] = s[2 * i]; en[i] = s[2 * i + 1]; } l = makeLane(st, en); } else l = critLane(c, e);
    m.set(key, l);
  }
  return l;
}

// critLane is an estimated engine's instructions on the critical path, as a lane.
function critLane(c, e) {
  const s = [], en = [];
  const cr = c.critical;
  for (let x = 0; x < cr.engine.length; x++) if (cr.engine[x] === e) { const r = c.off[e] + cr.index[x]; s.push(c.start[r]); en.push(c.end[r]); }
  return makeLane(Float64Array.from(s), Float64Array.from(en));
}

const out = boxes();
const outRT = boxes();

/** @returns {any} a side's data: the measurement or the estimate */
function dataOf(side) {
  const t = tl.st ? timesOf(tl.st) : null;
  return t ? (side === 'e' ? t.est : t.meas) : null;
}

/** @param {CanvasRenderingContext2D} g @param {import('./lanecanvas.js').Row} row @param {number} y @param {import('./lanecanvas.js').Frame} f @param {import('./lanecanvas.js').Colors} col */
function drawRow(g, row, y, f, col) {
  const t = tl.st ? timesOf(tl.st) : null;
  if (!t) return;
  if (row.kind === 'head') { drawHead(g, row, y, t, col); return; }
  const o = row.of;
  const d = dataOf(o.side === 'q' ? 'm' : o.side);
  if (!d) return;
  const c = d.cores[o.k];
  if (o.side === 'q') {
    const hue = 190 + 40 * (o.q % 4);
    drawLane(g, laneOf(c, o.q, 'q'), out, y + 2, row.h - 4, f, () => 'hsl(' + hue + ' 55% ' + (col.dark ? 45 : 60) + '%)', null, col);
    return;
  }
  const e = o.e;
  const ff = o.side === 'e' ? { ...f, t0: f.t0 - (align[o.mk] || 0) } : f;
  const base = c.off[e];
  if (o.side === 'm' && c.runtime.lens[e]) drawLane(g, laneOf(c, e, 'rt'), outRT, y + 3, row.h - 6, f, () => GREY, null, col);
  const l = laneOf(c, e);
  drawLane(g, l, out, y + 3, row.h - 6, ff, (p) => opColor(c.ops[base + rowOf(l, p)], col.dark), (p) => (d.opnames[c.ops[base + rowOf(l, p)]] || '') + ' #' + c.index[base + rowOf(l, p)], col);
  if (o.side === 'e' && tl.crit && c.critical.engine.length) {
    g.fillStyle = col.bad;
    drawLane(g, laneOf(c, e, 'crit'), out, y + row.h - 4, 3, ff, () => col.bad, null, col);
  }
  const sel = tl.sel;
  if (sel && sameInstr(sel, o.side, o.k, e)) {
    const r = rowFor(o.side, o.k, e, sel.index);
    if (r >= 0 && c.start[r] >= 0) {
      g.strokeStyle = col.text;
      g.lineWidth = 2;
      const x0 = (c.start[r] - ff.t0) * f.k, x1 = (c.end[r] - ff.t0) * f.k;
      g.strokeRect(x0 - 1, y + 2, Math.max(3, x1 - x0) + 2, row.h - 4);
    }
  }
}

// spanError is the model's span error beside an estimated span (" ±12 %"; '' when not known).
function spanError(model) {
  const er = model && model.error;
  return er && Number.isFinite(er.span) ? ' ±' + Math.round(100 * er.span) + ' %' : '';
}

function drawHead(g, row, y, t, col) {
  const k = row.of.k;
  const parts = [row.label];
  const mc = t.meas && t.meas.cores[k];
  const ec = t.est && row.of.ek >= 0 ? t.est.cores[row.of.ek] : null;
  if (mc) parts.push('measured: ' + mc.engines.map((e, i) => e + ' ' + fmtPS(mc.busy[i], 3)).join(', ') + ' busy');
  if (ec) parts.push('estimated span ' + fmtPS(ec.span) + spanError(t.est.model));
  g.fillStyle = col.muted;
  g.fillText(parts.join(' · '), 6, y + row.h / 2);
}

// sameInstr: the selection is this lane's instruction (the same engine, on either side when
// both are shown: measured and estimated lanes of one instruction are marked together).
function sameInstr(sel, side, k, e) {
  if (sel.side === side) return sel.core === k && sel.engine === e;
  const other = counterpart(sel.side, sel.core, sel.engine);
  return !!other && other.k === k && other.e === e;
}

// counterpart: the same engine on the other side (measured ↔ estimated), by core and engine
// name.
function counterpart(side, k, e) {
  const t = tl.st && timesOf(tl.st);
  if (!t || !t.meas || !t.est) return null;
  const from = side === 'm' ? t.meas.cores[k] : t.est.cores[k];
  const to = side === 'm' ? t.est.cores : t.meas.cores;
  const tk = to.findIndex((c) => c.core === from.core);
  if (tk < 0) return null;
  const te = to[tk].engines.indexOf(from.engines[e]);
  return te < 0 ? null : { k: tk, e: te };
}

// rowFor is instruction index's row on a side (-1: none): estimated rows are indexes;
// measured rows are searched (rows of an engine are few enough, and a selection is one).
function rowFor(side, k, e, index) {
  const d = dataOf(side);
  if (!d) return -1;
  const c = d.cores[k];
  if (side === 'e') return index >= 0 && index < c.lens[e] ? c.off[e] + index : -1;
  for (let r = c.off[e]; r < c.off[e] + c.lens[e]; r++) if (c.index[r] === index) return r;
  return -1;
}

// drawOver draws the selected instruction's wait: an arrow from its producer's estimated slice.
function drawOver(g, f, col) {
  const sel = tl.sel;
  const t = tl.st && timesOf(tl.st);
  if (!sel || !t || !t.est || !lc) return;
  const ei = sel.side === 'e' ? { k: sel.core, e: sel.engine } : counterpart('m', sel.core, sel.engine);
  if (!ei) return;
  const c = t.est.cores[ei.k];
  const r = rowFor('e', ei.k, ei.e, sel.index);
  if (r < 0 || c.producerEngine[r] < 0) return;
  const pr = rowFor('e', ei.k, c.producerEngine[r], c.producerIndex[r]);
  const y0r = rowKey.get('e:' + ei.k + ':' + c.producerEngine[r]), y1r = rowKey.get('e:' + ei.k + ':' + ei.e);
  if (pr < 0 || y0r === undefined || y1r === undefined) return;
  const mk = (t.meas ? t.meas.cores.findIndex((m) => m.core === c.core) : -1);
  const shift = mk >= 0 ? align[mk] || 0 : 0;
  const x0 = (c.end[pr] + shift - f.t0) * f.k, x1 = (c.start[r] + shift - f.t0) * f.k;
  const y0 = lc.rowY(y0r) + LANE / 2, y1 = lc.rowY(y1r) + LANE / 2;
  g.strokeStyle = col.accent;
  g.fillStyle = col.accent;
  g.lineWidth = 1.8;
  const dx = Math.max(12, Math.abs(x1 - x0) / 2);
  g.beginPath();
  g.moveTo(x0, y0);
  g.bezierCurveTo(x0 + dx, y0, x1 - dx, y1, x1, y1);
  g.stroke();
  g.beginPath();
  g.moveTo(x1, y1);
  g.lineTo(x1 - 7, y1 - 4);
  g.lineTo(x1 - 7, y1 + 4);
  g.closePath();
  g.fill();
}

// ---- the pointer ----

function hit(row, x, t, f) {
  const o = row.of;
  const d = dataOf(o.side === 'q' ? 'm' : o.side);
  if (!d) return null;
  const c = d.cores[o.k];
  if (o.side === 'q') {
    const l = laneOf(c, o.q, 'q');
    const p = sliceAt(l, t, 3 / f.k);
    return p < 0 ? null : { side: 'q', core: o.k, queue: o.q, seg: p };
  }
  const tt = o.side === 'e' ? t - (align[o.mk] || 0) : t;
  const l = laneOf(c, o.e);
  const p = sliceAt(l, tt, 3 / f.k);
  if (p >= 0) return { side: o.side, core: o.k, engine: o.e, index: c.index[c.off[o.e] + rowOf(l, p)] };
  if (o.side === 'm' && c.runtime.lens[o.e]) {
    const rl = laneOf(c, o.e, 'rt');
    const q = sliceAt(rl, t, 3 / f.k);
    if (q >= 0) return { side: 'rt', core: o.k, engine: o.e, pos: c.runtime.index[c.runtime.off[o.e] + rowOf(rl, q)], row: c.runtime.off[o.e] + rowOf(rl, q) };
  }
  return null;
}

function tip(h) {
  const t = tl.st && timesOf(tl.st);
  if (!t) return [];
  if (h.side === 'q') {
    const q = t.meas.cores[h.core].queues[h.queue];
    const l = laneOf(t.meas.cores[h.core], h.queue, 'q');
    return ['DMA ' + q.name, 'busy ' + fmtPS(l.start[h.seg]) + ' → ' + fmtPS(endAt(l, h.seg)) + ' (' + fmtPS(endAt(l, h.seg) - l.start[h.seg]) + ')', fmtInt(q.packets) + ' packets · ' + fmtInt(q.bytes) + ' B in all · ' + q.gbps.toFixed(1) + ' GB/s while busy'];
  }
  if (h.side === 'rt') {
    const c = t.meas.cores[h.core];
    return [c.engines[h.engine] + ' runtime word ' + fmtInt(h.pos), 'the runtime\'s own code (preamble or postamble), not the NEFF\'s', 'at ' + fmtPS(c.runtime.start[h.row]) + ' for ' + fmtPS(c.runtime.end[h.row] - c.runtime.start[h.row])];
  }
  const lines = describe(h.side, h.core, h.engine, h.index);
  // An estimate is never shown without the model's error (the side panel says it whole).
  const f = instrFacts(h.side, h.core, h.engine, h.index);
  if (f && f.runs) lines.push(modelError(t.est.model, f.engine));
  const d = dataOf(h.side);
  const member = d ? d.cores[h.core].members[h.engine] : '';
  if (member) return lines.concat(peekLines(rowPeek(member, h.index, () => { if (lc && lc.pointer) lc.hover(lc.pointer.x, lc.pointer.y); })));
  return lines;
}

const endAt = (l, p) => (l.end ? l.end[p] : l.start[p] + 1);

/**
 * instrFacts is what instruction index of engine e of core k (on side) is and when it ran, as
 * data: its measured and estimated start and duration (ps; NaN: none), the estimate's error,
 * why it waited and on what. The side panel's data attributes and describe's text.
 * @param {'m' | 'e'} side
 * @param {number} k
 * @param {number} e
 * @param {number} index
 */
export function instrFacts(side, k, e, index) {
  const t = tl.st && timesOf(tl.st);
  if (!t) return null;
  const d = side === 'e' ? t.est : t.meas;
  const c = d.cores[k];
  const r = rowFor(side, k, e, index);
  const other = counterpart(side, k, e);
  const mr = side === 'm' ? r : other ? rowFor('m', other.k, other.e, index) : -1;
  const er = side === 'e' ? r : other ? rowFor('e', other.k, other.e, index) : -1;
  const mc = t.meas ? t.meas.cores[side === 'm' ? k : other ? other.k : 0] : null;
  const ec = t.est ? t.est.cores[side === 'e' ? k : other ? other.k : 0] : null;
  const f = {
    engine: c.engines[e], index, word: !!(t.meas && !t.meas.joined), op: r >= 0 ? d.opnames[c.ops[r]] || '' : '',
    profiled: !!(t.meas && t.meas.joined), measuredAt: NaN, measured: NaN, estimated: !!(ec && er >= 0), runs: false, estimatedAt: NaN, estimate: NaN, error: NaN,
    reason: '', waited: NaN, producer: /** @type {{engine: string, index: number} | null} */ (null), queue: '',
  };
  if (mc && mr >= 0) { f.measuredAt = mc.start[mr]; f.measured = mc.end[mr] - mc.start[mr]; }
  if (ec && er >= 0 && ec.start[er] >= 0) {
    f.runs = true;
    f.estimatedAt = ec.start[er];
    f.estimate = ec.end[er] - ec.start[er];
    if (Number.isFinite(f.measured)) f.error = relError(f.estimate, f.measured);
    f.reason = REASONS[ec.reason[er]] || 'none';
    f.waited = ec.waited[er];
    const pe = ec.producerEngine[er];
    if (pe >= 0) f.producer = { engine: ec.engines[pe], index: ec.producerIndex[er] };
    if (f.reason === 'dma' && ec.queue[er] >= 0) f.queue = ec.queues[ec.queue[er]];
  }
  return f;
}

/**
 * describe says in words what instrFacts says: the tooltip's and the side panel's lines.
 * @param {'m' | 'e'} side
 * @param {number} k
 * @param {number} e
 * @param {number} index
 * @returns {string[]}
 */
export function describe(side, k, e, index) {
  const f = instrFacts(side, k, e, index);
  if (!f) return [];
  const lines = [f.engine + (f.word ? ' word ' : ' #') + fmtInt(index) + ' · ' + f.op];
  if (Number.isFinite(f.measured)) lines.push('measured ' + fmtPS(f.measured) + ' at ' + fmtPS(f.measuredAt));
  else if (f.profiled) lines.push('measured: no row (untimed)');
  if (f.runs) {
    lines.push('estimated ' + fmtPS(f.estimate) + ' at ' + fmtPS(f.estimatedAt) + ' from the core\'s start' + (Number.isFinite(f.error) ? ' · error ' + fmtPct(f.error) : ''));
    const by = f.producer ? f.producer.engine + ' #' + fmtInt(f.producer.index) : '';
    if (f.reason === 'semaphore') lines.push('waited ' + fmtPS(f.waited) + ' on a semaphore ← ' + (by || '?'));
    else if (f.reason === 'dma') lines.push('waited ' + fmtPS(f.waited) + ' on DMA ' + f.queue + (by ? ' (triggered by ' + by + ')' : ''));
    else if (f.reason === 'engine') lines.push('waited ' + fmtPS(f.waited) + ' for its engine (the instruction before)');
    else lines.push('nothing held it back');
  } else if (f.estimated) lines.push('estimated: never runs (behind a deadlock or a hang)');
  return lines;
}

// pick selects an instruction: marked on both sides, the side panel says its times and why
// it waited, the listing below shows it (a NEFF's).
function pick(side, k, e, index, center) {
  if (!lc) return;
  tl.sel = { side, core: k, engine: e, index };
  const d = dataOf(side);
  if (center && d) {
    const r = rowFor(side, k, e, index);
    const ri = rowKey.get(side + ':' + k + ':' + e);
    if (r >= 0 && ri !== undefined) {
      const c = d.cores[k];
      const shift = side === 'e' ? (align[lanesCoreOf(k)] || 0) : 0;
      lc.centerOn((c.start[r] + c.end[r]) / 2 + shift, ri, 20 / Math.max(1, c.end[r] - c.start[r]));
    }
  }
  lc.redraw();
  lanesPanel(tl.sel);
  const member = d ? d.cores[k].members[e] : '';
  if (member) instructionAt(member, index).then(() => lc && lc.redraw());
}

// lanesCoreOf: the measured core an estimated core k lines up with (its shift's index).
function lanesCoreOf(k) {
  const t = tl.st && timesOf(tl.st);
  if (!t || !t.meas || !t.est) return -1;
  return t.meas.cores.findIndex((c) => c.core === t.est.cores[k].core);
}

/**
 * lanesFocus opens the lanes and scrolls to row key ('m:0:0' measured PE of the first core,
 * 'q:0' the first core's DMA queues): the overview's figures lead here.
 * @param {string} what 'window', 'engine:<name>' or 'dma'
 */
export async function lanesFocus(what) {
  await lanesOpen();
  if (!lc) return;
  relayout();
  const i = lc.rows.findIndex((r) => (what === 'dma' ? r.of && r.of.side === 'q' : what.startsWith('engine:') ? r.data && r.data.engine === what.slice(7) : r.kind === 'head'));
  if (i >= 0) lc.scrollToRow(i);
  lc.redraw();
}

/**
 * lanesInit follows the documents: an NTFF opens on its lanes; a new estimate or measurement
 * lays the lanes out again; the listing's pick marks its instruction.
 * @param {HTMLElement} box the view's root
 */
export function lanesInit(box) {
  root = box;
  on('document', () => {
    if (isNTFF(state) && tl.st !== state) {
      // A profile opens on its lanes, measured alone unless it is being paired with its NEFF
      // (features/profile.js marks it once its open resolves, before this runs).
      const st = state;
      tl.open = true; tl.st = st; tl.sel = null; tl.asked = performance.now(); tl.firstLanesMs = 0; tl.firstPhase = ''; laidFor = '';
      view();
      status('reading the profile…');
      setTimeout(() => { if (!timesOf(st).pairing) loadMeasured(st).catch(() => {}); }, 0);
    }
    else if (tl.st !== state) { tl.open = false; }
  });
  on('empty', () => { lanesClose(); tl.st = null; });
  on('picked', () => {
    if (!tl.open || !lc) return;
    const member = streamPath(listing.ref);
    const t = tl.st && timesOf(tl.st);
    if (!member || !t || listing.selected < 0) return;
    for (const [side, d] of /** @type {['m' | 'e', any][]} */ ([['m', t.meas], ['e', t.est]])) {
      if (!d) continue;
      const k = d.cores.findIndex((c) => c.members.includes(member));
      if (k >= 0) { tl.sel = { side, core: k, engine: d.cores[k].members.indexOf(member), index: listing.selected }; break; }
    }
    lanesPanel(tl.sel);
    lc.redraw();
  });
  onTimes(() => {
    if (tl.open && tl.st === state) {
      relayout();
      statusNow();
      lanesPanel(tl.sel);
      if (lc) lc.redraw();
    }
    listingRedraw();
    overviewRedraw();
  });
}

function statusNow() {
  const t = tl.st && timesOf(tl.st);
  if (!t) return;
  const crit = $('lanes-crit');
  if (crit) crit.hidden = !t.est;
  const parts = [];
  if (t.meas) parts.push((t.meas.joined ? 'measured ' : 'profile alone · ') + fmtPS(t.meas.window) + ' window' + (t.phase === 'lanes' ? ' · engines first: reading the DMA and semaphore records…' : ''));
  if (t.est) parts.push('estimated ' + t.est.cores.map((c) => c.core + ' ' + fmtPS(c.span)).join(', '));
  if (t.error) parts.push(t.error);
  status(parts.join(' · '));
}

/**
 * lanesPoint: where an instruction is drawn, in client pixels (its slice's middle), or null
 * when it is not in view; for the browser tests.
 * @param {'m' | 'e'} side
 * @param {number} k
 * @param {number} e
 * @param {number} index
 */
export function lanesPoint(side, k, e, index) {
  const d = dataOf(side);
  const ri = rowKey.get(side + ':' + k + ':' + e);
  if (!d || !lc || ri === undefined) return null;
  const r = rowFor(side, k, e, index);
  if (r < 0) return null;
  const c = d.cores[k];
  const shift = side === 'e' ? (align[lanesCoreOf(k)] || 0) : 0;
  return lc.point(ri, (c.start[r] + c.end[r]) / 2 + shift);
}

/** lanesDebug is the view's state for globalThis.neffscope.lanes. */
export function lanesDebug() {
  const t = tl.st ? timesOf(tl.st) : null;
  const rows = lc ? lc.rows : [];
  const count = (side) => rows.filter((r) => r.of && r.of.side === side).length;
  const f = lc ? lc.view() : { t0: 0, k: 1, top: 0, w: 0, h: 0 };
  return {
    open: tl.open && !!root && !root.hidden, file: tl.st ? tl.st.doc.file : '', measured: count('m'), estimated: count('e'), dma: count('q'),
    joined: !!(t && t.meas && t.meas.joined), phase: t ? t.phase : '', firstPhase: tl.firstPhase, firstLanesMs: tl.firstLanesMs,
    mismatch: t && t.mismatch ? t.mismatch.code : '', critical: t && t.est ? t.est.cores.map((c) => c.critical.index.length) : [], profile: t && t.profile ? t.profile.doc.file : '', sel: tl.sel, crit: tl.crit,
    t0: f.t0, k: f.k, drawn: lc ? lc.drawn : 0, drawMs: lc ? lc.drawMs : 0, point: lanesPoint,
    /** scroll(px) scrolls the lanes; zoom(x) zooms about the middle; pick(side, k, e, i) selects */
    scroll: (px) => { if (lc) lc.body.scrollTop = px; }, zoom: (x) => { if (lc) lc.zoomAt(x, lc.width() / 2); },
    pick: (side, k, e, i) => pick(side, k, e, i, true),
    panel: () => { const s = $('lanes-side'); return s ? s.textContent : ''; },
  };
}
