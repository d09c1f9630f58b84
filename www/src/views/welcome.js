// @ts-check
// The welcome screen (the page with no document): what neffscope shows, "Try an example", and
// the library of recent files (views/library.js puts it in its slot).

import { $ } from '../dom.js';

/** @type {HTMLElement | null} */
let root = null;

/**
 * welcomeInit wires "Try an example" (the NEFF the page ships).
 * @param {HTMLElement} el the welcome page's root
 * @param {{app: {openExample: () => Promise<any>}}} ctx
 */
export function welcomeInit(el, { app }) {
  root = el;
  $('try-example').addEventListener('click', () => app.openExample());
}

/**
 * welcomeWaiting: embedded in a host page, the welcome screen says it waits for the host's file.
 */
export function welcomeWaiting() {
  const h = root && root.querySelector('h1');
  if (h) h.textContent = 'Waiting for a file from the host page';
}
