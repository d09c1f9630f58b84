package main

import (
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"
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

// defaultMaxOutput is the output cap of the big writers (disasm, disasm --json) when their
// output goes to a terminal or a file: a 6 MB NEFF's listing can be tens of GB.
const defaultMaxOutput = 1 << 30

// outputCap is the --max-output flag: a byte count with an optional K/M/G(iB) suffix
// (powers of 1024). Set says the user gave it.
type outputCap struct {
	n   int64
	set bool
}

func (c *outputCap) String() string {
	if c == nil || !c.set {
		return "1GiB"
	}
	return strconv.FormatInt(c.n, 10)
}

func (c *outputCap) Set(s string) error {
	t := strings.TrimSuffix(strings.TrimSuffix(strings.ToUpper(strings.TrimSpace(s)), "B"), "I")
	mult := int64(1)
	if k := strings.IndexAny(t, "KMG"); k >= 0 && k == len(t)-1 {
		mult = map[byte]int64{'K': 1 << 10, 'M': 1 << 20, 'G': 1 << 30}[t[k]]
		t = t[:k]
	}
	n, err := strconv.ParseInt(t, 10, 64)
	if err != nil || n < 0 || n > math.MaxInt64/mult {
		return fmt.Errorf("not a byte count: %q (e.g. 0, 4096, 64MiB, 1GiB)", s)
	}
	c.n, c.set = n*mult, true
	return nil
}

func outputCapFlag(fs *flag.FlagSet) *outputCap {
	c := &outputCap{}
	fs.Var(c, "max-output", "stop the output before it passes this many bytes (e.g. 64MiB; 0: no cap); by default 1GiB when the output is a terminal or a file, none into a pipe")
	return c
}

// limit is the cap for output to w: the flag's value when given, else the default for a
// terminal or a regular file, and none for a pipe (the user asked for the stream).
func (c *outputCap) limit(w io.Writer) int64 {
	if c.set {
		return c.n
	}
	if k := kindOf(w); k == outTerminal || k == outFile {
		return defaultMaxOutput
	}
	return 0
}
