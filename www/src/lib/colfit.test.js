import test from 'node:test';
import assert from 'node:assert/strict';
import { fitColumns, grownColumns } from './colfit.js';

test('a column is as wide as its longest cell or its title, plus the gap', () => {
  const w = fitColumns(['index', 'name', 'operands'], [['0', 'Copy', 'src=SBUF:0x0[4]'], ['12', 'Matmul', 'dst=PSUM:0x0[128]']]);
  assert.equal(w.index, 5 + 2); // the title
  assert.equal(w.name, 6 + 2);
  assert.equal(w.operands, 'dst=PSUM:0x0[128]'.length + 2);
});

test('a column keeps to its bounds: never under 3 characters, operands at most 72', () => {
  const w = fitColumns(['#', 'operands', 'other'], [['1', 'x'.repeat(500), 'y'.repeat(100)]], 0);
  assert.equal(w['#'], 3);
  assert.equal(w.operands, 72);
  assert.equal(w.other, 32);
});

test('cells count code points, and missing cells are no width', () => {
  const w = fitColumns(['a', 'b'], [['😀😀😀😀'], [undefined, null]], 0);
  assert.equal(w.a, 4);
  assert.equal(w.b, 3);
});

test('columns only grow as further rows arrive', () => {
  const a = fitColumns(['name'], [['Copy']]);
  const b = fitColumns(['name'], [['Ab']]);
  assert.deepEqual(grownColumns(a, b), { widths: a, changed: false });
  const c = fitColumns(['name'], [['EventSemaphore']]);
  const g = grownColumns(a, c);
  assert.equal(g.changed, true);
  assert.equal(g.widths.name, 16);
  assert.equal(grownColumns({}, a).changed, true);
});
