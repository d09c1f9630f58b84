import test from 'node:test';
import assert from 'node:assert/strict';
import { middleEllipsis } from './names.js';

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
