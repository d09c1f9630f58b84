//go:build js && wasm

package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"syscall/js"
	"time"

	"github.com/neffscope/neffscope/core/doc"
	"github.com/neffscope/neffscope/core/inspect"
)

// GlobalName is the global object the bridge registers; worker.js calls its functions.
const GlobalName = "neffscopeCore"

// maxBytesRange caps one bytes() call, so a hostile or buggy request cannot ask the wasm
// heap for gigabytes; the hex view asks for pages of a few KiB.
const maxBytesRange = 16 << 20

// progressEvery throttles progress callbacks: each one crosses into JS and posts a message.
const progressEvery = 40 * time.Millisecond

// bridge holds the files opened in this wasm instance, by handle.
type bridge struct {
	mu    sync.Mutex
	next  int
	files map[int]*inspect.File
	// contexts keeps the bytes of each raw libncfw context by handle, so an arch switch
	// (recontext) re-emits from memory without reading the file again.
	contexts map[int]*contextBytes
	funcs    []js.Func
	global   js.Value
	// the IndexedDB library (library.go), opened on first use
	libOnce sync.Once
	library *library
}

// register installs globalThis.neffscopeCore = {open, bytes, close, rows, instruction,
// evaluate, plot, openGroup, openContext, recontext, contextArches, json, diff, setFingerprint,
// libStatus, libPut, libList, libGet, libRemove, libClear, version, model} and
// returns the bridge (tests use it to release the functions).
func register() *bridge {
	b := &bridge{files: map[int]*inspect.File{}, contexts: map[int]*contextBytes{}}
	obj := js.Global().Get("Object").New()
	obj.Set("open", b.fn(b.open))
	obj.Set("bytes", b.fn(b.bytes))
	obj.Set("close", b.fn(b.close))
	obj.Set("rows", b.fn(b.rows))
	obj.Set("instruction", b.fn(b.instruction))
	obj.Set("evaluate", b.fn(b.evaluate))
	obj.Set("plot", b.fn(b.plot))
	obj.Set("openGroup", b.fn(b.openGroup))
	obj.Set("openContext", b.fn(b.openContext))
	obj.Set("recontext", b.fn(b.recontext))
	obj.Set("contextArches", b.fn(b.contextArches))
	obj.Set("json", b.fn(b.docJSON))
	obj.Set("setFingerprint", b.fn(b.setFingerprint))
	obj.Set("libStatus", b.fn(b.libStatus))
	obj.Set("libPut", b.fn(b.libPut))
	obj.Set("libList", b.fn(b.libList))
	obj.Set("libGet", b.fn(b.libGet))
	obj.Set("libRemove", b.fn(b.libRemove))
	obj.Set("libClear", b.fn(b.libClear))
	obj.Set("diff", b.fn(b.diff))
	obj.Set("model", doc.ModelVersion)
	obj.Set("version", runtime.Version())
	js.Global().Set(GlobalName, obj)
	b.global = obj
	return b
}

// release undoes register.
func (b *bridge) release() {
	js.Global().Delete(GlobalName)
	for _, f := range b.funcs {
		f.Release()
	}
}

// fn wraps an entry point so that a Go panic becomes {error: "..."} instead of killing the
// worker's Go runtime: every later call would fail otherwise.
func (b *bridge) fn(entry func(args []js.Value) (any, error)) js.Func {
	f := js.FuncOf(func(_ js.Value, args []js.Value) (result any) {
		defer func() {
			if p := recover(); p != nil {
				result = errorValue(fmt.Errorf("internal error in neffscope core: %v\n%s", p, debug.Stack()))
			}
		}()
		v, err := entry(args)
		if err != nil {
			return errorValue(err)
		}
		return v
	})
	b.funcs = append(b.funcs, f)
	return f
}

func errorValue(err error) js.Value {
	o := js.Global().Get("Object").New()
	o.Set("error", err.Error())
	return o
}

