// @ts-check
// TreeView: an ARIA tree, lazy (children are built when a node is first expanded; a stub's
// children are fetched from the core first, a page at a time).

import { el } from '../dom.js';
import { fmtInt } from '../lib/format.js';
import { childCount, TREE_PAGE, unfetched } from '../lib/lazy.js';
import { keyOf, kindOf, parentOf, pathOf, state } from '../state/docs.js';
import { ensureKids } from '../state/lazy.js';
import { DOC_KIND } from '../lib/vocab.gen.js';

// Tree view (ARIA tree; lazy: children are built when a node is first expanded).

const CHILD_PAGE = TREE_PAGE; // rows built per "show more" step, so a 100k-element array stays usable

/** @type {TreeView | null} the document's tree (members are leaves there), made by views/structure.js */
export let mainTree = null;
/** @type {TreeView | null} the member content's tree, made by views/content.js */
export let jsonTree = null;
/**
 * setTrees records the trees (each made by the view that shows it).
 * @param {{main?: TreeView, json?: TreeView}} t
 */
export function setTrees(t) {
  if (t.main) mainTree = t.main;
  if (t.json) jsonTree = t.json;
}

const TYPE_AHEAD_MS = 700;

export class TreeView {
  // kidsOf says which children a node shows here (the main tree shows members as leaves:
  // their decoded content has its own tree in the content pane), countOf how many it has
  // (a stub's count includes the children not fetched yet).
  constructor(container, onSelect, kidsOf, countOf) {
    this.el = container;
    this.onSelect = onSelect;
    this.kidsOf = kidsOf || ((n) => n.kids || []);
    this.countOf = countOf || childCount;
    this.rows = new Map();
    this.expanded = new Set();
    this.shown = new Map(); // node → number of children built
    this.selected = null;
    container.addEventListener('click', (e) => this.onClick(e));
    container.addEventListener('dblclick', (e) => { const n = this.nodeAt(e.target); if (n) this.toggle(n); });
    container.addEventListener('keydown', (e) => this.onKey(e));
    container.addEventListener('keydown', (e) => this.typeAhead(e));
    this.typed = '';
    this.typedTimer = 0;
  }
  /**
   * focusTarget: the selected row (where the focus lands when the tree is what a link opened),
   * or null.
   * @returns {HTMLElement | null}
   */
  focusTarget() { return (this.selected && this.rows.get(this.selected)) || null; }
  /**
   * typeAhead: letters move to the next visible row whose label starts so; the same letter
   * again cycles through them.
   * @param {KeyboardEvent} e
   */
  typeAhead(e) {
    // '/' opens the search and Space toggles a row: neither is typed.
    if (e.ctrlKey || e.metaKey || e.altKey || e.key.length !== 1 || e.key === ' ' || e.key === '/') return;
    if (!this.root) return;
    const ch = e.key.toLowerCase();
    clearTimeout(this.typedTimer);
    this.typedTimer = setTimeout(() => { this.typed = ''; }, TYPE_AHEAD_MS);
    this.typed = this.typed === ch ? ch : this.typed + ch;
    const rows = this.visibleRows();
    const cur = this.rows.get(this.nodeAt(document.activeElement) || this.selected);
    const at = rows.indexOf(cur);
    const start = this.typed.length === 1 ? at + 1 : Math.max(0, at);
    for (let k = 0; k < rows.length; k++) {
      const r = rows[(start + k) % rows.length];
      const label = r.querySelector(':scope > .row > .label');
      if (!label || !label.textContent.toLowerCase().startsWith(this.typed)) continue;
      e.preventDefault();
      const n = /** @type {any} */ (r).nodeRef;
      this.onSelect(n, 'tree');
      this.markSelected(n, true);
      return;
    }
  }
  // setRoot shows root; open(n) says which nodes start expanded (default: the root).
  setRoot(root, open) {
    this.clear();
    this.root = root;
    open = open || ((n) => n === root);
    const rec = (n) => {
      if (!this.countOf(n) || !open(n)) return;
      this.expanded.add(n);
      this.kidsOf(n).forEach(rec);
    };
    rec(root);
    this.el.replaceChildren(this.buildRow(root, 1, 1, 1));
    this.tabbable = this.rows.get(root);
    this.tabbable.tabIndex = 0;
  }
  clear() {
    this.root = null;
    this.rows.clear();
    this.expanded.clear();
    this.shown.clear();
    this.selected = null;
    this.tabbable = null;
    this.el.replaceChildren();
  }
  has(n) { return !!this.root && this.reveal(n); }
  buildRow(n, level, pos, size) {
    const item = el('div', 'ti');
    item.setAttribute('role', 'treeitem');
    item.setAttribute('aria-level', level);
    item.setAttribute('aria-posinset', pos);
    item.setAttribute('aria-setsize', size);
    item.setAttribute('aria-selected', 'false');
    item.tabIndex = -1;
    item.dataset.path = pathOf(n).join('/');
    item.dataset.key = keyOf(n);
    item.dataset.kind = n.kind;
    if (n.ref) item.dataset.ref = n.ref;
    const row = el('div', 'row');
    row.style.paddingLeft = (level - 1) * 14 + 4 + 'px';
    const hasKids = this.countOf(n) > 0;
    row.appendChild(el('span', 'twisty', hasKids ? '▸' : ''));
    const k = kindOf(n.kind);
    const g = el('span', 'glyph k-' + n.kind, k.glyph);
    g.title = k.title;
    row.appendChild(g);
    row.appendChild(el('span', 'label', n.label));
    if (n.detail) row.title = n.detail;
    if (state.doc.kind === DOC_KIND.NCFW_DUMP && n.attrs && n.attrs.line) row.insertBefore(el('span', 'lineno', n.attrs.line), row.firstChild);
    if (n.value) row.appendChild(el('span', 'value v-' + n.kind, n.value));
    const worst = state.info.get(n).worst;
    if (worst) {
      const own = (n.finds || []).length;
      const b = el('span', 'badge sev-' + ['', 'info', 'warning', 'error'][worst], own ? String(own) : '');
      b.title = own ? own + ' finding(s) here' : 'findings below';
      if (!own) b.classList.add('below');
      row.appendChild(b);
    }
    item.appendChild(row);
    item.nodeRef = n;
    this.rows.set(n, item);
    if (hasKids) {
      item.setAttribute('aria-expanded', this.expanded.has(n) ? 'true' : 'false');
      if (this.expanded.has(n)) item.appendChild(this.buildGroup(n, level));
    }
    return item;
  }
  buildGroup(n, level) {
    const g = el('div', 'group');
    g.setAttribute('role', 'group');
    this.appendChildren(g, n, level, 0);
    return g;
  }
  appendChildren(g, n, level, from) {
    const total = this.countOf(n);
    const want = Math.min(total, from + CHILD_PAGE);
    if (this.kidsOf(n).length < want && unfetched(n)) { this.fetchChildren(g, n, level, from, want); return; }
    const kids = this.kidsOf(n);
    const to = Math.min(want, kids.length);
    const frag = document.createDocumentFragment();
    for (let i = from; i < to; i++) frag.appendChild(this.buildRow(kids[i], level + 1, i + 1, total));
    this.shown.set(n, to);
    if (to < total) {
      const more = el('button', 'more', 'show ' + fmtInt(Math.min(CHILD_PAGE, total - to)) + ' more of ' + fmtInt(total - to));
      more.type = 'button';
      more.style.marginLeft = level * 14 + 22 + 'px';
      more.addEventListener('click', (e) => { e.stopPropagation(); more.remove(); this.appendChildren(g, n, level, to); });
      frag.appendChild(more);
    } else if (n.attrs && n.attrs.view_limit) {
      // What the core's tree of n leaves out (attrs.view_limit): a note after its last row.
      const note = el('div', 'view-limit muted', n.attrs.view_limit);
      note.setAttribute('role', 'note');
      note.style.marginLeft = level * 14 + 22 + 'px';
      frag.appendChild(note);
    }
    g.appendChild(frag);
  }
  // fetchChildren asks the core for n's children [.., to) (a stub), then builds rows from
  // from; the group says it is busy meanwhile. A selection waiting for its row is marked once
  // the row exists.
  fetchChildren(g, n, level, from, to) {
    const wait = el('div', 'loading muted', 'loading ' + fmtInt(to - from) + ' of ' + fmtInt(this.countOf(n) - from) + '…');
    wait.style.marginLeft = level * 14 + 22 + 'px';
    g.appendChild(wait);
    g.setAttribute('aria-busy', 'true');
    this.shown.set(n, from);
    ensureKids(n, to).then(() => {
      wait.remove();
      g.removeAttribute('aria-busy');
      if (!g.isConnected || !this.expanded.has(n)) return;
      this.appendChildren(g, n, level, from);
      if (this.selected && !this.rows.has(this.selected)) this.markSelected(this.selected, false);
    }, (e) => {
      g.removeAttribute('aria-busy');
      wait.classList.add('error');
      wait.textContent = 'Could not fetch the children: ' + (e && e.message || e);
    });
  }
  nodeAt(target) {
    const item = target.closest && target.closest('.ti');
    return item && this.el.contains(item) ? item.nodeRef : null;
  }
  isOpen(n) { return this.expanded.has(n); }
  expand(n) {
    if (!this.countOf(n) || this.expanded.has(n)) return;
    this.expanded.add(n);
    const item = this.rows.get(n);
    if (item) {
      item.setAttribute('aria-expanded', 'true');
      item.appendChild(this.buildGroup(n, Number(item.getAttribute('aria-level'))));
    }
  }
  collapse(n) {
    if (!this.expanded.has(n)) return;
    this.expanded.delete(n);
    const item = this.rows.get(n);
    if (!item) return;
    item.setAttribute('aria-expanded', 'false');
    const g = item.querySelector(':scope > .group');
    if (g) {
      // Forget the rows of the collapsed subtree: they are rebuilt on the next expand.
      g.querySelectorAll('.ti').forEach((r) => { this.rows.delete(r.nodeRef); this.expanded.delete(r.nodeRef); });
      g.remove();
    }
  }
  toggle(n) { if (this.expanded.has(n)) this.collapse(n); else this.expand(n); }
  // refresh builds n's row group again after its children changed (the source lines mapped
  // after the open); a collapsed n shows them when expanded.
  refresh(n) {
    if (!this.expanded.has(n)) return;
    this.collapse(n);
    this.expand(n);
  }
  // reveal expands n's ancestors (within this tree) so its row exists; false if n is not here.
  reveal(n) {
    const chain = [];
    for (let m = n; m; m = parentOf(m)) { chain.unshift(m); if (m === this.root) break; }
    if (chain[0] !== this.root) return false;
    for (let i = 0; i < chain.length - 1; i++) if (this.kidsOf(chain[i]).indexOf(chain[i + 1]) < 0) return false;
    for (let i = 0; i < chain.length - 1; i++) {
      const parent = chain[i];
      this.expand(parent);
      const idx = this.kidsOf(parent).indexOf(chain[i + 1]);
      while (idx >= (this.shown.get(parent) || 0)) {
        const g = this.groupOf(this.rows.get(parent));
        const more = g && g.querySelector(':scope > .more');
        const shown = this.shown.get(parent) || 0;
        if (!more) break;
        more.click();
        if ((this.shown.get(parent) || 0) === shown) break; // fetching: marked when it arrives
      }
    }
    return this.rows.has(n);
  }
  markSelected(n, focus) {
    if (this.selected && this.rows.get(this.selected)) {
      const old = this.rows.get(this.selected);
      old.setAttribute('aria-selected', 'false');
      old.tabIndex = -1;
    }
    this.selected = n;
    if (!n || !this.reveal(n)) return;
    const item = this.rows.get(n);
    item.setAttribute('aria-selected', 'true');
    // One row is in the tab order: the last one marked (setRoot's root at first).
    if (this.tabbable && this.tabbable !== item) this.tabbable.tabIndex = -1;
    this.tabbable = item;
    item.tabIndex = 0;
    const row = item.firstChild;
    const box = this.el.getBoundingClientRect(), r = row.getBoundingClientRect();
    if (r.top < box.top || r.bottom > box.bottom) row.scrollIntoView({ block: 'nearest' });
    if (focus) item.focus({ preventScroll: true });
  }
  onClick(e) {
    const n = this.nodeAt(e.target);
    if (!n) return;
    if (e.target.classList.contains('twisty')) { this.toggle(n); return; }
    this.onSelect(n, 'tree');
    this.markSelected(n, true);
  }
  // Every row in the DOM shows (a collapsed node's group is removed), so the row above or
  // below is found from the row itself, not from a list of the tree's rows: a key press in a
  // tree of 50,000 rows read all of them (~0.6 s).
  /** groupOf is the group of rows item shows under it, or null. */
  groupOf(item) { return this.expanded.has(item.nodeRef) ? item.querySelector(':scope > .group') : null; }
  /** lastRow is the last row shown under item (item itself when it shows none). */
  lastRow(item) {
    for (;;) {
      const g = this.groupOf(item);
      const rows = g ? g.querySelectorAll(':scope > .ti') : null;
      if (!rows || !rows.length) return item;
      item = rows[rows.length - 1];
    }
  }
  /** rowAfter is the row shown below item, or null. */
  rowAfter(item) {
    const g = this.groupOf(item);
    const first = g && g.querySelector(':scope > .ti');
    if (first) return first;
    for (let r = item; r && this.el.contains(r); r = r.parentElement && r.parentElement.closest('.ti')) {
      for (let s = r.nextElementSibling; s; s = s.nextElementSibling) if (s.classList.contains('ti')) return s;
    }
    return null;
  }
  /** rowBefore is the row shown above item, or null. */
  rowBefore(item) {
    for (let s = item.previousElementSibling; s; s = s.previousElementSibling) if (s.classList.contains('ti')) return this.lastRow(s);
    const up = item.parentElement && item.parentElement.closest('.ti');
    return up && this.el.contains(up) ? up : null;
  }
  /** visibleRows lists the rows shown, in order (type-ahead). */
  visibleRows() { return Array.from(this.el.querySelectorAll('.ti')); }
  onKey(e) {
    const cur = this.nodeAt(document.activeElement) || this.selected || this.root;
    let next = null;
    switch (e.key) {
      case 'ArrowDown': case 'ArrowUp': {
        const item = this.rows.get(cur);
        const r = item && (e.key === 'ArrowDown' ? this.rowAfter(item) : this.rowBefore(item));
        next = r ? r.nodeRef : null;
        break;
      }
      case 'ArrowRight':
        if (this.countOf(cur)) { if (!this.isOpen(cur)) this.expand(cur); else next = this.kidsOf(cur)[0] || null; }
        break;
      case 'ArrowLeft':
        if (this.isOpen(cur)) this.collapse(cur);
        else if (cur !== this.root) next = parentOf(cur);
        break;
      case 'Home': next = this.root; break;
      case 'End': next = this.root ? this.lastRow(this.rows.get(this.root)).nodeRef : null; break;
      case 'Enter': case ' ':
        if (this.countOf(cur)) this.toggle(cur);
        this.onSelect(cur, 'tree');
        this.markSelected(cur, true);
        break;
      default: return;
    }
    e.preventDefault();
    if (next) { this.onSelect(next, 'tree'); this.markSelected(next, true); }
  }
}
