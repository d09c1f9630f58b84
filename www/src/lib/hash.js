// @ts-check
// The URL hash: #f=<first 16 hex digits of the file's sha-256>&n=<node path>, each path key
// URI-encoded (directory keys end in '/') and joined by '/', and b=0x<offset> when a byte of
// the node's source was picked (b=0x<first>-0x<last> a range, both ends in it). state/selection.js writes and
// follows it; these parse and form it.

/**
 * fingerprintOf: the hash's short form of a file's sha-256 ('' when there is none).
 * @param {string | undefined | null} sha256
 */
export const fingerprintOf = (sha256) => (sha256 ? String(sha256).slice(0, 16).toLowerCase() : '');

/**
 * parseHash reads a location hash. f is lower case; n is the raw (still encoded) path, null
 * when absent ('' names the root); b is the byte named, or a range's first, and bLast a
 * range's last byte (null: one byte).
 * @param {string | undefined | null} h
 * @returns {{f: string, n: string | null, b: number | null, bLast: number | null}}
 */
export function parseHash(h) {
  const out = { f: '', n: /** @type {string | null} */ (null), b: /** @type {number | null} */ (null), bLast: /** @type {number | null} */ (null) };
  for (const part of String(h || '').replace(/^#/, '').split('&')) {
    const i = part.indexOf('=');
    if (i < 0) continue;
    const k = part.slice(0, i), v = part.slice(i + 1);
    if (k === 'f') out.f = v.toLowerCase();
    else if (k === 'n') out.n = v;
    else if (k === 'b') {
      const m = /^0x([0-9a-f]{1,13})(?:-0x([0-9a-f]{1,13}))?$/i.exec(v);
      if (!m) continue;
      out.b = parseInt(m[1], 16);
      out.bLast = m[2] === undefined ? null : parseInt(m[2], 16);
      if (out.bLast !== null && out.bLast < out.b) [out.b, out.bLast] = [out.bLast, out.b];
    }
  }
  return out;
}

/**
 * formHash is the hash naming the node at path (its keys) in the file of fingerprint f; ''
 * without a fingerprint (a file not hashed cannot be named).
 * @param {string} f
 * @param {string[]} path
 * @param {number} [byte] a byte of the node's source (its member, or the file) the hex view's cursor is on
 * @param {number} [last] the last byte of a range from byte (shift-click in the hex view)
 */
export function formHash(f, path, byte, last) {
  const range = last !== undefined && byte !== undefined && last > byte ? '-0x' + last.toString(16) : '';
  return f ? '#f=' + f + '&n=' + path.map(encodeURIComponent).join('/') + (byte !== undefined && byte >= 0 ? '&b=0x' + byte.toString(16) + range : '') : '';
}

/**
 * hashPathKey decodes a hash's n into the key of a document's byPath index (keys joined by
 * '/'); null when it is not valid percent-encoding.
 * @param {string} n
 * @returns {string | null}
 */
export function hashPathKey(n) {
  try { return n === '' ? '' : n.split('/').map(decodeURIComponent).join('/'); } catch (e) { return null; }
}

/**
 * hashPath decodes a hash's (or a link's) n into a node path: its keys, in order; null when it
 * is not valid percent-encoding. Keys may hold '/' (directories), which the joined key of
 * hashPathKey cannot tell apart.
 * @param {string} n
 * @returns {string[] | null}
 */
export function hashPath(n) {
  try { return n === '' ? [] : n.split('/').map(decodeURIComponent); } catch (e) { return null; }
}

/**
 * instructionOf reads a node path whose last key is an instruction's ("#N", the key the
 * listing adopts instruction N under its stream): the stream's path and N; null otherwise.
 * @param {string[] | null} path
 * @returns {{stream: string[], index: number} | null}
 */
export function instructionOf(path) {
  if (!path || !path.length) return null;
  const m = /^#(\d{1,9})$/.exec(path[path.length - 1]);
  return m ? { stream: path.slice(0, -1), index: Number(m[1]) } : null;
}
