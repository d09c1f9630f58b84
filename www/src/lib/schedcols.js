// @ts-check
// The schedule's columns (the core's 'schedule' call, wasm/sched.go) typed, and the lookups the
// schedule view and the listing's wait links make in them. Pure: views/schedule.js draws.

/**
 * @typedef {object} SchedCore one core's columns (SchedCore of the protocol, typed)
 * @property {string} core
 * @property {string[]} engines
 * @property {string[]} members
 * @property {Int32Array} lens
 * @property {Int32Array} steps
 * @property {Uint8Array} ops
 * @property {Int32Array} waits 7 per wait: engine, index, producer engine, producer index, sem, value, code
 * @property {string[]} codes
 * @property {number} total
 * @property {any[]} lints
 * @property {any[]} undecided
 * @property {number[]} off each engine's first word in steps
 * @property {number[]} run each engine's words with a step (a deadlock leaves the rest at -1)
 */

/**
 * unpackCore types a SchedCore of the protocol: Int32Array/Uint8Array views on its buffers,
 * each engine's first word (off) and how many of its words have a step (run: a deadlock
 * leaves the rest at -1).
 * @param {any} c
 * @returns {SchedCore}
 */
export function unpackCore(c) {
  const lens = new Int32Array(c.lens);
  const off = [];
  const run = [];
  const steps = new Int32Array(c.steps);
  let o = 0;
  for (let e = 0; e < lens.length; e++) {
    off.push(o);
    let n = 0;
    while (n < lens[e] && steps[o + n] >= 0) n++;
    run.push(n);
    o += lens[e];
  }
  return { core: c.core, engines: c.engines, members: c.members, lens, steps, ops: new Uint8Array(c.ops), waits: new Int32Array(c.waits), codes: c.codes, total: c.total, lints: c.lints, undecided: c.undecided, off, run };
}

/**
 * lower is the first word of engine e with a step >= s (its steps increase in program order).
 * @param {SchedCore} c
 * @param {number} e
 * @param {number} s
 */
export function lower(c, e, s) {
  let lo = 0;
  let hi = c.run[e];
  const base = c.off[e];
  while (lo < hi) {
    const m = (lo + hi) >> 1;
    if (c.steps[base + m] < s) lo = m + 1; else hi = m;
  }
  return lo;
}

// waitIndex maps each instruction (engine * 2^32 + index) to the waits it has and the waits it
// produces (offsets into c.waits), built once per core: the listing asks for every row drawn.
const waitIndexes = new WeakMap();

/**
 * @param {SchedCore} c
 * @returns {{byWaiter: Map<number, number[]>, byProducer: Map<number, number[]>}}
 */
export function waitIndex(c) {
  let ix = waitIndexes.get(c);
  if (ix) return ix;
  ix = { byWaiter: new Map(), byProducer: new Map() };
  const ws = c.waits;
  const push = (m, k, j) => { const l = m.get(k); if (l) l.push(j); else m.set(k, [j]); };
  for (let j = 0; j < ws.length; j += 7) {
    push(ix.byWaiter, ws[j] * 2 ** 32 + ws[j + 1], j);
    if (ws[j + 2] >= 0) push(ix.byProducer, ws[j + 2] * 2 ** 32 + ws[j + 3], j);
  }
  waitIndexes.set(c, ix);
  return ix;
}

