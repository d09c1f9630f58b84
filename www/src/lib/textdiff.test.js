import test from 'node:test';
import assert from 'node:assert/strict';
import { changedRuns, tokens } from './textdiff.js';

const marked = (runs) => runs.filter((r) => r.changed).map((r) => r.text);
const whole = (runs) => runs.map((r) => r.text).join('');

test('tokens: words and the characters between them', () => {
  assert.deepEqual(tokens('bf16[1,128]{1,0}'), ['bf16', '[', '1', ',', '128', ']', '{', '1', ',', '0', '}']);
  assert.deepEqual(tokens(''), []);
});

test('two temporary paths: only their random parts are marked', () => {
  const a = '"/tmp/klir_binaries/qwen3_attn_tkg_fused_e5wm40m0/qwen3_attn_tkg_fuseddip9buym.klir"';
  const b = '"/tmp/klir_binaries/qwen3_attn_tkg_fused_88ixmrh0/qwen3_attn_tkg_fusedfdhbut50.klir"';
  const r = changedRuns(a, b);
  assert.deepEqual(marked(r.a), ['e5wm40m', 'dip9buym']); // both random parts end in 0
  assert.deepEqual(marked(r.b), ['88ixmrh', 'fdhbut50']);
  assert.equal(whole(r.a), a);
  assert.equal(whole(r.b), b);
});

test('a shape: the dimension that changed', () => {
  const r = changedRuns('bf16[1,128]{1,0}', 'bf16[1,256]{1,0}');
  assert.deepEqual(marked(r.a), ['128']);
  assert.deepEqual(marked(r.b), ['256']);
});

test('one side empty, equal texts, and texts too long to compare token by token', () => {
  assert.deepEqual(changedRuns('', 'x'), { a: [], b: [{ text: 'x', changed: true }] });
  assert.deepEqual(changedRuns('same', 'same'), { a: [{ text: 'same', changed: false }], b: [{ text: 'same', changed: false }] });
  const long = (c) => Array.from({ length: 600 }, (_, i) => 'w' + i).join(' ') + c;
  const r = changedRuns(long('a'), long('b'));
  assert.deepEqual(marked(r.a), ['a']);
  assert.equal(whole(r.b), long('b'));
});
