// @ts-check
// Saving bytes the page made (a JSON, a CSV, a member) as a download.

import { el, toast } from '../dom.js';

/**
 * download saves parts as a file named name.
 * @param {BlobPart[]} parts
 * @param {string} name
 * @param {string} [type]
 */
export function download(parts, name, type) {
  const url = URL.createObjectURL(new Blob(parts, { type: type || 'application/octet-stream' }));
  const a = el('a');
  a.href = url;
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60000);
}

// exportBusy keeps a second click from starting a second download while one is read.
let exportBusy = false;

/**
 * exporting runs fn, which reads and downloads what (for the message if it fails), unless an
 * export is already running.
 * @param {string} what
 * @param {() => Promise<void>} fn
 */
export async function exporting(what, fn) {
  if (exportBusy) return;
  exportBusy = true;
  try { await fn(); } catch (e) { toast('Could not export ' + what + ': ' + (e && e.message || e)); } finally { exportBusy = false; }
}
