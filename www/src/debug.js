// @ts-check
// globalThis.neffscope: the read-only surface the browser tests (e2e/) and the console use.

import { core } from './core/client.js';
import { embedded } from './config.js';
import { allowedOrigins, messagesSeen, urlProblem } from './features/embed.js';
import { holdSource } from './features/mapsource.js';
import { lastOpen } from './features/open.js';
import { linkWanted } from './features/permalink.js';
import { docs, state, switchDoc } from './state/docs.js';
import { hashWrites } from './state/selection.js';
import { ctx, lastRecontext } from './views/context.js';
import { diff } from './views/diff/compare.js';
import { hex } from './views/hex.js';
import { layoutState } from './views/layout.js';
import { lib, libCap, libRefresh } from './views/library.js';
import { plot, replot } from './views/plot/plot.js';
import { scheduleDebug, scheduleWindow } from './views/schedule.js';
import { lanesDebug } from './views/lanes.js';
import { mem, memviewBoxPoint, memviewPlace } from './views/memview.js';
import { search } from './views/search.js';
import { hlodiff } from './views/hlodiff.js';

// installDebugSurface publishes globalThis.neffscope: read-only peeks at the state for the
// browser tests (e2e/) and the console. Its names are a contract with the tests: keep them.
export function installDebugSurface() {
  globalThis.neffscope = {
    get state() { return state; },
    get core() { return { mode: core.mode, ready: core.ready, warm: core.warm, pool: core.pool }; },
    get lastOpen() { return lastOpen; },
    get docs() { return docs.map((d) => ({ file: d.doc.file, kind: d.doc.kind, current: d === state })); },
    get hex() { return { source: hex.source, hl: hex.hl && { off: hex.hl.off, len: hex.hl.len, src: hex.hl.src || '' }, cursor: hex.cursor }; },
    get plot() { return { ref: plot.ref, lo: plot.lo, hi: plot.hi, points: plot.data ? plot.data.n : 0, timing: plot.timing }; },
    get ctx() { return { arch: ctx.arch, rc: ctx.rc, lines: ctx.lines.length, text: ctx.text, marked: Array.from(ctx.marked), sel: ctx.sel, row: ctx.rows[ctx.sel] || null }; },
    get lastRecontext() { return lastRecontext; },
    get hashWrites() { return hashWrites; },
    get search() { return { q: search.q, done: search.done, more: search.more, results: search.results.length, errors: search.errors.slice(), notes: (search.notes || []).slice() }; },
    get library() { return { ok: lib.ok, reason: lib.reason, entries: lib.list.map((e) => ({ key: e.key, name: e.name, kind: e.kind, size: e.size, how: e.how, kept: (e.files || []).every((f) => f.kept), dropped: e.dropped || '' })), restored: lib.restored, cap: libCap(), puts: lib.puts, last: lib.last, unkept: lib.unkept.slice() }; },
    libRefresh,
    get embedding() { return { embedded, allowed: Array.from(allowedOrigins), messages: Object.assign({}, messagesSeen), url: urlProblem }; },
    get link() { return linkWanted(); },
    // the windows the schedule and the memory view would put in a link now (null: fitted)
    get windows() { return { schedule: scheduleWindow(), memory: memviewPlace() }; },
    // replot(lo, hi) samples and draws a new range now; resolves with {coreMs, decodeMs, drawMs, totalMs}.
    replot,
    switchDoc,
    // holdSource() holds the source mapping of the next opens back until the function it returns is called.
    holdSource,
    get layout() { return layoutState(); },
    // the schedule view (views/schedule.js): its window, selection and time to first screen; point(k, e, i) is a slice's middle in client pixels.
    get memory() { return { open: mem.open, boxes: mem.hits.length, selected: mem.sel ? Math.min(200, mem.sel.acc.length) : 0, point: memviewBoxPoint }; },
    get schedule() { return scheduleDebug(); },
    // the time lanes (views/lanes.js): what they show (measured, estimated and DMA lanes), the profile paired or refused, the selection; point(side, k, e, i) is an instruction's middle in client pixels.
    get lanes() { return lanesDebug(); },
    // the graph diff (views/hlodiff.js): the core's comparison as diff --json gives it.
    get hlodiff() {
      const d = hlodiff.d;
      return { shown: hlodiff.shown, a: docs.indexOf(hlodiff.a), b: docs.indexOf(hlodiff.b), ready: !!d || !!hlodiff.error, error: hlodiff.error, ms: hlodiff.ms,
        verdict: d ? d.verdict : '', neff: d && d.neff ? d.neff.code : '', counts: d ? d.counts : {}, json: hlodiff.json ? new TextDecoder().decode(hlodiff.json) : '' };
    },
    get diff() {
      const n = diff.node;
      return { shown: diff.shown, a: docs.indexOf(diff.a), b: docs.indexOf(diff.b), ready: !!n || !!diff.error, error: diff.error, ms: diff.ms, value: n ? n.value : '', hideSame: diff.hideSame };
    },
  };
}
