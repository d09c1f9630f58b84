// @ts-check
// The open documents and their index (node → parent, path, worst finding), the current one
// (state, written only via setCurrent) and the span index. state/docs.js shows them.

import { unfetched } from '../lib/lazy.js';
import { isMemberRef, memberPath } from '../lib/refs.js';
import { KIND } from '../lib/vocab.gen.js';

// The document and its index.

const JSON_KINDS = new Set([KIND.OBJECT, KIND.ARRAY, KIND.STRING, KIND.NUMBER, KIND.BOOL, KIND.NULL]);
export const SEV_RANK = { info: 1, warning: 2, error: 3 };

// KINDS: how each node kind looks in a tree (its keys are KIND's values: tsc checks them).
// Unknown kinds get the default row.
/** @type {Partial<Record<import('../lib/vocab.gen.js').Kind, {glyph: string, title: string}>>} */
const KINDS = {
  neff: { glyph: '◆', title: 'NEFF file' },
  header: { glyph: 'H', title: 'header' },
  payload: { glyph: 'P', title: 'payload' },
  verdict: { glyph: '✓', title: 'runtime verdict' },
  archive: { glyph: '▦', title: 'archive' },
  dir: { glyph: '▸', title: 'directory' },
  member: { glyph: '▤', title: 'archive member' },
  field: { glyph: '•', title: 'field' },
  flag: { glyph: '⚑', title: 'flag bit' },
  padding: { glyph: '░', title: 'padding' },
  bytes: { glyph: '01', title: 'bytes' },
  object: { glyph: '{}', title: 'JSON object' },
  array: { glyph: '[]', title: 'JSON array' },
  string: { glyph: '"', title: 'JSON string' },
  number: { glyph: '#', title: 'JSON number' },
  bool: { glyph: 'b', title: 'JSON boolean' },
  null: { glyph: '∅', title: 'JSON null' },
};
Object.assign(KINDS, {
  manifest: { glyph: '{}', title: 'manifest (JSON)' },
  model: { glyph: 'M', title: 'model' },
  overview: { glyph: '★', title: 'overview' },
  answer: { glyph: '▸', title: 'overview answer' },
  cause: { glyph: '!', title: 'root cause' },
  instructions: { glyph: '≡', title: 'instruction stream' },
  table: { glyph: '▦', title: 'table' },
  npy: { glyph: 'N', title: 'NumPy array' },
  'pwp-bundle': { glyph: 'ƒ', title: 'activation tables' },
  'pwp-roster': { glyph: 'R', title: 'activation roster (act_info.json)' },
  'pwp-roster-set': { glyph: 'S', title: 'roster set' },
  'pwp-set': { glyph: 'S', title: 'activation set' },
  'pwp-function': { glyph: 'ƒ', title: 'activation function' },
  'pwp-octaves': { glyph: '≡', title: 'octaves' },
  'pwp-bucket': { glyph: 'B', title: 'bucket record (32 bytes)' },
  'pwp-eval': { glyph: '=', title: 'evaluation' },
  'ncfw-context': { glyph: 'C', title: 'libncfw collective context' },
  'ncfw-arches': { glyph: 'A', title: 'arches' },
  'ncfw-text': { glyph: 'T', title: 'printed text' },
  'ncfw-dump': { glyph: 'D', title: 'libncfw ctx_log dump' },
  group: { glyph: '▣', title: 'group' },
});
/**
 * kindOf: how a node kind looks in a tree; kinds without a row (new decoders) get their initial.
 * @param {string} k
 * @returns {{glyph: string, title: string}}
 */
export const kindOf = (k) => KINDS[k] || { glyph: (k || '?').charAt(0).toUpperCase(), title: k };

/** @typedef {import('../wire.js').Node} Node */

