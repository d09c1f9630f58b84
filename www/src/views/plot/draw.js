// @ts-check
// The activation plot's drawing: axes, curves and the error strip as SVG.

import { fmtInt, fmtNum } from '../../lib/format.js';
import { decadeRange, decadeTicks, errorDecades, niceTicks } from '../../lib/ticks.js';

const SVGNS = 'http://www.w3.org/2000/svg';

export function svg(tag, attrs, cls) {
  const e = document.createElementNS(SVGNS, tag);
  if (cls) e.setAttribute('class', cls);
  for (const k in attrs || {}) e.setAttribute(k, attrs[k]);
  return e;
}

// The plot view's state and its sample count (plot.js's plot and PLOT_N), given once by
// plotInit: plot.js draws with this module, so this one does not import it back.
/** @type {any} */
let plot = null;
let PLOT_N = 0;
/** @type {{view: HTMLElement, svg: SVGSVGElement, box: HTMLElement, tip: HTMLElement, legendErr: HTMLElement}} the plot view's parts (views/plot/plot.js names them) */
let els;
/**
 * plotDrawFor gives the drawing the plot view's state, its sample count and its parts.
 * @param {any} state
 * @param {number} n
 * @param {typeof els} elements
 */
export function plotDrawFor(state, n, elements) { plot = state; PLOT_N = n; els = elements; }

// lowerBound: first index i with xs[i] >= v (xs ascending).
export function lowerBound(xs, v) {
  let lo = 0, hi = xs.length;
  while (lo < hi) { const m = (lo + hi) >> 1; if (xs[m] < v) lo = m + 1; else hi = m; }
  return lo;
}

// pathOf builds an SVG path of (xs[i], ys[i]) for i in [i0, i1), broken where ty gives NaN,
// with consecutive points on the same pixel column merged to their min/max (a 4,096-point
// curve on a 700-px plot stays a few thousand segments).
function curvePath(xs, ys, i0, i1, tx, ty) {
  const parts = [];
  let pen = false, col = NaN, cmin = 0, cmax = 0, last = 0;
  const flush = () => {
    if (!Number.isFinite(col)) return;
    if (cmin !== cmax) parts.push('L' + col + ' ' + cmin.toFixed(1) + 'L' + col + ' ' + cmax.toFixed(1));
    parts.push('L' + col + ' ' + last.toFixed(1));
  };
  for (let i = i0; i < i1; i++) {
    const py = ty(ys[i]);
    if (!Number.isFinite(py)) { flush(); col = NaN; pen = false; continue; }
    const px = Math.round(tx(xs[i]) * 2) / 2;
    if (!pen) { parts.push('M' + px + ' ' + py.toFixed(1)); pen = true; col = px; cmin = cmax = last = py; continue; }
    if (px === col) { cmin = Math.min(cmin, py); cmax = Math.max(cmax, py); last = py; continue; }
    flush();
    col = px; cmin = cmax = last = py;
  }
  flush();
  return parts.join('').replace(/^L/, 'M');
}