// open(readSlice, size, name, opts) → {handle, doc: Uint8Array (msgpack Document), ms}
// readSlice(off, n) must return a Uint8Array of n bytes (fewer only at the end of the file).
// opts may hold progress(p) and header(Uint8Array) callbacks and maxInflated (bytes).
func (b *bridge) open(args []js.Value) (any, error) {
	if len(args) < 3 || args[0].Type() != js.TypeFunction {
		return nil, errors.New("open(readSlice, size, name, opts): readSlice must be a function")
	}
	size := int64(args[1].Float())
	if size < 0 {
		return nil, fmt.Errorf("open: negative size %d", size)
	}
	name := args[2].String()
	var opts js.Value
	if len(args) > 3 && args[3].Type() == js.TypeObject {
		opts = args[3]
	}
	r := newJSReaderAt(args[0], size, 0)
	opt := inspect.Options{Fingerprint: true}
	if opts.Truthy() {
		// fingerprint: false — the page computes the file's sha-256 itself (WebCrypto, in
		// parallel with this open) and hands it over with setFingerprint.
		if fp := opts.Get("fingerprint"); fp.Type() == js.TypeBoolean && !fp.Bool() {
			opt.Fingerprint = false
		}
		if m := opts.Get("maxInflated"); m.Type() == js.TypeNumber {
			opt.MaxInflated = int64(m.Float())
		}
		if cb := opts.Get("progress"); cb.Type() == js.TypeFunction {
			opt.Progress = throttledProgress(cb, r)
		}
		if cb := opts.Get("header"); cb.Type() == js.TypeFunction {
			opt.OnHeader = func(d *doc.Document) {
				if enc, err := d.MarshalMsg(nil); err == nil {
					cb.Invoke(toUint8Array(enc))
				}
			}
		}
	}
	start := time.Now()
	f := inspect.Open(name, r, size, opt)
	out, err := b.keep(f, 0)
	if err != nil {
		return nil, err
	}
	out.Set("ms", float64(time.Since(start).Microseconds())/1000)
	out.Set("crossings", r.crossings)
	return out, nil
}

// setFingerprint(handle, sha256hex) → true: the file's sha-256, computed by the page, becomes
// the Document's fingerprint — where the core would have computed one itself: not for a NEFF
// whose archive could not be read to its end (the CLI leaves it empty there too).
func (b *bridge) setFingerprint(args []js.Value) (any, error) {
	if len(args) < 2 {
		return nil, errors.New("setFingerprint(handle, sha256): two arguments")
	}
	f, err := b.file(args[0])
	if err != nil {
		return nil, err
	}
	sum := strings.ToLower(args[1].String())
	if len(sum) != 64 || strings.Trim(sum, "0123456789abcdef") != "" {
		return nil, fmt.Errorf("setFingerprint: %q is not a sha-256 in hex", sum)
	}
	if f.Archive != nil && !f.Archive.Complete {
		return false, nil
	}
	b.mu.Lock()
	f.Doc.SHA256 = sum
	b.mu.Unlock()
	return true, nil
}

// keep stores f under a new handle (or under handle h when h > 0, replacing what was there)
// and returns {handle, doc: Uint8Array (msgpack Document), name}.
func (b *bridge) keep(f *inspect.File, h int) (js.Value, error) {
	enc, err := f.Doc.MarshalMsg(nil)
	if err != nil {
		return js.Value{}, fmt.Errorf("encoding the document of %s: %v", f.Name, err)
	}
	b.mu.Lock()
	if h <= 0 {
		b.next++
		h = b.next
	}
	b.files[h] = f
	b.mu.Unlock()
	out := js.Global().Get("Object").New()
	out.Set("handle", h)
	out.Set("doc", toUint8Array(enc))
	out.Set("name", f.Name)
	return out, nil
}

