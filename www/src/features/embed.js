// @ts-check
// Embedding: ?url= opens a file on load; a host page drives the viewer with postMessage.

import { embedded, params } from '../config.js';
import { toast, toastHide } from '../dom.js';
import { PAGE_CODE } from '../lib/vocab.gen.js';
import { welcomeWaiting } from '../views/welcome.js';
import { openFiles } from './open.js';

// Embedding (docs/embedding.md): ?url= opens a file on load; a host page drives the viewer
// with postMessage, Perfetto-style: it posts 'PING' until the viewer answers 'PONG', then
// posts {buffer: ArrayBuffer, name: string}; the viewer answers that message with
// {type: 'loaded', name, kind} or {type: 'error', message}, to the origin that sent it.
// Messages are taken only from this page's own origin and the origins the host lists in
// ?allow= (comma-separated); others are ignored, and the console says so once per origin,
// with the allow= that would accept it. ?mode=embedded hides the open button and turns file
// drop off.


// allowedOrigins: this page's origin (not the opaque 'null' of file://) and those of ?allow=.
export const allowedOrigins = new Set();
if (location.origin && location.origin !== 'null') allowedOrigins.add(location.origin);
/** @type {string[]} what ?allow= held that is not an origin (the console says so) */
const badAllow = [];
for (const a of (params.get('allow') || '').split(',')) {
  if (!a.trim()) continue;
  try { const o = new URL(a.trim()).origin; if (o && o !== 'null') allowedOrigins.add(o); else badAllow.push(a.trim()); } catch (e) { badAllow.push(a.trim()); }
}

export let messagesSeen = { answered: 0, ignored: 0, opened: 0, posted: 0 }; // for tests
/** @type {Set<string>} origins already named in the console */
const warned = new Set();

// refusalText: what the console says about the first message from a refused origin.
export function refusalText(origin, hasAllow, accepted) {
  const o = origin === 'null' ? 'an opaque origin (a file:// or sandboxed page)' : origin;
  const fix = origin === 'null'
    ? 'An opaque origin cannot be allowed: serve the host page over http(s).'
    : 'To accept it, add allow=' + origin + ' to the viewer\'s URL (e.g. ?mode=embedded&allow=' + origin + (hasAllow ? ', or append it to the existing allow= list, comma-separated' : '') + ').';
  const why = hasAllow
    ? 'it is not in this viewer\'s allow= list (' + accepted.join(', ') + ')'
    : 'this viewer has no allow= parameter, so it accepts messages only from its own origin' + (accepted.length ? ' (' + accepted.join(', ') + ')' : '');
  return 'neffscope: ignored a message from ' + o + ': ' + why + '. ' + fix;
}

function refuse(ev) {
  messagesSeen.ignored++;
  if (warned.has(ev.origin)) return;
  warned.add(ev.origin);
  console.warn(refusalText(ev.origin, !!params.get('allow'), Array.from(allowedOrigins)));
}

// reply posts a status message back to the window (and origin) that sent ev.
function reply(ev, msg) {
  if (!ev.source || ev.origin === 'null') return;
  try { /** @type {Window} */ (ev.source).postMessage(msg, ev.origin); messagesSeen.posted++; } catch (e) { console.warn('neffscope: could not post to the host: ' + (e && e.message || e)); }
}

async function onHostMessage(ev) {
  if (!allowedOrigins.has(ev.origin)) { refuse(ev); return; }
  const d = ev.data;
  if (d === 'PING') {
    messagesSeen.answered++;
    if (ev.source) ev.source.postMessage('PONG', ev.origin);
    return;
  }
  if (d && typeof d === 'object' && (d.buffer instanceof ArrayBuffer || ArrayBuffer.isView(d.buffer))) {
    messagesSeen.opened++;
    const name = typeof d.name === 'string' && d.name ? d.name : 'file.neff';
    const r = await openFiles([new File([d.buffer], name)]);
    reply(ev, r.ok ? { type: 'loaded', name: r.name, kind: r.kind } : { type: 'error', message: r.message });
    return;
  }
  // Our own replies (a viewer framing itself) and strings other tools post are not for us;
  // an object that looks like a request but has no buffer gets an answer saying why.
  if (d && typeof d === 'object' && !('type' in d)) {
    const message = 'neffscope: a message needs {buffer: ArrayBuffer, name: string}; this one has ' + (Object.keys(d).join(', ') || 'no fields');
    console.warn(message);
    reply(ev, { type: 'error', message });
  }
}

/** @type {{code: string, at: string} | null} what was wrong with ?url= (for tests: its code and the bad part) */
export let urlProblem = null;

// openFromURL fetches ?url= (same origin, or a CORS-enabled host the CSP allows) and opens it
// as if it had been dropped.
async function openFromURL(raw) {
  let u;
  try { u = new URL(raw, location.href); } catch (e) { toast('Not a URL: ' + raw); return; }
  if (!/^https?:$/.test(u.protocol)) { toast('Only http(s) URLs can be opened: ' + raw); return; }
  const last = u.pathname.split('/').pop() || '';
  let name;
  try { name = decodeURIComponent(last) || 'file'; } catch (e) { name = ''; }
  if (!name) {
    const bad = /%(?![0-9a-f]{2})[^%]{0,2}/i.exec(last);
    urlProblem = { code: PAGE_CODE.URL_MALFORMED, at: bad ? bad[0] : last };
    toast('Could not open ?url=' + raw + ': its file name has malformed percent-encoding (' + urlProblem.at + ': a % must be followed by two hex digits, and the bytes must be UTF-8); nothing was fetched. Encode the URL again.', 'error', null, urlProblem.code);
    return;
  }
  toast('Fetching ' + name + '…', 'info');
  try {
    const resp = await fetch(u.href, { credentials: 'same-origin' });
    if (!resp.ok) throw new Error('HTTP ' + resp.status);
    const blob = await resp.blob();
    toastHide();
    openFiles([new File([blob], name)]);
  } catch (e) {
    toast('Could not fetch ' + u.href + ': ' + (e && e.message || e) + (u.origin !== location.origin ? ' (another origin: it must allow CORS and the page\'s connect-src must list it)' : ''));
  }
}

export function setupEmbedding() {
  if (embedded) {
    document.body.classList.add('embedded');
    welcomeWaiting();
  }
  window.addEventListener('message', onHostMessage);
  if (badAllow.length) console.warn('neffscope: allow= holds ' + badAllow.map((a) => JSON.stringify(a)).join(', ') + ', not origins (scheme://host[:port]); they are ignored.');
  const url = params.get('url');
  if (url) openFromURL(url);
}
