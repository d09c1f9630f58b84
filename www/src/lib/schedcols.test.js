// @ts-check
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { lower, unpackCore, waitIndex } from './schedcols.js';

const i32 = (a) => new Int32Array(a).buffer;

// Two engines: PE runs steps 0, 1, 3; Activation steps 2, 4 and one word stuck (-1). Activation
// #0 waits S[5] >= 1 produced by PE #1; PE #2 waits S[6] >= 1 produced by Activation #0.
const core = unpackCore({
  core: 'sg00', engines: ['PE', 'Activation'], members: ['sg00/PE.bin', 'sg00/Activation.bin'],
  lens: i32([3, 3]), steps: i32([0, 1, 3, 2, 4, -1]), ops: new Uint8Array([1, 2, 0xa0, 0x46, 0x46, 0x46]).buffer,
  waits: i32([1, 0, 0, 1, 5, 1, 0, 0, 2, 1, 0, 6, 1, 0]), codes: [''], total: 5, lints: [], undecided: [],
});

test('unpackCore: each engine\'s first word and the words that run', () => {
  assert.deepEqual(core.off, [0, 3]);
  assert.deepEqual(core.run, [3, 2]);
  assert.equal(core.ops[3], 0x46);
});

test('lower finds the first word at or after a step, in the words that run', () => {
  assert.equal(lower(core, 0, 0), 0);
  assert.equal(lower(core, 0, 2), 2);
  assert.equal(lower(core, 0, 9), 3);
  assert.equal(lower(core, 1, 3), 1);
  assert.equal(lower(core, 1, 9), 2); // the stuck word is not searched
});

test('waitIndex: an instruction\'s waits and the waits it produces', () => {
  const ix = waitIndex(core);
  assert.deepEqual(ix.byWaiter.get(1 * 2 ** 32 + 0), [0]);
  assert.deepEqual(ix.byProducer.get(0 * 2 ** 32 + 1), [0]);
  assert.deepEqual(ix.byProducer.get(1 * 2 ** 32 + 0), [7]);
  assert.equal(ix.byWaiter.get(0 * 2 ** 32 + 0), undefined);
  assert.equal(waitIndex(core), ix); // built once
});
