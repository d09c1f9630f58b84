//go:build js && wasm

package main

// Activation functions (core/pwp): evaluate and plot, and the context files that give a
// pwp its tables (openContext, recontext, contextArches).

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"syscall/js"
	"time"

	"github.com/neffscope/neffscope/core/inspect"
	"github.com/neffscope/neffscope/wasm/protocol"
)

// maxPlotPoints caps one plot() call: the page asks for 4,096 points per redraw.
const maxPlotPoints = 1 << 16

// evaluate → {node} (kind pwp-eval): the activation function ref evaluated at x, in mode.
func (b *bridge) evaluate(r *request) (any, error) {
	f := r.file
	x, err := parseX(r.args.Get("x"))
	if err != nil {
		return nil, protocol.Wrap(protocol.BadRequest, err)
	}
	n, err := f.Evaluate(r.str("ref"), x, r.str("mode"))
	if err != nil {
		return nil, refError(r.str("ref"), err)
	}
	return encodeNode(n)
}

// parseX reads an evaluator input: a JS number, or a string "0x3f000000" (bits) or "0.5".
func parseX(v js.Value) (float32, error) {
	if v.Type() == js.TypeNumber {
		return float32(v.Float()), nil
	}
	s := strings.TrimSpace(v.String())
	if h, ok := strings.CutPrefix(strings.ToLower(s), "0x"); ok {
		bits, err := strconv.ParseUint(h, 16, 32)
		if err != nil {
			return 0, fmt.Errorf("x %q: a 0x bit pattern has at most 8 hex digits", s)
		}
		return math.Float32frombits(uint32(bits)), nil
	}
	x, err := strconv.ParseFloat(s, 32)
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		return 0, fmt.Errorf("x %q is neither a decimal number nor a 0x bit pattern", s)
	}
	return float32(x), nil
}

// plot → {node, ms} (kind pwp-plot): n samples of the function over [lo, hi] (emulated, true,
// error series; boundaries and saturation intervals in its Table).
func (b *bridge) plot(r *request) (any, error) {
	start := time.Now()
	f := r.file
	n, err := r.int("n")
	if err != nil {
		return nil, err
	}
	if n < 2 || n > maxPlotPoints {
		return nil, protocol.Errorf(protocol.Limit, "plot: %d points; between 2 and %d", n, maxPlotPoints)
	}
	node, err := f.Plot(r.str("ref"), r.num("lo"), r.num("hi"), int(n), r.str("mode"))
	if err != nil {
		return nil, refError(r.str("ref"), err)
	}
	enc, err := node.MarshalMsg(nil)
	if err != nil {
		return nil, err
	}
	return object("node", buffer(enc), "ms", ms(start)), nil
}

// contextBytes is a raw libncfw context held in memory for re-emitting.
type contextBytes struct {
	name string
	data []byte
}

// maxContext bounds a raw context read into memory (core/inspect reads at most 64 MiB too).
const maxContext = 64 << 20

// openContext → {handle, doc, ms}: the file as a raw libncfw collective context emulated for
// arch (0: the best guess from its size). The bytes stay in the worker, so recontext can
// switch arch without reading the file again.
func (b *bridge) openContext(r *request) (any, error) {
	rd, name, err := fileArg(r, "file")
	if err != nil {
		return nil, err
	}
	if r.has("name") {
		name = r.str("name")
	}
	if rd.size > maxContext {
		return nil, protocol.Errorf(protocol.Limit, "openContext: %s is %d bytes; a context is read whole, at most %d bytes", name, rd.size, maxContext)
	}
	data := make([]byte, rd.size)
	n, err := rd.ReadAt(data, 0)
	if err != nil && !errors.Is(err, io.EOF) {
		return nil, err
	}
	c := &contextBytes{name: name, data: data[:n]}
	return b.emitContext(c, 0, archArg(r), r.str("model"))
}

// recontext → {handle, doc, ms}: the context of handle emulated again for another arch (or
// model name), under the same handle.
func (b *bridge) recontext(r *request) (any, error) {
	return b.emitContext(r.context, r.handle, archArg(r), r.str("model"))
}

// archArg reads the optional arch; anything but a whole number in uint32 range is 0 (guess).
func archArg(r *request) uint32 {
	a := r.num("arch")
	if a < 0 || a > math.MaxUint32 || a != math.Trunc(a) {
		return 0
	}
	return uint32(a)
}

func (b *bridge) emitContext(c *contextBytes, h int, arch uint32, model string) (any, error) {
	start := time.Now()
	f := inspect.OpenContext(c.name, bytes.NewReader(c.data), int64(len(c.data)), arch, model)
	h, enc, err := b.keep(f, h)
	if err != nil {
		return nil, err
	}
	b.mu.Lock()
	b.contexts[h] = c
	b.mu.Unlock()
	return object("handle", h, "doc", buffer(enc), "ms", ms(start)), nil
}

// contextArches → {node} (kind ncfw-arches): the arches a raw context of size bytes could
// be, with which fit and the best guess.
func (b *bridge) contextArches(r *request) (any, error) {
	size, err := r.int("size")
	if err != nil {
		return nil, err
	}
	return encodeNode(inspect.ContextArches(size))
}
