// @ts-check
// The schedule view: one lane per engine of each core, each instruction a slice at
// its earliest step (core/sched: one step after everything it waits for), arrows from each
// wait's producer to its waiter. The core sends Int32 columns (the 'schedule' call); the view
// draws straight from them on a canvas, only what is visible, and bins the slices that share
// a pixel, so a million instructions pan and zoom like a hundred.

import { call } from '../core/client.js';
import { $, el, toast } from '../dom.js';
import { fmtInt } from '../lib/format.js';
import { lower, unpackCore, waitIndex } from '../lib/schedcols.js';
import { niceTicks } from '../lib/ticks.js';
import { contentRootOf, state } from '../state/docs.js';
import { isStreamRef, streamPath } from '../lib/refs.js';
import { on } from '../state/events.js';
import { unpackNode } from '../wire.js';
import { ensureHandle } from './hex.js';
import { instructionAt, listing, listingRedraw, listingShown, syncLinks } from './listing.js';
import { overviewHide, overviewOf } from './overview.js';
import { barButton, viewFrame } from './viewframe.js';
import { KIND } from '../lib/vocab.gen.js';

const LANE = 24; // px per engine lane
const HEAD = 22; // px of a core's header row
const RULER = 28; // px of the step ruler
const LABELS = 116; // px of the lane labels
const MAX_SCALE = 96; // px per step at the deepest zoom
const ARROWS_ALL = 4; // px per step from which every arrow in view is drawn
const AUTO_BYTES = 8 << 20; // the listing's wait links load the model of a file up to this size by themselves

/**
 * The view's state: the model of the document on show, the window (s0: the step at the left
 * edge, scale: px per step), the selected instruction.
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
  s0: 0,
  scale: 1,
  /** @type {{core: number, engine: number, index: number} | null} */
  sel: null,
  /** the window is the whole schedule (a resize fits it again) */
  fitted: true,
  /** @type {{core: number, engine: number, y: number}[]} */
  lanes: [],
  height: 0,
  /** time from the view asked to its first screen drawn (ms), for the browser bench */
  firstDrawMs: 0,
  /** what the toolbar says of the model */
  summary: '',
  /** the core's time for the schedule call (ms) */
  callMs: 0,
  /** the last screen's drawing time (ms) */
  drawMs: 0,
  asked: 0,
  /** @type {Promise<void> | null} */
  loading: null,
  /** @type {any} the overview's sync card without the peaks (the schedule call's) */
  card: null,
  /** the core could not model the document (no program) */
  failed: false,
};

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
  draw();
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
  redraw();
}

async function load() {
  if (sched.doc === state.doc && (sched.cores || sched.failed)) return;
  if (sched.loading && sched.doc === state.doc) return sched.loading;
  sched.doc = state.doc;
  sched.cores = null;
  sched.failed = false;
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
      fit();
      const words = sched.cores.reduce((a, c) => a + c.steps.length, 0);
      const lints = sched.cores.reduce((a, c) => a + c.lints.length, 0);
      const waits = sched.cores.reduce((a, c) => a + c.waits.length / 7, 0);
      sched.summary = (fmtInt(words) + ' instructions · ' + fmtInt(waits) + ' waits · ' + (lints ? fmtInt(lints) + ' lint' + (lints === 1 ? '' : 's') : 'no lint') + ' · ' + fmtInt(sched.total) + ' steps');
      status(sched.summary);
      lintList();
    } catch (e) {
      status('');
      sched.failed = true;
      if (sched.open) toast('Schedule: ' + (e && e.message ? e.message : e));
    } finally {
      sched.loading = null;
    }
  })();
  return sched.loading;
}

