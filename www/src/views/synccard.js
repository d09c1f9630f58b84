// @ts-check
// The overview's sync card (core/inspect overviewsync.go): "N waits, all resolved, no
// deadlock" or the lints, each leading to its instruction, and each core's SBUF/PSUM peak
// against capacity. The open's overview holds it as a promise (attrs.on_demand): the model
// reads every word again, so the page asks the core for it (the 'memory' call) by itself for
// a file up to AUTO_BYTES, else when the user asks.

import { call } from '../core/client.js';
import { el, toast } from '../dom.js';
import { fmtInt } from '../lib/format.js';
import { state } from '../state/docs.js';
import { unpackNode } from '../wire.js';
import { ensureHandle } from './hex.js';
import { instructionAt } from './listing.js';
import { overviewCard, overviewRedraw } from './overview.js';
import { memviewClose, memviewOpen } from './memview.js';
import { scheduleClose, scheduleOpen } from './schedule.js';

const AUTO_BYTES = 8 << 20;

/** the filled card of each document, and the call in flight */
const cards = new WeakMap();
const asked = new WeakMap();

/** syncCardInit registers the card with the overview. */
export function syncCardInit() {
  overviewCard('sync', 'Sync and on-chip memory', render);
}

/**
 * work asks the core for the filled card of the document on show, then redraws the overview.
 * @returns {Promise<any>}
 */
export function syncCardWork() {
  const d = state.doc;
  if (cards.has(d)) return Promise.resolve(cards.get(d));
  if (asked.has(d)) return asked.get(d);
  const p = (async () => {
    const h = await ensureHandle();
    const r = await call('memory', { handle: h });
    const card = unpackNode(r.card);
    cards.set(d, { card, cores: r.cores, ms: r.ms });
    if (state.doc === d) overviewRedraw();
    return cards.get(d);
  })();
  p.catch((e) => { asked.delete(d); toast('Sync model: ' + (e && e.message ? e.message : e)); });
  asked.set(d, p);
  return p;
}

/** syncModelOf: the memory model the card's call brought, for the memory view (or null). */
export const syncModelOf = () => (state && cards.get(state.doc)) || null;

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
  const got = cards.get(state.doc);
  const n = got ? got.card : stub;
  const links = el('p', 'ov-sum ov-sync-links');
  links.appendChild(button('button small', 'Schedule', 'One lane per engine, each instruction at its earliest step, arrows from producer to waiter', () => { memviewClose(); scheduleOpen(); }));
  links.appendChild(button('button small', 'Memory', 'SBUF and PSUM over the steps: live buffers as boxes, the peak marked', () => { scheduleClose(); memviewOpen(); }));
  if (n.attrs && n.attrs.on_demand) {
    box.classList.add('pending');
    const p = el('p', 'ov-sum muted ov-pending', asked.has(state.doc) ? 'working out the waits and the peaks…' : n.value || 'computed on demand');
    p.id = 'ov-sync-value';
    if (n.detail) p.title = n.detail;
    box.appendChild(p);
    if (!asked.has(state.doc)) links.appendChild(button('button small', 'Work it out', n.detail || '', () => { syncCardWork(); overviewRedraw(); }));
    box.appendChild(links);
    if (!asked.has(state.doc) && (state.doc.size || 0) <= AUTO_BYTES) setTimeout(() => syncCardWork(), 0);
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
  box.appendChild(links);
}
