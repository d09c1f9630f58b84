// @ts-check
// The structure pane: the document's tree. Members are leaves here (their decoded content has
// its own tree in the content pane); a node inside one selects its member's row.

import { childCount } from '../lib/lazy.js';
import { memberOf, parentOf } from '../state/docs.js';
import { on } from '../state/events.js';
import { select } from '../state/selection.js';
import { mainTree, setTrees, TreeView } from './tree.js';
import { KIND } from '../lib/vocab.gen.js';

// The kinds whose rows start open under the root: the top of the tree and the member list;
// everything else expands on demand.
const OPEN_KINDS = new Set([KIND.NEFF, KIND.HEADER, KIND.ARCHIVE, KIND.PWP_BUNDLE, KIND.PWP_SET, KIND.GROUP, KIND.NCFW_CONTEXT]);

/**
 * structureInit makes the document's tree in root and has it follow the documents, the
 * selection and the patches of a document.
 * @param {HTMLElement} root
 */
export function structureInit(root) {
  setTrees({ main: new TreeView(root, (n, from) => select(n, from), (n) => (n.kind === KIND.MEMBER ? [] : n.kids || []), (n) => (n.kind === KIND.MEMBER ? 0 : childCount(n))) });
  on('select', ({ n, from }) => { if (from !== 'tree') mainTree.markSelected(memberOf(n) || n, false); });
  on('document', ({ doc }) => mainTree.setRoot(doc.root, (n) => n === doc.root || OPEN_KINDS.has(n.kind) && parentOf(n) === doc.root));
  // (The root changed only its findings: its rows stay, expanded as they were.)
  on('patched', ({ st, changed }) => { for (const n of changed) if (n !== st.doc.root) mainTree.refresh(n); });
}

/**
 * structureRow: the tree's row in the tab order (where the skip link goes), or null.
 * @returns {HTMLElement | null}
 */
export function structureRow() {
  return mainTree && mainTree.el.querySelector('.ti[tabindex="0"]');
}
