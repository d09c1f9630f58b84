// @ts-check
// Search (Ctrl+K or /): names, values, member paths and opcodes, byte offsets and #N (an
// instruction of the listing on show); the program ranks before JSON values (lib/searchrank.js).

import { call } from '../core/client.js';
import { $, closestTo, el, toast } from '../dom.js';
import { fmtInt } from '../lib/format.js';
import { unfetched } from '../lib/lazy.js';
import { parseOffsetQuery } from '../lib/offsets.js';
import { parseInstructionQuery, rankResults } from '../lib/searchrank.js';
import { isStreamRef, memberPath, streamPath } from '../lib/refs.js';
import { kindOf, pathOf, sourceSize, state } from '../state/docs.js';
import { ensurePath, handleOf, locateNode } from '../state/lazy.js';
import { on } from '../state/events.js';
import { select } from '../state/selection.js';
import { unpackTable } from '../wire.js';
import { fieldMarks, hex, hexShow, ownerOf, streamOf } from './hex.js';
import { narrow, paneOf, showPane } from './layout.js';
import { fetchBlock, instructionPick, listing, listingFocus, listingHasFocus, listingScrollTo, listingSelect, listingShown, listingTarget } from './listing.js';
import { jsonTree, mainTree } from './tree.js';
import { KIND } from '../lib/vocab.gen.js';

// Search (Ctrl+K or /): the core walks the document (search: key, label, value, detail; stubs
// built as it goes) and streams its hits here in batches; "more results" goes on from where a
// step stopped. Then the instruction listings' opcode names (fetched from the core a block at a
// time). Byte offsets lead the list. A newer query abandons an older one. A document the core
// does not hold (a library entry without its bytes) is searched here, in the page's index.

const SEARCH_CAP = 500; // node hits per step, and instruction hits
const SEARCH_SLICE = 4000;
const SEARCH_ROWS = 10000; // the core's cap on one rows() call
export const search = {
  q: '', seq: 0, results: [], active: -1, done: true, more: false, errors: [], notes: [], timer: 0,
  /** @type {any[]} */ offsets: [], /** @type {any[]} */ nodes: [], /** @type {any[]} */ instrs: [],
  /** @type {string[] | null} where the core's walk goes on ("more results") */ next: null,
  instrMore: false,
};

const pause = () => new Promise((r) => setTimeout(r, 0));

function searchMatch(n, q) {
  if (n.label && n.label.toLowerCase().includes(q)) return true;
  if (n.value && String(n.value).toLowerCase().includes(q)) return true;
  const m = memberPath(n.ref);
  return m !== null && m.toLowerCase().includes(q);
}

// collect lays the three kinds of results out in one list: offsets, nodes, instructions.
function collect() {
  search.results = rankResults(search.offsets.concat(search.nodes, search.instrs), search.q);
  const n = search.results.length + (search.more ? 1 : 0);
  if (search.active >= n) search.active = n - 1;
  if (search.active < 0 && n) search.active = 0;
}

let renderTimer = 0;
function renderSoon() {
  if (renderTimer) return;
  renderTimer = setTimeout(() => { renderTimer = 0; collect(); searchRender(); }, 30);
}

async function runSearch(raw) {
  const seq = ++search.seq;
  const q = raw.trim().toLowerCase();
  search.q = q;
  search.results = [];
  search.offsets = [];
  search.nodes = [];
  search.instrs = [];
  search.active = -1;
  search.more = false;
  search.instrMore = false;
  search.next = null;
  search.errors = [];
  search.notes = [];
  search.done = !q || !state;
  if (search.done) { searchRender(); return; }
  const st = state;
  const live = () => seq === search.seq && st === state;
  // A byte offset first: its results lead the list.
  const byOffset = await offsetResults(q, st);
  if (!live()) return;
  search.notes = byOffset.notes;
  search.offsets = byOffset.results;
  collect();
  searchRender();
  if (!(await nodeSearch(st, live, null))) return;
  collect();
  searchRender();
  if (!(await instructionSearch(st, live, q))) return;
  search.done = true;
  collect();
  searchRender();
}

// nodeSearch asks the core for up to SEARCH_CAP more node hits after after (null: from the
// start), as they stream in; false when a newer search took over.
async function nodeSearch(st, live, after) {
  let handle;
  try { handle = await handleOf(st); } catch (e) { return localSearch(st, live); }
  if (!live()) return false;
  let count = 0;
  const onEvent = (ev, data) => {
    if (ev !== 'hits' || !live()) return;
    for (const hit of data) {
      const n = st.byPath.get(hit.path.join('/'));
      search.nodes.push({ hit, node: n && samePath(st.info.get(n).path, hit.path) ? n : null });
      count++;
    }
    renderSoon();
  };
  for (;;) {
    let r;
    try {
      r = await call('search', { handle, q: search.q, after, max: Math.min(1000, SEARCH_CAP - count) }, { onEvent });
    } catch (e) {
      if (!live()) return false;
      search.errors.push('the document: ' + e.message);
      search.next = null;
      search.more = false;
      return true;
    }
    if (!live()) return false;
    after = r.next;
    search.next = after;
    search.more = !!after && count >= SEARCH_CAP;
    if (!after || search.more) return true;
  }
}

