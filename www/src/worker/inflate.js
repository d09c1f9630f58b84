// @ts-check
// The browser's own gzip (DecompressionStream) for the core's open of a NEFF: it inflates a
// payload ~3.5× faster than Go's inflate compiled to wasm. The Go core asks for inflated bytes
// through globalThis.neffscopeInflater (wasm/inflate.go) and walks the tar as before.
//
// A NEFF's gzip member is followed by zero padding, which DecompressionStream refuses ("Junk
// found after end of compressed data"), and once its readable side errors the chunks still
// queued are dropped. So the input stops at the payload's last non-zero byte; the gzip
// trailer's last bytes (ISIZE = inflated length mod 2^32, little-endian) may be zeros cut
// with the padding: once every inflated byte has been read, their count says how many, and
// those zeros are written before closing, so the stream ends exactly at its trailer and the
// browser checks its CRC-32 and ISIZE itself. Any error is the core's cue to read the file
// again with its own inflate, whose findings say what is wrong.

/** The tail read to find the payload's last non-zero byte: real NEFFs pad to 10240. */
const TAIL = 64 << 10;
/** Bytes handed to Go per call (at least, unless the stream ended), and the most held here. */
const BATCH = 1 << 20;
const CAP = 8 << 20;

/**
 * lastNonZero is the offset of the last non-zero byte of blob in [start, end), reading at most
 * TAIL bytes from the end; -1 when there is none there.
 * @param {Blob} blob
 * @param {number} start
 * @param {number} end
 * @returns {number}
 */
function lastNonZero(blob, start, end) {
  const from = Math.max(start, end - TAIL);
  const tail = new Uint8Array(new FileReaderSync().readAsArrayBuffer(blob.slice(from, end)));
  for (let i = tail.length - 1; i >= 0; i--) if (tail[i] !== 0) return from + i;
  return -1;
}

/**
 * trailerZeros is how many zero bytes end a gzip trailer whose ISIZE is for total inflated
 * bytes: the high bytes of ISIZE that are zero (4 when ISIZE is 0: the CRC's may be too, and
 * the close then fails, which sends the core to its own inflate).
 * @param {number} total
 * @returns {number}
 */
export function trailerZeros(total) {
  const isize = total % 4294967296;
  let z = 0;
  for (let i = 3; i >= 0 && Math.floor(isize / 2 ** (8 * i)) % 256 === 0; i--) z++;
  return z;
}

/**
 * makeInflater starts inflating the gzip member at [start, end) of blob; null when the tail
 * holds no non-zero byte (not a padded gzip payload the fast path knows). next(cb) calls
 * cb(bytes | null, compressedDone, gzipLength, error) once: bytes of at least BATCH (fewer at
 * the end), or null at the end (gzipLength: the member's length, its trailer checked) or on
 * an error (its message). cancel() stops it.
 * @param {Blob} blob
 * @param {number} start
 * @param {number} end
 */
export function makeInflater(blob, start, end) {
  if (typeof DecompressionStream === 'undefined' || typeof FileReaderSync === 'undefined') return null;
  const last = lastNonZero(blob, start, end);
  if (last < start + 18) return null; // no room for a gzip header and trailer
  const ds = new DecompressionStream('gzip');
  const writer = ds.writable.getWriter();
  const reader = ds.readable.getReader();
  const st = {
    /** @type {Uint8Array[]} */ chunks: [], held: 0, total: 0, written: 0, gzipLength: 0,
    ended: false, error: '', reading: false, reads: 0,
    /** @type {((b: Uint8Array | null, done: number, len: number, err: string) => void) | null} */ want: null,
    /** @type {(() => void) | null} */ resume: null,
  };
  const fail = (e) => { if (!st.error) st.error = String((e && e.message) || e || 'inflate failed'); notify(); };
  const tick = () => new Promise((r) => setTimeout(r, 0));

  function notify() {
    const cb = st.want;
    if (!cb) return;
    if (st.error) { st.want = null; cb(null, st.written, 0, st.error); return; }
    if (st.held >= BATCH || (st.ended && st.held > 0)) {
      const n = Math.min(st.held, 4 * BATCH);
      const out = new Uint8Array(n);
      let k = 0;
      while (k < n) {
        const c = st.chunks[0];
        const take = Math.min(c.length, n - k);
        out.set(take === c.length ? c : c.subarray(0, take), k);
        k += take;
        if (take === c.length) st.chunks.shift(); else st.chunks[0] = c.subarray(take);
      }
      st.held -= n;
      st.want = null;
      if (st.resume && st.held < CAP) { const r = st.resume; st.resume = null; r(); }
      cb(out, st.written, 0, '');
      return;
    }
    if (st.ended) { st.want = null; cb(null, st.written, st.gzipLength, ''); }
  }

  async function pump() {
    for (;;) {
      while (st.held >= CAP) await new Promise((r) => { st.resume = r; });
      st.reading = true;
      const { value, done } = await reader.read();
      st.reading = false;
      st.reads++;
      if (done) { st.ended = true; notify(); return; }
      st.chunks.push(value);
      st.held += value.length;
      st.total += value.length;
      notify();
    }
  }

  // drained resolves once every byte the input written so far gives has been read: the pump
  // waits on a read that a whole turn of the event loop did not answer.
  async function drained() {
    for (;;) {
      await tick();
      if (!st.reading || st.held >= CAP) continue;
      const seen = st.reads;
      await tick();
      if (st.reading && st.reads === seen) return;
    }
  }

  async function feed() {
    const src = blob.slice(start, last + 1).stream().getReader();
    for (;;) {
      const { value, done } = await src.read();
      if (done) break;
      await writer.write(value);
      st.written += value.length;
    }
    await drained();
    const z = trailerZeros(st.total);
    if (z) await writer.write(new Uint8Array(z));
    st.gzipLength = last + 1 + z - start;
    st.written = st.gzipLength;
    await writer.close();
  }

  pump().catch(fail);
  feed().catch(fail);
  return {
    /** @param {(b: Uint8Array | null, done: number, len: number, err: string) => void} cb */
    next(cb) { st.want = cb; notify(); },
    cancel() { st.error = st.error || 'cancelled'; try { reader.cancel(); } catch (e) { /* gone */ } try { writer.abort(); } catch (e) { /* gone */ } },
  };
}

// installInflater gives the Go core the fast path (a worker with DecompressionStream only).
export function installInflater() {
  /** @type {any} */ (globalThis).neffscopeInflater = makeInflater;
}
