// @ts-check
// The hash role: a second worker, named HASH_ROLE (../roles.js) by the page, that only computes a file's
// sha-256 (its fingerprint) while the core worker opens it, on another core: the core's own
// SHA-256 in wasm would add ~2 s to a 200 MB open. It reads the File in slices, so it holds
// no more than one slice. Protocol: {id, file} → {id, sha256} or {id, error}.
//
// The digest is hash-wasm's (www/vendor/hash-wasm): a streaming SHA-256 compiled to wasm. Its
// module is instantiated from bytes embedded in the script, which the page's CSP allows with
// 'wasm-unsafe-eval' (the Go core needs the same); WebCrypto has no streaming digest, and a
// one-shot digest of a big file would hold it in memory twice.

// A UMD script: its default export is its exports object, under esbuild and Node alike.
import hashwasm from '../../vendor/hash-wasm/sha256.umd.min.js';

const { createSHA256 } = hashwasm;

export const HASH_SLICE = 4 << 20;

/** @typedef {import('../../vendor/hash-wasm/sha256.umd.min.js').IHasher} Hasher */

/** @type {Promise<Hasher> | null} */
let hasherPromise = null;

// newHasher returns the role's one hasher, reset: its wasm instance is made once per worker.
async function newHasher() {
  if (!hasherPromise) hasherPromise = createSHA256();
  const h = await hasherPromise;
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
  const h = await newHasher();
  for (let off = 0; off < size; off += slice) h.update(readSlice(off, Math.min(slice, size - off)));
  return h.digest('hex');
}

// serveHashRole answers the page's {id, file} requests, one at a time in arrival order.
export function serveHashRole() {
  let queue = Promise.resolve();
  self.onmessage = (ev) => {
    const { id, file } = ev.data || {};
    queue = queue.then(async () => {
      try {
        const frs = new FileReaderSync();
        const sha256 = await sha256Of((off, n) => new Uint8Array(frs.readAsArrayBuffer(file.slice(off, off + n))), file.size);
        self.postMessage({ id, sha256 });
      } catch (e) {
        self.postMessage({ id, error: String(e && e.message || e) });
      }
    });
  };
}
