// @ts-check
// The page's full views beside the document's panes (the comparison of N files, the compile
// cache): their <main>, and the names of the documents opened from a folder.

import { $, el } from '../dom.js';

// shortName names a document opened from a folder by its entry: "MODULE_…+…/model.neff" in a
// cache, the last two path parts elsewhere; other documents by their file name.
export function shortName(d) {
  const f = d.doc.file || '';
  if (!d.cacheRow || !f.includes('/')) return f;
  return f.split('/').slice(-2).join('/');
}

// viewEl returns the page's <main> for id (cache-view or many-view), made on first use: these
// views add themselves to the page, beside the diff view.
export function viewEl(id) {
  let v = $(id);
  if (v) return v;
  v = el('main', 'cache-view');
  v.id = id;
  v.hidden = true;
  v.setAttribute('aria-label', id === 'cache-view' ? 'Compile cache' : 'Comparison');
  const after = $('diff-view') || $('panes');
  after.parentNode.insertBefore(v, after.nextSibling);
  return v;
}
