//go:build js && wasm

package main

import (
	"context"
	"syscall/js"
	"time"

	"github.com/neffscope/neffscope/core/dbg"
	"github.com/neffscope/neffscope/core/doc"
	"github.com/neffscope/neffscope/core/inspect"
	"github.com/neffscope/neffscope/wasm/protocol"
	"github.com/tinylib/msgp/msgp"
)

// pausingReader is a reader of its own for a background call (indexSource): every 4 MiB it
// reads it lets the page's calls in, and while an open or another call runs it waits for it,
// as hashMembers' pause does; it reports how far it has read.
type pausingReader struct {
	b        *bridge
	src      *jsReaderAt
	progress func(inspect.Progress)
	since    int64 // bytes read since the last pause
}

// pauseEvery is how much a background reader reads between pauses (a sleep in wasm is a
// setTimeout: at least a few ms, so not one per read).
const pauseEvery = 4 << 20

func (p *pausingReader) ReadAt(buf []byte, off int64) (int, error) {
	if p.since >= pauseEvery {
		p.since = 0
		p.b.pause()
	} else {
		p.b.waitIdle()
	}
	n, err := p.src.ReadAt(buf, off)
	p.since += int64(n)
	if p.progress != nil {
		p.progress(inspect.Progress{Phase: "source", Done: off + int64(n), Total: p.src.size})
	}
	return n, err
}

// indexSource → {mapped, overview, source, contents, findings, ms}: the source lines an open
// with deferSource left out, mapped on a goroutine of its own (a long call: the page's other
// calls are answered meanwhile, the archive read again through a reader of its own for the
// .dbg members not held, pausing before each read), then put in the Document (inspect.File.ApplySource). The result
// is what ApplySource changed, for the page to patch its copy of the Document in place.
func (b *bridge) indexSource(ctx context.Context, r *request) (any, error) {
	f := r.file
	start := time.Now()
	b.mu.Lock()
	rd := b.readers[r.handle]
	pending := f.SourcePending()
	deferred := b.deferred[r.handle]
	b.mu.Unlock()
	if !deferred {
		return object("mapped", false, "ms", ms(start)), nil
	}
	if !pending { // mapped already (a call that needed the whole Document, or a call before)
		b.mu.Lock()
		defer b.mu.Unlock()
		return sourcePatch(f, start)
	}
	// Wait for an open or a sync call in flight before taking the CPU.
	b.waitIdle()
	var src *pausingReader
	if rd != nil {
		src = &pausingReader{b: b, src: newJSReaderAt(rd.readJS, rd.size, rd.chunk)} // its own read-ahead buffer
		if r.emit.Type() == js.TypeFunction {
			src.progress = throttledProgress(r, src.src)
		}
	}
	// Between pieces of CPU work (scans, joins) the mapping pauses as its reader does. The
	// .dbg members not held go to the pool workers when there are any (pool.go): what they do
	// not do is done here, so the mapping is the same.
	var m *inspect.MappedSource
	var err error
	switch p := b.poolFor(r.handle); {
	case src != nil && p != nil:
		m, err = f.IndexSourceIn(ctx, src, b.pause, p, nil)
	case src != nil:
		m, err = f.IndexSourceWith(ctx, src, b.pause)
	default:
		m, err = f.IndexSourceWith(ctx, nil, b.pause)
	}
	if err != nil {
		return nil, protocol.Wrap(protocol.Failed, err)
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	// A call that needed the whole Document (ensureSource) may have mapped them meanwhile:
	// the page gets what changed all the same.
	if f.SourcePending() {
		f.ApplySource(m)
	}
	return sourcePatch(f, start)
}

// ensureSource maps the source lines of f now, where a call needs the whole Document (json,
// diff, compare) and the background indexSource has not finished.
func (b *bridge) ensureSource(f *inspect.File) error {
	if !f.SourcePending() {
		return nil
	}
	m, err := f.IndexSource(context.Background(), nil)
	if err != nil {
		return err
	}
	b.mu.Lock()
	if f.SourcePending() {
		f.ApplySource(m)
	}
	b.mu.Unlock()
	return nil
}

// sourcePatch is what ApplySource changed in f's Document: the overview, the model's source
// node, the root's findings (the root without its children) and the .dbg members' content
// nodes (one msgpack array; each names its member by its ref), each msgpack.
func sourcePatch(f *inspect.File, start time.Time) (any, error) {
	root := f.Doc.Root
	var ov, src []byte
	if len(root.Children) > 0 && root.Children[0].Kind == doc.KindOverview {
		ov, _ = root.Children[0].MarshalMsg(nil)
	}
	if model := root.Child("model"); model != nil {
		for _, c := range model.Children {
			if c.Kind == doc.KindSource {
				src, _ = c.MarshalMsg(nil)
			}
		}
	}
	var contents []*doc.Node
	var walk func(n *doc.Node)
	walk = func(n *doc.Node) {
		for _, c := range n.Children {
			if c.Kind != doc.KindMember {
				walk(c)
				continue
			}
			_, mp := doc.ParseRef(c.Ref)
			if _, _, ok := dbg.Match(mp); ok {
				for _, k := range c.Children {
					if k.Label == "content" {
						contents = append(contents, k)
					}
				}
			}
		}
	}
	if members := root.Child("members"); members != nil {
		walk(members)
	}
	enc := msgp.AppendArrayHeader(nil, uint32(len(contents)))
	for _, c := range contents {
		enc, _ = c.MarshalMsg(enc)
	}
	bare := *root
	bare.Children = nil
	fb, _ := bare.MarshalMsg(nil)
	return object("mapped", true, "overview", buffer(ov), "source", buffer(src), "contents", buffer(enc), "findings", buffer(fb), "ms", ms(start)), nil
}