// bytes(handle, source, off, n) → Uint8Array: n bytes at off of the file ("") or a member.
func (b *bridge) bytes(args []js.Value) (any, error) {
	if len(args) < 4 {
		return nil, errors.New("bytes(handle, source, off, n): four arguments")
	}
	f, err := b.file(args[0])
	if err != nil {
		return nil, err
	}
	off, n := int64(args[2].Float()), int64(args[3].Float())
	if off < 0 || n < 0 {
		return nil, fmt.Errorf("bytes: bad range %d+%d", off, n)
	}
	n = min(n, maxBytesRange)
	data, err := f.Bytes(args[1].String(), off, n)
	if err != nil && len(data) == 0 {
		return nil, err
	}
	return toUint8Array(data), nil
}

// json(handle) → Uint8Array: the Document as the CLI's `neffscope inspect --json` prints it
// (one-space indent, a final newline), byte for byte, for the page's export.
func (b *bridge) docJSON(args []js.Value) (any, error) {
	if len(args) < 1 {
		return nil, errors.New("json(handle): one argument")
	}
	f, err := b.file(args[0])
	if err != nil {
		return nil, err
	}
	out, err := f.Doc.JSON()
	if err != nil {
		return nil, fmt.Errorf("encoding the document of %s as JSON: %v", f.Name, err)
	}
	return toUint8Array(append(out, '\n')), nil
}

// diff(handleA, handleB, format) → Uint8Array: the two open files compared (inspect.Diff), as
// a msgpack doc.Node (format "" or absent), or with format "json" as `neffscope diff --json A B`
// prints it (encoding/json, two-space indent, a final newline), byte for byte, for the page's
// export. Files that are not NEFFs give a diff node whose error finding says so.
func (b *bridge) diff(args []js.Value) (any, error) {
	if len(args) < 2 {
		return nil, errors.New("diff(handleA, handleB, format): two handles")
	}
	fa, err := b.file(args[0])
	if err != nil {
		return nil, fmt.Errorf("diff, file a: %v", err)
	}
	fb, err := b.file(args[1])
	if err != nil {
		return nil, fmt.Errorf("diff, file b: %v", err)
	}
	d := inspect.Diff(fa, fb)
	switch format := optString(args, 2); format {
	case "":
		return encodeNode(d)
	case "json":
		out, err := doc.NodeJSON(d, 2)
		if err != nil {
			return nil, fmt.Errorf("encoding the diff as JSON: %v", err)
		}
		return toUint8Array(append(out, '\n')), nil
	default:
		return nil, fmt.Errorf("diff: format %q; \"\" (msgpack) or \"json\"", format)
	}
}

// maxRows caps one rows() call: the listing asks for a screenful at a time.
const maxRows = 10000

// rows(handle, ref, from, to) → {table: Uint8Array (msgpack doc.Table), total}: rows [from, to)
// of an instruction listing (ref "stream:<member>", from a node's Ref), and how many there are.
func (b *bridge) rows(args []js.Value) (any, error) {
	if len(args) < 4 {
		return nil, errors.New("rows(handle, ref, from, to): four arguments")
	}
	f, err := b.file(args[0])
	if err != nil {
		return nil, err
	}
	from, to := args[2].Int(), args[3].Int()
	if from < 0 || to < from {
		return nil, fmt.Errorf("rows: bad range %d..%d", from, to)
	}
	to = min(to, from+maxRows)
	t, total, err := f.Rows(args[1].String(), from, to)
	if err != nil {
		return nil, err
	}
	enc, err := t.MarshalMsg(nil)
	if err != nil {
		return nil, err
	}
	out := js.Global().Get("Object").New()
	out.Set("table", toUint8Array(enc))
	out.Set("total", total)
	return out, nil
}

// instruction(handle, ref, i) → Uint8Array (msgpack doc.Node): every field of instruction i.
func (b *bridge) instruction(args []js.Value) (any, error) {
	if len(args) < 3 {
		return nil, errors.New("instruction(handle, ref, i): three arguments")
	}
	f, err := b.file(args[0])
	if err != nil {
		return nil, err
	}
	n, err := f.Instruction(args[1].String(), args[2].Int())
	if err != nil {
		return nil, err
	}
	enc, err := n.MarshalMsg(nil)
	if err != nil {
		return nil, err
	}
	return toUint8Array(enc), nil
}

