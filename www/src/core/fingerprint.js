// @ts-check
// The hash worker's client: a file's sha-256 computed by a second worker (worker/hash.js)
// while the core opens the file.

import { HASH_ROLE } from '../roles.js';
import { call, core, newWorker } from './client.js';

// The file's sha-256 (its fingerprint: URL hash, library key) is computed by a second worker
// (worker.js in its hash role) in parallel with the core's open, on another CPU core: Go's
// SHA-256 in wasm runs at about 100 MB/s and was a third of a big file's open time. Without
// workers (the main-thread fallback) the core hashes the file while it streams, as before.
const hasher = { worker: null, next: 1, pending: new Map() };

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
    p(d.sha256 || null);
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

function pageFingerprint(file) {
  if (core.mode !== 'worker' || !file) return null;
  let w;
  try { w = hashWorker(); } catch (e) { return null; }
  const id = hasher.next++;
  return new Promise((resolve) => { hasher.pending.set(id, resolve); w.postMessage({ id, file }); });
}

/**
 * openWithFingerprint opens file in the core with the page computing its sha-256 alongside;
 * known: a sha-256 already known (a reopen after the worker restarted). It resolves with the
 * core's answer plus sha256 (the fingerprint the core accepted, or '').
 * @param {File} file
 * @param {{onEvent?: (event: string, data: any) => void} | null} hooks
 * @param {string} [known]
 * @returns {Promise<any>}
 */
export async function openWithFingerprint(file, hooks, known) {
  const fp = known ? Promise.resolve(known) : pageFingerprint(file);
  const r = await call('open', { file, name: file.name, fingerprint: fp ? false : undefined }, hooks);
  r.sha256 = '';
  if (fp) {
    const sha = await fp;
    if (sha && (await call('setFingerprint', { handle: r.handle, sha256: sha })).set) r.sha256 = sha;
  }
  return r;
}
