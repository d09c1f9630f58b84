// The page's vocabulary is lib/vocab.gen.js (generated from core/doc): no module compares a
// node's or a document's kind with a literal, or splits or builds a ref by hand.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DOC_KIND, KIND, REF } from '../src/lib/vocab.gen.js';

const SRC = fileURLToPath(new URL('../src/', import.meta.url));

function modules(dir) {
  const out = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...modules(p));
    else if (name.endsWith('.js') && !name.endsWith('.test.js') && !name.endsWith('.gen.js')) out.push(p);
  }
  return out;
}

const all = modules(SRC).map((p) => ({ name: relative(SRC, p), text: readFileSync(p, 'utf8') }));

test('kinds are compared through KIND and DOC_KIND, not literals', () => {
  const kinds = new Set([...Object.values(KIND), ...Object.values(DOC_KIND)]);
  const bad = [];
  for (const m of all) {
    for (const [hit, v] of m.text.matchAll(/\.kind\s*[!=]==?\s*'([^']*)'/g)) if (kinds.has(v)) bad.push(m.name + ': ' + hit);
    for (const [set] of m.text.matchAll(/_KINDS = new Set\(\[[^\]]*'[^\]]*\]\)/g)) bad.push(m.name + ': ' + set.slice(0, 60));
  }
  assert.deepEqual(bad, []);
});

test('refs are read and built by lib/refs.js only', () => {
  const bad = [];
  for (const m of all) {
    if (m.name === 'lib/refs.js') continue;
    for (const kind of Object.values(REF)) {
      if (m.text.includes("'" + kind + ":'") || m.text.includes("'" + kind + ":' +")) bad.push(m.name + ': ' + kind + ':');
    }
    if (/\.ref\.(startsWith|slice|split|indexOf)\(/.test(m.text)) bad.push(m.name + ': splits a ref');
  }
  assert.deepEqual(bad, []);
});
