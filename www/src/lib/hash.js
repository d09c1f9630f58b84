export function parseHash(h) {
  const out = { f: '', n: null };
  for (const part of String(h || '').replace(/^#/, '').split('&')) {
    const i = part.indexOf('=');
    if (i < 0) continue;
    const k = part.slice(0, i), v = part.slice(i + 1);
    if (k === 'f') out.f = v.toLowerCase();
    else if (k === 'n') out.n = v;
  }
  return out;
}
