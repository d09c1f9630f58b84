// @ts-check
// Activation functions: the plot's state, range inputs, sampling in the core, hover and the
// single-point evaluator.

import { call } from '../../core/client.js';
import { $, el, toast } from '../../dom.js';
import { f32hex, fmtFull, fmtInt, fmtNum, spanText } from '../../lib/format.js';
import { isPwpRef } from '../../lib/refs.js';
import { adopt, parentOf, state } from '../../state/docs.js';
import { emit, on } from '../../state/events.js';
import { unpackNode } from '../../wire.js';
import { ensureHandle, fieldMarks, hexShow } from '../hex.js';
import { lowerBound, plotDraw, plotDrawFor } from './draw.js';
import { KIND } from '../../lib/vocab.gen.js';

// Activation functions: an SVG plot of the emulated curve over the true function with its
// error on a log scale, octave and section boundaries and saturation regions; zoom (wheel or
// the range inputs), pan (drag), a crosshair; and an evaluate box. Every redraw of a new
// range asks the core for a fresh Plot of PLOT_N points (debounced), so zooming in shows the
// real piecewise structure, not a stretched picture.

export const PLOT_N = 4096;
const PLOT_DEBOUNCE = 120;
const MAX_ABS_X = 3.4e38;
export const plot = {
  key: '', fn: null, ref: '', lo: -8, hi: 8, home: [-8, 8], data: null, seq: 0, timer: 0,
  err: 'rel', ylog: 'auto', mode: '', marker: null, geom: null, timing: null, drag: null, waiters: [],
  /** @type {number[] | null} the function's table range [lo, hi] (attrs.domain) */
  domain: null,
};
// A function node carries its table's range (attrs.domain, from the core's catalog) and the
// part of it the plot opens on (attrs.window); the user zooms and pans from there. A function
// the catalog does not list opens on [-8, 8].
const DEFAULT_HOME = [-8, 8];

/** rangeAttr reads a "lo,hi" attr into [lo, hi], or null. */
function rangeAttr(v) {
  const r = String(v || '').split(',').map(Number);
  return r.length === 2 && r[0] < r[1] ? r : null;
}
const homeOf = (fn) => rangeAttr(fn.attrs && fn.attrs.window) || DEFAULT_HOME;

// functionOf returns the activation function n belongs to (itself included), or null.
export function functionOf(n) {
  for (let m = n; m; m = parentOf(m)) if (m.kind === KIND.PWP_FUNCTION && isPwpRef(m.ref)) return m;
  return null;
}

/** @type {{ref: string, from: string} | null} an Activate the next plotShow comes from */
let pendingFrom = null;

/**
 * plotFromActivate notes that the next plot (of function ref) is opened from an Activate
 * instruction (from: "sg00/Activation.bin #12"): the plot says which range it shows and why.
 * @param {string} ref the function's pwp: ref
 * @param {string} from
 */
export function plotFromActivate(ref, from) {
  pendingFrom = { ref, from };
}

// plotNote shows (or clears) the line under the plot's bar about where the range comes from.
function plotNote(text) {
  let n = $('plot-note');
  if (!text) { if (n) n.hidden = true; return; }
  if (!n) {
    n = el('p', 'plot-note');
    n.id = 'plot-note';
    n.setAttribute('role', 'note');
    $('plot-legend').before(n);
  }
  n.hidden = false;
  n.textContent = text;
}

/** @type {HTMLElement} the view's root (#plot-view) */
let root;

/** plotHide hides the plot (another node is on show). */
export function plotHide() {
  root.hidden = true;
}

/**
 * plotTarget: the plot, where the focus lands when a link opened it; null when not on show.
 * @returns {HTMLElement | null}
 */
export function plotTarget() {
  return root.hidden ? null : $('plot');
}

export function plotShow(fn) {
  root.hidden = false;
  const key = state.uid + '|' + fn.ref;
  const from = pendingFrom && pendingFrom.ref === fn.ref ? pendingFrom.from : '';
  pendingFrom = null;
  if (from) {
    // The NEFF does not record the inputs an Activate sees (they are a tensor's values at run
    // time): the plot opens on the function's default range, and says so.
    const home = homeOf(fn);
    plotNote('From ' + from + ' (Activate): the NEFF does not record the input range this instruction sees, so the plot shows ' + fn.label + "'s default range [" + fmtNum(home[0]) + ', ' + fmtNum(home[1]) + '].');
    if (plot.key === key) { plot.lo = home[0]; plot.hi = home[1]; plotInputs(); plotDraw(); plotFetch(); return; }
  } else plotNote('');
  if (plot.key === key) { plotDraw(); return; }
  plot.key = key;
  plot.fn = fn;
  plot.ref = fn.ref;
  plot.home = homeOf(fn);
  plot.domain = rangeAttr(fn.attrs && fn.attrs.domain);
  plot.lo = plot.home[0];
  plot.hi = plot.home[1];
  plot.data = null;
  plot.marker = null;
  $('plot-title').textContent = fn.label;
  $('eval-out').replaceChildren();
  delete $('eval-out').dataset.bits;
  plotInputs();
  plotDraw();
  plotFetch();
}

