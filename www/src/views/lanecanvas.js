// @ts-check
// The lanes' canvas the schedule (in steps) and the time lanes (in picoseconds) share: rows of
// lanes beside their labels, a ruler in the lanes' unit, zoom and pan as Perfetto has them,
// and only what is visible drawn. The canvas is the size of the viewport and the rows scroll
// under it (the body scrolls a spacer as tall as every row; the canvas and the labels stick
// to its top), so 1,000 cores never pass the canvas size limit and a frame draws the rows in
// view only; within a row the owner draws the slices through lib/lod.js, a box per pixel
// column at most. Not a view: the view that makes one owns its elements (their ids are the
// view's, passed in).

import { el } from '../dom.js';
import { fmtInt } from '../lib/format.js';
import { laneBoxes } from '../lib/lod.js';
import { timeTicks } from '../lib/timeaxis.js';
import { niceTicks } from '../lib/ticks.js';

/**
 * One row: a core's head or a lane.
 * @typedef {object} Row
 * @property {'head' | 'lane'} kind
 * @property {number} h px
 * @property {string} label
 * @property {string} [title]
 * @property {Record<string, string>} [data] its label's data-* attributes
 * @property {string} [cls] its label's extra classes
 * @property {any} [of] what the owner draws in it
 */

/**
 * What a frame shows: t0 the time (or step) at the canvas's left edge, k px per unit, w and h
 * the canvas's size in px, top how far the rows are scrolled.
 * @typedef {{t0: number, k: number, w: number, h: number, top: number}} Frame
 */

/**
 * @typedef {object} LaneOpts
 * @property {string} rulerId
 * @property {string} bodyId
 * @property {string} labelsId
 * @property {string} canvasId
 * @property {string} tipId
 * @property {string} ariaLabel the canvas's accessible name (its keys)
 * @property {'step' | 'ps'} unit what the ruler counts
 * @property {number} [maxK] px per unit at the deepest zoom
 * @property {number} [labelsW] px of the labels' column
 * @property {(g: CanvasRenderingContext2D, row: Row, y: number, f: Frame, col: Colors) => void} drawRow
 * @property {(g: CanvasRenderingContext2D, f: Frame, col: Colors) => void} [drawOver]
 * @property {(row: Row, x: number, t: number, f: Frame) => any} hit what is under x in row (null: nothing)
 * @property {(hit: any) => (string | Node)[]} tip the tooltip's lines for a hit (the first is its head)
 * @property {(hit: any) => void} pick a click on a hit
 */

/** @typedef {ReturnType<typeof colors>} Colors */

/** colors reads the theme's colours (once a frame: a theme switch shows at the next). */
export function colors() {
  const cs = getComputedStyle(document.documentElement);
  const v = (n) => cs.getPropertyValue(n).trim();
  const dark = (v('--bg') || '#fff').toLowerCase() < '#4';
  return { text: v('--text'), muted: v('--muted'), border: v('--border'), panel: v('--panel'), panel2: v('--panel-2'), accent: v('--accent'), bad: v('--bad'), good: v('--good'), dark };
}

const RULER = 28;
const ZOOM_KEY = 0.0022; // per ms of a held W/S: ×2.1 a second at 60 fps, as Perfetto's
const PAN_KEY = 0.6; // px per ms of a held A/D

export class LaneCanvas {
  /**
   * @param {HTMLElement} parent where the ruler and the body go
   * @param {HTMLElement} tipParent where the tooltip goes (positioned)
   * @param {LaneOpts} o
   */
  constructor(parent, tipParent, o) {
    this.o = o;
    this.labelsW = o.labelsW || 116;
    this.maxK = o.maxK || Infinity;
    /** @type {Row[]} */
    this.rows = [];
    this.yOf = new Float64Array(1);
    this.total = 0;
    this.d0 = 0;
    this.d1 = 1;
    this.t0 = 0;
    this.k = 1;
    this.fitted = true;
    this.frame = 0;
    /** time to draw the last frame (ms), and how many frames were drawn */
    this.drawMs = 0;
    this.drawn = 0;
    /** @type {{x: number, y: number} | null} the pointer over the canvas */
    this.pointer = null;
    this.held = new Set();
    this.lastKeyT = 0;
    const ruler = this.ruler = /** @type {HTMLCanvasElement} */ (el('canvas', 'sched-ruler'));
    ruler.id = o.rulerId;
    parent.appendChild(ruler);
    const body = this.body = el('div', 'sched-body');
    body.id = o.bodyId;
    this.space = el('div', 'sched-space');
    const stick = this.stick = el('div', 'sched-stick');
    const labels = this.labels = el('div', 'sched-labels');
    labels.id = o.labelsId;
    labels.style.width = this.labelsW + 'px';
    const canvas = this.canvas = /** @type {HTMLCanvasElement} */ (el('canvas', 'sched-canvas'));
    canvas.id = o.canvasId;
    canvas.tabIndex = 0;
    canvas.setAttribute('role', 'img');
    canvas.setAttribute('aria-label', o.ariaLabel);
    stick.appendChild(labels);
    stick.appendChild(canvas);
    this.space.appendChild(stick);
    body.appendChild(this.space);
    parent.appendChild(body);
    const tip = this.tipEl = el('div', 'sched-tip');
    tip.id = o.tipId;
    tip.hidden = true;
    this.tipParent = tipParent;
    tipParent.appendChild(tip);
    this.wire();
    new ResizeObserver(() => { if (this.shown()) { if (this.fitted) this.fit(); this.redraw(); } }).observe(body);
  }

