// @ts-check
// The findings panel below the panes: every finding of the document on show, each root cause
// first with the findings that follow from it folded under it (a finding's cause names the
// root's code), each selecting its bytes (or its node) when picked.
// Collapsed to its one-line count unless something is an error.

import { $, el } from '../dom.js';
import { spanText } from '../lib/format.js';
import { groupByCause } from '../lib/causes.js';
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
  $('findings-toggle').addEventListener('click', () => { openedByPage = false; setFindingsOpen(!findingsOpen()); });
  on('document', () => renderFindings());
  on('patched', () => findingsRedraw());
  on('empty', () => { panel.hidden = true; });
}

/** findingsOpen: the list is open (not collapsed to its count). */
const findingsOpen = () => $('findings-toggle').getAttribute('aria-expanded') === 'true';

/** The list was opened by the page (an error), not by the user: a jump may fold it again. */
let openedByPage = false;

/**
 * findingsFold folds the list to its one-line count when the page opened it by itself (a jump
 * from the overview lands with the target's height); a list the user opened stays open.
 */
export function findingsFold() {
  if (openedByPage && findingsOpen()) setFindingsOpen(false);
  openedByPage = false;
}

/** findingsFocus opens the list and puts the focus on it (the summary's findings chip). */
export function findingsFocus() {
  openedByPage = false;
  setFindingsOpen(true);
  $('findings-list').focus();
}

/**
 * findingsRedraw draws the findings again (the document changed in place), open if they were.
 */
export function findingsRedraw() {
  const open = findingsOpen(), byPage = openedByPage;
  renderFindings();
  if (open) { setFindingsOpen(true); openedByPage = byPage; }
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
  if (f.cause) li.dataset.cause = f.cause;
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
 * rootCauseNode: the overview's group of the document's root cause (its name and what it
 * tells the user: core/inspect overviewFindings), or null when the document names none.
 */
function rootCauseNode() {
  const ov = field(state.doc, 'overview', 'findings');
  return (ov && (ov.kids || []).find((g) => g.kind === KIND.CAUSE && g.attrs && g.attrs.cause && g.attrs.cause !== CAUSE.OTHER)) || null;
}

// The findings the list moves through: every finding on show (not those folded away) and the
// folds' own heads.
const ROVE = '.finding:not(details:not([open]) .finding), .cause-more > summary';

// causeItem is a root finding with the findings that follow from it (a finding's cause names
// the root's code) folded under it, with their count.
function causeItem(g, named) {
  const li = el('li', 'cause-group root');
  li.dataset.cause = named ? named.attrs.cause : g.code;
  li.dataset.code = g.code;
  const n = g.consequences.length + (g.item ? 1 : 0);
  const head = el('div', 'cause-head');
  head.appendChild(el('span', 'cause-name', 'Root cause: ' + (named ? named.label : g.code)));
  head.appendChild(el('span', 'muted', ' · ' + n + ' finding' + (n === 1 ? '' : 's')));
  li.appendChild(head);
  if (named && named.detail) li.appendChild(el('p', 'cause-why', named.detail));
  const ol = el('ol', 'cause-finds');
  if (g.item) ol.appendChild(findingItem(g.item.f, g.item.node));
  const more = el('details', 'cause-more');
  more.dataset.count = String(g.consequences.length);
  more.appendChild(el('summary', 'muted', g.consequences.length + (g.consequences.length === 1 ? ' finding follows' : ' findings follow') + ' from it'));
  const sub = el('ol', 'cause-finds');
  g.consequences.forEach(({ f, node }) => sub.appendChild(findingItem(f, node)));
  more.appendChild(sub);
  ol.appendChild(more);
  li.appendChild(ol);
  return li;
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
  // A root cause first, the findings that follow from it folded under it, then the rest.
  const named = rootCauseNode();
  const groups = groupByCause(all);
  groups.sort((a, b) => Number(b.consequences.length > 0) - Number(a.consequences.length > 0));
  for (const g of groups) {
    if (g.consequences.length) list.appendChild(causeItem(g, named && named.attrs.code === g.code ? named : null));
    else if (g.item) list.appendChild(findingItem(g.item.f, g.item.node));
  }
  // The source lines are mapped after the open: the findings of that mapping come then.
  if (state.sourceWait || state.sourceFailed) {
    const note = el('li', 'finding-note muted', state.sourceWait ? 'Source lines are still being mapped from the .dbg debug info: findings about it may follow.' : 'The source lines could not be mapped (' + state.sourceFailed + '): findings about the .dbg debug info are missing. Open the file again to map them, or run neffscope inspect on it.');
    note.id = 'findings-pending';
    list.appendChild(note);
  }
  rovingList(list, ROVE);
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
  openedByPage = counts.error > 0;
}
