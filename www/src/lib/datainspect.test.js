import test from 'node:test';
import assert from 'node:assert/strict';
import { f16, f32, f64, inspectBytes, readUint } from './datainspect.js';

const row = (bytes, name) => inspectBytes(bytes).find((r) => r.name === name);

test('f16 decodes normals, subnormals, signed zeros, infinities and NaN exactly', () => {
  assert.equal(f16(0x3c00), 1);
  assert.equal(f16(0xc000), -2);
  assert.equal(f16(0x7bff), 65504); // the largest finite half
  assert.equal(f16(0x0400), 2 ** -14); // the smallest normal
  assert.equal(f16(0x0001), 2 ** -24); // the smallest subnormal
  assert.equal(f16(0x03ff), 1023 * 2 ** -24); // the largest subnormal
  assert.ok(Object.is(f16(0x8000), -0));
  assert.equal(f16(0x7c00), Infinity);
  assert.equal(f16(0xfc00), -Infinity);
  assert.ok(Number.isNaN(f16(0x7e00)));
  assert.ok(Number.isNaN(f16(0x7c01)));
});

test('bf16 is the top half of an f32', () => {
  assert.equal(row([0x80, 0x3f], 'bf16').le, '1');
  assert.equal(row([0x3f, 0x80], 'bf16').be, '1');
  assert.equal(row([0x49, 0x40], 'bf16').le, '3.141'); // 0x4049 = 3.140625, 4 digits
  assert.equal(row([0x80, 0xff], 'bf16').le, '-Inf');
  assert.equal(row([0xc1, 0x7f], 'bf16').le, 'NaN');
  assert.equal(row([0x01, 0x00], 'bf16').le, '9.184e-41'); // a subnormal
});

test('f32 and f64 print the shortest decimal that reads back', () => {
  assert.equal(f32(0x3f800000), 1);
  assert.equal(row([0xcd, 0xcc, 0xcc, 0x3d], 'f32').le, '0.1');
  assert.equal(row([0x3d, 0xcc, 0xcc, 0xcd], 'f32').be, '0.1');
  assert.equal(row([0x01, 0, 0, 0], 'f32').le, '1e-45'); // the smallest subnormal
  assert.equal(row([0xff, 0xff, 0x7f, 0x7f], 'f32').le, '3.4028235e+38');
  assert.equal(row([0, 0, 0, 0x80], 'f32').le, '-0');
  assert.equal(row([0, 0, 0x80, 0x7f], 'f32').le, '+Inf');
  assert.equal(row([0, 0, 0xc0, 0x7f], 'f32').le, 'NaN');
  assert.equal(f64(0x3ff0000000000000n), 1);
  assert.equal(row([0x9a, 0x99, 0x99, 0x99, 0x99, 0x99, 0xb9, 0x3f], 'f64').le, '0.1');
  assert.equal(row([1, 0, 0, 0, 0, 0, 0, 0], 'f64').le, '5e-324');
  assert.equal(row([0, 0, 0, 0, 0, 0, 0xf0, 0xff], 'f64').le, '-Inf');
});

test('integers of every width, both endians; u64 past 2^53 is exact', () => {
  const b = [0xfe, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff];
  assert.equal(row(b, 'u8').le, '254');
  assert.equal(row(b, 'i8').le, '-2');
  assert.equal(row(b, 'u16').le, '65534');
  assert.equal(row(b, 'u16').be, '65279');
  assert.equal(row(b, 'i16').le, '-2');
  assert.equal(row(b, 'i16').be, '-257');
  assert.equal(row(b, 'u32').le, '4294967294');
  assert.equal(row(b, 'i32').le, '-2');
  assert.equal(row(b, 'u64').le, '18446744073709551614');
  assert.equal(row(b, 'i64').le, '-2');
  assert.equal(row(b, 'u64').be, '18374686479671623679');
  assert.equal(row(b, 'i64').be, '-72057594037927937');
  // 2^53 + 1 cannot be a Number: it is printed from the BigInt.
  assert.equal(row([1, 0, 0, 0, 0, 0, 0x20, 0], 'u64').le, '9007199254740993');
  assert.equal(row([0x78, 0x56, 0x34, 0x12], 'u32').le, String(0x12345678));
  assert.equal(row([0x12, 0x34, 0x56, 0x78], 'u32').be, String(0x12345678));
});

test('a width the bytes do not reach reads as null', () => {
  const rows = inspectBytes([0x3c, 0x00, 0x01]);
  assert.equal(rows.find((r) => r.name === 'u8').le, '60');
  assert.equal(rows.find((r) => r.name === 'f16').be, '1');
  assert.equal(rows.find((r) => r.name === 'u32').le, null);
  assert.equal(rows.find((r) => r.name === 'f64').be, null);
  // A byte not read yet (-1) stops the widths that need it.
  assert.equal(readUint([1, -1], 0, 1, true), 1n);
  assert.equal(readUint([1, -1], 0, 2, true), null);
  assert.equal(readUint([], 0, 1, true), null);
});
