// @ts-check
// The schedule view: one lane per engine of each core, each instruction a slice at its
// earliest step (core/sched: one step after everything it waits for), arrows from each wait's
// producer to its waiter. The core sends Int32 columns (the 'schedule' call); the view draws
// straight from them through the lanes' canvas (views/lanecanvas.js): only the rows in view,
// and in a row only the slices in view, those of one pixel column as one box (lib/lod.js), so
// a million instructions and a million waits pan and zoom like a hundred.

import { call } from '../core/client.js';
import { $, el, toast } from '../dom.js';
import { fmtInt } from '../lib/format.js';
import { makeLane, rowOf, sliceAt, boxes } from '../lib/lod.js';
import { unpackCore } from '../lib/schedcols.js';
import { contentRootOf, state } from '../state/docs.js';
import { isStreamRef, streamPath } from '../lib/refs.js';
import { on } from '../state/events.js';
import { unpackNode } from '../wire.js';
import { ensureHandle } from './hex.js';
import { LaneCanvas, drawLane } from './lanecanvas.js';
import { instructionAt, listing, listingRedraw, listingShown, syncLinks } from './listing.js';
import { overviewHide, overviewOf } from './overview.js';
import { peekLines, rowPeek } from './rowpeek.js';
import { barButton, viewFrame } from './viewframe.js';
import { KIND } from '../lib/vocab.gen.js';

const LANE = 24; // px per engine lane
const HEAD = 22; // px of a core's header row
const MAX_SCALE = 96; // px per step at the deepest zoom
const ARROWS_ALL = 4; // px per step from which every arrow in view is drawn
const ARROWS_MAX = 4000; // arrows a frame draws at most (the rest are said in the status)
const AUTO_BYTES = 8 << 20; // the listing's wait links load the model of a file up to this size by themselves

/**
 * The view's state: the model of the document on show, the selected instruction, and what the
 * benchmarks and tests read (globalThis.neffscope.schedule).
 */
export const sched = {
  open: false,
  /** @type {any} the document the model is of */
  doc: null,
  /** @type {import('../lib/schedcols.js').SchedCore[] | null} */
  cores: null,
  /** @type {string[]} */
  opnames: [],
  total: 1,
  /** @type {{core: number, engine: number, index: number} | null} */
  sel: null,
  /** time from the view asked to its first screen drawn (ms), for the browser bench */
  firstDrawMs: 0,
  /** what the toolbar says of the model */
  summary: '',
  /** the core's time for the schedule call (ms) */
  callMs: 0,
  asked: 0,
  /** @type {Promise<void> | null} */
  loading: null,
  /** @type {any} the overview's sync card without the peaks (the schedule call's) */
  card: null,
  /** the core could not model the document (no program) */
  failed: false,
  /** why the core's schedule call failed, said when the view is opened on it */
  error: '',
  /** arrows the last frame drew, and whether it left some out */
  arrows: 0,
  arrowsCut: false,
};

/** @type {LaneCanvas | null} */
let lc = null;
/** per core: its lanes for drawing, its waits by step (built when first drawn) */
const derived = new WeakMap();
/** @type {number[][]} per core, per engine: its row in the canvas */
let rowIx = [];

/**
 * scheduleOf: the content pane shows the schedule while it is open (its row of views/registry.js), above the
 * listing of whatever is selected; going back to the overview closes it.
 * @param {import('../wire.js').Node} [n]
 */
export function scheduleOf(n) {
  if (n && overviewOf(n)) sched.open = false;
  return sched.open && state && state.doc ? sched : null;
}

/**
 * scheduleOpen shows the schedule of the document on show, selecting the first engine stream
 * so its listing sits under the timeline.
 */
export async function scheduleOpen() {
  sched.open = true;
  sched.asked = performance.now();
  sched.firstDrawMs = 0;
  const v = view();
  v.hidden = false;
  overviewHide();
  await load();
  // The first screen now; the listing under it follows (a worker call or two).
  status(sched.summary);
  lintList();
  layout();
  drawNow();
  const c = sched.cores && sched.cores[0];
  const member = streamPath(listing.ref) !== null && listingShown() ? streamPath(listing.ref) : c && c.members[0];
  if (member) await instructionAt(member, Math.max(0, member === streamPath(listing.ref) ? listing.selected : 0));
  showNow();
}

