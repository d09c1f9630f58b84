import test from 'node:test';
import assert from 'node:assert/strict';
import { fingerprintOf, formHash, hashPath, hashPathKey, parseHash } from './hash.js';

// none: what parseHash answers for the parts a hash leaves out.
const none = { f: '', n: null, b: null, bLast: null, name: '', size: null, uuid: '', v: '', w: null, c: null, vs: '', vsname: '', vssize: null, vsuuid: '', all: [] };
const parts = (o) => Object.assign({}, none, o);

test('parseHash reads f and n, in any order, f lower-cased', () => {
  assert.deepEqual(parseHash('#f=ABCDEF0123456789&n=header/magic'), parts({ f: 'abcdef0123456789', n: 'header/magic' }));
  assert.deepEqual(parseHash('n=&f=00'), parts({ f: '00', n: '' }));
  assert.deepEqual(parseHash(''), none);
  assert.deepEqual(parseHash('#junk&x=1'), none);
  assert.deepEqual(parseHash(null), none);
  assert.deepEqual(parseHash('#f=00&n=members/x&b=0x1F4'), parts({ f: '00', n: 'members/x', b: 500 }));
  assert.equal(parseHash('#f=00&n=x&b=12').b, null, 'b is hex with 0x');
  assert.equal(formHash('00', ['x'], 500), '#f=00&n=x&b=0x1f4');
  // A range: both ends, in either order, read first to last.
  assert.deepEqual(parseHash('#f=00&n=x&b=0x10-0x13'), parts({ f: '00', n: 'x', b: 16, bLast: 19 }));
  assert.deepEqual(parseHash('#f=00&n=x&b=0x13-0x10'), parts({ f: '00', n: 'x', b: 16, bLast: 19 }));
  assert.equal(parseHash('#f=00&n=x&b=0x10-13').b, null, 'both ends are hex with 0x');
  assert.equal(formHash('00', ['x'], 16, 19), '#f=00&n=x&b=0x10-0x13');
  assert.equal(formHash('00', ['x'], 16, 16), '#f=00&n=x&b=0x10', 'a range of one byte is that byte');
});

test('the file\'s name, size and UUID ride beside f, before n (a link keeps ending in its node or byte)', () => {
  const h = formHash('00', ['members', 'sg00/', 'PE.bin', '#7'], 3, undefined, { name: 'a b&c.neff', size: 62464, uuid: '00a04c53-5fd9-4f07-bffd-d5eacdefc852' });
  assert.equal(h, '#f=00&name=a%20b%26c.neff&size=62464&uuid=00a04c53-5fd9-4f07-bffd-d5eacdefc852&n=members/sg00%2F/PE.bin/%237&b=0x3');
  assert.deepEqual(parseHash(h), parts({ f: '00', n: 'members/sg00%2F/PE.bin/%237', b: 3, name: 'a b&c.neff', size: 62464, uuid: '00a04c53-5fd9-4f07-bffd-d5eacdefc852' }));
  assert.equal(parseHash('#f=00&size=-1&n=').size, null, 'a size is a count of bytes');
  assert.equal(parseHash('#f=00&name=bad%zz&n=').name, '', 'malformed percent-encoding is no name');
});

test('a view and its window, and the document compared with', () => {
  const h = formHash('00', ['overview'], undefined, undefined, { v: 'schedule', w: { lo: -3.4, hi: 400.6 }, c: 1 });
  assert.equal(h, '#f=00&v=schedule&c=1&w=-3~401&n=overview');
  assert.deepEqual(parseHash(h), parts({ f: '00', n: 'overview', v: 'schedule', w: { lo: -3, hi: 401 }, c: 1 }));
  assert.equal(formHash('00', [], undefined, undefined, { v: 'memory', w: null }), '#f=00&v=memory&n=', 'a fitted view has no window');
  assert.equal(parseHash('#f=00&v=schedule&w=5~5').w, null, 'an empty window is none');
  assert.equal(parseHash('#f=00&v=schedule&w=a~b').w, null);
  assert.equal(parseHash('#f=00&v=other').v, '', 'only the views the page has');
  const d = formHash('00', ['overview'], undefined, undefined, { v: 'diff', vs: 'ab12', vsname: 'b.neff', vssize: 11264, vsuuid: 'u-1' });
  assert.equal(d, '#f=00&vs=ab12&vsname=b.neff&vssize=11264&vsuuid=u-1&n=overview');
  assert.deepEqual(parseHash(d), parts({ f: '00', n: 'overview', v: 'diff', vs: 'ab12', vsname: 'b.neff', vssize: 11264, vsuuid: 'u-1' }));
  assert.equal(parseHash('#f=00&v=diff').v, '', 'a comparison names the other document');
});

test('a comparison of several names each document compared with, in order', () => {
  const all = [{ f: 'ab12', name: 'b,1.neff', size: 11264, uuid: 'u-1' }, { f: 'cd34', name: 'c.neff', size: null, uuid: '' }];
  const h = formHash('00', ['overview'], undefined, undefined, { v: 'compare', all });
  assert.equal(h, '#f=00&v=compare&all=ab12,cd34&alln=b%2C1.neff,c.neff&alls=11264,&allu=u-1,&n=overview');
  assert.deepEqual(parseHash(h), parts({ f: '00', n: 'overview', v: 'compare', all }));
  assert.equal(parseHash('#f=00&v=compare&n=').v, '', 'a comparison of several names the others');
  assert.deepEqual(parseHash('#f=00&v=compare&all=zz,ab&n=').all, [], 'every fingerprint is hex, or none is taken');
  assert.deepEqual(parseHash('#f=00&all=ab&n=').all, [], 'the list without v=compare names nothing');
  assert.equal(parseHash('#f=00&v=compare&all=' + Array(100).fill('ab').join(',')).all.length, 64, 'at most 64 files');
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
