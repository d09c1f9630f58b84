import test from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { HASH_SLICE, digestsOf, sha256Of } from './hash.js';

// bytes gives n deterministic, non-repeating-looking bytes.
function bytes(n, seed = 1) {
  const b = new Uint8Array(n);
  let x = seed >>> 0 || 1;
  for (let i = 0; i < n; i++) { x ^= x << 13; x ^= x >>> 17; x ^= x << 5; b[i] = x & 0xff; }
  return b;
}

const want = (b) => createHash('sha256').update(b).digest('hex');
const reader = (b) => (off, n) => b.subarray(off, off + n);

test('the empty input', async () => {
  assert.equal(await sha256Of(reader(new Uint8Array(0)), 0), 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
});

test('"abc" (FIPS 180-2 example)', async () => {
  const b = new TextEncoder().encode('abc');
  assert.equal(await sha256Of(reader(b), b.length), 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
});

test('every length around the padding and block edges', async () => {
  for (const n of [1, 2, 55, 56, 57, 63, 64, 65, 119, 120, 127, 128, 129, 1000]) {
    const b = bytes(n, n);
    assert.equal(await sha256Of(reader(b), n), want(b), 'length ' + n);
  }
});

test('one slice and either side of it', async () => {
  for (const n of [HASH_SLICE - 1, HASH_SLICE, HASH_SLICE + 1]) {
    const b = bytes(n, 7);
    assert.equal(await sha256Of(reader(b), n), want(b), 'length ' + n);
  }
});

test('many slices, the slice size not a multiple of the block', async () => {
  const b = bytes(2 * HASH_SLICE + 12345, 3);
  assert.equal(await sha256Of(reader(b), b.length), want(b));
  for (const slice of [1, 63, 65, 1000, 4096 + 1]) {
    const c = b.subarray(0, 20011);
    assert.equal(await sha256Of(reader(c), c.length, slice), want(c), 'slice ' + slice);
  }
});

test('it reads each byte once, in order, in slices of at most the slice size', async () => {
  const b = bytes(10 * 1000 + 7, 5);
  const seen = [];
  const r = (off, n) => { seen.push([off, n]); return b.subarray(off, off + n); };
  await sha256Of(r, b.length, 1000);
  assert.equal(seen.length, 11);
  let next = 0;
  for (const [off, n] of seen) { assert.equal(off, next); assert.ok(n <= 1000); next += n; }
  assert.equal(next, b.length);
});

test('the hasher is reset between files', async () => {
  const a = bytes(100, 11), b = bytes(70, 12);
  const [ha, hb] = [await sha256Of(reader(a), a.length), await sha256Of(reader(b), b.length)];
  assert.equal(ha, want(a));
  assert.equal(hb, want(b));
});

const md5 = (b) => createHash('md5').update(b).digest('hex');

// neffish is a file with a NEFF header whose data_size says n payload bytes follow.
function neffish(dataSize, payload) {
  const b = new Uint8Array(1024 + payload);
  b.set(bytes(b.length, 9));
  new DataView(b.buffer).setBigUint64(0x10, BigInt(dataSize), true);
  return b;
}

test('the payload MD5 covers [1024, 1024+data_size), in the same pass as the sha-256', async () => {
  for (const [ds, n, slice] of [[5000, 5000, 1000], [3000, 5000, 4096], [9000, 5000, 777], [0, 100, 64], [1, 1, 1024]]) {
    const b = neffish(ds, n);
    const seen = [];
    const r = (off, k) => { seen.push(off); return b.subarray(off, off + k); };
    const d = await digestsOf(r, b.length, slice);
    assert.equal(d.sha256, want(b), `sha-256, data_size ${ds}, payload ${n}`);
    assert.equal(d.md5, md5(b.subarray(1024, 1024 + Math.min(ds, n))), `md5, data_size ${ds}, payload ${n}, slice ${slice}`);
    assert.equal(seen.filter((o) => o !== 0).length, Math.ceil(b.length / slice) - 1, 'each slice read once');
  }
});

test('no MD5 without a payload after a header', async () => {
  const b = bytes(1024, 4);
  assert.equal((await digestsOf(reader(b), b.length)).md5, null);
  assert.equal((await digestsOf(reader(b), b.length)).sha256, want(b));
});
