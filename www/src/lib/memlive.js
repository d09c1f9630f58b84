// @ts-check
// The buffers live at a memory peak, summed by the kernel line that wrote them (as `neffscope
// memmap` prints them: "conv2d.py:127 168,720 B in 190 buffers"), most bytes first.

/**
 * @typedef {{line: string, bytes: number, buffers: number}} LineSum
 */

/**
 * liveByLine sums the buffers live at a peak by their write's kernel line ('' for none),
 * most bytes first, keeping the first line's order among equal sums.
 * @param {{bytes: number, writeLine?: string}[]} live
 * @returns {LineSum[]}
 */
export function liveByLine(live) {
  /** @type {Map<string, LineSum>} */
  const by = new Map();
  for (const l of live || []) {
    const line = l.writeLine || '';
    let s = by.get(line);
    if (!s) { s = { line, bytes: 0, buffers: 0 }; by.set(line, s); }
    s.bytes += Number(l.bytes) || 0;
    s.buffers++;
  }
  return [...by.values()].sort((a, b) => b.bytes - a.bytes);
}
