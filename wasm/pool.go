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
// to every worker; a Blob is cloned without its bytes).
func (b *bridge) poolFor(handle int) pool.Pool {
	host := b.global.Get("pool")
	if host.Type() != js.TypeObject || host.Get("run").Type() != js.TypeFunction {
		return nil
	}
	b.mu.Lock()
	rd := b.readers[handle]
	b.mu.Unlock()
	if rd == nil || rd.blob.Type() != js.TypeObject {
		return nil
	}
	n := host.Call("size").Int()
	if n <= 0 {
		return nil
	}
	return &pagePool{host: host, size: n, file: rd.blob}
}

func (p *pagePool) Size() int { return p.size }

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
	p.host.Call("run", j.Kind, buffer(j.Data), p.file).Call("then", ok, bad)
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
