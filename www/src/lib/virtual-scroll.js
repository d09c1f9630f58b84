// @ts-check
// Virtual scrolling for lists taller than a browser lets an element be (the hex view of a
// 500 MiB member, a million-row listing): the spacer is capped at MAX_SCROLL_PX and the whole
// scroll range maps onto the whole list, so the last row is reachable.

/** @typedef {{scrollTop: number, clientHeight: number}} Scroller the element's scroll state */

export const MAX_SCROLL_PX = 8e6; // browsers cap element heights; beyond this the scroll is scaled

// Beyond MAX_SCROLL_PX one pixel of scroll is many pixels of list (74 in a 500 MiB member's
// hex), so a scrollTop cannot name a row exactly. scrollToVirtual sets the scroll and pins the
// exact list position to it: toVirtual returns the pin until the user scrolls elsewhere, so a
// row put in view by a key or a jump is in view, to the pixel.
/** @type {WeakMap<object, {st: number, full: number, v: number}>} */
export const scrollPins = new WeakMap();

/**
 * toVirtual maps the scroller's scrollTop to a position (px) in a list of height full.
 * @param {Scroller} sc
 * @param {number} full
 */
export function toVirtual(sc, full) {
  if (full <= MAX_SCROLL_PX) return sc.scrollTop;
  const pin = scrollPins.get(sc);
  if (pin && pin.st === sc.scrollTop && pin.full === full) return pin.v;
  const range = MAX_SCROLL_PX - sc.clientHeight;
  return range > 0 ? sc.scrollTop / range * (full - sc.clientHeight) : 0;
}

/**
 * toScroll maps a list position v back to a scrollTop.
 * @param {Scroller} sc
 * @param {number} full
 * @param {number} v
 */
export function toScroll(sc, full, v) {
  if (full <= MAX_SCROLL_PX) return v;
  return v / Math.max(1, full - sc.clientHeight) * (MAX_SCROLL_PX - sc.clientHeight);
}

/**
 * scrollToVirtual scrolls so the list position v (clamped) is at the top, and pins it.
 * @param {Scroller} sc
 * @param {number} full
 * @param {number} v
 */
export function scrollToVirtual(sc, full, v) {
  v = Math.max(0, Math.min(v, full - sc.clientHeight));
  sc.scrollTop = toScroll(sc, full, v);
  if (full > MAX_SCROLL_PX) scrollPins.set(sc, { st: sc.scrollTop, full, v });
}
