import test from 'node:test';
import assert from 'node:assert/strict';
import { distinctNames, middleEllipsis } from './names.js';

test('middleEllipsis keeps short names whole', () => {
  assert.equal(middleEllipsis('matmul_small.neff'), 'matmul_small.neff');
  assert.equal(middleEllipsis('a'.repeat(20)), 'a'.repeat(20));
  assert.equal(middleEllipsis(''), '');
});

test('middleEllipsis cuts the middle of long names, keeping the extension', () => {
  assert.equal(middleEllipsis('stream_2048x2048_k_fd1k.neff'), 'stream_2…k_fd1k.neff');
  assert.equal(middleEllipsis('stream_2048x2048_k_fd1k.neff').length, 20);
  assert.equal(middleEllipsis('abcdefghijklmnopqrstuvwxyz', 10), 'abcd…vwxyz');
});

test('middleEllipsis counts code points, not UTF-16 units', () => {
  const s = '😀'.repeat(30);
  assert.equal(Array.from(middleEllipsis(s, 12)).length, 12);
});

test('distinctNames: names that collide when cut in the middle still read differently', () => {
  const got = distinctNames(['file_pool_1_float16.neff', 'file_pool_2_float16.neff']);
  assert.notEqual(got[0], got[1]);
  assert.ok(got[0].includes('pool_1'), got[0]);
  assert.ok(got[1].includes('pool_2'), got[1]);
  for (const g of got) assert.ok(Array.from(g).length <= 20, g);
  // Alone, a name is cut as before.
  assert.deepEqual(distinctNames(['stream_2048x2048_k_fd1k.neff']), ['stream_2…k_fd1k.neff']);
  assert.deepEqual(distinctNames(['matmul_small.neff', 'stream_2048x2048_k_fd1k.neff']), ['matmul_small.neff', 'stream_2…k_fd1k.neff']);
});

test('distinctNames: the shortest distinguishing path suffix, in whole segments', () => {
  const c = 'cache/neuronxcc-2.21.18209.0+043d1af8/';
  assert.deepEqual(distinctNames([c + 'MODULE_a/model.neff', c + 'MODULE_b/model.neff']), ['MODULE_a/model.neff', 'MODULE_b/model.neff']);
  // A name no other tab has stays its base name.
  assert.deepEqual(distinctNames([c + 'MODULE_a/model.neff', c + 'MODULE_b/model.neff', 'matmul_small.neff']), ['MODULE_a/model.neff', 'MODULE_b/model.neff', 'matmul_small.neff']);
  // A path that is the other's suffix.
  assert.deepEqual(distinctNames(['x/model.neff', 'model.neff']), ['x/model.neff', 'model.neff']);
  assert.deepEqual(distinctNames(['a.neff', 'a.neff']), ['a.neff', 'a.neff (2)']);
});

test('distinctNames: a long shared start is cut, the difference deep inside it kept', () => {
  const c = 'cache/neuronxcc-2.21.18209.0+043d1af8/';
  const a = c + 'MODULE_10344120539044371432+e30acd3a/model.neff';
  const b = c + 'MODULE_10344120539044371439+e30acd3a/model.neff';
  const got = distinctNames([a, b]);
  assert.notEqual(got[0], got[1]);
  assert.ok(got[0].includes('2') && got[1].includes('9'), got.join(' | '));
  for (const g of got) assert.ok(Array.from(g).length <= 20, g);
  assert.ok(got[0].endsWith('neff'), got[0]);
  // The differing characters are what shows between the cuts.
  const x = distinctNames(['aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaXaaaaaaaaaaaaaaaaaaaaaaaaaaaaa', 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaYaaaaaaaaaaaaaaaaaaaaaaaaaaaaa']);
  assert.ok(x[0].includes('X') && x[1].includes('Y'), x.join(' | '));
});

test('elideSource keeps the line number and cuts the file name in the middle', async () => {
  const { elideSource, lineHue } = await import('./names.js');
  const s = 'v6b_1_coalesced_attention_kernel.py:58 I-87-0';
  assert.equal(elideSource(s, 80), s);
  const e = elideSource(s, 24);
  assert.ok(e.includes(':58'), e);
  assert.ok(e.startsWith('v6b'), e);
  assert.ok(Array.from(e).length <= 24, e);
  assert.ok(elideSource(s, 12).endsWith(':58'), elideSource(s, 12));
  assert.notEqual(lineHue(0), lineHue(1));
});