/**
 * scheduleLoad asks the core for the schedule of the document on show (once); it resolves
 * with the overview's sync card (without the peaks), or null when there is no program.
 * @returns {Promise<any>}
 */
export const scheduleLoad = () => load().then(() => (sched.cores && sched.doc === state.doc ? sched.card : null));

/** scheduleClose hides the schedule. */
export function scheduleClose() {
  sched.open = false;
  root.hidden = true;
}

/** scheduleShow is its registry row's show. */
export function scheduleShow() {
  view().hidden = false;
  load().then(showNow);
}

/** scheduleHide is its registry row's hide. */
export function scheduleHide() {
  root.hidden = true;
}

function showNow() {
  if (!sched.open) return;
  layout();
  if (lc) lc.redraw();
}

async function load() {
  if (sched.doc === state.doc && (sched.cores || sched.failed)) return;
  if (sched.loading && sched.doc === state.doc) return sched.loading;
  sched.doc = state.doc;
  sched.cores = null;
  sched.failed = false;
  sched.error = '';
  sched.sel = null;
  status('working out the schedule…');
  sched.loading = (async () => {
    try {
      const h = await ensureHandle();
      const r = await call('schedule', { handle: h });
      if (sched.doc !== state.doc) return;
      sched.opnames = r.opcodes;
      sched.callMs = r.ms;
      sched.card = r.card && r.card.byteLength ? unpackNode(r.card) : null;
      sched.cores = r.cores.map(unpackCore);
      sched.total = Math.max(1, ...sched.cores.map((c) => c.total));
      laidFor = null;
      const words = sched.cores.reduce((a, c) => a + c.steps.length, 0);
      const lints = sched.cores.reduce((a, c) => a + c.lints.length, 0);
      const waits = sched.cores.reduce((a, c) => a + c.waits.length / 7, 0);
      sched.summary = (fmtInt(words) + ' instructions · ' + fmtInt(waits) + ' waits · ' + (lints ? fmtInt(lints) + ' lint' + (lints === 1 ? '' : 's') : 'no lint') + ' · ' + fmtInt(sched.total) + ' steps');
      status(sched.summary);
      lintList();
    } catch (e) {
      sched.failed = true;
      sched.error = 'Schedule: ' + (e && e.message ? e.message : e);
      status(sched.error);
      if (sched.open) toast(sched.error);
    } finally {
      sched.loading = null;
    }
  })();
  return sched.loading;
}

// ---- the DOM: a toolbar, then the lanes' canvas (ruler, labels, canvas, tip) ----

/** @type {HTMLElement} the view's root (#sched-view), its frame built on first show */
let root;

function view() {
  if (root.childElementCount) return root;
  const { view: v, bar } = viewFrame(root, {
    cls: 'sched-view', label: 'Schedule: instructions by earliest step',
    title: 'Schedule', axis: 'steps, not time', statusId: 'sched-status', live: true,
    axisTitle: 'Each instruction sits at its earliest step: one step after the instruction before it on its engine and after every producer it waits for. Steps order the program; they are not durations.',
  });
  const lints = el('span', 'sched-lints');
  lints.id = 'sched-lints';
  bar.appendChild(lints);
  barButton(bar, '−', 'Zoom out (S, or Ctrl+wheel)', () => lc && lc.zoomAt(0.5, lc.width() / 2));
  barButton(bar, '+', 'Zoom in (W, or Ctrl+wheel)', () => lc && lc.zoomAt(2, lc.width() / 2));
  barButton(bar, '⟲', 'Fit the whole schedule (0, or double-click)', () => { if (lc) { lc.fit(); lc.redraw(); } });
  barButton(bar, '✕', 'Close the schedule', () => { scheduleClose(); });
  lc = new LaneCanvas(v, v, {
    rulerId: 'sched-ruler', bodyId: 'sched-body', labelsId: 'sched-labels', canvasId: 'sched-canvas', tipId: 'sched-tip',
    ariaLabel: 'Schedule lanes: W/S or Ctrl+wheel zoom, A/D, drag or Shift+wheel pan, the wheel scrolls the lanes, click a slice to select its instruction',
    unit: 'step', maxK: MAX_SCALE, drawRow, drawOver: drawArrows, hit, tip: describe,
    pick: (h) => pick(h.core, h.engine, h.index, false),
  });
  return v;
}

