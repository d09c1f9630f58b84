import test from 'node:test';
import assert from 'node:assert/strict';
import { gzipSync } from 'node:zlib';
import { isTarName, tarFiles } from './tar.js';

const enc = new TextEncoder();

// header builds a 512-byte ustar header (prefix: ustar's path prefix; type: its type flag).
function header(name, size, { type = '0', prefix = '', badSum = false } = {}) {
  const h = new Uint8Array(512);
  h.set(enc.encode(name).subarray(0, 100), 0);
  h.set(enc.encode('0000644\0'), 100);
  h.set(enc.encode(size.toString(8).padStart(11, '0') + '\0'), 124);
  h[156] = type.charCodeAt(0);
  h.set(enc.encode('ustar\0' + '00'), 257);
  h.set(enc.encode(prefix), 345);
  let sum = 0;
  for (let i = 0; i < 512; i++) sum += i >= 148 && i < 156 ? 32 : h[i];
  h.set(enc.encode((sum + (badSum ? 1 : 0)).toString(8).padStart(6, '0') + '\0 '), 148);
  return h;
}

function entry(name, body, opts) {
  const data = typeof body === 'string' ? enc.encode(body) : body;
  const pad = new Uint8Array(Math.ceil(data.length / 512) * 512);
  pad.set(data);
  return [header(name, data.length, opts), pad];
}

const pax = (path) => {
  const rec = ' path=' + path + '\n';
  let n = rec.length + 2;
  if (String(n).length + rec.length !== n) n = String(n + 1).length + rec.length;
  return entry('PaxHeaders/x', String(n) + rec, { type: 'x' });
};

const archive = (...parts) => new Blob([...parts.flat(), new Uint8Array(1024)]);
const texts = async (r) => Promise.all(r.list.map(async (f) => [f.path, await f.file.text()]));

test('a packed cache: its files by path, their bytes sliced, directories left out', async () => {
  const long = 'neuronxcc-2.23.6484.0+3b612583/MODULE_17825228117791364669+fad94d7c/model.hlo_module.pb'.padStart(140, 'x');
  const blob = archive(
    entry('cache/', '', { type: '5' }),
    entry('cache/a/model.neff', 'NEFF'),
    entry('model.done', '', { prefix: 'cache/a' }),
    pax('cache/' + long), entry('cache/truncated-name', 'HLO'),
  );
  const r = await tarFiles(blob);
  assert.equal(r.note, '');
  assert.deepEqual(await texts(r), [['cache/a/model.neff', 'NEFF'], ['cache/a/model.done', ''], ['cache/' + long, 'HLO']]);
  assert.equal(r.list[0].file.name, 'model.neff');
});

test('gzip\'d: read the same', async () => {
  const raw = new Uint8Array(await archive(entry('c/MODULE_1+0/model.neff', 'x'.repeat(700))).arrayBuffer());
  const r = await tarFiles(new Blob([gzipSync(raw)]));
  assert.deepEqual((await texts(r)).map(([p, t]) => [p, t.length]), [['c/MODULE_1+0/model.neff', 700]]);
});

test('cut short or corrupt: what came before is kept, the rest said', async () => {
  const whole = new Uint8Array(await archive(entry('a/model.neff', 'A'), entry('b/model.neff', 'B'.repeat(2000))).arrayBuffer());
  const cut = await tarFiles(new Blob([whole.subarray(0, 1024 + 512 + 600)]));
  assert.deepEqual(await texts(cut), [['a/model.neff', 'A']]);
  assert.match(cut.note, /ends inside the file at byte 1024/);
  const bad = await tarFiles(archive(entry('a/model.neff', 'A'), entry('b/model.neff', 'B', { badSum: true })));
  assert.deepEqual(await texts(bad), [['a/model.neff', 'A']]);
  assert.match(bad.note, /byte 1024 is not a tar header/);
  const junk = await tarFiles(new Blob([new Uint8Array([0x1f, 0x8b, 1, 2, 3])]));
  assert.deepEqual(junk.list, []);
  assert.match(junk.note, /gzip stream is cut short or corrupt after 0 inflated bytes/);
  // A .tar.gz cut short: the files that inflated whole are kept.
  const gz = gzipSync(new Uint8Array(await archive(entry('a/model.neff', 'A'), entry('b/model.neff', crypto.getRandomValues(new Uint8Array(60000)))).arrayBuffer()));
  const gzCut = await tarFiles(new Blob([gz.subarray(0, gz.length / 2)]));
  assert.deepEqual((await texts(gzCut)).slice(0, 1), [['a/model.neff', 'A']]);
  assert.equal(gzCut.list.length, 1);
  assert.match(gzCut.note, /gzip stream is cut short.*; the archive ends inside the file at byte 1024/);
});

test('isTarName', () => {
  assert.ok(isTarName('cache.tar') && isTarName('cache.tar.gz') && isTarName('c.TGZ'));
  assert.ok(!isTarName('model.neff') && !isTarName('tar.gz.neff'));
});

test('hostile: huge sizes claimed, random bytes, mutated headers: never a throw, every file inside the archive', async () => {
  const huge = header('a/model.neff', 0);
  huge.set(enc.encode('77777777777\0'), 124); // 8 GiB claimed in a few bytes
  let sum = 0;
  for (let i = 0; i < 512; i++) sum += i >= 148 && i < 156 ? 32 : huge[i];
  huge.set(enc.encode(sum.toString(8).padStart(6, '0') + '\0 '), 148);
  const r = await tarFiles(new Blob([huge, new Uint8Array(1024)]));
  assert.deepEqual(r.list, []);
  assert.match(r.note, /ends inside the file at byte 0/);

  let seed = 7;
  const rand = () => (seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32;
  const good = new Uint8Array(await archive(entry('a/model.neff', 'A'.repeat(900)), pax('b/' + 'p'.repeat(300)), entry('b', 'B')).arrayBuffer());
  for (let k = 0; k < 300; k++) {
    const b = k % 3 === 0 ? crypto.getRandomValues(new Uint8Array(Math.floor(rand() * 3000))) : good.slice(0, Math.floor(rand() * good.length) + 1);
    for (let m = 0; m < 4 && k % 3 === 2; m++) b[Math.floor(rand() * b.length)] = Math.floor(rand() * 256);
    const out = await tarFiles(new Blob([b]));
    for (const f of out.list) assert.ok(f.file.size <= b.length, 'a file larger than the archive');
  }
});
