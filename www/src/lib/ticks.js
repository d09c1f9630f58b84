// @ts-check
// Axis ticks for the activation plot: round numbers on a linear axis, powers of ten on a log
// axis. Pure: the plot (views/plot/draw.js) maps them to pixels.

/**
 * niceTicks gives about count round numbers (1, 2, 2.5 or 5 × 10^k apart) covering [a, b].
 * @param {number} a
 * @param {number} b
 * @param {number} count
 * @returns {number[]}
 */
export function niceTicks(a, b, count) {
  const span = b - a;
  if (!(span > 0)) return [a];
  const raw = span / Math.max(1, count);
  const mag = Math.pow(10, Math.floor(Math.log10(raw)));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * mag).find((s) => s >= raw) || 10 * mag;
  const out = [];
  for (let v = Math.ceil(a / step) * step; v <= b + step * 1e-9; v += step) out.push(Math.abs(v) < step * 1e-9 ? 0 : v);
  return out;
}

/**
 * decadeRange gives the whole decades [10^a, 10^b] a log axis spans to show the positive
 * values from lo to hi (at least one decade).
 * @param {number} lo the smallest positive value
 * @param {number} hi the largest value
 * @returns {{a: number, b: number}} exponents
 */
export function decadeRange(lo, hi) {
  const a = Math.floor(Math.log10(lo));
  return { a, b: Math.max(a + 1, Math.ceil(Math.log10(hi))) };
}

/**
 * errorDecades is the error strip's range: the decade above the largest error down to the
 * smallest, but never more than 12 decades (errors of 1e-30 next to 1 would flatten the rest).
 * With no nonzero error it is [1e-1, 1].
 * @param {number} emin smallest nonzero |error| (Infinity when none)
 * @param {number} emax largest |error| (0 when none)
 * @returns {{a: number, b: number}} exponents
 */
export function errorDecades(emin, emax) {
  const b = emax > 0 ? Math.ceil(Math.log10(emax)) + 0 : 0; // + 0: no -0 exponent
  const a = emax > 0 ? Math.min(b - 1, Math.max(b - 12, Math.floor(Math.log10(emin)))) : -1;
  return { a, b };
}

/**
 * decadeTicks gives every step-th exponent from a to b so that at most about maxCount ticks
 * are drawn (and at least every decade when there is room).
 * @param {number} a
 * @param {number} b
 * @param {number} maxCount
 * @returns {number[]} exponents
 */
export function decadeTicks(a, b, maxCount) {
  const step = Math.max(1, Math.ceil((b - a) / Math.max(2, maxCount)));
  const out = [];
  for (let e = a; e <= b; e += step) out.push(e);
  return out;
}