  shown() { return this.body.isConnected && this.body.offsetParent !== null; }

  /** width of the canvas (px) */
  width() { return Math.max(1, this.body.clientWidth - this.labelsW); }

  /** height of the viewport (px) */
  height() { return Math.max(1, this.body.clientHeight); }

  /**
   * setRows lays out the rows (heads and lanes) and the domain [d0, d1] the ruler spans.
   * @param {Row[]} rows
   * @param {number} d0
   * @param {number} d1
   */
  setRows(rows, d0, d1) {
    this.rows = rows;
    this.yOf = new Float64Array(rows.length + 1);
    for (let i = 0; i < rows.length; i++) this.yOf[i + 1] = this.yOf[i] + rows[i].h;
    this.total = this.yOf[rows.length];
    this.d0 = d0;
    this.d1 = Math.max(d0 + 1e-9, d1);
    this.labelsFor = -1;
  }

  /** fit shows the whole domain. */
  fit() {
    const w = this.width();
    const span = this.d1 - this.d0;
    this.fitted = true;
    this.k = Math.min(this.maxK, w / (span * 1.02));
    this.t0 = this.d0 - span * 0.01;
  }

  // clamp keeps the window inside the domain (a margin of 2 % of the window at either end):
  // a jump near the end never leaves half the canvas empty.
  clamp() {
    const w = this.width();
    const span = this.d1 - this.d0;
    this.k = Math.max(w / (span * 1.5), Math.min(this.maxK, this.k));
    const win = w / this.k;
    const m = win * 0.02;
    if (win >= span + 2 * m) this.t0 = this.d0 + span / 2 - win / 2;
    else this.t0 = Math.max(this.d0 - m, Math.min(this.d1 + m - win, this.t0));
  }

  /**
   * zoomAt zooms by factor about canvas x.
   * @param {number} factor
   * @param {number} x
   */
  zoomAt(factor, x) {
    this.fitted = false;
    const at = this.t0 + x / this.k;
    this.k *= factor;
    this.clamp();
    this.t0 = at - x / this.k;
    this.clamp();
    this.redraw();
  }

  /** @param {number} px */
  panBy(px) {
    this.fitted = false;
    this.t0 += px / this.k;
    this.redraw();
  }

  /**
   * centerOn puts time t in the middle (at least minK px a unit) and row i in view.
   * @param {number} t
   * @param {number} i
   * @param {number} [minK]
   */
  centerOn(t, i, minK = 0) {
    this.fitted = false;
    this.k = Math.max(this.k, minK);
    this.t0 = t - this.width() / 2 / this.k;
    this.clamp();
    this.scrollToRow(i);
    this.redraw();
  }

  /** @param {number} i */
  scrollToRow(i) {
    if (i < 0 || i >= this.rows.length) return;
    const y = this.yOf[i], h = this.height();
    if (y < this.body.scrollTop || y + this.rows[i].h > this.body.scrollTop + h) this.body.scrollTop = Math.max(0, y - h / 3);
  }

  /** @returns {Frame} */
  view() { return { t0: this.t0, k: this.k, w: this.width(), h: this.height(), top: this.body.scrollTop }; }

  /**
   * rowAt is the row under viewport y (-1 none).
   * @param {number} y px from the canvas's top
   */
  rowAt(y) {
    const Y = y + this.body.scrollTop;
    let lo = 0, hi = this.rows.length;
    while (lo < hi) { const m = (lo + hi) >>> 1; if (this.yOf[m + 1] <= Y) lo = m + 1; else hi = m; }
    return lo < this.rows.length && Y >= 0 ? lo : -1;
  }

