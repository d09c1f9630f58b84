// @ts-check
// The time lanes' side panel (views/lanes.js makes it): the selected instruction, when it ran
// measured and estimated, the error, why it waited with a link to its producer; then, beside
// every estimate, the model's measured error (± and on which kernels) and what it does not
// cover, the error against the profile on show; each engine's idle time by cause; the
// profile's checks and DMA queues. Not a view: the lanes own the panel's element.

import { el } from '../dom.js';
import { fmtInt } from '../lib/format.js';
import { fmtPS } from '../lib/timeaxis.js';
import { dmaRate, fmtPct, mainCore, relError, REASONS } from '../lib/timecols.js';
import { opColor } from './schedule.js';

/**
 * What the panel asks of the lanes.
 * @typedef {{pick: (side: 'm' | 'e', k: number, e: number, i: number) => void, describe: (side: 'm' | 'e', k: number, e: number, i: number) => string[], facts: (side: 'm' | 'e', k: number, e: number, i: number) => any, times: () => import('./timedata.js').Times | null}} PanelCtx
 */

/** @type {HTMLElement | null} */
let box = null;
/** @type {PanelCtx | null} */
let ctx = null;

/**
 * panelMount gives the panel its element and what it asks of the lanes.
 * @param {HTMLElement} el
 * @param {PanelCtx} c
 */
export function panelMount(el, c) {
  box = el;
  ctx = c;
}

/**
 * lanesPanel draws the panel for the selection (null: none).
 * @param {{side: 'm' | 'e', core: number, engine: number, index: number} | null} sel
 */
export function lanesPanel(sel) {
  if (!box || !ctx) return;
  const t = ctx.times();
  box.replaceChildren();
  if (!t) return;
  box.appendChild(selection(t, sel));
  if (t.mismatch) box.appendChild(mismatch(t.mismatch));
  if (t.est) box.appendChild(model(t));
  if (t.est) box.appendChild(idle(t, sel));
  if (t.meas && t.meas.summary) box.appendChild(profile(t));
}

function section(title, cls) {
  const s = el('section', 'lp-sec ' + cls);
  s.appendChild(el('h4', 'lp-h', title));
  return s;
}

function link(text, title, fn) {
  const b = el('button', 'ov-link lp-link', text);
  /** @type {HTMLButtonElement} */ (b).type = 'button';
  b.title = title;
  b.addEventListener('click', fn);
  return b;
}

// selection: what the selected instruction is, its times, why it waited (its producer a link).
function selection(t, sel) {
  const s = section('Selected', 'lp-sel');
  s.id = 'lanes-sel';
  if (!sel || !ctx) {
    s.appendChild(el('p', 'muted', 'Click an instruction in the lanes (or a row of the listing): when it ran, measured and estimated, and why it waited.'));
    return s;
  }
  const lines = ctx.describe(sel.side, sel.core, sel.engine, sel.index);
  // The same facts as data (what the tests read): times in ps, why it waited, its producer.
  const f = ctx.facts(sel.side, sel.core, sel.engine, sel.index);
  if (f) {
    Object.assign(s.dataset, { engine: f.engine, index: String(f.index), op: f.op, reason: f.reason });
    for (const key of ['measured', 'measuredAt', 'estimate', 'estimatedAt', 'error', 'waited']) if (Number.isFinite(f[key])) s.dataset[key] = String(f[key]);
  }
  s.appendChild(el('p', 'lp-what', lines[0] || ''));
  for (const l of lines.slice(1)) s.appendChild(el('p', 'lp-line' + (/^waited/.test(l) ? ' lp-wait' : ''), l));
  // The producer it waited on, in the estimate: a link.
  const est = t.est;
  if (est) {
    const e = sel.side === 'e' ? { k: sel.core, e: sel.engine } : estOf(t, sel.core, sel.engine);
    const c = e ? est.cores[e.k] : null;
    const r = c && e && sel.index < c.lens[e.e] ? c.off[e.e] + sel.index : -1;
    if (c && e && r >= 0 && c.producerEngine[r] >= 0) {
      const pe = c.producerEngine[r], pi = c.producerIndex[r];
      const p = el('p', 'lp-line');
      p.appendChild(document.createTextNode((REASONS[c.reason[r]] === 'dma' ? 'its transfer was triggered by ' : 'its producer: ')));
      const b = link(c.engines[pe] + ' #' + fmtInt(pi), 'Select the producer: the instruction whose semaphore update (or DMA transfer) let this one start', () => ctx && ctx.pick('e', e.k, pe, pi));
      b.classList.add('lp-producer');
      b.dataset.engine = c.engines[pe];
      b.dataset.index = String(pi);
      p.appendChild(b);
      s.appendChild(p);
    }
  }
  return s;
}