function status(text) {
  const s = $('sched-status');
  if (s) s.textContent = text;
}

// lintList puts the lints (or the undecided points) in the toolbar, each a button to its
// instruction.
function lintList() {
  const box = $('sched-lints');
  if (!box || !sched.cores) return;
  box.replaceChildren();
  const items = [];
  sched.cores.forEach((c, k) => { for (const l of c.lints) items.push({ k, l }); });
  if (!items.length) {
    const und = sched.cores.reduce((a, c) => a + c.undecided.length, 0);
    box.appendChild(el('span', 'sched-ok', und ? und + ' undecided (no lint)' : 'all waits resolved · no deadlock'));
    return;
  }
  for (const { k, l } of items.slice(0, 8)) {
    const b = el('button', 'sched-lint', l.code);
    /** @type {HTMLButtonElement} */ (b).type = 'button';
    b.title = l.message;
    b.addEventListener('click', () => pick(k, l.engine, l.index, true));
    box.appendChild(b);
  }
}

/** @type {any} the model the rows were laid out for */
let laidFor = null;

// layout gives the canvas its rows: per core a header row, then one lane per engine.
function layout() {
  if (!sched.cores || !lc || laidFor === sched.cores) return;
  laidFor = sched.cores;
  /** @type {import('./lanecanvas.js').Row[]} */
  const rows = [];
  rowIx = [];
  sched.cores.forEach((c, k) => {
    rows.push({ kind: 'head', h: HEAD, label: c.core, title: c.core + ': ' + fmtInt(c.total) + ' steps', data: { core: c.core }, of: { k } });
    rowIx.push(c.engines.map((name, e) => {
      rows.push({
        kind: 'lane', h: LANE, label: name, data: { core: c.core, engine: name }, of: { k, e },
        title: name + ' · ' + fmtInt(c.lens[e]) + ' instructions' + (c.run[e] < c.lens[e] ? ' · ' + fmtInt(c.lens[e] - c.run[e]) + ' never run (not modelled or stuck)' : ''),
      });
      return rows.length - 1;
    }));
  });
  lc.setRows(rows, 0, sched.total);
  lc.fit();
}

function drawNow() {
  if (!lc) return;
  lc.draw();
  if (!sched.firstDrawMs && sched.asked && lc.drawn) sched.firstDrawMs = performance.now() - sched.asked;
}

// ---- per core, what drawing needs: a lane per engine, the waits ordered by step ----

/**
 * @typedef {{lanes: (import('../lib/lod.js').Lane | null)[], byWaiter: WaitOrder | null, byProducer: WaitOrder | null}} Derived
 * @typedef {{order: Int32Array, step: Int32Array}} WaitOrder the waits (their numbers) ordered by the step of their waiter (or producer), and each wait's step
 */

/** @returns {Derived} */
function derivedOf(c) {
  let d = derived.get(c);
  if (!d) { d = { lanes: c.engines.map(() => null), byWaiter: null, byProducer: null }; derived.set(c, d); }
  return d;
}

function laneOf(c, e) {
  const d = derivedOf(c);
  let l = d.lanes[e];
  if (!l) l = d.lanes[e] = makeLane(c.steps.subarray(c.off[e], c.off[e] + c.lens[e]));
  return l;
}