// ---- the DOM: a toolbar, the ruler, the lanes (labels beside a canvas), a tip ----

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
  barButton(bar, '−', 'Zoom out (S, or the wheel)', () => zoomAt(0.5, width() / 2));
  barButton(bar, '+', 'Zoom in (W, or the wheel)', () => zoomAt(2, width() / 2));
  barButton(bar, '⟲', 'Fit the whole schedule (0, or double-click)', () => { fit(); redraw(); });
  barButton(bar, '✕', 'Close the schedule', () => { scheduleClose(); });
  const ruler = el('canvas', 'sched-ruler');
  ruler.id = 'sched-ruler';
  v.appendChild(ruler);
  const body = el('div', 'sched-body');
  body.id = 'sched-body';
  const labels = el('div', 'sched-labels');
  labels.id = 'sched-labels';
  const canvas = el('canvas', 'sched-canvas');
  canvas.id = 'sched-canvas';
  canvas.tabIndex = 0;
  canvas.setAttribute('role', 'img');
  canvas.setAttribute('aria-label', 'Schedule lanes: wheel or W/S to zoom, drag or A/D to pan, click a slice to select its instruction');
  body.appendChild(labels);
  body.appendChild(canvas);
  v.appendChild(body);
  const tip = el('div', 'sched-tip');
  tip.id = 'sched-tip';
  tip.hidden = true;
  v.appendChild(tip);
  wire(canvas, body);
  new ResizeObserver(() => { if (!v.hidden && sched.cores) { if (sched.fitted) fit(); redraw(); } }).observe(body);
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
  sched.cores.forEach((c, k) => { for (const l of c.lints) items.push({ c, k, l }); });
  if (!items.length) {
    const und = sched.cores.reduce((a, c) => a + c.undecided.length, 0);
    box.appendChild(el('span', 'sched-ok', und ? und + ' undecided (no lint)' : 'all waits resolved · no deadlock'));
    return;
  }
  for (const { c, k, l } of items.slice(0, 8)) {
    const b = el('button', 'sched-lint', l.code);
    /** @type {HTMLButtonElement} */ (b).type = 'button';
    b.title = l.message;
    b.addEventListener('click', () => pick(k, l.engine, l.index, true));
    box.appendChild(b);
    void c;
  }
}

function width() {
  const c = /** @type {HTMLCanvasElement | null} */ ($('sched-canvas'));
  return c ? Math.max(1, c.clientWidth) : 800;
}

// layout places the lanes: per core a header row, then one lane per engine.
function layout() {
  const labels = $('sched-labels');
  if (!sched.cores || !labels) return;
  sched.lanes = [];
  labels.replaceChildren();
  let y = 0;
  sched.cores.forEach((c, k) => {
    const h = el('div', 'sched-core', c.core);
    h.style.height = HEAD + 'px';
    h.title = c.core + ': ' + fmtInt(c.total) + ' steps';
    labels.appendChild(h);
    y += HEAD;
    c.engines.forEach((name, e) => {
      sched.lanes.push({ core: k, engine: e, y });
      const l = el('div', 'sched-lane-label', name);
      l.style.height = LANE + 'px';
      l.dataset.core = c.core;
      l.dataset.engine = name;
      l.title = name + ' · ' + fmtInt(c.lens[e]) + ' instructions' + (c.run[e] < c.lens[e] ? ' · ' + fmtInt(c.lens[e] - c.run[e]) + ' never run (not modelled or stuck)' : '');
      labels.appendChild(l);
      y += LANE;
    });
  });
  sched.height = y;
}

function fit() {
  const w = width();
  sched.fitted = true;
  sched.scale = Math.min(MAX_SCALE, w / (sched.total * 1.02));
  sched.s0 = -sched.total * 0.01;
}

function clampView() {
  const w = width();
  const minScale = w / (sched.total * 1.5);
  sched.scale = Math.max(minScale, Math.min(MAX_SCALE, sched.scale));
  const span = w / sched.scale;
  sched.s0 = Math.max(-span * 0.5, Math.min(sched.total - span * 0.5, sched.s0));
}

function zoomAt(factor, x) {
  sched.fitted = false;
  const at = sched.s0 + x / sched.scale;
  sched.scale *= factor;
  clampView();
  sched.s0 = at - x / sched.scale;
  clampView();
  redraw();
}

// ---- drawing ----

let frame = 0;
function redraw() {
  if (frame) return;
  frame = requestAnimationFrame(() => { frame = 0; draw(); });
}

/** @param {HTMLCanvasElement} c @param {number} w @param {number} h */
function sized(c, w, h) {
  const dpr = window.devicePixelRatio || 1;
  if (c.width !== Math.round(w * dpr) || c.height !== Math.round(h * dpr)) {
    c.width = Math.round(w * dpr);
    c.height = Math.round(h * dpr);
    c.style.height = h + 'px';
  }
  const g = /** @type {CanvasRenderingContext2D} */ (c.getContext('2d'));
  g.setTransform(dpr, 0, 0, dpr, 0, 0);
  return g;
}

