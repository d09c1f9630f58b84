// @ts-check
// DOM helpers shared by every view: $ (by id), el (text only, never HTML), toast.

/**
 * $ finds an element by id. Typed any: each id is a different element (input, select, svg…)
 * and index.html is the declaration of which.
 * @param {string} id
 * @returns {any}
 */
export const $ = (id) => document.getElementById(id);

// el makes an element; text is set with textContent, never parsed as HTML.
export function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined && text !== null) e.textContent = String(text);
  return e;
}

let toastTimer = 0;

/**
 * toast shows a message for 8 s (with an action button: until dismissed or clicked). sev:
 * 'error' (default), 'warning' or 'info'.
 * @param {string} msg
 * @param {string} [sev]
 * @param {{label: string, run: () => void}} [action]
 */
export function toast(msg, sev, action) {
  const t = $('toast');
  t.textContent = msg;
  if (action) {
    const b = document.createElement('button');
    b.type = 'button';
    b.className = 'toast-action';
    b.textContent = action.label;
    b.addEventListener('click', () => { t.hidden = true; action.run(); });
    t.append(' ', b);
  }
  t.dataset.sev = sev || 'error';
  t.hidden = false;
  clearTimeout(toastTimer);
  if (!action) toastTimer = setTimeout(() => { t.hidden = true; }, 8000);
}

/** toastHide takes the message away. */
export function toastHide() {
  $('toast').hidden = true;
}

/**
 * closestTo is the nearest element from an event's target up that matches sel, or null.
 * @param {Event} e
 * @param {string} sel
 * @returns {HTMLElement | null}
 */
export const closestTo = (e, sel) => (e.target instanceof Element ? /** @type {HTMLElement | null} */ (e.target.closest(sel)) : null);
