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

// A generated module (*.gen.js: go generate writes it from a Go table) is as long as its table.
test('no module is over ' + MAX_LINES + ' lines', () => {
  for (const m of all.filter((m) => !m.name.endsWith('.gen.js'))) {
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

// The page's floors, lowest first: a module may import its own floor or one below, never one
// above, and no import circle may close. A module's floor is its directory's (files at the top
// of www/src are named one by one).
const FLOORS = ['lib', 'core', 'state', 'views', 'features', 'main'];
const FLOOR_OF = [
  // [path prefix under www/src, floor]
  ['lib/', 'lib'], ['dom.js', 'lib'], ['wire.js', 'lib'], ['roles.js', 'lib'], ['config.js', 'lib'],
  ['core/', 'core'], ['worker/', 'core'],
  ['state/', 'state'],
  ['views/', 'views'],
  ['features/', 'features'],
  ['main.js', 'main'], ['debug.js', 'main'],
];

function floorOf(name) {
  const row = FLOOR_OF.find(([prefix]) => (prefix.endsWith('/') ? name.startsWith(prefix) : name === prefix));
  return row ? FLOORS.indexOf(row[1]) : -1;
}

// Static imports only: `import … from '…'`, `import '…'` and `export … from '…'` at a line's
// start (JSDoc's import('…') types are not loaded and do not count).
function importsOf(m) {
  const out = [];
  const re = /^(?:import|export)\s(?:[^'"`;]*?\sfrom\s)?['"]([^'"]+)['"]/gm;
  for (const [, spec] of m.text.matchAll(re)) {
    if (!spec.startsWith('.')) continue;
    const target = relative(SRC, join(SRC, m.name, '..', spec)).split('\\').join('/');
    if (target.startsWith('..')) continue; // vendored code outside www/src
    out.push(target);
  }
  return out;
}

const graph = new Map(all.map((m) => [m.name.split('\\').join('/'), importsOf(m)]));

test('every module has a floor', () => {
  for (const name of graph.keys()) assert.ok(floorOf(name) >= 0, name + ' has no floor in FLOOR_OF');
});

test('no module imports a module of a higher floor (' + FLOORS.join(' < ') + ')', () => {
  const up = [];
  for (const [from, tos] of graph) {
    for (const to of tos) {
      if (floorOf(to) > floorOf(from)) up.push(from + ' (' + FLOORS[floorOf(from)] + ') -> ' + to + ' (' + FLOORS[floorOf(to)] + ')');
    }
  }
  assert.deepEqual(up, [], up.length + ' imports run up a floor');
});

test('no import circle', () => {
  // Tarjan's strongly connected components: any component of two or more modules (or one that
  // imports itself) is a circle; each is reported with a cycle through it.
  let index = 0;
  const idx = new Map(), low = new Map(), onStack = new Set(), stack = [], circles = [];
  const visit = (v) => {
    idx.set(v, index); low.set(v, index); index++;
    stack.push(v); onStack.add(v);
    for (const w of graph.get(v) || []) {
      if (!graph.has(w)) continue;
      if (!idx.has(w)) { visit(w); low.set(v, Math.min(low.get(v), low.get(w))); }
      else if (onStack.has(w)) low.set(v, Math.min(low.get(v), idx.get(w)));
    }
    if (low.get(v) !== idx.get(v)) return;
    const comp = [];
    let w;
    do { w = stack.pop(); onStack.delete(w); comp.push(w); } while (w !== v);
    if (comp.length > 1 || (graph.get(v) || []).includes(v)) circles.push(comp);
  };
  for (const v of graph.keys()) if (!idx.has(v)) visit(v);
  const report = circles.map((comp) => cycleIn(comp).join(' -> ') + ' (' + comp.length + ' modules: ' + comp.sort().join(', ') + ')');
  assert.deepEqual(report, [], circles.length + ' import circles');
});

// cycleIn: one cycle through the component's first module, by breadth-first search back to it.
function cycleIn(comp) {
  const inComp = new Set(comp), start = comp[0], prev = new Map([[start, null]]);
  const queue = [start];
  while (queue.length) {
    const v = queue.shift();
    for (const w of graph.get(v) || []) {
      if (w === start) {
        const path = [start];
        for (let x = v; x !== start; x = prev.get(x)) path.splice(1, 0, x);
        return path.concat(start);
      }
      if (inComp.has(w) && !prev.has(w)) { prev.set(w, v); queue.push(w); }
    }
  }
  return [start];
}

// ---- every element id is one view's ----

// The code of a module without its comments (a comment may name an id: that is not a use).
const code = (text) => text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[\s;{}(,])\/\/.*$/gm, '$1');

// idsNamed: the element ids a module names: found ($('id')), made (el.id = 'id', a row's
// root: 'id', a frame's statusId: 'id') or selected ('#id' in a selector or a style sheet).
function idsNamed(text) {
  const out = new Set();
  const t = code(text);
  for (const [, id] of t.matchAll(/\$\(\s*'([\w-]+)'\s*\)/g)) out.add(id);
  for (const [, id] of t.matchAll(/(?:\.id\s*=|\b(?:id|root|\w+Id)\s*:)\s*'([\w-]+)'/g)) out.add(id);
  for (const [, a, b, c] of t.matchAll(/'([^'\n]*)'|"([^"\n]*)"|`([^`]*)`/g)) {
    for (const [, id] of (a || b || c || '').matchAll(/#([a-zA-Z][\w-]*)/g)) out.add(id);
  }
  return out;
}

// A view owns its root and everything in it (views/registry.js): an element id is named in
// one module only, the view's (the registry names each view's root; the view gets it at init).
// Another module asks the view by a function it exports.
test('an element id is named in one module only', () => {
  const by = new Map();
  for (const m of all) for (const id of idsNamed(m.text)) by.set(id, (by.get(id) || []).concat(m.name));
  const shared = [...by].filter(([, ms]) => ms.length > 1).map(([id, ms]) => '#' + id + ': ' + ms.join(', '));
  assert.deepEqual(shared, [], shared.length + ' ids are named in more than one module');
  assert.ok(by.size >= 100, 'only ' + by.size + ' ids found: the scan is broken');
});

// So that the rule above sees every id: an element is found by id only through dom.js's $,
// with the id written out ($('id'), never $(name) or $('pane-' + p)); the registry alone
// finds the roots its rows name (root: 'id').
test('elements are found by an id written out, through $', () => {
  const bad = [];
  for (const m of all) {
    const t = code(m.text);
    if (m.name !== 'dom.js' && /getElementById\(/.test(t)) bad.push(m.name + ': getElementById');
    if (m.name === 'views/registry.js') continue;
    for (const [call] of t.matchAll(/\$\((?!\s*'[\w-]+'\s*\))[^)\n]{0,30}/g)) bad.push(m.name + ': ' + call);
  }
  assert.deepEqual(bad, []);
});

// Every view has a row in views/registry.js: a module under views/ that exports an init of a
// view (…Init(root …)) is named by a row, so a new view cannot skip the registry.
test('every view init is a row of the registry', () => {
  const registry = all.find((m) => m.name === 'views/registry.js');
  assert.ok(registry, 'views/registry.js is missing');
  const missing = [];
  for (const m of all) {
    if (!m.name.startsWith('views/') || m.name === 'views/registry.js') continue;
    for (const [, name] of m.text.matchAll(/^export function (\w+Init)\(/gm)) {
      if (!new RegExp('\\binit: ' + name + '\\b').test(registry.text)) missing.push(m.name + ' ' + name);
    }
  }
  assert.deepEqual(missing, [], 'view inits without a registry row');
});
