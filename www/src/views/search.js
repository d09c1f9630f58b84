// @ts-check
// Search (Ctrl+K or /): names, values, member paths and opcodes, and byte offsets.

import { call } from '../core/client.js';
import { $, closestTo, el } from '../dom.js';
import { fmtInt } from '../lib/format.js';
import { parseOffsetQuery } from '../lib/offsets.js';
import { isStreamRef, memberPath, streamPath } from '../lib/refs.js';
import { kindOf, pathOf, sourceSize, state } from '../state/docs.js';
import { select } from '../state/selection.js';
import { unpackTable } from '../wire.js';
import { ensureHandle, fieldMarks, hex, hexShow, instructionPick, ownerOf, streamOf } from './hex.js';
import { fetchBlock, listing, listingScrollTo, listingSelect } from './listing.js';

// Search (Ctrl+K or /): node labels, values and member paths of the open document, then the
// instruction listings' opcode names (fetched from the core a block at a time). The walk
// yields to the page every SEARCH_SLICE nodes and stops at SEARCH_CAP results, so a big
// document stays responsive; a newer query abandons an older one.

const SEARCH_CAP = 500;
const SEARCH_SLICE = 4000;
const SEARCH_ROWS = 10000; // the core's cap on one rows() call
export const search = { q: '', seq: 0, results: [], active: -1, done: true, more: false, errors: [], notes: [], timer: 0 };

const pause = () => new Promise((r) => setTimeout(r, 0));

function searchMatch(n, q) {
  if (n.label && n.label.toLowerCase().includes(q)) return true;
  if (n.value && String(n.value).toLowerCase().includes(q)) return true;
  const m = memberPath(n.ref);
  return m !== null && m.toLowerCase().includes(q);
}

async function runSearch(raw) {
  const seq = ++search.seq;
  const q = raw.trim().toLowerCase();
  search.q = q;
  search.results = [];
  search.active = -1;
  search.more = false;
  search.errors = [];
  search.notes = [];
  search.done = !q || !state;
  if (search.done) { searchRender(); return; }
  // A byte offset first: its results lead the list.
  const byOffset = offsetResults(q);
  search.notes = byOffset.notes;
  byOffset.results.forEach((r) => { search.results.push(r); search.active = 0; });
  const st = state;
  const live = () => seq === search.seq && st === state;
  const add = (r) => {
    if (search.results.length >= SEARCH_CAP) { search.more = true; return false; }
    search.results.push(r);
    if (search.active < 0) search.active = 0;
    return true;
  };
  const streams = [];
  let i = 0;
  for (const n of st.byPath.values()) {
    if (isStreamRef(n.ref)) streams.push(n);
    if (searchMatch(n, q) && !add({ node: n })) break;
    if (++i % SEARCH_SLICE === 0) { searchRender(); await pause(); if (!live()) return; }
  }
  searchRender();
  for (const sn of streams) {
    if (search.more) break;
    let total = Infinity, nameCol = -1, opCol = -1;
    for (let from = 0; from < total && !search.more; from += SEARCH_ROWS) {
      let r;
      try {
        r = await call('rows', { handle: await ensureHandle(), ref: sn.ref, from, to: from + SEARCH_ROWS });
      } catch (e) { search.errors.push(streamPath(sn.ref) + ': ' + e.message); break; }
      if (!live()) return;
      total = r.total;
      const t = unpackTable(r.table);
      if (from === 0) {
        const cols = (t.cols || []).map((c) => String(c).toLowerCase());
        nameCol = cols.indexOf('name');
        opCol = cols.indexOf('opcode');
      }
      (t.rows || []).forEach((row, k) => {
        const name = nameCol >= 0 ? String(row[nameCol] || '') : '';
        const op = opCol >= 0 ? String(row[opCol] || '') : '';
        if ((name && name.toLowerCase().includes(q)) || (op && op.toLowerCase().includes(q))) {
          add({ stream: sn, index: from + k, text: name + (op ? '  (' + op + ')' : '') });
        }
      });
      searchRender();
    }
  }
  if (!live()) return;
  search.done = true;
  searchRender();
}

