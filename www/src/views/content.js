// @ts-check
// The content pane: above the bytes, what the selected node's member holds, by the content
// views of views/registry.js (asked in the table's order: the libncfw context, the schedule,
// the memory view, the overview, the kernel source, a function's plot, a stream's listing, a
// JSON member's tree), and below them the bytes of the node (views/hex.js). Its title names
// the member (or the file).

import { $ } from '../dom.js';
import { childCount } from '../lib/lazy.js';
import { isStreamRef, memberPath, recordsPath } from '../lib/refs.js';
import { contentRootOf, memberOf, spanOf, state } from '../state/docs.js';
import { on } from '../state/events.js';
import { select } from '../state/selection.js';
import { fieldMarks, hexHide, hexShow } from './hex.js';
import { jsonTree, setTrees, TreeView } from './tree.js';
import { KIND } from '../lib/vocab.gen.js';

/** @typedef {import('../wire.js').Node} Node */
/** @typedef {import('./registry.js').View} View */

/** @type {HTMLElement} the pane's body (#content) */
let pane;
/** @type {View[]} the content views, in the order they are asked */
let rows = [];

/**
 * contentInit: the pane follows the selection with the content views of views (the registry's
 * rows of place 'content').
 * @param {HTMLElement} root
 * @param {{views: View[]}} ctx
 */
export function contentInit(root, { views }) {
  pane = root;
  rows = views.filter((v) => v.place === 'content');
  on('select', ({ n, from, spanOverride }) => renderContent(n, from, spanOverride));
}

/**
 * contentTitle names what the pane shows (a view that shows alone names it itself).
 * @param {string} text
 */
export function contentTitle(text) {
  $('content-title').textContent = text;
}

/**
 * contentOpening empties the pane for a file whose first overview is to show in it before its
 * document: every content view and the bytes hide, the title names the file.
 * @param {string} title
 */
export function contentOpening(title) {
  for (const v of rows) v.hide();
  hexHide();
  $('content-empty').hidden = true;
  contentTitle(title);
}

/**
 * contentSize: the height of the content view above the bytes (one whose row is sized), which
 * the splitter between them sets (views/layout.js).
 */
export const contentSize = {
  current: () => { const up = rows.find((v) => v.sized && v.el && !v.el.hidden); return up ? up.el.getBoundingClientRect().height : 0; },
  max: () => pane.clientHeight - 80,
  /** @param {number | null} px */
  apply: (px) => { pane.style.setProperty('--content-top', px === null ? '' : px + 'px'); pane.classList.toggle('sized', px !== null); },
};

/**
 * renderContent shows, for n, what each content view answers (of) and hides the others, then
 * the bytes of n (or spanOverride) in the hex view. A view that shows alone (the libncfw
 * context) keeps the views after it hidden and draws the title and bytes itself; one that
 * shows instead of another (the schedule instead of the overview) keeps that one hidden.
 * @param {Node} n
 * @param {string} [from]
 * @param {import('../wire.js').Span} [spanOverride]
 */
export function renderContent(n, from, spanOverride) {
  $('content-empty').hidden = true;
  let alone = false;
  const answers = new Map();
  for (const v of rows) {
    const x = alone ? null : v.of(n);
    answers.set(v.name, x);
    if (x && v.alone) alone = true;
  }
  for (const v of rows) if (v.instead && answers.get(v.name)) answers.set(v.instead, null);
  let upper = false;
  for (const v of rows) {
    const x = answers.get(v.name);
    if (!x) { v.hide(); continue; }
    v.show(x, n, from);
    if (!v.alone) upper = true;
  }
  if (alone) return;
  pane.classList.toggle('split', upper);
  const member = memberOf(n);
  contentTitle(member ? memberPath(member.ref) : (n.span && n.span.src) || state.doc.file);
  const span = spanOverride || spanOf(n);
  const src = span ? span.src || '' : (member ? memberPath(member.ref) : '');
  // A member node highlights nothing (all of it would be highlighted): it shows from its start.
  let hl = span && !span.inherited && n !== member && !(n.kind === KIND.BYTES && n.label === 'content') ? span : null;
  // A node with children is shown by its children's tints, its own range only softly.
  if (hl && childCount(n)) hl = Object.assign({}, hl, { soft: true });
  hexShow(src, hl, from !== 'hex', n === member ? [] : fieldMarks(n, src));
}

// ---- the JSON view: a JSON member's decoded content as a tree ----

/** @type {HTMLElement} #json-view */
let jsonView;

/**
 * jsonInit makes the member content's tree.
 * @param {HTMLElement} root
 */
export function jsonInit(root) {
  jsonView = root;
  setTrees({ json: new TreeView($('json-tree'), (n) => select(n, 'json')) });
  on('document', () => { jsonTree.clear(); jsonView.hidden = true; });
  on('patched', ({ changed }) => { if (jsonTree.root && changed.includes(jsonTree.root)) jsonTree.clear(); });
}

/**
 * jsonOf: the decoded JSON content of n's member, or null (none, or an instruction stream or a
 * .dbg member's records: the listing pages those).
 * @param {Node} n
 */
export function jsonOf(n) {
  const jroot = contentRootOf(n);
  return jroot && !isStreamRef(jroot.ref) && recordsPath(n.ref) === null ? jroot : null;
}

/**
 * jsonShow shows the tree of jroot with n marked (when it is in it).
 * @param {Node} jroot
 * @param {Node} n
 * @param {string} [from]
 */
export function jsonShow(jroot, n, from) {
  if (jsonTree.root !== jroot) jsonTree.setRoot(jroot);
  jsonView.hidden = false;
  if (n !== memberOf(n) && jsonTree.has(n)) jsonTree.markSelected(n, from === 'json');
  else jsonTree.markSelected(null);
}

/** jsonHide hides the tree (and forgets it). */
export function jsonHide() {
  jsonView.hidden = true;
  jsonTree.clear();
}
