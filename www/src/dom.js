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
 * 'error' (default), 'warning' or 'info'. code: the finding's code (core/doc codes.go), on
 * data-code for tests and scripts to match, never the message.
 * @param {string} msg
 * @param {string} [sev]
 * @param {{label: string, run: () => void} | null} [action]
 * @param {string} [code]
 */
export function toast(msg, sev, action, code) {
  const t = $('toast');
  t.textContent = msg;
  t.dataset.code = code || '';
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

/**
 * toastHide takes the message away (given code: only a message of that code, which has
 * stopped being true).
 * @param {string} [code]
 */
export function toastHide(code) {
  const t = $('toast');
  if (!code || t.dataset.code === code) t.hidden = true;
}

/**
 * closestTo is the nearest element from an event's target up that matches sel, or null.
 * @param {Event} e
 * @param {string} sel
 * @returns {HTMLElement | null}
 */
export const closestTo = (e, sel) => (e.target instanceof Element ? /** @type {HTMLElement | null} */ (e.target.closest(sel)) : null);