export function plotInputs() {
  $('plot-lo').value = fmtNum(plot.lo);
  $('plot-hi').value = fmtNum(plot.hi);
}

// plotSetRange moves the view at once (the curves already held are redrawn) and asks the
// core for new samples of it shortly after.
function plotSetRange(lo, hi) {
  if (!(hi > lo) || !Number.isFinite(lo) || !Number.isFinite(hi)) return;
  const mid = (lo + hi) / 2;
  const minSpan = Math.max(Math.abs(mid) * 1e-6, 1e-30);
  if (hi - lo < minSpan) { lo = mid - minSpan / 2; hi = mid + minSpan / 2; }
  plot.lo = Math.max(-MAX_ABS_X, lo);
  plot.hi = Math.min(MAX_ABS_X, hi);
  plotInputs();
  plotDraw();
  clearTimeout(plot.timer);
  plot.timer = setTimeout(plotFetch, PLOT_DEBOUNCE);
}

// plotFetch samples the visible range in the core; resolves when the new curves are drawn.
export async function plotFetch() {
  clearTimeout(plot.timer);
  const seq = ++plot.seq;
  const lo = plot.lo, hi = plot.hi, ref = plot.ref;
  const t0 = performance.now();
  $('plot-status').textContent = 'sampling…';
  try {
    const h = await ensureHandle();
    const r = await call('plot', { handle: h, ref, lo, hi, n: PLOT_N, mode: plot.mode });
    if (seq !== plot.seq || ref !== plot.ref) return null;
    const t1 = performance.now();
    plot.data = parsePlot(unpackNode(r.node), lo, hi);
    const t2 = performance.now();
    plotDraw();
    const t3 = performance.now();
    plot.timing = { coreMs: r.ms, decodeMs: t2 - t1, drawMs: t3 - t2, totalMs: t3 - t0 };
    $('plot-status').textContent = fmtInt(plot.data.n) + ' points · ' + Math.round(t3 - t0) + ' ms';
    root.dataset.seq = String(seq);
    plot.waiters.splice(0).forEach((w) => w(plot.timing));
    return plot.timing;
  } catch (e) {
    if (seq === plot.seq) { $('plot-status').textContent = ''; toast('Plot of ' + (plot.fn ? plot.fn.label : ref) + ': ' + e.message); }
    return null;
  }
}

function parsePlot(node, lo, hi) {
  const ser = node.series || [];
  const by = (re, i) => ser.find((s) => re.test(s.name)) || ser[i] || { x: [], y: [] };
  const emu = ser[0] || { x: [], y: [] }, tru = ser[1] || { x: [], y: [] };
  const d = {
    lo, hi, n: emu.x.length, x: emu.x, emu: emu.y, tru: tru.y,
    names: { emu: emu.name || 'emulated', tru: tru.name || 'true' },
    err: { abs: by(/^abs error/, 2).y, rel: by(/^rel error/, 3).y, ulp: by(/^ulp error/, 4).y }, // exact names: functions are called relu, abs…
    octaves: [], sections: [], sats: [], summary: node.value || '',
  };
  for (const r of (node.table && node.table.rows) || []) {
    const b = { from: Number(r[1]), to: Number(r[2]), label: r[3] || '' };
    if (r[0] === 'octave') d.octaves.push(b);
    else if (r[0] === 'section') d.sections.push(b);
    else if (r[0] === 'saturation') d.sats.push(b);
  }
  return d;
}

function plotXAt(clientX) {
  const g = plot.geom;
  const r = $('plot').getBoundingClientRect();
  return plot.lo + (clientX - r.left - g.m.l) / g.pw * (plot.hi - plot.lo);
}

