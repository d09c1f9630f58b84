// @ts-check
// The hash worker (worker.js in its hash role): started with the core, stopped by a cancel.

import { HASH_ROLE } from '../roles.js';
import { newWorker } from './workers.js';

// The file's sha-256 (its fingerprint: URL hash, library key) is computed by a second worker
// (worker.js in its hash role) in parallel with the core's open, on another CPU core: Go's
// SHA-256 in wasm runs at about 100 MB/s and was a third of a big file's open time. Without
// workers (the main-thread fallback) the core hashes the file while it streams, as before.
export const hasher = { worker: null, next: 1, pending: new Map() };

/**
 * hashWorker returns the hash worker, starting it on first use.
 * @returns {Worker}
 */
export function hashWorker() {
  if (hasher.worker) return hasher.worker;
  const w = newWorker(HASH_ROLE, []);
  w.onmessage = (ev) => {
    const d = ev.data || {};
    const p = hasher.pending.get(d.id);
    if (!p) return;
    hasher.pending.delete(d.id);
    if (d.error) console.info('neffscope: the hash worker failed: ' + d.error);
    p(d.sha256 ? { sha256: d.sha256, md5: d.md5 || null } : null);
  };
  w.onerror = (ev) => { ev.preventDefault(); hashStop(); };
  hasher.worker = w;
  return w;
}

/**
 * hashStop ends the hash worker (a cancel); what it was computing resolves to null.
 */
export function hashStop() {
  if (hasher.worker) hasher.worker.terminate();
  hasher.worker = null;
  for (const p of hasher.pending.values()) p(null);
  hasher.pending.clear();
}
