// @ts-check
// Listing columns that fit their content: each column as wide as its title and the longest
// cell among the rows fetched (in characters of the monospace font), within bounds per
// column, so a stream of short names does not give 22 characters to "Copy" and the operands
// get the room.

/** Widest a column grows (characters) before its cells are cut (the title shows it whole). */
const MAX_CH = { operands: 72, source: 40, name: 26, resolved: 48, sync: 28 };
const MAX_DEFAULT = 32;
const MIN_CH = 3;

/**
 * fitColumns measures each column of rows (its cells as text) against its title: the width in
 * characters that shows them whole, within [MIN_CH, the column's maximum], plus pad.
 * @param {string[]} cols the column titles
 * @param {Iterable<(string | number)[]>} rows
 * @param {number} [pad] characters between columns
 * @returns {Record<string, number>}
 */
export function fitColumns(cols, rows, pad = 2) {
  const w = cols.map((c) => Array.from(String(c)).length);
  for (const r of rows) {
    for (let k = 0; k < cols.length && k < r.length; k++) {
      const v = r[k];
      if (v === undefined || v === null) continue;
      const n = Array.from(String(v)).length;
      if (n > w[k]) w[k] = n;
    }
  }
  /** @type {Record<string, number>} */
  const out = {};
  cols.forEach((c, k) => {
    const max = MAX_CH[c] || MAX_DEFAULT;
    out[c] = Math.max(MIN_CH, Math.min(max, w[k])) + pad;
  });
  return out;
}

/**
 * grownColumns is fit with no column narrower than it was in before: the columns widen as
 * rows further down arrive, never shrink under the reader's eyes.
 * @param {Record<string, number>} before
 * @param {Record<string, number>} fit
 * @returns {{widths: Record<string, number>, changed: boolean}}
 */
export function grownColumns(before, fit) {
  const widths = Object.assign({}, before);
  let changed = false;
  for (const [c, n] of Object.entries(fit)) {
    if (!(c in widths) || n > widths[c]) { widths[c] = n; changed = true; }
  }
  return { widths, changed };
}
