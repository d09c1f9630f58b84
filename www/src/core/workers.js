// @ts-check
// Starting the page's workers (the core's and the hash worker: worker.js in its roles).

import { $ } from '../dom.js';

// present in the single-file build (and no document at all under node --test)
export const single = typeof document !== 'undefined' ? $('wasm-data') : null;

/**
 * newWorker starts worker.js (named name: its role). The single-file build has no worker.js
 * to load: the worker is a Blob of prelude (what the site's worker loads itself) and the code.
 * @param {string} name
 * @param {string[]} prelude
 * @returns {Worker}
 */
export function newWorker(name, prelude) {
  const opts = name ? { name } : undefined;
  if (!single) return new Worker('worker.js', opts);
  return new Worker(URL.createObjectURL(new Blob([workerSource(prelude)], { type: 'text/javascript' })), opts);
}

/**
 * workerSource is the single-file build's worker script: prelude and the code. The core worker
 * is given it to start its pool workers from (from file:// a worker may not start one from
 * the page's Blob URL: a Blob URL of its own it may).
 * @param {string[]} prelude
 */
export function workerSource(prelude) {
  return prelude.join('') + $('worker-src').textContent;
}