// waitOrder orders the core's waits by the step of their waiter (or of their producer), by
// counting: a million waits in a few ms, where a comparison sort took a second.
function waitOrder(c, producer) {
  const d = derivedOf(c);
  const have = producer ? d.byProducer : d.byWaiter;
  if (have) return have;
  const ws = c.waits;
  const n = ws.length / 7;
  const step = new Int32Array(n);
  const count = new Int32Array(c.total + 2);
  let m = 0;
  for (let w = 0; w < n; w++) {
    const j = 7 * w;
    const e = producer ? ws[j + 2] : ws[j];
    const s = e < 0 ? -1 : c.steps[c.off[e] + ws[j + (producer ? 3 : 1)]];
    step[w] = s;
    if (s >= 0 && s <= c.total) { count[s + 1]++; m++; } else step[w] = -1;
  }
  for (let s = 1; s < count.length; s++) count[s] += count[s - 1];
  const order = new Int32Array(m);
  for (let w = 0; w < n; w++) if (step[w] >= 0) order[count[step[w]]++] = w;
  const o = { order, step };
  if (producer) d.byProducer = o; else d.byWaiter = o;
  return o;
}

// waitsAt lists the waits (numbers) whose waiter (or producer) is at a step in [s0, s1).
function waitsAt(o, s0, s1) {
  const { order, step } = o;
  const lo = (s) => { let a = 0, b = order.length; while (a < b) { const m = (a + b) >>> 1; if (step[order[m]] < s) a = m + 1; else b = m; } return a; };
  return [lo(s0), lo(s1)];
}

// ---- drawing: the lanes' canvas asks for each row in view, then for the arrows ----

const out = boxes();

/** @param {CanvasRenderingContext2D} g @param {import('./lanecanvas.js').Row} row @param {number} y @param {import('./lanecanvas.js').Frame} f @param {import('./lanecanvas.js').Colors} col */
function drawRow(g, row, y, f, col) {
  const c = sched.cores && sched.cores[row.of.k];
  if (!c) return;
  if (row.kind === 'head') {
    g.fillStyle = col.muted;
    g.fillText(c.core + ' · ' + fmtInt(c.total) + ' steps · ' + fmtInt(c.steps.length) + ' instructions · ' + fmtInt(c.waits.length / 7) + ' waits', 6, y + row.h / 2);
    return;
  }
  const e = row.of.e;
  const base = c.off[e];
  const l = laneOf(c, e);
  drawLane(g, l, out, y + 3, row.h - 6, f, (p) => opColor(c.ops[base + rowOf(l, p)], col.dark), (p) => (sched.opnames[c.ops[base + rowOf(l, p)]] || '') + ' #' + rowOf(l, p), col);
  const sel = sched.sel;
  if (sel && sel.core === row.of.k && sel.engine === e) {
    const s = c.steps[base + sel.index];
    if (s >= 0) {
      g.strokeStyle = col.text;
      g.lineWidth = 2;
      g.strokeRect((s - f.t0) * f.k - 1, y + 2, Math.max(3, f.k - (f.k > 6 ? 1 : 0)) + 2, row.h - 4);
    }
  }
}

// laneMid is the middle of engine e of core k in the viewport (NaN when it is not laid out).
function laneMid(k, e) {
  const i = rowIx[k] ? rowIx[k][e] : undefined;
  return i === undefined || !lc ? NaN : lc.rowY(i) + LANE / 2;
}

// drawArrows draws the flows: every wait in view when zoomed in enough (at most ARROWS_MAX),
// else those of the selected instruction (its producers, and the waits it satisfies).
function drawArrows(g, f, col) {
  if (!sched.cores) return;
  const s0 = f.t0, s1 = f.t0 + f.w / f.k;
  const sel = sched.sel;
  let drawn = 0;
  sched.arrowsCut = false;
  const one = (c, k, j, mine) => {
    const ws = c.waits;
    const pe = ws[j + 2];
    if (pe < 0) return;
    const sw = c.steps[c.off[ws[j]] + ws[j + 1]];
    const sp = c.steps[c.off[pe] + ws[j + 3]];
    if (sw < 0 || sp < 0) return;
    const y0 = laneMid(k, pe), y1 = laneMid(k, ws[j]);
    if (!mine && ((y0 < 0 && y1 < 0) || (y0 > f.h && y1 > f.h))) return;
    arrow(g, (sp + 1 - s0) * f.k, y0, (sw - s0) * f.k, y1, mine ? col.accent : col.muted, mine ? 1.8 : 1, mine ? 1 : 0.7);
    drawn++;
  };
  sched.cores.forEach((c, k) => {
    // A wait joins two lanes of one core: a core whose lanes are all out of view has none to
    // draw (a schedule of 1,000 cores looks at the few on screen, not at every core's waits).
    if (!(sel && sel.core === k) && !coreInView(k, f.h)) return;
    if (f.k >= ARROWS_ALL) {
      const o = waitOrder(c, false);
      const [a, b] = waitsAt(o, Math.floor(s0), Math.ceil(s1) + 1);
      for (let x = a; x < b; x++) {
        if (drawn >= ARROWS_MAX) { sched.arrowsCut = true; break; }
        one(c, k, 7 * o.order[x], false);
      }
    }
    if (sel && sel.core === k) {
      for (const j of waitsOf(c, sel.engine, sel.index, false)) one(c, k, j, true);
      for (const j of waitsOf(c, sel.engine, sel.index, true)) one(c, k, j, true);
    }
  });
  sched.arrows = drawn;
}

