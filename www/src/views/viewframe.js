// @ts-check
// The frame the schedule and memory views share: a region with a header bar (title, axis
// label, status, a spacer), to which each view adds its own controls and body.
import { el } from '../dom.js';

/**
 * viewFrame makes the view's root a region (classes `cls`) with its bar; the caller appends its
 * controls to bar (after the spacer, or before status with insertBefore) and its body to view.
 * @param {HTMLElement} view the view's root
 * @param {{cls: string, label: string, title: string, axis: string, axisTitle: string, statusId: string, live?: boolean}} o
 * @returns {{view: HTMLElement, bar: HTMLElement, status: HTMLElement}}
 */
export function viewFrame(view, o) {
  view.className = o.cls;
  view.setAttribute('role', 'region');
  view.setAttribute('aria-label', o.label);
  const bar = el('div', 'sched-bar');
  bar.appendChild(el('span', 'sched-title', o.title));
  const axis = el('span', 'sched-axis', o.axis);
  axis.title = o.axisTitle;
  bar.appendChild(axis);
  const status = el('span', 'sched-status muted');
  status.id = o.statusId;
  if (o.live) status.setAttribute('aria-live', 'polite');
  bar.appendChild(status);
  bar.appendChild(el('span', 'spacer'));
  view.appendChild(bar);
  return { view, bar, status };
}

/**
 * barButton appends a small button to bar whose title is also its accessible name.
 * @param {HTMLElement} bar
 * @param {string} text
 * @param {string} title
 * @param {() => void} fn
 * @returns {HTMLButtonElement}
 */
export function barButton(bar, text, title, fn) {
  const b = /** @type {HTMLButtonElement} */ (el('button', 'button small', text));
  b.type = 'button';
  b.title = title;
  b.setAttribute('aria-label', title);
  b.addEventListener('click', fn);
  bar.appendChild(b);
  return b;
}
