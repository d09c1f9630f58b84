// @ts-check
// The findings panel below the panes: every finding of the document on show, the root cause's
// first when the overview names one, each selecting its bytes (or its node) when picked.
// Collapsed to its one-line count unless something is an error.

import { $, el } from '../dom.js';
import { spanText } from '../lib/format.js';
import { hashPathKey } from '../lib/hash.js';
import { field, pathOf, SEV_RANK, state } from '../state/docs.js';
import { on } from '../state/events.js';
import { select } from '../state/selection.js';
import { rovingList } from './grid.js';
import { CAUSE, KIND } from '../lib/vocab.gen.js';

/** @type {HTMLElement} the panel (#findings) */
let panel;

/**
 * findingsInit: the panel follows the document on show (and its patches), and its head opens
 * and closes it.
 * @param {HTMLElement} root
 */
export function findingsInit(root) {
  panel = root;
  $('findings-toggle').addEventListener('click', () => setFindingsOpen(!findingsOpen()));
  on('document', () => renderFindings());
  on('patched', () => findingsRedraw());
  on('empty', () => { panel.hidden = true; });
}

/** findingsOpen: the list is open (not collapsed to its count). */
const findingsOpen = () => $('findings-toggle').getAttribute('aria-expanded') === 'true';

/** findingsFocus opens the list and puts the focus on it (the summary's findings chip). */
export function findingsFocus() {
  setFindingsOpen(true);
  $('findings-list').focus();
}

/**
 * findingsRedraw draws the findings again (the document changed in place), open if they were.
 */
export function findingsRedraw() {
  const open = findingsOpen();
  renderFindings();
  if (open) setFindingsOpen(true);
}

/**
 * findingsSize: the panel's height, which the splitter above it sets (views/layout.js).
 */
export const findingsSize = {
  current: () => panel.getBoundingClientRect().height,
  /** @param {number | null} px */
  apply: (px) => { panel.style.setProperty('--findings-h', px === null ? '' : px + 'px'); panel.classList.toggle('sized', px !== null); },
};

/**
 * findingItem is a finding as a list item that selects its bytes (or its node) when picked.
 * @param {import('../wire.js').Finding} f
 * @param {import('../wire.js').Node} node
 * @returns {HTMLElement}
 */
export function findingItem(f, node) {
  const li = el('li', 'finding sev-' + f.sev);
  li.dataset.sev = f.sev;
  li.dataset.code = f.code || ''; // what tests and scripts match, never the message
  li.appendChild(el('span', 'sev', f.sev));
  li.appendChild(el('span', 'msg', f.msg));
  const where = [pathOf(node).join(' › ') || state.doc.file];
  if (f.span) where.push(spanText(f.span));
  li.appendChild(el('span', 'where', where.join(' · ')));
  li.tabIndex = 0;
  li.addEventListener('click', () => select(node, 'finding', f.span));
  li.addEventListener('keydown', (e) => { if (e.key === 'Enter') select(node, 'finding', f.span); });
  return li;
}

/**
 * causeGroups splits the findings as the overview groups them (core/inspect overviewFindings):
 * the ones the root cause explains, then the rest; null when the document names no root cause.
 * @param {{f: import('../wire.js').Finding, node: import('../wire.js').Node}[]} all
 */
function causeGroups(all) {
  const ov = field(state.doc, 'overview', 'findings');
  const root = ov && (ov.kids || []).find((g) => g.kind === KIND.CAUSE && g.attrs && g.attrs.cause && g.attrs.cause !== CAUSE.OTHER);
  if (!root || !root.table) return null;
  // The group's rows are (severity, message, where, code), each leading to the node that
  // holds its finding: a finding is the root's when its node, severity and code are one of
  // them (as many times as the rows name it). Never its message: that is for people.
  const want = new Map();
  const rows = root.table.rows || [], links = root.table.rlinks || [];
  rows.forEach((r, i) => {
    const k = (hashPathKey(links[i] || '') ?? '') + '\u0000' + r[0] + '\u0000' + (r[3] || '');
    want.set(k, (want.get(k) || 0) + 1);
  });
  const explained = [], other = [];
  for (const x of all) {
    const k = pathOf(x.node).join('/') + '\u0000' + x.f.sev + '\u0000' + (x.f.code || '');
    if (want.get(k)) { want.set(k, want.get(k) - 1); explained.push(x); } else other.push(x);
  }
  return [
    { cause: root.attrs.cause, root: true, label: root.label, why: root.detail || '', items: explained },
    { cause: 'other', root: false, label: 'other findings', why: '', items: other },
  ];
}

function setFindingsOpen(open) {
  $('findings-toggle').setAttribute('aria-expanded', open ? 'true' : 'false');
  $('findings-list').hidden = !open;
  panel.classList.toggle('open', open);
}

function renderFindings() {
  const list = $('findings-list');
  list.replaceChildren();
  list.tabIndex = -1;
  const all = state.findings.slice().sort((a, b) => (SEV_RANK[b.f.sev] || 0) - (SEV_RANK[a.f.sev] || 0));
  const groups = causeGroups(all);
  if (groups) {
    // One root cause named first, the findings it explains under it, then the rest.
    for (const g of groups) {
      if (!g.items.length) continue;
      const li = el('li', 'cause-group' + (g.root ? ' root' : ''));
      li.dataset.cause = g.cause;
      const head = el('div', 'cause-head');
      head.appendChild(el('span', 'cause-name', (g.root ? 'Root cause: ' : '') + g.label));
      head.appendChild(el('span', 'muted', ' · ' + g.items.length + ' finding' + (g.items.length === 1 ? '' : 's')));
      li.appendChild(head);
      if (g.root && g.why) li.appendChild(el('p', 'cause-why', g.why));
      const ol = el('ol', 'cause-finds');
      g.items.forEach(({ f, node }) => ol.appendChild(findingItem(f, node)));
      li.appendChild(ol);
      list.appendChild(li);
    }
  } else all.forEach(({ f, node }) => list.appendChild(findingItem(f, node)));
  // The source lines are mapped after the open: the findings of that mapping come then.
  if (state.sourceWait || state.sourceFailed) {
    const note = el('li', 'finding-note muted', state.sourceWait ? 'Source lines are still being mapped from the .dbg debug info: findings about it may follow.' : 'The source lines could not be mapped (' + state.sourceFailed + '): findings about the .dbg debug info are missing. Open the file again to map them, or run neffscope inspect on it.');
    note.id = 'findings-pending';
    list.appendChild(note);
  }
  rovingList(list, '.finding');
  const counts = { error: 0, warning: 0, info: 0 };
  all.forEach(({ f }) => { counts[f.sev] = (counts[f.sev] || 0) + 1; });
  const t = $('findings-toggle');
  t.replaceChildren();
  t.appendChild(el('span', 'caret', '▾'));
  t.appendChild(el('span', '', all.length ? 'Findings' : 'Findings: none — every check passed'));
  for (const s of ['error', 'warning', 'info']) if (counts[s]) t.appendChild(el('span', 'badge sev-' + s, counts[s] + ' ' + s + (counts[s] > 1 && s !== 'info' ? 's' : '')));
  panel.hidden = false;
  panel.dataset.count = String(all.length);
  // Collapsed to its one-line count unless something is an error.
  setFindingsOpen(counts.error > 0);
}
