// @ts-check
// The overview's sync card (core/inspect overviewsync.go): "N waits, all resolved, no
// deadlock" or the lints, each leading to its instruction, and each core's SBUF/PSUM peak
// against capacity. The open's overview holds it as a promise (attrs.on_demand). The waits
// come with the schedule (the 'schedule' call: a pass over the words, a few ms natively on
// the real NEFFs), asked by the card itself for a file up to AUTO_BYTES; the peaks come with
// the memory model ('memory'), asked by the card once the waits are in for a file up to
// MEMORY_AUTO_BYTES and MEMORY_AUTO_INSTRUCTIONS (so the overview's verdict is `neffscope
// check`'s without a click), else only when the user does.

import { el, toast } from '../dom.js';
import { fmtInt } from '../lib/format.js';
import { ATTR, KIND } from '../lib/vocab.gen.js';
import { state } from '../state/docs.js';
import { unpackNode } from '../wire.js';
import { instructionAt } from './listing.js';
import { memoryLoad, memviewClose, memviewOpen, onMemory } from './memview.js';
import { overviewCard, overviewRedraw, overviewVerdictChanged, overviewVerdictSource } from './overview.js';
import { scheduleClose, scheduleLoad, scheduleOpen } from './schedule.js';

const AUTO_BYTES = 8 << 20;

// MEMORY_AUTO_BYTES and MEMORY_AUTO_INSTRUCTIONS: a file up to both has its memory model built
// by itself, after the schedule and once the page is idle. The call holds the core while it
// runs (every other call waits behind it), so it is kept to files whose call is short; a small
// file can hold many instructions (a thousand cores of a few each), hence the second bound.
// Measured in headless Chromium (the page's memory call, click to verdict): matmul_small
// 61 KiB 58 instructions 0.21 s, transpose_1024 51 KiB 463 0.42 s, attn_v6 131 KiB 1,971
// 0.43 s; file_pool_1 201 KiB 10,952 2.1 s, file_pool_2 391 KiB 37,091 5.0 s.
const MEMORY_AUTO_BYTES = 160 << 10;
const MEMORY_AUTO_INSTRUCTIONS = 4000;
// The seconds per KiB and per instruction a bigger file's memory call may take (the file_pool
// figures above, rounded up), for the button that asks for it.
const MEMORY_S_PER_KIB = 0.013;
const MEMORY_S_PER_INSTRUCTION = 0.0002;

/**
 * instructionsOf counts document d's instructions (the overview's cores × engines cells).
 * @param {any} d
 */
function instructionsOf(d) {
  const ov = (d.root.kids || []).find((k) => k.kind === KIND.OVERVIEW);
  const eng = ov && (ov.kids || []).find((k) => k.key === 'engines');
  return ((eng && eng.kids) || []).reduce((a, k) => a + (Number(k.attrs && k.attrs[ATTR.COUNT]) || 0), 0);
}

/**
 * memoryCost says how long deciding the memory check may take on document d ('' for a file
 * the card decides by itself).
 * @param {any} d
 */
export function memoryCost(d) {
  const size = d.size || 0, n = instructionsOf(d);
  if (size <= MEMORY_AUTO_BYTES && n <= MEMORY_AUTO_INSTRUCTIONS) return '';
  const s = Math.max(1, Math.ceil(Math.max(MEMORY_S_PER_KIB * size / 1024, MEMORY_S_PER_INSTRUCTION * n)));
  return 'about ' + (s < 60 ? s + ' s' : Math.ceil(s / 60) + ' min');
}
/**
 * per document: the card so far (the memory call's once it came: it has the peaks), the
 * verdicts the cards carried in the order they came, and what the memory call said its peaks
 * leave out ({peak, cores: [{core, unplaced, sbuf, psum}]})
 * @type {WeakMap<object, {card: any, peaks: boolean, verdicts: any[], left: any}>}
 */
const cards = new WeakMap();
const asking = new WeakMap();

