// @ts-check
// Formatting of numbers, sizes, spans and download names. Pure (no DOM), so node --test runs it.

/** @typedef {import('../wire.js').Span} Span */

/**
 * fmtInt writes an integer with thousands separators (1,234,567), whatever the locale. A safe
 * integer is grouped by hand: the page's first toLocaleString call sets up ICU's number
 * formatting, 55 ms in a fresh headless Chromium page, and it fell inside the first partial
 * overview's draw (the overview is on screen within 300 ms). Anything else goes to toLocaleString.
 * @param {number | string} n
 */
export const fmtInt = (n) => {
  const x = Number(n);
  if (!Number.isSafeInteger(x) || Object.is(x, -0)) return x.toLocaleString('en-US');
  const s = String(Math.abs(x));
  let out = s.slice(0, ((s.length - 1) % 3) + 1);
  for (let i = out.length; i < s.length; i += 3) out += ',' + s.slice(i, i + 3);
  return x < 0 ? '-' + out : out;
};

/**
 * fmtSize writes a byte count in binary units (B, KiB, MiB, GiB).
 * @param {number} n
 */
export function fmtSize(n) {
  if (n >= 1 << 30) return (n / (1 << 30)).toFixed(2) + ' GiB';
  if (n >= 1 << 20) return (n / (1 << 20)).toFixed(1) + ' MiB';
  if (n >= 1 << 10) return (n / (1 << 10)).toFixed(1) + ' KiB';
  return n + ' B';
}

/**
 * spanText says where a span's bytes are: "member a/b bytes 10..20 (10 bytes)".
 * @param {Span | null | undefined} s
 */
export function spanText(s) {
  if (!s) return '';
  const where = s.src ? 'member ' + s.src : 'file';
  return where + ' bytes ' + fmtInt(s.off) + '..' + fmtInt(s.off + s.len) + ' (' + fmtInt(s.len) + ' bytes)';
}

/**
 * fmtNum writes a plot value short: 5 significant digits, exponent form when very large or small.
 * @param {number} v
 */
export const fmtNum = (v) => {
  if (v === 0) return '0';
  if (!Number.isFinite(v)) return String(v);
  const a = Math.abs(v);
  if (a >= 1e5 || a < 1e-3) return v.toExponential(a >= 1e5 ? 3 : 2).replace('e+', 'e');
  return String(Number(v.toPrecision(5)));
};

/**
 * f32hex gives the 8 hex digits of v rounded to a float32 (big-endian, as the spec writes them).
 * @param {number} v
 */
export const f32hex = (v) => { const dv = new DataView(new ArrayBuffer(4)); dv.setFloat32(0, v); return dv.getUint32(0).toString(16).padStart(8, '0'); };

/**
 * fmtFull writes a value with every digit that matters: 9 significant digits for a float32
 * value, 12 otherwise.
 * @param {number} v
 */
export const fmtFull = (v) => (Number.isFinite(v) ? String(Math.fround(v) === v ? Number(v.toPrecision(9)) : Number(v.toPrecision(12))) : String(v));

/**
 * fileStem makes a download name from text that may come from the file.
 * @param {unknown} s
 */
export function fileStem(s) {
  return String(s).replace(/[^A-Za-z0-9._-]+/g, '_').replace(/^[._]+/, '').slice(0, 120) || 'neffscope';
}
