// Types for the part of hash-wasm's md5 bundle www/src/worker/hash.js uses (from the
// package's dist/lib/*.d.ts, abridged). The bundle is UMD: its default export is this object.
import type { IHasher } from './sha256.umd.min.js';
declare const hashwasm: { createMD5(): Promise<IHasher> };
export default hashwasm;
