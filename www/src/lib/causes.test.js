import test from 'node:test';
import assert from 'node:assert/strict';
import { groupByCause } from './causes.js';

const f = (code, cause, sev = 'error') => ({ f: { code, cause, sev, msg: code } });

test('consequences go under the finding of their root cause, in order', () => {
  const root = f('neff.truncated');
  const a = f('neff.runtime-refuses', 'neff.truncated');
  const b = f('tar.truncated', 'neff.truncated', 'warning');
  const other = f('manifest.odd', undefined, 'info');
  const g = groupByCause([a, root, other, b]);
  assert.equal(g.length, 2);
  assert.equal(g[0].item, root);
  assert.deepEqual(g[0].consequences, [a, b]);
  assert.equal(g[1].item, other);
  assert.deepEqual(g[1].consequences, []);
});

test('findings with no cause stay as they are', () => {
  const xs = [f('a.one'), f('a.two'), f('a.one')];
  const g = groupByCause(xs);
  assert.deepEqual(g.map((x) => x.item), xs);
  assert.ok(g.every((x) => x.consequences.length === 0));
});

test('a root code found twice is one root: the second goes under the first', () => {
  const r1 = f('neff.truncated'), c = f('neff.runtime-refuses', 'neff.truncated'), r2 = f('neff.truncated');
  const g = groupByCause([r1, c, r2]);
  assert.equal(g.length, 1);
  assert.equal(g[0].item, r1);
  assert.deepEqual(g[0].consequences, [c, r2]);
});

test('a code found twice with nothing following from it stays as it is', () => {
  const a = f('neff.hash-mismatch'), b = f('neff.hash-mismatch');
  assert.deepEqual(groupByCause([a, b]).map((x) => x.item), [a, b]);
});

test('consequences whose root is missing are grouped by its code, first', () => {
  const c1 = f('x.one', 'file.not-neff'), c2 = f('x.two', 'file.not-neff');
  const other = f('y');
  const g = groupByCause([other, c1, c2]);
  assert.equal(g[0].item, null);
  assert.equal(g[0].code, 'file.not-neff');
  assert.deepEqual(g[0].consequences, [c1, c2]);
  assert.equal(g[1].item, other);
});

test('every finding appears once', () => {
  const xs = [f('r'), f('a', 'r'), f('b', 'q'), f('c'), f('d', 'r')];
  const g = groupByCause(xs);
  const seen = g.flatMap((x) => [x.item, ...x.consequences]).filter(Boolean);
  assert.equal(seen.length, xs.length);
  assert.deepEqual(new Set(seen), new Set(xs));
});
