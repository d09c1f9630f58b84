package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"sort"
	"text/tabwriter"

	"github.com/neffscope/neffscope/core/inspect"
)

func init() {
	commands["coverage"] = command{"how many of the NEFFs' member bytes are explained: named field, generic JSON, hex only", runCoverage}
}

// coverageJSON is what `coverage --json` prints: the kinds summed over every file, and the total.
type coverageJSON struct {
	Files []string                `json:"files"`
	Kinds []*inspect.CoverageKind `json:"kinds"`
	Total inspect.CoverageKind    `json:"total"`
	// Findings say what was left unmeasured (coverage.word-limit) and which limits cut the
	// open (relayLimits), each with its file.
	Findings []fileFinding `json:"findings,omitempty"`
}

func runCoverage(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("coverage", flag.ContinueOnError)
	fs.SetOutput(stderr)
	asJSON := fs.Bool("json", false, "print the table as JSON")
	maxInflate := commonFlags(fs)
	fs.Usage = func() {
		fmt.Fprint(stderr, `usage: neffscope coverage [--json] FILE...

For every member kind (paths with sgNN, engine and activation-set names as placeholders), summed
over the files: the significant bytes owned by a named field, by a generic JSON value only, by a
field named unknown…, and shown as hex only. Each byte belongs to the deepest node of the
Document (as 'inspect' and the page show it) whose span holds it; instruction streams are
expanded word by word. A named field is a decoder's leaf or a JSON value with a meaning
attached; a container, a bytes node or the member itself leaves its bytes hex only.

Significant bytes: every byte except 0x00, and except JSON whitespace (space, tab, CR, LF) in
.json members: zero padding and pretty-printing explain nothing.

For instruction streams it also prints the non-zero bytes of the words under a named field of
the layout (not unknown…, not an undocumented run) against all their non-zero bytes.

`+exitHelp+`

`)
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return parseExit(err)
	}
	if fs.NArg() == 0 {
		fs.Usage()
		return 2
	}
	byKind := map[string]*inspect.CoverageKind{}
	var total inspect.CoverageKind
	total.Kind = "all members"
	var finds []fileFinding
	rc := 0
	for _, p := range fs.Args() {
		f, fh, err := openFile(p, inspect.Options{MaxInflated: *maxInflate})
		if err != nil {
			fmt.Fprintf(stderr, "neffscope: %v\n", err)
			return 2
		}
		if f.Archive == nil {
			fh.Close()
			return notReadable(stderr, f, fmt.Sprintf("%s is not a NEFF (kind %s); coverage counts NEFF members", safe(p), f.Doc.Kind))
		}
		c := f.Coverage()
		fh.Close()
		limits, lrc := relayLimits(stderr, f, *asJSON)
		rc = max(rc, lrc)
		if *asJSON {
			finds = append(finds, limits...)
		}
		for _, k := range c.Kinds {
			agg := byKind[k.Kind]
			if agg == nil {
				agg = &inspect.CoverageKind{Kind: k.Kind}
				byKind[k.Kind] = agg
			}
			addCoverage(agg, k)
		}
		addCoverage(&total, &c.Total)
		for _, fd := range c.Findings {
			finds = append(finds, fileFinding{p, fd})
		}
	}
	kinds := make([]*inspect.CoverageKind, 0, len(byKind))
	for _, k := range byKind {
		kinds = append(kinds, k)
	}
	sort.Slice(kinds, func(i, j int) bool { return kinds[i].Kind < kinds[j].Kind })
	if *asJSON {
		enc := json.NewEncoder(jsonStdout(stdout))
		enc.SetIndent("", " ")
		if err := enc.Encode(coverageJSON{Files: fs.Args(), Kinds: kinds, Total: total, Findings: finds}); err != nil {
			fmt.Fprintf(stderr, "neffscope: %v\n", err)
			return 2
		}
		return rc
	}
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "member kind\tmembers\tbytes\tsignificant\tnamed\tJSON only\tunknown…\thex only\t\n")
	for _, k := range append(kinds, &total) {
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%s\t%s\t%s\t%s\t\n", k.Kind, k.Members, k.Bytes, k.Significant,
			pct(k.Named, k.Significant), pct(k.JSON, k.Significant), pct(k.Unknown, k.Significant), pct(k.Hex, k.Significant))
	}
	tw.Flush()
	fmt.Fprintln(stdout)
	tw = tabwriter.NewWriter(stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "instruction stream\twords\tnon-zero bytes\tunder named fields\t\n")
	for _, k := range append(kinds, &total) {
		if k.Words == 0 {
			continue
		}
		fmt.Fprintf(tw, "%s\t%d\t%d\t%s\t\n", k.Kind, k.Words, k.InstrNonZero, pct(k.InstrNamed, k.InstrNonZero))
	}
	tw.Flush()
	if len(finds) > 0 {
		fmt.Fprintf(stdout, "\nFindings (%d):\n", len(finds))
		for _, fd := range finds {
			fmt.Fprintf(stdout, "  %-7s %s: %s [%s]\n", fd.Severity, safe(fd.File), safeMsg(fd.Message), fd.Code)
		}
	}
	return rc
}

func addCoverage(dst, k *inspect.CoverageKind) {
	dst.Members += k.Members
	dst.Bytes += k.Bytes
	dst.Significant += k.Significant
	dst.Named += k.Named
	dst.JSON += k.JSON
	dst.Unknown += k.Unknown
	dst.Hex += k.Hex
	dst.Words += k.Words
	dst.InstrNonZero += k.InstrNonZero
	dst.InstrNamed += k.InstrNamed
	dst.Unmeasured += k.Unmeasured
}

func pct(n, of int64) string {
	if of == 0 {
		return "-"
	}
	return fmt.Sprintf("%d (%.1f%%)", n, 100*float64(n)/float64(of))
}
