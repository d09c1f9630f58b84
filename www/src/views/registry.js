// @ts-check
// Every view of the page, one row each: its name, where it shows, its root element, and what
// the page asks of it. A view owns its root and everything inside it: no other module names an
// element id of its (www/test/modules.test.js), and another view asks it for something by a
// function it exports (views/listing.js instructionAt) or learns what happened by the facts of
// state/events.js. A new view is one row here plus its module.
//
// Where a view shows:
//   page     one page of the screen at a time (state/screen.js showPage writes its root's
//            hidden; show and hide run as it starts and stops showing);
//   content  the content pane of the document page: for a selected node n, each content view
//            is asked of(n) in the table's order, and shows what it answers (show) or hides;
//   panel    a pane or bar that follows the facts of state/events.js by itself (its init).

import { $, el } from '../dom.js';
import { registerPage } from '../state/screen.js';
import { cacheInit, cacheShow } from './cache.js';
import { contentInit, jsonHide, jsonInit, jsonOf, jsonShow } from './content.js';
import { ctxHide, ctxInit, ctxOf, ctxShow } from './context.js';
import { detailInit } from './detail.js';
import { compareMenuInit } from './diff/menu.js';
import { manyInit, manyShow } from './diff/many.js';
import { diffInit, diffShow } from './diff/render.js';
import { findingsInit } from './findings.js';
import { hexInit } from './hex.js';
import { layoutInit } from './layout.js';
import { libInit } from './library.js';
import { lanesHide, lanesInit, lanesOf, lanesShow } from './lanes.js';
import { linkWantedInit } from './linkwanted.js';
import { listingHide, listingInit, listingOf, listingShow } from './listing.js';
import { memviewHide, memviewInit, memviewOf, memviewShow } from './memview.js';
import { overviewHide, overviewInit, overviewOf, overviewShow } from './overview.js';
import { functionOf, plotHide, plotInit, plotShow } from './plot/plot.js';
import { progressInit } from './progress.js';
import { scheduleHide, scheduleInit, scheduleOf, scheduleShow } from './schedule.js';
import { searchInit } from './search.js';
import { sourceHide, sourceInit, sourceOf, sourceShow } from './source.js';
import { sourcePaneInit } from './sourcepane.js';
import { structureInit } from './structure.js';
import { summaryInit } from './summary.js';
import { syncCardInit } from './synccard.js';
import { tabsInit } from './tabs.js';
import { timeHooksInit } from './timehooks.js';
import { welcomeInit } from './welcome.js';
import { hloHide, hloInit, hloOf, hloShow } from './hlo.js';
import { hlodiffInit, hlodiffShow } from './hlodiff.js';

/** @typedef {import('../wire.js').Node} Node */

/**
 * What features/ hand the views that act on files (main.js viewsInit): a view may not import
 * features/.
 * @typedef {{openFile: (f: File) => Promise<any>, openFiles: (f: File[]) => Promise<any>, openExample: () => Promise<any>}} App
 */

/**
 * One view.
 * @typedef {object} View
 * @property {string} name
 * @property {'page' | 'content' | 'panel'} place
 * @property {string} root its root element's id: index.html's, or when index.html has none one
 *   made here (a page's <main> after the pages before it, a content view's <div> at the top
 *   of the content pane, in the table's order); '' for none
 * @property {(root: HTMLElement, ctx: {app: App, views: View[]}) => void} [init] its root, the
 *   features' openers, and the table (the content pane asks its content views)
 * @property {(n: Node) => any} [of] content: what it shows for the selected node n (null: it hides)
 * @property {(v?: any, n?: Node, from?: string) => void} [show] content: show v (of's answer) for n; page: it is now on show (no arguments)
 * @property {() => void} [hide] content: hide; page: it is no longer on show
 * @property {boolean} [alone] content: when it shows, the content views after it hide and the
 *   pane's title and bytes are its own (the libncfw context view)
 * @property {string} [instead] content: while it shows, the content view of that name does not
 *   (the schedule and the memory view take the overview's place)
 * @property {boolean} [sized] content: its height is the content pane's splitter's (style.css .content.sized)
 * @property {HTMLElement | null} [el] its root, once views are initialised
 */

