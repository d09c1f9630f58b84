import test from 'node:test';
import assert from 'node:assert/strict';
import { parseInstructionQuery, rankResults, tierOf } from './searchrank.js';

test('"Activate": instructions, then the function, before the func_id numbers', () => {
  const funcId = { hit: { path: ['members', 'sg00/', 'def.json', 'act', '0', 'func_id'], kind: 'number', label: 'func_id', value: '7' } };
  const member = { hit: { path: ['members', 'sg00/', 'Act.bin'], kind: 'member', label: 'Act.bin' } };
  const fn = { hit: { path: ['activation', 'set0', 'Activate_x'], kind: 'pwp-function', label: 'Activate_x' } };
  const ins = { stream: {}, index: 3 };
  const got = rankResults([funcId, member, fn, ins], 'activate');
  assert.deepEqual(got, [ins, fn, member, funcId]);
});

test('byte offsets and #N lead; a def.json var is a variable; ties keep their order, exact first', () => {
  const jump = { jump: 5 };
  const off = { offset: 16 };
  const v = { hit: { path: ['members', 'sg00/', 'def.json', 'var', 'input0'], kind: 'object', label: 'input0' } };
  const s1 = { hit: { path: ['x'], kind: 'string', label: 'a', value: '"input0_x"' } };
  const s2 = { hit: { path: ['y'], kind: 'string', label: 'input0' } };
  assert.equal(tierOf(jump), 0);
  assert.equal(tierOf(v), 2);
  assert.deepEqual(rankResults([s1, s2, v, off, jump], 'input0'), [off, jump, v, s2, s1]);
});

test('parseInstructionQuery reads #N only', () => {
  assert.equal(parseInstructionQuery('#5'), 5);
  assert.equal(parseInstructionQuery('# 12'), 12);
  assert.equal(parseInstructionQuery('5'), null);
  assert.equal(parseInstructionQuery('#x'), null);
});
