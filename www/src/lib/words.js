// @ts-check
// A kernel source line's instruction words (its node's "words" attr, core/inspect's source
// mapping): which instructions of which stream the line produced.

/** @typedef {import('../wire.js').Node} Node */

/** @type {WeakMap<Node, {member: string, index: number}[]>} */
const wordsCache = new WeakMap();

/**
 * lineWords: a line node's instruction words in stream order, from its "words" attr
 * ("member:a-b,c;member:…").
 * @param {Node} line
 * @returns {{member: string, index: number}[]}
 */
export function lineWords(line) {
  let w = wordsCache.get(line);
  if (w) return w;
  w = [];
  const s = (line.attrs && line.attrs.words) || '';
  for (const part of s ? s.split(';') : []) {
    const at = part.lastIndexOf(':');
    if (at < 0) continue;
    const member = part.slice(0, at);
    for (const r of part.slice(at + 1).split(',')) {
      const [a, b] = r.split('-').map(Number);
      if (!Number.isInteger(a)) continue;
      const hi = Number.isInteger(b) ? b : a;
      for (let i = a; i <= hi && w.length < 1 << 20; i++) w.push({ member, index: i });
    }
  }
  wordsCache.set(line, w);
  return w;
}
