import test from 'node:test';
import assert from 'node:assert/strict';
import { applyMemberSums } from './membersums.js';

const member = (p, key) => ({ kind: 'member', label: p.split('/').pop(), key, ref: 'member:' + p, detail: p, kids: [{ kind: 'bytes', label: 'content' }] });

test('member nodes and the members table take the sums, duplicates in archive order', () => {
  const a = member('neff.json'), b1 = member('sg00/def.json'), b2 = member('sg00/def.json', 'def.json#4096');
  const doc = {
    root: {
      kind: 'neff', label: 'f', kids: [
        { kind: 'overview', label: 'overview', kids: [] },
        {
          kind: 'archive', label: 'members', table: { cols: ['path', 'size', 'sha256', 'tar offset'], rows: [['neff.json', '1', '', '512'], ['sg00/def.json', '2', '', '1536'], ['sg00/def.json', '3', '', '4608']] },
          kids: [a, { kind: 'dir', label: 'sg00/', kids: [b1, b2] }],
        },
      ],
    },
  };
  const sums = [
    { path: 'neff.json', sha256: 'aa', detail: 'neff.json · sha256 aa' },
    { path: 'sg00/def.json', sha256: 'bb', detail: 'sg00/def.json · sha256 bb' },
    { path: 'sg00/def.json', sha256: 'cc', detail: 'sg00/def.json · sha256 cc' },
  ];
  assert.equal(applyMemberSums(doc, sums), 3);
  assert.deepEqual([a.detail, b1.detail, b2.detail], ['neff.json · sha256 aa', 'sg00/def.json · sha256 bb', 'sg00/def.json · sha256 cc']);
  assert.deepEqual(doc.root.kids[1].table.rows.map((r) => r[2]), ['aa', 'bb', 'cc']);
});

test('a document without members is left alone', () => {
  const doc = { root: { kind: 'json', label: 'x', kids: [] } };
  assert.equal(applyMemberSums(doc, [{ path: 'a', sha256: 'b', detail: 'c' }]), 0);
});
