// @ts-check
// The search's order (views/search.js): what the program is — instructions, functions,
// variables, kernel lines — before the JSON values that merely mention the same words
// ("Activate" lists Activate instructions before any func_id number). A pure function of the
// results, so node --test holds it.

import { KIND } from './vocab.gen.js';

/** JSON value kinds: the last tier. */
const JSON_KINDS = new Set([KIND.OBJECT, KIND.ARRAY, KIND.STRING, KIND.NUMBER, KIND.BOOL, KIND.NULL, KIND.BARE]);
/** Program kinds: functions, source lines and instructions named by the model. */
const PROGRAM_KINDS = new Set([KIND.PWP_FUNCTION, KIND.FUNC, KIND.INST, KIND.SOURCE, KIND.INSTRUCTION, KIND.INSTRUCTIONS, KIND.ENGINE, KIND.CORE, KIND.VARS, KIND.TENSORS, KIND.QUEUES, KIND.DMA_BLOCKS, KIND.ACTIVATION_SETS]);

/**
 * One search result as views/search.js holds it: an offset or instruction jump (offset /
 * jump), a node (hit from the core, or node from the page's index), or an instruction of a
 * listing (stream, index).
 * @typedef {{offset?: number, jump?: number, hit?: any, node?: any, stream?: any, index?: number}} Result
 */

/**
 * tierOf: a result's rank (lower first): 0 a byte or an instruction number, 1 an instruction
 * of a listing, 2 a program node (function, variable, kernel line, engine), 3 other document
 * structure (members, fields), 4 a JSON value.
 * @param {Result} r
 * @returns {number}
 */
export function tierOf(r) {
  if (r.offset !== undefined || r.jump !== undefined) return 0;
  const n = r.hit || r.node;
  if (!n) return 1;
  const path = r.hit ? r.hit.path || [] : [];
  // def.json's var › SB › name: a variable, though its node is JSON.
  if (path.length >= 2 && (path[path.length - 2] === 'var' || path[path.length - 3] === 'var')) return 2;
  if (PROGRAM_KINDS.has(n.kind) || path[0] === 'model') return 2;
  if (JSON_KINDS.has(n.kind)) return 4;
  return 3;
}

/**
 * exact: the result's own name is the query (case-insensitive), not a longer text holding it.
 * @param {Result} r
 * @param {string} q lower case
 */
function exact(r, q) {
  const n = r.hit || r.node;
  if (n) return String(n.label || '').toLowerCase() === q || String(n.value || '').toLowerCase() === q;
  return false;
}

/**
 * rankResults orders results by tier, then exact names first, otherwise keeping the order
 * they came in (document order, stream order).
 * @template {Result} T
 * @param {T[]} results
 * @param {string} q the query, lower case
 * @returns {T[]}
 */
export function rankResults(results, q) {
  return results
    .map((r, i) => ({ r, i, t: tierOf(r), e: exact(r, q) ? 0 : 1 }))
    .sort((a, b) => a.t - b.t || a.e - b.e || a.i - b.i)
    .map((x) => x.r);
}

/**
 * parseInstructionQuery reads "#N" (an instruction number of the stream on show): N, or null.
 * @param {string} q trimmed
 * @returns {number | null}
 */
export function parseInstructionQuery(q) {
  const m = /^#\s*(\d{1,9})$/.exec(q);
  return m ? Number(m[1]) : null;
}