function searchRender() {
  const box = $('search-results');
  const input = $('search');
  if (!search.q) { box.hidden = true; input.setAttribute('aria-expanded', 'false'); return; }
  box.hidden = false;
  input.setAttribute('aria-expanded', 'true');
  const frag = document.createDocumentFragment();
  search.results.forEach((r, i) => {
    const item = el('div', 'sr' + (i === search.active ? ' active' : ''));
    item.id = 'sr-' + i;
    item.setAttribute('role', 'option');
    item.setAttribute('aria-selected', i === search.active ? 'true' : 'false');
    item.dataset.index = i;
    if (r.offset !== undefined) offsetResultItem(r, item);
    else if (r.node) {
      const n = r.node;
      item.dataset.kind = n.kind === 'member' ? 'member' : 'node';
      item.appendChild(el('span', 'sr-kind', kindOf(n.kind).title || n.kind));
      item.appendChild(el('span', 'sr-what', n.label + (n.value ? ' = ' + n.value : '')));
      const where = memberPath(n.ref) ?? pathOf(n).slice(0, -1).join(' › ');
      item.appendChild(el('span', 'sr-where', where || state.doc.file));
    } else {
      item.dataset.kind = 'instruction';
      item.dataset.row = r.index;
      item.appendChild(el('span', 'sr-kind', 'instruction'));
      item.appendChild(el('span', 'sr-what', r.text));
      item.appendChild(el('span', 'sr-where', streamPath(r.stream.ref) + ' #' + fmtInt(r.index)));
    }
    frag.appendChild(item);
  });
  search.notes.slice().reverse().forEach((n) => frag.insertBefore(el('div', 'sr-note beyond', n), frag.firstChild));
  let note = '';
  if (search.more) note = 'More than ' + fmtInt(SEARCH_CAP) + ' matches: showing the first ' + fmtInt(SEARCH_CAP) + '; type more to narrow.';
  else if (!search.done) note = 'Searching…';
  else if (!search.results.length) note = 'No matches.';
  if (note) frag.appendChild(el('div', 'sr-note', note));
  for (const e of search.errors) frag.appendChild(el('div', 'sr-note', 'Not searched: ' + e));
  box.replaceChildren(frag);
  if (search.active >= 0) {
    input.setAttribute('aria-activedescendant', 'sr-' + search.active);
    const a = box.querySelector('.sr.active');
    if (a) a.scrollIntoView({ block: 'nearest' });
  } else input.removeAttribute('aria-activedescendant');
}

export function searchClose() {
  search.seq++;
  search.q = '';
  $('search').value = '';
  searchRender();
}

async function searchPick(i) {
  const r = search.results[i];
  if (!r || !state) return;
  searchClose();
  $('search').blur();
  if (r.offset !== undefined) { offsetPick(r); return; }
  if (r.node) {
    select(r.node, 'search');
    return;
  }
  select(r.stream, 'search');
  await fetchBlock(0).promise;
  if (listing.ref !== r.stream.ref) return;
  listingScrollTo(r.index);
  listingSelect(r.index);
}