const samePath = (a, b) => a.length === b.length && a.every((k, i) => k === b[i]);

// localSearch walks the page's own index (a document the core does not hold): labels, values
// and member paths, yielding every SEARCH_SLICE nodes.
async function localSearch(st, live) {
  let i = 0;
  for (const n of st.byPath.values()) {
    if (searchMatch(n, search.q)) {
      if (search.nodes.length >= SEARCH_CAP) { search.instrMore = true; break; }
      search.nodes.push({ node: n });
    }
    if (++i % SEARCH_SLICE === 0) { renderSoon(); await pause(); if (!live()) return false; }
  }
  return true;
}

// searchMore goes on with the core's walk from where the last step stopped.
async function searchMore() {
  if (!search.more || !search.next || !state) return;
  const st = state, seq = search.seq;
  const live = () => seq === search.seq && st === state;
  const after = search.next;
  search.more = false;
  search.done = false;
  collect();
  searchRender();
  if (!(await nodeSearch(st, live, after))) return;
  search.done = true;
  collect();
  searchRender();
}

// instructionSearch looks for q among the opcode names of every instruction listing.
async function instructionSearch(st, live, q) {
  const streams = [];
  for (const n of st.byPath.values()) if (isStreamRef(n.ref)) streams.push(n);
  const add = (r) => {
    if (search.instrs.length >= SEARCH_CAP) { search.instrMore = true; return false; }
    search.instrs.push(r);
    return true;
  };
  for (const sn of streams) {
    if (search.instrMore) break;
    let total = Infinity, nameCol = -1, opCol = -1;
    for (let from = 0; from < total && !search.instrMore; from += SEARCH_ROWS) {
      let r;
      try {
        r = await call('rows', { handle: await handleOf(st), ref: sn.ref, from, to: from + SEARCH_ROWS });
      } catch (e) { if (!live()) return false; search.errors.push(streamPath(sn.ref) + ': ' + e.message); break; }
      if (!live()) return false;
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
      collect();
      searchRender();
    }
  }
  return live();
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
    else if (r.jump !== undefined) {
      item.dataset.kind = 'jump';
      item.dataset.row = r.jump;
      item.appendChild(el('span', 'sr-kind', 'instruction'));
      item.appendChild(el('span', 'sr-what', r.text));
      item.appendChild(el('span', 'sr-where', streamPath(r.stream.ref)));
    } else if (r.hit || r.node) {
      // A hit names its node by path; the node itself may not be fetched yet.
      const n = r.hit || r.node;
      item.dataset.kind = n.kind === KIND.MEMBER ? 'member' : 'node';
      item.appendChild(el('span', 'sr-kind', kindOf(n.kind).title || n.kind));
      item.appendChild(el('span', 'sr-what', n.label + (n.value ? ' = ' + n.value : '')));
      const where = memberPath(n.ref) ?? (r.hit ? r.hit.path : pathOf(n)).slice(0, -1).join(' › ');
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
  if (search.more) {
    // "more results": an option like the others, so the keyboard reaches it from the box.
    const i = search.results.length;
    const item = el('div', 'sr sr-more' + (i === search.active ? ' active' : ''), 'more results after ' + fmtInt(search.nodes.length) + ' matches…');
    item.id = 'search-more';
    item.setAttribute('role', 'option');
    item.setAttribute('aria-selected', i === search.active ? 'true' : 'false');
    item.dataset.index = i;
    item.dataset.kind = 'more';
    frag.appendChild(item);
  }
  search.notes.slice().reverse().forEach((n) => frag.insertBefore(el('div', 'sr-note beyond', n), frag.firstChild));
  let note = '';
  if (search.instrMore) note = 'More than ' + fmtInt(SEARCH_CAP) + ' matches: showing the first ' + fmtInt(SEARCH_CAP) + '; type more to narrow.';
  else if (!search.done) note = 'Searching…';
  else if (!search.results.length) note = 'No matches.';
  if (note) frag.appendChild(el('div', 'sr-note', note));
  for (const e of search.errors) frag.appendChild(el('div', 'sr-note', 'Not searched: ' + e));
  box.replaceChildren(frag);
  if (search.active >= 0) {
    input.setAttribute('aria-activedescendant', search.active === search.results.length ? 'search-more' : 'sr-' + search.active);
    const a = box.querySelector('.sr.active');
    if (a) a.scrollIntoView({ block: 'nearest' });
  } else input.removeAttribute('aria-activedescendant');
}

export function searchClose() {
  search.seq++;
  search.q = '';
  search.offsets = [];
  search.nodes = [];
  search.instrs = [];
  search.more = false;
  search.next = null;
  $('search').value = '';
  searchRender();
}

async function searchPick(i) {
  if (i === search.results.length && search.more) { searchMore(); return; } // the list stays open
  const r = search.results[i];
  if (!r || !state) return;
  searchClose();
  $('search').blur();
  if (r.offset !== undefined) { offsetPick(r); return; }
  if (r.jump !== undefined) {
    // The listing keeps the focus (a pick lands in the pane it opened: notePick).
    const done = instructionPick(r.stream, r.jump);
    listingFocus({ preventScroll: true });
    done.then(() => { if (!listingHasFocus()) listingFocus({ preventScroll: true }); });
    return;
  }
  if (r.hit && !r.node) {
    // Under a stub: the page fetches the path, then selects (the keyboard's focus follows r.node).
    const st = state;
    let n = null;
    try { n = await ensurePath(r.hit.path, st); } catch (e) { toast('Could not reach ' + r.hit.path.join(' › ') + ': ' + e.message); return; }
    if (state !== st) return;
    if (!n) { toast('No node ' + r.hit.path.join(' › ') + ' in ' + st.doc.file); return; }
    r.node = n;
  }
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

/** @type {HTMLElement} the search box (#search-box) */
let box;

/**
 * searchInit wires the box and its results; the box shows with a document, and the search
 * closes when another document (or the comparison) shows.
 * @param {HTMLElement} root
 */
export function searchInit(root) {
  box = root;
  on('document', () => { box.hidden = false; if (search.q) searchClose(); });
  on('empty', () => { box.hidden = true; });
  const input = $('search');
  // The search box focused again (/ or Ctrl+K) after a pick: the user has moved on, so a pick
  // still waiting for its pane must not take the focus back.
  input.addEventListener('focus', () => { picking = null; });
  // Capture: seen before the box's own handler picks and closes the list.
  input.addEventListener('keydown', (e) => {
    if (e.key === 'Enter' && search.q && search.q === input.value.trim().toLowerCase()) notePick(search.active);
  }, true);
  $('search-results').addEventListener('click', (e) => {
    const item = closestTo(e, '.sr');
    if (item) notePick(Number(item.dataset.index));
  }, true);
  input.addEventListener('input', () => {
    clearTimeout(search.timer);
    search.timer = setTimeout(() => runSearch(input.value), 120);
  });
  input.addEventListener('keydown', (e) => {
    const n = search.results.length + (search.more ? 1 : 0);
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

// offsetResults gives {results, notes} for query q (lower case, trimmed) in document st. A
// byte the page's span index places below a stub (or cannot place) is placed by the core.
async function offsetResults(q, st) {
  const out = { results: [], notes: [] };
  const jump = parseInstructionQuery(q);
  if (jump !== null && st) {
    // #N: instruction N of the stream on show (else of the selection's stream).
    const stream = listingShown() && isStreamRef(listing.ref) ? listing.node : null;
    if (!stream) out.notes.push('#' + jump + ' names an instruction of the listing on show: open an engine\'s listing first.');
    else if (listing.total && jump >= listing.total) out.notes.push(streamPath(stream.ref) + ' has ' + fmtInt(listing.total) + ' instructions: #' + jump + ' is past its end.');
    else out.results.push({ jump, stream, text: 'instruction #' + jump });
    return out;
  }
  const p = parseOffsetQuery(q);
  if (!p || !st) return out;
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
    let node = stream || ownerOf(src, p.off);
    if (!stream && (!node || unfetched(node))) {
      try { node = (await locateNode(src, p.off, st)) || node; } catch (e) { /* the page's own answer stands */ }
      if (st !== state) return out;
    }
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
    listingFocus({ preventScroll: true });
    done.then(() => { if (!listingHasFocus()) listingFocus({ preventScroll: true }); });
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

// ---- the focus after a pick: in the pane the pick opened, never on <body> ----

/** @type {any} the result being picked (search.results[i]) */
let picking = null;

function notePick(i) {
  picking = search.results[i] || null;
  if (!picking) return;
  const r = picking;
  // searchPick blurs the box and selects synchronously; an instruction waits for its rows.
  let tries = 0;
  const settle = () => {
    if (picking !== r) return;
    const a = document.activeElement;
    if (a && a !== document.body && a !== $('search')) { picking = null; reveal(a); return; } // the pick placed it
    const target = pickTarget(r);
    if (!target && ++tries < 60) { setTimeout(settle, 50); return; }
    picking = null;
    if (!target) return;
    reveal(target);
    target.focus({ preventScroll: true });
  };
  setTimeout(settle, 0);
}

// reveal: in a narrow window (the panes as tabs), the pane that holds el shows.
function reveal(el) {
  const p = paneOf(el);
  if (narrow.matches && p) showPane(p);
}

// pickTarget: where the focus goes for result r — the instruction listing, the JSON tree row,
// or the structure tree's row.
function pickTarget(r) {
  if (!state) return null;
  if (r.stream) return listingShown() ? listingTarget() : null;
  const n = r.node;
  if (!n) return null;
  if (jsonTree && jsonTree.selected === n && jsonTree.rows.get(n)) return jsonTree.rows.get(n);
  return mainTree && mainTree.focusTarget();
}
