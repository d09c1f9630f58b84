// @ts-check
// Findings under their root cause: a finding that follows from another (a file cut short, a
// payload whose hash does not match, a file that is no NEFF) names the root's code in its
// cause (core/doc Finding.Cause); the page lists the root once with its consequences under it,
// folded to a count, so a cut file's twenty findings read as one problem.

/**
 * One entry of the grouped list: a finding and the findings it explains (empty for most).
 * @template T
 * @typedef {{item: T | null, code: string, consequences: T[]}} CauseGroup
 */

/**
 * groupByCause puts each finding whose cause names the code of another finding under that
 * root (the first finding of that code that has no cause itself), with the root's code's other
 * findings (a file cut short says so at the header and again at the payload), in the order the
 * roots and the other findings come; consequences whose root is not among them are grouped
 * under an entry of their own with no item (the root's code only).
 * @template {{f: {code?: string, cause?: string}}} T
 * @param {T[]} items
 * @returns {CauseGroup<T>[]}
 */
export function groupByCause(items) {
  /** @type {CauseGroup<T>[]} */
  const out = [];
  /** @type {Map<string, CauseGroup<T>>} */
  const roots = new Map();
  const rootCodes = new Set(items.filter((x) => x.f.cause).map((x) => x.f.cause));
  /** @type {T[]} */
  const caused = [];
  for (const x of items) {
    const code = x.f.code || '';
    if (x.f.cause) caused.push(x);
    else if (!rootCodes.has(code)) out.push({ item: x, code, consequences: [] });
    else if (roots.has(code)) caused.push(x); // the root's own code again: the same cause
    else {
      const g = { item: x, code, consequences: [] };
      roots.set(code, g);
      out.push(g);
    }
  }
  for (const x of caused) {
    const c = x.f.cause || x.f.code || '';
    let g = roots.get(c);
    if (!g) {
      g = { item: null, code: c, consequences: [] };
      roots.set(c, g);
      out.unshift(g);
    }
    g.consequences.push(x);
  }
  return out;
}
