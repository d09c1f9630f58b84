// @ts-check
// The members' sha-256, when the open left them out (the page's open: Go's SHA-256 in wasm was
// most of a big file's open) and the core's hashMembers computed them afterwards: put them in
// the page's Document as an open that hashed them gives them (each member node's detail, the
// members table's sha256 column), from the core's list in archive order.

import { memberPath } from './refs.js';
import { KIND } from './vocab.gen.js';

/**
 * applyMemberSums puts members ({path, sha256, detail} in archive order) into doc: member
 * nodes of one path take them in document order (they share a directory, in archive order);
 * the members table's rows are one per member, in archive order. It returns how many member
 * nodes it changed.
 * @param {import('../wire.js').Document} doc
 * @param {{path: string, sha256: string, detail: string}[]} members
 * @returns {number}
 */
export function applyMemberSums(doc, members) {
  /** @type {Map<string, import('../wire.js').Node[]>} */
  const nodes = new Map();
  /** @type {import('../wire.js').Table | null} */
  let table = null;
  const walk = (/** @type {import('../wire.js').Node} */ n) => {
    if (n.kind === KIND.ARCHIVE && !table && n.table) table = n.table;
    if (n.kind === KIND.MEMBER) {
      const p = memberPath(n.ref) || '';
      if (p) { if (!nodes.has(p)) nodes.set(p, []); nodes.get(p).push(n); }
      return;
    }
    for (const c of n.kids || []) if (c) walk(c);
  };
  if (doc && doc.root) walk(doc.root);
  let changed = 0;
  const col = table ? table.cols.indexOf('sha256') : -1;
  members.forEach((m, i) => {
    const q = nodes.get(m.path);
    if (q && q.length) { q.shift().detail = m.detail; changed++; }
    const row = table && col >= 0 ? table.rows[i] : null;
    if (row && row[0] === m.path) row[col] = m.sha256;
  });
  return changed;
}

