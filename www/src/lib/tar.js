// @ts-check
// A compile cache packed as a .tar (or .tar.gz, .tgz), read in the tab as the folder it was:
// each regular file a slice of the archive (a Blob: nothing is copied), named by its path.
// POSIX ustar headers (name with its prefix), PAX extended headers (path) and GNU long names
// are read; what follows a bad header is left out and said in the note.

const BLOCK = 512;
/** The most inflated bytes of a .tar.gz held in the tab (a .tar is sliced, never held). */
export const MAX_INFLATED = 1 << 30;
/** The most files read from one archive: past it the rest is left out (and said). */
export const MAX_TAR_FILES = 200000;

/** isTarName: a file name read as a packed cache. */
export const isTarName = (name) => /\.(tar|tar\.gz|tgz)$/i.test(name);

/**
 * tarFiles lists the regular files of a tar archive (gunzipped first when its name says
 * .gz or .tgz, or its first bytes are gzip's).
 * @param {Blob & {name?: string}} file
 * @returns {Promise<{list: {path: string, file: File}[], note: string}>}
 */
export async function tarFiles(file) {
  const head = new Uint8Array(await file.slice(0, 2).arrayBuffer());
  if (!(head[0] === 0x1f && head[1] === 0x8b)) return walk(file);
  const { blob, note } = await gunzip(file);
  const r = await walk(blob);
  return { list: r.list, note: [note, r.note].filter(Boolean).join('; ') };
}

/**
 * gunzip inflates file, keeping what inflated before an error or MAX_INFLATED bytes.
 * @param {Blob} file
 */
async function gunzip(file) {
  const chunks = [];
  let n = 0;
  let note = '';
  const reader = file.stream().pipeThrough(new DecompressionStream('gzip')).getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (n + value.length > MAX_INFLATED) { note = 'the archive inflates past ' + MAX_INFLATED / (1 << 20) + ' MiB: the files after that are left out'; reader.cancel(); break; }
      chunks.push(value);
      n += value.length;
    }
  } catch (e) {
    note = 'the gzip stream is cut short or corrupt after ' + n + ' inflated bytes (' + e.message + ')';
  }
  return { blob: new Blob(chunks), note };
}

/**
 * walk reads the headers one by one; a file's bytes are never read, only sliced.
 * @param {Blob} blob
 */
async function walk(blob) {
  const list = [];
  let off = 0;
  let longName = '';
  let note = '';
  while (off + BLOCK <= blob.size) {
    const h = new Uint8Array(await blob.slice(off, off + BLOCK).arrayBuffer());
    if (h.every((b) => b === 0)) break; // the end-of-archive blocks
    if (!checksumOK(h)) { note = 'a header at byte ' + off + ' is not a tar header: the files after it are left out'; break; }
    const size = sizeOf(h);
    const data = off + BLOCK;
    if (size < 0 || data + size > blob.size) { note = 'the archive ends inside the file at byte ' + off + ': it and the files after it are left out'; break; }
    const type = String.fromCharCode(h[156] || 48);
    if (type === 'x' || type === 'L') {
      const body = new TextDecoder().decode(await blob.slice(data, data + Math.min(size, 1 << 16)).arrayBuffer());
      longName = type === 'L' ? body.replace(/\0.*$/s, '') : paxPath(body) || longName;
    } else if (type === '0' || type === '7') {
      const path = (longName || nameOf(h)).replace(/^(\.\/)+/, '');
      longName = '';
      if (list.length >= MAX_TAR_FILES) { note = 'the archive holds more than ' + MAX_TAR_FILES + ' files: the rest are left out'; break; }
      const base = path.slice(path.lastIndexOf('/') + 1);
      list.push({ path, file: new File([blob.slice(data, data + size)], base) });
    } else if (type !== 'g') {
      longName = ''; // a directory, a link: nothing to read
    }
    off = data + Math.ceil(size / BLOCK) * BLOCK;
  }
  return { list, note };
}

// checksumOK: the header's checksum (bytes 148..155, octal) is the sum of its bytes with
// those eight counted as spaces.
function checksumOK(h) {
  let sum = 0;
  for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 32 : h[i];
  return octal(h, 148, 8) === sum;
}

// sizeOf: bytes 124..135, octal, or base-256 when the first byte's high bit is set (GNU).
function sizeOf(h) {
  if (h[124] & 0x80) {
    let n = h[124] & 0x7f;
    for (let i = 125; i < 136; i++) n = n * 256 + h[i];
    return n;
  }
  return octal(h, 124, 12);
}

function octal(h, at, len) {
  const s = text(h, at, len).trim();
  return /^[0-7]+$/.test(s) ? parseInt(s, 8) : -1;
}

function text(h, at, len) {
  const end = h.subarray(at, at + len).indexOf(0);
  return new TextDecoder().decode(h.subarray(at, end < 0 ? at + len : at + end));
}

// nameOf: ustar's prefix and name joined.
function nameOf(h) {
  const name = text(h, 0, 100);
  const prefix = text(h, 257, 6) === 'ustar' ? text(h, 345, 155) : '';
  return prefix ? prefix + '/' + name : name;
}

// paxPath: the path record of a PAX extended header ("<len> path=<value>\n" records).
function paxPath(body) {
  for (const rec of body.split('\n')) {
    const m = /^\d+ path=(.*)$/s.exec(rec);
    if (m) return m[1];
  }
  return '';
}
