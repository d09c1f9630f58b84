// @ts-check
// Time beside the other views: the overview's line "measured 359.87 µs · PE busy 11 % · DMA
// 36 GB/s" (or the estimate, with its error) whose figures open the lanes where they come
// from; the listing's duration column with its hottest rows; the source pane's kernel lines
// coloured and sorted by time. Each view has a hook (overview.js overviewTime, listing.js
// timeColumn, sourcepane.js lineTime) that this fills from views/timedata.js.

import { el } from '../dom.js';
import { fmtInt } from '../lib/format.js';
import { fmtPS } from '../lib/timeaxis.js';
import { dmaRate, fmtPct, lineTimes, mainCore, modelError, relError } from '../lib/timecols.js';
import { lineWords } from '../lib/words.js';
import { state } from '../state/docs.js';
import { lanesFocus } from './lanes.js';
import { instructionAt, timeColumn } from './listing.js';
import { overviewHot } from './hotlines.js';
import { overviewTime } from './overview.js';
import { sourceNode } from './source.js';
import { lineTime, sourcePaneTimes } from './sourcepane.js';
import { durationText, isNEFF, loadEstimate, onTimes, timesFor, timesNow } from './timedata.js';

const AUTO_BYTES = 8 << 20; // a NEFF up to this size is estimated when its overview shows (as the sync card's model)
const HOT = 10; // the listing marks this many longest instructions of a stream

/** timeHooksInit fills the views' hooks. */
export function timeHooksInit() {
  overviewTime.of = overviewLine;
  overviewHot.of = hotLines;
  timeColumn.of = column;
  lineTime.of = lineOf;
  onTimes(sourcePaneTimes);
}

// ---- the overview's line ----

// link is one of the line's figures: a button to what makes it, its figures as data (ps, bytes).
function link(text, title, fn, key, data = {}) {
  const b = el('button', 'ov-link ov-time-link', text);
  /** @type {HTMLButtonElement} */ (b).type = 'button';
  b.title = title;
  b.dataset.time = key;
  for (const [k, v] of Object.entries(data)) b.dataset[k] = String(v);
  b.addEventListener('click', fn);
  return b;
}

/**
 * overviewLine is the overview's time line for the document on show (null: none): the
 * measurement of its profile, else its estimate with the model's error.
 * @returns {HTMLElement | null}
 */
function overviewLine() {
  if (!isNEFF(state)) return null;
  const t = timesNow();
  const p = el('p', 'ov-time');
  p.id = 'ov-time';
  const sep = () => p.appendChild(document.createTextNode(' · '));
  if (t && t.meas && t.meas.joined && t.phase === 'done') {
    const m = t.meas;
    const k = mainCore(m.cores);
    const c = m.cores[k];
    p.dataset.state = 'measured';
    p.appendChild(link('measured ' + fmtPS(m.window), 'The profile\'s execution window (' + (t.profile ? t.profile.doc.file : '') + '): the time lanes in real time', () => lanesFocus('window'), 'window', { ps: m.window }));
    const pe = c.engines.indexOf('PE');
    if (pe >= 0) { sep(); p.appendChild(link('PE busy ' + Math.round(100 * c.busy[pe] / m.window) + ' %', c.core + ' PE: ' + fmtPS(c.busy[pe]) + ' busy (the union of its instructions\' words) in the ' + fmtPS(m.window) + ' window: its lane', () => lanesFocus('engine:PE'), 'pe', { core: c.core, busyPs: c.busy[pe], ps: m.window })); }
    const r = dmaRate(c);
    if (r.bytes) { sep(); p.appendChild(link('DMA ' + Math.round(r.gbps) + ' GB/s', c.core + ': ' + fmtInt(r.bytes) + ' B over ' + fmtPS(r.busy) + ' of DMA busy time (the union of its queues\' busy stretches): its DMA lanes', () => lanesFocus('dma'), 'dma', { core: c.core, bytes: r.bytes, busyPs: r.busy })); }
    const ec = t.est && t.est.cores.find((x) => x.core === c.core);
    if (ec) {
      sep();
      p.appendChild(link('estimated ' + fmtPS(ec.span) + ' (' + fmtPct(relError(ec.span, programSpan(c))) + ')', 'The cost model\'s span of ' + c.core + ' from the NEFF alone, against the measured span of its instructions: measured and estimated lanes side by side', () => lanesFocus('window'), 'estimated', { core: c.core, ps: ec.span, error: relError(ec.span, programSpan(c)) }));
      modelNote(p, t.est.model);
    }
    return p;
  }
  if (t && t.mismatch) {
    p.dataset.state = 'mismatch';
    p.classList.add('bad');
    p.appendChild(el('span', 'sev', t.mismatch.code));
    p.appendChild(document.createTextNode(' ' + t.mismatch.message));
    return p;
  }
  if (t && (t.profile || t.phase === 'lanes')) { p.dataset.state = 'measuring'; p.appendChild(el('span', 'muted', 'measuring the profile…')); return p; }
  if (t && t.est) {
    const e = t.est;
    const k = mainCore(e.cores);
    const er = e.model && e.model.error;
    p.dataset.state = 'estimated';
    p.appendChild(link('estimated ' + fmtPS(e.cores[k].span), 'The cost model\'s span of ' + e.cores[k].core + ', from the NEFF alone: the time lanes in estimated time', () => lanesFocus('window'), 'estimated', { core: e.cores[k].core, ps: e.cores[k].span }));
    modelNote(p, e.model);
    sep();
    p.appendChild(el('span', 'muted', 'drop its profile (.ntff) to measure'));
    return p;
  }
  p.dataset.state = 'none';
  p.appendChild(link('Time (estimated)', 'Estimate when every instruction runs from the NEFF alone (the cost model), or drop its device profile (.ntff) to see it measured', () => lanesFocus('window'), 'estimate'));
  if (state && (state.doc.size || 0) <= AUTO_BYTES && (!t || !t.error)) setTimeout(() => { if (isNEFF(state)) loadEstimate(state).catch(() => {}); }, 0);
  return p;
}

