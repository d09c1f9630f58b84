// @ts-check
// The search box's byte offsets: "0x1f40", "@0x1f40", "@8000" and "8000" name a byte. The
// search (views/search.js) names, for the file and for the member the hex view shows, the
// deepest node whose bytes hold it. A hex or @ query past the end says so; a bare decimal past
// the end is only a number to look for.

/**
 * parseOffsetQuery reads q (trimmed) as a byte offset. explicit: the query can only be an
 * offset (hex, or with `@`), so one past the end deserves a note. Digits beyond what a double
 * holds exactly give Infinity (past any end).
 * @param {string} q
 * @returns {{off: number, explicit: boolean} | null}
 */
export function parseOffsetQuery(q) {
  let m = /^@?0x([0-9a-f]+)$/i.exec(q);
  if (m) return { off: m[1].length > 13 ? Infinity : parseInt(m[1], 16), explicit: true };
  m = /^@?(\d+)$/.exec(q);
  if (m) return { off: m[1].length > 15 ? Infinity : Number(m[1]), explicit: q.startsWith('@') };
  return null;
}
