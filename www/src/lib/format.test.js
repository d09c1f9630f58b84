import test from 'node:test';
import assert from 'node:assert/strict';
import { f32hex, fileStem, fmtFull, fmtInt, fmtNum, fmtSize, spanText } from './format.js';

test('fmtInt groups thousands with commas', () => {
  assert.equal(fmtInt(0), '0');
  assert.equal(fmtInt(1234567), '1,234,567');
  assert.equal(fmtInt(-1000), '-1,000');
});

test('fmtInt writes what en-US toLocaleString writes, for integers of every length and the rest', () => {
  const xs = [0, -0, 1, -1, 12, 999, 1000, -999999, 1000000, 2 ** 31, -(2 ** 40), Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER,
    2 ** 60, 1e21, 1.5, -1234.5678, NaN, Infinity, '65536', '12.5', 'x'];
  for (let d = 1, x = 7; d <= 16; d++, x = x * 10 + (d % 10)) xs.push(x, -x);
  for (const x of xs) assert.equal(fmtInt(x), Number(x).toLocaleString('en-US'), String(x));
});

test('fmtSize picks binary units at each power of 1024', () => {
  assert.equal(fmtSize(0), '0 B');
  assert.equal(fmtSize(1023), '1023 B');
  assert.equal(fmtSize(1024), '1.0 KiB');
  assert.equal(fmtSize(1536), '1.5 KiB');
  assert.equal(fmtSize(200 << 20), '200.0 MiB');
  assert.equal(fmtSize(3 * (1 << 30)), '3.00 GiB');
});

test('spanText names the source and the byte range', () => {
  assert.equal(spanText(null), '');
  assert.equal(spanText({ off: 0, len: 1024 }), 'file bytes 0..1,024 (1,024 bytes)');
  assert.equal(spanText({ src: 'sg00/def.json', off: 12, len: 28 }), 'member sg00/def.json bytes 12..40 (28 bytes)');
});

test('fmtNum: 5 digits, exponent form outside [1e-3, 1e5)', () => {
  assert.equal(fmtNum(0), '0');
  assert.equal(fmtNum(1 / 3), '0.33333');
  assert.equal(fmtNum(12345.678), '12346');
  assert.equal(fmtNum(123456), '1.235e5');
  assert.equal(fmtNum(0.0001234), '1.23e-4');
  assert.equal(fmtNum(-Infinity), '-Infinity');
  assert.equal(fmtNum(NaN), 'NaN');
});

test('f32hex gives the float32 bits big-endian', () => {
  assert.equal(f32hex(1), '3f800000');
  assert.equal(f32hex(-2), 'c0000000');
  assert.equal(f32hex(0), '00000000');
  assert.equal(f32hex(Infinity), '7f800000');
  assert.equal(f32hex(0.1), '3dcccccd'); // rounded to the nearest float32
});

test('fmtFull: 9 digits for float32 values, 12 otherwise', () => {
  assert.equal(fmtFull(Math.fround(0.1)), '0.100000001');
  assert.equal(fmtFull(0.1), '0.1');
  assert.equal(fmtFull(1 / 3), '0.333333333333');
  assert.equal(fmtFull(NaN), 'NaN');
});

test('fileStem makes a safe download name', () => {
  assert.equal(fileStem('model.neff'), 'model.neff');
  assert.equal(fileStem('../../etc/passwd'), 'etc_passwd');
  assert.equal(fileStem('a b<c>'), 'a_b_c_');
  assert.equal(fileStem('...'), 'neffscope');
  assert.equal(fileStem('x'.repeat(300)).length, 120);
});