// modelNote says beside an estimate its measured error (± and on which kernels) and what the
// model does not cover (the whole list in its title).
function modelNote(p, model) {
  const er = model && model.error;
  if (!er) return;
  const on = er.validated_on || [];
  const x = el('span', 'muted ov-time-error', ' ±' + Math.round(100 * er.span) + ' % span (leave-one-out on ' + on.length + ' profiled kernels) · not modelled: collectives, HBM contention, …');
  x.title = 'Validated on ' + on.join(', ') + '. Not modelled: ' + (model.not_covered || []).join('; ');
  Object.assign(x.dataset, { validated: String(on.length), spanError: String(er.span), limits: String((model.not_covered || []).length) });
  p.appendChild(x);
}

// estimateShort is the model's span error, as a note beside estimated times ("≈ est. ±11 %").
function estimateShort() {
  const t = timesNow();
  const er = t && t.est && t.est.model && t.est.model.error;
  return '≈ estimated' + (er ? ' ±' + Math.round(100 * er.span) + ' %' : '');
}

// estimateNote is the model's measured error in words, for an estimate shown without a profile.
function estimateNote() {
  const t = timesNow();
  return 'Estimated by the cost model, from the NEFF alone. ' + modelError(t && t.est ? t.est.model : null);
}

function programSpan(c) {
  let a = Infinity, b = -Infinity;
  for (let r = 0; r < c.start.length; r++) { a = Math.min(a, c.start[r]); b = Math.max(b, c.end[r]); }
  return b > a ? b - a : 0;
}

// ---- the listing's duration column ----

/** per document's time function (timesFor's, one per state of the data): per member, its durations' largest and the HOT-th largest */
const stats = new WeakMap();

function statsOf(fn, member, n) {
  let m = stats.get(fn);
  if (!m) { m = new Map(); stats.set(fn, m); }
  let s = m.get(member);
  if (s) return s;
  const d = [];
  for (let i = 0; i < n; i++) { const x = durationText(fn(member, i)); if (Number.isFinite(x.ps)) d.push({ i, ps: x.ps }); }
  d.sort((a, b) => b.ps - a.ps);
  s = { max: d.length ? d[0].ps : 0, hotMin: d.length ? d[Math.min(HOT, d.length) - 1].ps : Infinity, hottest: d.slice(0, HOT).map((x) => x.i), next: 0 };
  m.set(member, s);
  return s;
}

/**
 * column is the duration column of stream member (null when the document has no time): each
 * row's duration, its heat against the stream's longest, whether it is among the HOT longest.
 * @param {string} member
 * @param {number} total rows of the stream
 */
function column(member, total) {
  const fn = timesFor(state);
  if (!fn) return null;
  const s = statsOf(fn, member, total);
  if (!s.max) return null;
  const t = timesNow();
  const measured = !!(t && t.meas && t.meas.joined);
  const er = t && t.est && t.est.model && t.est.model.error;
  return {
    title: measured ? 'duration' : er ? 'est. ±' + Math.round(100 * er.span) + ' %' : 'est. duration',
    kind: measured ? 'measured' : 'estimated',
    error: !measured && er ? er.span : NaN,
    head: (measured ? 'Measured' : 'Estimated (the cost model, from the NEFF alone' + (er ? ': ±' + Math.round(100 * er.span) + ' % span, busy up to ±' + Math.round(100 * Math.max(0, ...Object.values(er.busy || {}).map(Number))) + ' % per engine in leave-one-out on ' + (er.validated_on || []).join(', ') : '') + ')') + ' duration (the heat bar: against the longest of this stream). Click: the next of its ' + s.hottest.length + ' longest instructions',
    next: () => { const i = s.hottest[s.next++ % s.hottest.length]; if (i !== undefined) instructionAt(member, i); },
    cell: (i) => {
      const x = durationText(fn(member, i), t && t.est ? t.est.model : null);
      return { text: x.text, heat: Number.isFinite(x.ps) ? x.ps / s.max : 0, hot: x.ps >= s.hotMin, title: x.title };
    },
  };
}

