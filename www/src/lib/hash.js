// @ts-check
// The URL hash: #f=<first 16 hex digits of the file's sha-256>&n=<node path>, each path key
// URI-encoded (directory keys end in '/') and joined by '/', and b=0x<offset> when a byte of
// the node's source was picked. state/selection.js writes and
// follows it; these parse and form it.

/**
 * fingerprintOf: the hash's short form of a file's sha-256 ('' when there is none).
 * @param {string | undefined | null} sha256
 */
export const fingerprintOf = (sha256) => (sha256 ? String(sha256).slice(0, 16).toLowerCase() : '');

/**
 * parseHash reads a location hash. f is lower case; n is the raw (still encoded) path, null
 * when absent ('' names the root).
 * @param {string | undefined | null} h
 * @returns {{f: string, n: string | null, b: number | null}}
 */
export function parseHash(h) {
  const out = { f: '', n: /** @type {string | null} */ (null), b: /** @type {number | null} */ (null) };
  for (const part of String(h || '').replace(/^#/, '').split('&')) {
    const i = part.indexOf('=');
    if (i < 0) continue;
    const k = part.slice(0, i), v = part.slice(i + 1);
    if (k === 'f') out.f = v.toLowerCase();
    else if (k === 'n') out.n = v;
    else if (k === 'b' && /^0x[0-9a-f]{1,13}$/i.test(v)) out.b = parseInt(v.slice(2), 16);
  }
  return out;
}

/**
 * formHash is the hash naming the node at path (its keys) in the file of fingerprint f; ''
 * without a fingerprint (a file not hashed cannot be named).
 * @param {string} f
 * @param {string[]} path
 * @param {number} [byte] a byte of the node's source (its member, or the file) the hex view's cursor is on
 */
export function formHash(f, path, byte) {
  return f ? '#f=' + f + '&n=' + path.map(encodeURIComponent).join('/') + (byte !== undefined && byte >= 0 ? '&b=0x' + byte.toString(16) : '') : '';
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
