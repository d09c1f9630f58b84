// @ts-check
// The page's entry (bundled into www/app.js): the views (views/registry.js) and the features
// that act on files, then the core, and the debug surface.

import { single, startCore } from './core/client.js';
import { installDebugSurface } from './debug.js';
import { setupEmbedding } from './features/embed.js';
import { dropInit } from './features/drop.js';
import { exportInit } from './features/export.js';
import { keyboardInit } from './features/keyboard.js';
import { sessionInit, sessionRestore } from './features/session.js';
import { openExample, openFile, openFiles, openInit } from './features/open.js';
import { permalinkBoot, permalinkInit } from './features/permalink.js';
import { applyHash } from './state/docs.js';
import { themeInit } from './features/theme.js';
import { libBoot } from './views/library.js';
import { viewsInit } from './views/registry.js';

// wire starts every view, then the features, and follows the URL's hash.
function wire() {
  viewsInit({ openFile, openFiles, openExample });
  themeInit();
  keyboardInit();
  sessionInit(openFile);
  permalinkInit();
  exportInit();
  openInit();
  dropInit();
  window.addEventListener('popstate', applyHash);
  window.addEventListener('hashchange', applyHash);
  document.body.dataset.state = 'empty';
}

// registerOffline keeps the app shell for offline visits (sw.js). Only a served site can
// have a service worker: not file://, and not the single-file build (it needs none).
function registerOffline() {
  if (single || !('serviceWorker' in navigator) || !/^https?:$/.test(location.protocol)) return;
  navigator.serviceWorker.register('sw.js').catch((e) => {
    // Plain http on a host other than localhost has no service workers: the page works online.
    console.info('neffscope: no offline copy (' + (e && e.message || e) + ')');
  });
}

wire();
startCore();
registerOffline();
setupEmbedding();
libBoot().then(sessionRestore, sessionRestore).then(permalinkBoot); // the hash's file, then the other tabs of the session, then what a link still wants
installDebugSurface();
