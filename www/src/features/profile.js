// @ts-check
// Device profiles (.ntff) opened with their NEFF: dropped or picked together, dropped onto an
// open NEFF, or alone. The profile opens as a document of its own (its images and records);
// then it is paired with its NEFF (views/timedata.js pair: the core checks the NEFF's UUID
// and joins it), and the NEFF shows with its time lanes, measured beside estimated. A
// profile of another NEFF says so (ntff.uuid-mismatch) and is not overlaid: it shows alone.

import { docs, state, switchDoc } from '../state/docs.js';
import { lanesOpen } from '../views/lanes.js';
import { isNEFF, isNTFF, loadMeasured, pair, timesOf, uuidOf } from '../views/timedata.js';

/** isProfile: a file is a device profile by its name (as the core's registry takes one). */
export const isProfile = (f) => /\.ntff$/i.test(f.name || '');

/**
 * openProfiled opens files of which some are device profiles, then pairs each profile with
 * the NEFF it belongs to: one opened with it, else the NEFF on show before, else an open NEFF
 * of the same UUID.
 * @param {File[]} files
 * @param {{openFile: (f: File) => Promise<any>, openGroup: (f: File[]) => Promise<any>}} open
 * @returns {Promise<any>} what the open came to
 */
export async function openProfiled(files, open) {
  const before = isNEFF(state) ? state : null;
  const had = new Set(docs);
  const r = files.length === 1 ? await open.openFile(files[0]) : await open.openGroup(files);
  if (!r || !r.ok) return r;
  const fresh = docs.filter((d) => !had.has(d));
  const profiles = fresh.filter((d) => isNTFF(d) && files.some((f) => isProfile(f) && f.name === d.doc.file));
  const neffs = fresh.filter((d) => isNEFF(d));
  // A profile about to be paired is not measured alone meanwhile (its lanes wait for this).
  const targets = profiles.map((prof) => {
    const uuid = uuidOf(prof);
    const match = (d) => !!uuid && uuidOf(d) === uuid;
    const target = neffs.find(match) || neffs[0] || (before && docs.includes(before) ? before : null) || docs.find((d) => isNEFF(d) && match(d)) || null;
    if (target) timesOf(prof).pairing = true;
    return target;
  });
  let shown = null;
  const show = (neff) => {
    shown = neff;
    const i = docs.indexOf(neff);
    if (state !== neff && i >= 0) switchDoc(i);
    return lanesOpen();
  };
  for (let i = 0; i < profiles.length; i++) {
    const prof = profiles[i], target = targets[i];
    if (!target) continue; // alone: its own lanes show (views/lanes.js)
    const joining = pair(target, prof);
    // The UUIDs agree: the NEFF's lanes show now, a big profile's engines before its DMA.
    const early = !shown && !!uuidOf(prof) && uuidOf(prof) === uuidOf(target) ? show(target) : null;
    let res = { joined: false };
    try { res = await joining; } catch (e) { /* said by the lanes' status */ } finally { timesOf(prof).pairing = false; }
    if (early) await early;
    if (res.joined) { if (!shown) await show(target); continue; }
    // Not overlaid: the profile shows alone.
    if (early) { shown = null; const j = docs.indexOf(prof); if (j >= 0) switchDoc(j); }
    if (state === prof) loadMeasured(prof).catch(() => {});
  }
  return r;
}