function plotHover(e) {
  const g = plot.geom, d = plot.data, tip = $('plot-tip');
  if (!g || !d || !d.n || plot.drag) { if (!plot.drag) { tip.hidden = true; if (g) g.cross.setAttribute('visibility', 'hidden'); } return; }
  const r = $('plot').getBoundingClientRect();
  const px = e.clientX - r.left, py = e.clientY - r.top;
  if (px < g.m.l || px > g.m.l + g.pw || py < g.mainTop || py > g.errTop + g.errH) { tip.hidden = true; g.cross.setAttribute('visibility', 'hidden'); return; }
  const x = plotXAt(e.clientX);
  let i = Math.min(d.n - 1, lowerBound(d.x, x));
  if (i > 0 && Math.abs(d.x[i - 1] - x) < Math.abs(d.x[i] - x)) i--;
  const cx = g.tx(d.x[i]);
  const [line, cEmu, cTrue, cErr] = g.cross.children;
  line.setAttribute('x1', cx); line.setAttribute('x2', cx);
  const place = (c, y) => { if (Number.isFinite(y)) { c.setAttribute('cx', cx); c.setAttribute('cy', y); c.setAttribute('visibility', 'visible'); } else c.setAttribute('visibility', 'hidden'); };
  place(cEmu, g.yInfo.ty(d.emu[i]));
  place(cTrue, g.yInfo.ty(d.tru[i]));
  place(cErr, g.eInfo.te(g.eInfo.es[i]));
  g.cross.setAttribute('visibility', 'visible');
  const rows = [
    ['x', fmtFull(d.x[i]) + '  0x' + f32hex(d.x[i])],
    ['emulated', fmtFull(d.emu[i]) + '  0x' + f32hex(d.emu[i])],
    ['true', fmtFull(d.tru[i])],
  ];
  // Past the table's range the core gives no error figure (NaN): say why instead.
  const dom = plot.domain;
  if (dom && (d.x[i] < dom[0] || d.x[i] > dom[1])) rows.push(['error', "outside the table's range [" + fmtNum(dom[0]) + ', ' + fmtNum(dom[1]) + ']']);
  else rows.push(['abs error', fmtNum(d.err.abs[i])], ['rel error', fmtNum(d.err.rel[i])], ['ulp error', fmtNum(d.err.ulp[i])]);
  const oct = nearestBelow(d.octaves, d.x[i]);
  if (oct) rows.push(['octave', oct.label]);
  const sat = d.sats.find((s) => d.x[i] >= Math.min(s.from, s.to) && d.x[i] <= Math.max(s.from, s.to));
  if (sat) rows.push(['saturated', sat.label]);
  tip.replaceChildren();
  for (const [k, v] of rows) {
    const row = el('div', 'tip-row');
    row.appendChild(el('span', 'tip-k', k));
    row.appendChild(el('span', 'tip-v', v));
    tip.appendChild(row);
  }
  tip.hidden = false;
  const bw = $('plot-box').clientWidth;
  const left = px + 16 + 230 > bw ? px - 16 - 230 : px + 16;
  tip.style.left = Math.max(4, left) + 'px';
  tip.style.top = Math.max(4, Math.min(py - 20, $('plot-box').clientHeight - 150)) + 'px';
}
// nearestBelow: the octave whose start is closest to x on x's side of zero.
function nearestBelow(list, x) {
  let best = null;
  for (const b of list) if (Math.sign(b.from) === Math.sign(x) && Math.abs(b.from) <= Math.abs(x) && (!best || Math.abs(b.from) > Math.abs(best.from))) best = b;
  return best;
}

/**
 * plotInit wires the plot (zoom, pan, the crosshair), its bar and the evaluate box.
 * @param {HTMLElement} view the view's root
 */
