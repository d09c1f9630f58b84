package main

import (
	"flag"
	"fmt"
	"io"
	"text/tabwriter"
	"unicode/utf8"

	"github.com/neffscope/neffscope/core/doc"
	"github.com/neffscope/neffscope/core/fleet"
	"github.com/neffscope/neffscope/core/inspect"
)

func init() {
	commands["diff"] = command{"compare two NEFFs (kernel source lines, header, members, instruction counts), or two HLO modules or cache entries (why it recompiled)", runDiff}
}

// runDiff exits like diff(1): 0 identical, 1 different (or an error finding printed: a file
// whose own open reported an error, such as a limit, is compared only as far as it was
// decoded), 2 trouble (usage, unreadable file, or files that cannot be compared).
func runDiff(args []string, stdout, stderr io.Writer) int {
	if hloInputs(args) {
		return runHLODiff(args, stdout, stderr)
	}
	fs := flag.NewFlagSet("diff", flag.ContinueOnError)
	asJSON := fs.Bool("json", false, "print the diff tree as JSON")
	files, rc := openInputs(fs, args, stderr, "usage: neffscope diff [--json] A.neff B.neff\n       neffscope diff [--json] A.hlo_module.pb B.hlo_module.pb\n       neffscope diff [--json] ENTRY_A ENTRY_B   (cache entries MODULE_<hash>+<flags>/: folders, in a .tar/.tar.gz, or s3://bucket/…)\n\nexit status: 0 identical, 1 different (or an error finding printed), 2 trouble (bad usage, a FILE\nthat cannot be read, two files that are not both NEFFs or both HLO modules)", 2, 2, nil)
	if files == nil {
		return rc
	}
	d := fleet.Diff(files[0], files[1])
	addFileErrors(d, files, *asJSON)
	lrc := relayOnto(d, files, stderr, *asJSON)
	if *asJSON {
		b, err := doc.NodeJSON(d, 2)
		if err != nil {
			fmt.Fprintf(stderr, "neffscope: encoding the diff as JSON: %v\n", err)
			return 2
		}
		fmt.Fprintf(jsonStdout(stdout), "%s\n", b)
	} else {
		printDiff(stdout, d)
	}
	switch {
	case files[0].Archive == nil || files[1].Archive == nil: // Diff's error says so
		return 2
	case fleet.DiffIdentical(d) && !treeHasError(d) && lrc == 0:
		return 0
	}
	return 1
}

// openInputs is the argument and open boilerplate of diff, compare and profile: it registers
// the budget flags and --max-inflate on fs (whose own flags are already defined), parses args,
// checks the FILE count is in [lo, hi] (hi 0: no upper bound) and usable (nil: always) holds,
// then opens each FILE under the flags' limits. On any failure it has printed why (the usage,
// or the open's error) and files is nil: the command exits with rc (parseExit's code, or 2).
func openInputs(fs *flag.FlagSet, args []string, stderr io.Writer, usage string, lo, hi int, usable func() bool, tune ...func(*inspect.Options)) (files []*inspect.File, rc int) {
	fs.SetOutput(stderr)
	maxInflate := commonFlags(fs)
	fs.Usage = func() {
		fmt.Fprintln(stderr, usage)
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return nil, parseExit(err)
	}
	if n := fs.NArg(); n < lo || (hi > 0 && n > hi) || (usable != nil && !usable()) {
		fs.Usage()
		return nil, 2
	}
	shared := commandBudget()
	opened := map[string]*inspect.File{}
	for _, p := range fs.Args() {
		// A path named twice (compare F G F) is opened once: one budget, not one per name.
		if f := opened[p]; f != nil {
			files = append(files, f)
			continue
		}
		opt := inspect.Options{MaxInflated: *maxInflate, Within: shared}
		for _, t := range tune {
			t(&opt) // after the flags are parsed: a command's own flags may pick options
		}
		f, fh, err := openFile(p, opt)
		if err != nil {
			fmt.Fprintf(stderr, "neffscope: %v\n", err)
			return nil, 2
		}
		// Left open for the command's life: streams and stubs are read again on demand.
		_ = fh
		opened[p] = f
		files = append(files, f)
	}
	return files, 0
}

