// @ts-check
// The page's events are facts: what happened, never what some view is to do. state/ publishes
// the facts about the documents, the selection, the URL and the screen; a view publishes what
// happened inside it. Views and features subscribe in their own init, so state/ never calls a
// view. A request to a view is a function of that view (views/listing.js instructionAt,
// views/detail.js renderDetail…), called by whoever stands above it.

/**
 * The events and what each carries.
 * @typedef {object} Events
 * @property {{n: import('../wire.js').Node, from?: string, spanOverride?: import('../wire.js').Span}} select a node was selected (state/selection.js select)
 * @property {{doc: import('../wire.js').Document, ms: number}} document the current document is shown anew (state/docs.js renderDocument; ms: how long opening it took, 0 when not shown), before its landing selection
 * @property {{}} docs the open documents changed beside the one on show (a tab closed)
 * @property {{page: string, was: string}} screen the screen shows another page (state/screen.js showPage)
 * @property {{}} empty the last document was closed
 * @property {{stream: import('../wire.js').Node, i: number}} hashInstruction the URL hash names instruction i of stream, an open document's (landing on it, or back/forward)
 * @property {{n: import('../wire.js').Node, off: number, last?: number}} hashByte the URL hash names byte off of n's source (or the range off..last)
 * @property {{f: string}} hashUnknown the URL hash names a file that is not open (f: its fingerprint)
 * @property {{f: string, v: string, w: {lo: number, hi: number} | null, c: number | null, vs: string, all: string[], inst: {stream: import('../wire.js').Node, i: number} | null}} hashView the URL hash names a view over the place it names in document f (landing on it, or back/forward): v 'schedule' or 'memory' (its window w, its core c), 'diff' (compared with the document of fingerprint vs), 'compare' (compared with the documents of fingerprints all; on back/forward only, as diff: a document landing from a comparison's hash is its A alone), or '' none; inst: the hash's instruction, its stream held
 * @property {Patched} patched a document's nodes changed in place (the source lines mapped after the open: features/mapsource.js), while it is on show
 * @property {{st: import('./store.js').DocState, progress: boolean}} memberHashes a document's members' sha-256 moved on: progress, or they arrived (or failed, or are computed again); st.memberHashes says where they are
 * @property {{n: import('../wire.js').Node}} picked n was picked inside the view that shows it, which drew it already (the listing's instruction or record, a libncfw context's field, a plot's evaluation); the panes that describe a node follow
 * @property {{src: string, off: number}} bytePicked byte off of src was picked in the hex view where a view above the bytes places it (an instruction stream's byte: the listing; a libncfw context's: the context view)
 * @property {{line: import('../wire.js').Node | null}} instructionLine the listing's instruction came from this source line (or none)
 * @property {{}} sourceTexts kernel .py files were attached (views/source.js texts)
 * @property {{nav: HTMLElement, diffShown: boolean}} tabs the tab strip was drawn with the documents' tabs; a subscriber may add its own tabs (and set diffShown)
 */

/**
 * What the 'patched' event carries: the document, the nodes that changed, the selection before
 * the patch; a view whose redraw takes a while adds its promise to waits (the selection is
 * shown again once they settle), and one that has shown the selection again sets shown.
 * @typedef {{st: import('./store.js').DocState, changed: import('../wire.js').Node[], sel: import('../wire.js').Node | null, waits: Promise<any>[], shown: boolean}} Patched
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
