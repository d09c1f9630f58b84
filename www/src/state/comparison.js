// @ts-check
// The comparison of two open documents (views/diff/): which two, the core's answer, and
// whether its view is on show. State, so the tabs and the documents' bookkeeping can read it.

/** @type {{a: any, b: any, node: any, shown: boolean, hideSame: boolean, seq: number, error: string, ms?: number}} */
export const diff = { a: null, b: null, node: null, shown: false, hideSame: false, seq: 0, error: '' };
