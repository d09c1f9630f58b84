import test from 'node:test';
import assert from 'node:assert/strict';
import { childCount, FETCH_MAX, fetchRange, indexKey, isStub, pageEnd, TREE_PAGE, unfetched } from './lazy.js';

test('a stub counts its children from attrs.more; a held node from its kids', () => {
  const stub = { kind: 'array', attrs: { more: '50000' } };
  assert.ok(isStub(stub));
  assert.equal(childCount(stub), 50000);
  assert.ok(unfetched(stub));
  stub.kids = new Array(50000);
  assert.ok(!unfetched(stub), 'all fetched');
  assert.equal(childCount({ kids: [1, 2] }), 2);
  assert.ok(!isStub({ kids: [] }) && !isStub(null) && !isStub({ attrs: {} }));
  assert.equal(childCount({ attrs: { more: 'x' } }), 0, 'a bad count is none');
  assert.equal(childCount(undefined), 0);
});

test('fetchRange asks for the missing prefix, at most FETCH_MAX a call', () => {
  assert.deepEqual(fetchRange(0, 1000, 50000), { from: 0, to: 1000 });
  assert.deepEqual(fetchRange(0, 50000, 50000), { from: 0, to: FETCH_MAX });
  assert.deepEqual(fetchRange(45000, 60000, 50000), { from: 45000, to: 50000 });
  assert.equal(fetchRange(1000, 1000, 50000), null);
  assert.equal(fetchRange(50000, 60000, 50000), null);
});

test('pageEnd rounds to a tree page, capped at the total', () => {
  assert.equal(pageEnd(1, 50000), TREE_PAGE);
  assert.equal(pageEnd(TREE_PAGE, 50000), TREE_PAGE);
  assert.equal(pageEnd(49999 + 1, 50000), 50000);
  assert.equal(pageEnd(1, 10), 10);
});

test('indexKey places array elements by their key, nothing else', () => {
  assert.equal(indexKey({ kind: 'array' }, '49999', 50000), 49999);
  assert.equal(indexKey({ kind: 'array' }, '50000', 50000), -1);
  assert.equal(indexKey({ kind: 'array' }, '007', 50000), -1);
  assert.equal(indexKey({ kind: 'object' }, '3', 50000), -1);
  assert.equal(indexKey({ kind: 'array' }, 'name', 50000), -1);
});