// estOf: the estimated core and engine of measured core k's engine e.
function estOf(t, k, e) {
  if (!t.est || !t.meas) return null;
  const mc = t.meas.cores[k];
  const ek = t.est.cores.findIndex((c) => c.core === mc.core);
  if (ek < 0) return null;
  const ee = t.est.cores[ek].engines.indexOf(mc.engines[e]);
  return ee < 0 ? null : { k: ek, e: ee };
}

function mismatch(f) {
  const s = section('Profile not overlaid', 'lp-mismatch');
  const p = el('p', 'lp-finding sev-error');
  p.appendChild(el('span', 'sev', f.code));
  p.appendChild(document.createTextNode(' ' + f.message));
  s.appendChild(p);
  return s;
}

// model: the estimate's measured error and what it leaves out, said beside every estimate;
// with a profile, its error against it.
function model(t) {
  const s = section('The estimate', 'lp-model');
  s.id = 'lanes-model';
  const m = t.est.model;
  if (m && m.error) {
    const er = m.error;
    const busy = Object.entries(er.busy || {}).map(([k, v]) => k + ' ±' + Math.round(100 * Number(v)) + ' %').join(', ');
    const on = er.validated_on || [];
    Object.assign(s.dataset, { validated: String(on.length), spanError: String(er.span) });
    const p = el('p', 'lp-line lp-error', 'Measured error, leave-one-out on ' + on.length + ' profiled kernels (' + on.join(', ') + '): span ±' + Math.round(100 * er.span) + ' %, busy ' + busy + '; waits blamed on the right producer ' + Math.round(100 * er.attributed) + ' %.');
    p.title = er.method || '';
    s.appendChild(p);
  }
  if (m && m.not_covered && m.not_covered.length) {
    s.dataset.limits = String(m.not_covered.length);
    const p = el('p', 'lp-line lp-limits', 'Not modelled: ' + m.not_covered.join('; ') + '.');
    s.appendChild(p);
  }
  if (!m) s.appendChild(el('p', 'lp-line muted', 'the cost model\'s estimate from the NEFF alone'));
  if (t.meas && t.meas.joined) {
    // Per core its span's and each engine's busy error (the figures as data on their spans).
    const p = el('p', 'lp-line lp-against', 'Against this profile: ');
    p.id = 'lanes-against';
    let n = 0;
    for (const ec of t.est.cores) {
      const mc = t.meas.cores.find((c) => c.core === ec.core);
      if (!mc || n >= 2) continue;
      if (n++) p.appendChild(document.createTextNode(' · '));
      const span = relError(ec.span, programSpan(mc));
      const core = el('span', 'lp-against-core', ec.core + ': span ' + fmtPct(span) + '; busy ');
      Object.assign(core.dataset, { core: ec.core, spanError: String(span) });
      ec.engines.forEach((e, i) => {
        const j = mc.engines.indexOf(e);
        if (j < 0) return;
        const b = relError(ec.busy[i], mc.busy[j]);
        const x = el('span', 'lp-against-busy', e + ' ' + fmtPct(b));
        Object.assign(x.dataset, { engine: e, busyError: String(b) });
        if (core.childElementCount) core.appendChild(document.createTextNode(', '));
        core.appendChild(x);
      });
      p.appendChild(core);
    }
    s.appendChild(p);
  }
  return s;
}

// programSpan is a measured core's first instruction's start to its last's end.
function programSpan(c) {
  let a = Infinity, b = -Infinity;
  for (let r = 0; r < c.start.length; r++) { a = Math.min(a, c.start[r]); b = Math.max(b, c.end[r]); }
  return b > a ? b - a : 0;
}

