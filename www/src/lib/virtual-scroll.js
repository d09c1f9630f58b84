export const MAX_SCROLL_PX = 8e6; // browsers cap element heights; beyond this the scroll is scaled

// A virtual list of height full (px) in a scroller whose spacer is at most MAX_SCROLL_PX:
// toVirtual maps the scroller's scrollTop to a position in the list, toScroll back. The
// whole scroll range maps onto the whole list, so the last row is reachable.
export function toVirtual(sc, full) {
  if (full <= MAX_SCROLL_PX) return sc.scrollTop;
  const pin = scrollPins.get(sc);
  if (pin && pin.st === sc.scrollTop && pin.full === full) return pin.v;
  const range = MAX_SCROLL_PX - sc.clientHeight;
  return range > 0 ? sc.scrollTop / range * (full - sc.clientHeight) : 0;
}
export function toScroll(sc, full, v) {
  if (full <= MAX_SCROLL_PX) return v;
  return v / Math.max(1, full - sc.clientHeight) * (MAX_SCROLL_PX - sc.clientHeight);
}

// Beyond MAX_SCROLL_PX one pixel of scroll is many pixels of list (74 in a 500 MiB member's
// hex), so a scrollTop cannot name a row exactly. scrollToVirtual sets the scroll and pins the
// exact list position to it: toVirtual returns the pin until the user scrolls elsewhere, so a
// row put in view by a key or a jump is in view, to the pixel.
export const scrollPins = new WeakMap();
export function scrollToVirtual(sc, full, v) {
  v = Math.max(0, Math.min(v, full - sc.clientHeight));
  sc.scrollTop = toScroll(sc, full, v);
  if (full > MAX_SCROLL_PX) scrollPins.set(sc, { st: sc.scrollTop, full, v });
}
