package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/neffscope/neffscope/core/doc"
	"github.com/neffscope/neffscope/core/inspect"
	"github.com/neffscope/neffscope/core/sched"
)

// modelRun is what the commands that print one file's sync and memory model (sync, memmap)
// start from: the file opened without its source lines (the .dbg scans are left out, as
// info leaves them), its model, the file's own error findings and the limits relayed.
type modelRun struct {
	f        *inspect.File
	fh       *os.File
	m        *sched.Model
	fileErrs []doc.Finding // the file's own errors, which the model's output lists too
	limits   []fileFinding // the open's limits (relayed on stderr unless the output is JSON)
	rc       int           // 1 when the file has an error of its own

	maxInflate int64 // --max-inflate, for the other files a command opens
}

func (r *modelRun) close() { r.fh.Close() }

// modelExitHelp is the exit status of sync and memmap, whose lints are what a CI job gates on.
const modelExitHelp = "exit status: 0 no lint; 1 a lint or an error finding was printed (a deadlock, a race, the file's\n" +
	"own error, a limit that stopped the read); 2 trouble (bad usage, a FILE that cannot be read or is\n" +
	"not a NEFF, an output refused or not written)\n"

// openModel gives fs the flags and usage the model commands share (--max-inflate and the
// budget's; "usage: " synopsis, then modelExitHelp), parses args (asJSON is read after the
// parse), opens the one FILE and builds its model with build (File.Sched, or File.Memmap for
// the memory part too). A nil run comes with the exit code: 2 for bad usage, an unreadable file or one that is
// not a NEFF, 1 for a NEFF whose own errors (printed) leave it without a program.
func openModel(fs *flag.FlagSet, args []string, synopsis string, asJSON *bool, build func(*inspect.File) *sched.Model, stderr io.Writer) (*modelRun, int) {
	fs.SetOutput(stderr)
	maxInflate := commonFlags(fs)
	fs.Usage = func() {
		fmt.Fprint(stderr, "usage: "+synopsis+"\n\n"+modelExitHelp+"\n")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return nil, parseExit(err)
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return nil, 2
	}
	f, fh, err := openFile(fs.Arg(0), inspect.Options{MaxInflated: *maxInflate, DeferSource: true})
	if err != nil {
		fmt.Fprintf(stderr, "neffscope: %v\n", err)
		return nil, 2
	}
	m := build(f)
	if m == nil {
		defer fh.Close()
		return nil, notReadable(stderr, f, safe(f.Name)+" has no resolvable program (no NEFF manifests): no streams to model")
	}
	r := &modelRun{f: f, fh: fh, m: m, fileErrs: errorFindings(f), maxInflate: *maxInflate}
	if len(r.fileErrs) > 0 {
		r.rc = 1
	}
	r.limits, _ = relayLimits(stderr, f, asJSON != nil && *asJSON)
	return r, r.rc
}

// errorFindings are the file's own error findings, which the model's output lists too.
func errorFindings(f *inspect.File) []doc.Finding {
	var out []doc.Finding
	for _, fd := range f.Doc.Findings() {
		if fd.Severity == doc.Error {
			out = append(out, fd)
		}
	}
	return out
}

// mapSource maps the source lines the open deferred, after the model, on what it leaves of the
// budget (a limit leaves them out: the output then names no lines).
func mapSource(f *inspect.File) {
	if f.SourcePending() {
		if ms, err := f.IndexSource(context.Background(), nil); err == nil {
			f.ApplySource(ms)
		}
	}
}
