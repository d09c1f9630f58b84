// @ts-check
// Comparing three or more NEFFs (fleet.Compare in the core): one table of the facts that
// differ — compiler, target, cores, features, I/O, instructions per engine and stream, members
// by sha-256 — with the files that differ from the majority flagged. It answers "are ranks 0
// and 1 using the same NEFF?" for any number of files.

import { call } from '../../core/client.js';
import { el } from '../../dom.js';
import { download } from '../../lib/download.js';
import { tableCSV } from '../../lib/csv.js';
import { fmtInt, fmtSize } from '../../lib/format.js';
import { docs, state, switchDoc } from '../../state/docs.js';
import { on } from '../../state/events.js';
import { screen, showPage } from '../../state/screen.js';
import { unpackNode } from '../../wire.js';
import { shortName } from '../fullview.js';
import { tabsDraw } from '../tabs.js';
import { docTitle, handleFor, kidOf } from './compare.js';

/** @type {{list: any[], node: any, error: string, readonly shown: boolean, onlyDiff: boolean, seq: number, ms: number}} */
export const many = {
  list: [], node: null, error: '', onlyDiff: true, seq: 0, ms: 0,
  get shown() { return screen.page === 'many'; },
};

/** @type {HTMLElement} the page's root (#many-view) */
let root;

/**
 * manyInit: the comparison is dropped when one of its documents is closed.
 * @param {HTMLElement} view
 */
export function manyInit(view) {
  root = view;
  root.className = 'cache-view';
  root.setAttribute('aria-label', 'Comparison');
  on('docs', manyForget);
  on('document', manyForget);
  on('empty', manyForget);
}

// compareMany compares the documents of list (2 to 64 open NEFFs) and shows the table.
export async function compareMany(list) {
  const seq = ++many.seq;
  Object.assign(many, { list: list.slice(), node: null, error: '', ms: 0 });
  showMany();
  const t0 = performance.now();
  try {
    const handles = [];
    for (const d of list) handles.push(await handleFor(d));
    const r = await call('compare', { handles });
    if (seq !== many.seq) return;
    many.node = unpackNode(r.node);
  } catch (e) {
    if (seq !== many.seq) return;
    many.error = e.message;
  }
  many.ms = performance.now() - t0;
  if (many.shown) manyRender();
}

// showMany shows the comparison's page (its table is drawn as the page shows: manyShow).
function showMany() {
  if (!many.list.length) return;
  if (!many.shown) { showPage('many'); return; }
  manyRender();
  tabsDraw(); // the tab names the new list
}

/** manyShow: the comparison's page shows. */
export function manyShow() {
  manyRender();
}

// manyForget drops the comparison when one of its documents is gone; its page, if on show,
// gives way to the document.
function manyForget() {
  if (many.list.every((d) => docs.includes(d))) return;
  many.seq++;
  Object.assign(many, { list: [], node: null, error: '' });
  if (many.shown) showPage(state ? 'document' : 'welcome');
}

// manyTab is the comparison's tab (the tab strip's hook, through views/cache.js cacheTabs).
export function manyTab(nav) {
  if (!many.list.length) return;
  const t = el('button', 'doc-tab diff-tab many-tab');
  t.type = 'button';
  t.setAttribute('role', 'tab');
  t.setAttribute('aria-selected', many.shown ? 'true' : 'false');
  t.appendChild(el('span', 'diff-glyph', '⇶'));
  t.appendChild(el('span', '', many.list.length + ' files'));
  t.appendChild(el('span', 'tab-kind', 'compare'));
  t.title = 'Comparison of ' + many.list.map(docTitle).join(', ');
  t.addEventListener('click', () => showMany());
  nav.appendChild(t);
  nav.hidden = false;
}

const letter = (i) => String.fromCharCode(65 + (i % 26)) + (i >= 26 ? String(Math.floor(i / 26)) : '');

