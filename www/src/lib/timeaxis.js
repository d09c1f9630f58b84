// @ts-check
// Time in picoseconds as people read it (ps, ns, µs, ms, s) and a ruler's ticks in it. Pure:
// the time lanes (views/lanes.js), the overview's measured line and the listing's duration
// column format with it.

import { niceTicks } from './ticks.js';

const UNITS = [
  { name: 'ps', div: 1 },
  { name: 'ns', div: 1e3 },
  { name: 'µs', div: 1e6 },
  { name: 'ms', div: 1e9 },
  { name: 's', div: 1e12 },
];

/**
 * unitOf is the unit a span of ps reads best in (the largest in which it is at least 1).
 * @param {number} ps
 */
export function unitOf(ps) {
  const a = Math.abs(ps);
  let u = UNITS[0];
  for (const x of UNITS) if (a >= x.div) u = x;
  return u;
}

/**
 * fmtPS writes a time in ps with its unit and digits significant figures at most
 * ("359.87 µs", "1.283 µs", "720 ns", "0 ps").
 * @param {number} ps
 * @param {number} [digits]
 */
export function fmtPS(ps, digits = 5) {
  if (!Number.isFinite(ps)) return '–';
  if (ps === 0) return '0 ps';
  const u = unitOf(ps);
  const v = ps / u.div;
  const whole = Math.floor(Math.log10(Math.abs(v))) + 1;
  const dec = Math.max(0, Math.min(3, digits - whole));
  return trim(v.toFixed(dec)) + ' ' + u.name;
}

// trim drops the zeros a fixed-point number ends with after its point ("1.50" → "1.5").
const trim = (s) => (s.includes('.') ? s.replace(/\.?0+$/, '') : s);

/**
 * timeTicks gives a ruler's ticks over [a, b] ps, about count of them, labelled in the unit of
 * the largest of them, with as many decimals as the step between them needs ("1.2025 µs"); a
 * step too fine for that unit (more than 6 decimals) labels in the step's own unit.
 * @param {number} a
 * @param {number} b
 * @param {number} count
 * @returns {{t: number, label: string}[]}
 */
export function timeTicks(a, b, count) {
  const ts = niceTicks(a, b, count);
  if (ts.length < 2) return ts.map((t) => ({ t, label: fmtPS(t) }));
  const step = ts[1] - ts[0];
  let u = unitOf(Math.max(Math.abs(ts[0]), Math.abs(ts[ts.length - 1])));
  let dec = decimals(step / u.div);
  if (dec > 6) { u = unitOf(step); dec = decimals(step / u.div); }
  return ts.map((t) => ({ t, label: trim((t / u.div).toFixed(dec)) + ' ' + u.name }));
}

// decimals is how many decimals write a step of niceTicks (1, 2, 2.5 or 5 × 10^k) exactly.
function decimals(v) {
  const e = Math.floor(Math.log10(v) + 1e-9);
  const m = v / 10 ** e;
  return Math.max(0, -e + (Math.abs(m - 2.5) < 1e-6 ? 1 : 0));
}