export function plotDraw() {
  const root = els.svg;
  const box = els.box;
  if (els.view.hidden) return;
  const W = Math.max(200, box.clientWidth), H = Math.max(160, box.clientHeight);
  root.setAttribute('viewBox', '0 0 ' + W + ' ' + H);
  root.setAttribute('width', String(W));
  root.setAttribute('height', String(H));
  const m = { l: 66, r: 14, t: 10, b: 24, gap: 26 };
  const pw = W - m.l - m.r;
  const mainH = Math.round((H - m.t - m.b - m.gap) * 0.64);
  const errH = H - m.t - m.b - m.gap - mainH;
  const mainTop = m.t, errTop = m.t + mainH + m.gap;
  const lo = plot.lo, hi = plot.hi;
  const tx = (x) => m.l + (x - lo) / (hi - lo) * pw;
  const d = plot.data;
  const frag = document.createDocumentFragment();
  const defs = svg('defs');
  const clipMain = svg('clipPath', { id: 'clip-main' });
  clipMain.appendChild(svg('rect', { x: m.l, y: mainTop, width: pw, height: mainH }));
  const clipErr = svg('clipPath', { id: 'clip-err' });
  clipErr.appendChild(svg('rect', { x: m.l, y: errTop, width: pw, height: errH }));
  defs.appendChild(clipMain);
  defs.appendChild(clipErr);
  frag.appendChild(defs);
  frag.appendChild(svg('rect', { x: m.l, y: mainTop, width: pw, height: mainH }, 'plot-bg'));
  frag.appendChild(svg('rect', { x: m.l, y: errTop, width: pw, height: errH }, 'plot-bg'));

  // x ticks (shared by both panels)
  const xt = niceTicks(lo, hi, Math.max(2, Math.floor(pw / 90)));
  const grid = svg('g', null, 'grid');
  const labels = svg('g', null, 'tick');
  for (const v of xt) {
    const px = tx(v);
    grid.appendChild(svg('line', { x1: px, x2: px, y1: mainTop, y2: mainTop + mainH }));
    grid.appendChild(svg('line', { x1: px, x2: px, y1: errTop, y2: errTop + errH }));
    const t = svg('text', { x: px, y: errTop + errH + 15, 'text-anchor': 'middle' });
    t.textContent = fmtNum(v);
    labels.appendChild(t);
  }
  frag.appendChild(grid);

  let yInfo = null, eInfo = null;
  if (d && d.n) {
    const i0 = Math.max(0, lowerBound(d.x, lo) - 1), i1 = Math.min(d.n, lowerBound(d.x, hi) + 1);
    // y range over the visible, finite samples of both curves.
    let ymin = Infinity, ymax = -Infinity, pmin = Infinity;
    for (let i = i0; i < i1; i++) {
      for (const v of [d.emu[i], d.tru[i]]) {
        if (!Number.isFinite(v)) continue;
        if (v < ymin) ymin = v;
        if (v > ymax) ymax = v;
        if (v > 0 && v < pmin) pmin = v;
      }
    }
    if (!(ymax >= ymin)) { ymin = -1; ymax = 1; }
    const useLog = plot.ylog === 'log' ? pmin < Infinity : plot.ylog === 'auto' && ymin > 0 && ymax / ymin > 1e3;
    let ty, yt;
    if (useLog) {
      const { a, b } = decadeRange(pmin, ymax);
      ty = (v) => (v > 0 ? mainTop + mainH - (Math.log10(v) - a) / (b - a) * mainH : NaN);
      yt = decadeTicks(a, b, mainH / 40).map((e) => Math.pow(10, e));
    } else {
      if (ymax === ymin) { ymin -= 1; ymax += 1; }
      const pad = (ymax - ymin) * 0.06;
      const a = ymin - pad, b = ymax + pad;
      ty = (v) => mainTop + mainH - (v - a) / (b - a) * mainH;
      yt = niceTicks(a, b, Math.max(2, Math.floor(mainH / 40)));
    }
    yInfo = { ty, log: useLog };
    for (const v of yt) {
      const py = ty(v);
      if (!(py >= mainTop - 0.5 && py <= mainTop + mainH + 0.5)) continue;
      grid.appendChild(svg('line', { x1: m.l, x2: m.l + pw, y1: py, y2: py }));
      const t = svg('text', { x: m.l - 6, y: py + 4, 'text-anchor': 'end' });
      t.textContent = useLog ? (v === 1 ? '1' : '1e' + Math.round(Math.log10(v))) : fmtNum(v);
      labels.appendChild(t);
    }
    // error: log10 of the chosen error, zeros drawn at the floor.
    const es = d.err[plot.err] || [];
    let emax = 0, emin = Infinity;
    for (let i = i0; i < i1; i++) { const v = Math.abs(es[i]); if (v > 0 && Number.isFinite(v)) { emax = Math.max(emax, v); emin = Math.min(emin, v); } }
    const { a: ea, b: eb } = errorDecades(emin, emax);
    const te = (v) => { const a = Math.abs(v); if (!Number.isFinite(a)) return NaN; const lv = a > 0 ? Math.max(ea, Math.log10(a)) : ea; return errTop + errH - (lv - ea) / (eb - ea) * errH; };
    eInfo = { te, es };
    for (const e of decadeTicks(ea, eb, errH / 28)) {
      const py = te(Math.pow(10, e));
      grid.appendChild(svg('line', { x1: m.l, x2: m.l + pw, y1: py, y2: py }));
      const t = svg('text', { x: m.l - 6, y: py + 4, 'text-anchor': 'end' });
      t.textContent = e === 0 ? '1' : '1e' + e;
      labels.appendChild(t);
    }

    // saturation regions, octave and section boundaries
    const marks = svg('g', null, 'bounds');
    for (const s of d.sats) {
      const a = Math.max(lo, Math.min(s.from, s.to)), b = Math.min(hi, Math.max(s.from, s.to));
      if (!(b > a)) continue;
      const x0 = tx(a), x1 = tx(b);
      if (x1 - x0 < 0.5) continue;
      marks.appendChild(svg('rect', { x: x0, y: mainTop, width: x1 - x0, height: mainH }, 'sat'));
      marks.appendChild(svg('rect', { x: x0, y: errTop, width: x1 - x0, height: errH }, 'sat'));
      if (x1 - x0 > 60) {
        const t = svg('text', { x: (x0 + x1) / 2, y: mainTop + 14, 'text-anchor': 'middle' }, 'sat-label');
        t.textContent = s.label.replace('_', ' ') + ' (saturated)';
        marks.appendChild(t);
      }
    }
    const visSect = d.sections.filter((b) => b.from > lo && b.from < hi);
    if (visSect.length && pw / visSect.length >= 4) {
      let p = '';
      for (const b of visSect) { const px = tx(b.from).toFixed(1); p += 'M' + px + ' ' + mainTop + 'V' + (mainTop + mainH) + 'M' + px + ' ' + errTop + 'V' + (errTop + errH); }
      marks.appendChild(svg('path', { d: p }, 'sect'));
    }
    const visOct = d.octaves.filter((b) => b.from > lo && b.from < hi);
    let p = '';
    let lastLabel = -Infinity;
    for (const b of visOct) {
      const px = tx(b.from);
      p += 'M' + px.toFixed(1) + ' ' + mainTop + 'V' + (mainTop + mainH) + 'M' + px.toFixed(1) + ' ' + errTop + 'V' + (errTop + errH);
      if (px - lastLabel > 44 && px < m.l + pw - 20) {
        const t = svg('text', { x: px + 3, y: errTop - 5 }, 'oct-label');
        t.textContent = b.label.replace(/ \(ctl \d+\)$/, '');
        marks.appendChild(t);
        lastLabel = px;
      }
    }
    if (p) marks.appendChild(svg('path', { d: p }, 'oct'));
    frag.appendChild(marks);

    const gMain = svg('g', { 'clip-path': 'url(#clip-main)' });
    gMain.appendChild(svg('path', { d: curvePath(d.x, d.tru, i0, i1, tx, ty) }, 'c-true'));
    gMain.appendChild(svg('path', { d: curvePath(d.x, d.emu, i0, i1, tx, ty) }, 'c-emu'));
    frag.appendChild(gMain);
    const gErr = svg('g', { 'clip-path': 'url(#clip-err)' });
    gErr.appendChild(svg('path', { d: curvePath(d.x, es, i0, i1, tx, te) }, 'c-err'));
    frag.appendChild(gErr);
    if (plot.marker && plot.marker.x >= lo && plot.marker.x <= hi) {
      const py = ty(plot.marker.y);
      if (Number.isFinite(py)) {
        const g = svg('g', null, 'eval-mark');
        g.appendChild(svg('line', { x1: tx(plot.marker.x), x2: tx(plot.marker.x), y1: mainTop, y2: mainTop + mainH }));
        g.appendChild(svg('circle', { cx: tx(plot.marker.x), cy: py, r: 4.5 }));
        frag.appendChild(g);
      }
    }
  } else {
    const t = svg('text', { x: m.l + pw / 2, y: mainTop + mainH / 2, 'text-anchor': 'middle' }, 'plot-wait');
    t.textContent = 'sampling ' + fmtInt(PLOT_N) + ' points…';
    frag.appendChild(t);
  }
  frag.appendChild(labels);
  const axisT = svg('text', { x: 12, y: mainTop + mainH / 2, transform: 'rotate(-90 12 ' + (mainTop + mainH / 2) + ')', 'text-anchor': 'middle' }, 'axis-title');
  axisT.textContent = 'y' + (yInfo && yInfo.log ? ' (log)' : '');
  frag.appendChild(axisT);
  const axisE = svg('text', { x: 12, y: errTop + errH / 2, transform: 'rotate(-90 12 ' + (errTop + errH / 2) + ')', 'text-anchor': 'middle' }, 'axis-title');
  axisE.textContent = plot.err + ' err';
  frag.appendChild(axisE);
  frag.appendChild(svg('rect', { x: m.l, y: mainTop, width: pw, height: mainH }, 'plot-frame'));
  frag.appendChild(svg('rect', { x: m.l, y: errTop, width: pw, height: errH }, 'plot-frame'));
  const cross = svg('g', { visibility: 'hidden' }, 'cross');
  cross.appendChild(svg('line', { y1: mainTop, y2: errTop + errH }));
  cross.appendChild(svg('circle', { r: 3.5 }, 'dot-emu'));
  cross.appendChild(svg('circle', { r: 3.5 }, 'dot-true'));
  cross.appendChild(svg('circle', { r: 3 }, 'dot-err'));
  frag.appendChild(cross);
  root.replaceChildren(frag);
  // The old crosshair and tooltip describe samples that are gone: the next pointer move redraws them.
  els.tip.hidden = true;
  plot.geom = { m, pw, mainTop, mainH, errTop, errH, tx, yInfo, eInfo, cross };
  els.legendErr.textContent = { rel: 'relative', abs: 'absolute', ulp: 'ulp' }[plot.err] + ' error';
}
