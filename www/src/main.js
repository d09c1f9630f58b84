// @ts-check
// The page's entry (bundled into www/app.js): wires every view to its elements, starts the
// core, and publishes the debug surface.

import { cancel, single, startCore } from './core/client.js';
import { installDebugSurface } from './debug.js';
import { $ } from './dom.js';
import { embedded } from './config.js';
import { setupEmbedding } from './features/embed.js';
import { copyLink, exportInit, exportJSON, exportMember } from './features/export.js';
import { keyboardInit } from './features/keyboard.js';
import { sessionInit, sessionRestore } from './features/session.js';
import { openExample, openFile, openFiles } from './features/open.js';
import { applyHash, opening } from './state/docs.js';
import { themeInit } from './features/theme.js';
import { cacheInit } from './views/cache.js';
import { contentInit } from './views/content.js';
import { ctxInit } from './views/context.js';
import { detailInit } from './views/detail.js';
import { diffInit } from './views/diff/render.js';
import { hexInit, hexKeyInit } from './views/hex.js';
import { layoutInit } from './views/layout.js';
import { libBoot, libInit } from './views/library.js';
import { listingInit } from './views/listing.js';
import { plotInit } from './views/plot/plot.js';
import { searchInit } from './views/search.js';
import { setFindingsOpen, summaryInit } from './views/summary.js';
import { attachSources, sourceInit } from './views/source.js';
import { sourcePaneInit } from './views/sourcepane.js';
import { tabsInit } from './views/tabs.js';

// wire connects the page's controls and window events to the views.
function wire() {
  // The order of the inits is the order the views follow a new document and a selection.
  detailInit();
  searchInit();
  summaryInit();
  contentInit();
  hexInit();
  hexKeyInit();
  $('detail').tabIndex = -1; // a place for the focus when the pane is rebuilt (detailRefocus)
  listingInit();
  sourceInit();
  sourcePaneInit();
  plotInit();
  ctxInit();
  themeInit();
  libInit({ openFile, openFiles });
  diffInit();
  layoutInit();
  tabsInit();
  keyboardInit();
  sessionInit(openFile);
  exportInit();
  cacheInit(); // a folder (compile cache) picked or dropped: the cache table (views/cache.js)

  $('file-input').addEventListener('change', (e) => {
    const input = /** @type {HTMLInputElement} */ (e.target);
    openFiles(Array.from(input.files || []));
    input.value = '';
  });
  $('try-example').addEventListener('click', () => openExample());
  $('cancel').addEventListener('click', () => { if (cancel()) { $('progress').hidden = true; } });
  $('export-json').addEventListener('click', () => exportJSON());
  $('export-member').addEventListener('click', () => exportMember());
  $('export-link').addEventListener('click', () => copyLink());
  $('findings-toggle').addEventListener('click', () => setFindingsOpen($('findings-toggle').getAttribute('aria-expanded') !== 'true'));

  // The whole window is the drop zone.
  let depth = 0;
  const overlay = $('drop-overlay');
  const hasFiles = (e) => e.dataTransfer && Array.from(e.dataTransfer.types || []).includes('Files');
  // Embedded, drop is off: the drop is still refused here so the browser does not navigate
  // the frame to the dropped file.
  window.addEventListener('dragenter', (e) => { if (!hasFiles(e)) return; e.preventDefault(); if (embedded) return; depth++; overlay.hidden = false; });
  window.addEventListener('dragover', (e) => { if (!hasFiles(e)) return; e.preventDefault(); e.dataTransfer.dropEffect = embedded ? 'none' : 'copy'; if (!embedded) overlay.hidden = false; });
  window.addEventListener('dragleave', () => { depth = Math.max(0, depth - 1); if (!depth) overlay.hidden = true; });
  window.addEventListener('drop', (e) => {
    e.preventDefault();
    if (embedded) return;
    depth = 0;
    overlay.hidden = true;
    const files = e.dataTransfer && e.dataTransfer.files;
    if (!files || !files.length) return;
    // A kernel .py dropped beside an open NEFF is its source text (the source pane), not a file to open.
    const all = Array.from(files);
    const py = all.filter((f) => /\.py$/i.test(f.name));
    if (py.length) attachSources(py);
    if (py.length < all.length) openFiles(all.filter((f) => !/\.py$/i.test(f.name)));
  });
  window.addEventListener('keydown', (e) => {
    if ((e.ctrlKey || e.metaKey) && e.key === 'o') { e.preventDefault(); if (!embedded) $('file-input').click(); }
    if (e.key === 'Escape' && opening) { if (cancel()) $('progress').hidden = true; }
  });
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
libBoot().then(sessionRestore, sessionRestore); // the hash's file, then the other tabs of the session
installDebugSurface();
