// Package protocol declares the worker protocol between the page and the Go core once: every
// method with its named arguments, its result fields and the events it sends, and the one
// error shape. The js&&wasm bridge (package main in wasm/) binds a handler to each method and
// checks arguments against this table; `go generate ./wasm/...` writes the page's JSDoc
// typedefs and METHODS list from it (www/src/core/methods.gen.js). It has no build tags, so
// native tools and tests read it too.
//
// Page → worker: {id, method, args}; worker → page: {id, type: 'event', event, data},
// {id, type: 'result', result}, {id, type: 'error', error: {code, message}}, and once
// {type: 'ready', version, model, methods, ms} or {type: 'fatal', error}.
package protocol

//go:generate go run ./gen -o ../../www/src/core/methods.gen.js

import (
	"errors"
	"fmt"
)

// Field is one named argument or result field. Type is its JSDoc type ("number",
// "Blob|Uint8Array|ArrayBuffer", "Array<DocEntry>", or a typedef of Types).
type Field struct {
	Name     string
	Type     string
	Optional bool
	Doc      string
	// Resolve: what the bridge's dispatcher makes of the argument before the handler runs.
	Resolve Resolve
}

// Resolve says what the dispatcher resolves an argument to. A handle that names nothing is
// answered with NotFound before the handler runs, so no handler reads a handle itself.
type Resolve uint8

const (
	AsIs        Resolve = iota // the value, as the handler reads it
	OpenFile                   // a number: the file open under that handle
	OpenFiles                  // an Array<number>: the file open under each handle
	OpenContext                // a number: the raw libncfw context open under that handle (openContext)
)

// Range declares a method's range arguments: two whole numbers the dispatcher reads and checks
// (BadRequest when negative, reversed or past Last) and cuts to at most Max items.
type Range struct {
	From, To string // the arguments: the first item, and one past the last (with Count: how many)
	Count    bool
	Max      int64 // the most items one call answers: a longer range is cut
	Last     int64 // the largest first item (0: any whole number)
}

// Method is one call the page can make.
type Method struct {
	Name   string
	Doc    string
	Args   []Field
	Result []Field
	// Events the method may send before its result (Events names them).
	Events []string
	// Range, when set, is read and checked by the dispatcher.
	Range *Range
}

// Event is one kind of event a method sends while it runs.
type Event struct {
	Name string
	Type string // the JSDoc type of its data
	Doc  string
}

// Typedef is a named object type used by fields.
type Typedef struct {
	Name   string
	Doc    string
	Fields []Field
}

// File is the JSDoc type of a file argument: a Blob the core reads itself in slices
// (FileReaderSync, in a worker), or its bytes (the page fallback reads the Blob first; a
// byte array may carry a name property).
const File = "Blob|Uint8Array|ArrayBuffer"

// Error codes: what kind of failure a call had. The page decides what to show by code.
const (
	BadRequest  = "bad-request" // malformed args: a missing or mistyped argument, an unknown method
	NotFound    = "not-found"   // an unknown handle, ref or key
	Unavailable = "unavailable" // something the call needs is not here (IndexedDB off)
	Limit       = "limit"       // a size or memory limit was hit
	Internal    = "internal"    // a Go panic was caught: a bug in neffscope
	Failed      = "failed"      // any other error; the message says what, where and what to do
)

// Codes lists every error code.
var Codes = []string{BadRequest, NotFound, Unavailable, Limit, Internal, Failed}

// Error is the one error shape: the bridge rejects a call with {code, message}.
type Error struct {
	Code    string
	Message string
}

func (e *Error) Error() string { return e.Message }

// Errorf makes an *Error with code.
func Errorf(code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// Wrap gives err a code, keeping its message (and a code it already has).
func Wrap(code string, err error) error {
	if err == nil {
		return nil
	}
	var e *Error
	if errors.As(err, &e) {
		return err
	}
	return &Error{Code: code, Message: err.Error()}
}

// CodeOf is err's code: its own when it is (or wraps) an *Error, else Failed.
func CodeOf(err error) string {
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return Failed
}

// Lookup finds a method by name.
func Lookup(name string) (Method, bool) {
	for _, m := range Methods {
		if m.Name == name {
			return m, true
		}
	}
	return Method{}, false
}

// Names lists the methods' names in table order.
func Names() []string {
	out := make([]string, len(Methods))
	for i, m := range Methods {
		out[i] = m.Name
	}
	return out
}

// SplitUnion splits a JSDoc type at its top-level '|' ("Array<string>|null" → "Array<string>",
// "null"; "Array<Blob|Uint8Array>" stays whole).
func SplitUnion(ty string) []string {
	var out []string
	depth, start := 0, 0
	for i := 0; i < len(ty); i++ {
		switch ty[i] {
		case '<':
			depth++
		case '>':
			depth--
		case '|':
			if depth == 0 {
				out = append(out, ty[start:i])
				start = i + 1
			}
		}
	}
	return append(out, ty[start:])
}