export function searchInit() {
  const input = $('search');
  input.addEventListener('input', () => {
    clearTimeout(search.timer);
    search.timer = setTimeout(() => runSearch(input.value), 120);
  });
  input.addEventListener('keydown', (e) => {
    const n = search.results.length;
    switch (e.key) {
      case 'ArrowDown': if (n) search.active = (search.active + 1) % n; break;
      case 'ArrowUp': if (n) search.active = (search.active - 1 + n) % n; break;
      case 'Enter':
        // A query typed faster than the debounce runs now; Enter then picks once results come.
        if (search.q !== input.value.trim().toLowerCase()) { clearTimeout(search.timer); runSearch(input.value); return; }
        searchPick(search.active);
        return;
      case 'Escape': searchClose(); input.blur(); break;
      default: return;
    }
    e.preventDefault();
    searchRender();
  });
  $('search-results').addEventListener('mousedown', (e) => e.preventDefault()); // keep the focus in the box
  $('search-results').addEventListener('click', (e) => {
    const item = closestTo(e, '.sr');
    if (item) searchPick(Number(item.dataset.index));
  });
  input.addEventListener('blur', () => { if (search.q) $('search-results').hidden = true; });
  input.addEventListener('focus', () => { if (search.q) searchRender(); });
  window.addEventListener('keydown', (e) => {
    const t = /** @type {HTMLElement} */ (e.target);
    const typing = t && (t.tagName === 'INPUT' || t.tagName === 'TEXTAREA' || t.tagName === 'SELECT' || t.isContentEditable);
    if (((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === 'k') || (e.key === '/' && !typing && !e.ctrlKey && !e.metaKey && !e.altKey)) {
      if (!state) return;
      e.preventDefault();
      // A driver (or IME) that delivers the '/' character apart from its keydown must not
      // type it into the box: swallow it until the key comes up.
      if (e.key === '/') slashHeld = true;
      input.focus();
      input.select();
    }
  });
  let slashHeld = false;
  input.addEventListener('beforeinput', (e) => { if (slashHeld && e.data === '/') e.preventDefault(); });
  window.addEventListener('keyup', (e) => { if (e.key === '/') slashHeld = false; });
}

// ---- search by byte offset (lib/offsets.js reads the query) ----

// offsetResults gives {results, notes} for query q (lower case, trimmed).
function offsetResults(q) {
  const out = { results: [], notes: [] };
  const p = parseOffsetQuery(q);
  if (!p || !state) return out;
  const sources = [''];
  if (hex.key && hex.source) sources.push(hex.source);
  for (const src of sources) {
    const size = sourceSize(src);
    const where = src ? src : 'the file';
    if (!(p.off < size)) {
      if (p.explicit) out.notes.push('Byte ' + (Number.isFinite(p.off) ? '0x' + p.off.toString(16) + ' (' + fmtInt(p.off) + ')' : q) + ' is beyond the end of ' + where + ' (size ' + fmtInt(size) + ' bytes).');
      continue;
    }
    // In an instruction stream the byte's owner is its instruction (fetched on pick).
    const stream = streamOf(src);
    const node = stream || ownerOf(src, p.off);
    if (node) out.results.push({ offset: p.off, src, node, instr: stream ? Math.floor(p.off / 64) : -1 });
  }
  return out;
}

// offsetPick selects the byte's node, highlights that one byte, and hands the keyboard to the
// hex view with its cursor on the byte.
function offsetPick(r) {
  if (r.instr >= 0) {
    // The instruction that holds the byte, selected in its listing (which keeps the focus).
    // The listing is on show as soon as the pick starts (the instruction's fields follow).
    const done = instructionPick(r.node, r.instr);
    $('listing').focus({ preventScroll: true });
    done.then(() => { if (!$('listing').contains(document.activeElement)) $('listing').focus({ preventScroll: true }); });
    return;
  }
  select(r.node, 'search');
  hexShow(r.src, { src: r.src, off: r.offset, len: 1 }, true, fieldMarks(r.node, r.src));
  hex.scroller.focus({ preventScroll: true });
}

function offsetResultItem(r, item) {
  item.dataset.kind = 'offset';
  item.dataset.offset = r.offset;
  item.appendChild(el('span', 'sr-kind', 'byte'));
  item.appendChild(el('span', 'sr-what', 'byte 0x' + r.offset.toString(16) + ' (' + fmtInt(r.offset) + ') of ' + (r.src || state.doc.file)));
  if (r.instr >= 0) item.appendChild(el('span', 'sr-where', 'instruction #' + r.instr + ' of ' + r.src));
  else item.appendChild(el('span', 'sr-where', (pathOf(r.node).join(' › ') || state.doc.file) + (r.node.value ? ' = ' + r.node.value : '')));
}
