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
