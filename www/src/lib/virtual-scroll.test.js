import test from 'node:test';
import assert from 'node:assert/strict';
import { MAX_SCROLL_PX, scrollToVirtual, toScroll, toVirtual } from './virtual-scroll.js';

test('below the cap, scroll and list positions are the same', () => {
  const sc = { scrollTop: 1234, clientHeight: 500 };
  assert.equal(toVirtual(sc, 1e6), 1234);
  assert.equal(toScroll(sc, 1e6, 777), 777);
});

test('beyond the cap, the whole scroll range maps onto the whole list', () => {
  const full = 500 * 2 ** 20 / 16 * 18; // a 500 MiB member's hex rows, 18 px each
  const sc = { scrollTop: 0, clientHeight: 600 };
  assert.equal(toVirtual(sc, full), 0);
  sc.scrollTop = MAX_SCROLL_PX - sc.clientHeight; // scrolled to the bottom
  assert.equal(toVirtual(sc, full), full - sc.clientHeight);
  sc.scrollTop = (MAX_SCROLL_PX - sc.clientHeight) / 2;
  assert.ok(Math.abs(toVirtual(sc, full) - (full - sc.clientHeight) / 2) < 1e-6);
  // toScroll is toVirtual's inverse.
  for (const v of [0, 12345.5, full / 3, full - sc.clientHeight]) {
    sc.scrollTop = toScroll(sc, full, v);
    assert.ok(Math.abs(toVirtual(sc, full) - v) < 1e-3 * full / MAX_SCROLL_PX, String(v));
  }
});

test('scrollToVirtual pins the exact position until the scroll moves', () => {
  const full = 1e9;
  const sc = { scrollTop: 0, clientHeight: 400 };
  const v = 123456789; // not a whole scroll pixel's worth
  scrollToVirtual(sc, full, v);
  assert.equal(toVirtual(sc, full), v);
  sc.scrollTop += 1; // the user scrolled: the pin no longer applies
  assert.notEqual(toVirtual(sc, full), v);
  assert.ok(Math.abs(toVirtual(sc, full) - v) < 2 * full / MAX_SCROLL_PX);
});

test('scrollToVirtual clamps to the list', () => {
  const sc = { scrollTop: 0, clientHeight: 400 };
  scrollToVirtual(sc, 10000, 99999);
  assert.equal(sc.scrollTop, 9600);
  scrollToVirtual(sc, 10000, -5);
  assert.equal(sc.scrollTop, 0);
});
