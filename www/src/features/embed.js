// @ts-check
// Embedding: ?url= opens a file on load; a host page drives the viewer with postMessage.

import { $, toast } from '../dom.js';
import { openFiles } from './open.js';

// Embedding (README "Embedding"): ?url= opens a file on load; a host page drives the viewer
// with postMessage, Perfetto-style: it posts 'PING' until the viewer answers 'PONG', then
// posts {buffer: ArrayBuffer, name: string}. Messages are taken only from this page's own
// origin and the origins the host lists in ?allow= (comma-separated); others are ignored.
// ?mode=embedded hides the open button and turns file drop off.

export const params = new URLSearchParams(location.search);
export const embedded = params.get('mode') === 'embedded';

// allowedOrigins: this page's origin (not the opaque 'null' of file://) and those of ?allow=.
export const allowedOrigins = new Set();
if (location.origin && location.origin !== 'null') allowedOrigins.add(location.origin);
for (const a of (params.get('allow') || '').split(',')) {
  try { const o = new URL(a.trim()).origin; if (o && o !== 'null') allowedOrigins.add(o); } catch (e) { /* not a URL: skip */ }
}

export let messagesSeen = { answered: 0, ignored: 0, opened: 0 }; // for tests

function onHostMessage(ev) {
  if (!allowedOrigins.has(ev.origin)) { messagesSeen.ignored++; return; }
  const d = ev.data;
  if (d === 'PING') {
    messagesSeen.answered++;
    if (ev.source) ev.source.postMessage('PONG', ev.origin);
    return;
  }
  if (d && typeof d === 'object' && (d.buffer instanceof ArrayBuffer || ArrayBuffer.isView(d.buffer))) {
    messagesSeen.opened++;
    const name = typeof d.name === 'string' && d.name ? d.name : 'file.neff';
    openFiles([new File([d.buffer], name)]);
  }
}

// openFromURL fetches ?url= (same origin, or a CORS-enabled host the CSP allows) and opens it
// as if it had been dropped.
async function openFromURL(raw) {
  let u;
  try { u = new URL(raw, location.href); } catch (e) { toast('Not a URL: ' + raw); return; }
  if (!/^https?:$/.test(u.protocol)) { toast('Only http(s) URLs can be opened: ' + raw); return; }
  const name = decodeURIComponent(u.pathname.split('/').pop() || '') || 'file';
  toast('Fetching ' + name + '…', 'info');
  try {
    const resp = await fetch(u.href, { credentials: 'same-origin' });
    if (!resp.ok) throw new Error('HTTP ' + resp.status);
    const blob = await resp.blob();
    $('toast').hidden = true;
    openFiles([new File([blob], name)]);
  } catch (e) {
    toast('Could not fetch ' + u.href + ': ' + (e && e.message || e) + (u.origin !== location.origin ? ' (another origin: it must allow CORS and the page\'s connect-src must list it)' : ''));
  }
}

export function setupEmbedding() {
  if (embedded) {
    document.body.classList.add('embedded');
    const h = document.querySelector('#welcome h1');
    if (h) h.textContent = 'Waiting for a file from the host page';
  }
  window.addEventListener('message', onHostMessage);
  const url = params.get('url');
  if (url) openFromURL(url);
}