function manyRender() {
  const v = root;
  v.replaceChildren();
  v.setAttribute('aria-label', 'Comparison of ' + many.list.length + ' NEFFs');
  const bar = el('div', 'diff-bar');
  const sides = el('div', 'diff-sides');
  many.list.forEach((d, i) => {
    const b = el('button', 'diff-side many-side');
    b.type = 'button';
    b.dataset.col = letter(i);
    b.title = 'Show ' + docTitle(d) + (d.doc.sha256 ? ' · sha-256 ' + d.doc.sha256 : '');
    b.appendChild(el('span', 'side-letter', letter(i)));
    b.appendChild(el('span', 'side-name', shortName(d)));
    b.appendChild(el('span', 'side-note', fmtSize(d.doc.size)));
    b.addEventListener('click', () => switchDoc(docs.indexOf(d)));
    sides.appendChild(b);
  });
  bar.appendChild(sides);
  bar.appendChild(el('span', 'spacer'));
  const only = el('label', 'diff-toggle');
  const box = /** @type {HTMLInputElement} */ (el('input'));
  box.type = 'checkbox';
  box.id = 'many-only-diff';
  box.checked = many.onlyDiff;
  box.addEventListener('change', () => { many.onlyDiff = box.checked; manyRender(); });
  only.append(box, ' Only what differs');
  bar.appendChild(only);
  const facts = kidOf(many.node, 'facts');
  if (facts && facts.table) {
    const csv = el('button', 'button small', 'CSV');
    csv.type = 'button';
    csv.title = 'Download the whole table of facts as CSV';
    csv.addEventListener('click', () => download([tableCSV(facts.table)], 'compare-' + many.list.length + '.csv', 'text/csv'));
    bar.appendChild(csv);
  }
  const close = el('button', 'button small', '✕ Close');
  close.type = 'button';
  close.setAttribute('aria-label', 'Close the comparison');
  close.addEventListener('click', () => showPage(state ? 'document' : 'welcome'));
  bar.appendChild(close);
  v.appendChild(bar);

  const body = el('div', 'diff-body many-body');
  body.id = 'many-body';
  body.tabIndex = -1;
  v.appendChild(body);
  if (many.error) { body.appendChild(el('p', 'diff-error', 'Could not compare: ' + many.error)); return; }
  const n = many.node;
  if (!n) { body.appendChild(el('p', 'muted diff-wait', 'Comparing ' + many.list.length + ' files…')); return; }
  const odd = (kidOf(n, 'files') || { kids: [] }).kids || [];
  const same = /^all \d+ files are the same/.test(n.value || '');
  const head = el('div', 'diff-summary');
  const verdict = el('span', 'diff-verdict ' + (same ? 'good' : 'warn'), same ? 'Same NEFF' : 'Different');
  verdict.id = 'many-verdict';
  verdict.dataset.verdict = same ? 'same' : 'different';
  head.appendChild(verdict);
  head.appendChild(el('span', 'diff-counts', (facts && facts.value) || ''));
  head.appendChild(el('p', 'diff-line', n.value || ''));
  body.appendChild(head);
  for (const f of n.finds || []) body.appendChild(el('p', 'diff-note sev-' + f.sev, f.msg));
  if (!facts || !facts.table) return;
  const cols = facts.table.cols; // fact, A…, differs, odd ones
  const nf = many.list.length;
  const table = el('table', 'grid diff-table many-table');
  table.id = 'many-table';
  const thead = el('thead');
  const hr = el('tr');
  hr.appendChild(el('th', 'k', 'fact'));
  for (let i = 0; i < nf; i++) {
    const th = el('th', 'col-many', cols[i + 1]);
    th.title = docTitle(many.list[i]);
    if (odd[i] && /differs from the rest/.test(odd[i].value || '')) th.classList.add('odd');
    hr.appendChild(th);
  }
  hr.appendChild(el('th', '', 'odd one out'));
  thead.appendChild(hr);
  table.appendChild(thead);
  const tb = el('tbody');
  let shown = 0;
  for (const r of facts.table.rows) {
    const differs = r[nf + 1] === 'yes';
    if (many.onlyDiff && !differs) continue;
    const oddCols = new Set((r[nf + 2] || '').split(' ').filter(Boolean));
    const tr = el('tr', differs ? 'changed' : '');
    tr.dataset.fact = r[0];
    tr.appendChild(el('td', 'k', r[0]));
    for (let i = 0; i < nf; i++) {
      const td = el('td', 'many-cell' + (oddCols.has(cols[i + 1]) ? ' odd' : ''), r[i + 1]);
      if (oddCols.has(cols[i + 1])) td.title = docTitle(many.list[i]) + ' differs from the majority here';
      tr.appendChild(td);
    }
    tr.appendChild(el('td', 'many-odd', r[nf + 2] || (differs ? 'no majority' : '')));
    tb.appendChild(tr);
    shown++;
  }
  table.appendChild(tb);
  const wrap = el('div', 'diff-wrap');
  wrap.appendChild(table);
  if (!shown) body.appendChild(el('p', 'diff-none', 'No differences: every fact agrees.'));
  else body.appendChild(wrap);
  body.appendChild(el('p', 'muted many-foot', fmtInt(facts.table.rows.length) + ' facts compared; members by sha-256 (first 12 hex digits).'));
}
