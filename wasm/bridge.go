//go:build js && wasm

package main

import (
	"context"
	"fmt"
	"math"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"
	"sync/atomic"
	"syscall/js"
	"time"

	"github.com/neffscope/neffscope/core/doc"
	"github.com/neffscope/neffscope/core/inspect"
	"github.com/neffscope/neffscope/wasm/protocol"
)

// GlobalName is the global object the bridge registers: {call, methods, version, model}.
// worker.js forwards every request to call(method, args, emit), which returns a Promise.
const GlobalName = "neffscopeCore"

// asyncTimeout bounds a call that waits on JS events (the IndexedDB library).
const asyncTimeout = 20 * time.Second

// bridge holds the files opened in this wasm instance, by handle.
type bridge struct {
	// lastPause is when a background call last yielded to the page's events (pause), in ns.
	lastPause atomic.Int64
	mu        sync.Mutex
	next      int
	files     map[int]*inspect.File
	// contexts keeps the bytes of each raw libncfw context by handle, so an arch switch
	// (recontext) re-emits from memory without reading the file again.
	contexts map[int]*contextBytes
	handlers map[string]handler
	funcs    []js.Func
	global   js.Value
	// readers keeps the File reader of each open by handle (hashMembers clones it);
	// digests, the channels opens wait on for the page's digests, by token (hashes.go).
	readers map[int]*jsReaderAt
	digests map[int]chan pageDigests
	// deferred marks the opens whose source lines were left out (deferSource): indexSource
	// answers them with what the mapping changed, whoever mapped it (source.go).
	deferred map[int]bool
	// opening counts the opens running, busy the sync calls (a background hashMembers waits
	// while either runs).
	opening, busy atomic.Int32
	// the IndexedDB library (library.go), opened on first use
	libOnce sync.Once
	library *library
}

// handler answers one method of the protocol table. A sync handler runs inside call (it may
// read the file through FileReaderSync); an async one runs on its own goroutine, for calls
// that wait on JS events, which are delivered only while call has returned.
type handler struct {
	run   func(ctx context.Context, r *request) (any, error)
	async bool
	// long: async without asyncTimeout (an open, which may wait for the page's digests).
	long bool
}

func (b *bridge) sync(run func(r *request) (any, error)) handler {
	return handler{run: func(_ context.Context, r *request) (any, error) { return run(r) }}
}

func (b *bridge) async(run func(ctx context.Context, r *request) (any, error)) handler {
	return handler{run: run, async: true}
}

func (b *bridge) long(run func(ctx context.Context, r *request) (any, error)) handler {
	return handler{run: run, async: true, long: true}
}