// coreInView: some lane of core k is within the viewport's h pixels.
function coreInView(k, h) {
  const ix = rowIx[k];
  if (!ix || !ix.length || !lc) return false;
  const top = lc.rowY(ix[0]), bottom = lc.rowY(ix[ix.length - 1]) + LANE;
  return bottom >= 0 && top <= h;
}

// waitsOf lists the waits (offsets into c.waits) of instruction (e, i) as the waiter, or as
// the producer.
function waitsOf(c, e, i, producer) {
  const s = c.steps[c.off[e] + i];
  if (s < 0) return [];
  const o = waitOrder(c, producer);
  const [a, b] = waitsAt(o, s, s + 1);
  const out = [];
  for (let x = a; x < b; x++) {
    const j = 7 * o.order[x];
    if (producer ? c.waits[j + 2] === e && c.waits[j + 3] === i : c.waits[j] === e && c.waits[j + 1] === i) out.push(j);
  }
  return out;
}

function arrow(g, x0, y0, x1, y1, color, lw, alpha) {
  g.globalAlpha = alpha;
  g.strokeStyle = color;
  g.fillStyle = color;
  g.lineWidth = lw;
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
  g.globalAlpha = 1;
}

// opColor is an opcode's colour: a hue per opcode (golden-angle spread), as Perfetto colours
// slices by name.
const opColorCache = new Map();
export function opColor(op, dark) {
  const key = op * 2 + (dark ? 1 : 0);
  let c = opColorCache.get(key);
  if (!c) {
    const hue = Math.round((op * 137.508 + 200) % 360);
    c = dark ? 'hsl(' + hue + ' 45% 48%)' : 'hsl(' + hue + ' 58% 62%)';
    opColorCache.set(key, c);
  }
  return c;
}

// ---- the pointer: what is under it, its tooltip, a click ----

function hit(row, x, t, f) {
  const c = sched.cores && sched.cores[row.of.k];
  if (!c) return null;
  const l = laneOf(c, row.of.e);
  const p = sliceAt(l, t, Math.max(0, 3 / f.k));
  return p < 0 ? null : { core: row.of.k, engine: row.of.e, index: rowOf(l, p) };
}

// describe is a slice's tooltip: what it is, its step, its waits and what it satisfies, then
// its operands and kernel line (from the listing's rows, when they come).
function describe(h) {
  const c = /** @type {import('../lib/schedcols.js').SchedCore[]} */ (sched.cores)[h.core];
  const op = c.ops[c.off[h.engine] + h.index];
  const lines = [c.engines[h.engine] + ' #' + fmtInt(h.index) + ' · ' + (sched.opnames[op] || '0x' + op.toString(16)), 'step ' + fmtInt(c.steps[c.off[h.engine] + h.index])];
  const ws = c.waits;
  const mine = waitsOf(c, h.engine, h.index, false);
  const theirs = waitsOf(c, h.engine, h.index, true);
  for (const j of mine.slice(0, 4)) {
    const from = ws[j + 2] >= 0 ? c.engines[ws[j + 2]] + ' #' + fmtInt(ws[j + 3]) : (c.codes[ws[j + 6]] || 'nothing');
    lines.push('waits S[' + ws[j + 4] + '] ≥ ' + (ws[j + 5] >>> 0) + ' ← ' + from);
  }
  for (const j of theirs.slice(0, 4)) lines.push('satisfies ' + c.engines[ws[j]] + ' #' + fmtInt(ws[j + 1]) + ' (S[' + ws[j + 4] + '] ≥ ' + (ws[j + 5] >>> 0) + ')');
  if (mine.length + theirs.length > 8) lines.push('… ' + fmtInt(mine.length + theirs.length) + ' waits in all');
  return lines.concat(peekLines(rowPeek(c.members[h.engine], h.index, () => { if (lc && lc.pointer) lc.hover(lc.pointer.x, lc.pointer.y); })));
}