// maxFileErrors is how many of one file's own error findings addFileErrors copies.
const maxFileErrors = 3

// addFileErrors copies each file's own error findings (a limit that stopped its open, a cut or
// corrupt container) onto n, the diff, comparison or profile, as errors naming the file: these
// commands print n's findings, not each file's, and a result computed from a file decoded only
// in part must say so (and exit 1, as every command does when it prints an error). As text
// (asJSON false) the limit findings are left to relayOnto's stderr lines, which carry their
// codes, so each is named once; relayOnto's rc says whether one of them was an error.
func addFileErrors(n *doc.Node, files []*inspect.File, asJSON bool) {
	for _, f := range files {
		if f == nil || f.Doc == nil || f.Doc.Root == nil {
			continue
		}
		var errs []doc.Finding
		for _, fd := range f.Doc.Findings() {
			if fd.Severity == doc.Error && (asJSON || !doc.IsLimit(fd.Code)) {
				errs = append(errs, fd)
			}
		}
		for i, fd := range errs {
			if i == maxFileErrors {
				n.Errorf(doc.CodeDiffFileErrors, nil, "%s: %d more errors (neffscope info %s lists them all).", f.Name, len(errs)-maxFileErrors, f.Name)
				break
			}
			n.Errorf(fd.Code, nil, "%s: %s", f.Name, fd.Message)
		}
	}
}

// treeHasError reports whether any node of n carries an error finding.
func treeHasError(n *doc.Node) bool {
	found := false
	n.Walk(func(_ []string, c *doc.Node) bool {
		found = found || doc.Worst(c.Findings) == doc.Error
		return !found
	})
	return found
}

var changeMark = map[string]string{fleet.DiffChanged: "M", fleet.DiffAdded: "A", fleet.DiffRemoved: "D"}

func printDiff(w io.Writer, d *doc.Node) {
	fmt.Fprintf(w, "%s\n%s\n", d.Detail, d.Value)
	if why := d.Child("recompile"); why != nil {
		fmt.Fprintf(w, "\nwhy it recompiled (cache key a: %s; b: %s):\n", why.Table.Rows[0][1], why.Table.Rows[0][2])
		for _, r := range why.Children {
			fmt.Fprintf(w, "  %s\n", r.Value)
		}
	}
	for _, f := range d.Findings {
		fmt.Fprintf(w, "%s: %s\n", f.Severity, f.Message)
	}
	printSourceDiff(w, d)
	members := d.Child("members")
	if members != nil && len(members.Children) > 0 {
		fmt.Fprintf(w, "\nmembers (%s):\n", members.Value)
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		for _, c := range members.Children {
			extra := ""
			if c.Detail != "" {
				extra = "  (" + c.Detail + ")"
			}
			fmt.Fprintf(tw, " %s %s\t%s%s\n", changeMark[c.Kind], shortPath(c.Label), c.Value, extra)
		}
		tw.Flush()
		for _, f := range members.Findings {
			fmt.Fprintf(w, "  %s: %s\n", f.Severity, f.Message)
		}
	}
	if h := d.Child("header"); h != nil && len(h.Children) > 0 {
		fmt.Fprintf(w, "\nheader (%s):\n", h.Value)
		printChanges(w, h.Children, "  ")
	}
	if m := d.Child("model"); m != nil && len(m.Children) > 0 {
		fmt.Fprintf(w, "\nmodel (%s):\n", m.Value)
		printChanges(w, m.Children, "  ")
	}
	if in := d.Child("instructions"); in != nil && (len(in.Children) > 0 || sameCountsOtherBytes(in) != nil) {
		fmt.Fprintf(w, "\ninstructions (%s):\n", in.Value)
		printChanges(w, in.Children, "  ")
		for _, m := range sameCountsOtherBytes(in) {
			fmt.Fprintf(w, "  ~ %s: same opcode counts, other operands\n", m)
		}
		for _, c := range in.Children {
			if c.Table == nil {
				continue
			}
			fmt.Fprintf(w, "  %s opcodes:\n", c.Label)
			tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
			for _, r := range c.Table.Rows {
				fmt.Fprintf(tw, "    %s\t%s → %s\t(%s)\n", r[0], r[1], r[2], r[3])
			}
			tw.Flush()
		}
	}
	if members == nil {
		return
	}
	for _, c := range members.Children {
		if c.Kind != fleet.DiffChanged || (len(c.Children) <= 2 && len(c.Findings) == 0) {
			continue
		}
		fmt.Fprintf(w, "\n%s:\n", shortPath(c.Label))
		for _, f := range c.Findings {
			fmt.Fprintf(w, "  %s: %s\n", f.Severity, f.Message)
		}
		printChanges(w, c.Children[2:], "  ")
	}
}

