export const $ = (id) => document.getElementById(id);

// el makes an element; text is set with textContent, never parsed as HTML.
export function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined && text !== null) e.textContent = String(text);
  return e;
}

export function toast(msg, sev) {
  const t = $('toast');
  t.textContent = msg;
  t.dataset.sev = sev || 'error';
  t.hidden = false;
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => { t.hidden = true; }, 8000);
}
