import test from 'node:test';
import assert from 'node:assert/strict';
import { decadeRange, decadeTicks, errorDecades, niceTicks } from './ticks.js';

const close = (a, b) => assert.ok(Math.abs(a - b) < 1e-9, a + ' ≉ ' + b);

test('niceTicks steps by 1, 2, 2.5 or 5 × 10^k and covers the range', () => {
  assert.deepEqual(niceTicks(0, 10, 5), [0, 2, 4, 6, 8, 10]);
  assert.deepEqual(niceTicks(0, 1, 4), [0, 0.25, 0.5, 0.75, 1]);
  const t = niceTicks(-87.3, 88.7, 6);
  assert.deepEqual(t, [-50, 0, 50]);
  const u = niceTicks(-3.2, 4.1, 8);
  assert.equal(u[0], -3);
  assert.ok(u.includes(0), 'zero is exactly 0, not 1e-17');
  for (let i = 1; i < u.length; i++) close(u[i] - u[i - 1], 1);
});

test('niceTicks of an empty range is its one end', () => {
  assert.deepEqual(niceTicks(5, 5, 4), [5]);
  assert.deepEqual(niceTicks(5, 1, 4), [5]);
  assert.deepEqual(niceTicks(NaN, 1, 4), [NaN]);
});

test('decadeRange spans whole decades, at least one', () => {
  assert.deepEqual(decadeRange(0.5, 200), { a: -1, b: 3 });
  assert.deepEqual(decadeRange(1, 1), { a: 0, b: 1 });
  assert.deepEqual(decadeRange(1e-30, 1e38), { a: -30, b: 38 });
});

test('errorDecades keeps at most 12 decades below the largest error', () => {
  assert.deepEqual(errorDecades(1e-7, 0.3), { a: -7, b: 0 });
  assert.deepEqual(errorDecades(1e-40, 2), { a: -11, b: 1 });
  assert.deepEqual(errorDecades(Infinity, 0), { a: -1, b: 0 });
  assert.deepEqual(errorDecades(0.5, 0.5), { a: -1, b: 0 });
});

test('decadeTicks thins the exponents to about maxCount', () => {
  assert.deepEqual(decadeTicks(-3, 2, 10), [-3, -2, -1, 0, 1, 2]);
  assert.deepEqual(decadeTicks(-30, 38, 7), [-30, -20, -10, 0, 10, 20, 30]);
  assert.deepEqual(decadeTicks(0, 1, 0.5), [0, 1]);
});
