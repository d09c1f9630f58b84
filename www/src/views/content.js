// @ts-check
// The content pane: a member's decoded content (JSON tree, listing, plot, context) and its bytes.

import { $ } from '../dom.js';
import { childCount } from '../lib/lazy.js';
import { isStreamRef, memberPath, recordsPath } from '../lib/refs.js';
import { contentRootOf, memberOf, parentOf, spanOf, state } from '../state/docs.js';
import { on } from '../state/events.js';
import { select } from '../state/selection.js';
import { ctxShow } from './context.js';
import { fieldMarks, hexShow } from './hex.js';
import { listingHide, listingShow } from './listing.js';
import { overviewHide, overviewOf, overviewShow } from './overview.js';
import { memviewHide, memviewInit, memviewOf, memviewShow } from './memview.js';
import { scheduleHide, scheduleInit, scheduleOf, scheduleShow } from './schedule.js';
import { syncCardInit } from './synccard.js';
import { functionOf, plotShow } from './plot/plot.js';
import { sourceHide, sourceOf, sourceShow } from './source.js';
import { jsonTree, mainTree, setTrees, TreeView } from './tree.js';
import { KIND } from '../lib/vocab.gen.js';

// Content pane: a JSON member as a tree plus its bytes; anything else as bytes.

export { jsonTree, mainTree };

/**
 * contentInit builds the two trees: the document's (members are leaves there: their content
 * has its own tree) and the member content's.
 */
export function contentInit() {
  setTrees(new TreeView($('tree'), (n, from) => select(n, from), (n) => (n.kind === KIND.MEMBER ? [] : n.kids || []), (n) => (n.kind === KIND.MEMBER ? 0 : childCount(n))),
    new TreeView($('json-tree'), (n) => select(n, 'json')));
  scheduleInit();
  memviewInit();
  syncCardInit();
  on('select', ({ n, from, spanOverride }) => {
    // The main tree shows members as leaves: a node inside one selects its member row there.
    if (from !== 'tree') mainTree.markSelected(memberOf(n) || n, false);
    renderContent(n, from, spanOverride);
  });
  on('document', ({ doc }) => {
    // The top of the tree and the member list open; everything else expands on demand.
    mainTree.setRoot(doc.root, (n) => n === doc.root || OPEN_KINDS.has(n.kind) && parentOf(n) === doc.root);
    overviewHide();
    jsonTree.clear();
    $('json-view').hidden = true;
  });
}

const OPEN_KINDS = new Set([KIND.NEFF, KIND.HEADER, KIND.ARCHIVE, KIND.PWP_BUNDLE, KIND.PWP_SET, KIND.GROUP, KIND.NCFW_CONTEXT]);

/**
 * CONTENT_VIEWS: the panes a node may call for above its member's content and bytes, in the
 * pane's order: of(n) names what the pane shows for n (null: the pane hides), show shows it.
 * A new pane is one row, as a new detail section is one row of DETAIL_RENDERERS.
 * @type {{name: string, of: (n: import('../wire.js').Node) => any, show: (v: any, n: import('../wire.js').Node) => void, hide: () => void}[]}
 */
const CONTENT_VIEWS = [
  // The overview (a NEFF's landing view) takes the top of the pane; the file's bytes stay below.
  // The schedule (views/schedule.js), while it is open, takes the overview's place above the listing.
  { name: 'schedule', of: scheduleOf, show: () => scheduleShow(), hide: scheduleHide },
  { name: 'memory', of: memviewOf, show: () => memviewShow(), hide: memviewHide }, // views/memview.js
  { name: 'overview', of: (n) => (scheduleOf(n) || memviewOf(n) ? null : overviewOf(n)), show: (ov) => overviewShow(ov), hide: overviewHide },
  { name: 'source', of: sourceOf, show: (sv, n) => sourceShow(sv, n), hide: sourceHide }, // the kernel source (views/source.js)
  { name: 'plot', of: functionOf, show: (fnode) => plotShow(fnode), hide: () => { $('plot-view').hidden = true; } },
];

/**
 * renderContent shows what n's member holds (JSON tree, listing, plot or context) and the
 * bytes of n (or spanOverride) in the hex view.
 * @param {import('../wire.js').Node} n
 * @param {string} [from]
 * @param {import('../wire.js').Span} [spanOverride]
 */
export function renderContent(n, from, spanOverride) {
  if (state.doc.kind === KIND.NCFW_CONTEXT && state.doc.root.kind === KIND.NCFW_CONTEXT) { ctxShow(n, from); return; }
  $('ctx-view').hidden = true;
  let panes = false;
  for (const cv of CONTENT_VIEWS) {
    const v = cv.of(n);
    if (v) { cv.show(v, n); panes = true; } else cv.hide();
  }
  let jroot = contentRootOf(n);
  const jv = $('json-view');
  const member = memberOf(n);
  $('content-empty').hidden = true;
  // An instruction stream is shown as its listing rather than as a tree.
  // A .dbg member's records table is paged by the listing too (records:<member>).
  const stream = jroot && isStreamRef(jroot.ref) ? jroot : recordsPath(n.ref) !== null ? n : null;
  if (stream) jroot = null;
  if (!stream) listingHide();
  if (jroot) {
    if (jsonTree.root !== jroot) jsonTree.setRoot(jroot);
    jv.hidden = false;
    if (n !== member && jsonTree.has(n)) jsonTree.markSelected(n, from === 'json');
    else jsonTree.markSelected(null);
  } else {
    jv.hidden = true;
    jsonTree.clear();
  }
  $('content').classList.toggle('split', !!jroot || !!stream || panes);
  const title = member ? memberPath(member.ref) : (n.span && n.span.src) || state.doc.file;
  $('content-title').textContent = title;
  const span = spanOverride || spanOf(n);
  const src = span ? span.src || '' : (member ? memberPath(member.ref) : '');
  // A member node highlights nothing (all of it would be highlighted): it shows from its start.
  let hl = span && !span.inherited && n !== member && !(n.kind === KIND.BYTES && n.label === 'content') ? span : null;
  // A node with children is shown by its children's tints, its own range only softly.
  if (hl && childCount(n)) hl = Object.assign({}, hl, { soft: true });
  hexShow(src, hl, from !== 'hex', n === member ? [] : fieldMarks(n, src));
  if (stream) listingShow(stream);
}
