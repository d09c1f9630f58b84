// @ts-check
// A node's ref (doc.Node.Ref) is "scheme:rest", an opaque handle the page hands back to the
// core: "member:<path>" (an archive member or a loose file's bytes), "stream:<member>" (an
// instruction stream: rows come from the core), "pwp:<...>" (an activation function the core
// evaluates), "file:" (the file itself). These read it in one place.

/**
 * parseRef splits a ref at its first colon; null when there is none.
 * @param {string | undefined | null} ref
 * @returns {{scheme: string, rest: string} | null}
 */
export function parseRef(ref) {
  if (!ref) return null;
  const i = ref.indexOf(':');
  return i < 0 ? null : { scheme: ref.slice(0, i), rest: ref.slice(i + 1) };
}

/**
 * refIn gives what follows "scheme:" when ref has that scheme, else null.
 * @param {string | undefined | null} ref
 * @param {string} scheme
 */
export function refIn(ref, scheme) {
  return ref && ref.startsWith(scheme + ':') ? ref.slice(scheme.length + 1) : null;
}

/** memberPath: the member path of a "member:" ref, or null. @param {string | undefined | null} ref */
export const memberPath = (ref) => refIn(ref, 'member');

/** streamPath: the member path of a "stream:" ref, or null. @param {string | undefined | null} ref */
export const streamPath = (ref) => refIn(ref, 'stream');

/** isMemberRef / isStreamRef / isPwpRef: the ref's scheme. @param {string | undefined | null} ref */
export const isMemberRef = (ref) => refIn(ref, 'member') !== null;
/** @param {string | undefined | null} ref */
export const isStreamRef = (ref) => refIn(ref, 'stream') !== null;
/** @param {string | undefined | null} ref */
export const isPwpRef = (ref) => refIn(ref, 'pwp') !== null;
