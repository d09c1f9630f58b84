import test from 'node:test';
import assert from 'node:assert/strict';
import { LRU } from './lru.js';

test('LRU evicts the least recently used beyond its cap', () => {
  const c = new LRU(3);
  c.set('a', 1).set('b', 2).set('c', 3);
  assert.equal(c.get('a'), 1); // a is now the most recent
  c.set('d', 4);
  assert.equal(c.size, 3);
  assert.equal(c.get('b'), undefined, 'b was the least recently used');
  assert.deepEqual(['a', 'c', 'd'].map((k) => c.peek(k)), [1, 3, 4]);
});

test('peek does not refresh, set of an existing key does', () => {
  const c = new LRU(2);
  c.set(1, 'x').set(2, 'y');
  c.peek(1);
  c.set(3, 'z');
  assert.equal(c.peek(1), undefined);
  c.set(2, 'y2').set(4, 'w');
  assert.equal(c.peek(2), 'y2');
  assert.equal(c.peek(3), undefined);
});

test('delete and clear', () => {
  const c = new LRU(4);
  c.set('a', 1).set('b', 2);
  assert.equal(c.delete('a'), true);
  assert.equal(c.delete('a'), false);
  assert.equal(c.size, 1);
  c.clear();
  assert.equal(c.size, 0);
  assert.equal(c.get('b'), undefined);
});
