package main

import (
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/neffscope/neffscope/core/zipneff"
)

func init() {
	commands["extract-neff"] = command{"get the NEFF out of a TorchScript .pt (or any zip) that stores one", runExtractNEFF}
}

// runExtractNEFF writes the NEFF found in a zip to -o (or lists them when there are several and
// --name does not pick one). Exit 0 written or listed, 1 no NEFF inside, 2 trouble.
func runExtractNEFF(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("extract-neff", flag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.String("o", "", "write the NEFF to this `FILE` (default: the entry's base name in the current directory; - for stdout)")
	name := fs.String("name", "", "the zip `ENTRY` to extract when the file holds several NEFFs")
	list := fs.Bool("list", false, "only list the NEFFs inside")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: neffscope extract-neff [-o out.neff] [--name ENTRY] [--list] FILE.pt")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return 2
	}
	fh, err := os.Open(fs.Arg(0))
	if err != nil {
		fmt.Fprintf(stderr, "neffscope: %v\n", err)
		return 2
	}
	defer fh.Close()
	st, err := fh.Stat()
	if err != nil {
		fmt.Fprintf(stderr, "neffscope: %v\n", err)
		return 2
	}
	entries, err := zipneff.Find(fh, st.Size())
	if err != nil {
		fmt.Fprintf(stderr, "neffscope: %s: %v\n", fs.Arg(0), err)
		return 2
	}
	if len(entries) == 0 {
		fmt.Fprintf(stderr, "neffscope: %s holds no NEFF (no zip entry starts with a NEFF header whose payload hash matches)\n", fs.Arg(0))
		return 1
	}
	var pick *zipneff.Entry
	for _, e := range entries {
		if *name == "" && len(entries) == 1 || e.Name == *name {
			pick = e
		}
	}
	if *list || pick == nil {
		for _, e := range entries {
			how := "deflated"
			if e.Stored {
				how = fmt.Sprintf("stored at byte %d", e.Offset)
			}
			fmt.Fprintf(stdout, "%s\t%d bytes\t%s\thash %s\tuuid %s\n", safe(e.Name), e.Size, how, e.Integrity, safe(e.UUID))
		}
		if pick == nil && !*list {
			if *name != "" {
				fmt.Fprintf(stderr, "neffscope: %s has no NEFF entry %q\n", fs.Arg(0), *name)
				return 2
			}
			fmt.Fprintf(stderr, "neffscope: %s holds %d NEFFs; pick one with --name\n", fs.Arg(0), len(entries))
		}
		return 0
	}
	rc, err := pick.Open(fh)
	if err != nil {
		fmt.Fprintf(stderr, "neffscope: %v\n", err)
		return 2
	}
	defer rc.Close()
	dst := *out
	if dst == "" {
		dst = baseName(pick.Name)
	}
	var w io.Writer = stdout
	if dst != "-" {
		f, err := os.Create(dst)
		if err != nil {
			fmt.Fprintf(stderr, "neffscope: %v\n", err)
			return 2
		}
		defer f.Close()
		w = f
	}
	n, err := io.Copy(w, rc)
	if err != nil {
		fmt.Fprintf(stderr, "neffscope: writing %s: %v\n", dst, err)
		return 2
	}
	if pick.Integrity != "ok" {
		fmt.Fprintf(stderr, "neffscope: warning: %s's payload hash does not match its header (%s)\n", pick.Name, pick.Integrity)
	}
	if dst != "-" {
		fmt.Fprintf(stderr, "wrote %s (%d bytes) from %s\n", dst, n, pick.Name)
	}
	return 0
}

func baseName(p string) string {
	for i := len(p) - 1; i >= 0; i-- {
		if p[i] == '/' || p[i] == '\\' {
			return p[i+1:]
		}
	}
	return p
}