/** syncCardInit registers the card with the overview, and its verdicts as the newer ones. */
export function syncCardInit() {
  overviewCard('sync', 'Sync and on-chip memory', render);
  overviewVerdictSource({
    of: () => (state && cards.get(state.doc) ? /** @type {any} */ (cards.get(state.doc)).verdicts : []),
    ask: (key) => (key === 'memory' ? askPeaks() : askWaits()),
    cost: (key) => (key === 'memory' && state ? memoryCost(state.doc) : ''),
    busy: (key) => !!(state && (asking.get(state.doc) || {})[key === 'memory' ? 'peaks' : 'waits']),
  });
  // The memory call, whoever made it (this card, or the memory view opened): its card has the
  // peaks and the verdict with the memory check decided.
  onMemory((d, r) => {
    adopt(d, unpackNode(r.card));
    const got = cards.get(d);
    if (got) got.left = { peak: r.peak || '', cores: (r.cores || []).map((c) => ({ core: c.core, unplaced: c.unplaced || 0, sbuf: c.sbuf, psum: c.psum })) };
    if (state && state.doc === d) overviewVerdictChanged();
  });
}

// adopt keeps a card that came for document d: the memory call's (with the peaks) is kept
// over the schedule's, and its verdict is added to the ones the overview chooses from.
function adopt(d, card) {
  if (!card) return;
  const got = cards.get(d) || { card: null, peaks: false, verdicts: [], left: null };
  const peaks = !(card.attrs && card.attrs.peaks);
  if (!got.peaks || peaks) { got.card = card; got.peaks = peaks; }
  const v = (card.kids || []).find((k) => k.key === 'verdict');
  if (v) got.verdicts.push(v);
  cards.set(d, got);
}

// ask runs what (the card's next part) once per document, then draws the overview again.
function ask(what, run) {
  const d = state.doc;
  const a = asking.get(d) || {};
  if (a[what]) return;
  a[what] = true;
  asking.set(d, a);
  run().then((card) => {
    adopt(d, card);
    if (state.doc === d) overviewVerdictChanged();
    if (what === 'waits') peaksWhenIdle(d);
  }, (e) => { a[what] = false; toast('Sync model: ' + (e && e.message ? e.message : e)); if (state.doc === d) overviewRedraw(); });
  overviewRedraw();
}

const askWaits = () => ask('waits', () => scheduleLoad());

// waitsAfterSource asks for document d's waits by itself once its source lines are mapped (at
// once when they are): the schedule's call holds the core's one thread, and a small file's
// lines (what the listing and the overview wait for) came ~0.2 s later behind it.
function waitsAfterSource(d) {
  const go = () => { if (state && state.doc === d && !cards.get(d) && !(asking.get(d) || {}).waits) askWaits(); };
  Promise.resolve(state && state.sourceWait).then(() => setTimeout(go, 0), () => setTimeout(go, 0));
}

// peaksWhenIdle builds the memory model of document d by itself, when it is small enough
// (MEMORY_AUTO_BYTES) and still on show, once the page has drawn and nothing else is pending.
function peaksWhenIdle(d) {
  if (memoryCost(d) || (asking.get(d) || {}).peaks) return;
  const go = () => { if (state && state.doc === d) askPeaks(); };
  if (typeof requestIdleCallback === 'function') requestIdleCallback(go, { timeout: 1000 });
  else setTimeout(go, 50);
}
// The memory call's card comes through onMemory (the memory view may make the call too).
const askPeaks = () => ask('peaks', () => memoryLoad().then(() => null));

function button(cls, text, title, fn) {
  const b = el('button', cls, text);
  /** @type {HTMLButtonElement} */ (b).type = 'button';
  if (title) b.title = title;
  b.addEventListener('click', fn);
  return b;
}

/**
 * @param {HTMLElement} box
 * @param {import('../wire.js').Node} stub
 */