function colors() {
  const cs = getComputedStyle(document.documentElement);
  const v = (n) => cs.getPropertyValue(n).trim();
  const dark = (v('--bg') || '#fff').toLowerCase() < '#4';
  return { text: v('--text'), muted: v('--muted'), border: v('--border'), panel: v('--panel'), panel2: v('--panel-2'), accent: v('--accent'), bad: v('--bad'), dark };
}

// opColor is an opcode's colour: a hue per opcode (golden-angle spread), as Perfetto colours
// slices by name.
const opColorCache = new Map();
function opColor(op, dark) {
  const key = op * 2 + (dark ? 1 : 0);
  let c = opColorCache.get(key);
  if (!c) {
    const hue = Math.round((op * 137.508 + 200) % 360);
    c = dark ? 'hsl(' + hue + ' 45% 48%)' : 'hsl(' + hue + ' 58% 62%)';
    opColorCache.set(key, c);
  }
  return c;
}

function draw() {
  const v = root;
  const canvas = /** @type {HTMLCanvasElement | null} */ ($('sched-canvas'));
  const ruler = /** @type {HTMLCanvasElement | null} */ ($('sched-ruler'));
  if (!v || v.hidden || !canvas || !ruler || !sched.cores) return;
  if (!sched.lanes.length) layout();
  const w = width();
  clampView();
  const col = colors();
  drawRuler(sized(ruler, ruler.clientWidth || w + LABELS, RULER), w, col);
  const g = sized(canvas, w, sched.height);
  const t0 = performance.now();
  g.clearRect(0, 0, w, sched.height);
  g.font = '11px system-ui, sans-serif';
  g.textBaseline = 'middle';
  const s0 = sched.s0;
  const s1 = s0 + w / sched.scale;
  // Grid lines at the ruler's ticks.
  g.strokeStyle = col.border;
  g.lineWidth = 1;
  g.beginPath();
  for (const t of niceTicks(Math.max(0, s0), s1, Math.max(2, Math.floor(w / 110)))) {
    const x = Math.round((t - s0) * sched.scale) + 0.5;
    g.moveTo(x, 0);
    g.lineTo(x, sched.height);
  }
  g.stroke();
  let y = 0;
  sched.cores.forEach((c, k) => {
    g.fillStyle = col.panel2;
    g.fillRect(0, y, w, HEAD);
    g.fillStyle = col.muted;
    g.fillText(c.core + ' · ' + fmtInt(c.total) + ' steps · ' + fmtInt(c.steps.length) + ' instructions · ' + fmtInt(c.waits.length / 7) + ' waits', 6, y + HEAD / 2);
    y += HEAD;
    for (let e = 0; e < c.engines.length; e++) {
      if (e % 2) { g.fillStyle = col.panel2; g.fillRect(0, y, w, LANE); }
      drawLane(g, c, k, e, y, s0, s1, w, col);
      y += LANE;
    }
  });
  drawArrows(g, s0, s1, w, col);
  sched.drawMs = performance.now() - t0;
  if (!sched.firstDrawMs && sched.asked) sched.firstDrawMs = performance.now() - sched.asked;
  canvas.dataset.drawn = String(Number(canvas.dataset.drawn || 0) + 1);
}

