// @ts-check
// The time lanes' columns (the core's 'measured' and 'estimated' calls, wasm/measured.go and
// wasm/estimated.go) typed, and the figures the page derives from them: an instruction's
// measured and estimated time by its index, a core's DMA rate, kernel lines by time. Pure:
// views/lanes.js draws, the listing, the source pane and the overview read these.

/**
 * One engine's rows of a core, in columns concatenated in engine order.
 * @typedef {object} TimeCore
 * @property {string} core
 * @property {string[]} engines
 * @property {string[]} members each engine's NEFF stream member ('' for a profile alone)
 * @property {Int32Array} lens rows per engine
 * @property {number[]} off each engine's first row
 * @property {Int32Array} index per row: the instruction (or image word)
 * @property {Float64Array} start per row, ps (measured: from the window's start; estimated: from the core's start; -1 never runs)
 * @property {Float64Array} end
 * @property {Uint8Array} ops per row: its opcode
 * @property {Float64Array} busy per engine, ps
 */

/**
 * A measured core: TimeCore plus the runtime's words, the DMA queues, the engines' counts.
 * @typedef {TimeCore & {neuronCore: number, instructions: Int32Array, runtime: {lens: Int32Array, off: number[], index: Int32Array, start: Float64Array, end: Float64Array}, queues: {name: string, packets: number, bytes: number, busy: number, gbps: number, segments: Float64Array}[]}} MeasuredCore
 */

/**
 * An estimated core: TimeCore (a row per instruction: index is the row) plus why each
 * instruction started when it did, the critical path, what the model left out.
 * @typedef {TimeCore & {span: number, reason: Int32Array, producerEngine: Int32Array, producerIndex: Int32Array, queue: Int32Array, queues: string[], waited: Float64Array, critical: {engine: Int32Array, index: Int32Array}, summary: {unmodelled: any, idle: any[][]}}} EstimatedCore
 */

/** Why an estimated instruction started when it did (the reason column). */
export const REASONS = ['none', 'engine', 'semaphore', 'dma'];

function offsets(lens) {
  const off = [];
  let o = 0;
  for (let e = 0; e < lens.length; e++) { off.push(o); o += lens[e]; }
  return off;
}

const f64 = (b) => new Float64Array(b || new ArrayBuffer(0));
const i32 = (b) => new Int32Array(b || new ArrayBuffer(0));
const u8 = (b) => new Uint8Array(b || new ArrayBuffer(0));
const text = new TextDecoder();
const json = (b) => (b && b.byteLength ? JSON.parse(text.decode(b)) : null);

/**
 * unpackMeasured types one core of the measured call.
 * @param {any} c
 * @returns {MeasuredCore}
 */
export function unpackMeasured(c) {
  const lens = i32(c.lens);
  const rlens = i32(c.runtimeLens);
  return {
    core: c.core, neuronCore: c.neuronCore, engines: c.engines, members: c.members, lens, off: offsets(lens),
    instructions: i32(c.instructions), index: i32(c.index), start: f64(c.start), end: f64(c.end), ops: u8(c.ops), busy: f64(c.busy),
    runtime: { lens: rlens, off: offsets(rlens), index: i32(c.runtimeIndex), start: f64(c.runtimeStart), end: f64(c.runtimeEnd) },
    queues: (c.queues || []).map((q) => ({ name: q.name, packets: q.packets, bytes: q.bytes, busy: q.busy, gbps: q.gbps, segments: f64(q.segments) })),
  };
}

/**
 * unpackEstimated types one core of the estimated call (a row per instruction).
 * @param {any} c
 * @returns {EstimatedCore}
 */
export function unpackEstimated(c) {
  const lens = i32(c.lens);
  const off = offsets(lens);
  const index = new Int32Array(lens.reduce((a, n) => a + n, 0));
  for (let e = 0; e < lens.length; e++) for (let i = 0; i < lens[e]; i++) index[off[e] + i] = i;
  return {
    core: c.core, span: c.span, engines: c.engines, members: c.members, lens, off, index, start: f64(c.start), end: f64(c.end), ops: u8(c.ops), busy: f64(c.busy),
    reason: i32(c.reason), producerEngine: i32(c.producerEngine), producerIndex: i32(c.producerIndex), queue: i32(c.queue), queues: c.queues || [],
    waited: f64(c.waited), critical: { engine: i32(c.criticalEngine), index: i32(c.criticalIndex) }, summary: json(c.summary) || { unmodelled: {}, idle: [] },
  };
}

/**
 * rowsByIndex maps each instruction of engine e to its row (-1: none), for a core whose rows
 * name instructions by index (a measured core: untimed instructions have no row).
 * @param {TimeCore} c
 * @param {number} e
 * @param {number} n instructions of the engine
 * @returns {Int32Array}
 */
export function rowsByIndex(c, e, n) {
  const out = new Int32Array(Math.max(0, n)).fill(-1);
  for (let r = c.off[e]; r < c.off[e] + c.lens[e]; r++) {
    const i = c.index[r];
    if (i >= 0 && i < out.length) out[i] = r;
  }
  return out;
}

