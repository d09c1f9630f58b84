import test from 'node:test';
import assert from 'node:assert/strict';
import { liveByLine } from './memlive.js';

test('live buffers sum by the line that wrote them, most bytes first', () => {
  const got = liveByLine([
    { bytes: 100, writeLine: 'conv2d.py:127' },
    { bytes: 512, writeLine: 'conv2d.py:140' },
    { bytes: 300, writeLine: 'conv2d.py:127' },
    { bytes: 64 },
  ]);
  assert.deepEqual(got, [
    { line: 'conv2d.py:140', bytes: 512, buffers: 1 },
    { line: 'conv2d.py:127', bytes: 400, buffers: 2 },
    { line: '', bytes: 64, buffers: 1 },
  ]);
});

test('equal sums keep the order they came in; nothing live is no line', () => {
  assert.deepEqual(liveByLine([{ bytes: 8, writeLine: 'b.py:2' }, { bytes: 8, writeLine: 'a.py:1' }]).map((s) => s.line), ['b.py:2', 'a.py:1']);
  assert.deepEqual(liveByLine([]), []);
  assert.deepEqual(liveByLine(undefined), []);
});