/**
 * One open document (a tab) and what the page derives from it.
 * @typedef {object} DocState
 * @property {import('../wire.js').Document} doc
 * @property {number} uid page-unique (table memory keys)
 * @property {File} [file] the file it was opened from
 * @property {File[]} [files] the files opened together (a group)
 * @property {number} [handle] the core's handle for it
 * @property {number} [gen] the core generation the handle belongs to (older ones are void)
 * @property {() => Promise<number>} [reopen] opens it again in a new core, resolves with the handle
 * @property {{arch: number, model: string}} [context] a libncfw context's emulation settings
 * @property {Map<Node, {parent: Node | null, path: string[], worst: number}>} info
 * @property {Map<string, Node>} byPath nodes by path (keys joined by '/')
 * @property {{f: import('../wire.js').Finding, node: Node}[]} findings
 * @property {Node} [selected]
 * @property {Map<string, Node>} [members] sources by path, built on first use (findMember)
 * @property {number} [openMs] the core's time to open it (a libncfw context)
 * @property {boolean} [stored] a library entry shown without its bytes (they were not kept)
 * @property {Map<string, {bounds: number[], owners: (Node | null)[], stubs: {n: Node, off: number, end: number}[]}>} [spanIdx] the span index per source (ownerAt, stubAt)
 * @property {Map<Node, Promise<Node[]>>} [fetching] children fetches in flight, by stub (ensureKids)
 * @property {Promise<void>} [sourceWait] while the core maps the source lines the open left out (features/mapsource.js): settles when the Document has them
 * @property {string} [sourceFailed] why the source lines could not be mapped
 * @property {{state: string, done?: number, total?: number, message?: string} | null} [memberHashes] the members' sha-256 the open left out, while features/open.js computes them
 * @property {() => void} [hashMembers] computes them again (after a failure)
 * @property {any} [cacheRow] the compile cache's row it was opened from (views/cache.js)
 */

/** @type {any} the open in flight (features/open.js sets it), or null */
export let opening = null;
/**
 * setOpening records the open in flight (null: none).
 * @param {any} token
 */
export function setOpening(token) { opening = token; }

/** @type {DocState | null} the document on show */
export let state = null;
/**
 * setCurrent makes d the document on show (this module is the only writer of state).
 * @param {DocState} d
 */
export function setCurrent(d) { state = d; }

/**
 * keyOf: a node's path segment among its siblings (key, else label).
 * @param {Node} n
 */
export const keyOf = (n) => n.key || n.label || '';

// indexTree adds n and its held subtree to idx (info, byPath, findings) under parent at path.
function indexTree(idx, n, parent, path) {
  const rec = { parent, path, worst: 0 };
  idx.info.set(n, rec);
  idx.byPath.set(path.join('/'), n);
  for (const f of n.finds || []) {
    idx.findings.push({ f, node: n });
    rec.worst = Math.max(rec.worst, SEV_RANK[f.sev] || 0);
  }
  for (const c of n.kids || []) {
    indexTree(idx, c, n, path.concat(keyOf(c)));
    rec.worst = Math.max(rec.worst, idx.info.get(c).worst);
  }
}

/**
 * spliceKids appends kids (fetched from the core) to n's children in document d and indexes
 * them like held ones: parent, path, worst finding (carried up to n's ancestors), findings.
 * The span index and the member map are rebuilt on next use.
 * @param {DocState} d
 * @param {Node} n
 * @param {Node[]} kids
 */
export function spliceKids(d, n, kids) {
  const rec = d.info.get(n);
  if (!rec) return;
  if (!n.kids) n.kids = [];
  for (const c of kids) {
    n.kids.push(c);
    indexTree(d, c, n, rec.path.concat(keyOf(c)));
    rec.worst = Math.max(rec.worst, d.info.get(c).worst);
  }
  for (let p = rec.parent, w = rec.worst; p; p = d.info.get(p).parent) {
    const r = d.info.get(p);
    if (r.worst >= w) break;
    r.worst = w;
  }
  d.spanIdx = undefined;
  d.members = undefined;
}

/**
 * reindex indexes d's Document again after it changed in place (the source lines mapped after
 * the open): info, byPath, findings; the span index and the member map are rebuilt on next use.
 * Nodes adopted outside the tree (an instruction's fields) are forgotten.
 * @param {DocState} d
 */
