// Types for the part of hash-wasm's sha256 bundle www/src/worker/hash.js uses (from the
// package's dist/lib/*.d.ts, abridged). The bundle is UMD: its default export is this object.
export interface IHasher {
  init(): IHasher;
  update(data: Uint8Array | string): IHasher;
  digest(outputType?: 'hex'): string;
  blockSize: number;
  digestSize: number;
}
declare const hashwasm: { createSHA256(): Promise<IHasher> };
export default hashwasm;
