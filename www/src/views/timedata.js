// @ts-check
// Time per document: a NEFF's estimate (the 'estimated' call, from the NEFF alone), the device
// profile paired with it and its measurement (the 'measured' call, joined to the NEFF), or a
// profile opened alone. The time lanes (views/lanes.js) draw them; the listing's duration
// column, the source pane's lines by time and the overview's measured line read an
// instruction's times through timesFor. Not a view: it holds what the calls answered, and
// says when that changed (onTimes).

import { call } from '../core/client.js';
import { toast } from '../dom.js';
import { fmtPS } from '../lib/timeaxis.js';
import { modelError, relError, rowsByIndex, unpackEstimated, unpackMeasured } from '../lib/timecols.js';
import { field, state } from '../state/docs.js';
import { handleOf } from '../state/lazy.js';
import { DOC_KIND } from '../lib/vocab.gen.js';

/** @typedef {import('../state/store.js').DocState} DocState */
/** @typedef {import('../lib/timecols.js').MeasuredCore} MeasuredCore */
/** @typedef {import('../lib/timecols.js').EstimatedCore} EstimatedCore */

/**
 * What a document's time is: est (a NEFF's estimate: its cores, opcode names, the model's
 * error and limits), meas (the profile's measurement: joined to this NEFF, or of a profile
 * opened alone), profile (the NTFF document paired with this NEFF), mismatch (the coded
 * finding of a profile that did not belong: not overlaid), phase ('' nothing asked, 'lanes' a
 * big profile's engines only, 'done').
 * @typedef {object} Times
 * @property {{target: string, cores: EstimatedCore[], opnames: string[], model: any, ms: number} | null} est
 * @property {Promise<any> | null} estP
 * @property {{window: number, windowStart: string, joined: boolean, cores: MeasuredCore[], opnames: string[], summary: any, ms: number} | null} meas
 * @property {Promise<any> | null} measP
 * @property {DocState | null} profile
 * @property {any} mismatch
 * @property {string} phase
 * @property {string} error
 * @property {Map<string, any> | null} index
 * @property {((member: string, index: number) => InstrTime) | null} [fn]
 * @property {boolean} [pairing] a profile being paired with its NEFF (not measured alone meanwhile)
 */

/** @type {WeakMap<DocState, Times>} */
const store = new WeakMap();
/** @type {(() => void)[]} */
const listeners = [];

/**
 * onTimes runs fn whenever a document's time changed (an estimate or a measurement came).
 * @param {() => void} fn
 */
export function onTimes(fn) { listeners.push(fn); }
const changed = () => { for (const fn of listeners) fn(); };

/**
 * timesOf is document st's time (made empty on first ask).
 * @param {DocState} st
 * @returns {Times}
 */
export function timesOf(st) {
  let t = store.get(st);
  if (!t) { t = { est: null, estP: null, meas: null, measP: null, profile: null, mismatch: null, phase: '', error: '', index: null }; store.set(st, t); }
  return t;
}

const isNTFF = (st) => !!st && st.doc.kind === DOC_KIND.NTFF;
const isNEFF = (st) => !!st && st.doc.kind === DOC_KIND.NEFF;
export { isNTFF, isNEFF };

/**
 * loadEstimate asks the core for NEFF st's estimate (once).
 * @param {DocState} st
 */
export function loadEstimate(st) {
  const t = timesOf(st);
  if (t.est || t.estP || !isNEFF(st)) return t.estP || Promise.resolve(t.est);
  t.estP = handleOf(st).then((h) => call('estimated', { handle: h })).then((r) => {
    t.est = { target: r.target, cores: r.cores.map(unpackEstimated), opnames: r.opcodes, model: JSON.parse(new TextDecoder().decode(r.model)), ms: r.ms };
    t.index = null;
    changed();
    return t.est;
  }, (e) => { t.estP = null; t.error = e.message || String(e); changed(); throw e; });
  return t.estP;
}