  /**
   * rowY is row i's top in the viewport (px; it may be out of view).
   * @param {number} i
   */
  rowY(i) { return this.yOf[i] - this.body.scrollTop; }

  /**
   * point: where time t of row i is, in client pixels (its middle), or null off screen.
   * @param {number} i
   * @param {number} t
   */
  point(i, t) {
    if (i < 0 || i >= this.rows.length) return null;
    const x = (t - this.t0) * this.k;
    const y = this.rowY(i) + this.rows[i].h / 2;
    if (x < 0 || x > this.width() || y < 0 || y > this.height()) return null;
    const r = this.canvas.getBoundingClientRect();
    return { x: r.left + x, y: r.top + y };
  }

  redraw() {
    if (this.frame) return;
    this.frame = requestAnimationFrame((ts) => { this.frame = 0; this.step(ts); this.draw(); });
  }

  // step applies the keys held (W/S zoom, A/D pan) for the time since the last frame, and asks
  // for the next frame while one is held.
  step(ts) {
    if (!this.held.size) { this.lastKeyT = 0; return; }
    const dt = this.lastKeyT ? Math.min(50, ts - this.lastKeyT) : 16;
    this.lastKeyT = ts;
    const w = this.width();
    const x = this.pointer ? this.pointer.x : w / 2;
    const z = (this.held.has('w') ? 1 : 0) - (this.held.has('s') ? 1 : 0);
    const p = (this.held.has('d') ? 1 : 0) - (this.held.has('a') ? 1 : 0);
    this.fitted = false;
    if (z) { const at = this.t0 + x / this.k; this.k *= Math.exp(z * ZOOM_KEY * dt); this.clamp(); this.t0 = at - x / this.k; }
    if (p) this.t0 += (p * PAN_KEY * dt) / this.k;
    this.redraw();
  }

  draw() {
    if (!this.shown() || !this.rows.length) return;
    const t = performance.now();
    const w = this.width(), h = this.height();
    // The canvas sticks to the top of a spacer as tall as the rows (at least the viewport).
    if (this.stick.style.height !== h + 'px') this.stick.style.height = h + 'px';
    const tall = Math.max(this.total, h) + 'px';
    if (this.space.style.height !== tall) this.space.style.height = tall;
    this.clamp();
    const col = colors();
    const f = this.view();
    this.drawRuler(col);
    const g = sized(this.canvas, w, h);
    g.clearRect(0, 0, w, h);
    g.font = '11px system-ui, sans-serif';
    g.textBaseline = 'middle';
    // Grid lines at the ruler's ticks.
    g.strokeStyle = col.border;
    g.lineWidth = 1;
    g.beginPath();
    for (const x of this.ticks(w).map((tk) => Math.round((tk.t - f.t0) * f.k) + 0.5)) { g.moveTo(x, 0); g.lineTo(x, h); }
    g.stroke();
    let i = Math.max(0, this.rowAt(0));
    let lanes = 0;
    for (; i < this.rows.length && this.yOf[i] < f.top + h; i++) {
      const row = this.rows[i];
      const y = this.yOf[i] - f.top;
      if (row.kind === 'head') { g.fillStyle = col.panel2; g.fillRect(0, y, w, row.h); } else if (lanes++ % 2) { g.fillStyle = col.panel2; g.globalAlpha = 0.5; g.fillRect(0, y, w, row.h); g.globalAlpha = 1; }
      this.o.drawRow(g, row, y, f, col);
    }
    if (this.o.drawOver) this.o.drawOver(g, f, col);
    this.drawLabels(f);
    this.drawMs = performance.now() - t;
    this.drawn++;
    this.canvas.dataset.drawn = String(this.drawn);
    if (this.pointer) this.hover(this.pointer.x, this.pointer.y);
  }

  // ticks: the ruler's ticks in view, labelled in the lanes' unit.
  ticks(w) {
    const a = Math.max(this.d0, this.t0), b = this.t0 + w / this.k;
    const n = Math.max(2, Math.floor(w / 110));
    if (this.o.unit === 'ps') return timeTicks(a - this.d0, b - this.d0, n).map((x) => ({ t: x.t + this.d0, label: x.label }));
    return niceTicks(a, b, n).map((t) => ({ t, label: fmtInt(Math.round(t)) }));
  }