/** @type {View[]} */
export const VIEWS = [
  // ---- the content pane's views, in the order they are asked (content.js renderContent) ----
  // A libncfw collective context: its printed text, alone above its struct's bytes.
  { name: 'context', place: 'content', root: 'ctx-view', init: ctxInit, of: ctxOf, show: ctxShow, hide: ctxHide, alone: true, sized: true },
  // While open, the schedule or the memory view takes the overview's place above the listing.
  { name: 'schedule', place: 'content', root: 'sched-view', init: scheduleInit, of: scheduleOf, show: scheduleShow, hide: scheduleHide, instead: 'overview' },
  { name: 'memory', place: 'content', root: 'mem-view', init: memviewInit, of: memviewOf, show: memviewShow, hide: memviewHide, instead: 'overview' },
  // The program in time: estimated from the NEFF, measured by its device profile, side by side.
  { name: 'time lanes', place: 'content', root: 'lanes-view', init: lanesInit, of: lanesOf, show: lanesShow, hide: lanesHide, instead: 'overview' },
  // A NEFF's landing view: its answers, the file's bytes below.
  { name: 'overview', place: 'content', root: 'overview-view', init: overviewInit, of: overviewOf, show: overviewShow, hide: overviewHide },
  { name: 'source', place: 'content', root: 'source-view', init: sourceInit, of: sourceOf, show: sourceShow, hide: sourceHide }, // the kernel's source lines
  { name: 'plot', place: 'content', root: 'plot-view', init: plotInit, of: functionOf, show: plotShow, hide: plotHide, sized: true }, // an activation function
  { name: 'listing', place: 'content', root: 'listing', init: listingInit, of: listingOf, show: listingShow, hide: listingHide, sized: true }, // an instruction stream's, or a .dbg member's records
  { name: 'json', place: 'content', root: 'json-view', init: jsonInit, of: jsonOf, show: jsonShow, hide: jsonHide, sized: true }, // a JSON member as a tree

  // ---- the panels: each follows the facts of state/events.js ----
  { name: 'detail', place: 'panel', root: 'detail', init: detailInit },
  { name: 'search', place: 'panel', root: 'search-box', init: searchInit },
  { name: 'summary', place: 'panel', root: 'summary', init: summaryInit },
  { name: 'findings', place: 'panel', root: 'findings', init: findingsInit },
  { name: 'structure', place: 'panel', root: 'tree', init: structureInit },
  // The content pane itself: its title, the content views above (of each selection), its bytes.
  { name: 'content', place: 'panel', root: 'content', init: contentInit },
  { name: 'bytes', place: 'panel', root: 'hex-wrap', init: hexInit },
  { name: 'source beside the listing', place: 'panel', root: '', init: sourcePaneInit }, // made inside the listing
  { name: 'sync card', place: 'panel', root: '', init: syncCardInit }, // a card of the overview
  { name: 'time beside the views', place: 'panel', root: '', init: timeHooksInit }, // the overview's time line, the listing's durations, the source pane's lines by time
  { name: 'library', place: 'panel', root: 'library', init: libInit },
  { name: 'linked file', place: 'panel', root: 'link-wanted', init: linkWantedInit }, // a link's file not open here: which to open
  { name: 'tabs', place: 'panel', root: 'tabbar', init: tabsInit },
  { name: 'compare', place: 'panel', root: 'compare', init: compareMenuInit }, // the Compare menu by the tabs
  { name: 'progress', place: 'panel', root: 'progress', init: progressInit },

  // ---- the pages (state/screen.js) ----
  { name: 'welcome', place: 'page', root: 'welcome', init: welcomeInit },
  // A file's header while it opens, before its document: the summary alone (style.css).
  { name: 'opening', place: 'page', root: '' },
  // The document's panes (structure, details, content) and their layout.
  { name: 'document', place: 'page', root: 'panes', init: layoutInit },
  { name: 'diff', place: 'page', root: 'diff-view', init: diffInit, show: diffShow }, // two NEFFs compared
  { name: 'many', place: 'page', root: 'many-view', init: manyInit, show: manyShow }, // three or more
  { name: 'cache', place: 'page', root: 'cache-view', init: cacheInit, show: cacheShow }, // a compile cache's folder

  // ---- XLA HLO modules (core/hlo) ----
  // A module in the content pane: where its document lands, the module at a glance (as a
  // dashboard); a computation's instructions or an instruction's wiring above its bytes. After
  // the overview: its show follows the overview's hide, which leaves the dashboard.
  { name: 'hlo module', place: 'content', root: 'hlo-view', init: hloInit, of: hloOf, show: hloShow, hide: hloHide },
  // Two modules, or two compile-cache entries, compared: why it recompiled.
  { name: 'graphdiff', place: 'page', root: 'hlodiff-view', init: hlodiffInit, show: hlodiffShow },
];

/**
 * viewsInit finds (or makes) every view's root, registers the pages with the screen, and runs
 * each view's init in the table's order: the order the views follow a new document and a
 * selection (the document page's layout comes after the content pane and the findings, whose
 * heights its splitters set).
 * @param {App} app
 */
export function viewsInit(app) {
  const content = $(VIEWS.find((v) => v.name === 'content').root);
  const top = content.firstElementChild;
  /** @type {Element | null} */
  let lastPage = null;
  for (const v of VIEWS) {
    v.el = v.root ? $(v.root) : null;
    if (!v.el && v.root && (v.place === 'content' || (v.place === 'page' && lastPage))) {
      v.el = el(v.place === 'page' ? 'main' : 'div');
      v.el.id = v.root;
      v.el.hidden = true;
      if (v.place === 'page') lastPage.after(v.el); else content.insertBefore(v.el, top);
    }
    if (v.root && !v.el) throw new Error('view ' + v.name + ': no element #' + v.root);
    if (v.place === 'page' && v.el) lastPage = v.el;
  }
  for (const v of VIEWS) if (v.place === 'page') registerPage(v.name, { root: v.el, show: v.show, hide: v.hide });
  for (const v of VIEWS) if (v.init) v.init(v.el, { app, views: VIEWS });
}
