import test from 'node:test';
import assert from 'node:assert/strict';
import { fingerprintOf, formHash, hashPath, hashPathKey, parseHash } from './hash.js';

test('parseHash reads f and n, in any order, f lower-cased', () => {
  assert.deepEqual(parseHash('#f=ABCDEF0123456789&n=header/magic'), { f: 'abcdef0123456789', n: 'header/magic', b: null, bLast: null });
  assert.deepEqual(parseHash('n=&f=00'), { f: '00', n: '', b: null, bLast: null });
  assert.deepEqual(parseHash(''), { f: '', n: null, b: null, bLast: null });
  assert.deepEqual(parseHash('#junk&x=1'), { f: '', n: null, b: null, bLast: null });
  assert.deepEqual(parseHash(null), { f: '', n: null, b: null, bLast: null });
  assert.deepEqual(parseHash('#f=00&n=members/x&b=0x1F4'), { f: '00', n: 'members/x', b: 500, bLast: null });
  assert.equal(parseHash('#f=00&n=x&b=12').b, null, 'b is hex with 0x');
  assert.equal(formHash('00', ['x'], 500), '#f=00&n=x&b=0x1f4');
  // A range: both ends, in either order, read first to last.
  assert.deepEqual(parseHash('#f=00&n=x&b=0x10-0x13'), { f: '00', n: 'x', b: 16, bLast: 19 });
  assert.deepEqual(parseHash('#f=00&n=x&b=0x13-0x10'), { f: '00', n: 'x', b: 16, bLast: 19 });
  assert.equal(parseHash('#f=00&n=x&b=0x10-13').b, null, 'both ends are hex with 0x');
  assert.equal(formHash('00', ['x'], 16, 19), '#f=00&n=x&b=0x10-0x13');
  assert.equal(formHash('00', ['x'], 16, 16), '#f=00&n=x&b=0x10', 'a range of one byte is that byte');
});

test('formHash and hashPathKey round-trip keys with slashes and odd characters', () => {
  const path = ['archive', 'sg00/', 'def.json', 'a&b=c #1', 'ü'];
  const h = formHash('0123456789abcdef', path);
  assert.equal(h.split('&').length, 2, 'no raw & from a key');
  const { f, n } = parseHash(h);
  assert.equal(f, '0123456789abcdef');
  assert.equal(hashPathKey(n), path.join('/'));
});

test('no fingerprint, no hash; bad percent-encoding, no key', () => {
  assert.equal(formHash('', ['a']), '');
  assert.equal(hashPathKey(''), '');
  assert.equal(hashPathKey('%E0%A4%A'), null);
});

test('fingerprintOf is the first 16 hex digits, lower case', () => {
  assert.equal(fingerprintOf('ABCDEF0123456789FFFF'), 'abcdef0123456789');
  assert.equal(fingerprintOf(''), '');
  assert.equal(fingerprintOf(undefined), '');
});

test('hashPath decodes a path key by key, a directory key keeping its slash', () => {
  assert.deepEqual(hashPath(''), []);
  assert.deepEqual(hashPath('members/sg00%2F/def.json'), ['members', 'sg00/', 'def.json']);
  assert.deepEqual(hashPath(formHash('ab', ['items', '49999']).split('&n=')[1]), ['items', '49999']);
  assert.equal(hashPath('bad%zz'), null);
});

test('instructionOf reads an instruction key #N at the end of a path', async () => {
  const { instructionOf } = await import('./hash.js');
  assert.deepEqual(instructionOf(['model', 'sg00', 'PE', 'instructions', '#5']), { stream: ['model', 'sg00', 'PE', 'instructions'], index: 5 });
  assert.equal(instructionOf(['header', 'magic']), null);
  assert.equal(instructionOf([]), null);
  assert.equal(instructionOf(null), null);
});
