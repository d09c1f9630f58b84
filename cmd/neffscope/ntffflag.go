package main

import (
	"fmt"
	"io"

	"github.com/neffscope/neffscope/core/doc"
	"github.com/neffscope/neffscope/core/inspect"
	"github.com/neffscope/neffscope/core/timeline"
)

// The device profile beside a NEFF: the --ntff flag of timeline, disasm, profile, sync and
// export opens it here and joins it to the NEFF (core/timeline), so every command reads the
// same measured times.

// ntffHelp is the --ntff flag's help.
const ntffHelp = "a device profile (NTFF) captured from this NEFF: measured times beside the static ones"

// openProfile opens the device profile at path under the NEFF's limits. A file that is not an
// NTFF is an error (exit 2, like an unreadable file).
func openProfile(path string, maxInflate int64, stderr io.Writer) (*inspect.File, int) {
	pf, _, err := openFile(path, inspect.Options{MaxInflated: maxInflate, DeferMemberHashes: true})
	if err != nil {
		fmt.Fprintf(stderr, "neffscope: %v\n", err)
		return nil, 2
	}
	if pf.NTFF == nil {
		fmt.Fprintf(stderr, "neffscope: [%s] %s is not a device profile (NTFF): it is read as %s.\n", doc.CodeNTFFNotProfile, safe(path), pf.Doc.Kind)
		return nil, 2
	}
	return pf, 0
}

// measuredFor opens the profile at path and joins it to f. Its findings that are not info go
// to stderr (a profile of another NEFF joins nothing: its UUID finding says so); rc is 1 when
// one is an error, 2 when the profile cannot be opened.
func measuredFor(path string, f *inspect.File, maxInflate int64, stderr io.Writer) (*timeline.Result, int) {
	pf, rc := openProfile(path, maxInflate, stderr)
	if pf == nil {
		return nil, rc
	}
	r := timeline.Measure(pf.NTFF, f, pf.Budget)
	for _, fd := range r.Measured.Findings {
		if fd.Severity == doc.Info {
			continue
		}
		if fd.Severity == doc.Error {
			rc = 1
		}
		fmt.Fprintf(stderr, "neffscope: %s: [%s] %s\n", safe(path), fd.Code, safeMsg(fd.Message))
	}
	return r, rc
}