// pick selects an instruction: the schedule marks it and draws its arrows; the listing below
// shows it (and the detail pane its fields and kernel line).
function pick(core, engine, index, center) {
  if (!sched.cores || engine < 0 || !lc) return;
  sched.sel = { core, engine, index };
  const c = sched.cores[core];
  const s = c.steps[c.off[engine] + index];
  if (center && s >= 0) lc.centerOn(s + 0.5, rowIx[core][engine], 12);
  else lc.redraw();
  instructionAt(c.members[engine], index).then(() => lc && lc.redraw());
}

/**
 * scheduleMark selects instruction index of a stream member in the schedule (when it is
 * open), as the listing's wait links do.
 * @param {string} member
 * @param {number} index
 */
export function scheduleMark(member, index) {
  if (!sched.cores) return;
  sched.cores.forEach((c, k) => {
    const e = c.members.indexOf(member);
    if (e >= 0) sched.sel = { core: k, engine: e, index };
  });
  if (sched.open && lc) lc.redraw();
}

/**
 * producersOf: for the listing's wait links, the producer of each wait of an instruction and
 * the waits an update satisfies, from the schedule's columns (null until they are loaded).
 * @param {string} member
 * @param {number} index
 * @returns {{producers: {member: string, index: number, sem: number}[], waiters: {member: string, index: number, sem: number}[]} | null}
 */
export function syncLinksOf(member, index) {
  if (!sched.cores || sched.doc !== state.doc) {
    // The listing asks first: the model of a file up to AUTO_BYTES is loaded for it.
    if (state && state.doc && (state.doc.size || 0) <= AUTO_BYTES && !sched.loading) load().then(() => { if (sched.cores) listingRedraw(); });
    return null;
  }
  for (const c of sched.cores) {
    const e = c.members.indexOf(member);
    if (e < 0) continue;
    const ws = c.waits;
    const producers = waitsOf(c, e, index, false).filter((j) => ws[j + 2] >= 0).map((j) => ({ member: c.members[ws[j + 2]], index: ws[j + 3], sem: ws[j + 4] }));
    const waiters = waitsOf(c, e, index, true).map((j) => ({ member: c.members[ws[j]], index: ws[j + 1], sem: ws[j + 4] }));
    return { producers, waiters };
  }
  return null;
}

/**
 * scheduleLinkWhen: the detail pane offers the schedule for an engine stream's member and for
 * an instruction (DETAIL_RENDERERS).
 * @param {import('../wire.js').Node} n
 */
export function scheduleLinkWhen(n) {
  if (n.kind === KIND.INSTRUCTION) return true;
  const root = n.kind === KIND.MEMBER ? contentRootOf(n) : null;
  return !!(root && isStreamRef(root.ref));
}

/**
 * renderScheduleLink is the detail pane's "Show in the schedule": the schedule opens on the
 * listing's instruction (or the stream), marked and centred.
 * @param {import('../wire.js').Node} n
 * @param {HTMLElement} box
 */
export function renderScheduleLink(n, box) {
  const row = el('div', 'related');
  const b = el('button', 'link related-link sched-open', n.kind === KIND.INSTRUCTION ? 'Show in the schedule' : 'Schedule of this core');
  /** @type {HTMLButtonElement} */ (b).type = 'button';
  b.title = 'One lane per engine, each instruction at its earliest step, arrows from producer to waiter';
  b.addEventListener('click', async () => {
    const member = streamPath(listing.ref) || '';
    const i = listing.selected;
    await scheduleOpen();
    if (!member || i < 0 || !sched.cores) return;
    sched.cores.forEach((c, k) => { const e = c.members.indexOf(member); if (e >= 0) pick(k, e, i, true); });
  });
  row.appendChild(b);
  box.appendChild(row);
  void n;
}

