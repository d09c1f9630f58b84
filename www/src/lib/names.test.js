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