// maxPathPrinted bounds a member path in the text diff: the member table pads every row to
// its widest path, so one path 500,000 levels deep made every row a megabyte.
const maxPathPrinted = 512

// shortPath is p, or its start and end around "…" and its length when longer than
// maxPathPrinted bytes (--json has it whole).
func shortPath(p string) string {
	if len(p) <= maxPathPrinted {
		return p
	}
	head, tail := p[:maxPathPrinted/2], p[len(p)-maxPathPrinted/4:]
	for !utf8.ValidString(head) && len(head) > 0 {
		head = head[:len(head)-1]
	}
	for !utf8.ValidString(tail) && len(tail) > 0 {
		tail = tail[1:]
	}
	return fmt.Sprintf("%s…%s (a path of %d bytes, cut; diff --json has it whole)", head, tail, len(p))
}

// printChanges prints change nodes as "- path: a" / "+ path: b" lines, like a unified diff.
func printChanges(w io.Writer, cs []*doc.Node, indent string) {
	for _, c := range cs {
		if a := c.Child("a"); a != nil {
			fmt.Fprintf(w, "%s- %s: %s\n", indent, shortPath(c.Label), a.Value)
		}
		if b := c.Child("b"); b != nil {
			fmt.Fprintf(w, "%s+ %s: %s\n", indent, shortPath(c.Label), b.Value)
		}
	}
}

// sameCountsOtherBytes lists the streams whose opcode counts match but whose bytes differ.
func sameCountsOtherBytes(in *doc.Node) []string {
	var out []string
	if in.Table == nil {
		return nil
	}
	for _, r := range in.Table.Rows {
		if len(r) == 6 && r[5] == "operands" {
			out = append(out, r[0])
		}
	}
	return out
}

// maxSourceRowsPrinted bounds the source-line rows the text diff prints (--json has them all).
const maxSourceRowsPrinted = 40

// printSourceDiff prints the kernel lines that differ and their first differing words: what
// changed in the kernel, before which bytes changed.
func printSourceDiff(w io.Writer, d *doc.Node) {
	src := d.Child(fleet.DiffSourceLines)
	if src == nil || src.Table == nil || len(src.Table.Rows) == 0 {
		return
	}
	fmt.Fprintf(w, "\nsource lines (%s):\n", src.Value)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "  %s\n", joinTab(src.Table.Columns))
	for i, r := range src.Table.Rows {
		if i == maxSourceRowsPrinted {
			fmt.Fprintf(tw, "  … %d more (neffscope diff --json lists them)\n", len(src.Table.Rows)-i)
			break
		}
		fmt.Fprintf(tw, "  %s\n", joinTab(r))
	}
	tw.Flush()
	for _, f := range src.Findings {
		fmt.Fprintf(w, "  %s: %s\n", f.Severity, f.Message)
	}
	words := d.Child(fleet.DiffSourceWords)
	if words == nil || len(words.Children) == 0 {
		return
	}
	fmt.Fprintf(w, "\nsource instructions (%s):\n", words.Value)
	for _, c := range words.Children {
		fmt.Fprintf(w, "  %s\n", c.Label)
		if a := c.Child("a"); a != nil {
			fmt.Fprintf(w, "    - %s: %s\n", a.Detail, a.Value)
		}
		if b := c.Child("b"); b != nil {
			fmt.Fprintf(w, "    + %s: %s\n", b.Detail, b.Value)
		}
	}
}
