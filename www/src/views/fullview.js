// @ts-check
// The names the full views (the comparisons, the compile cache) give the documents opened from
// a folder.

// shortName names a document opened from a folder by its entry: "MODULE_…+…/model.neff" in a
// cache, the last two path parts elsewhere; other documents by their file name.
export function shortName(d) {
  const f = d.doc.file || '';
  if (!d.cacheRow || !f.includes('/')) return f;
  return f.split('/').slice(-2).join('/');
}