// register installs globalThis.neffscopeCore and returns the bridge (tests release it).
func register() *bridge {
	b := &bridge{files: map[int]*inspect.File{}, contexts: map[int]*contextBytes{}, readers: map[int]*jsReaderAt{}, digests: map[int]chan pageDigests{}, deferred: map[int]bool{}}
	b.handlers = map[string]handler{
		"open":           b.long(b.open),
		"digests":        b.sync(b.digestsCall),
		"hashMembers":    b.long(b.hashMembers),
		"indexSource":    b.long(b.indexSource),
		"setFingerprint": b.sync(b.setFingerprint),
		"bytes":          b.sync(b.bytes),
		"rows":           b.sync(b.rows),
		"instruction":    b.sync(b.instruction),
		"node":           b.sync(b.node),
		"children":       b.sync(b.children),
		"search":         b.sync(b.search),
		"locate":         b.sync(b.locate),
		"evaluate":       b.sync(b.evaluate),
		"plot":           b.sync(b.plot),
		"schedule":       b.sync(b.schedule), // sched.go
		"memory":         b.sync(b.memory),
		"measured":       b.sync(b.measured),  // measured.go
		"estimated":      b.sync(b.estimated), // estimated.go
		"openGroup":      b.sync(b.openGroup),
		"openContext":    b.sync(b.openContext),
		"recontext":      b.sync(b.recontext),
		"contextArches":  b.sync(b.contextArches),
		"json":           b.sync(b.docJSON),
		"diff":           b.sync(b.diff),
		"compare":        b.sync(b.compare),
		"scan":           b.sync(b.scan),
		"hloDiff":        b.sync(b.hloDiff),    // fleet.go
		"scanGraphs":     b.sync(b.scanGraphs), // fleet.go
		"close":          b.sync(b.close),
		"libStatus":      b.async(b.libStatus),
		"libPut":         b.async(b.libPut),
		"libList":        b.async(b.libList),
		"libGet":         b.async(b.libGet),
		"libRemove":      b.async(b.libRemove),
		"libClear":       b.async(b.libClear),
		"poolRun":        b.sync(b.poolRun), // pool.go
	}
	obj := js.Global().Get("Object").New()
	call := js.FuncOf(b.call)
	b.funcs = append(b.funcs, call)
	obj.Set("call", call)
	names := protocol.Names()
	list := make([]any, len(names))
	for i, n := range names {
		list[i] = n
	}
	obj.Set("methods", list)
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

// call(method, args, emit) → Promise: resolves with the method's result, rejects with
// {code, message}. Arguments are checked against the protocol table first.
func (b *bridge) call(_ js.Value, argv []js.Value) any {
	method, args, emit := "", js.Undefined(), js.Undefined()
	if len(argv) > 0 && argv[0].Type() == js.TypeString {
		method = argv[0].String()
	}
	if len(argv) > 1 {
		args = argv[1]
	}
	if len(argv) > 2 && argv[2].Type() == js.TypeFunction {
		emit = argv[2]
	}
	var executor js.Func
	executor = js.FuncOf(func(_ js.Value, pv []js.Value) any {
		resolve, reject := pv[0], pv[1]
		h, r, err := b.prepare(method, args, emit)
		if err != nil {
			executor.Release()
			reject.Invoke(errorValue(err))
			return nil
		}
		settle := func(ctx context.Context) {
			defer executor.Release()
			v, err := runSafely(ctx, h, r)
			if err != nil {
				reject.Invoke(errorValue(err))
				return
			}
			resolve.Invoke(v)
		}
		if h.async {
			go func() {
				ctx, cancel := context.WithTimeout(context.Background(), asyncTimeout)
				if h.long {
					ctx, cancel = context.WithCancel(context.Background())
				}
				defer cancel()
				settle(ctx)
			}()
		} else {
			b.busy.Add(1)
			duringSync(func() { settle(context.Background()) })
			b.busy.Add(-1)
		}
		return nil
	})
	return js.Global().Get("Promise").New(executor)
}

// runSafely runs a handler, turning a Go panic into an internal error instead of killing
// the worker's Go runtime (every later call would fail otherwise). The error says what
// failed, for the page to show; the goroutine's stack goes to the worker's console, for a
// report, not into the page.
func runSafely(ctx context.Context, h handler, r *request) (v any, err error) {
	defer func() {
		if p := recover(); p != nil {
			js.Global().Get("console").Call("error", fmt.Sprintf("neffscope core: %s panicked: %v\n%s", r.method.Name, p, debug.Stack()))
			v, err = nil, protocol.Errorf(protocol.Internal, "internal error in neffscope core (%s): %v (a bug: the browser console has the details; please report it with the file)", r.method.Name, p)
		}
	}()
	return h.run(ctx, r)
}

// prepare finds the method's handler and checks args against the table: every required
// argument present, every argument of its declared JS type, no argument the table lacks.
func (b *bridge) prepare(method string, args, emit js.Value) (handler, *request, error) {
	m, ok := protocol.Lookup(method)
	h, bound := b.handlers[method]
	if !ok || !bound {
		return handler{}, nil, protocol.Errorf(protocol.BadRequest, "unknown method %q; the core answers %s", method, strings.Join(protocol.Names(), ", "))
	}
	if args.IsUndefined() || args.IsNull() {
		args = js.Global().Get("Object").New()
	}
	if args.Type() != js.TypeObject {
		return handler{}, nil, protocol.Errorf(protocol.BadRequest, "%s: args must be one object of named arguments, not a %s", method, args.Type())
	}
	declared := map[string]bool{}
	for _, a := range m.Args {
		declared[a.Name] = true
		v := args.Get(a.Name)
		if v.IsUndefined() || v.IsNull() {
			if !a.Optional {
				return handler{}, nil, protocol.Errorf(protocol.BadRequest, "%s: argument %s (%s) is missing", method, a.Name, a.Type)
			}
			continue
		}
		if !typeOK(v, a.Type) {
			return handler{}, nil, protocol.Errorf(protocol.BadRequest, "%s: argument %s must be %s, not a %s", method, a.Name, a.Type, v.Type())
		}
	}
	keys := js.Global().Get("Object").Call("keys", args)
	for i := range keys.Length() {
		if k := keys.Index(i).String(); !declared[k] {
			return handler{}, nil, protocol.Errorf(protocol.BadRequest, "%s takes no argument %q", method, k)
		}
	}
	r := &request{method: m, args: args, emit: emit}
	if err := b.resolve(r); err != nil {
		return handler{}, nil, err
	}
	return h, r, nil
}

// resolve does what the table declares for the method's arguments (protocol.Resolve,
// protocol.Range): every handle becomes its open file or context, or the call is answered
// not-found here; the range is read, checked and cut. Handlers read r.file, r.files,
// r.context, r.from and r.to, never a handle or a range themselves.
func (b *bridge) resolve(r *request) error {
	for _, a := range r.method.Args {
		if a.Resolve == protocol.AsIs || !r.has(a.Name) {
			continue
		}
		if a.Resolve == protocol.OpenFiles {
			list := r.args.Get(a.Name)
			for i := range list.Length() {
				f, err := b.openFile(r, fmt.Sprintf("%s[%d]", a.Name, i), list.Index(i))
				if err != nil {
					return err
				}
				r.files = append(r.files, f)
			}
			continue
		}
		h, err := r.whole(a.Name, r.args.Get(a.Name))
		if err != nil {
			return err
		}
		if r.handle == 0 {
			r.handle = int(h)
		}
		if a.Resolve == protocol.OpenContext {
			b.mu.Lock()
			c := b.contexts[int(h)]
			b.mu.Unlock()
			if c == nil {
				return protocol.Errorf(protocol.NotFound, "%s: handle %d is not an open libncfw context", r.method.Name, h)
			}
			r.context = c
			continue
		}
		f, err := b.openFile(r, a.Name, r.args.Get(a.Name))
		if err != nil {
			return err
		}
		r.files = append(r.files, f)
	}
	if len(r.files) > 0 {
		r.file = r.files[0]
	}
	if g := r.method.Range; g != nil {
		from, err := r.int(g.From)
		if err != nil {
			return err
		}
		to, err := r.int(g.To)
		if err != nil {
			return err
		}
		if g.Count {
			if from < 0 || to < 0 {
				return protocol.Errorf(protocol.BadRequest, "%s: bad range %d+%d", r.method.Name, from, to)
			}
			to = from + to
		}
		if from < 0 || to < from || (g.Last > 0 && from > g.Last) {
			return protocol.Errorf(protocol.BadRequest, "%s: bad range %d..%d", r.method.Name, from, to)
		}
		r.from, r.to = from, min(to, from+g.Max)
	}
	return nil
}

// openFile is the file open under the handle v (argument name).
func (b *bridge) openFile(r *request, name string, v js.Value) (*inspect.File, error) {
	h, err := r.whole(name, v)
	if err != nil {
		return nil, err
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	f := b.files[int(h)]
	if f == nil {
		return nil, protocol.Errorf(protocol.NotFound, "%s, argument %s: no open file with handle %d (it was closed, or the worker restarted)", r.method.Name, name, h)
	}
	return f, nil
}

// typeOK checks a value against a JSDoc type of the table: a union of number, string,
// boolean, null, ArrayBuffer, Uint8Array, Blob, Array<T>, or a typedef (any object).
func typeOK(v js.Value, ty string) bool {
	for _, t := range protocol.SplitUnion(ty) {
		if inner, ok := strings.CutPrefix(t, "Array<"); ok && strings.HasSuffix(inner, ">") {
			if arrayOK(v, strings.TrimSuffix(inner, ">")) {
				return true
			}
			continue
		}
		switch t {
		case "number":
			if v.Type() == js.TypeNumber {
				return true
			}
		case "string":
			if v.Type() == js.TypeString {
				return true
			}
		case "boolean":
			if v.Type() == js.TypeBoolean {
				return true
			}
		case "null":
			if v.IsNull() {
				return true
			}
		case "ArrayBuffer", "Uint8Array", "Blob":
			if c := js.Global().Get(t); c.Truthy() && v.Type() == js.TypeObject && v.InstanceOf(c) {
				return true
			}
		default: // a typedef: an object
			if v.Type() == js.TypeObject {
				return true
			}
		}
	}
	return false
}

// arrayOK: v is a JS array whose every element is of type inner.
func arrayOK(v js.Value, inner string) bool {
	if !js.Global().Get("Array").Call("isArray", v).Bool() {
		return false
	}
	for i := range v.Length() {
		if !typeOK(v.Index(i), inner) {
			return false
		}
	}
	return true
}

// request is one call's arguments, already checked against the table, with what the table
// says to resolve resolved (resolve).
type request struct {
	method protocol.Method
	args   js.Value
	emit   js.Value
	// handle is the first handle argument's value; file the file of the first OpenFile
	// argument; files every resolved file in argument order (diff: a, b; compare: handles).
	handle  int
	file    *inspect.File
	files   []*inspect.File
	context *contextBytes // an OpenContext argument's context
	// from, to: the method's Range, checked, to cut to the range's Max.
	from, to int64
}

func (r *request) has(name string) bool {
	v := r.args.Get(name)
	return !v.IsUndefined() && !v.IsNull()
}

func (r *request) str(name string) string {
	if !r.has(name) {
		return ""
	}
	return r.args.Get(name).String()
}

func (r *request) num(name string) float64 {
	if !r.has(name) {
		return 0
	}
	return r.args.Get(name).Float()
}

// int reads a whole-number argument; a fraction, NaN or a number past ±2^53 is bad.
func (r *request) int(name string) (int64, error) {
	return r.whole(name, r.args.Get(name))
}

// whole reads v (argument name, absent: 0) as a whole number.
func (r *request) whole(name string, v js.Value) (int64, error) {
	f := 0.0
	if !v.IsUndefined() && !v.IsNull() {
		f = v.Float()
	}
	if f != math.Trunc(f) || math.Abs(f) > 1<<53 {
		return 0, protocol.Errorf(protocol.BadRequest, "%s: argument %s is %v, not a whole number", r.method.Name, name, f)
	}
	return int64(f), nil
}

// event sends an event to the page, when the caller passed emit.
func (r *request) event(name string, data any) {
	if r.emit.Type() == js.TypeFunction {
		r.emit.Invoke(name, data)
	}
}

func errorValue(err error) js.Value {
	o := js.Global().Get("Object").New()
	o.Set("code", protocol.CodeOf(err))
	o.Set("message", err.Error())
	return o
}

// object makes a JS object of name, value pairs.
func object(kv ...any) js.Value {
	o := js.Global().Get("Object").New()
	for i := 0; i+1 < len(kv); i += 2 {
		o.Set(kv[i].(string), kv[i+1])
	}
	return o
}

// buffer copies b into a new ArrayBuffer (transferred to the page by the worker).
func buffer(b []byte) js.Value { return toUint8Array(b).Get("buffer") }

func toUint8Array(b []byte) js.Value {
	a := js.Global().Get("Uint8Array").New(len(b))
	js.CopyBytesToJS(a, b)
	return a
}

// wasmBytes is the size of the wasm linear memory (it never shrinks), when the worker told
// the core where it is (neffscopeCore.memory), else 0.
func (b *bridge) wasmBytes() float64 {
	if m := b.global.Get("memory"); m.Type() == js.TypeObject {
		return m.Get("buffer").Get("byteLength").Float()
	}
	return 0
}

func ms(since time.Time) float64 { return float64(time.Since(since).Microseconds()) / 1000 }

// encodeNode is a node's msgpack, as {node}.
func encodeNode(n *doc.Node) (any, error) {
	enc, err := n.MarshalMsg(nil)
	if err != nil {
		return nil, err
	}
	return object("node", buffer(enc)), nil
}
