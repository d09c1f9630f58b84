// @ts-check
// The overview's hottest kernel lines: by measured time when the document's device profile is
// joined, else by estimated time once the estimate is in (the model's error beside it), else
// by instruction words as the core ranks them (overview.go hot_lines), each saying which.
// views/timehooks.js ranks the lines by time (overviewHot); views/overview.js draws the card.

import { el } from '../dom.js';
import { fmtInt } from '../lib/format.js';
import { elideSource } from '../lib/names.js';
import { fmtPS } from '../lib/timeaxis.js';
import { ATTR } from '../lib/vocab.gen.js';

/**
 * A link button of the overview (overview.js linkButton): a button that follows link, or a
 * span when it leads nowhere.
 * @typedef {(link: string | undefined, cls: string, text: string) => HTMLElement} LinkButton
 */
/**
 * The hottest kernel lines by time: measured (the profile joined) or estimated (note: the
 * model's error), most first; each row its line, kernel, time (ps), instructions timed and
 * in all, its link, and its time per engine (most first).
 * @typedef {{measured: boolean, lines: number, note: string, short: string, rows: {name: string, file: string, kernel: string, ps: number, timed: number, words: number, link: string, engines: [string, number][]}[]}} HotByTime
 */

/**
 * overviewHot: the hottest lines by time while the document has time (views/timehooks.js sets
 * of); without it they rank by instruction count, as the core's overview does.
 * @type {{of: (() => HotByTime | null) | null}}
 */
export const overviewHot = { of: null };

/**
 * renderHot draws the hottest kernel lines: by measured time with a profile, else by estimated
 * time once the estimate is in, else by instruction words (the core's ranking), each said so;
 * each line a link to its instructions, its kernel, its figure (a bar scaled to the hottest)
 * and its split over the engines.
 * @param {HTMLElement} box
 * @param {import('../wire.js').Node} n the core's hot_lines answer
 * @param {LinkButton} linkButton
 */
export function renderHot(box, n, linkButton) {
  const byTime = overviewHot.of ? overviewHot.of() : null;
  if (byTime && byTime.rows.length) { renderHotByTime(box, n, byTime, linkButton); return; }
  box.dataset.basis = 'count';
  // The summary line carries the no-line count, so a card of five rows still shows it.
  const sum = el('p', 'ov-sum muted ov-hot-basis', (n.value ? n.value + ' ' : '') + 'by instruction count');
  noLineNote(sum, n);
  box.appendChild(sum);
  const t = n.table;
  if (!t || !t.rows || !t.rows.length) return;
  const most = Math.max(1, ...t.rows.map((r) => Number(r[2]) || 0));
  const engines = t.cols.slice(3);
  // A NEFF whose debug info names no kernel function has no kernel column.
  const kernels = t.rows.some((r) => r[1]);
  const table = el('table', 'ov-table ov-hot');
  table.dataset.section = 'hot_lines';
  const hr = el('tr');
  for (const c of ['line', ...(kernels ? ['kernel'] : []), 'instructions', ...engines]) hr.appendChild(el('th', engines.includes(c) ? 'num' : '', c));
  const thead = el('thead');
  thead.appendChild(hr);
  table.appendChild(thead);
  const tbody = el('tbody');
  t.rows.forEach((r, i) => {
    const tr = el('tr');
    const line = el('td', 'ov-hot-line');
    // The line number always shows: a long file name loses its middle, never its ":205".
    const b = linkButton(t.rlinks && t.rlinks[i], 'ov-cell', elideSource(r[0], HOT_LINE_CH));
    b.title = r[0] + (r[1] ? ' · ' + r[1] : '');
    b.dataset.line = r[0];
    line.appendChild(b);
    tr.appendChild(line);
    if (kernels) {
      const k = el('td', 'ov-hot-kernel muted', r[1]);
      k.title = r[1];
      tr.appendChild(k);
    }
    const tot = el('td', 'ov-hot-total');
    tot.appendChild(el('span', 'ov-count', fmtInt(Number(r[2]))));
    const bar = el('span', 'ov-bar');
    const fill = el('span', 'ov-bar-fill');
    fill.style.width = Math.max(2, 100 * (Number(r[2]) || 0) / most) + '%';
    bar.appendChild(fill);
    tot.appendChild(bar);
    tr.appendChild(tot);
    r.slice(3).forEach((c) => tr.appendChild(el('td', 'num' + (c === '0' ? ' muted' : ''), c === '0' ? '·' : fmtInt(Number(c)))));
    tbody.appendChild(tr);
  });
  table.appendChild(tbody);
  const wrap = el('div', 'ov-table-wrap');
  wrap.appendChild(table);
  box.appendChild(wrap);
}

