// @ts-check
// The progress card of an open (or a scan): what is read, how far, how fast, and Cancel (the
// button, or Escape while a file opens).

import { cancel, core } from '../core/client.js';
import { $ } from '../dom.js';
import { fmtSize } from '../lib/format.js';
import { opening } from '../state/docs.js';

/** @type {HTMLElement} the card (#progress) */
let card;

/**
 * progressInit wires Cancel: the core stops reading, the card goes.
 * @param {HTMLElement} root
 */
export function progressInit(root) {
  card = root;
  $('cancel').addEventListener('click', () => { if (cancel()) hideProgress(); });
  window.addEventListener('keydown', (e) => {
    if (e.key === 'Escape' && opening) { if (cancel()) hideProgress(); }
  });
}

/**
 * showProgress shows the progress bar for file (or a group: its count and total size), with Cancel.
 * @param {{name: string, size: number}} file
 */
export function showProgress(file) {
  card.hidden = false;
  $('progress-title').textContent = 'Reading ' + file.name;
  $('progress-bar').style.width = '0%';
  $('progress-text').textContent = fmtSize(file.size) + ' · starting…';
  $('cancel').disabled = core.mode !== 'worker';
}

/** hideProgress takes the card away (and out of its corner). */
export function hideProgress() {
  card.hidden = true;
  card.classList.remove('docked');
}

/** dockProgress moves the card to a corner: a partial overview shows behind it. */
export function dockProgress() {
  card.classList.add('docked');
}

/**
 * onProgress updates the progress bar from the core's progress event.
 * @param {File} file
 * @param {number} t0 when the open started (performance.now())
 * @param {{phase: string, done: number, total: number, inflated: number, read: number}} p
 */
export function onProgress(file, t0, p) {
  const secs = (performance.now() - t0) / 1000;
  const read = p.read || p.done;
  const frac = file.size ? Math.min(1, read / file.size) : 1;
  $('progress-bar').style.width = (frac * 100).toFixed(1) + '%';
  const parts = [p.phase, fmtSize(read) + ' of ' + fmtSize(file.size)];
  if (secs > 0.05) parts.push((read / (1 << 20) / secs).toFixed(1) + ' MB/s');
  if (p.inflated) parts.push(fmtSize(p.inflated) + ' inflated');
  $('progress-text').textContent = parts.join(' · ');
}
