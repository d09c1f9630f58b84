// @ts-check
// The summary chips above the panes: the file's verdict first, who the file is (its header,
// from the moment it is read), its hash check and the runtime's acceptance, and the findings'
// count; each chip goes to its node.
// One tab stop, the arrows move inside it.

import { el } from '../dom.js';
import { fmtInt } from '../lib/format.js';
import { field, state } from '../state/docs.js';
import { on } from '../state/events.js';
import { select } from '../state/selection.js';
import { RC_TEXT } from './context.js';
import { findingsFocus } from './findings.js';
import { onVerdict, overviewVerdict } from './overview.js';
import { checkOf, headline, tone } from '../lib/verdict.js';
import { CHECK, INTEGRITY, KIND } from '../lib/vocab.gen.js';

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
    // The verdict leads (the overview's, or the models' card's once it came): never the
    // runtime's "accepted" alone.
    const v = partial ? null : overviewVerdict();
    if (v) {
      const vc = chip('verdict', headline(v), tone(v.verdict) + ' sum-verdict', nav(field(doc, 'overview', 'verdict')), 'file-verdict');
      vc.dataset.verdict = v.verdict;
      vc.title = v.value;
      box.appendChild(vc);
    }
    box.appendChild(chip('UUID', uuid ? uuid.value : '—', 'mono wide', nav(uuid), 'uuid'));
    box.appendChild(chip('name', name ? name.value : '—', 'mono', nav(name), 'name'));
    box.appendChild(chip('package', 'pkg ' + (pkg ? pkg.value : '?') + ' · NEFF ' + (maj ? maj.value : '?') + '.' + (min ? min.value : '?'), '', nav(pkg), 'version'));
    if (partial) {
      box.appendChild(chip('payload', 'reading…', 'pending'));
    } else {
      const iv = (integ && integ.attrs && integ.attrs.integrity) || INTEGRITY.NOT_CHECKED;
      // One vocabulary for the hash check, from the attr (never the display text): ok, mismatch,
      // not checked; the verdict's own check where it decided more (a file cut short: the
      // hash cannot match).
      const hc = checkOf(v, CHECK.HASH);
      if (hc && iv === INTEGRITY.NOT_CHECKED && hc.state !== 'undecided') box.appendChild(chip('hash', hc.value, tone(hc.state), integ, 'integrity'));
      else box.appendChild(chip('hash', iv === INTEGRITY.OK ? 'ok' : iv === INTEGRITY.MISMATCH ? 'mismatch' : 'not checked', iv === INTEGRITY.OK ? 'good' : iv === INTEGRITY.MISMATCH ? 'bad' : 'warn', integ, 'integrity'));
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

/** @type {HTMLElement} the chips' bar (#summary) */
let box;

/**
 * summaryInit: the chips follow the document on show (and its patches); the bar is one tab
 * stop, the arrows move inside it.
 * @param {HTMLElement} root
 */
export function summaryInit(root) {
  box = root;
  on('document', ({ doc }) => renderSummary(doc, false));
  on('patched', ({ st }) => renderSummary(st.doc, false));
  on('empty', () => { box.hidden = true; });
  // A models' card decided more of the verdict: its chip follows.
  onVerdict(() => { if (state && !box.hidden) renderSummary(state.doc, false); });
  new MutationObserver(summaryRoving).observe(box, { childList: true, subtree: true });
  box.addEventListener('keydown', summaryKey);
  box.addEventListener('focusin', (e) => {
    const i = summaryItems().indexOf(/** @type {HTMLElement} */ (e.target));
    if (i >= 0 && i !== summaryActive) { summaryActive = i; summaryRoving(); }
  });
}

/**
 * renderSummary draws the chips of doc; partial: only its header is known (the file is being
 * read), so the chips are not links yet.
 * @param {import('../wire.js').Document} doc
 * @param {boolean} partial
 */
export function renderSummary(doc, partial) {  box.replaceChildren();
  (SUMMARIES[doc.kind] || SUMMARIES.default)(doc, box, partial);
  if (!partial) {
    const idx = state.findings;
    const counts = { error: 0, warning: 0, info: 0 };
    idx.forEach(({ f }) => { counts[f.sev] = (counts[f.sev] || 0) + 1; });
    const worst = counts.error ? 'bad' : counts.warning ? 'warn' : 'good';
    const parts = [];
    for (const s of ['error', 'warning', 'info']) if (counts[s]) parts.push(counts[s] + ' ' + s + (counts[s] > 1 && s !== 'info' ? 's' : ''));
    box.appendChild(chip('findings', parts.length ? parts.join(' · ') : 'none', worst, findingsFocus, 'findings'));
  }
  box.hidden = false;
}


// ---- one tab stop, arrows inside ----

const SUMMARY_ITEMS = 'button, a[href], [tabindex]';

function summaryItems() {
  return /** @type {HTMLElement[]} */ (Array.from(box.querySelectorAll(SUMMARY_ITEMS))).filter((x) => !x.hidden && !(/** @type {any} */ (x).disabled));
}

let summaryActive = 0;
function summaryRoving() {
  const items = summaryItems();
  summaryActive = Math.min(summaryActive, Math.max(0, items.length - 1));
  items.forEach((x, i) => { x.tabIndex = i === summaryActive ? 0 : -1; });
}

function summaryKey(e) {
  const items = summaryItems();
  const i = items.indexOf(/** @type {HTMLElement} */ (document.activeElement));
  if (i < 0) return;
  let j;
  switch (e.key) {
    case 'ArrowRight': case 'ArrowDown': j = Math.min(items.length - 1, i + 1); break;
    case 'ArrowLeft': case 'ArrowUp': j = Math.max(0, i - 1); break;
    case 'Home': j = 0; break;
    case 'End': j = items.length - 1; break;
    default: return;
  }
  e.preventDefault();
  summaryActive = j;
  summaryRoving();
  items[j].focus();
}