export function plotInit(view) {
  root = view;
  plotDrawFor(plot, PLOT_N, { view, svg: $('plot'), box: $('plot-box'), tip: $('plot-tip'), legendErr: $('legend-err') });
  on('document', plotForget);
  const p = $('plot');
  p.addEventListener('wheel', (e) => {
    if (!plot.geom) return;
    e.preventDefault();
    const x0 = Math.min(plot.hi, Math.max(plot.lo, plotXAt(e.clientX)));
    const k = Math.exp(Math.max(-3, Math.min(3, (e.deltaMode === 1 ? 33 : 1) * e.deltaY * 0.0015)));
    plotSetRange(x0 - (x0 - plot.lo) * k, x0 + (plot.hi - x0) * k);
  }, { passive: false });
  p.addEventListener('pointerdown', (e) => {
    if (e.button !== 0 || !plot.geom) return;
    plot.drag = { x: e.clientX, lo: plot.lo, hi: plot.hi, moved: false };
    p.setPointerCapture(e.pointerId);
    p.classList.add('dragging');
  });
  p.addEventListener('pointermove', (e) => {
    if (plot.drag) {
      const dx = e.clientX - plot.drag.x;
      if (Math.abs(dx) > 2) plot.drag.moved = true;
      const shift = -dx / plot.geom.pw * (plot.drag.hi - plot.drag.lo);
      if (plot.drag.moved) plotSetRange(plot.drag.lo + shift, plot.drag.hi + shift);
      return;
    }
    plotHover(e);
  });
  const end = () => { plot.drag = null; p.classList.remove('dragging'); };
  p.addEventListener('pointerup', end);
  p.addEventListener('pointercancel', end);
  p.addEventListener('pointerleave', () => { if (!plot.drag) { $('plot-tip').hidden = true; if (plot.geom) plot.geom.cross.setAttribute('visibility', 'hidden'); } });
  p.addEventListener('dblclick', () => plotSetRange(plot.home[0], plot.home[1]));
  p.addEventListener('keydown', (e) => {
    const w = plot.hi - plot.lo, mid = (plot.lo + plot.hi) / 2;
    switch (e.key) {
      case 'ArrowLeft': plotSetRange(plot.lo - w * 0.1, plot.hi - w * 0.1); break;
      case 'ArrowRight': plotSetRange(plot.lo + w * 0.1, plot.hi + w * 0.1); break;
      case '+': case '=': case 'ArrowUp': plotSetRange(mid - w * 0.35, mid + w * 0.35); break;
      case '-': case 'ArrowDown': plotSetRange(mid - w * 0.7, mid + w * 0.7); break;
      case 'Home': plotSetRange(plot.home[0], plot.home[1]); break;
      default: return;
    }
    e.preventDefault();
  });
  $('plot-reset').addEventListener('click', () => plotSetRange(plot.home[0], plot.home[1]));
  const rangeInput = () => {
    const lo = Number($('plot-lo').value), hi = Number($('plot-hi').value);
    if (hi > lo) plotSetRange(lo, hi);
    else { toast('The plot range needs x from < to', 'warning'); plotInputs(); }
  };
  $('plot-lo').addEventListener('change', rangeInput);
  $('plot-hi').addEventListener('change', rangeInput);
  $('plot-err').addEventListener('change', (e) => { plot.err = /** @type {HTMLInputElement} */ (e.target).value; plotDraw(); });
  $('plot-ylog').addEventListener('change', (e) => { plot.ylog = /** @type {HTMLInputElement} */ (e.target).value; plotDraw(); });
  $('plot-mode').addEventListener('change', (e) => { plot.mode = /** @type {HTMLInputElement} */ (e.target).value; plotFetch(); });
  new ResizeObserver(() => { if (!root.hidden) plotDraw(); }).observe($('plot-box'));
  $('eval-go').addEventListener('click', () => evalRun());
  $('eval-x').addEventListener('keydown', (e) => { if (e.key === 'Enter') { e.preventDefault(); evalRun(); } });
}

// evalRun evaluates the function at the typed x (decimal or 0x bits): y, its bits, the path
// through the tables; the bucket record's 32 bytes are highlighted in the hex view.
async function evalRun() {
  const text = $('eval-x').value.trim();
  if (!text || !plot.ref) return;
  const out = $('eval-out');
  const ref = plot.ref;
  try {
    const h = await ensureHandle();
    const r = await call('evaluate', { handle: h, ref, x: text, mode: plot.mode });
    if (ref !== plot.ref) return;
    const n = unpackNode(r.node);
    adopt(n, plot.fn, 'eval ' + text);
    const get = (label) => (n.kids || []).find((c) => c.label === label);
    const bits = (n.attrs && n.attrs.bits) || '';
    out.replaceChildren();
    out.dataset.bits = bits;
    const head = el('div', 'eval-head');
    head.appendChild(el('span', 'eval-y', 'y = ' + (n.value || '?')));
    const path = get('path');
    if (path) head.appendChild(el('span', 'eval-path', path.value));
    const rel = get('relative error');
    if (rel) head.appendChild(el('span', 'muted', 'rel err ' + rel.value));
    out.appendChild(head);
    const grid = el('div', 'eval-fields');
    for (const c of n.kids || []) {
      if (c.label === 'path') continue;
      const k = el('span', 'ek', c.label);
      const v = el(c.span ? 'button' : 'span', 'ev' + (c.span ? ' link' : ''), c.value || '');
      if (c.span) { v.type = 'button'; v.title = spanText(c.span); v.addEventListener('click', () => { emit('picked', { n: c }); hexShow(c.span.src || '', c.span, true, fieldMarks(c, c.span.src || '')); }); }
      grid.appendChild(k);
      grid.appendChild(v);
    }
    out.appendChild(grid);
    const xv = get('x'), yv = get('y');
    const num = (f) => (f && f.attrs ? Number(f.attrs.f32) : NaN);
    plot.marker = { x: num(xv), y: num(yv) };
    plotDraw();
    if (n.span) hexShow(n.span.src || '', n.span, true, fieldMarks(get('bucket ' + (path && path.attrs ? path.attrs.bucket : '')) || n, n.span.src || ''));
  } catch (e) {
    out.replaceChildren(el('span', 'eval-err', e.message));
    delete out.dataset.bits;
  }
}

// plotForget makes the next plotShow sample afresh (a new document).
export function plotForget() {
  plot.key = '';
}

// replot samples and draws [lo, hi] now (the debug surface's replot, for the benchmarks);
// resolves with {coreMs, decodeMs, drawMs, totalMs}.
export function replot(lo, hi) {
  plot.lo = lo;
  plot.hi = hi;
  plotInputs();
  return plotFetch();
}
