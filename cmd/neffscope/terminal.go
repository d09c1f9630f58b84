package main

import (
	"io"
	"os"
)

// outputKind is what a command's output goes to; the CLI decides by it what a person sees
// (a table, progress lines) and whether the default output cap applies.
type outputKind int

const (
	outOther    outputKind = iota // a writer that is no file (tests), or unknown
	outTerminal                   // a character device other than /dev/null
	outFile                       // a regular file
	outPipe                       // a pipe or socket: the user asked for the stream
	outDiscard                    // /dev/null
)

// kindOf says where w writes (w unwrapped from the escaping writer first: rawStdout).
func kindOf(w io.Writer) outputKind {
	f, ok := w.(*os.File)
	if !ok {
		return outOther
	}
	st, err := f.Stat()
	if err != nil {
		return outOther
	}
	m := st.Mode()
	switch {
	case m.IsRegular():
		return outFile
	case m&(os.ModeNamedPipe|os.ModeSocket) != 0:
		return outPipe
	case m&os.ModeCharDevice != 0:
		if null, err := os.Stat(os.DevNull); err == nil && os.SameFile(st, null) {
			return outDiscard
		}
		return outTerminal
	}
	return outOther
}

// isTerminal says whether w is a terminal; the tests replace it.
var isTerminal = func(w io.Writer) bool { return kindOf(w) == outTerminal }
