// @ts-check
// The wire shapes: what the core sends the page, as JSDoc types. A Document, a Node and a
// Table arrive as msgpack (core/doc/wire.go, keys from core/doc/doc.go's msg: tags) and are
// decoded with the vendored msgpack (www/vendor/msgpack, loaded by index.html as the global
// MessagePack). Optional keys are absent when empty (omitempty).

/**
 * A byte range: src '' (or absent) is the opened file, else a member path.
 * @typedef {object} Span
 * @property {string} [src]
 * @property {number} off
 * @property {number} len
 * @property {boolean} [inherited] page-side: the span of an ancestor (len 0), see spanOf
 * @property {boolean} [range] page-side: a range the hex view selected (shift-click), not a node's span
 */

/**
 * One problem or remark, placed at the bytes it is about.
 * @typedef {object} Finding
 * @property {string} [code] the stable dotted code (core/doc/codes.go): what the page matches
 * @property {string} [cause] the code of the root finding this one follows from (a file cut short…)
 * @property {'error' | 'warning' | 'info'} sev
 * @property {string} msg for people: never parsed
 * @property {Span} [span]
 */

/**
 * A grid: rows of cells (strings), rspans one span per row when present.
 * @typedef {object} Table
 * @property {string[]} cols
 * @property {string[][]} rows
 * @property {Span[]} [rspans]
 * @property {string[]} [rlinks] one per row: the node the row leads to (a node path in the URL hash's form; '' none)
 */

/**
 * A sampled curve.
 * @typedef {object} Series
 * @property {string} name
 * @property {number[]} x
 * @property {number[]} y
 */

/**
 * One element of the decoded tree. kind picks the renderers (KINDS, DETAIL_RENDERERS,
 * SUMMARIES); key (or label when absent) is its path segment; ref an opaque handle the page
 * hands back to the core (lib/refs.js reads it). Kinds and attr keys are lib/vocab.gen.js's
 * (generated from core/doc): compare them with KIND, read attrs with the keys ATTR names.
 * @typedef {object} Node
 * @property {import('./lib/vocab.gen.js').Kind} kind
 * @property {string} [key]
 * @property {string} label
 * @property {string} [value]
 * @property {string} [detail]
 * @property {Span} [span]
 * @property {Node[]} [kids]
 * @property {import('./lib/vocab.gen.js').Attrs} [attrs] machine-readable facts (core/doc/attrs.go keys); never parse value or detail
 * @property {Table} [table]
 * @property {Series[]} [series]
 * @property {Finding[]} [finds]
 * @property {string} [ref]
 * @property {string} [link] the node this one leads to (a node path in the URL hash's form)
 */

/**
 * The result of opening one file (or a group of sibling files).
 * @typedef {object} Document
 * @property {number} model the wire model version (doc.ModelVersion)
 * @property {string} file
 * @property {number} size
 * @property {string} kind the artifact kind ("neff", "json", "binary", ...)
 * @property {string} [sha256] hex sha-256 of the whole file: the fingerprint
 * @property {Node} root
 */

/**
 * unpack decodes one msgpack value the core sent (a Document, Node or Table).
 * @param {ArrayBuffer | Uint8Array} buf
 * @returns {any}
 */
export function unpack(buf) {
  return /** @type {any} */ (globalThis).MessagePack.decode(buf instanceof Uint8Array ? buf : new Uint8Array(buf));
}

/** @param {ArrayBuffer | Uint8Array} buf @returns {Document} */
export const unpackDocument = (buf) => unpack(buf);
/** @param {ArrayBuffer | Uint8Array} buf @returns {Node} */
export const unpackNode = (buf) => unpack(buf);
/** @param {ArrayBuffer | Uint8Array} buf @returns {Table} */
export const unpackTable = (buf) => unpack(buf);