/**
 * scheduleInit follows the document: a new one drops the model of the old.
 * @param {HTMLElement} box the view's root
 */
export function scheduleInit(box) {
  root = box;
  syncLinks.of = syncLinksOf;
  on('document', () => {
    if (sched.doc !== (state && state.doc)) { sched.cores = null; sched.doc = null; sched.sel = null; laidFor = null; }
  });
  on('empty', () => { scheduleClose(); sched.cores = null; sched.doc = null; });
}

/**
 * schedulePoint: where instruction index of engine e of core k is drawn, in client pixels (the
 * middle of its slice), or null when it is not in view; for the browser tests.
 * @param {number} k
 * @param {number} e
 * @param {number} index
 */
export function schedulePoint(k, e, index) {
  const c = sched.cores && sched.cores[k];
  if (!c || !lc || !rowIx[k]) return null;
  const s = c.steps[c.off[e] + index];
  return s < 0 ? null : lc.point(rowIx[k][e], s + 0.5);
}

/**
 * scheduleDebug is the view's state for globalThis.neffscope.schedule: its window (s0 the step
 * at the left edge, scale px per step), the rows laid out, the selection, its timings.
 */
export function scheduleDebug() {
  const f = lc ? lc.view() : { t0: 0, k: 1, top: 0, h: 0, w: 0 };
  return {
    open: sched.open, error: sched.error, loading: !!sched.loading, cores: sched.cores ? sched.cores.length : 0, lanes: lc ? lc.rows.filter((r) => r.kind === 'lane').length : 0,
    s0: f.t0, scale: f.k, top: f.top, height: lc ? lc.total : 0, canvasHeight: lc ? lc.canvas.height : 0, sel: sched.sel,
    firstDrawMs: sched.firstDrawMs, drawMs: lc ? lc.drawMs : 0, drawn: lc ? lc.drawn : 0, callMs: sched.callMs, arrows: sched.arrows, arrowsCut: sched.arrowsCut,
    instructions: (sched.cores || []).reduce((a, c) => a + c.steps.length, 0), point: schedulePoint,
    /** scroll(px) scrolls the lanes to px from their top; zoom(f) zooms about the middle */
    scroll: (px) => { if (lc) lc.body.scrollTop = px; }, zoom: (x) => { if (lc) lc.zoomAt(x, lc.width() / 2); },
  };
}

// ---- the schedule's place in the URL (features/permalink.js keeps it there) ----

/**
 * scheduleWindow: the steps in view, whole steps around them; null while the whole schedule
 * is (as fit draws it) or nothing is drawn.
 * @returns {{lo: number, hi: number} | null}
 */
export function scheduleWindow() {
  if (!sched.cores || !sched.open || !lc || lc.fitted) return null;
  const f = lc.view();
  return { lo: Math.floor(f.t0 + 1e-6), hi: Math.ceil(f.t0 + f.w / f.k - 1e-6) }; // (a window set from a link reads back the same)
}

/**
 * scheduleGoTo shows the steps of win across the lanes (null: the whole schedule).
 * @param {{lo: number, hi: number} | null} win
 */
export function scheduleGoTo(win) {
  if (!sched.cores || !lc) return;
  if (!win) lc.fit();
  else {
    lc.fitted = false;
    lc.k = lc.width() / Math.max(1e-9, win.hi - win.lo);
    lc.t0 = win.lo;
    lc.clamp();
  }
  lc.redraw();
}

/**
 * scheduleOnMove calls fn once a gesture on the view has settled: a zoom, a pan, a fit, a
 * close.
 * @param {() => void} fn
 */
export function scheduleOnMove(fn) {
  let timer = 0;
  const later = () => { clearTimeout(timer); timer = setTimeout(fn, 250); };
  for (const type of ['wheel', 'pointerup', 'keyup', 'click', 'dblclick']) root.addEventListener(type, later, { passive: true });
}
