// @ts-check
// The summary chips and the findings panel.

import { $, el } from '../dom.js';
import { fmtInt } from '../lib/format.js';
import { hashPathKey } from '../lib/hash.js';
import { field, keyOf, pathOf, SEV_RANK, state } from '../state/docs.js';
import { on } from '../state/events.js';
import { select } from '../state/selection.js';
import { RC_TEXT } from './context.js';
import { findingItem } from './detail.js';
import { rovingList } from './grid.js';
import { CAUSE, INTEGRITY, KIND } from '../lib/vocab.gen.js';

// Summary and findings.

export { field };

// chip is one summary item; target is the node it goes to, or a function to run.
function chip(label, value, cls, target, id) {
  const c = el(target ? 'button' : 'div', 'sum-item ' + (cls || ''));
  if (target) {
    c.type = 'button';
    c.addEventListener('click', () => (typeof target === 'function' ? target() : select(target, 'summary')));
  }
  if (id) c.dataset.field = id;
  c.appendChild(el('span', 'sum-label', label));
  c.appendChild(el('span', 'sum-value', value));
  c.title = label + ': ' + value;
  return c;
}

const SUMMARIES = {
  neff(doc, box, partial) {
    // While only the header is known the chips are not links: the tree does not exist yet.
    const nav = (n) => (partial ? null : n);
    const uuid = field(doc, 'header', 'uuid');
    const name = field(doc, 'header', 'name');
    const pkg = field(doc, 'header', 'pkg_version');
    const maj = field(doc, 'header', 'neff_version_major');
    const min = field(doc, 'header', 'neff_version_minor');
    const feat = field(doc, 'header', 'feature_bits');
    const integ = field(doc, 'payload', 'integrity');
    const verdict = field(doc, 'runtime');
    const members = field(doc, 'members');
    box.appendChild(chip('UUID', uuid ? uuid.value : '—', 'mono wide', nav(uuid), 'uuid'));
    box.appendChild(chip('name', name ? name.value : '—', 'mono', nav(name), 'name'));
    box.appendChild(chip('package', 'pkg ' + (pkg ? pkg.value : '?') + ' · NEFF ' + (maj ? maj.value : '?') + '.' + (min ? min.value : '?'), '', nav(pkg), 'version'));
    if (partial) {
      box.appendChild(chip('payload', 'reading…', 'pending'));
    } else {
      const iv = (integ && integ.attrs && integ.attrs.integrity) || INTEGRITY.NOT_CHECKED;
      // One vocabulary for the hash check, from the attr (never the display text): ok, mismatch, not checked.
      box.appendChild(chip('hash', iv === INTEGRITY.OK ? 'ok' : iv === INTEGRITY.MISMATCH ? 'mismatch' : 'not checked', iv === INTEGRITY.OK ? 'good' : iv === INTEGRITY.MISMATCH ? 'bad' : 'warn', integ, 'integrity'));
    }
    box.appendChild(chip('features', feat ? ((feat.attrs && feat.attrs.features) || 'none') + ' (' + feat.value + ')' : '—', '', nav(feat), 'features'));
    if (verdict && !partial) box.appendChild(chip('runtime', verdict.value, verdict.value === 'accepted' ? 'good' : verdict.value === 'not checked' ? 'warn' : 'bad', verdict, 'verdict'));
    if (members && !partial) box.appendChild(chip('members', members.value, '', members, 'members'));
  },
  pwp(doc, box) {
    const r = doc.root;
    let sets = 0, fns = 0;
    for (const n of state.info.keys()) { if (n.kind === KIND.PWP_SET) sets++; else if (n.kind === KIND.PWP_FUNCTION) fns++; }
    box.appendChild(chip('activation tables', r.value || '—', '', r, 'sets'));
    box.appendChild(chip('sets decoded', String(sets), '', null, 'set-count'));
    box.appendChild(chip('functions', String(fns), '', null, 'function-count'));
    box.appendChild(chip('size', fmtInt(doc.size) + ' bytes', '', null, 'size'));
  },
  'ncfw-context'(doc, box) {
    const r = doc.root;
    const kids = r.kids || [];
    const arch = kids.find((c) => c.kind === KIND.NCFW_ARCHES);
    const text = kids.find((c) => c.kind === KIND.NCFW_TEXT);
    const rc = Number((r.attrs && r.attrs.rc) || 0);
    box.appendChild(chip('libncfw context', 'arch ' + (arch ? arch.value : '?'), 'mono', r, 'arch'));
    box.appendChild(chip('return code', 'rc ' + rc + ' · ' + (RC_TEXT[rc] || 'error'), rc === 0 ? 'good' : rc === 28 ? 'warn' : 'bad', text || r, 'rc'));
    if (text) box.appendChild(chip('text', fmtInt((text.value || '').length) + ' bytes', '', text, 'text'));
    box.appendChild(chip('context', fmtInt(doc.size) + ' bytes', '', null, 'size'));
  },
  default(doc, box) {
    box.appendChild(chip('kind', doc.kind, '', doc.root, 'kind'));
    box.appendChild(chip('size', fmtInt(doc.size) + ' bytes', '', null, 'size'));
  },
};

export function summaryInit() {
  on('document', ({ doc }) => { renderSummary(doc, false); renderFindings(); });
}

export function renderSummary(doc, partial) {
  const box = $('summary');
  box.replaceChildren();
  (SUMMARIES[doc.kind] || SUMMARIES.default)(doc, box, partial);
  if (!partial) {
    const idx = state.findings;
    const counts = { error: 0, warning: 0, info: 0 };
    idx.forEach(({ f }) => { counts[f.sev] = (counts[f.sev] || 0) + 1; });
    const worst = counts.error ? 'bad' : counts.warning ? 'warn' : 'good';
    const parts = [];
    for (const s of ['error', 'warning', 'info']) if (counts[s]) parts.push(counts[s] + ' ' + s + (counts[s] > 1 && s !== 'info' ? 's' : ''));
    box.appendChild(chip('findings', parts.length ? parts.join(' · ') : 'none', worst, () => { setFindingsOpen(true); $('findings-list').focus(); }, 'findings'));
  }
  box.hidden = false;
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

export function setFindingsOpen(open) {
  $('findings-toggle').setAttribute('aria-expanded', open ? 'true' : 'false');
  $('findings-list').hidden = !open;
  $('findings').classList.toggle('open', open);
}

export function renderFindings() {
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
  $('findings').hidden = false;
  $('findings').dataset.count = all.length;
  // Collapsed to its one-line count unless something is an error.
  setFindingsOpen(counts.error > 0);
}
