// @ts-check
// The instruction listing: a million-row virtual grid whose rows come from the core in blocks.

import { call } from '../core/client.js';
import { $, closestTo, el, toast } from '../dom.js';
import { fmtInt } from '../lib/format.js';
import { LRU } from '../lib/lru.js';
import { streamPath } from '../lib/refs.js';
import { MAX_SCROLL_PX, scrollToVirtual, toVirtual } from '../lib/virtual-scroll.js';
import { keyOf, pathOf, state } from '../state/docs.js';
import { setSelected } from '../state/selection.js';
import { unpackNode, unpackTable } from '../wire.js';
import { renderDetail } from './detail.js';
import { ensureHandle, fieldMarks, hex, hexShow } from './hex.js';
import { follow, linkTarget } from './overview.js';

// Listing: a node whose Ref is "stream:<member>" is an instruction stream; its rows come from
// the core a block at a time (rows), and one instruction's fields on demand (instruction),
// so a million-row listing keeps only a screenful in the DOM.

const LIST_ROW = 20;
const LIST_BLOCK = 256;
export const listing = { node: null, ref: '', total: 0, cols: [], blocks: new LRU(64), full: 0, selected: -1, key: '' };

export function listingShow(node) {
  const box = $('listing');
  box.hidden = false;
  const key = hex.key + '|' + node.ref;
  if (listing.key === key) { listingRender(); return; }
  listing.key = key;
  listing.node = node;
  listing.ref = node.ref;
  listing.total = 0;
  listing.cols = [];
  listing.blocks.clear();
  listing.selected = -1;
  $('listing-scroll').scrollTop = 0;
  $('listing-rows').replaceChildren();
  fetchBlock(0).promise.then(() => { if (listing.key === key) listingRender(); });
}

export function fetchBlock(idx) {
  let b = listing.blocks.get(idx);
  if (b) return b;
  const ref = listing.ref;
  b = { rows: null, spans: null, links: null };
  b.promise = ensureHandle()
    .then((h) => call('rows', { handle: h, ref, from: idx * LIST_BLOCK, to: (idx + 1) * LIST_BLOCK }))
    .then((r) => {
      const t = unpackTable(r.table);
      b.rows = t.rows || [];
      b.spans = t.rspans || [];
      b.links = t.rlinks || null;
      if (ref === listing.ref) {
        if (!listing.cols.length) listing.cols = t.cols || [];
        if (listing.total !== r.total) {
          listing.total = r.total;
          const full = r.total * LIST_ROW;
          $('listing-spacer').style.height = Math.min(full, MAX_SCROLL_PX) + 'px';
          listing.full = full;
        }
      }
    })
    .catch((e) => { listing.blocks.delete(idx); toast('Listing ' + streamPath(ref) + ': ' + e.message); });
  listing.blocks.set(idx, b);
  return b;
}

// colClass names a listing column's cell class from its title (widths live in style.css).
const colClass = (c) => 'lc col-' + c.toLowerCase().replace(/[^a-z0-9]+/g, '-');

function listingRender() {
  if ($('listing').hidden || !listing.total) return;
  const head = $('listing-head');
  if (head.dataset.ref !== listing.ref) {
    head.dataset.ref = listing.ref;
    head.replaceChildren();
    listing.cols.forEach((c) => head.appendChild(el('span', colClass(c), c)));
    head.appendChild(el('span', 'lc-count muted', fmtInt(listing.total) + ' rows'));
  }
  const sc = $('listing-scroll');
  const virtualTop = toVirtual(sc, listing.full);
  const first = Math.max(0, Math.min(listing.total - 1, Math.floor(virtualTop / LIST_ROW)));
  const count = Math.min(listing.total - first, Math.ceil(sc.clientHeight / LIST_ROW) + 2);
  const rowsEl = $('listing-rows');
  rowsEl.style.top = (sc.scrollTop - (virtualTop - first * LIST_ROW)) + 'px';
  const frag = document.createDocumentFragment();
  const key = listing.key;
  let waiting = null;
  for (let i = first; i < first + count; i++) {
    const b = fetchBlock(Math.floor(i / LIST_BLOCK));
    const r = el('div', 'lrow');
    r.dataset.index = i;
    r.setAttribute('role', 'row');
    if (i === listing.selected) r.classList.add('selected');
    if (b.rows) {
      const row = b.rows[i % LIST_BLOCK] || [];
      const link = b.links && b.links[i % LIST_BLOCK];
      row.forEach((cell, k) => {
        // The joins' cell of a row that leads somewhere (set, function, DMA queue) is a link.
        if (link && listing.cols[k] === 'resolved' && linkTarget(link)) {
          const a = el('button', colClass('resolved') + ' ov-link l-link', cell);
          a.type = 'button';
          a.tabIndex = -1; // the grid is one tab stop: Enter on the selected row follows it
          a.dataset.link = link;
          a.title = 'Go to ' + link.split('/').map(decodeURIComponent).join(' › ');
          r.appendChild(a);
        } else r.appendChild(el('span', colClass(listing.cols[k] || ''), cell));
      });
      if (link) r.dataset.link = link;
    } else {
      r.appendChild(el('span', 'lc col-index', i));
      r.appendChild(el('span', 'lc muted', '…'));
      waiting = b;
    }
    frag.appendChild(r);
  }
  rowsEl.replaceChildren(frag);
  listingAria();
  if (waiting) waiting.promise.then(() => { if (key === listing.key) requestAnimationFrame(listingRender); });
}

