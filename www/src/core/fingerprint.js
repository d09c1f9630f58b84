// @ts-check
// The hash worker's client: a file's sha-256 computed by a second worker (worker/hash.js)
// while the core opens the file.

import { call, core } from './client.js';
import { hasher, hashWorker } from './hasher.js';

/**
 * pageDigests asks the hash worker for file's sha-256 and its payload's MD5, or null without
 * workers; with after, the worker starts reading once it settles.
 * @param {File} file
 * @param {Promise<any>} [after]
 * @returns {Promise<{sha256: string | null, md5: string | null} | null> | null}
 */
function pageDigests(file, after) {
  if (core.mode !== 'worker' || !file) return null;
  let w;
  try { w = hashWorker(); } catch (e) { return null; }
  const id = hasher.next++;
  return new Promise((resolve) => {
    hasher.pending.set(id, resolve);
    const send = () => { if (hasher.worker === w) w.postMessage({ id, file }); };
    if (after) after.then(send, send); else send();
  });
}

let nextToken = 1;

/** The core's open answer, with the fingerprint the page settled on. @typedef {import('./methods.gen.js').OpenResult & {sha256: string, memberHashes: boolean}} Opened */

/**
 * openWithFingerprint opens file in the core with the page's hash worker computing, alongside,
 * its sha-256 and its payload's MD5, which the core takes where it checks the integrity (the
 * digests call; the open waits there for them); known: a sha-256 already known (a reopen after
 * the worker restarted: the core hashes the payload itself). With deferMembers the members'
 * sha-256 are left out of the open (hashMembers adds them after), with deferSource the source
 * lines (indexSource maps them after: the answer's sourcePending); with partial false the core
 * sends no partial overviews ('overview' events); with hashAfter the hash worker starts when it
 * settles (the core waits for the digests only at the end of the payload, and until the first
 * view is up the CPU is better spent on it). It resolves with the core's
 * answer plus sha256 (the fingerprint the core accepted, or '') and memberHashes (whether the
 * Document has the members' sha-256).
 * @param {File} file
 * @param {{onEvent?: (event: string, data: any) => void} | null} hooks
 * @param {string} [known]
 * @param {{deferMembers?: boolean, deferSource?: boolean, deferSourceOver?: number, partial?: boolean, hashAfter?: Promise<any>}} [how]
 * @returns {Promise<Opened>}
 */
export async function openWithFingerprint(file, hooks, known, how) {
  const defer = !!(how && how.deferMembers) && core.mode === 'worker';
  const args = { file, name: file.name, memberHashes: defer ? false : undefined, deferSource: defer && how && how.deferSource ? true : undefined, deferSourceOver: defer && how && how.deferSource ? how.deferSourceOver : undefined, partial: how && how.partial === false ? false : undefined };
  if (known) {
    const r = /** @type {Opened} */ (await call('open', Object.assign(args, { fingerprint: false }), hooks));
    r.sha256 = (await call('setFingerprint', { handle: r.handle, sha256: known })).set ? known : '';
    r.memberHashes = !defer;
    return r;
  }
  const fp = pageDigests(file, how && how.hashAfter);
  if (!fp) {
    const r = /** @type {Opened} */ (await call('open', args, hooks));
    r.sha256 = '';
    r.memberHashes = !defer;
    return r;
  }
  const token = nextToken++;
  const opened = call('open', Object.assign(args, { fingerprint: false, digests: token }), hooks);
  // The hash worker usually answers first; the core takes its digests when it reaches the
  // integrity check (without them, null: the core hashes the payload itself).
  fp.then((d) => call('digests', { token, md5: (d && d.md5) || undefined, sha256: (d && d.sha256) || undefined })).catch(() => {});
  const r = /** @type {Opened} */ (await opened);
  const d = await fp;
  r.sha256 = '';
  r.memberHashes = !defer;
  if (r.fingerprinted && d && d.sha256) r.sha256 = d.sha256;
  else if (d && d.sha256 && (await call('setFingerprint', { handle: r.handle, sha256: d.sha256 })).set) r.sha256 = d.sha256;
  return r;
}
