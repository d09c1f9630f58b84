// @ts-check
// A small least-recently-used cache: the hex view's byte pages and the listing's row blocks
// (each a core round trip, so a bounded number is kept).

/** @template V */
export class LRU {
  /** @param {number} cap entries kept; the least recently used go first */
  constructor(cap) {
    this.cap = cap;
    /** @type {Map<string | number, V>} */
    this.map = new Map();
  }

  /** get returns the entry and marks it used. @param {string | number} key */
  get(key) {
    const v = this.map.get(key);
    if (v !== undefined) { this.map.delete(key); this.map.set(key, v); }
    return v;
  }

  /** peek returns the entry without marking it used. @param {string | number} key */
  peek(key) { return this.map.get(key); }

  /** set stores the entry as the most recent and evicts beyond the cap. @param {string | number} key @param {V} v */
  set(key, v) {
    this.map.delete(key);
    this.map.set(key, v);
    while (this.map.size > this.cap) this.map.delete(/** @type {string | number} */ (this.map.keys().next().value));
    return this;
  }

  /** @param {string | number} key */
  delete(key) { return this.map.delete(key); }

  clear() { this.map.clear(); }

  get size() { return this.map.size; }
}
