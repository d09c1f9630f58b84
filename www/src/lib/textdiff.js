// @ts-check
// Which characters of two short texts differ (a value before and after: two temporary paths,
// two shapes), for marking them: the texts are cut into words and the punctuation between
// them, the longest common run of those kept, and in what is left each replaced stretch loses
// the characters it shares with the other at its start and end
// ("…fused_e5wm40m0/…fuseddip9buym.klir" against "…fused_88ixmrh0/…fusedfdhbut50.klir" marks
// "e5wm40m", "dip9buym" and "88ixmrh", "fdhbut50": both first parts end in "0").

/**
 * A piece of a text, changed or not.
 * @typedef {{text: string, changed: boolean}} Run
 */

// Past this many token pairs the texts are compared by their common start and end alone.
const MAX_CELLS = 250000;

/**
 * tokens cuts s into runs of letters and digits and single other characters.
 * @param {string} s
 * @returns {string[]}
 */
export function tokens(s) {
  return String(s).match(/[\p{L}\p{N}]+|[^\p{L}\p{N}]/gu) || [];
}

/**
 * changedRuns marks what differs between a and b.
 * @param {string} a
 * @param {string} b
 * @returns {{a: Run[], b: Run[]}}
 */
export function changedRuns(a, b) {
  const ta = tokens(a), tb = tokens(b);
  const out = { a: /** @type {Run[]} */ ([]), b: /** @type {Run[]} */ ([]) };
  if (ta.length * tb.length > MAX_CELLS) {
    gap(out, a, b);
    return out;
  }
  const n = ta.length, m = tb.length, w = m + 1;
  // lcs[i*w+j]: the longest common token run of ta[i:] and tb[j:].
  const lcs = new Int32Array((n + 1) * w);
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      lcs[i * w + j] = ta[i] === tb[j] ? lcs[(i + 1) * w + j + 1] + 1 : Math.max(lcs[(i + 1) * w + j], lcs[i * w + j + 1]);
    }
  }
  let i = 0, j = 0, ga = '', gb = '';
  while (i < n || j < m) {
    if (i < n && j < m && ta[i] === tb[j]) {
      gap(out, ga, gb);
      ga = gb = '';
      push(out.a, ta[i], false);
      push(out.b, tb[j], false);
      i++;
      j++;
    } else if (j >= m || (i < n && lcs[(i + 1) * w + j] >= lcs[i * w + j + 1])) {
      ga += ta[i++];
    } else {
      gb += tb[j++];
    }
  }
  gap(out, ga, gb);
  return out;
}

// gap adds a replaced stretch: what it shares at its start and end stays unmarked.
function gap(out, a, b) {
  if (!a && !b) return;
  const ca = Array.from(a), cb = Array.from(b);
  let p = 0;
  while (p < ca.length && p < cb.length && ca[p] === cb[p]) p++;
  let s = 0;
  while (s < ca.length - p && s < cb.length - p && ca[ca.length - 1 - s] === cb[cb.length - 1 - s]) s++;
  for (const [cs, runs] of [[ca, out.a], [cb, out.b]]) {
    push(runs, cs.slice(0, p).join(''), false);
    push(runs, cs.slice(p, cs.length - s).join(''), true);
    push(runs, cs.slice(cs.length - s).join(''), false);
  }
}

// push appends text to runs, joining it to the last run when that one is marked alike.
function push(runs, text, changed) {
  if (!text) return;
  const last = runs[runs.length - 1];
  if (last && last.changed === changed) last.text += text;
  else runs.push({ text, changed });
}
