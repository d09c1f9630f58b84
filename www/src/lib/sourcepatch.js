// @ts-check
// The source lines, when the open left them out (deferSource: the .dbg scans and the source
// joins were a third of a small NEFF's open) and the core's indexSource mapped them afterwards:
// put what changed into the page's Document as the core's File.ApplySource put it into its
// own, so the page's copy is the eager open's without the Document shipped again.

import { memberPath } from './refs.js';
import { KIND } from './vocab.gen.js';

/** @typedef {import('../wire.js').Node} Node */

/**
 * The core's indexSource answer, its nodes unpacked.
 * @typedef {object} SourcePatch
 * @property {Node | null} [overview] the new overview (the root's child with key overview)
 * @property {Node | null} [source] the model's source node (appended to the root's child model)
 * @property {Node[]} [contents] the .dbg members' new content nodes, in document order, each naming its member by its ref (dbg:<path> or member:<path>)
 * @property {Node | null} [findings] the root without its children: the root's findings become its
 */

const keyOf = (/** @type {Node} */ n) => n.key || n.label || '';

/**
 * swap makes old the node fresh is, keeping old's identity (the selection, the trees' rows and
 * the views that hold it go on naming it).
 * @param {Node} old
 * @param {Node} fresh
 */
function swap(old, fresh) {
  for (const k of Object.keys(old)) delete old[k];
  Object.assign(old, fresh);
}

/**
 * memberOfContent: the member path a content node's ref names (dbg:<path>, member:<path>).
 * @param {Node} n
 */
const memberOfContent = (n) => {
  const r = n && n.ref ? n.ref : '';
  const i = r.indexOf(':');
  return i > 0 && (r.slice(0, i) === 'dbg' || r.slice(0, i) === 'member') ? r.slice(i + 1) : '';
};

/**
 * memberNodes: the member nodes under the root's members, by member path, in document order.
 * @param {Node} root
 * @returns {Map<string, Node[]>}
 */
function memberNodes(root) {
  /** @type {Map<string, Node[]>} */
  const out = new Map();
  const walk = (/** @type {Node} */ n) => {
    if (n.kind === KIND.MEMBER) {
      const p = memberPath(n.ref) || '';
      if (p) { if (!out.has(p)) out.set(p, []); out.get(p).push(n); }
      return;
    }
    for (const c of n.kids || []) if (c) walk(c);
  };
  const members = (root.kids || []).find((c) => c && keyOf(c) === 'members');
  if (members) walk(members);
  return out;
}

/**
 * nodeAt follows path (path keys from the root) among held children; null when it leaves them.
 * @param {Node} root
 * @param {string[]} path
 * @returns {Node | null}
 */
export function nodeAt(root, path) {
  let n = root;
  for (const k of path) {
    n = (n.kids || []).find((c) => c && keyOf(c) === k) || null;
    if (!n) return null;
  }
  return n;
}

/**
 * applySourcePatch puts p into doc. Replaced nodes keep their identity (their fields become
 * the new node's): the overview, each .dbg member's content. It returns the nodes whose
 * fields or children changed (changed: the page redraws what shows them) and how many of
 * the patch's parts found no place (missing: 0 when the Document is the one the open shipped).
 * Applying the same patch twice changes nothing more.
 * @param {import('../wire.js').Document} doc
 * @param {SourcePatch} p
 * @returns {{changed: Node[], missing: number}}
 */
export function applySourcePatch(doc, p) {
  /** @type {Node[]} */
  const changed = [];
  let missing = 0;
  const root = doc && doc.root;
  if (!root) return { changed, missing: 1 };
  const kids = root.kids || (root.kids = []);
  if (p.overview) {
    const ov = kids.find((c) => c && c.kind === KIND.OVERVIEW);
    if (ov) { swap(ov, p.overview); changed.push(ov); } else missing++;
  }
  if (p.source) {
    const model = kids.find((c) => c && c.key === 'model');
    if (!model) missing++;
    else {
      const mk = model.kids || (model.kids = []);
      const had = mk.find((c) => c && c.kind === KIND.SOURCE);
      if (had) swap(had, p.source); else mk.push(p.source);
      changed.push(model);
    }
  }
  const byPath = p.contents && p.contents.length ? memberNodes(root) : new Map();
  for (const c of p.contents || []) {
    // Members of one path take theirs in document order (the core lists them so).
    const q = byPath.get(memberOfContent(c));
    const m = q && q.shift();
    if (!m) { missing++; continue; }
    const mk = m.kids || (m.kids = []);
    const old = mk.find((k) => k && k.label === 'content');
    if (old) { swap(old, c); changed.push(old); } else { mk.push(c); changed.push(m); }
  }
  if (p.findings) {
    if (p.findings.finds && p.findings.finds.length) root.finds = p.findings.finds;
    else delete root.finds;
    changed.push(root);
  }
  return { changed, missing };
}

/**
 * sourcePending says whether doc's overview answers its kernel source question later (the
 * open left the source lines out): its source section is attrs.pending.
 * @param {import('../wire.js').Document} doc
 */
export function sourcePending(doc) {
  const ov = doc && doc.root && (doc.root.kids || []).find((c) => c && c.kind === KIND.OVERVIEW);
  const s = ov && (ov.kids || []).find((c) => c && c.key === 'source');
  return !!(s && s.attrs && s.attrs.pending);
}
