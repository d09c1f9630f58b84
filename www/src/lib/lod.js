// @ts-check
// Level of detail for lanes of slices (the schedule's steps, the time lanes' instructions and
// DMA stretches), as Perfetto draws a track: only the slices in the window are visited, and
// where several start inside one pixel column they become one box that says how many and how
// busy they keep the column. A frame then costs about the lane's slices / 64 plus a few hundred
// operations per pixel column, whatever the number of slices (10^6 pan like 10^2). Pure:
// views/lanecanvas.js and its users draw the boxes.

const BLOCK = 64; // slices per block of the block maxima (a group's reach)

/**
 * A lane: n slices sorted by start. start[i] and end[i] (end null: each slice lasts one unit, a
 * step) in any unit; order[i] is the slice's own row (null: the sorted position is the row);
 * pre[i] sums the durations of slices 0..i-1; maxEnd[i] is the largest end of slices 0..i;
 * blockEnd[b] the largest end of block b.
 * @typedef {object} Lane
 * @property {number} n
 * @property {Float64Array | Int32Array} start
 * @property {Float64Array | null} end
 * @property {Int32Array | null} order
 * @property {Float64Array} pre
 * @property {Float64Array} maxEnd
 * @property {Float64Array} blockEnd
 */

/**
 * makeLane indexes slices for drawing: sorted by start (a permutation when they are not, as a
 * pipelined engine's measured rows may not be), with the prefix sums and maxima laneBoxes
 * needs. Slices with a negative start (never run) are left out.
 * @param {Float64Array | Int32Array} start
 * @param {Float64Array | null} [end] null: every slice lasts 1
 * @returns {Lane}
 */
export function makeLane(start, end = null) {
  let n = start.length;
  let sorted = true;
  let skip = 0;
  for (let i = 0; i < n; i++) {
    if (start[i] < 0) { skip++; continue; }
    if (i > 0 && start[i] < start[i - 1]) sorted = false;
  }
  /** @type {Int32Array | null} */
  let order = null;
  let st = start;
  let en = end;
  if (!sorted || skip) {
    const ix = [];
    for (let i = 0; i < n; i++) if (start[i] >= 0) ix.push(i);
    if (!sorted) ix.sort((a, b) => start[a] - start[b] || a - b);
    order = Int32Array.from(ix);
    st = new Float64Array(ix.length);
    en = end ? new Float64Array(ix.length) : null;
    for (let k = 0; k < ix.length; k++) {
      st[k] = start[ix[k]];
      if (en && end) en[k] = end[ix[k]];
    }
    n = ix.length;
  }
  const pre = new Float64Array(n + 1);
  const maxEnd = new Float64Array(n);
  const blockEnd = new Float64Array(Math.ceil(n / BLOCK));
  let m = -Infinity;
  for (let i = 0; i < n; i++) {
    const e = en ? Math.max(en[i], st[i]) : st[i] + 1;
    pre[i + 1] = pre[i] + (e - st[i]);
    if (e > m) m = e;
    maxEnd[i] = m;
    const b = (i / BLOCK) | 0;
    if (i % BLOCK === 0 || e > blockEnd[b]) blockEnd[b] = e;
  }
  return { n, start: st, end: en, order, pre, maxEnd, blockEnd };
}

/**
 * endOf is slice i's end (sorted position).
 * @param {Lane} l
 * @param {number} i
 */
export const endOf = (l, i) => (l.end ? Math.max(l.end[i], l.start[i]) : l.start[i] + 1);

/**
 * rowOf is the row of sorted position i.
 * @param {Lane} l
 * @param {number} i
 */
export const rowOf = (l, i) => (l.order ? l.order[i] : i);

/**
 * lowerStart is the first sorted position in [lo, hi) whose start is >= t (hi when none).
 * @param {Lane} l
 * @param {number} t
 * @param {number} [lo]
 * @param {number} [hi]
 */
export function lowerStart(l, t, lo = 0, hi = l.n) {
  const s = l.start;
  while (lo < hi) {
    const m = (lo + hi) >>> 1;
    if (s[m] < t) lo = m + 1; else hi = m;
  }
  return lo;
}

/**
 * firstEnding is the first sorted position whose slice, or one before it, ends after t: every
 * slice that reaches into a window starting at t is at or after it.
 * @param {Lane} l
 * @param {number} t
 */
export function firstEnding(l, t) {
  let lo = 0, hi = l.n;
  const m = l.maxEnd;
  while (lo < hi) {
    const k = (lo + hi) >>> 1;
    if (m[k] <= t) lo = k + 1; else hi = k;
  }
  return lo;
}

