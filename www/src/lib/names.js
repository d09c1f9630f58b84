// @ts-check
// Shortening file names for tabs: the middle goes, the start and the end (where names differ:
// a stem's suffix, the extension) stay.

/**
 * middleEllipsis shortens name to at most max characters (code points) by cutting its middle:
 * "stream_2048_k_fd1k.neff" → "stream_2…k_fd1k.neff". The end keeps a little more than the
 * start, so the extension and the distinguishing suffix survive.
 * @param {string} name
 * @param {number} [max]
 * @returns {string}
 */
export function middleEllipsis(name, max = 20) {
  const cs = Array.from(String(name || ''));
  if (cs.length <= max || max < 3) return cs.join('');
  const keep = max - 1;
  const tail = Math.ceil(keep * 0.55);
  const head = keep - tail;
  return cs.slice(0, head).join('') + '…' + cs.slice(cs.length - tail).join('');
}

/**
 * distinctNames gives each path of a list (the open tabs' file names, which may be paths such
 * as a compile cache's "neuronxcc-2.21…/MODULE_a/model.neff") the name to show for it: the
 * shortest suffix of its path, in whole segments, that no other path ends with, then
 * shortened to at most max characters by cutting the middle of the part it shares with the
 * others, never the characters that tell it apart. Identical paths get " (2)", " (3)"….
 * @param {string[]} paths
 * @param {number} [max]
 * @returns {string[]}
 */
export function distinctNames(paths, max = 20) {
  const segs = paths.map((p) => String(p || '').split('/').filter((s, i, a) => s !== '' || i === a.length - 1));
  const tail = (s, k) => s.slice(Math.max(0, s.length - k)).join('/');
  const names = segs.map((s, i) => {
    for (let k = 1; k < s.length; k++) {
      const mine = tail(s, k);
      if (!segs.some((o, j) => j !== i && tail(o, k) === mine)) return mine;
    }
    return s.join('/');
  });
  const cps = names.map((n) => Array.from(n));
  const out = cps.map((c, i) => {
    // How much of the name it shares with the closest other at each end.
    let pre = 0, suf = 0;
    cps.forEach((o, j) => {
      if (j === i || o.join('') === c.join('')) return;
      let a = 0; while (a < c.length && a < o.length && c[a] === o[a]) a++;
      let b = 0; while (b < c.length && b < o.length && c[c.length - 1 - b] === o[o.length - 1 - b]) b++;
      pre = Math.max(pre, a);
      suf = Math.max(suf, b);
    });
    return elideKeeping(c, max, pre, suf);
  });
  // The same path twice (two files of one name): number the later ones.
  const seen = new Map();
  return out.map((n, i) => {
    const k = names[i];
    const c = (seen.get(k) || 0) + 1;
    seen.set(k, c);
    return c > 1 ? n + ' (' + c + ')' : n;
  });
}

// elideKeeping shortens the code points c to max with one "…" in the middle, so that it still
// shows either its first pre+1 characters or its last suf+1 (where it differs from the others);
// when neither fits, a second "…" cuts the shared start too: "MODULE_…5+e3…model.neff".
function elideKeeping(c, max, pre, suf) {
  if (c.length <= max || max < 3) return c.join('');
  const keep = max - 1;
  let tailN = Math.ceil(keep * 0.55);
  let headN = keep - tailN;
  const minEnd = 4;
  if (headN <= pre && tailN <= suf) {
    if (pre + 1 + minEnd <= keep) { headN = pre + 1; tailN = keep - headN; }
    else if (suf + 1 + minEnd <= keep) { tailN = suf + 1; headN = keep - tailN; }
    else {
      // The distinguishing character sits deep inside: show a little of the start, a window
      // ending just past the first difference, and the end.
      const ends = minEnd;
      const win = Math.max(1, max - 2 - 2 * ends);
      const to = Math.min(c.length - ends, pre + 1);
      const from = Math.max(ends, to - win);
      return c.slice(0, ends).join('') + '…' + c.slice(from, to).join('') + '…' + c.slice(c.length - ends).join('');
    }
  }
  return c.slice(0, headN).join('') + '…' + c.slice(c.length - tailN).join('');
}

/**
 * elideSource fits a listing's source cell ("file.py:58 I-87-0") into max characters without
 * cutting the line number: the file name's middle goes first, then the BIR name after it.
 * @param {string} text
 * @param {number} max
 * @returns {string}
 */
export function elideSource(text, max) {
  const s = String(text || '');
  if (Array.from(s).length <= max) return s;
  const m = /^(.*?)(:\d+)(\s.*)?$/.exec(s);
  if (!m) return middleEllipsis(s, max);
  const [, file, line, rest = ''] = m;
  const fileRoom = Math.max(4, max - line.length);
  const place = middleEllipsis(file, fileRoom) + line;
  const left = max - Array.from(place).length;
  return left > 2 ? place + ' ' + middleEllipsis(rest.trim(), left - 1) : place;
}

/**
 * lineHue: a stable hue (degrees) for the k-th kernel line of a file, golden-angle spaced so
 * neighbouring lines differ (the source pane and the listing share it).
 * @param {number} k
 * @returns {number}
 */
export function lineHue(k) {
  return Math.round((k * 137.508) % 360);
}
