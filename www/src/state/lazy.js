// @ts-check
// The lazy document in the page: a stub's children are fetched from the core (children) a page
// at a time and spliced into the node, indexed like held ones (store.js spliceKids), so
// selection, detail, breadcrumbs and the hex view work on them unchanged. ensurePath is the one
// way a navigation by path (URL hash, links, search hits, located bytes) reaches a node.

import { call, core } from '../core/client.js';
import { childCount, FETCH_MAX, fetchRange, indexKey, isStub, pageEnd } from '../lib/lazy.js';
import { unpack } from '../wire.js';
import { keyOf, spliceKids, state } from './store.js';

/** @typedef {import('../wire.js').Node} Node */
/** @typedef {import('./store.js').DocState} DocState */

/**
 * handleOf returns d's handle in the core, opening its file again first when the worker was
 * restarted (a cancel) since it was opened.
 * @param {DocState} d
 * @returns {Promise<number>}
 */
export async function handleOf(d) {
  if (d.gen === core.gen && d.handle) return d.handle;
  if (!d.reopen) throw new Error('the core does not hold ' + d.doc.file);
  const h = await d.reopen();
  d.handle = h;
  d.gen = core.gen;
  return h;
}

/**
 * ensureKids fetches n's children until the page holds the first upto of them (or all). Calls
 * for one node run one after another, so a page is never fetched twice.
 * @param {Node} n
 * @param {number} upto
 * @param {DocState} [d]
 * @returns {Promise<Node[]>} n's kids (fetched so far)
 */
export function ensureKids(n, upto, d = state) {
  if (!d || !isStub(n) || !fetchRange((n.kids || []).length, upto, childCount(n))) return Promise.resolve(n.kids || []);
  if (!d.fetching) d.fetching = new Map();
  const prev = d.fetching.get(n) || Promise.resolve([]);
  const p = prev.catch(() => []).then(() => fetchKids(d, n, upto));
  d.fetching.set(n, p);
  p.then(() => { if (d.fetching.get(n) === p) d.fetching.delete(n); }, () => { if (d.fetching.get(n) === p) d.fetching.delete(n); });
  return p;
}

async function fetchKids(d, n, upto) {
  const total = childCount(n);
  for (;;) {
    const r = fetchRange((n.kids || []).length, upto, total);
    if (!r) return n.kids || [];
    const rec = d.info.get(n);
    if (!rec) throw new Error('the node is not in this document');
    const handle = await handleOf(d);
    const res = await call('children', { handle, path: rec.path, from: r.from, to: r.to });
    if ((n.kids || []).length !== r.from) continue;
    const kids = unpack(res.kids);
    if (!Array.isArray(kids) || !kids.length) throw new Error('the core built no children of ' + (rec.path.join(' › ') || d.doc.file) + ' from ' + r.from);
    spliceKids(d, n, kids);
  }
}

// findKid returns n's child with path key key, fetching children under a stub as far as
// needed (and to the end of the tree page that shows it), or null.
async function findKid(d, n, key) {
  const total = childCount(n);
  const have = () => n.kids || [];
  const scan = (from) => {
    const ks = have();
    for (let i = from; i < ks.length; i++) if (keyOf(ks[i]) === key) return i;
    return -1;
  };
  let i = scan(0);
  if (i < 0 && isStub(n)) {
    const at = indexKey(n, key, total);
    if (at >= 0) {
      await ensureKids(n, at + 1, d);
      const k = have()[at];
      if (k && keyOf(k) === key) i = at;
    }
    while (i < 0 && have().length < total) {
      const from = have().length;
      await ensureKids(n, from + FETCH_MAX, d);
      if (have().length === from) break;
      i = scan(from);
    }
  }
  if (i < 0) return null;
  if (isStub(n)) await ensureKids(n, pageEnd(i + 1, total), d);
  return have()[i];
}

/**
 * ensurePath resolves a path of keys in document d (default: the one on show) to its node,
 * fetching the children of the stubs along it; null when no node has that path.
 * @param {string[]} path
 * @param {DocState} [d]
 * @returns {Promise<Node | null>}
 */
export async function ensurePath(path, d = state) {
  if (!d || !path) return null;
  const n = await walkPath(path, d);
  // A path under a .dbg member whose source lines are still being mapped exists only once
  // they are: wait for them, then look again.
  if (n || !d.sourceWait) return n;
  await d.sourceWait.catch(() => {});
  return walkPath(path, d);
}

async function walkPath(path, d) {
  let n = d.doc.root;
  for (let i = 0; i < path.length; i++) {
    const c = d.byPath.get(path.slice(0, i + 1).join('/'));
    if (c && d.info.get(c).parent === n) { n = c; continue; }
    const k = await findKid(d, n, path[i]);
    if (!k) return null;
    n = k;
  }
  return n;
}

/**
 * stubOnPath: the deepest node of path the page holds is a stub not fully fetched, or the
 * source lines are still being mapped, so only the core can say whether the rest of the path
 * exists.
 * @param {DocState} d
 * @param {string[] | null} path
 */
export function stubOnPath(d, path) {
  if (!d || !path) return false;
  let n = d.doc.root;
  for (let i = 0; i < path.length; i++) {
    const c = d.byPath.get(path.slice(0, i + 1).join('/'));
    // (or the source lines are still being mapped: the path may lie under a .dbg member's content)
    if (!c || d.info.get(c).parent !== n) return !!d.sourceWait || isStub(n) && (n.kids || []).length < childCount(n);
    n = c;
  }
  return false;
}

/**
 * locateNode asks the core for the smallest node holding byte off of source src and builds the
 * path to it in the page; null when no node holds it.
 * @param {string} src
 * @param {number} off
 * @param {DocState} [d]
 * @returns {Promise<Node | null>}
 */
export async function locateNode(src, off, d = state) {
  if (!d) return null;
  let r;
  try {
    r = await call('locate', { handle: await handleOf(d), source: src || '', off });
  } catch (e) {
    if (e && e.code === 'not-found') return null;
    throw e;
  }
  return ensurePath(r.path, d);
}
