// Checks on the page's module sources (www/src/): each one concern, small enough to read.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const SRC = fileURLToPath(new URL('../src/', import.meta.url));
const MAX_LINES = 800;

function modules(dir) {
  const out = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...modules(p));
    else if (name.endsWith('.js') && !name.endsWith('.test.js')) out.push(p);
  }
  return out;
}

const all = modules(SRC).map((p) => ({ name: relative(SRC, p), text: readFileSync(p, 'utf8') }));

test('the page is split into modules', () => {
  assert.ok(all.length >= 20, 'only ' + all.length + ' modules');
  for (const want of ['main.js', 'core/client.js', 'wire.js', 'debug.js', 'worker/main.js', 'worker/hash.js', 'worker/core-host.js']) {
    assert.ok(all.some((m) => m.name === want), want + ' is missing');
  }
});

test('no module is over ' + MAX_LINES + ' lines', () => {
  for (const m of all) {
    const n = m.text.split('\n').length - (m.text.endsWith('\n') ? 1 : 0);
    assert.ok(n <= MAX_LINES, m.name + ' has ' + n + ' lines');
  }
});

test('every module is type-checked by editors (// @ts-check first)', () => {
  for (const m of all) assert.ok(m.text.startsWith('// @ts-check\n'), m.name);
});

test('no HTML is parsed from strings: text from a file goes in with textContent', () => {
  for (const m of all) {
    for (const bad of ['.innerHTML', '.outerHTML', 'insertAdjacentHTML', 'document.write(', 'eval(', 'new Function(']) {
      assert.ok(!m.text.includes(bad), m.name + ' uses ' + bad);
    }
  }
});

test('only core/ talks to the workers, and only wire.js decodes msgpack', () => {
  for (const m of all) {
    if (!m.name.startsWith('core/') && !m.name.startsWith('worker/')) assert.ok(!/\.postMessage\(\s*\{\s*id\b/.test(m.text), m.name + ' posts a worker request itself');
    if (m.name !== 'wire.js') assert.ok(!m.text.includes('MessagePack.decode'), m.name + ' decodes msgpack itself');
  }
});
