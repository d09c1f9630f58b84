package main

import (
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

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
	force := fs.Bool("force", false, "overwrite the output file when it exists")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: neffscope extract-neff [-o out.neff] [--force] [--name ENTRY] [--list] FILE.pt")
		fmt.Fprint(stderr, "\nexit status: 0 written or listed; 1 FILE holds no NEFF; 2 trouble (bad usage, a FILE that cannot\nbe read or is not a zip, an output refused or not written)\n\n")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return parseExit(err)
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return 2
	}
	fh, size, err := openInputSize(fs.Arg(0))
	if err != nil {
		fmt.Fprintf(stderr, "neffscope: %v\n", err)
		return 2
	}
	defer fh.Close()
	found, err := zipneff.Find(fh, size)
	if err != nil {
		fmt.Fprintf(stderr, "neffscope: %s: %v\n", fs.Arg(0), err)
		return 2
	}
	for _, f := range found.Findings {
		fmt.Fprintf(stderr, "neffscope: %s: %s: %s [%s]\n", fs.Arg(0), f.Severity, safeMsg(f.Message), f.Code)
	}
	entries := found.Entries
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
				fmt.Fprintf(stderr, "neffscope: %s has no NEFF entry %s\n", fs.Arg(0), strconv.Quote(*name))
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
		dst = outputName(pick.Name)
	}
	var w io.Writer = stdout
	var o *outputFile
	if dst != "-" {
		if o, err = createOutput(dst, outputRules{force: *force, neffOut: true, inputs: []string{fs.Arg(0)}}); err != nil {
			return reportOutputErr(stderr, err)
		}
		w = o
	}
	n, err := io.Copy(w, io.LimitReader(rc, pick.Size))
	if err != nil {
		o.abort()
		fmt.Fprintf(stderr, "neffscope: writing %s: %v\n", safe(dst), err)
		return 2
	}
	if o != nil {
		if err := o.commit(); err != nil {
			return reportOutputErr(stderr, err)
		}
	}
	if pick.Integrity != "ok" {
		fmt.Fprintf(stderr, "neffscope: warning: %s's payload hash does not match its header (%s)\n", safe(pick.Name), pick.Integrity)
	}
	if dst != "-" {
		fmt.Fprintf(stderr, "wrote %s (%d bytes) from %s\n", safe(dst), n, safe(pick.Name))
	}
	return 0
}

// outputName is the default output file for an entry: its base name with every character
// that could not be typed or would mean something to a shell or file system replaced by '_',
// no leading dot (a dot-file such as .bashrc is written only when -o names it), at most 200
// bytes; "model.neff" when nothing is left.
func outputName(entry string) string {
	if i := strings.LastIndexAny(entry, `/\`); i >= 0 {
		entry = entry[i+1:]
	}
	var b strings.Builder
	for _, r := range entry {
		switch {
		case r == utf8.RuneError || unicode.IsControl(r) || unicode.Is(unicode.Cf, r) || unicode.IsSpace(r) && r != ' ' ||
			strings.ContainsRune(`:*?"<>|`, r) || r == 0x2028 || r == 0x2029:
			b.WriteByte('_')
		default:
			b.WriteRune(r)
		}
		if b.Len() >= 200 {
			break
		}
	}
	name := strings.TrimLeft(strings.TrimSpace(b.String()), ".")
	if name == "" {
		return "model.neff"
	}
	return name
}