// adopt indexes a node fetched on demand (an instruction's fields) under parent, so the
// detail pane and the hex view treat it like any node of the document.
export function adopt(n, parent, key) {
  const base = pathOf(parent).concat(key);
  (function walk(m, p, path) {
    state.info.set(m, { parent: p, path, worst: 0 });
    if (m.span && state.spanIdx) state.spanIdx.delete(m.span.src || ''); // rebuilt with the new node
    (m.kids || []).forEach((c) => walk(c, m, path.concat(keyOf(c))));
  })(n, parent, base);
  return n;
}

export async function listingSelect(i) {
  listing.selected = i;
  listingRender();
  const ref = listing.ref, node = listing.node;
  try {
    const h = await ensureHandle();
    const r = await call('instruction', { handle: h, ref, index: i });
    // A newer selection (a key held down) supersedes this one.
    if (ref !== listing.ref || i !== listing.selected) return;
    const ins = adopt(unpackNode(r.node), node, '#' + i);
    setSelected(ins);
    renderDetail(ins);
    if (ins.span) hexShow(ins.span.src || '', ins.span, true, fieldMarks(ins, ins.span.src || ''));
  } catch (e) {
    toast('Instruction ' + i + ': ' + e.message);
  }
}

export function listingInit() {
  const sc = $('listing-scroll');
  sc.addEventListener('scroll', () => { $('listing-head').scrollLeft = sc.scrollLeft; requestAnimationFrame(listingRender); });
  new ResizeObserver(() => listingRender()).observe(sc);
  $('listing-rows').addEventListener('click', (e) => {
    const a = closestTo(e, '.l-link');
    if (a) { follow(a.dataset.link); return; }
    const r = closestTo(e, '.lrow');
    if (r) listingSelect(Number(r.dataset.index));
  });
  // The grid (#listing) holds the focus; the scroller inside it is not a tab stop.
  $('listing').addEventListener('keydown', (e) => {
    if (!listing.total) return;
    let i = listing.selected;
    const page = Math.max(1, Math.floor(sc.clientHeight / LIST_ROW) - 1);
    switch (e.key) {
      case 'ArrowDown': i = Math.min(listing.total - 1, i + 1); break;
      case 'ArrowUp': i = Math.max(0, i - 1); break;
      case 'PageDown': i = Math.min(listing.total - 1, i + page); break;
      case 'PageUp': i = Math.max(0, i - page); break;
      case 'Home': i = 0; break;
      case 'End': i = listing.total - 1; break;
      case 'ArrowRight': case 'ArrowLeft': sc.scrollLeft += e.key === 'ArrowRight' ? 48 : -48; e.preventDefault(); return;
      case 'Enter': {
        // Enter on the selected row follows its link (set, function, queue), if it has one.
        const row = i >= 0 && $('listing-rows').querySelector('.lrow[data-index="' + i + '"]');
        if (row && row.dataset.link) { e.preventDefault(); follow(row.dataset.link); return; }
        if (i < 0) i = listingFirstShown();
        break;
      }
      default: return;
    }
    e.preventDefault();
    listingKeepVisible(i);
    listingSelect(i);
  });
}

// listingKeepVisible scrolls as little as puts row i in view (a step at the edge moves the
// view by one row, as in any list).
function listingKeepVisible(i) {
  const sc = $('listing-scroll');
  const top = toVirtual(sc, listing.full);
  const y = i * LIST_ROW;
  if (y < top) scrollToVirtual(sc, listing.full, y);
  else if (y + LIST_ROW > top + sc.clientHeight) scrollToVirtual(sc, listing.full, y + LIST_ROW - sc.clientHeight);
}

function listingFirstShown() {
  return Math.max(0, Math.min(listing.total - 1, Math.ceil(toVirtual($('listing-scroll'), listing.full) / LIST_ROW)));
}

// listingAria: the listing is an ARIA grid of total+1 rows (the header is row 1) of which a
// screenful is in the DOM; the grid's active descendant is the selected row when it is shown.
function listingAria() {
  const grid = $('listing');
  grid.setAttribute('aria-rowcount', String(listing.total + 1));
  grid.setAttribute('aria-colcount', String(listing.cols.length));
  grid.setAttribute('aria-label', 'Instruction listing of ' + streamPath(listing.ref) + ', ' + fmtInt(listing.total) + ' instructions');
  const head = $('listing-head');
  for (const c of head.children) {
    if (c.classList.contains('lc-count')) c.setAttribute('aria-hidden', 'true');
    else c.setAttribute('role', 'columnheader');
  }
  let active = null;
  for (const r of $('listing-rows').children) {
    const i = Number(r.dataset.index);
    r.setAttribute('aria-rowindex', String(i + 2));
    for (const c of r.children) c.setAttribute('role', 'gridcell');
    if (i === listing.selected) {
      r.id = 'lrow-' + i;
      r.setAttribute('aria-selected', 'true');
      active = r.id;
    }
  }
  if (active) grid.setAttribute('aria-activedescendant', active);
  else grid.removeAttribute('aria-activedescendant');
}

export function listingScrollTo(i) {
  const sc = $('listing-scroll');
  const first = Math.floor(toVirtual(sc, listing.full) / LIST_ROW);
  const view = Math.floor(sc.clientHeight / LIST_ROW);
  if (i >= first && i < first + view - 1) return;
  scrollToVirtual(sc, listing.full, Math.max(0, (i - Math.floor(view / 2)) * LIST_ROW));
}

// listingHide hides the listing (the selection has no instruction stream).
export function listingHide() {
  $('listing').hidden = true;
  listing.key = '';
}
