// neffscope service worker: keeps a copy of the app shell so the site opens offline after one
// visit. Files never pass through here: they are read in the tab and never fetched.
//
// Strategy: network first, cache as the fallback. Online, every load gets exactly what the
// server has (no stale wasm after a deploy, no "reload twice"); offline (the request fails),
// the last copy answers. A copy is rewritten only when the server's validator (ETag or
// Last-Modified) changed, so a normal load does not rewrite the 7 MB wasm; while it is unchanged
// the cached copy answers (with V8's code cache beside it: docs/performance.md, "A returning
// visit").
//
// BUILD is stamped by scripts/bundle (a hash of the shell files) in dist/site; a new build
// gets a new cache and the old ones are deleted when it activates.
'use strict';

const BUILD = 'dev';
const CACHE = 'neffscope-shell-' + BUILD;
const SHELL = [
  './',
  'index.html',
  'app.js',
  'worker.js',
  'style.css',
  'wasm_exec.js',
  'neffscope.wasm',
  'vendor/msgpack/msgpack.min.js',
  'warm/matmul_small.neff',
];
const shellURLs = new Set(SHELL.map((p) => new URL(p, self.registration.scope).href));

self.addEventListener('install', (ev) => {
  ev.waitUntil(caches.open(CACHE).then((c) => c.addAll(SHELL)).then(() => self.skipWaiting()));
});

self.addEventListener('activate', (ev) => {
  ev.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name.startsWith('neffscope-shell-') && name !== CACHE) await caches.delete(name);
    }
    await self.clients.claim();
  })());
});

function shellKey(req) {
  const u = new URL(req.url);
  u.search = '';
  u.hash = '';
  // A navigation to the page with a query (?url=, ?mode=embedded) is the same shell page.
  if (req.mode === 'navigate' && !shellURLs.has(u.href)) return new URL('index.html', self.registration.scope).href;
  return u.href;
}

const validator = (r) => (r && (r.headers.get('ETag') || r.headers.get('Last-Modified'))) || '';

self.addEventListener('fetch', (ev) => {
  const req = ev.request;
  if (req.method !== 'GET' || new URL(req.url).origin !== self.location.origin) return;
  const key = shellKey(req);
  if (!shellURLs.has(key)) return; // not part of the shell (e.g. a ?url= file): the network only
  ev.respondWith((async () => {
    const cache = await caches.open(CACHE);
    try {
      const resp = await fetch(req);
      if (resp.ok && resp.type === 'basic') {
        const old = await cache.match(key);
        if (old && validator(resp) && validator(old) === validator(resp)) {
          // Unchanged: answer with the cached copy. Chrome keeps V8's compiled, optimized wasm
          // beside a Cache Storage entry (never beside a response this worker fetched), so a
          // returning visit's core starts with the code the last visit's warm-up optimized.
          if (resp.body) resp.body.cancel().catch(() => {});
          return old;
        }
        ev.waitUntil(cache.put(key, resp.clone()).catch(() => {}));
      }
      return resp;
    } catch (e) {
      const hit = await cache.match(key);
      if (hit) return hit;
      throw e;
    }
  })());
});