export function reindex(d) {
  Object.assign(d, indexDoc(d.doc));
  d.spanIdx = undefined;
  d.members = undefined;
}

function indexDoc(doc) {
  const idx = { info: new Map(), byPath: new Map(), findings: [] };
  indexTree(idx, doc.root, null, []);
  return idx;
}

/**
 * pathOf: the keys from the root to n in the current document.
 * @param {Node} n
 * @returns {string[]}
 */
export const pathOf = (n) => state.info.get(n).path;
/**
 * parentOf: n's parent in the current document (null for the root).
 * @param {Node} n
 * @returns {Node | null}
 */
export const parentOf = (n) => state.info.get(n).parent;

/**
 * memberOf returns the member node n belongs to (itself included), or null.
 * @param {Node} n
 * @returns {Node | null}
 */
export function memberOf(n) {
  for (let m = n; m; m = parentOf(m)) if (m.kind === KIND.MEMBER && isMemberRef(m.ref)) return m;
  return null;
}
/**
 * contentRootOf returns the decoded content of the member n belongs to (a JSON tree today;
 * instruction listings and tables from later decoders plug in the same way), which the
 * content pane shows as its own tree above the bytes. null when the member is only bytes.
 * @param {Node} n
 * @returns {Node | null}
 */
export function contentRootOf(n) {
  const m = memberOf(n);
  if (!m) return null;
  return (m.kids || []).find((c) => !(c.kind === KIND.BYTES && !(c.kids && c.kids.length))) || null;
}
/**
 * spanOf: n's bytes, or (inherited, len 0) where its nearest ancestor with a span starts.
 * @param {Node} n
 * @returns {import('../wire.js').Span | null}
 */
export function spanOf(n) {
  for (let m = n; m; m = parentOf(m)) if (m.span) return m === n ? m.span : { src: m.span.src, off: m.span.off, len: 0, inherited: true };
  return null;
}
/**
 * sourceSize: how many bytes a source has ('' = the file; a member path = its size).
 * @param {string} src
 * @returns {number}
 */
export function sourceSize(src) {
  if (!src) return state.doc.size;
  const m = findMember(src);
  if (m && m.span) return m.span.len;
  // Files dropped together: a source is one of them, by name.
  const f = (state.files || []).find((x) => x.name === src);
  return f ? f.size : 0;
}
/**
 * findMember: the node whose bytes are source src (an archive member, or a loose file of a
 * group), or null.
 * @param {string} src
 * @returns {Node | null}
 */
export function findMember(src) {
  if (!state.members) {
    state.members = new Map();
    // Archive members first; loose files joined into one document (activation blobs) are
    // sources too, named by a node whose Ref is "member:<file>".
    for (const n of state.info.keys()) if (n.kind === KIND.MEMBER && isMemberRef(n.ref)) state.members.set(memberPath(n.ref), n);
    for (const n of state.info.keys()) {
      const p = memberPath(n.ref);
      if (p !== null && n.span && !state.members.has(p)) state.members.set(p, n);
    }
  }
  return state.members.get(src) || null;
}

// ---- several documents: a drop of several files gives one per group (tabs) ----

/** @type {DocState[]} the documents of the last open (the tabs) */
export let docs = [];
/**
 * setDocs makes list the open documents (the tabs).
 * @param {DocState[]} list
 */
export function setDocs(list) { docs = list; }
let uidNext = 1;

/**
 * makeState indexes doc and adds extra (file, handle, gen, …).
 * @param {import('../wire.js').Document} doc
 * @param {Partial<DocState>} [extra]
 * @returns {DocState}
 */
export function makeState(doc, extra) {
  return Object.assign({ doc, uid: uidNext++ }, extra, indexDoc(doc));
}

/**
 * field: the node at path (keys) under doc's root, or null.
 * @param {import('../wire.js').Document} doc
 * @param {...string} path
 * @returns {Node | null}
 */