// renderHotByTime is the hottest kernel lines by time (overviewHot): the basis said first
// ("by measured time", or "by estimated time" with the model's error), then per line its time
// with a bar against the hottest, its instructions and its time per engine.
function renderHotByTime(box, n, h, linkButton) {
  box.dataset.basis = h.measured ? 'measured' : 'estimated';
  const sum = el('p', 'ov-sum muted ov-hot-basis', 'top ' + h.rows.length + ' of ' + fmtInt(h.lines) + ' kernel lines by ' + (h.measured ? 'measured time' : 'estimated time'));
  if (!h.measured) {
    const e = el('span', 'ov-time-error', ' (' + h.short + ')');
    e.title = h.note;
    sum.appendChild(e);
  }
  sum.title = (h.measured ? 'Measured: the device profile\'s durations' : h.note) + '. A line\'s time is the sum of its instructions\' durations (as neffscope timeline counts them).';
  noLineNote(sum, n);
  box.appendChild(sum);
  const kernels = h.rows.some((r) => r.kernel);
  const table = el('table', 'ov-table ov-hot');
  table.dataset.section = 'hot_lines';
  table.dataset.basis = box.dataset.basis;
  const hr = el('tr');
  for (const c of ['line', ...(kernels ? ['kernel'] : []), h.measured ? 'measured' : 'estimated', 'instructions', 'engines']) hr.appendChild(el('th', c === 'instructions' ? 'num' : '', c));
  const thead = el('thead');
  thead.appendChild(hr);
  table.appendChild(thead);
  const tbody = el('tbody');
  const most = Math.max(1, h.rows[0].ps);
  for (const r of h.rows) {
    const tr = el('tr');
    tr.dataset.ps = String(r.ps);
    tr.dataset.line = r.name;
    const line = el('td', 'ov-hot-line');
    const b = linkButton(r.link, 'ov-cell', elideSource(r.name, HOT_LINE_CH));
    b.title = r.file + ':' + r.name.slice(r.name.lastIndexOf(':') + 1) + (r.kernel ? ' · ' + r.kernel : '');
    b.dataset.line = r.name;
    line.appendChild(b);
    tr.appendChild(line);
    if (kernels) {
      const k = el('td', 'ov-hot-kernel muted', r.kernel);
      k.title = r.kernel;
      tr.appendChild(k);
    }
    const tot = el('td', 'ov-hot-total');
    const txt = el('span', 'ov-count ov-hot-time', (h.measured ? '' : '≈') + fmtPS(r.ps));
    txt.title = (h.measured ? 'measured ' : 'estimated ') + fmtPS(r.ps) + ': the sum of its ' + fmtInt(r.timed) + ' timed instructions\' durations' + (h.measured ? '' : '\n' + h.note);
    tot.appendChild(txt);
    const bar = el('span', 'ov-bar');
    const fill = el('span', 'ov-bar-fill');
    fill.style.width = Math.max(2, 100 * r.ps / most) + '%';
    bar.appendChild(fill);
    tot.appendChild(bar);
    tr.appendChild(tot);
    tr.appendChild(el('td', 'num', fmtInt(r.words)));
    // One engine's time is the line's: its name says it; several each say theirs, the two
    // longest shown (the title lists all).
    const per = r.engines.map(([e, ps]) => e + ' ' + fmtPS(ps)).join(', ');
    const shown = r.engines.slice(0, 2).map(([e, ps]) => e + ' ' + fmtPS(ps, 3)).join(', ') + (r.engines.length > 2 ? ', +' + (r.engines.length - 2) : '');
    const eng = el('td', 'muted ov-hot-engines', r.engines.length === 1 ? r.engines[0][0] : shown);
    eng.title = per;
    tr.appendChild(eng);
    tbody.appendChild(tr);
  }
  table.appendChild(tbody);
  const wrap = el('div', 'ov-table-wrap');
  wrap.appendChild(table);
  box.appendChild(wrap);
}

// HOT_LINE_CH is the characters the hot lines' line column shows (style.css .ov-hot-line).
const HOT_LINE_CH = 30;

// noLineNote says on the hot lines' summary how many instruction words have no kernel source
// line (attrs.no_line, counted by the core: overview.go overviewNoLine).
function noLineNote(sum, n) {
  const v = n.attrs && n.attrs[ATTR.NO_LINE];
  if (v === undefined) return;
  const k = Number(v);
  const x = el('span', 'ov-no-line', k === 0 ? 'every instruction has a source line' : fmtInt(k) + (k === 1 ? ' instruction has' : ' instructions have') + ' no source line');
  x.dataset.noLine = v;
  if (n.detail) x.title = n.detail;
  if (sum.childNodes.length) sum.appendChild(document.createTextNode(' · '));
  sum.appendChild(x);
}
