// Every key a view or feature binds is in the shortcut help (? lists features/keyboard.js
// SHORTCUTS): a key a user cannot find is a key they do not have.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

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

// The help's names of keys a handler compares with e.key.
const SHOWN = {
  ArrowDown: '↓', ArrowUp: '↑', ArrowLeft: '←', ArrowRight: '→', PageDown: 'PgDn', PageUp: 'PgUp',
  Escape: 'Esc', ' ': 'Space', '-': '−', '=': '+',
};
// Keys that are the browser's own (Tab moves the focus; it only closes a menu on its way).
const OWN = new Set(['Tab']);

// The keys the help lists, each token of a combination (Shift+← lists ← too), letters as one case.
function helpKeys() {
  const text = readFileSync(join(SRC, 'features/keyboard.js'), 'utf8');
  const table = text.slice(text.indexOf('export const SHORTCUTS'), text.indexOf('];', text.indexOf('export const SHORTCUTS')));
  const out = new Set();
  for (const m of table.matchAll(/keys: \[([^\]]*)\]/g)) {
    for (const k of m[1].matchAll(/'([^']*)'/g)) {
      const key = k[1];
      out.add(key.toLowerCase());
      if (key !== '+') for (const part of key.split('+')) if (part) out.add(part.toLowerCase());
    }
  }
  return out;
}

// The keys the modules bind: case '…' in a keydown handler's switch, e.key === '…'.
function boundKeys() {
  const out = [];
  for (const p of modules(SRC)) {
    const text = readFileSync(p, 'utf8');
    if (!/keydown/.test(text)) continue;
    for (const m of text.matchAll(/case '([^']+)':|e\.key === '([^']+)'/g)) {
      const key = m[1] || m[2];
      // A switch over something else (a kind, a field): its cases are not keys.
      const before = text.slice(Math.max(0, m.index - 2000), m.index);
      const sw = before.lastIndexOf('switch (');
      if (m[1] && (sw < 0 || !/^switch \(e\.key\)/.test(before.slice(sw)))) continue;
      out.push({ key, where: relative(SRC, p) });
    }
  }
  return out;
}

test('the help lists every key the page binds', () => {
  const listed = helpKeys();
  const bound = boundKeys();
  assert.ok(bound.length > 30, 'only ' + bound.length + ' bound keys found');
  const missing = [];
  for (const { key, where } of bound) {
    if (OWN.has(key)) continue;
    const shown = (SHOWN[key] || key).toLowerCase();
    if (!listed.has(shown)) missing.push(key + ' (' + where + ')');
  }
  assert.deepEqual([...new Set(missing)], [], 'keys bound but not in the help');
});

test('the help names the keys users asked for', () => {
  const listed = helpKeys();
  for (const k of ['w', 'a', 's', 'd', 'alt+s', 'shift+click', 'drag', 't', 'b', 'delete', 'ctrl+home']) assert.ok(listed.has(k), k);
});