export function field(doc, ...path) {
  let n = doc.root;
  for (const k of path) { n = n && (n.kids || []).find((c) => keyOf(c) === k); }
  return n || null;
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

// ---- the span index: which node owns a byte, built once per document and source ----

/**
 * spanIndex builds, for one source, the elementary intervals between every span boundary and
 * the most specific node owning each (the shortest span; at equal length the deeper node), by
 * one sweep over the sorted spans with a heap of the open ones: O(n log n) once, then a binary
 * search per lookup instead of a scan of every node.
 * @param {DocState} d
 * @param {string} src
 * @returns {{bounds: number[], owners: (Node | null)[], stubs: {n: Node, off: number, end: number}[]}}
 */
function spanIndex(d, src) {
  const spans = [];
  for (const [n, rec] of d.info) {
    const s = n.span;
    if (s && (s.src || '') === src && s.len > 0) spans.push({ n, off: s.off, end: s.off + s.len, len: s.len, depth: rec.path.length, stub: unfetched(n) });
  }
  spans.sort((a, b) => a.off - b.off);
  const cuts = new Set();
  for (const s of spans) { cuts.add(s.off); cuts.add(s.end); }
  const bounds = [...cuts].sort((a, b) => a - b);
  const owners = [];
  // heap: best first (shortest, then a stub not fetched yet — what it holds may be smaller,
  // and the core is asked —, then deepest)
  const heap = [];
  const better = (a, b) => a.len < b.len || (a.len === b.len && (a.stub !== b.stub ? a.stub : a.depth > b.depth));
  const push = (x) => {
    heap.push(x);
    for (let i = heap.length - 1; i > 0;) {
      const p = (i - 1) >> 1;
      if (!better(heap[i], heap[p])) break;
      [heap[i], heap[p]] = [heap[p], heap[i]];
      i = p;
    }
  };
  const pop = () => {
    const top = heap[0], last = heap.pop();
    if (heap.length) {
      heap[0] = last;
      for (let i = 0; ;) {
        const l = 2 * i + 1, r = l + 1;
        let m = i;
        if (l < heap.length && better(heap[l], heap[m])) m = l;
        if (r < heap.length && better(heap[r], heap[m])) m = r;
        if (m === i) break;
        [heap[i], heap[m]] = [heap[m], heap[i]];
        i = m;
      }
    }
    return top;
  };
  let k = 0;
  for (let b = 0; b < bounds.length - 1; b++) {
    const at = bounds[b];
    while (k < spans.length && spans[k].off <= at) push(spans[k++]);
    while (heap.length && heap[0].end <= at) pop(); // closed spans leave lazily
    owners.push(heap.length ? heap[0].n : null);
  }
  return { bounds, owners, stubs: spans.filter((x) => x.stub) };
}

/**
 * stubAt: a stub whose children the page has not all fetched holds byte off of source src, so
 * a node smaller than ownerAt's may be below it (the core's locate knows).
 * @param {string} src
 * @param {number} off
 */
export function stubAt(src, off) {
  if (!state) return false;
  ownerAt(src, off); // builds the index
  const idx = state.spanIdx && state.spanIdx.get(src || '');
  return !!idx && idx.stubs.some((x) => x.off <= off && off < x.end && unfetched(x.n));
}

/**
 * ownerAt finds the most specific node whose span holds byte off of source src (null: none).
 * @param {string} src
 * @param {number} off
 * @returns {Node | null}
 */
export function ownerAt(src, off) {
  if (!state) return null;
  if (!state.spanIdx) state.spanIdx = new Map();
  let idx = state.spanIdx.get(src || '');
  if (!idx) { idx = spanIndex(state, src || ''); state.spanIdx.set(src || '', idx); }
  const { bounds, owners } = idx;
  let lo = 0, hi = bounds.length - 1; // find the last bound <= off
  if (hi < 1 || off < bounds[0] || off >= bounds[hi]) return null;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (bounds[mid] <= off) lo = mid; else hi = mid;
  }
  return owners[lo];
}