  drawRuler(col) {
    const w = this.width();
    const full = w + this.labelsW;
    const g = sized(this.ruler, full, RULER);
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
    g.fillText(this.o.unit === 'ps' ? 'time' : 'step', 8, RULER / 2);
    g.beginPath();
    for (const tk of this.ticks(w)) {
      const x = this.labelsW + Math.round((tk.t - this.t0) * this.k) + 0.5;
      if (x < this.labelsW) continue;
      g.moveTo(x, RULER - 7);
      g.lineTo(x, RULER);
      g.fillText(tk.label, x + 3, RULER / 2 - 1);
    }
    g.stroke();
    if (this.pointer) {
      g.strokeStyle = col.accent;
      g.beginPath();
      g.moveTo(this.labelsW + this.pointer.x + 0.5, 0);
      g.lineTo(this.labelsW + this.pointer.x + 0.5, RULER);
      g.stroke();
    }
  }

  // drawLabels puts the labels of the rows in view beside the canvas (a few dozen elements
  // however many rows there are).
  drawLabels(f) {
    const h = f.h;
    const first = Math.max(0, this.rowAt(0));
    const key = first + ':' + f.top + ':' + h + ':' + this.rows.length;
    if (this.labelsFor === key) return;
    this.labelsFor = key;
    const frag = document.createDocumentFragment();
    for (let i = first; i < this.rows.length && this.yOf[i] < f.top + h; i++) {
      const r = this.rows[i];
      const l = el('div', (r.kind === 'head' ? 'sched-core' : 'sched-lane-label') + (r.cls ? ' ' + r.cls : ''), r.label);
      l.style.top = (this.yOf[i] - f.top) + 'px';
      l.style.height = r.h + 'px';
      if (r.title) l.title = r.title;
      if (r.data) Object.assign(l.dataset, r.data);
      l.dataset.row = String(i);
      frag.appendChild(l);
    }
    this.labels.style.height = h + 'px';
    this.labels.replaceChildren(frag);
  }

  hitAt(x, y) {
    const i = this.rowAt(y);
    if (i < 0 || this.rows[i].kind !== 'lane') return null;
    return this.o.hit(this.rows[i], x, this.t0 + x / this.k, this.view());
  }

  // hover shows the tooltip of what is under (x, y), or hides it.
  hover(x, y) {
    const tip = this.tipEl;
    const h = this.hitAt(x, y);
    if (!h) { tip.hidden = true; return; }
    const lines = this.o.tip(h);
    tip.replaceChildren(...lines.map((t, i) => (typeof t === 'string' ? el('div', i ? '' : 'sched-tip-head', t) : t)));
    tip.hidden = false;
    const r = this.canvas.getBoundingClientRect();
    const vr = this.tipParent.getBoundingClientRect();
    const left = r.left - vr.left + x + 14;
    tip.style.left = Math.max(4, Math.min(left, vr.width - tip.offsetWidth - 8)) + 'px';
    const top = r.top - vr.top + y + 16;
    tip.style.top = (top + tip.offsetHeight > vr.height - 4 ? Math.max(4, r.top - vr.top + y - tip.offsetHeight - 8) : top) + 'px';
  }

  wire() {
    const canvas = this.canvas;
    canvas.addEventListener('wheel', (e) => {
      if (!this.rows.length) return;
      const x = e.offsetX;
      const scale = e.deltaMode === 1 ? 0.05 : 0.0025;
      if (e.ctrlKey || e.metaKey) { e.preventDefault(); this.zoomAt(Math.exp(-e.deltaY * scale), x); return; }
      if (e.shiftKey || Math.abs(e.deltaX) > Math.abs(e.deltaY)) { e.preventDefault(); this.panBy((e.shiftKey ? e.deltaY : e.deltaX) * (e.deltaMode === 1 ? 20 : 1)); return; }
      // Rows that overflow scroll (the body does it); else the wheel zooms.
      if (this.body.scrollHeight > this.body.clientHeight + 1) return;
      e.preventDefault();
      this.zoomAt(Math.exp(-e.deltaY * scale), x);
    }, { passive: false });
    this.body.addEventListener('scroll', () => { this.tipEl.hidden = true; this.redraw(); });
    let down = null;
    canvas.addEventListener('pointerdown', (e) => {
      down = { x: e.clientX, y: e.clientY, t0: this.t0, top: this.body.scrollTop, moved: false };
      canvas.setPointerCapture(e.pointerId);
    });
    canvas.addEventListener('pointermove', (e) => {
      this.pointer = { x: e.offsetX, y: e.offsetY };
      if (down) {
        const dx = e.clientX - down.x, dy = e.clientY - down.y;
        if (Math.abs(dx) > 3 || Math.abs(dy) > 3) down.moved = true;
        if (down.moved) {
          this.fitted = false;
          this.t0 = down.t0 - dx / this.k;
          this.body.scrollTop = down.top - dy;
          this.tipEl.hidden = true;
          this.redraw();
        }
        return;
      }
      this.hover(e.offsetX, e.offsetY);
      this.drawRuler(colors());
    });
    canvas.addEventListener('pointerup', (e) => {
      const d = down;
      down = null;
      if (d && !d.moved) { const h = this.hitAt(e.offsetX, e.offsetY); if (h) this.o.pick(h); }
    });
    canvas.addEventListener('pointerleave', () => { this.pointer = null; this.tipEl.hidden = true; this.drawRuler(colors()); });
    canvas.addEventListener('dblclick', () => { this.fit(); this.redraw(); });
    canvas.addEventListener('keydown', (e) => {
      if (e.ctrlKey || e.metaKey || e.altKey) return;
      const k = e.key.toLowerCase();
      const w = this.width();
      if (k === 'w' || k === 'a' || k === 's' || k === 'd') {
        e.preventDefault();
        if (!this.held.has(k)) { this.held.add(k); this.redraw(); }
        return;
      }
      switch (e.key) {
        case '+': case '=': this.zoomAt(1.5, w / 2); break;
        case '-': this.zoomAt(1 / 1.5, w / 2); break;
        case 'ArrowLeft': this.panBy(-w / 5); break;
        case 'ArrowRight': this.panBy(w / 5); break;
        case '0': case 'Home': this.fit(); this.redraw(); break;
        default: return;
      }
      e.preventDefault();
    });
    canvas.addEventListener('keyup', (e) => { this.held.delete(e.key.toLowerCase()); });
    canvas.addEventListener('blur', () => { this.held.clear(); });
  }
}

