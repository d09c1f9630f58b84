// @ts-check
// The worker script's entry (bundled into www/worker.js). One script, three uses:
// - in a worker named HASH_ROLE: the hash role (./hash.js);
// - in a worker named POOL_ROLE (started by the core worker): a pool worker (./pool.js);
// - in any other worker: the core host (./core-host.js) answering the page;
// - on the page itself (the single-file build inlines it; the site loads it as a fallback when
//   no worker can be created): it only defines globalThis.NeffscopeCoreHost for the page.

import { createCoreHost, serveWorker } from './core-host.js';
import { HASH_ROLE } from '../roles.js';
import { serveHashRole } from './hash.js';
import { POOL_ROLE, servePool } from './pool.js';

const inWorker = typeof WorkerGlobalScope !== 'undefined' && self instanceof WorkerGlobalScope;

if (!inWorker) {
  /** @type {any} */ (globalThis).NeffscopeCoreHost = createCoreHost;
} else if (self.name === HASH_ROLE) {
  serveHashRole();
} else if (self.name === POOL_ROLE) {
  servePool();
} else {
  serveWorker();
}