/**
 * union is the length of the union of intervals given as [start, end] pairs, in any order.
 * @param {Float64Array | number[]} pairs
 */
export function union(pairs) {
  const n = pairs.length >> 1;
  const ix = Array.from({ length: n }, (_, k) => k).sort((a, b) => pairs[2 * a] - pairs[2 * b]);
  let total = 0, a = -Infinity, b = -Infinity;
  for (const k of ix) {
    const s = pairs[2 * k], e = pairs[2 * k + 1];
    if (s > b) { if (b > a) total += b - a; a = s; b = e; } else if (e > b) b = e;
  }
  if (b > a) total += b - a;
  return total;
}

/**
 * dmaRate is a core's DMA traffic: its queues' bytes over the union of their busy stretches
 * (ps), in GB/s (bytes per ns).
 * @param {MeasuredCore} c
 * @returns {{bytes: number, busy: number, gbps: number}}
 */
export function dmaRate(c) {
  const all = [];
  let bytes = 0;
  for (const q of c.queues) { bytes += q.bytes; for (const x of q.segments) all.push(x); }
  const busy = union(all);
  return { bytes, busy, gbps: busy > 0 ? (bytes / busy) * 1000 : 0 };
}

/**
 * mainCore is the core that kept its engines busiest (sg00 on every real profile).
 * @param {TimeCore[]} cores
 */
export function mainCore(cores) {
  let best = 0, most = -1;
  cores.forEach((c, k) => { const b = c.busy.reduce((a, x) => a + x, 0); if (b > most) { most = b; best = k; } });
  return best;
}

/**
 * lineTimes sums each kernel line's instructions' durations (as the core's timeline --json
 * ranks them: pipelined instructions each count whole): lines are [{key, words: [{member,
 * index}]}], durationOf(member, index) is an instruction's duration in ps (NaN: none).
 * @template {{key?: string}} L
 * @param {L[]} lines
 * @param {(l: L) => {member: string, index: number}[]} wordsOf
 * @param {(member: string, index: number) => number} durationOf
 * @returns {{line: L, ps: number, timed: number, words: number}[]} most first
 */
export function lineTimes(lines, wordsOf, durationOf) {
  const out = lines.map((line) => {
    let ps = 0, timed = 0;
    const ws = wordsOf(line);
    for (const w of ws) {
      const d = durationOf(w.member, w.index);
      if (Number.isFinite(d)) { ps += d; timed++; }
    }
    return { line, ps, timed, words: ws.length };
  });
  const key = (x) => x.line.key || '';
  return out.sort((a, b) => b.ps - a.ps || (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
}

/**
 * relError is (estimate − measured) / measured, NaN when there is no measurement.
 * @param {number} est
 * @param {number} meas
 */
export const relError = (est, meas) => (meas > 0 && Number.isFinite(est) ? (est - meas) / meas : NaN);

/**
 * fmtPct writes a fraction as a signed percentage ("+2.3 %", "−7.3 %").
 * @param {number} f
 */
export function fmtPct(f) {
  if (!Number.isFinite(f)) return '–';
  const v = Math.abs(f * 100);
  return (f < 0 ? '−' : '+') + (v >= 10 ? v.toFixed(0) : v.toFixed(1)) + ' %';
}

/**
 * The cost model's figures as the estimated call gives them (core/timeline ModelInfo): its
 * measured error (span, busy per engine, waits blamed on the right producer; leave-one-out on
 * the kernels it names) and what it does not model.
 * @typedef {{error?: {span: number, busy?: Record<string, number>, attributed?: number, validated_on?: string[]}, not_covered?: string[]} | null | undefined} ModelInfo
 */

/**
 * limitHead is a limit of the model named short: its words before a gloss (" (…", ": …").
 * @param {string} s
 */
export const limitHead = (s) => s.split(/ \(|: /)[0];

/**
 * modelError says the cost model's measured error and its limits in words, for the title of
 * every estimated figure (an estimate is never shown without its error): the leave-one-out
 * error as the lanes' side panel says it, each limit by its head (the side panel says each
 * whole). engine narrows the busy error to that engine's ('' every engine's).
 * @param {ModelInfo} model
 * @param {string} [engine]
 * @returns {string}
 */
export function modelError(model, engine = '') {
  const er = model && model.error;
  const limits = ((model && model.not_covered) || []).map(limitHead);
  const not = limits.length ? 'Not modelled: ' + limits.join('; ') + '.' : '';
  if (!er) return 'The cost model\'s error is not known.' + (not ? ' ' + not : '');
  const pct = (v) => '±' + Math.round(100 * Number(v)) + ' %';
  const on = er.validated_on || [];
  const busy = Object.entries(er.busy || {}).filter(([k]) => !engine || k === engine).map(([k, v]) => k + ' ' + pct(v)).join(', ');
  return 'The cost model\'s measured error, leave-one-out on ' + on.length + ' profiled kernel' + (on.length === 1 ? '' : 's') + ': span ' + pct(er.span) +
    (busy ? ', busy ' + busy : '') + (Number.isFinite(er.attributed) ? ', waits blamed on the right producer ' + Math.round(100 * Number(er.attributed)) + ' %' : '') + '.' + (not ? ' ' + not : '');
}
