package main

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/neffscope/neffscope/core/doc"
	"github.com/neffscope/neffscope/core/neff"
)

// Every file a command writes goes through createOutput: it writes a temporary file beside
// the target and moves it into place only when the whole output was written (commit), so a
// failure leaves the target as it was, and abort removes only the temporary file it made.
// It never writes through a symlink or into anything but a regular file (a planted link
// would send the output elsewhere; a FIFO would block), never over a file the command reads,
// and never over a NEFF (unless the output is a NEFF itself: extract-neff), --force or not;
// without --force it refuses any existing file.

// outputError is a refused output path, with the code stderr names and the advice.
type outputError struct {
	code doc.Code
	path string
	why  string
}

func (e *outputError) Error() string {
	return fmt.Sprintf("%s %s [%s]", safe(e.path), e.why, e.code)
}

// outputFile is an output being written: a temporary file beside target.
type outputFile struct {
	*os.File
	target string
	outputRules
	ins  []os.FileInfo
	done bool
}

// outputRules say what an output may replace.
type outputRules struct {
	force   bool     // replace an existing regular file (the command's --force)
	neffOut bool     // the output is a NEFF: force may replace a NEFF too
	inputs  []string // the paths the command reads: never replaced
}

// createOutput starts writing target under rules.
func createOutput(target string, rules outputRules) (*outputFile, error) {
	o := &outputFile{target: target, outputRules: rules}
	for _, p := range rules.inputs {
		if st, err := os.Stat(p); err == nil {
			o.ins = append(o.ins, st)
		}
	}
	if err := o.check(); err != nil {
		return nil, err
	}
	f, err := os.CreateTemp(filepath.Dir(target), "."+filepath.Base(target)+".tmp-*")
	if err != nil {
		return nil, err
	}
	if err := f.Chmod(0o644); err != nil {
		f.Close()
		os.Remove(f.Name())
		return nil, err
	}
	o.File = f
	return o, nil
}

// check refuses what target is now: a symlink (dangling or not), anything but a regular
// file, an input, a NEFF, or, without force, any existing file.
func (o *outputFile) check() error {
	st, err := os.Lstat(o.target)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return nil
	case err != nil:
		return err
	case st.Mode()&os.ModeSymlink != 0:
		return &outputError{doc.CodeOutputSymlink, o.target, "is a symlink: not written through (remove it, or name another file)"}
	case !st.Mode().IsRegular():
		return &outputError{doc.CodeOutputNotRegular, o.target, fmt.Sprintf("is not a regular file (%s): not written (name another file)", st.Mode().Type())}
	}
	for _, in := range o.ins {
		if os.SameFile(st, in) {
			return &outputError{doc.CodeOutputIsInput, o.target, "is a file this command reads: never written over (name another file)"}
		}
	}
	if !o.neffOut && isNEFFFile(o.target) {
		return &outputError{doc.CodeOutputIsNEFF, o.target, "is a NEFF: neffscope never writes over one, --force or not (name another file)"}
	}
	if !o.force {
		return &outputError{doc.CodeOutputExists, o.target, "exists: not overwritten (--force overwrites it, or name another file)"}
	}
	return nil
}

// isNEFFFile says whether p starts as every NEFF does (spec neff.md §1.1): pkg_version 1 or
// 2 and header_size 1024, as little-endian uint64s. It opens without blocking (check has
// refused anything but a regular file, but the name may have been swapped since).
func isNEFFFile(p string) bool {
	f, err := openInput(p)
	if err != nil {
		return false
	}
	defer f.Close()
	var b [16]byte
	if n, _ := io.ReadFull(f, b[:]); n < len(b) {
		return false
	}
	v, hs := binary.LittleEndian.Uint64(b[:]), binary.LittleEndian.Uint64(b[8:])
	return (v == 1 || v == 2) && hs == neff.HeaderSize
}

// commit moves the written file into place, checking the target again first (it may have
// been swapped while the output was written). Without force the move cannot replace a file
// made since: it is a hard link, which fails on an existing name.
func (o *outputFile) commit() error {
	if o.done {
		return nil
	}
	o.done = true
	tmp := o.File.Name()
	err := o.File.Close()
	if err == nil {
		err = o.check()
	}
	if err == nil {
		linked := false
		if !o.force {
			switch lerr := os.Link(tmp, o.target); {
			case lerr == nil:
				linked = true
			case errors.Is(lerr, os.ErrExist):
				err = &outputError{doc.CodeOutputExists, o.target, "was created while it was written: not overwritten"}
			}
			// Any other error: a file system without hard links; the check above stands.
		}
		if err == nil && !linked {
			err = os.Rename(tmp, o.target)
		}
	}
	os.Remove(tmp) // after a rename it is gone already; after a link, the target keeps the bytes
	return err
}

// abort removes the temporary file: the target is left as it was.
func (o *outputFile) abort() {
	if o == nil || o.done {
		return
	}
	o.done = true
	o.File.Close()
	os.Remove(o.File.Name())
}

// reportOutputErr prints an output error on stderr as the commands do and returns exit 2.
func reportOutputErr(stderr io.Writer, err error) int {
	fmt.Fprintf(stderr, "neffscope: %v\n", err)
	return 2
}

// inputError is an input path refused before it is read.
type inputError struct {
	path string
	mode os.FileMode
}

func (e *inputError) Error() string {
	if e.mode.IsDir() {
		return fmt.Sprintf("%s is a directory [%s]", safe(e.path), doc.CodeInputNotRegular)
	}
	return fmt.Sprintf("%s is not a regular file (%s): not read (a FIFO or a device would block or never end) [%s]", safe(e.path), e.mode.Type(), doc.CodeInputNotRegular)
}

// openInput opens a file a command reads as a whole file (random access): without
// blocking, so a FIFO with no writer is refused at once instead of hanging the command, and
// only when it is a regular file. A symlink to a regular file is read as that file.
func openInput(p string) (*os.File, error) {
	f, _, err := openInputSize(p)
	return f, err
}

// openInputSize is openInput with the file's size, for a command that reads it at random.
func openInputSize(p string) (*os.File, int64, error) {
	f, err := openNonblocking(p)
	if err != nil {
		return nil, 0, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, 0, err
	}
	if !st.Mode().IsRegular() {
		f.Close()
		return nil, 0, &inputError{p, st.Mode()}
	}
	return f, st.Size(), nil
}
