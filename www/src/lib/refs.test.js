import test from 'node:test';
import assert from 'node:assert/strict';
import { isMemberRef, isPwpRef, isStreamRef, memberPath, parseRef, recordsPath, refIn, streamPath, streamRef } from './refs.js';
import { REF } from './vocab.gen.js';

test('parseRef splits at the first colon, knowing the kinds doc.ParseRef knows', () => {
  assert.deepEqual(parseRef('member:sg00/def.json'), { scheme: 'member', rest: 'sg00/def.json' });
  assert.deepEqual(parseRef('file:'), { scheme: 'file', rest: '' });
  assert.deepEqual(parseRef('stream:a:b'), { scheme: 'stream', rest: 'a:b' });
  assert.deepEqual(parseRef('ncfw-text'), { scheme: 'ncfw-text', rest: '' });
  assert.equal(parseRef('nope:x'), null);
  assert.equal(parseRef('sg00/def.json'), null);
  assert.equal(parseRef(''), null);
  assert.equal(parseRef(undefined), null);
  for (const kind of Object.values(REF)) if (kind !== REF.NCFW_TEXT) assert.deepEqual(parseRef(kind + ':x'), { scheme: kind, rest: 'x' });
});

test('memberPath and streamPath read their scheme only', () => {
  assert.equal(memberPath('member:sg00/PE.bin'), 'sg00/PE.bin');
  assert.equal(memberPath('member:'), '');
  assert.equal(memberPath('stream:sg00/PE.bin'), null);
  assert.equal(memberPath('members:x'), null);
  assert.equal(streamPath('stream:sg00/Activation.bin'), 'sg00/Activation.bin');
  assert.equal(streamPath(null), null);
  assert.equal(refIn('pwp:exp', 'pwp'), 'exp');
  assert.equal(recordsPath('records:'), '');
  assert.equal(recordsPath('records:sg00/a.dbg'), 'sg00/a.dbg');
  assert.equal(streamRef('sg00/PE.bin'), 'stream:sg00/PE.bin');
  assert.equal(streamPath(streamRef('a')), 'a');
});

test('scheme predicates', () => {
  assert.ok(isMemberRef('member:x'));
  assert.ok(!isMemberRef('file:'));
  assert.ok(isStreamRef('stream:x'));
  assert.ok(!isStreamRef(undefined));
  assert.ok(isPwpRef('pwp:set/fn'));
  assert.ok(!isPwpRef('pwpx:a'));
});