function drawLane(g, c, k, e, y, s0, s1, w, col) {
  const scale = sched.scale;
  const i0 = lower(c, e, Math.floor(s0));
  const i1 = lower(c, e, Math.ceil(s1) + 1);
  const base = c.off[e];
  const top = y + 3;
  const h = LANE - 6;
  if (i1 - i0 > w * 2) {
    // Binned: each pixel column shows how busy the engine is over the steps it covers.
    const color = opColor(c.ops[base + i0], col.dark);
    g.fillStyle = color;
    let i = i0;
    for (let px = 0; px < w && i < i1; px++) {
      const end = s0 + (px + 1) / scale;
      const j = lower(c, e, Math.ceil(end));
      const n = j - i;
      if (n > 0) {
        const busy = Math.min(1, n * scale);
        g.globalAlpha = 0.35 + 0.65 * busy;
        g.fillRect(px, top + h * (1 - busy) * 0.5, 1, Math.max(2, h * busy));
      }
      i = j;
    }
    g.globalAlpha = 1;
    return;
  }
  const gap = scale > 6 ? 1 : 0;
  let lastX = -1;
  for (let i = i0; i < i1; i++) {
    const s = c.steps[base + i];
    const x = (s - s0) * scale;
    const sw = Math.max(1, scale - gap);
    if (Math.floor(x) === lastX && sw <= 1) continue;
    lastX = Math.floor(x);
    g.fillStyle = opColor(c.ops[base + i], col.dark);
    g.fillRect(x, top, sw, h);
    if (sw > 26) {
      const name = sched.opnames[c.ops[base + i]] || '';
      g.save();
      g.beginPath();
      g.rect(x + 3, top, sw - 6, h);
      g.clip();
      g.fillStyle = col.dark ? '#fff' : '#111';
      g.fillText(name + ' #' + i, x + 4, top + h / 2);
      g.restore();
    }
  }
  const sel = sched.sel;
  if (sel && sel.core === k && sel.engine === e) {
    const s = c.steps[base + sel.index];
    if (s >= 0) {
      const x = (s - s0) * scale;
      g.strokeStyle = col.text;
      g.lineWidth = 2;
      g.strokeRect(x - 1, top - 1, Math.max(3, scale - gap) + 2, h + 2);
    }
  }
}

function laneY(k, e) {
  for (const l of sched.lanes) if (l.core === k && l.engine === e) return l.y + LANE / 2;
  return -1;
}

