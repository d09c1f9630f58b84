import test from 'node:test';
import assert from 'node:assert/strict';
import { parseOffsetQuery } from './offsets.js';

test('hex and @ offsets are explicit, bare decimals are not', () => {
  assert.deepEqual(parseOffsetQuery('0x1f40'), { off: 0x1f40, explicit: true });
  assert.deepEqual(parseOffsetQuery('0X1F40'), { off: 0x1f40, explicit: true });
  assert.deepEqual(parseOffsetQuery('@0x10'), { off: 16, explicit: true });
  assert.deepEqual(parseOffsetQuery('@8000'), { off: 8000, explicit: true });
  assert.deepEqual(parseOffsetQuery('8000'), { off: 8000, explicit: false });
  assert.deepEqual(parseOffsetQuery('0'), { off: 0, explicit: false });
});

test('anything else is not an offset', () => {
  for (const q of ['', 'exp', '0x', '@', '12a', '-5', '1.5', '0x1g', ' 12']) assert.equal(parseOffsetQuery(q), null, q);
});

test('more digits than a double holds exactly are past any end', () => {
  assert.equal(parseOffsetQuery('0x' + 'f'.repeat(14)).off, Infinity);
  assert.equal(parseOffsetQuery('0x' + 'f'.repeat(13)).off, 2 ** 52 - 1);
  assert.equal(parseOffsetQuery('1'.repeat(16)).off, Infinity);
  assert.equal(parseOffsetQuery('9'.repeat(15)).off, 999999999999999);
});
