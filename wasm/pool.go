//go:build js && wasm

package main

// The page's pool (core/pool): the core worker's host (www/src/worker/pool.js) starts pool
// workers, each this same wasm, and publishes neffscopeCore.pool = {size(), run(kind, job,
// file) → Promise<ArrayBuffer>}. A pool worker answers the one method poolRun. Jobs are handed
// out only from the goroutines of long calls (indexSource, hashMembers): waiting for an answer
// is waiting for a JS event, which a sync call, holding the worker's one thread, would never
// let in.

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"syscall/js"

	"github.com/neffscope/neffscope/core/pool"
)

// pagePool is a pool.Pool over the pool workers the host published, for one file (the Blob
// each worker reads its stretches from).
type pagePool struct {
	host js.Value // neffscopeCore.pool
	size int
	file js.Value
}

// poolFor is the pool for the open under handle, or nil: no pool workers (none could be
// started here, or the core runs on the page), or the file is not a Blob (bytes would be copied
// to every worker; a Blob is cloned without its bytes). This thread is one of its workers
// (pool.Local, pausing as the background calls do): it would otherwise wait idle for the
// others' answers.
func (b *bridge) poolFor(handle int) pool.Pool {
	b.mu.Lock()
	rd := b.readers[handle]
	b.mu.Unlock()
	return b.poolOn(rd)
}

// poolOn is poolFor for the file rd reads (the open's own, before it has a handle).
func (b *bridge) poolOn(rd *jsReaderAt) pool.Pool {
	host := b.global.Get("pool")
	if host.Type() != js.TypeObject || host.Get("run").Type() != js.TypeFunction {
		return nil
	}
	if rd == nil || rd.blob.Type() != js.TypeObject {
		return nil
	}
	n := host.Call("size").Int()
	if n <= 0 {
		return nil
	}
	local := pool.Local(newJSReaderAt(rd.readJS, rd.size, rd.chunk), b.pause) // its own read-ahead buffer
	var workers pool.Pool = &pagePool{host: host, size: n, file: rd.blob}
	if host.Get("ahead").Type() == js.TypeFunction {
		workers = pageAhead{workers.(*pagePool)}
	}
	return pool.With(workers, local)
}

func (p *pagePool) Size() int { return p.size }

// poolStarting says whether the host has pool workers that have not said they are ready.
func (b *bridge) poolStarting() bool {
	host := b.global.Get("pool")
	if host.Type() != js.TypeObject {
		return false
	}
	st := host.Get("stats")
	return st.Type() == js.TypeObject && st.Get("ready").Int() < st.Get("size").Int()
}

// pageAhead is the page's pool as a pool.Ahead, where the host can start jobs ahead: it keeps
// their answers (outside the wasm memory) by a key of the job's kind and bytes, and hands one
// over when Run asks for the same job.
type pageAhead struct{ *pagePool }

func (p pageAhead) Ahead(_ context.Context, jobs []pool.Job) {
	p.host.Call("forget")
	// The host hands a worker its next job only on this thread's events, which the open
	// holds back until it ends: so the workers are sent their shares at once (eager), and the
	// rest wait for whoever is free after the open, this thread included (pool.With).
	eager := len(jobs) - len(jobs)/(p.size+1)
	for i, j := range jobs {
		p.host.Call("ahead", j.Kind, buffer(j.Data), p.file, aheadKey(j), i < eager)
	}
}

func (p pageAhead) Claim(j pool.Job) bool { return p.host.Call("claim", aheadKey(j)).Bool() }

func (p pageAhead) Forget() { p.host.Call("forget") }

// aheadKey names a job by its kind and bytes.
func aheadKey(j pool.Job) string {
	h := sha256.New()
	h.Write([]byte(j.Kind))
	h.Write([]byte{0})
	h.Write(j.Data)
	return hex.EncodeToString(h.Sum(nil))
}

// Run hands the job to a pool worker and waits for its answer; an error (the worker died, its
// job failed, ctx ended) has the caller do the work itself. On ctx's end the job is abandoned:
// its answer, when it comes, is dropped (the caller has given its share of the budget back).
func (p *pagePool) Run(ctx context.Context, j pool.Job) ([]byte, error) {
	type settled struct {
		answer []byte
		err    error
	}
	ch := make(chan settled, 1)
	var ok, bad js.Func
	ok = js.FuncOf(func(_ js.Value, a []js.Value) any {
		defer ok.Release()
		defer bad.Release()
		if len(a) == 0 || !a[0].InstanceOf(js.Global().Get("ArrayBuffer")) {
			ch <- settled{err: errors.New("a pool worker answered without bytes")}
			return nil
		}
		ch <- settled{answer: jsBytes(a[0])}
		return nil
	})
	bad = js.FuncOf(func(_ js.Value, a []js.Value) any {
		defer ok.Release()
		defer bad.Release()
		why := "no reason given"
		if len(a) > 0 {
			if m := a[0].Get("message"); m.Type() == js.TypeString {
				why = m.String()
			} else {
				why = js.Global().Get("String").Invoke(a[0]).String()
			}
		}
		ch <- settled{err: fmt.Errorf("a pool worker's %s job: %s", j.Kind, why)}
		return nil
	})
	p.host.Call("run", j.Kind, buffer(j.Data), p.file, aheadKey(j)).Call("then", ok, bad)
	select {
	case s := <-ch:
		return s.answer, s.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// poolRun → {answer, wasmBytes}: a pool worker runs one job on its file.
func (b *bridge) poolRun(r *request) (any, error) {
	rd, _, err := fileArg(r, "file")
	if err != nil {
		return nil, err
	}
	answer, err := pool.Run(context.Background(), r.str("kind"), jsBytes(r.args.Get("job")), rd)
	if err != nil {
		return nil, err
	}
	return object("answer", buffer(answer), "wasmBytes", b.wasmBytes()), nil
}

// jsBytes copies a Uint8Array or ArrayBuffer into Go.
func jsBytes(v js.Value) []byte {
	a := js.Global().Get("Uint8Array").New(v)
	b := make([]byte, a.Length())
	js.CopyBytesToGo(b, a)
	return b
}
