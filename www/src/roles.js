// @ts-check
// The worker's roles, by the name the page gives a worker (new Worker(url, {name})). Shared by
// the page (core/) and the worker script (worker/main.js) so the two cannot drift apart.

/** HASH_ROLE names the worker that only computes files' sha-256 (worker/hash.js). */
export const HASH_ROLE = 'neffscope-hash';
