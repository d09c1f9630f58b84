import test from 'node:test';
import assert from 'node:assert/strict';
import { boxes, firstEnding, laneBoxes, lowerStart, makeLane, reach, rowOf, sliceAt } from './lod.js';

// brute is what laneBoxes stands for: every slice that shows in [t0, t0 + w/k).
function brute(start, end, t0, k, w) {
  const out = [];
  for (let i = 0; i < start.length; i++) {
    const e = end ? end[i] : start[i] + 1;
    if (start[i] < 0 || e <= t0 || start[i] >= t0 + w / k) continue;
    out.push(i);
  }
  return out;
}

test('wide slices are their own boxes, each once', () => {
  const start = Float64Array.from([0, 10, 20, 30]);
  const end = Float64Array.from([5, 15, 25, 35]);
  const l = makeLane(start, end);
  const b = laneBoxes(l, 0, 10, 400, boxes(2));
  assert.equal(b.n, 4);
  assert.deepEqual(Array.from(b.x0.slice(0, 4)), [0, 100, 200, 300]);
  assert.deepEqual(Array.from(b.x1.slice(0, 4)), [50, 150, 250, 350]);
  assert.deepEqual(Array.from(b.count.slice(0, 4)), [1, 1, 1, 1]);
});

test('a million thin slices are at most a box per pixel column, and every one is counted', () => {
  const n = 1_000_000;
  const start = new Int32Array(n);
  for (let i = 0; i < n; i++) start[i] = i;
  const l = makeLane(start);
  const w = 1000;
  const b = laneBoxes(l, 0, w / n, w, boxes());
  assert.ok(b.n <= w + 1, b.n + ' boxes for ' + w + ' px');
  let total = 0;
  for (let k = 0; k < b.n; k++) total += b.count[k];
  assert.equal(total, n);
  // One step a slice, a thousand slices a pixel: every column is full.
  assert.equal(b.fill[10], 1);
});

test('boxes cover exactly the slices that show, at any window', () => {
  // Pipelined, overlapping, out of order, one very long, one never run.
  const start = Float64Array.from([0, 3, 2, 7, 7.2, 7.4, 40, 41, -1, 90]);
  const end = Float64Array.from([4, 5, 60, 7.1, 7.3, 7.5, 40.05, 41.5, -1, 91]);
  const l = makeLane(start, end);
  for (const [t0, k, w] of [[0, 1, 100], [5, 10, 100], [7, 100, 50], [39, 0.5, 200], [-10, 3, 30], [95, 1, 10]]) {
    const b = laneBoxes(l, t0, k, w, boxes());
    const got = [];
    for (let x = 0; x < b.n; x++) for (let p = b.first[x]; p < b.first[x] + b.count[x]; p++) got.push(rowOf(l, p));
    const want = brute(start, end, t0, k, w);
    assert.deepEqual(got.filter((r) => want.includes(r)).sort((a, c) => a - c), want, 'window ' + [t0, k, w]);
  }
});

test('a group reaches as far as its longest slice', () => {
  const start = Float64Array.from([0, 0.01, 0.02, 0.03]);
  const end = Float64Array.from([0.005, 0.015, 9, 0.035]);
  const l = makeLane(start, end);
  const b = laneBoxes(l, 0, 10, 200, boxes());
  assert.equal(b.n, 1);
  assert.equal(b.count[0], 4);
  assert.equal(b.x1[0], 90);
  assert.equal(reach(l, 0, 4), 9);
});

test('lookups', () => {
  const l = makeLane(Float64Array.from([0, 1, 2, 3]), Float64Array.from([10, 1.5, 2.5, 3.5]));
  assert.equal(lowerStart(l, 2), 2);
  assert.equal(firstEnding(l, 5), 0, 'the first slice still runs at 5');
  assert.equal(sliceAt(l, 2.2, 0.1), 2, 'the slice that starts last among those covering t');
  assert.equal(sliceAt(l, 20, 0.5), -1);
  const m = makeLane(Float64Array.from([5, 1, 3]), Float64Array.from([6, 2, 4]));
  assert.deepEqual(Array.from(m.order), [1, 2, 0]);
  assert.equal(rowOf(m, sliceAt(m, 5.5, 0)), 0);
});