function render(box, stub) {
  const d = state.doc;
  const got = cards.get(d);
  const n = got ? got.card : stub;
  const busy = asking.get(d) || {};
  const links = el('p', 'ov-sum ov-sync-links');
  links.appendChild(button('button small', 'Schedule', 'One lane per engine, each instruction at its earliest step, arrows from producer to waiter', () => { memviewClose(); scheduleOpen(); }));
  links.appendChild(button('button small', 'Memory', 'SBUF and PSUM over the steps: live buffers as boxes, the peak marked (places every access: can take longer than the open)', () => { scheduleClose(); memviewOpen(); }));
  if (!got) {
    box.classList.add('pending');
    const p = el('p', 'ov-sum muted ov-pending', busy.waits ? 'tying every wait to its producer…' : n.value || 'computed on demand');
    p.id = 'ov-sync-value';
    if (n.detail) p.title = n.detail;
    box.appendChild(p);
    if (!busy.waits) links.appendChild(button('button small', 'Work it out', 'tie every wait to its producer (one pass over the words)', askWaits));
    box.appendChild(links);
    if (!busy.waits && (d.size || 0) <= AUTO_BYTES) waitsAfterSource(d);
    return;
  }
  const a = n.attrs || {};
  const lints = Number(a.lints) || 0;
  const p = el('p', 'ov-sum ov-sync ' + (lints ? 'bad' : Number(a.waits) === Number(a.resolved) ? 'good' : 'warn'), n.value || '');
  p.id = 'ov-sync-value';
  p.dataset.waits = a.waits || '0';
  p.dataset.lints = a.lints || '0';
  if (n.detail) p.title = n.detail;
  box.appendChild(p);
  const kids = n.kids || [];
  const lintItems = kids.filter((k) => k.attrs && k.attrs.code);
  if (lintItems.length) {
    const ol = el('ol', 'ov-finds');
    for (const k of lintItems) {
      const li = el('li', 'sev-error');
      li.appendChild(el('span', 'sev', k.attrs.code));
      li.appendChild(button('ov-find ov-link', k.value || '', k.attrs.engine + ' #' + k.attrs.index, () => instructionAt(k.attrs.member, Number(k.attrs.index))));
      ol.appendChild(li);
    }
    box.appendChild(ol);
  }
  for (const k of kids.filter((x) => x.attrs && x.attrs.space)) {
    const peak = Number(k.attrs.peak) || 0;
    const cap = Number(k.attrs.capacity) || 0;
    const row = el('div', 'ov-peak');
    row.dataset.core = k.attrs.core;
    row.dataset.space = k.attrs.space;
    row.appendChild(el('span', 'ov-core', k.attrs.core + ' ' + k.attrs.space));
    const bar = el('span', 'ov-bar ov-peak-bar');
    const fill = el('span', 'ov-bar-fill');
    fill.style.width = (cap ? Math.max(1, Math.min(100, 100 * peak / cap)) : 0) + '%';
    bar.appendChild(fill);
    row.appendChild(bar);
    const txt = fmtInt(peak) + ' B' + (cap ? ' of ' + fmtInt(cap) + ' (' + (100 * peak / cap).toFixed(1) + '%)' : '') + ' per partition';
    if (k.attrs.member) row.appendChild(button('ov-cell ov-link muted', txt, 'the peak is reached at ' + k.attrs.engine + ' #' + k.attrs.index, () => instructionAt(k.attrs.member, Number(k.attrs.index))));
    else row.appendChild(el('span', 'muted', txt));
    box.appendChild(row);
  }
  if (got.peaks && got.left) leftOut(box, got.left);
  if (!got.peaks) {
    const p = el('p', 'ov-sum muted', busy.peaks ? 'placing every SBUF and PSUM access…' : 'SBUF and PSUM peaks: on demand');
    if (!busy.peaks) {
      p.appendChild(document.createTextNode(' · ')); // a button's own leading space collapses
      const cost = memoryCost(d);
      p.appendChild(button('ov-link ov-peaks-ask', 'work them out' + (cost ? ' (' + cost + ')' : ''), 'place every SBUF/PSUM access and sweep them in schedule order' + (cost ? ': ' + cost + ' on a file of this size, the page\'s other answers waiting meanwhile' : ''), askPeaks));
    }
    box.appendChild(p);
  }
  box.appendChild(links);
}

// leftOut says under the peaks what they leave out (the operands the model could not place,
// the accesses a limit left out of the sweep) and how a peak is counted.
function leftOut(box, left) {
  let unplaced = 0, unswept = 0;
  for (const c of left.cores) {
    unplaced += c.unplaced;
    unswept += ((c.sbuf && c.sbuf.unswept) || 0) + ((c.psum && c.psum.unswept) || 0);
  }
  const p = el('p', 'ov-sum ov-left ' + (unplaced || unswept ? 'warn' : 'muted'));
  p.id = 'ov-peaks-left';
  p.dataset.unplaced = String(unplaced);
  p.dataset.unswept = String(unswept);
  const parts = [];
  if (unplaced) parts.push(fmtInt(unplaced) + ' operand' + (unplaced === 1 ? '' : 's') + ' the model could not place');
  if (unswept) parts.push(fmtInt(unswept) + ' access' + (unswept === 1 ? '' : 'es') + ' a limit left out');
  p.textContent = parts.length ? 'Not in these peaks (nor in any race): ' + parts.join(', ') + ' · the memory view lists them' : 'Every SBUF and PSUM operand placed and swept.';
  box.appendChild(p);
  if (left.peak) box.appendChild(el('p', 'ov-sum muted ov-peak-rule', 'How a peak is counted: ' + left.peak + '.'));
}

