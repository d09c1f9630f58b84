// @ts-check
// What the screen shows: one page at a time — the welcome screen, a file's header while it
// opens, the document's panes, a comparison, the compile cache (views/registry.js lists the
// pages). This module is the only writer of the pages' roots (their hidden) and of
// body[data-view], by which style.css leaves the document's bars out of the other pages.

import { emit } from './events.js';

/**
 * A page of the screen: its root element (null: it has none of its own), and what its view
 * does when it starts or stops showing (the root is already shown, or hidden).
 * @typedef {{root: HTMLElement | null, show?: () => void, hide?: () => void}} Page
 */

/** The page on show (debug.js and the tests read it through the views). */
export const screen = { page: 'welcome' };

/** @type {Map<string, Page>} */
const pages = new Map();

/**
 * registerPage adds a page (views/registry.js, once per page row); its root hides unless it is
 * the page on show.
 * @param {string} name
 * @param {Page} page
 */
export function registerPage(name, page) {
  pages.set(name, page);
  if (page.root) page.root.hidden = name !== screen.page;
  if (name === screen.page) document.body.dataset.view = name;
}

/**
 * showPage shows page name and hides the one before: their roots, their views' show and hide,
 * then the 'screen' event. Nothing happens when name is already on show.
 * @param {string} name
 */
export function showPage(name) {
  const was = screen.page;
  if (name === was) return;
  if (!pages.has(name)) throw new Error('no page ' + name);
  screen.page = name;
  document.body.dataset.view = name;
  for (const [n, p] of pages) if (p.root) p.root.hidden = n !== name;
  const old = pages.get(was);
  if (old && old.hide) old.hide();
  const now = pages.get(name);
  if (now.show) now.show();
  emit('screen', { page: name, was });
}