/**
 * reach is the largest end of the slices at sorted positions [i, j).
 * @param {Lane} l
 * @param {number} i
 * @param {number} j
 */
export function reach(l, i, j) {
  let r = -Infinity;
  while (i < j && i % BLOCK) r = Math.max(r, endOf(l, i++));
  while (i + BLOCK <= j) { r = Math.max(r, l.blockEnd[(i / BLOCK) | 0]); i += BLOCK; }
  while (i < j) r = Math.max(r, endOf(l, i++));
  return r;
}

/**
 * Boxes: laneBoxes' output, reused frame to frame. Box b spans x0[b]..x1[b] (px), holds the
 * slices at sorted positions first[b] .. first[b] + count[b] - 1, and fill[b] (0..1) is how
 * busy they keep its first pixel column (1 for a slice of a pixel or more).
 * @typedef {{x0: Float64Array, x1: Float64Array, first: Int32Array, count: Int32Array, fill: Float64Array, n: number}} Boxes
 */

/**
 * boxes makes an output of room for cap boxes.
 * @param {number} [cap]
 * @returns {Boxes}
 */
export function boxes(cap = 4096) {
  return { x0: new Float64Array(cap), x1: new Float64Array(cap), first: new Int32Array(cap), count: new Int32Array(cap), fill: new Float64Array(cap), n: 0 };
}

function grow(out) {
  const cap = out.x0.length * 2;
  for (const k of ['x0', 'x1', 'fill']) { const a = new Float64Array(cap); a.set(out[k]); out[k] = a; }
  for (const k of ['first', 'count']) { const a = new Int32Array(cap); a.set(out[k]); out[k] = a; }
}

function push(out, x0, x1, first, count, fill) {
  if (out.n === out.x0.length) grow(out);
  const b = out.n++;
  out.x0[b] = x0; out.x1[b] = x1; out.first[b] = first; out.count[b] = count; out.fill[b] = fill;
}

/**
 * laneBoxes lays out the slices of lane l that show in the window starting at t0, k px per
 * unit, w px wide: a slice a pixel or more wide is its own box; slices that start inside one
 * pixel column are one box, as wide as the furthest of them reaches, with their count and how
 * busy they keep the column. At most about 2w boxes, whatever the number of slices.
 * @param {Lane} l
 * @param {number} t0
 * @param {number} k px per unit (> 0)
 * @param {number} w px
 * @param {Boxes} out
 * @returns {Boxes}
 */
export function laneBoxes(l, t0, k, w, out) {
  out.n = 0;
  if (!l.n || !(k > 0)) return out;
  const t1 = t0 + w / k;
  let i = firstEnding(l, t0);
  const iEnd = lowerStart(l, t1, i);
  const s = l.start;
  while (i < iEnd) {
    const x0 = (s[i] - t0) * k;
    const e = endOf(l, i);
    const x1 = (e - t0) * k;
    if (x1 - x0 >= 1) {
      push(out, x0, x1, i, 1, 1);
      i++;
      continue;
    }
    // Thin: every slice starting in this pixel column is one box.
    const col = Math.floor(x0);
    const j = lowerStart(l, t0 + (col + 1) / k, i + 1, iEnd);
    if (j === i + 1) {
      push(out, x0, Math.max(x1, x0 + 1), i, 1, (x1 - x0));
    } else {
      const busy = (l.pre[j] - l.pre[i]) * k;
      const far = (reach(l, i, j) - t0) * k;
      push(out, Math.max(col, x0), Math.max(col + 1, far), i, j - i, Math.min(1, busy));
    }
    i = j;
  }
  return out;
}

/**
 * sliceAt finds the slice under time t, or the nearest within slack units (its sorted
 * position; -1 for none). Among slices that cover t, the one that starts last.
 * @param {Lane} l
 * @param {number} t
 * @param {number} slack
 */
export function sliceAt(l, t, slack) {
  if (!l.n) return -1;
  let best = -1, bestD = Infinity;
  let i = firstEnding(l, t - slack);
  const j = lowerStart(l, t + slack, i);
  // Bounded: a column holds at most a few hundred slices near a thin hit; past that, the
  // nearest starts are enough.
  if (j - i > 512) i = j - 512;
  for (let p = i; p < j; p++) {
    const a = l.start[p], b = endOf(l, p);
    const d = t >= a && t < b ? 0 : Math.min(Math.abs(t - a), Math.abs(t - b));
    if (d <= bestD) { bestD = d; best = p; }
  }
  return bestD <= slack ? best : -1;
}
