// @ts-check
// A node's ref (doc.Node.Ref) is "<kind>:<rest>" ("ncfw-text" alone), an opaque handle the
// page hands back to the core; its kinds are REF (lib/vocab.gen.js, generated from core/doc
// ref.go). This is the page's one reader and builder of refs, as doc.ParseRef is the core's:
// no other module splits or builds one.

import { REF } from './vocab.gen.js';

const KNOWN = new Set(Object.values(REF));

/**
 * parseRef splits a ref into its kind and the rest, as doc.ParseRef does: null for no ref or
 * one of no known form.
 * @param {string | undefined | null} ref
 * @returns {{scheme: import('./vocab.gen.js').RefKind, rest: string} | null}
 */
export function parseRef(ref) {
  if (!ref) return null;
  if (ref === REF.NCFW_TEXT) return { scheme: REF.NCFW_TEXT, rest: '' };
  const i = ref.indexOf(':');
  const scheme = /** @type {import('./vocab.gen.js').RefKind} */ (ref.slice(0, i));
  return i < 0 || !KNOWN.has(scheme) ? null : { scheme, rest: ref.slice(i + 1) };
}

/**
 * refIn gives what follows "<kind>:" when ref is of that kind, else null.
 * @param {string | undefined | null} ref
 * @param {import('./vocab.gen.js').RefKind} kind
 */
export function refIn(ref, kind) {
  return ref && ref.startsWith(kind + ':') ? ref.slice(kind.length + 1) : null;
}

/** memberPath: the member path of a "member:" ref, or null. @param {string | undefined | null} ref */
export const memberPath = (ref) => refIn(ref, REF.MEMBER);

/** streamPath: the member path of a "stream:" ref, or null. @param {string | undefined | null} ref */
export const streamPath = (ref) => refIn(ref, REF.STREAM);

/** recordsPath: the .dbg member of a "records:" ref ('' a loose .dbg file's), or null. @param {string | undefined | null} ref */
export const recordsPath = (ref) => refIn(ref, REF.RECORDS);

/** isMemberRef / isStreamRef / isPwpRef: the ref's kind. @param {string | undefined | null} ref */
export const isMemberRef = (ref) => memberPath(ref) !== null;
/** @param {string | undefined | null} ref */
export const isStreamRef = (ref) => streamPath(ref) !== null;
/** @param {string | undefined | null} ref */
export const isPwpRef = (ref) => refIn(ref, REF.PWP) !== null;

/** streamRef names a stream member's listing, as doc.StreamRef does. @param {string} member */
export const streamRef = (member) => REF.STREAM + ':' + member;
