// @ts-check
// The page's events: state/ publishes what happened, the views (and features) subscribe in
// their own init. So state/ never calls a view, and a new view is one subscription.

/**
 * The events and what each carries.
 * @typedef {object} Events
 * @property {{n: import('../wire.js').Node, from?: string, spanOverride?: import('../wire.js').Span}} select a node was selected (state/selection.js select)
 * @property {{n: import('../wire.js').Node}} detail the detail pane is to show n without selecting it (an instruction, a context's field)
 * @property {{off: number}} contextByte a byte of a libncfw context's text was picked in the hex view (views/context.js places it)
 * @property {{stream: import('../wire.js').Node, i: number, from?: string}} pickInstruction instruction i of stream is to be shown in the listing (from 'hash': the URL asked, no history entry)
 * @property {{line: import('../wire.js').Node | null}} instructionLine the listing's instruction came from this source line (views/source.js marks it)
 * @property {{doc: import('../wire.js').Document}} document the current document is shown anew (renderDocument), before its landing selection
 * @property {{nav: HTMLElement, diffShown: boolean}} tabs the tab strip was rebuilt with the documents' tabs; a subscriber may add its own tabs (and set diffShown)
 * @property {{}} redrawTabs the tab strip is to be drawn again (the open documents changed)
 * @property {{}} empty the last document was closed
 * @property {{}} diffHide the comparison view is to be left (another document shows)
 * @property {{}} diffForget the comparison is to be dropped (one of its documents closed)
 * @property {{view: string}} pageView a full view ('diff', 'many', 'cache'; '' none) is to show: the others hide
 * @property {{}} diffRender the comparison (views/diff/) is to be drawn again
 * @property {{list: any[]}} compareMany the open documents of list are to be compared (views/diff/many.js)
 * @property {{n: import('../wire.js').Node, off: number, last?: number}} hashByte the URL hash names byte off of n's source (or the range off..last): the hex view puts its cursor there
 * @property {{}} sourceTexts kernel .py files were attached (views/source.js texts)
 * @property {{f: string}} hashUnknown the URL hash names a file that is not open (f: its fingerprint)
 */

/** @type {Map<string, ((detail: any) => void)[]>} */
const handlers = new Map();

/**
 * on subscribes fn to event name; handlers run in the order they subscribed.
 * @template {keyof Events} K
 * @param {K} name
 * @param {(detail: Events[K]) => void} fn
 */
export function on(name, fn) {
  const list = handlers.get(name);
  if (list) list.push(fn); else handlers.set(name, [fn]);
}

/**
 * emit runs name's handlers with detail, at once and in order.
 * @template {keyof Events} K
 * @param {K} name
 * @param {Events[K]} detail
 */
export function emit(name, detail) {
  for (const fn of handlers.get(name) || []) fn(detail);
}