// idle: each engine's busy time and idle time by cause, of the selected core (else the
// busiest), as stacked bars.
function idle(t, sel) {
  const s = section('Idle by cause (estimated)', 'lp-idle');
  s.id = 'lanes-idle';
  const k = sel && sel.side === 'e' ? sel.core : sel && t.meas ? (estOf(t, sel.core, sel.engine) || { k: mainCore(t.est.cores) }).k : mainCore(t.est.cores);
  const c = t.est.cores[k];
  if (!c) return s;
  s.dataset.core = c.core;
  s.appendChild(el('p', 'muted lp-line', c.core + ' · span ' + fmtPS(c.span)));
  const causes = (c.summary && c.summary.idle) || [];
  c.engines.forEach((eng, e) => {
    const row = el('div', 'lp-idle-row');
    row.dataset.engine = eng;
    row.appendChild(el('span', 'lp-idle-name', eng));
    const bar = el('span', 'lp-idle-bar');
    const span = Math.max(1, c.span);
    const seg = (ps, color, title, cause) => {
      if (ps <= 0) return;
      const x = el('span', 'lp-idle-seg');
      Object.assign(x.dataset, { ps: String(ps), cause });
      x.style.width = (100 * ps / span) + '%';
      x.style.background = color;
      x.title = title + ': ' + fmtPS(ps) + ' (' + (100 * ps / span).toFixed(1) + ' %)';
      bar.appendChild(x);
    };
    seg(c.busy[e], 'var(--accent)', 'busy', 'busy');
    for (const cause of causes[e] || []) seg(cause.ps, causeColor(cause), causeName(cause), cause.reason + (cause.engine || cause.dma ? ':' + (cause.engine || cause.dma) : ''));
    row.appendChild(bar);
    row.title = eng + ': busy ' + fmtPS(c.busy[e]) + '; ' + (causes[e] || []).map((x) => causeName(x) + ' ' + fmtPS(x.ps)).join(', ');
    s.appendChild(row);
  });
  s.appendChild(legend(c, causes));
  return s;
}

// legend names the bars' colours: busy, then the causes of idle time, the longest first
// (summed over the core's engines).
function legend(c, causes) {
  const by = new Map([['busy', { name: 'busy', color: 'var(--accent)', ps: c.busy.reduce((a, x) => a + x, 0) }]]);
  for (const list of causes) for (const x of list || []) {
    const name = causeName(x);
    const g = by.get(name) || { name, color: causeColor(x), ps: 0 };
    g.ps += x.ps;
    by.set(name, g);
  }
  const ul = el('ul', 'lp-idle-legend');
  for (const g of [...by.values()].filter((g) => g.ps > 0).sort((a, b) => (a.name === 'busy' ? -1 : b.name === 'busy' ? 1 : b.ps - a.ps))) {
    const li = el('li', '');
    const sw = el('span', 'lp-idle-swatch');
    sw.style.background = g.color;
    li.appendChild(sw);
    li.appendChild(document.createTextNode(g.name));
    li.title = g.name + ': ' + fmtPS(g.ps) + ' over the core\'s engines';
    ul.appendChild(li);
  }
  return ul;
}

const causeName = (x) => (x.reason === 'semaphore' ? 'on ' + (x.engine || '?') : x.reason === 'dma' ? 'on DMA ' + (x.dma || '') : x.reason === 'engine' ? 'issuing' : x.reason === 'done' ? 'done' : x.reason);

function causeColor(x) {
  if (x.reason === 'done') return 'var(--grid)';
  if (x.reason === 'engine') return 'var(--muted)';
  let h = 0;
  const key = x.engine || x.dma || '';
  for (let i = 0; i < key.length; i++) h = (h * 31 + key.charCodeAt(i)) & 0xff;
  return x.reason === 'dma' ? 'hsl(' + (190 + (h % 60)) + ' 50% 55%)' : opColor(h, false);
}

// profile: the measurement's checks and DMA queues.
function profile(t) {
  const m = t.meas;
  const s = section(m.joined ? 'The profile' : 'The profile (alone)', 'lp-profile');
  s.id = 'lanes-profile';
  const ck = m.summary.checks || {};
  if (m.joined) s.appendChild(el('p', 'lp-line', 'waits ' + fmtInt(ck.waits_in_order || 0) + ' in order, ' + fmtInt(ck.waits_met_inside || 0) + ' met inside, ' + fmtInt(ck.waits_violated || 0) + ' violated'));
  for (const c of m.cores) {
    if (!c.queues.length) continue;
    const r = dmaRate(c);
    s.appendChild(el('p', 'lp-line', c.core + ' DMA: ' + fmtInt(r.bytes) + ' B in ' + fmtPS(r.busy) + ' busy · ' + r.gbps.toFixed(1) + ' GB/s'));
    const ul = el('ul', 'lp-queues');
    for (const q of c.queues) ul.appendChild(el('li', '', q.name + ' · ' + fmtInt(q.bytes) + ' B · ' + q.gbps.toFixed(1) + ' GB/s'));
    s.appendChild(ul);
  }
  const finds = (m.summary.findings || []).filter((f) => f.severity !== 'info');
  for (const f of finds.slice(0, 6)) {
    const p = el('p', 'lp-finding sev-' + f.severity);
    p.appendChild(el('span', 'sev', f.code));
    p.appendChild(document.createTextNode(' ' + f.message));
    s.appendChild(p);
  }
  return s;
}
