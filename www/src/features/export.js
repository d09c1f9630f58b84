// @ts-check
// Export: the Document as JSON, the selected member's bytes, a link to this page.

import { call } from '../core/client.js';
import { $, toast } from '../dom.js';
import { download, exporting } from '../lib/download.js';
import { fileStem } from '../lib/format.js';
import { memberPath } from '../lib/refs.js';
import { memberOf, sourceSize, state } from '../state/docs.js';
import { on } from '../state/events.js';
import { ensureHandle } from '../views/hex.js';

// Export: the Document as JSON (byte for byte what `neffscope inspect --json` prints), a
// table as CSV, the selected member's bytes, and a link to this page.

function exportJSON() {
  if (!state) return Promise.resolve();
  return exporting('the document', async () => {
    const st = state;
    const r = await call('json', { handle: await ensureHandle() });
    download([r.json], fileStem(st.doc.file) + '.json', 'application/json');
  });
}

// exportMember downloads the selected member's bytes, read from the core in chunks (each
// bytes call is capped in the core).
const MEMBER_CHUNK = 8 << 20;
function exportMember() {
  const m = state && state.selected && memberOf(state.selected);
  if (!m) return Promise.resolve();
  const src = memberPath(m.ref);
  return exporting(src, async () => {
    const size = sourceSize(src);
    const parts = [];
    for (let off = 0; off < size;) {
      const r = await call('bytes', { handle: await ensureHandle(), source: src, off, n: Math.min(MEMBER_CHUNK, size - off) });
      if (!r.bytes.byteLength) throw new Error('the core returned no bytes at offset ' + off + ' of ' + size);
      parts.push(r.bytes);
      off += r.bytes.byteLength;
    }
    download(parts, fileStem(src.split('/').pop()), 'application/octet-stream');
  });
}

async function copyLink() {
  const link = location.href;
  try {
    await navigator.clipboard.writeText(link);
    toast('Link copied: ' + link, 'info');
  } catch (e) {
    toast('Link (copy it from here): ' + link, 'info');
  }
}

/**
 * exportInit wires the export buttons; they follow the selection, and go with the last
 * document.
 */
export function exportInit() {
  $('export-json').addEventListener('click', () => exportJSON());
  $('export-member').addEventListener('click', () => exportMember());
  $('export-link').addEventListener('click', () => copyLink());
  on('select', updateExport);
  on('empty', updateExport);
}

function updateExport() {
  $('export').hidden = !state;
  $('export-member').disabled = !(state && state.selected && memberOf(state.selected));
}