/**
 * loadMeasured asks the core for st's measurement: a profile opened alone (st an NTFF), or the
 * profile paired with NEFF st joined to it. A big profile's engine lanes show first (the
 * call's 'lanes' event: phase 'lanes').
 * @param {DocState} st
 */
export function loadMeasured(st) {
  const t = timesOf(st);
  if (t.meas && t.phase === 'done') return Promise.resolve(t.meas);
  if (t.measP) return t.measP;
  const prof = isNTFF(st) ? st : t.profile;
  if (!prof) return Promise.resolve(null);
  t.measP = (async () => {
    const ph = await handleOf(prof);
    const args = isNTFF(st) ? { handle: ph } : { handle: ph, neff: await handleOf(st) };
    const r = await call('measured', args, {
      onEvent: (ev, d) => {
        if (ev !== 'lanes' || t.phase === 'done') return;
        t.meas = { window: d.window, windowStart: d.windowStart, joined: d.joined, cores: d.cores.map(unpackMeasured), opnames: d.opcodes, summary: null, ms: d.ms };
        t.phase = 'lanes';
        t.index = null;
        changed();
      },
    });
    const summary = JSON.parse(new TextDecoder().decode(r.summary));
    t.meas = { window: r.window, windowStart: r.windowStart, joined: r.joined, cores: r.cores.map(unpackMeasured), opnames: r.opcodes, summary, ms: r.ms };
    if (r.estimated && !t.est) t.est = { target: '', cores: r.estimated.map(unpackEstimated), opnames: r.opcodes, model: null, ms: 0 };
    t.phase = 'done';
    t.index = null;
    changed();
    return t.meas;
  })();
  t.measP.catch((e) => { t.measP = null; t.error = e.message || String(e); changed(); });
  return t.measP;
}

/**
 * uuidOf is a document's NEFF UUID: a NEFF's own, or the one a profile was captured from
 * (lower case, '' when it names none).
 * @param {DocState} st
 */
export function uuidOf(st) {
  const n = isNTFF(st) ? field(st.doc, 'header', 'neff_uuid') : field(st.doc, 'header', 'uuid');
  const v = n && typeof n.value === 'string' ? n.value : '';
  const m = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i.exec(v);
  return m ? m[0].toLowerCase() : '';
}

/**
 * pair joins profile prof to NEFF neff: its measurement is asked joined; when the profile was
 * captured from another NEFF the core joins nothing and says so with its coded finding
 * (ntff.uuid-mismatch), which the NEFF keeps as its mismatch, and nothing is overlaid.
 * @param {DocState} neff
 * @param {DocState} prof
 * @returns {Promise<{joined: boolean, finding: any}>}
 */
export async function pair(neff, prof) {
  const t = timesOf(neff);
  t.profile = prof;
  t.meas = null;
  t.measP = null;
  t.phase = '';
  t.mismatch = null;
  changed();
  const m = await loadMeasured(neff);
  if (m && m.joined) return { joined: true, finding: null };
  const finding = m && m.summary ? (m.summary.findings || []).find((f) => f.code === 'ntff.uuid-mismatch') || null : null;
  t.profile = null;
  t.meas = null;
  t.phase = '';
  t.mismatch = finding || { code: 'ntff.uuid-mismatch', severity: 'error', message: prof.doc.file + ' could not be joined to ' + neff.doc.file };
  t.index = null;
  changed();
  toast(t.mismatch.code + ': ' + t.mismatch.message);
  return { joined: false, finding: t.mismatch };
}

// ---- an instruction's times, by its stream member and index ----

/**
 * indexOf maps each stream member of st's time to where its rows are: the measured core and
 * engine with each instruction's row, the estimated core and engine.
 * @param {Times} t
 */
function indexOf(t) {
  if (t.index) return t.index;
  const ix = new Map();
  const put = (member) => { let x = ix.get(member); if (!x) { x = {}; ix.set(member, x); } return x; };
  if (t.meas && t.meas.joined) {
    t.meas.cores.forEach((c, k) => c.members.forEach((m, e) => { if (m) Object.assign(put(m), { mk: k, me: e, rows: rowsByIndex(c, e, c.instructions[e]) }); }));
  }
  if (t.est) t.est.cores.forEach((c, k) => c.members.forEach((m, e) => { if (m) Object.assign(put(m), { ek: k, ee: e }); }));
  t.index = ix;
  return ix;
}

