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
