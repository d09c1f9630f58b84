// @ts-check
// The hash role: a second worker, named HASH_ROLE (../roles.js) by the page, that computes a
// file's sha-256 (its fingerprint) and, for a NEFF, its payload's MD5 (the header's integrity
// check) in one pass, while the core worker opens the file on another core: the core's own
// SHA-256 and MD5 in wasm were seconds of a big open. It reads the File in slices, so it holds
// no more than one slice. Protocol: {id, file} → {id, sha256, md5} or {id, error}; md5 is
// null when the file has no NEFF header to say where its payload is.
//
// The digests are hash-wasm's (www/vendor/hash-wasm): streaming SHA-256 and MD5 compiled to
// wasm. Their modules are instantiated from bytes embedded in the script, which the page's CSP
// allows with 'wasm-unsafe-eval' (the Go core needs the same); WebCrypto has no streaming
// digest, and a one-shot digest of a big file would hold it in memory twice.

// UMD scripts: the default export is the exports object, under esbuild and Node alike.
import hashwasm from '../../vendor/hash-wasm/sha256.umd.min.js';
import hashwasmMD5 from '../../vendor/hash-wasm/md5.umd.min.js';

const { createSHA256 } = hashwasm;
const { createMD5 } = hashwasmMD5;

export const HASH_SLICE = 4 << 20;

/** The NEFF header's size, and where its pkg_version and data_size (u64, little-endian) sit. */
const HEADER = 1024;

/** @typedef {import('../../vendor/hash-wasm/sha256.umd.min.js').IHasher} Hasher */

/** @type {Promise<Hasher> | null} */
let hasherPromise = null;
/** @type {Promise<Hasher> | null} */
let md5Promise = null;

// newHasher returns the role's one hasher, reset: its wasm instance is made once per worker.
async function newHasher() {
  if (!hasherPromise) hasherPromise = createSHA256();
  const h = await hasherPromise;
  h.init();
  return h;
}

async function newMD5() {
  if (!md5Promise) md5Promise = createMD5();
  const h = await md5Promise;
  h.init();
  return h;
}

/**
 * sha256Of streams the bytes readSlice(off, n) gives for [0, size) through SHA-256.
 * @param {(off: number, n: number) => Uint8Array} readSlice
 * @param {number} size
 * @param {number} [slice] bytes per read
 * @returns {Promise<string>} the digest, 64 lower-case hex digits
 */
export async function sha256Of(readSlice, size, slice = HASH_SLICE) {
  return (await digestsOf(readSlice, size, slice, false)).sha256;
}

/**
 * payloadRange is the bytes a NEFF's integrity hash covers, [1024, 1024+min(data_size,
 * size−1024)), read from its header; null when the file is too short to have one.
 * @param {Uint8Array} head the file's first bytes
 * @param {number} size the file's size
 * @returns {[number, number] | null}
 */
export function payloadRange(head, size) {
  if (size <= HEADER || head.length < 0x18) return null;
  const dv = new DataView(head.buffer, head.byteOffset, head.byteLength);
  const dataSize = dv.getBigUint64(0x10, true);
  const avail = BigInt(size - HEADER);
  return [HEADER, HEADER + Number(dataSize < avail ? dataSize : avail)];
}

/**
 * digestsOf streams [0, size) once through SHA-256 and, when neff, the payload range
 * (payloadRange) through MD5: what the core would compute in its open.
 * @param {(off: number, n: number) => Uint8Array} readSlice
 * @param {number} size
 * @param {number} [slice] bytes per read
 * @param {boolean} [neff] also the payload's MD5
 * @returns {Promise<{sha256: string, md5: string | null}>}
 */
export async function digestsOf(readSlice, size, slice = HASH_SLICE, neff = true) {
  const h = await newHasher();
  /** @type {Hasher | null} */
  let m = null;
  /** @type {[number, number] | null} */
  let range = null;
  for (let off = 0; off < size; off += slice) {
    const b = readSlice(off, Math.min(slice, size - off));
    h.update(b);
    if (neff && off === 0) {
      // The header sits in the first slice unless the slice is tiny: read it on its own then.
      const head = b.length >= 0x18 ? b : readSlice(0, Math.min(size, 0x18));
      range = payloadRange(head, size);
      if (range) m = await newMD5();
    }
    if (m && range) {
      const lo = Math.max(off, range[0]), hi = Math.min(off + b.length, range[1]);
      if (lo < hi) m.update(b.subarray(lo - off, hi - off));
    }
  }
  return { sha256: h.digest('hex'), md5: m ? m.digest('hex') : null };
}

// serveHashRole answers the page's {id, file} requests, one at a time in arrival order.
export function serveHashRole() {
  let queue = Promise.resolve();
  self.onmessage = (ev) => {
    const { id, file } = ev.data || {};
    queue = queue.then(async () => {
      try {
        const frs = new FileReaderSync();
        const d = await digestsOf((off, n) => new Uint8Array(frs.readAsArrayBuffer(file.slice(off, off + n))), file.size);
        self.postMessage({ id, sha256: d.sha256, md5: d.md5 });
      } catch (e) {
        self.postMessage({ id, error: String(e && e.message || e) });
      }
    });
  };
}