// maxPlotPoints caps one plot() call: the page asks for 4,096 points per redraw.
const maxPlotPoints = 1 << 16

// evaluate(handle, ref, x, mode) → Uint8Array (msgpack doc.Node of kind "pwp-eval"): the
// activation function ref ("pwp:<profile>#<function>") evaluated at x, a string holding a
// decimal float or a 0x-prefixed float32 bit pattern (so NaN payloads survive), in mode ""
// (the default), "sim" or "horner".
func (b *bridge) evaluate(args []js.Value) (any, error) {
	if len(args) < 3 {
		return nil, errors.New("evaluate(handle, ref, x, mode): at least three arguments")
	}
	f, err := b.file(args[0])
	if err != nil {
		return nil, err
	}
	x, err := parseX(args[2])
	if err != nil {
		return nil, err
	}
	n, err := f.Evaluate(args[1].String(), x, optString(args, 3))
	if err != nil {
		return nil, err
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

// plot(handle, ref, lo, hi, n, mode) → Uint8Array (msgpack doc.Node of kind "pwp-plot"): n
// samples of the function over [lo, hi] (emulated, true, error series; boundaries and
// saturation intervals in its Table).
func (b *bridge) plot(args []js.Value) (any, error) {
	if len(args) < 5 {
		return nil, errors.New("plot(handle, ref, lo, hi, n, mode): at least five arguments")
	}
	f, err := b.file(args[0])
	if err != nil {
		return nil, err
	}
	n := args[4].Int()
	if n < 2 || n > maxPlotPoints {
		return nil, fmt.Errorf("plot: %d points; between 2 and %d", n, maxPlotPoints)
	}
	node, err := f.Plot(args[1].String(), args[2].Float(), args[3].Float(), n, optString(args, 5))
	if err != nil {
		return nil, err
	}
	return encodeNode(node)
}

// openGroup([{readSlice, size, name}, ...]) → [{handle, doc, name}, ...]: files dropped
// together. Activation-table files join into one document; any other file is its own.
func (b *bridge) openGroup(args []js.Value) (any, error) {
	if len(args) < 1 || args[0].Type() != js.TypeObject {
		return nil, errors.New("openGroup(files): files must be an array of {readSlice, size, name}")
	}
	list := args[0]
	count := list.Length()
	if count == 0 || count > 1000 {
		return nil, fmt.Errorf("openGroup: %d files; between 1 and 1000", count)
	}
	files := make([]inspect.NamedReader, count)
	for i := range count {
		e := list.Index(i)
		rs := e.Get("readSlice")
		if rs.Type() != js.TypeFunction {
			return nil, fmt.Errorf("openGroup: file %d has no readSlice function", i)
		}
		size := int64(e.Get("size").Float())
		if size < 0 {
			return nil, fmt.Errorf("openGroup: file %d has negative size", i)
		}
		files[i] = inspect.NamedReader{Name: e.Get("name").String(), R: newJSReaderAt(rs, size, 0), Size: size}
	}
	out := js.Global().Get("Array").New()
	for _, f := range inspect.OpenGroup(files, inspect.Options{Fingerprint: true}) {
		v, err := b.keep(f, 0)
		if err != nil {
			return nil, err
		}
		out.Call("push", v)
	}
	return out, nil
}

// contextBytes is a raw libncfw context held in memory for re-emitting.
type contextBytes struct {
	name string
	data []byte
}

// maxContext bounds a raw context read into memory (core/inspect reads at most 64 MiB too).
const maxContext = 64 << 20

// openContext(readSlice, size, name, arch, model) → {handle, doc, name}: the file as a raw
// libncfw collective context emulated for arch (0: the best guess from its size). The bytes
// stay in the worker, so recontext can switch arch without reading the file again.
func (b *bridge) openContext(args []js.Value) (any, error) {
	if len(args) < 3 || args[0].Type() != js.TypeFunction {
		return nil, errors.New("openContext(readSlice, size, name, arch, model): readSlice must be a function")
	}
	size := int64(args[1].Float())
	if size < 0 || size > maxContext {
		return nil, fmt.Errorf("openContext: size %d; a context is read whole, at most %d bytes", size, maxContext)
	}
	data := make([]byte, size)
	n, err := newJSReaderAt(args[0], size, 0).ReadAt(data, 0)
	if err != nil && !errors.Is(err, io.EOF) {
		return nil, err
	}
	c := &contextBytes{name: args[2].String(), data: data[:n]}
	return b.emitContext(c, 0, optUint(args, 3), optString(args, 4))
}

// recontext(handle, arch, model) → {handle, doc, name}: the context of handle emulated again
// for another arch (or model name), under the same handle.
func (b *bridge) recontext(args []js.Value) (any, error) {
	if len(args) < 2 || args[0].Type() != js.TypeNumber {
		return nil, errors.New("recontext(handle, arch, model): two or three arguments")
	}
	h := args[0].Int()
	b.mu.Lock()
	c := b.contexts[h]
	b.mu.Unlock()
	if c == nil {
		return nil, fmt.Errorf("handle %d is not an open libncfw context", h)
	}
	return b.emitContext(c, h, optUint(args, 1), optString(args, 2))
}

func (b *bridge) emitContext(c *contextBytes, h int, arch uint32, model string) (any, error) {
	start := time.Now()
	f := inspect.OpenContext(c.name, bytes.NewReader(c.data), int64(len(c.data)), arch, model)
	out, err := b.keep(f, h)
	if err != nil {
		return nil, err
	}
	b.mu.Lock()
	b.contexts[out.Get("handle").Int()] = c
	b.mu.Unlock()
	out.Set("ms", float64(time.Since(start).Microseconds())/1000)
	return out, nil
}

// contextArches(size) → Uint8Array (msgpack doc.Node "ncfw-arches"): the arches a raw
// context of size bytes could be, with which fit and the best guess.
func (b *bridge) contextArches(args []js.Value) (any, error) {
	if len(args) < 1 || args[0].Type() != js.TypeNumber {
		return nil, errors.New("contextArches(size): size must be a number")
	}
	return encodeNode(inspect.ContextArches(int64(args[0].Float())))
}

func optString(args []js.Value, i int) string {
	if len(args) > i && args[i].Type() == js.TypeString {
		return args[i].String()
	}
	return ""
}

func optUint(args []js.Value, i int) uint32 {
	if len(args) > i && args[i].Type() == js.TypeNumber && args[i].Float() >= 0 && args[i].Float() <= math.MaxUint32 {
		return uint32(args[i].Float())
	}
	return 0
}

func encodeNode(n *doc.Node) (any, error) {
	enc, err := n.MarshalMsg(nil)
	if err != nil {
		return nil, err
	}
	return toUint8Array(enc), nil
}

// close(handle) forgets a file.
func (b *bridge) close(args []js.Value) (any, error) {
	if len(args) < 1 {
		return nil, errors.New("close(handle): one argument")
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	delete(b.files, args[0].Int())
	delete(b.contexts, args[0].Int())
	return true, nil
}

func (b *bridge) file(h js.Value) (*inspect.File, error) {
	if h.Type() != js.TypeNumber {
		return nil, errors.New("handle must be a number")
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	f := b.files[h.Int()]
	if f == nil {
		return nil, fmt.Errorf("no open file with handle %d (it was closed, or the worker restarted)", h.Int())
	}
	return f, nil
}

func toUint8Array(b []byte) js.Value {
	a := js.Global().Get("Uint8Array").New(len(b))
	js.CopyBytesToJS(a, b)
	return a
}

// throttledProgress forwards progress to cb at most every progressEvery, plus every phase
// change, as {phase, done, total, inflated, read}.
func throttledProgress(cb js.Value, r *jsReaderAt) func(inspect.Progress) {
	var last time.Time
	lastPhase := ""
	return func(p inspect.Progress) {
		now := time.Now()
		if p.Phase == lastPhase && now.Sub(last) < progressEvery {
			return
		}
		last, lastPhase = now, p.Phase
		o := js.Global().Get("Object").New()
		o.Set("phase", p.Phase)
		o.Set("done", float64(p.Done))
		o.Set("total", float64(p.Total))
		o.Set("inflated", float64(p.Inflated))
		o.Set("read", float64(r.read))
		cb.Invoke(o)
	}
}

// ---- reading the File through JS ----

// defaultReadAhead is how much one crossing into JS fetches. In Chromium each crossing is a
// FileReaderSync read (a new ArrayBuffer, a trip to the blob store): a 200 MiB open took
// 5.6 s of core time with 512 KiB reads, 4.6 s with 4 MiB and 4.0 s with 16 MiB, whose
// buffers double the wasm heap. 4 MiB is the knee.
const defaultReadAhead = 4 << 20

// jsReaderAt is an io.ReaderAt over a JS function readSlice(off, n) → Uint8Array (in the
// worker: FileReaderSync over file.slice), with a read-ahead buffer so small sequential reads
// cost one JS call per chunk. The File is never copied whole into wasm memory.
type jsReaderAt struct {
	readSlice js.Value
	size      int64
	chunk     int
	buf       []byte
	bufOff    int64
	crossings int   // JS calls made, for tests and the benchmark figures
	read      int64 // bytes fetched from JS
}

func newJSReaderAt(readSlice js.Value, size int64, chunk int) *jsReaderAt {
	if chunk <= 0 {
		chunk = defaultReadAhead
	}
	return &jsReaderAt{readSlice: readSlice, size: size, chunk: chunk}
}

func (r *jsReaderAt) ReadAt(p []byte, off int64) (int, error) {
	if off < 0 {
		return 0, fmt.Errorf("read at negative offset %d", off)
	}
	n := 0
	for n < len(p) && off < r.size {
		if off >= r.bufOff && off < r.bufOff+int64(len(r.buf)) {
			c := copy(p[n:], r.buf[off-r.bufOff:])
			n += c
			off += int64(c)
			continue
		}
		want := min(int64(len(p)-n), r.size-off)
		if want >= int64(r.chunk) {
			// A big read goes straight into p: no point in buffering it.
			c, err := r.fetch(p[n:n+int(want)], off)
			n += c
			off += int64(c)
			if err != nil {
				return n, err
			}
			continue
		}
		fill := min(int64(r.chunk), r.size-off)
		if cap(r.buf) < int(fill) {
			r.buf = make([]byte, r.chunk)
		}
		r.buf = r.buf[:fill]
		c, err := r.fetch(r.buf, off)
		r.buf, r.bufOff = r.buf[:c], off
		if err != nil {
			r.buf = r.buf[:0]
			return n, err
		}
	}
	if n < len(p) {
		return n, io.EOF
	}
	return n, nil
}

// fetch fills dst from JS at off; a JS exception (the file changed or vanished on disk)
// becomes an error.
func (r *jsReaderAt) fetch(dst []byte, off int64) (n int, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("reading %d bytes at offset %d of the file failed: %v (was the file changed or removed while open?)", len(dst), off, p)
		}
	}()
	r.crossings++
	v := r.readSlice.Invoke(float64(off), len(dst))
	if v.Type() != js.TypeObject {
		return 0, fmt.Errorf("readSlice(%d, %d) returned %s, not a Uint8Array", off, len(dst), v.Type())
	}
	n = js.CopyBytesToGo(dst, v)
	r.read += int64(n)
	if n == 0 {
		return 0, fmt.Errorf("reading at offset %d of the file gave no bytes (was it truncated while open?)", off)
	}
	return n, nil
}
