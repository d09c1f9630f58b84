import test from 'node:test';
import assert from 'node:assert/strict';
import { fmtPS, timeTicks, unitOf } from './timeaxis.js';

test('times read in their unit', () => {
  assert.equal(fmtPS(359874021), '359.87 µs');
  assert.equal(fmtPS(1283000), '1.283 µs');
  assert.equal(fmtPS(720000), '720 ns');
  assert.equal(fmtPS(15), '15 ps');
  assert.equal(fmtPS(0), '0 ps');
  assert.equal(fmtPS(2.5e12), '2.5 s');
  assert.equal(unitOf(999).name, 'ps');
});

test('ruler ticks name their unit and no more decimals than the step', () => {
  const t = timeTicks(0, 360e6, 8);
  assert.deepEqual(t.map((x) => x.label), ['0 µs', '50 µs', '100 µs', '150 µs', '200 µs', '250 µs', '300 µs', '350 µs']);
  const fine = timeTicks(1.2e6, 1.21e6, 4);
  assert.deepEqual(fine.map((x) => x.label), ['1.2 µs', '1.2025 µs', '1.205 µs', '1.2075 µs', '1.21 µs']);
  const far = timeTicks(3e12, 3e12 + 40, 4);
  assert.deepEqual(far.slice(0, 2).map((x) => x.label), ['3000000000000 ps', '3000000000010 ps']);
  const mid = timeTicks(0, 5e6, 5);
  assert.deepEqual(mid.slice(0, 3).map((x) => x.label), ['0 µs', '1 µs', '2 µs']);
  const half = timeTicks(0, 1.2e6, 5);
  assert.equal(half[1].label, '0.25 µs');
  assert.equal(half[4].label, '1 µs');
});