// ---- the source pane's kernel lines by time ----

/** @type {any} the lines ranked for one time function and one list of lines */
let lineCache = null;

// rankLines ranks lines by their time under fn (measured when the document's profile is
// joined, else estimated), once per time function and list of lines: lineCache.
function rankLines(fn, lines) {
  if (lineCache && lineCache.fn === fn && lineCache.lines === lines) return lineCache;
  const t = timesNow();
  const measured = !!(t && t.meas && t.meas.joined);
  const dur = (m, i) => { const x = fn(m, i); const r = measured ? x.meas : x.est; return r ? r[1] - r[0] : NaN; };
  const ranked = lineTimes(lines, lineWords, dur);
  const by = new Map();
  ranked.forEach((r, rank) => by.set(r.line, { ps: r.ps, rank, timed: r.timed, words: r.words }));
  lineCache = { fn, by, lines, ranked, dur, max: ranked.length ? ranked[0].ps : 0, measured };
  return lineCache;
}

/**
 * lineOf is a kernel line's time (null when the document has none): the sum of its
 * instructions' durations, measured when there is a profile, else estimated; its heat against
 * the hottest line and its rank.
 * @param {import('../wire.js').Node} line
 * @param {import('../wire.js').Node[]} lines every kernel line of the document
 */
function lineOf(line, lines) {
  const fn = timesFor(state);
  if (!fn) return null;
  rankLines(fn, lines);
  const x = lineCache.by.get(line);
  if (!x || !lineCache.max) return null;
  return { ps: x.ps, rank: x.rank, heat: x.ps / lineCache.max, text: fmtPS(x.ps), measured: lineCache.measured, note: lineCache.measured ? '' : estimateNote(), short: lineCache.measured ? '' : estimateShort(), title: (lineCache.measured ? 'measured ' : 'estimated ') + fmtPS(x.ps) + ': the sum of its ' + fmtInt(x.timed) + ' timed instructions\' durations (of ' + fmtInt(x.words) + ')' };
}

// ---- the overview's hottest lines by time ----

const HOT_LINES = 5; // the overview's hottest lines: as many as the core's (by instruction count)

// engineOf names the engine of each stream member of the document's time (the estimate's
// cores, else the measurement's).
function engineOf(t) {
  const m = new Map();
  for (const d of [t && t.meas, t && t.est]) for (const c of (d && d.cores) || []) c.members.forEach((mem, e) => { if (mem) m.set(mem, c.engines[e]); });
  return m;
}

/**
 * hotLines is the overview's hottest kernel lines by time (null while the document has no
 * time, or no kernel lines): measured when its profile is joined, else estimated (with the
 * model's error), as the source pane's "by time" and `timeline`'s "kernel lines by measured
 * time" count them: the sum of each line's instructions' durations, per engine too.
 * @returns {import('./hotlines.js').HotByTime | null}
 */
function hotLines() {
  const fn = timesFor(state);
  const src = sourceNode();
  const node = src && (src.kids || []).find((c) => c.key === 'lines');
  const lines = (node && node.kids) || [];
  if (!fn || !src || !lines.length) return null;
  const r = rankLines(fn, lines);
  if (!r.max) return null;
  const engines = engineOf(timesNow());
  const rows = r.ranked.slice(0, HOT_LINES).filter((x) => x.ps > 0).map((x) => {
    const per = new Map();
    for (const w of lineWords(x.line)) {
      const d = r.dur(w.member, w.index);
      if (!Number.isFinite(d)) continue;
      const e = engines.get(w.member) || '?';
      per.set(e, (per.get(e) || 0) + d);
    }
    const a = x.line.attrs || {};
    return {
      name: x.line.key || '', file: a.file || '', kernel: a.kernel || '', ps: x.ps, timed: x.timed, words: x.words,
      link: 'model/' + encodeURIComponent(src.key || 'source') + '/lines/' + encodeURIComponent(x.line.key || ''),
      engines: Array.from(per).sort((p, q) => q[1] - p[1]),
    };
  });
  const t = timesNow();
  const er = t && t.est && t.est.model && t.est.model.error;
  const short = r.measured ? '' : er ? '±' + Math.round(100 * er.span) + ' % span, leave-one-out' : 'its error not known';
  return { measured: r.measured, rows, lines: lines.length, note: r.measured ? '' : estimateNote(), short };
}
