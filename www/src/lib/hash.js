// @ts-check
// The URL hash: #f=<first 16 hex digits of the file's sha-256>&n=<node path>, each path key
// URI-encoded (directory keys end in '/') and joined by '/', and b=0x<offset> when a byte of
// the node's source was picked (b=0x<first>-0x<last> a range, both ends in it). Beside f, the
// file's name, size in bytes and UUID (name=, size=, uuid=), so a page without the file can
// say which one to open;
// a view open over the selection (v=schedule or v=memory, its window of steps w=<lo>~<hi>,
// its core c=<k>); the document compared with (vs=<fingerprint>, vsname=, vssize=, vsuuid=: the
// comparison's page); the documents compared with in a comparison of several (v=compare,
// all=<fingerprint>,…, alln=<name>,…, alls=<size>,…, allu=<uuid>,…: each the same order, each
// name URI-encoded). state/selection.js writes and follows it; these parse and form it.

/**
 * fingerprintOf: the hash's short form of a file's sha-256 ('' when there is none).
 * @param {string | undefined | null} sha256
 */
export const fingerprintOf = (sha256) => (sha256 ? String(sha256).slice(0, 16).toLowerCase() : '');

/**
 * What a hash names beside the node: the file's name, size and UUID, a view and its place, the
 * document compared with. '' (or null) for what it leaves out.
 * @typedef {object} Place
 * @property {string} [name] the file's name
 * @property {number | null} [size] its size in bytes
 * @property {string} [uuid] its UUID (a NEFF's header)
 * @property {string} [v] the view open over the selection: 'schedule', 'memory', or 'diff' (with vs)
 * @property {{lo: number, hi: number} | null} [w] the view's window of steps (null: all of it)
 * @property {number | null} [c] the view's core (its index; null: the first)
 * @property {string} [vs] the fingerprint of the document compared with
 * @property {string} [vsname] its name
 * @property {number | null} [vssize] its size in bytes
 * @property {string} [vsuuid] its UUID
 * @property {LinkedFile[]} [all] a comparison of several (v 'compare'): the documents compared with the first, in order
 */

/**
 * A file a link names beside the first: its fingerprint, name, size and UUID ('' or null unknown).
 * @typedef {{f: string, name: string, size: number | null, uuid: string}} LinkedFile
 */

/** MAX_LINKED bounds the files a comparison's link names (the page compares at most 64). */
const MAX_LINKED = 64;

/**
 * The parts of a hash: f, n, b, bLast as parseHash documents them, and the Place beside them.
 * @typedef {{f: string, n: string | null, b: number | null, bLast: number | null, name: string, size: number | null, uuid: string, v: string, w: {lo: number, hi: number} | null, c: number | null, vs: string, vsname: string, vssize: number | null, vsuuid: string, all: LinkedFile[]}} Hash
 */

// decode is decodeURIComponent that answers '' for malformed percent-encoding.
const decode = (v) => { try { return decodeURIComponent(v); } catch (e) { return ''; } };

/**
 * parseHash reads a location hash. f is lower case; n is the raw (still encoded) path, null
 * when absent ('' names the root); b is the byte named, or a range's first, and bLast a
 * range's last byte (null: one byte); the rest, decoded, as Place says ('' or null when absent
 * or malformed).
 * @param {string | undefined | null} h
 * @returns {Hash}
 */
export function parseHash(h) {
  /** @type {Hash} */
  const out = { f: '', n: null, b: null, bLast: null, name: '', size: null, uuid: '', v: '', w: null, c: null, vs: '', vsname: '', vssize: null, vsuuid: '', all: [] };
  /** @type {Record<string, string[]>} the comparison of several's lists */
  const lists = { all: [], alln: [], alls: [], allu: [] };
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
    } else if (k === 'name' || k === 'uuid' || k === 'vsname' || k === 'vsuuid') out[k] = decode(v);
    else if ((k === 'size' || k === 'vssize') && /^\d{1,15}$/.test(v)) out[k] = Number(v);
    else if (k === 'v' && /^(schedule|memory|diff|compare)$/.test(v)) out.v = v;
    else if (k in lists) lists[k] = v.split(',').slice(0, MAX_LINKED);
    else if (k === 'vs' && /^[0-9a-f]{1,64}$/i.test(v)) out.vs = v.toLowerCase();
    else if (k === 'w') {
      const m = /^(-?\d{1,12})~(-?\d{1,12})$/.exec(v);
      if (m && Number(m[2]) > Number(m[1])) out.w = { lo: Number(m[1]), hi: Number(m[2]) };
    } else if (k === 'c' && /^\d{1,6}$/.test(v)) out.c = Number(v);
  }
  out.all = lists.all.filter((f) => /^[0-9a-f]{1,64}$/i.test(f)).length === lists.all.length ? lists.all.map((f, i) => ({
    f: f.toLowerCase(), name: decode(lists.alln[i] || ''), size: /^\d{1,15}$/.test(lists.alls[i] || '') ? Number(lists.alls[i]) : null, uuid: decode(lists.allu[i] || ''),
  })) : [];
  if (out.v === 'compare' && (!out.all.length || out.vs)) out.v = '';
  if (out.v !== 'compare') out.all = [];
  if (out.v === 'diff' && !out.vs) out.v = '';
  if (out.vs && !out.v) out.v = 'diff';
  return out;
}

/**
 * formHash is the hash naming the node at path (its keys) in the file of fingerprint f, with
 * what place says beside it; '' without a fingerprint (a file not hashed cannot be named).
 * @param {string} f
 * @param {string[]} path
 * @param {number} [byte] a byte of the node's source (its member, or the file) the hex view's cursor is on
 * @param {number} [last] the last byte of a range from byte (shift-click in the hex view)
 * @param {Place} [place]
 */
export function formHash(f, path, byte, last, place) {
  if (!f) return '';
  const p = place || {};
  const range = last !== undefined && byte !== undefined && last > byte ? '-0x' + last.toString(16) : '';
  let h = '#f=' + f;
  if (p.name) h += '&name=' + encodeURIComponent(p.name);
  if (p.size) h += '&size=' + p.size;
  if (p.uuid) h += '&uuid=' + encodeURIComponent(p.uuid);
  if (p.v === 'compare' && p.all && p.all.length) {
    const all = p.all.slice(0, MAX_LINKED);
    h += '&v=compare&all=' + all.map((x) => x.f).join(',') + '&alln=' + all.map((x) => encodeURIComponent(x.name || '')).join(',') +
      '&alls=' + all.map((x) => x.size || '').join(',') + '&allu=' + all.map((x) => encodeURIComponent(x.uuid || '')).join(',');
  } else if (p.vs) {
    h += '&vs=' + p.vs;
    if (p.vsname) h += '&vsname=' + encodeURIComponent(p.vsname);
    if (p.vssize) h += '&vssize=' + p.vssize;
    if (p.vsuuid) h += '&vsuuid=' + encodeURIComponent(p.vsuuid);
  } else if (p.v === 'schedule' || p.v === 'memory') {
    h += '&v=' + p.v;
    if (p.c) h += '&c=' + p.c;
    if (p.w && p.w.hi > p.w.lo) h += '&w=' + Math.round(p.w.lo) + '~' + Math.round(p.w.hi);
  }
  return h + '&n=' + path.map(encodeURIComponent).join('/') + (byte !== undefined && byte >= 0 ? '&b=0x' + byte.toString(16) + range : '');
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
