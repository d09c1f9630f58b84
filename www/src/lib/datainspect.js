// @ts-check
// The data inspector's decoding (as ImHex, 010 Editor and HxD show it): the bytes at the
// cursor read as every integer and float width, little and big endian. Pure: bytes in, text
// out; a width the bytes do not reach reads as null.

/**
 * INSPECT_TYPES: the rows of the inspector, in its order: name, width in bytes, and how the
 * width's bytes (as an unsigned BigInt) read.
 * @type {{name: string, size: number, read: (v: bigint) => string}[]}
 */
export const INSPECT_TYPES = [
  { name: 'u8', size: 1, read: (v) => v.toString() },
  { name: 'i8', size: 1, read: (v) => BigInt.asIntN(8, v).toString() },
  { name: 'u16', size: 2, read: (v) => v.toString() },
  { name: 'i16', size: 2, read: (v) => BigInt.asIntN(16, v).toString() },
  { name: 'u32', size: 4, read: (v) => v.toString() },
  { name: 'i32', size: 4, read: (v) => BigInt.asIntN(32, v).toString() },
  { name: 'u64', size: 8, read: (v) => v.toString() },
  { name: 'i64', size: 8, read: (v) => BigInt.asIntN(64, v).toString() },
  // A half float shows 5 significant digits and a bfloat16 4 (what their 11 and 8 bits of
  // mantissa carry); f32 and f64 the shortest decimal that reads back as the same value.
  { name: 'f16', size: 2, read: (v) => fmtFloat(f16(Number(v)), (x) => Number(x.toPrecision(5))) },
  { name: 'bf16', size: 2, read: (v) => fmtFloat(f32(Number(v) << 16), (x) => Number(x.toPrecision(4))) },
  { name: 'f32', size: 4, read: (v) => fmtFloat(f32(Number(v)), shortestF32) },
  { name: 'f64', size: 8, read: (v) => fmtFloat(f64(v), (x) => x) },
];

/**
 * readUint reads size bytes of b from at as an unsigned integer, little endian (le) or big;
 * null when b does not hold them all (a byte < 0 is one not read yet).
 * @param {ArrayLike<number>} b
 * @param {number} at
 * @param {number} size
 * @param {boolean} le
 * @returns {bigint | null}
 */
export function readUint(b, at, size, le) {
  if (at < 0 || at + size > b.length) return null;
  let v = 0n;
  for (let k = 0; k < size; k++) {
    const x = b[at + (le ? size - 1 - k : k)];
    if (!(x >= 0 && x <= 255)) return null;
    v = (v << 8n) | BigInt(x);
  }
  return v;
}

/**
 * inspectBytes reads the bytes of b (from its start: the cursor) as every row of
 * INSPECT_TYPES, in both byte orders; a value the bytes do not reach is null.
 * @param {ArrayLike<number>} b
 * @returns {{name: string, size: number, le: string | null, be: string | null}[]}
 */
export function inspectBytes(b) {
  return INSPECT_TYPES.map((t) => {
    const le = readUint(b, 0, t.size, true), be = readUint(b, 0, t.size, false);
    return { name: t.name, size: t.size, le: le === null ? null : t.read(le), be: be === null ? null : t.read(be) };
  });
}

/**
 * f16 decodes an IEEE 754 binary16 from its 16 bits (subnormals, infinities and NaN too).
 * @param {number} bits
 */
export function f16(bits) {
  const sign = bits & 0x8000 ? -1 : 1;
  const exp = (bits >> 10) & 0x1f, frac = bits & 0x3ff;
  if (exp === 0) return sign * frac * 2 ** -24; // zero and subnormals: frac × 2^-14 × 2^-10
  if (exp === 0x1f) return frac ? NaN : sign * Infinity;
  return sign * (1 + frac / 1024) * 2 ** (exp - 15);
}

const scratch = new DataView(new ArrayBuffer(8));

/**
 * f32 decodes an IEEE 754 binary32 from its 32 bits (bf16 is its top half).
 * @param {number} bits
 */
export function f32(bits) {
  scratch.setUint32(0, bits >>> 0);
  return scratch.getFloat32(0);
}

/**
 * f64 decodes an IEEE 754 binary64 from its 64 bits.
 * @param {bigint} bits
 */
export function f64(bits) {
  scratch.setBigUint64(0, BigInt.asUintN(64, bits));
  return scratch.getFloat64(0);
}

/**
 * shortestF32: the number with the fewest significant digits that rounds to the same f32 as x.
 * @param {number} x a value an f32 holds exactly
 */
export function shortestF32(x) {
  for (let p = 1; p < 9; p++) {
    const y = Number(x.toPrecision(p));
    if (Math.fround(y) === x) return y;
  }
  return Number(x.toPrecision(9));
}

/**
 * fmtFloat prints a float: -0, the infinities and NaN by name, any other value as round
 * gives it.
 * @param {number} x
 * @param {(x: number) => number} round
 */
export function fmtFloat(x, round) {
  if (Number.isNaN(x)) return 'NaN';
  if (x === Infinity) return '+Inf';
  if (x === -Infinity) return '-Inf';
  if (x === 0) return Object.is(x, -0) ? '-0' : '0';
  return String(round(x));
}
