// @ts-check
// The comparison of two open documents (views/diff/): which two, the core's answer, and
// whether its page is on show. State, so the tabs and the documents' bookkeeping can read it.

import { screen, showPage } from './screen.js';
import { state } from './store.js';

/** @type {{a: any, b: any, node: any, readonly shown: boolean, hideSame: boolean, seq: number, error: string, ms?: number}} */
export const diff = {
  a: null, b: null, node: null, hideSame: false, seq: 0, error: '',
  get shown() { return screen.page === 'diff'; },
};

/**
 * forgetComparison drops the comparison (one of its documents was closed); its page, if on
 * show, gives way to the document (or the welcome screen).
 */
export function forgetComparison() {
  diff.seq++;
  Object.assign(diff, { a: null, b: null, node: null, error: '' });
  if (diff.shown) showPage(state ? 'document' : 'welcome');
}
