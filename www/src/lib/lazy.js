// @ts-check
// The lazy document's node shapes (core/inspect lazy.go): a stub is a node whose attrs.more
// counts children the core builds on demand; the page fetches them a page at a time and
// splices them into the node's kids, a prefix [0, kids.length) of the whole list.

import { KIND } from './vocab.gen.js';

/** TREE_PAGE: rows a tree builds per "show more" step (and the unit the page fetches in). */
export const TREE_PAGE = 1000;
/** FETCH_MAX: the core's cap on one children() call. */
export const FETCH_MAX = 10000;

/**
 * isStub: n's children are built by the core on demand (attrs.more holds their count).
 * @param {{attrs?: Object<string, string>} | null | undefined} n
 */
export const isStub = (n) => !!(n && n.attrs && n.attrs.more);

/**
 * childCount: how many children n has, held, fetched or not.
 * @param {{attrs?: Object<string, string>, kids?: any[]} | null | undefined} n
 */
export function childCount(n) {
  if (!n) return 0;
  if (isStub(n)) {
    const c = Number(n.attrs.more);
    return Number.isFinite(c) && c > 0 ? Math.floor(c) : 0;
  }
  return (n.kids || []).length;
}

/**
 * unfetched: n is a stub some of whose children the page has not fetched yet.
 * @param {{attrs?: Object<string, string>, kids?: any[]} | null | undefined} n
 */
export const unfetched = (n) => isStub(n) && (n.kids || []).length < childCount(n);

/**
 * fetchRange: the next children() call that brings n's fetched prefix to (at least) upto:
 * {from, to} with to - from ≤ FETCH_MAX, or null when nothing is missing.
 * @param {number} have children fetched
 * @param {number} upto wanted
 * @param {number} total children n has
 * @returns {{from: number, to: number} | null}
 */
export function fetchRange(have, upto, total) {
  const to = Math.min(upto, total);
  if (have >= to) return null;
  return { from: have, to: Math.min(to, have + FETCH_MAX) };
}

/**
 * pageEnd rounds a child count up to a whole tree page (so a tree revealing child i can build
 * its page without another fetch), capped at total.
 * @param {number} count
 * @param {number} total
 */
export const pageEnd = (count, total) => Math.min(total, Math.ceil(count / TREE_PAGE) * TREE_PAGE);

/**
 * indexKey: where a key can only be, without fetching: a JSON array's element keys are
 * their indices. -1 when the key says nothing about its position.
 * @param {{kind?: string}} parent
 * @param {string} key
 * @param {number} total
 */
export function indexKey(parent, key, total) {
  if (!parent || parent.kind !== KIND.ARRAY || !/^(0|[1-9]\d*)$/.test(key)) return -1;
  const i = Number(key);
  return i < total ? i : -1;
}
