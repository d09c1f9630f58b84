import test from 'node:test';
import assert from 'node:assert/strict';
import { lineWords } from './words.js';

test('lineWords expands a line\'s ranges per stream, in order', () => {
  const line = { kind: 'line', key: 'kernel.py:12', attrs: { words: 'sg00/Activation.bin:3-5,9;sg00/PE.bin:0' } };
  assert.deepEqual(lineWords(line), [
    { member: 'sg00/Activation.bin', index: 3 },
    { member: 'sg00/Activation.bin', index: 4 },
    { member: 'sg00/Activation.bin', index: 5 },
    { member: 'sg00/Activation.bin', index: 9 },
    { member: 'sg00/PE.bin', index: 0 },
  ]);
  assert.equal(lineWords(line), lineWords(line), 'kept per node');
});

test('lineWords skips what is not a range and gives nothing without the attr', () => {
  assert.deepEqual(lineWords({ kind: 'line', attrs: { words: 'no-colon;m.bin:x,2' } }), [{ member: 'm.bin', index: 2 }]);
  assert.deepEqual(lineWords({ kind: 'line' }), []);
});