// drawArrows draws the flows: every wait in view when zoomed in enough, else those of the
// selected instruction (its producers, and the waits it satisfies).
function drawArrows(g, s0, s1, w, col) {
  if (!sched.cores) return;
  const all = sched.scale >= ARROWS_ALL;
  const sel = sched.sel;
  sched.cores.forEach((c, k) => {
    const ws = c.waits;
    for (let j = 0; j < ws.length; j += 7) {
      const pe = ws[j + 2];
      if (pe < 0) continue;
      const mine = sel && sel.core === k && ((ws[j] === sel.engine && ws[j + 1] === sel.index) || (pe === sel.engine && ws[j + 3] === sel.index));
      if (!all && !mine) continue;
      const sw = c.steps[c.off[ws[j]] + ws[j + 1]];
      const sp = c.steps[c.off[pe] + ws[j + 3]];
      if (sw < 0 || sp < 0) continue;
      if (!mine && (Math.max(sw, sp) < s0 || Math.min(sw, sp) > s1)) continue;
      const x0 = (sp + 1 - s0) * sched.scale;
      const x1 = (sw - s0) * sched.scale;
      const y0 = laneY(k, pe);
      const y1 = laneY(k, ws[j]);
      arrow(g, x0, y0, x1, y1, mine ? col.accent : col.muted, mine ? 1.8 : 1, mine ? 1 : 0.7);
    }
  });
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

function drawRuler(g, w, col) {
  const full = w + LABELS;
  g.clearRect(0, 0, full, RULER);
  g.fillStyle = col.panel;
  g.fillRect(0, 0, full, RULER);
  g.strokeStyle = col.border;
  g.beginPath();
  g.moveTo(0, RULER - 0.5);
  g.lineTo(full, RULER - 0.5);
  g.stroke();
  g.font = '11px system-ui, sans-serif';
  g.textBaseline = 'middle';
  g.fillStyle = col.muted;
  g.fillText('step', 8, RULER / 2);
  const s0 = sched.s0;
  const s1 = s0 + w / sched.scale;
  g.beginPath();
  for (const t of niceTicks(Math.max(0, s0), s1, Math.max(2, Math.floor(w / 110)))) {
    const x = LABELS + Math.round((t - s0) * sched.scale) + 0.5;
    if (x < LABELS) continue;
    g.moveTo(x, RULER - 7);
    g.lineTo(x, RULER);
    g.fillText(fmtInt(Math.round(t)), x + 3, RULER / 2 - 1);
  }
  g.stroke();
}

// ---- interaction: wheel and keys zoom, drag pans, a click picks a slice ----

/** @param {HTMLCanvasElement} canvas @param {HTMLElement} body */
function wire(canvas, body) {
  canvas.addEventListener('wheel', (e) => {
    if (!sched.cores) return;
    e.preventDefault();
    const x = e.offsetX;
    if (e.shiftKey || Math.abs(e.deltaX) > Math.abs(e.deltaY)) {
      sched.s0 += (e.shiftKey ? e.deltaY : e.deltaX) / sched.scale;
      redraw();
      return;
    }
    zoomAt(Math.exp(-e.deltaY * (e.deltaMode === 1 ? 0.05 : 0.0025)), x);
  }, { passive: false });
  let down = null;
  canvas.addEventListener('pointerdown', (e) => {
    down = { x: e.clientX, s0: sched.s0, moved: false };
    canvas.setPointerCapture(e.pointerId);
  });
  canvas.addEventListener('pointermove', (e) => {
    if (down) {
      const dx = e.clientX - down.x;
      if (Math.abs(dx) > 3) down.moved = true;
      if (down.moved) { sched.s0 = down.s0 - dx / sched.scale; sched.fitted = false; redraw(); }
      return;
    }
    hover(e.offsetX, e.offsetY);
  });
  canvas.addEventListener('pointerup', (e) => {
    const d = down;
    down = null;
    if (d && !d.moved) click(e.offsetX, e.offsetY);
  });
  canvas.addEventListener('pointerleave', () => { $('sched-tip').hidden = true; });
  canvas.addEventListener('dblclick', () => { fit(); redraw(); });
  canvas.addEventListener('keydown', (e) => {
    const w = width();
    switch (e.key) {
      case 'w': case 'W': case '+': case '=': zoomAt(1.5, w / 2); break;
      case 's': case 'S': case '-': zoomAt(1 / 1.5, w / 2); break;
      case 'a': case 'A': case 'ArrowLeft': sched.s0 -= w / 5 / sched.scale; redraw(); break;
      case 'd': case 'D': case 'ArrowRight': sched.s0 += w / 5 / sched.scale; redraw(); break;
      case '0': case 'Home': fit(); redraw(); break;
      default: return;
    }
    e.preventDefault();
  });
  void body;
}

// hit finds the slice under (x, y): its lane, and the word at that step (or the nearest within
// 3 px when slices are thin).
function hit(x, y) {
  if (!sched.cores) return null;
  const lane = sched.lanes.find((l) => y >= l.y && y < l.y + LANE);
  if (!lane) return null;
  const c = sched.cores[lane.core];
  const e = lane.engine;
  const s = sched.s0 + x / sched.scale;
  const slack = Math.max(0, 3 / sched.scale);
  const i = lower(c, e, Math.floor(s - slack));
  let best = -1;
  let bestD = Infinity;
  for (let j = i; j < c.run[e]; j++) {
    const st = c.steps[c.off[e] + j];
    if (st > s + slack) break;
    const d = s >= st && s < st + 1 ? 0 : Math.min(Math.abs(s - st), Math.abs(s - st - 1));
    if (d < bestD) { bestD = d; best = j; }
  }
  return best < 0 ? null : { core: lane.core, engine: e, index: best };
}

function describe(h) {
  const c = /** @type {import('../lib/schedcols.js').SchedCore[]} */ (sched.cores)[h.core];
  const op = c.ops[c.off[h.engine] + h.index];
  const lines = [c.engines[h.engine] + ' #' + fmtInt(h.index) + ' · ' + (sched.opnames[op] || '0x' + op.toString(16)), 'step ' + fmtInt(c.steps[c.off[h.engine] + h.index])];
  const ws = c.waits;
  for (let j = 0; j < ws.length; j += 7) {
    if (ws[j] === h.engine && ws[j + 1] === h.index) {
      const from = ws[j + 2] >= 0 ? c.engines[ws[j + 2]] + ' #' + fmtInt(ws[j + 3]) : (c.codes[ws[j + 6]] || 'nothing');
      lines.push('waits S[' + ws[j + 4] + '] ≥ ' + (ws[j + 5] >>> 0) + ' ← ' + from);
    } else if (ws[j + 2] === h.engine && ws[j + 3] === h.index) {
      lines.push('satisfies ' + c.engines[ws[j]] + ' #' + fmtInt(ws[j + 1]) + ' (S[' + ws[j + 4] + '] ≥ ' + (ws[j + 5] >>> 0) + ')');
    }
    if (lines.length > 9) { lines.push('…'); break; }
  }
  return lines;
}

function hover(x, y) {
  const tip = $('sched-tip');
  const h = hit(x, y);
  if (!h) { tip.hidden = true; return; }
  tip.replaceChildren(...describe(h).map((t, i) => el('div', i ? '' : 'sched-tip-head', t)));
  tip.hidden = false;
  const body = $('sched-body');
  const r = body.getBoundingClientRect();
  const vr = root.getBoundingClientRect();
  const left = r.left - vr.left + LABELS + x + 14;
  tip.style.left = Math.min(left, vr.width - tip.offsetWidth - 8) + 'px';
  tip.style.top = (r.top - vr.top + y - body.scrollTop + 16) + 'px';
}

function click(x, y) {
  const h = hit(x, y);
  if (!h) return;
  pick(h.core, h.engine, h.index, false);
}

// pick selects an instruction: the schedule marks it and draws its arrows; the listing below
// shows it (and the detail pane its fields and kernel line).
function pick(core, engine, index, center) {
  if (!sched.cores || engine < 0) return;
  sched.sel = { core, engine, index };
  const c = sched.cores[core];
  if (center) {
    const s = c.steps[c.off[engine] + index];
    if (s >= 0) {
      sched.scale = Math.max(sched.scale, 12);
      sched.s0 = s - width() / 2 / sched.scale;
    }
  }
  redraw();
  instructionAt(c.members[engine], index).then(redraw);
}

/**
 * schedulePick selects instruction index of a stream member in the schedule (when it is
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
  if (sched.open) redraw();
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
    const ix = waitIndex(c);
    const ws = c.waits;
    const key = e * 2 ** 32 + index;
    const producers = (ix.byWaiter.get(key) || []).filter((j) => ws[j + 2] >= 0).map((j) => ({ member: c.members[ws[j + 2]], index: ws[j + 3], sem: ws[j + 4] }));
    const waiters = (ix.byProducer.get(key) || []).map((j) => ({ member: c.members[ws[j]], index: ws[j + 1], sem: ws[j + 4] }));
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
    if (sched.doc !== (state && state.doc)) { sched.cores = null; sched.doc = null; sched.sel = null; sched.lanes = []; }
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
  const canvas = $('sched-canvas');
  if (!c || !canvas) return null;
  const s = c.steps[c.off[e] + index];
  const lane = sched.lanes.find((l) => l.core === k && l.engine === e);
  if (s < 0 || !lane) return null;
  const r = canvas.getBoundingClientRect();
  const x = (s + 0.5 - sched.s0) * sched.scale;
  if (x < 0 || x > r.width) return null;
  return { x: r.left + x, y: r.top + lane.y + LANE / 2 };
}

// ---- the schedule's place in the URL (features/permalink.js keeps it there) ----

/**
 * scheduleWindow: the steps in view, whole steps around them; null while the whole schedule
 * is (as fit draws it) or nothing is drawn.
 * @returns {{lo: number, hi: number} | null}
 */
export function scheduleWindow() {
  if (!sched.cores || !sched.open) return null;
  const w = width();
  const fitScale = Math.min(MAX_SCALE, w / (sched.total * 1.02));
  if (Math.abs(sched.scale - fitScale) <= fitScale * 1e-6 && Math.abs(sched.s0 + sched.total * 0.01) < 0.5) return null;
  return { lo: Math.floor(sched.s0 + 1e-6), hi: Math.ceil(sched.s0 + w / sched.scale - 1e-6) }; // (a window set from a link reads back the same)
}

/**
 * scheduleGoTo shows the steps of win across the lanes (null: the whole schedule).
 * @param {{lo: number, hi: number} | null} win
 */
export function scheduleGoTo(win) {
  if (!sched.cores) return;
  if (!win) fit();
  else {
    sched.fitted = false;
    sched.scale = width() / Math.max(1e-9, win.hi - win.lo);
    sched.s0 = win.lo;
    clampView();
  }
  redraw();
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
