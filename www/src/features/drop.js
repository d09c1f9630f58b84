// @ts-check
// The whole window is the drop zone: files open as tabs, a folder is scanned as a compile
// cache (views/cache.js), a kernel .py dropped beside an open NEFF is its source text (the
// source views), two HLO modules (or two cache entries' folders) are compared (the graph diff),
// a .tar or .tar.gz is scanned as the cache it packs. Embedded in a host page, a drop is
// refused, so the browser does not navigate the frame to the dropped file.

import { embedded } from '../config.js';
import { $ } from '../dom.js';
import { isTarName } from '../lib/tar.js';
import { cacheDrop, cacheTar } from '../views/cache.js';
import { attachSources } from '../views/source.js';
import { hloDiffSides, isHLOName } from '../views/hlodiff.js';
import { openFiles } from './open.js';

/** dropInit wires the window's drag and drop and the overlay that says a drop will open. */
export function dropInit() {
  let depth = 0;
  const overlay = $('drop-overlay');
  const hasFiles = (e) => e.dataTransfer && Array.from(e.dataTransfer.types || []).includes('Files');
  window.addEventListener('dragenter', (e) => { if (!hasFiles(e)) return; e.preventDefault(); if (embedded) return; depth++; overlay.hidden = false; });
  window.addEventListener('dragover', (e) => { if (!hasFiles(e)) return; e.preventDefault(); e.dataTransfer.dropEffect = embedded ? 'none' : 'copy'; if (!embedded) overlay.hidden = false; });
  window.addEventListener('dragleave', () => { depth = Math.max(0, depth - 1); if (!depth) overlay.hidden = true; });
  window.addEventListener('drop', (e) => {
    e.preventDefault();
    if (embedded) return;
    depth = 0;
    overlay.hidden = true;
    if (e.dataTransfer && cacheDrop(e.dataTransfer)) return;
    const files = e.dataTransfer && e.dataTransfer.files;
    if (!files || !files.length) return;
    const all = Array.from(files);
    if (all.length === 1 && isTarName(all[0].name)) { cacheTar(all[0]); return; }
    if (all.length === 2 && all.every((f) => isHLOName(f.name))) { hloDiffSides(all.map((f) => ({ hlo: f, hloPath: f.name, entry: false }))); return; }
    const py = all.filter((f) => /\.py$/i.test(f.name));
    if (py.length) attachSources(py);
    if (py.length < all.length) openFiles(all.filter((f) => !/\.py$/i.test(f.name)));
  });
}
