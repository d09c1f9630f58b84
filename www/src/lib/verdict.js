// @ts-check
// The verdict as the page reads it (core/inspect overviewverdict.go, docs/verdict.md): one node
// over five checks, each passed, failed, undecided or pending, with the codes behind it. The
// open's overview has one (sync and memory pending); the models' card (the schedule and
// memory calls) carries it again with them decided, and the one that decided most is shown.

import { ATTR, VERDICT } from './vocab.gen.js';

/**
 * One check of the verdict.
 * @typedef {{key: string, label: string, state: string, value: string, detail: string, codes: string[], link: string}} Check
 */

/**
 * One verdict: the whole (pass, fail or open), its words, and its checks in order.
 * @typedef {{verdict: string, value: string, detail: string, checks: Check[]}} Verdict
 */

/**
 * verdictOf reads a verdict node (attrs.verdict; each child's attrs.state and attrs.codes);
 * null when n is not one.
 * @param {{attrs?: Record<string, string>, value?: string, detail?: string, kids?: any[]} | null | undefined} n
 * @returns {Verdict | null}
 */
export function verdictOf(n) {
  const a = (n && n.attrs) || {};
  const verdict = a[ATTR.VERDICT];
  if (!n || !verdict) return null;
  const checks = (n.kids || []).map((c) => {
    const ca = c.attrs || {};
    return {
      key: c.key || c.label || '',
      label: c.label || c.key || '',
      state: ca[ATTR.STATE] || VERDICT.PENDING,
      value: c.value || '',
      detail: c.detail || '',
      codes: (ca[ATTR.CODES] || '').split(',').filter(Boolean),
      link: c.link || '',
    };
  });
  return { verdict, value: n.value || '', detail: n.detail || '', checks };
}

/**
 * decided counts the checks of v that are worked out (not pending).
 * @param {Verdict | null} v
 */
export const decided = (v) => (v ? v.checks.filter((c) => c.state !== VERDICT.PENDING).length : -1);

/**
 * newestVerdict is the verdict that decided the most checks among vs (the open's, then the
 * cards' in the order they came); a later one wins a tie, so a card replaces the open's.
 * @param {(Verdict | null)[]} vs
 * @returns {Verdict | null}
 */
export function newestVerdict(vs) {
  let best = null;
  for (const v of vs) if (v && decided(v) >= decided(best)) best = v;
  return best;
}

/** The words of each whole verdict, for its headline: never "accepted" alone. */
const HEADLINES = {
  [VERDICT.PASS]: 'Sound',
  [VERDICT.FAIL]: 'Not sound',
  [VERDICT.OPEN]: 'Not decided',
};

/**
 * headline is what the verdict says first: "Not sound", "Sound", or "Not decided" while a
 * check is pending or undecided.
 * @param {Verdict} v
 */
export function headline(v) {
  return HEADLINES[v.verdict] || v.verdict;
}

/** The class (colour) of each state: a pending check has its own, apart from undecided. */
const TONES = {
  [VERDICT.PASS]: 'good',
  [VERDICT.FAIL]: 'bad',
  [VERDICT.OPEN]: 'warn',
  [VERDICT.UNDECIDED]: 'warn',
  [VERDICT.PENDING]: 'pending',
};

/**
 * tone is the colour class of a verdict or check state.
 * @param {string} state
 */
export function tone(state) {
  return TONES[state] || 'warn';
}

/**
 * checkOf finds check key of v (null when v has none).
 * @param {Verdict | null} v
 * @param {string} key
 */
export function checkOf(v, key) {
  return (v && v.checks.find((c) => c.key === key)) || null;
}
