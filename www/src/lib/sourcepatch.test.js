import test from 'node:test';
import assert from 'node:assert/strict';
import { applySourcePatch, nodeAt, sourcePending } from './sourcepatch.js';

const pendingOverview = () => ({ kind: 'overview', key: 'overview', label: 'overview', kids: [{ kind: 'answer', key: 'source', label: 'kernel source', value: 'mapping source lines…', attrs: { pending: 'the .dbg debug info' } }] });
const deferred = () => {
  const dbg = { kind: 'member', label: 'sg00/x.dbg', key: 'x.dbg', ref: 'member:sg00/x.dbg', kids: [{ kind: 'bytes', label: 'content', span: { src: 'sg00/x.dbg', off: 0, len: 9 } }] };
  return {
    dbg,
    doc: {
      file: 'f.neff', root: {
        kind: 'neff', label: 'f.neff', kids: [
          pendingOverview(),
          { kind: 'model', key: 'model', label: 'Model', kids: [{ kind: 'field', label: 'cores' }] },
          { kind: 'archive', key: 'members', label: 'members', kids: [{ kind: 'dir', label: 'sg00/', kids: [dbg] }] },
        ],
      },
    },
  };
};
const patch = () => ({
  overview: { kind: 'overview', key: 'overview', label: 'overview', kids: [{ kind: 'answer', key: 'source', label: 'kernel source', value: '12 kernel lines in 1 file' }] },
  source: { kind: 'source', label: 'source', kids: [{ kind: 'field', key: 'k.py:3', label: 'k.py:3', attrs: { words: 'sg00/pe.bin:0-3' } }] },
  contents: [{ kind: 'dbg', label: 'content', ref: 'dbg:sg00/x.dbg', attrs: { more: '4' } }],
  findings: { kind: 'neff', label: 'f.neff', finds: [{ sev: 'warning', msg: 'source lines are not mapped from sg01/y.dbg' }] },
});

test('the patch makes the deferred Document the eager one, keeping the nodes it replaces', () => {
  const { doc, dbg } = deferred();
  assert.equal(sourcePending(doc), true);
  const ov = doc.root.kids[0];
  const content = dbg.kids[0];
  const { changed, missing } = applySourcePatch(doc, patch());
  assert.equal(missing, 0);
  assert.equal(doc.root.kids[0], ov, 'the overview keeps its identity');
  assert.equal(ov.kids[0].value, '12 kernel lines in 1 file');
  assert.equal(ov.kids[0].attrs, undefined, 'no field of the old overview stays');
  assert.equal(sourcePending(doc), false);
  assert.deepEqual(doc.root.kids[1].kids.map((c) => c.kind), ['field', 'source']);
  assert.equal(dbg.kids[0], content);
  assert.deepEqual(content, { kind: 'dbg', label: 'content', ref: 'dbg:sg00/x.dbg', attrs: { more: '4' } });
  assert.equal(doc.root.finds.length, 1);
  assert.ok(changed.includes(ov) && changed.includes(content) && changed.includes(doc.root.kids[1]) && changed.includes(doc.root));
  // Twice: nothing more.
  const before = JSON.stringify(doc);
  applySourcePatch(doc, patch());
  assert.equal(JSON.stringify(doc), before);
});

test('no findings in the answer clear the root\'s; parts with no place are counted', () => {
  const { doc } = deferred();
  doc.root.finds = [{ sev: 'info', msg: 'old' }];
  const p = patch();
  p.findings = { kind: 'neff', label: 'f.neff' };
  p.contents.push({ kind: 'dbg', label: 'content', ref: 'dbg:sg01/y.dbg' });
  const { missing } = applySourcePatch(doc, p);
  assert.equal(missing, 1);
  assert.equal(doc.root.finds, undefined);
});

test('nodeAt follows path keys (key, else label)', () => {
  const { doc, dbg } = deferred();
  assert.equal(nodeAt(doc.root, ['members', 'sg00/', 'x.dbg']), dbg);
  assert.equal(nodeAt(doc.root, ['members', 'nope']), null);
  assert.equal(nodeAt(doc.root, []), doc.root);
});
