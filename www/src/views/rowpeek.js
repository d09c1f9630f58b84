// @ts-check
// A listing row for a tooltip: the lanes (views/schedule.js, views/lanes.js) name an
// instruction under the pointer by its operands and kernel source line, which only the core's
// listing rows carry. Rows come a block at a time (the 'rows' call), kept in a small LRU per
// document, so sweeping the pointer along a lane asks the core once a block.

import { call } from '../core/client.js';
import { LRU } from '../lib/lru.js';
import { streamRef } from '../lib/refs.js';
import { state } from '../state/docs.js';
import { handleOf } from '../state/lazy.js';
import { unpackTable } from '../wire.js';

const BLOCK = 64;
const blocks = new LRU(128);

/**
 * rowPeek: row index of stream member's listing as {column title: cell} (null while it comes,
 * or when it cannot be read); when it comes later, then() runs once.
 * @param {string} member
 * @param {number} index
 * @param {() => void} then
 * @returns {Record<string, string> | null}
 */
export function rowPeek(member, index, then) {
  if (!state || !member || index < 0) return null;
  const key = state.uid + '|' + member + '|' + Math.floor(index / BLOCK);
  let b = blocks.get(key);
  if (!b) {
    const from = Math.floor(index / BLOCK) * BLOCK;
    const d = state;
    b = { cols: null, rows: null, promise: null };
    b.promise = handleOf(d)
      .then((h) => call('rows', { handle: h, ref: streamRef(member), from, to: from + BLOCK }))
      .then((r) => { const t = unpackTable(r.table); b.cols = t.cols || []; b.rows = t.rows || []; }, () => { b.rows = []; b.cols = []; });
    blocks.set(key, b);
  }
  if (!b.rows) { b.promise.then(then); return null; }
  const row = b.rows[index % BLOCK];
  if (!row) return null;
  /** @type {Record<string, string>} */
  const out = {};
  b.cols.forEach((c, k) => { out[c] = row[k] === undefined || row[k] === null ? '' : String(row[k]); });
  return out;
}

/**
 * peekLines: the tooltip lines of a row: its operands, its sync band, its kernel line.
 * @param {Record<string, string> | null} r
 * @returns {string[]}
 */
export function peekLines(r) {
  if (!r) return ['…'];
  const out = [];
  if (r.operands) out.push(r.operands.length > 120 ? r.operands.slice(0, 119) + '…' : r.operands);
  if (r.source) out.push('source ' + r.source);
  return out;
}
