import test from 'node:test';
import assert from 'node:assert/strict';
import { checkOf, decided, headline, newestVerdict, tone, verdictOf } from './verdict.js';

const check = (key, state, value, codes) => ({ kind: 'field', key, label: key === 'integrity' ? 'hash' : key, value, attrs: Object.assign({ state }, codes ? { codes } : {}) });
const node = (verdict, states) => ({
  kind: 'answer', key: 'verdict', value: 'words', attrs: { verdict },
  kids: Object.entries(states).map(([k, s]) => check(k, s[0], s[1], s[2])),
});

// The open's verdict of a deadlocked file: nothing has failed yet (sync is pending).
const open = node('open', { integrity: ['pass', 'ok'], runtime: ['pass', 'accepted'], errors: ['pass', 'none'], sync: ['pending', 'not worked out'], memory: ['pending', 'not worked out'] });
// The schedule's card: sync decided (a deadlock), memory still pending.
const sched = node('fail', { integrity: ['pass', 'ok'], runtime: ['pass', 'accepted'], errors: ['pass', 'none'], sync: ['fail', '1 lint', 'sync.cycle'], memory: ['pending', 'not worked out'] });
// The memory call's card: both decided.
const mem = node('fail', { integrity: ['pass', 'ok'], runtime: ['pass', 'accepted'], errors: ['pass', 'none'], sync: ['fail', '1 lint', 'sync.cycle'], memory: ['fail', '1 lint', 'mem.unsync,mem.reserved'] });

test('verdictOf reads the whole, each check state and its codes', () => {
  const v = verdictOf(mem);
  assert.equal(v.verdict, 'fail');
  assert.deepEqual(v.checks.map((c) => c.key), ['integrity', 'runtime', 'errors', 'sync', 'memory']);
  assert.equal(v.checks[0].label, 'hash');
  assert.deepEqual(checkOf(v, 'memory').codes, ['mem.unsync', 'mem.reserved']);
  assert.deepEqual(checkOf(v, 'runtime').codes, []);
  assert.equal(checkOf(v, 'nothing'), null);
  assert.equal(verdictOf({ key: 'sync', attrs: { waits: '3' } }), null);
  assert.equal(verdictOf(null), null);
});

test('a check with no state reads as pending, never as passed', () => {
  const v = verdictOf({ attrs: { verdict: 'open' }, kids: [{ key: 'sync', label: 'sync', value: '?' }] });
  assert.equal(v.checks[0].state, 'pending');
  assert.equal(decided(v), 0);
});

test('the verdict that decided most is shown: a card replaces the open one', () => {
  const o = verdictOf(open), s = verdictOf(sched), m = verdictOf(mem);
  assert.equal(decided(o), 3);
  assert.equal(decided(s), 4);
  assert.equal(decided(m), 5);
  assert.equal(newestVerdict([o, s]), s);
  assert.equal(newestVerdict([o, m, s]), m); // a schedule card after the memory one decides less
  assert.equal(newestVerdict([o, null]), o);
  assert.equal(newestVerdict([null]), null);
  // A card as decided as the open's (a file with no program) replaces it all the same.
  const again = verdictOf(open);
  assert.equal(newestVerdict([o, again]), again);
});

test('a deadlocked file is never headlined as accepted', () => {
  for (const n of [open, sched, mem]) {
    const h = headline(verdictOf(n));
    assert.ok(!/accept/i.test(h), h);
  }
  assert.equal(headline(verdictOf(open)), 'Not decided');
  assert.equal(headline(verdictOf(sched)), 'Not sound');
  assert.equal(headline(verdictOf(node('pass', { integrity: ['pass', 'ok'] }))), 'Sound');
});

test('each state has its colour, pending its own', () => {
  assert.equal(tone('pass'), 'good');
  assert.equal(tone('fail'), 'bad');
  assert.equal(tone('undecided'), 'warn');
  assert.equal(tone('open'), 'warn');
  assert.equal(tone('pending'), 'pending');
  assert.equal(tone('something new'), 'warn');
});