/**
 * Where an instruction ran: measured [start, end] (ps from the window's start) and estimated
 * [start, end] (ps from its core's start), either null; profiled says its stream is measured
 * (an instruction of it without a row ran as no timed word).
 * @typedef {{meas: [number, number] | null, est: [number, number] | null, waited: {reason: number, ps: number, engine: string, index: number, queue: string} | null, profiled: boolean}} InstrTime
 */

/**
 * timesFor is a function giving an instruction's times in NEFF st (null when st has no time).
 * @param {DocState | null} st
 * @returns {((member: string, index: number) => InstrTime) | null}
 */
export function timesFor(st) {
  const t = st && store.get(st);
  if (!t || (!t.est && !(t.meas && t.meas.joined))) return null;
  // One function per state of the data (its callers key their caches by it).
  if (!t.index) t.fn = null;
  if (t.fn) return t.fn;
  const ix = indexOf(t);
  t.fn = (member, index) => {
    const x = ix.get(member);
    /** @type {InstrTime} */
    const out = { meas: null, est: null, waited: null, profiled: !!(x && x.rows) };
    if (!x) return out;
    if (x.rows && t.meas) {
      const r = index >= 0 && index < x.rows.length ? x.rows[index] : -1;
      const c = t.meas.cores[x.mk];
      if (r >= 0) out.meas = [c.start[r], c.end[r]];
    }
    if (x.ee !== undefined && t.est) {
      const c = t.est.cores[x.ek];
      if (index >= 0 && index < c.lens[x.ee]) {
        const r = c.off[x.ee] + index;
        if (c.start[r] >= 0) out.est = [c.start[r], c.end[r]];
        const pe = c.producerEngine[r];
        out.waited = { reason: c.reason[r], ps: c.waited[r], engine: pe >= 0 ? c.engines[pe] : '', index: c.producerIndex[r], queue: c.queue[r] >= 0 ? c.queues[c.queue[r]] : '' };
      }
    }
    return out;
  };
  return t.fn;
}

/**
 * durationText says an instruction's duration, measured when there is a profile (with the
 * estimate's error against it in the title), else estimated; every estimate in the title
 * with the model's measured error and limits (lib/timecols.js modelError).
 * @param {InstrTime} x
 * @param {import('../lib/timecols.js').ModelInfo} [model] the estimate's model (its error)
 * @returns {{text: string, ps: number, title: string, estimated: boolean}}
 */
export function durationText(x, model) {
  const m = x.meas ? x.meas[1] - x.meas[0] : NaN;
  const e = x.est ? x.est[1] - x.est[0] : NaN;
  if (Number.isFinite(m)) {
    const err = relError(e, m);
    return { text: fmtPS(m, 4), ps: m, estimated: false, title: 'measured ' + fmtPS(m) + (Number.isFinite(e) ? ' · estimated ' + fmtPS(e) + (Number.isFinite(err) ? ' (' + (err >= 0 ? '+' : '') + (100 * err).toFixed(1) + ' % against this profile)' : '') + '\n' + modelError(model) : '') };
  }
  if (x.profiled) return { text: '·', ps: NaN, estimated: false, title: 'no measured time: the runtime runs it as no traced word (a pseudo-instruction it drops or lowers), or its words have no records' };
  if (Number.isFinite(e)) return { text: '≈' + fmtPS(e, 4), ps: e, estimated: true, title: 'estimated ' + fmtPS(e) + ' (no profile: the cost model\'s, from the NEFF alone)\n' + modelError(model) };
  return { text: '', ps: NaN, estimated: false, title: '' };
}

/** timesNow is the time of the document on show (null when it has none yet). */
export const timesNow = () => (state ? store.get(state) || null : null);
