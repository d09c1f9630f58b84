import test from 'node:test';
import assert from 'node:assert/strict';
import { dmaRate, fmtPct, lineTimes, mainCore, modelError, relError, rowsByIndex, union, unpackEstimated, unpackMeasured } from './timecols.js';

const buf = (T, a) => new T(a).buffer;

test('union counts overlapping stretches once, in any order', () => {
  assert.equal(union([5, 10, 0, 3, 2, 4, 9, 12]), 4 + 7);
  assert.equal(union([]), 0);
});

test('a core is typed from its columns, and its rows found by instruction', () => {
  const c = unpackMeasured({
    core: 'sg00', neuronCore: 4, engines: ['PE', 'DVE'], members: ['sg00/PE.bin', 'sg00/DVE.bin'],
    instructions: buf(Int32Array, [3, 2]), lens: buf(Int32Array, [2, 1]), index: buf(Int32Array, [2, 0, 1]),
    start: buf(Float64Array, [10, 0, 5]), end: buf(Float64Array, [20, 4, 6]), ops: buf(Uint8Array, [1, 2, 3]), busy: buf(Float64Array, [14, 1]),
    runtimeLens: buf(Int32Array, [0, 0]), runtimeIndex: new ArrayBuffer(0), runtimeStart: new ArrayBuffer(0), runtimeEnd: new ArrayBuffer(0),
    queues: [{ name: 'q', packets: 2, bytes: 1000, busy: 30, gbps: 0, segments: buf(Float64Array, [0, 10, 5, 30]) }],
  });
  assert.deepEqual(c.off, [0, 2]);
  assert.deepEqual(Array.from(rowsByIndex(c, 0, 3)), [1, -1, 0]);
  assert.deepEqual(Array.from(rowsByIndex(c, 1, 2)), [-1, 2]);
  const r = dmaRate(c);
  assert.equal(r.busy, 30);
  assert.ok(Math.abs(r.gbps - 1000 / 30 * 1000) < 1e-9);
  const e = unpackEstimated({ core: 'sg00', span: 9, engines: ['PE', 'DVE'], members: ['a', 'b'], lens: buf(Int32Array, [2, 1]), start: buf(Float64Array, [0, 1, 2]), end: buf(Float64Array, [1, 2, 9]), ops: buf(Uint8Array, [0, 0, 0]), busy: buf(Float64Array, [2, 7]), summary: new TextEncoder().encode('{"unmodelled": {"waits": 1}, "idle": [[], []]}').buffer });
  assert.deepEqual(Array.from(e.index), [0, 1, 0]);
  assert.equal(e.summary.unmodelled.waits, 1);
  assert.equal(mainCore([c, e]), 0);
});

test('kernel lines rank by the sum of their instructions\' durations', () => {
  const lines = [{ key: 'a.py:1', w: [{ member: 'm', index: 0 }, { member: 'm', index: 1 }] }, { key: 'a.py:2', w: [{ member: 'm', index: 2 }] }];
  const dur = [5, NaN, 7];
  const r = lineTimes(lines, (l) => l.w, (m, i) => dur[i]);
  assert.deepEqual(r.map((x) => [x.line.key, x.ps, x.timed, x.words]), [['a.py:2', 7, 1, 1], ['a.py:1', 5, 1, 2]]);
});

test('errors are signed fractions of the measured value', () => {
  assert.equal(relError(110, 100), 0.1);
  assert.ok(Number.isNaN(relError(1, 0)));
  assert.equal(fmtPct(-0.073), '−7.3 %');
  assert.equal(fmtPct(0.686), '+69 %');
});

test('an estimate\'s title says the model\'s measured error and its limits', () => {
  const model = { error: { span: 0.12, busy: { PE: 0.2, DVE: 0.04 }, attributed: 0.86, validated_on: ['a', 'b', 'c', 'd'] }, not_covered: ['collectives (the time of a collective)', 'HBM contention', 'late updates: on the device'] };
  const s = modelError(model);
  assert.equal(s, 'The cost model\'s measured error, leave-one-out on 4 profiled kernels: span ±12 %, busy PE ±20 %, DVE ±4 %, waits blamed on the right producer 86 %. Not modelled: collectives; HBM contention; late updates.');
  assert.match(modelError(model, 'DVE'), /busy DVE ±4 %,/);
  assert.doesNotMatch(modelError(model, 'DVE'), /PE ±20/);
  assert.match(modelError(null), /error is not known\.$/);
  assert.match(modelError({ not_covered: ['x'] }), /not known\. Not modelled: x\.$/);
});
