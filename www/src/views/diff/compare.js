// @ts-check
// Comparing NEFFs: what the comparison views share — how a document is named and reopened,
// the marks of a change, the jumps from a row to document A or B.

import { core } from '../../core/client.js';
import { toast } from '../../dom.js';
import { docs, field, findMember, keyOf, renderDocument, setCurrent } from '../../state/docs.js';
import { diff } from '../../state/comparison.js';
import { select } from '../../state/selection.js';
import { mainTree } from '../tree.js';
import { follow } from '../overview.js';
import { instructionAt } from '../listing.js';
import { shortName } from '../fullview.js';
import { DOC_KIND, KIND } from '../../lib/vocab.gen.js';

// Comparing two NEFFs (fleet.Diff in the core): the current document against another open
// one (the Compare menu by the tabs) or against a file picked for it (Compare with…). The
// comparison has a tab of its own; every member in it jumps to that member in A or B.

export const DIFF_ROWS = 2000; // rows built per member group before a "show more"
export { diff };
export const CHANGE_MARK = { changed: '≠', added: '+', removed: '−', operands: '≈' };
export const CHANGE_TITLE = { changed: 'differs', added: 'only in B', removed: 'only in A', operands: 'same opcode counts, other operands' };
export const isNEFF = (d) => !!(d && d.doc && d.doc.kind === DOC_KIND.NEFF);

// handleFor is ensureHandle for any document: reopened in the core after a worker restart.
export async function handleFor(st) {
  if (st.gen === core.gen && st.handle) return st.handle;
  const h = await st.reopen();
  st.handle = h;
  st.gen = core.gen;
  return h;
}

// docTitle names a document; documents of the same name get their tab number.
// Documents opened from a folder are named by their cache entry (views/cache.js shortName).
export function docTitle(st) {
  const same = docs.filter((d) => d.doc.file === st.doc.file);
  return same.length > 1 ? shortName(st) + ' #' + (docs.indexOf(st) + 1) : shortName(st);
}

// targetOf: the kelf target and arch of a NEFF (from the document's model), or ''.
export function targetOf(st) {
  const t = field(st.doc, 'model', 'target');
  if (!t) return '';
  const a = t.attrs || {};
  return (a.target || '') + (a.arch_name ? ' (' + a.arch_name + ')' : '');
}

// diffSide leaves the comparison for document A or B (its tab shows); null when it was closed.
function diffSide(side) {
  const st = side === 'a' ? diff.a : diff.b;
  if (!docs.includes(st)) { toast('Document ' + side.toUpperCase() + ' is no longer open'); return null; }
  setCurrent(st);
  renderDocument(0);
  return st;
}

// diffJump shows member path in document A or B (the tab switches, the member is selected).
export function diffJump(side, path) {
  const st = diffSide(side);
  if (!st) return;
  const m = findMember(path);
  if (!m) { toast(path + ' is not a member of ' + st.doc.file, 'warning'); return; }
  select(m, 'diff');
  mainTree.markSelected(m, true);
}

// diffJumpLine shows a kernel line (its key under model › source › lines) in document A or B.
export function diffJumpLine(side, key) {
  if (diffSide(side)) follow(['model', 'source', 'lines', key].map(encodeURIComponent).join('/'));
}

// diffJumpWord shows instruction index of a stream member in document A or B, in its listing.
export function diffJumpWord(side, member, index) {
  if (diffSide(side)) instructionAt(member, index);
}

export const kidOf = (n, key) => (n && n.kids || []).find((c) => keyOf(c) === key) || null;
// changesOf: a change node's own differences (its children after the "a"/"b" values).
export const changesOf = (n) => (n && n.kids || []).filter((c) => c.kind !== KIND.FIELD);
export const shortSHA = (s) => (s ? s.slice(0, 12) : '');