/**
 * sized sets a canvas's backing store to w × h css px at the device's pixel ratio (only when
 * it changed: a resize clears it) and returns its context in css px.
 * @param {HTMLCanvasElement} c
 * @param {number} w
 * @param {number} h
 */
export function sized(c, w, h) {
  const dpr = window.devicePixelRatio || 1;
  if (c.width !== Math.round(w * dpr) || c.height !== Math.round(h * dpr)) {
    c.width = Math.round(w * dpr);
    c.height = Math.round(h * dpr);
    c.style.width = w + 'px';
    c.style.height = h + 'px';
  }
  const g = /** @type {CanvasRenderingContext2D} */ (c.getContext('2d'));
  g.setTransform(dpr, 0, 0, dpr, 0, 0);
  return g;
}

/**
 * drawLane draws lane l's boxes in view in the band [y, y + h) of frame f: a slice a pixel or
 * more wide in its colour (with its label when there is room), the slices of one pixel column
 * as one box whose height says how busy they keep it. colorOf and labelOf take a sorted
 * position (lib/lod.js rowOf gives the slice's row).
 * @param {CanvasRenderingContext2D} g
 * @param {import('../lib/lod.js').Lane} l
 * @param {import('../lib/lod.js').Boxes} out reused from frame to frame
 * @param {number} y
 * @param {number} h
 * @param {Frame} f
 * @param {(p: number) => string} colorOf
 * @param {((p: number) => string) | null} labelOf
 * @param {Colors} col
 * @returns {import('../lib/lod.js').Boxes} the boxes drawn (for the owner's marks)
 */
export function drawLane(g, l, out, y, h, f, colorOf, labelOf, col) {
  laneBoxes(l, f.t0, f.k, f.w, out);
  let last = '';
  let labels = 0;
  for (let b = 0; b < out.n; b++) {
    const x0 = Math.max(-2, out.x0[b]), x1 = Math.min(f.w + 2, out.x1[b]);
    const c = colorOf(out.first[b]);
    if (c !== last) { g.fillStyle = c; last = c; }
    if (out.count[b] === 1 && out.fill[b] >= 1) {
      g.fillRect(x0, y, Math.max(1, x1 - x0 - (x1 - x0 > 6 ? 1 : 0)), h);
      if (labelOf && x1 - x0 > 30) labels++;
    } else {
      const hh = Math.max(2, h * (0.3 + 0.7 * Math.min(1, out.fill[b])));
      g.fillRect(x0, y + (h - hh) / 2, Math.max(1, x1 - x0), hh);
    }
  }
  if (!labels || !labelOf) return out;
  g.fillStyle = col.dark ? '#fff' : '#111';
  for (let b = 0; b < out.n; b++) {
    const x0 = Math.max(0, out.x0[b]), x1 = Math.min(f.w, out.x1[b]);
    if (out.count[b] !== 1 || x1 - x0 <= 30) continue;
    g.save();
    g.beginPath();
    g.rect(x0 + 3, y, x1 - x0 - 6, h);
    g.clip();
    g.fillText(labelOf(out.first[b]), x0 + 4, y + h / 2);
    g.restore();
  }
  return out;
}
