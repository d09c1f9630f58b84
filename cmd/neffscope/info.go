package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path"
	"strings"
	"text/tabwriter"

	"github.com/neffscope/neffscope/core/budget"
	"github.com/neffscope/neffscope/core/doc"
	"github.com/neffscope/neffscope/core/inspect"
	"github.com/neffscope/neffscope/core/manifest"
	"github.com/neffscope/neffscope/core/neff"
)

func init() {
	commands["info"] = command{"summarise NEFF files: header, hash verdict, features, members", runInfo}
	commands["inspect"] = command{"print the full document tree (the page's tree) of any file", runInspect}
	commands["extract"] = command{"write one member's bytes to stdout", runExtract}
}

// openFile opens a path with the inspector; the caller closes the returned file.
func openFile(path string, opt inspect.Options) (*inspect.File, *os.File, error) {
	fh, size, err := openInputSize(path)
	if err != nil {
		return nil, nil, err
	}
	if opt.Limits == (budget.Limits{}) {
		opt.Limits = cliLimits
	}
	f := inspect.Open(path, fh, size, opt)
	heapProfileAfterOpen()
	return f, fh, nil
}

// InfoJSON is the stable `info --json` contract: field names follow spec neff.md §1.1.
type InfoJSON struct {
	File     string        `json:"file"`
	Size     int64         `json:"size"`
	Header   *HeaderJSON   `json:"header"`
	Payload  PayloadJSON   `json:"payload"`
	Members  []MemberJSON  `json:"members"`
	Findings []FindingJSON `json:"findings"`
	Runtime  RuntimeJSON   `json:"runtime"`
	// Verdict is the overview's first answer as the open decides it: the hash, the runtime and
	// the errors; sync and memory are "pending" here (`neffscope check` decides them).
	Verdict *checkFileJSON `json:"verdict,omitempty"`
	// Model is the resolved program's I/O and engine word counts (absent when the file has no
	// manifests to resolve).
	Model *ModelJSON `json:"model,omitempty"`
	// Memory is the static device-memory budget per core (absent without a program).
	Memory *inspect.MemoryBudget `json:"memory,omitempty"`
	// DebugInfo is present when the NEFF has .dbg members: info leaves their scan out, so the
	// findings above do not include their checks (mapped false).
	DebugInfo *DebugInfoJSON `json:"debugInfo,omitempty"`
}

// DebugInfoJSON is `info --json`'s "debugInfo": the .dbg members and whether they were read.
type DebugInfoJSON struct {
	Members int   `json:"members"`
	Bytes   int64 `json:"bytes"`
	// Mapped: the members were scanned and joined to source lines (their findings are in
	// findings); info never maps them — `neffscope inspect` does.
	Mapped bool `json:"mapped"`
}

// ModelJSON is `info --json`'s "model": inputs, outputs, and instruction words per subgraph
// and engine ({"sg00": {"PE": 12, ...}}).
type ModelJSON struct {
	Inputs  []TensorJSON                `json:"inputs"`
	Outputs []TensorJSON                `json:"outputs"`
	Engines map[string]map[string]int64 `json:"engines"`
}

type TensorJSON struct {
	Name  string  `json:"name"`
	DType string  `json:"dtype"`
	Shape []int64 `json:"shape"`
	Bytes int64   `json:"bytes"` // -1 when the dtype's size is unknown
}

func modelJSON(p *inspect.Program) *ModelJSON {
	m := p.Model
	out := &ModelJSON{Inputs: []TensorJSON{}, Outputs: []TensorJSON{}, Engines: map[string]map[string]int64{}}
	tensors := func(ts []*manifest.Tensor) []TensorJSON {
		js := []TensorJSON{}
		for _, t := range ts {
			shape := t.Shape
			if shape == nil {
				shape = []int64{}
			}
			js = append(js, TensorJSON{Name: t.Name, DType: t.DType, Shape: shape, Bytes: t.Bytes})
		}
		return js
	}
	out.Inputs, out.Outputs = tensors(m.Inputs), tensors(m.Outputs)
	for _, c := range m.Cores {
		e := map[string]int64{}
		for _, en := range c.Engines {
			if en.StreamPath != "" && en.StreamSize >= 0 {
				e[en.Name] = en.Instructions
			}
		}
		out.Engines[c.Name] = e
	}
	return out
}

type HeaderJSON struct {
	PkgVersion        uint64   `json:"pkg_version"`
	HeaderSize        uint64   `json:"header_size"`
	DataSize          uint64   `json:"data_size"`
	NeffVersionMajor  uint64   `json:"neff_version_major"`
	NeffVersionMinor  uint64   `json:"neff_version_minor"`
	NeffBuildVersion  string   `json:"neff_build_version"`
	NumTPB            uint32   `json:"num_tpb"`
	Hash              string   `json:"hash"`
	UUID              string   `json:"uuid"`
	Name              string   `json:"name"`
	RequestedTPBCount uint32   `json:"requested_tpb_count"`
	TPBPerNode        []int    `json:"tpb_per_node"`
	FeatureBits       uint64   `json:"feature_bits"`
	FeatureNames      []string `json:"feature_names"`
	LNCSize           uint32   `json:"lnc_size"`
}

type PayloadJSON struct {
	Encoding     string `json:"encoding"`
	Integrity    string `json:"integrity"`
	ComputedHash string `json:"computed_hash"`
	PaddingBytes int64  `json:"padding_bytes"`
}

type MemberJSON struct {
	Path   string `json:"path"`
	Size   int64  `json:"size"`
	SHA256 string `json:"sha256"`
}

type FindingJSON struct {
	Code     doc.Code `json:"code"`
	Severity string   `json:"severity"`
	Message  string   `json:"message"`
	Member   string   `json:"member"`
	Offset   int64    `json:"offset"`
	// Cause is the code of the root cause's finding this one follows from (absent when none).
	Cause doc.Code `json:"cause,omitempty"`
}

type RuntimeJSON struct {
	Accepts bool   `json:"accepts"`
	Status  int    `json:"status"`
	Message string `json:"message,omitempty"`
	// Unchecked says why there is no verdict (neffscope's inflate limit stopped the read).
	Unchecked string `json:"unchecked,omitempty"`
}

func infoJSON(f *inspect.File) InfoJSON {
	out := InfoJSON{File: f.Name, Size: f.Size, Members: []MemberJSON{}, Findings: []FindingJSON{}}
	for _, fd := range f.Doc.Findings() {
		j := FindingJSON{Code: fd.Code, Severity: fd.Severity, Message: fd.Message, Cause: fd.Cause}
		if fd.Span != nil {
			j.Member, j.Offset = fd.Span.Source, fd.Span.Offset
		}
		out.Findings = append(out.Findings, j)
	}
	a := f.Archive
	if a == nil {
		out.Payload = PayloadJSON{Encoding: "unknown", Integrity: "not-checked"}
		return out
	}
	h := a.Header
	names, _ := neff.FeatureNames(h.FeatureBits)
	if names == nil {
		names = []string{}
	}
	out.Header = &HeaderJSON{
		PkgVersion: h.PkgVersion, HeaderSize: h.HeaderSize, DataSize: h.DataSize,
		NeffVersionMajor: h.NeffVersionMajor, NeffVersionMinor: h.NeffVersionMinor,
		NeffBuildVersion: h.NeffBuildVersion, NumTPB: h.NumTPB, Hash: h.StoredDigest(),
		UUID: h.UUIDString(), Name: h.Name, RequestedTPBCount: h.RequestedTPBCount,
		TPBPerNode: h.TPBPerNodeInts(), FeatureBits: h.FeatureBits, FeatureNames: names, LNCSize: h.LNCSize,
	}
	out.Payload = PayloadJSON{Encoding: a.Payload.Encoding, Integrity: a.Payload.Integrity, ComputedHash: a.Payload.ComputedHash, PaddingBytes: a.Payload.PaddingBytes}
	for _, m := range a.Members {
		out.Members = append(out.Members, MemberJSON{Path: m.Path, Size: m.Size, SHA256: m.SHA256})
	}
	out.Runtime = RuntimeJSON{Accepts: a.Verdict.Accepts, Status: a.Verdict.Status, Message: a.Verdict.Message, Unchecked: a.Verdict.Unchecked}
	if v := overviewVerdict(f); v != nil {
		j := checkFile(f.Name, v)
		out.Verdict = &j
	}
	if f.Program != nil && f.Program.Model != nil {
		out.Model = modelJSON(f.Program)
	}
	out.Memory = inspect.Memory(f)
	if n, size := inspect.DbgMembers(a); n > 0 {
		out.DebugInfo = &DebugInfoJSON{Members: n, Bytes: size, Mapped: !f.SourcePending()}
	}
	return out
}

func commonFlags(fs *flag.FlagSet) *int64 {
	budgetFlags(fs)
	return fs.Int64("max-inflate", neff.DefaultMaxInflated, "stop decompressing after this many bytes (gzip-bomb guard)")
}

// forEachFile parses the flags shared by the commands that read whole files (--json,
// --max-inflate), opens each FILE argument and hands it to show, which returns its exit code;
// the worst code wins.
func forEachFile(name, jsonHelp string, fingerprint bool, args []string, stderr io.Writer, flags func(fs *flag.FlagSet), show func(f *inspect.File, asJSON bool) int) int {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	asJSON := fs.Bool("json", false, jsonHelp)
	maxInflate := commonFlags(fs)
	if flags != nil {
		flags(fs)
	}
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: neffscope %s [flags] FILE...\n\n%s (the worst over the FILEs)\n\n", name, exitHelp)
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return parseExit(err)
	}
	if fs.NArg() == 0 {
		fs.Usage()
		return 2
	}
	rc := 0
	shared := commandBudget()
	for _, p := range fs.Args() {
		// info prints no source lines: it leaves the .dbg scans out (half of a big open) and
		// says so under the members.
		f, fh, err := openFile(p, inspect.Options{MaxInflated: *maxInflate, Fingerprint: fingerprint, DeferSource: name == "info", Within: shared})
		if err != nil {
			fmt.Fprintf(stderr, "neffscope: %v\n", err)
			rc = 2
			continue
		}
		// Closed after show: printing builds stubs' children, which reads the file again.
		rc = max(rc, show(f, *asJSON))
		fh.Close()
		f.Budget.Done() // the next file's open has the whole command budget again
	}
	return rc
}

func runInfo(args []string, stdout, stderr io.Writer) int {
	var opt infoOptions
	flags := func(fs *flag.FlagSet) {
		fs.BoolVar(&opt.members, "members", false, "list every member with its size (by default they are summarised by kind)")
	}
	return forEachFile("info", "print one JSON object per file (the stable contract for scripts)", false, args, stderr, flags, func(f *inspect.File, asJSON bool) int {
		if asJSON {
			writeInfoJSON(jsonStdout(stdout), infoJSON(f))
		} else {
			printInfo(stdout, f, opt)
			relayLimits(stderr, f, false) // info --json lists them with their codes; printInfo leaves them out
		}
		if doc.Worst(f.Doc.Findings()) == doc.Error {
			return 1
		}
		return 0
	})
}

// writeInfoJSON writes v and a newline as json.MarshalIndent(v, "", "  ") prints it, byte for
// byte, with the members encoded one at a time: a NEFF of 200,000 members made its compact and
// indented encodings tens of MB at once.
func writeInfoJSON(w io.Writer, v InfoJSON) error {
	members := v.Members
	v.Members = []MemberJSON{}
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	const key = "\n  \"members\": []" // a raw newline is never inside a string
	at := bytes.Index(b, []byte(key))
	if at < 0 || len(members) == 0 {
		_, err := fmt.Fprintf(w, "%s\n", b)
		return err
	}
	open := at + len(key) - 1 // the "]"
	bw := bufio.NewWriterSize(w, 64<<10)
	bw.Write(b[:open])
	for i, m := range members {
		e, err := json.MarshalIndent(m, "    ", "  ")
		if err != nil {
			return err
		}
		if i > 0 {
			bw.WriteByte(',')
		}
		bw.WriteString("\n    ")
		bw.Write(e)
	}
	bw.WriteString("\n  ")
	bw.Write(b[open:])
	bw.WriteByte('\n')
	return bw.Flush()
}

// infoOptions are info's own flags.
type infoOptions struct {
	members bool // list every member, not a summary by kind
}

func printInfo(w io.Writer, f *inspect.File, opt infoOptions) {
	fmt.Fprintf(w, "%s  (%s, %s)\n", f.Name, neff.HumanSize(f.Size), f.Doc.Kind)
	a := f.Archive
	if a != nil {
		h := a.Header
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "NEFF Header:")
		row := func(k, v string) { fmt.Fprintf(tw, "  %s\t%s\n", k, v) }
		row("Package Version (pkg_version)", fmt.Sprint(h.PkgVersion))
		row("Header Size", fmt.Sprintf("%d (bytes)", h.HeaderSize))
		row("Data Size", fmt.Sprintf("%d (bytes)", h.DataSize))
		row("Major Version", fmt.Sprint(h.NeffVersionMajor))
		row("Minor Version", fmt.Sprint(h.NeffVersionMinor))
		bv := h.NeffBuildVersion
		if bv == "" {
			bv = "(empty)"
		}
		row("Build Version", safe(bv))
		row("Number of Neuron cores", coresText(h.NumTPB, h.LNCSize))
		row("Requested cores", fmt.Sprint(h.RequestedTPBCount))
		row("LNC size", fmt.Sprint(h.LNCSize))
		row("Hash", fmt.Sprintf("%s  (%s %s)", h.StoredDigest(), strings.ToUpper(a.Payload.HashAlgo), a.Payload.Integrity))
		row("UUID", h.UUIDString())
		row("Network Name", safe(h.Name))
		feat := "N/A"
		if h.FeatureBits != 0 {
			names, _ := neff.FeatureNames(h.FeatureBits)
			feat = fmt.Sprintf("0x%x  %s", h.FeatureBits, strings.Join(names, ", "))
		}
		row("Enabled Features", feat)
		tw.Flush()
		if a.Payload.Encoding == "gzip" && a.Payload.GzipLength == 0 {
			// The gzip stream never reached its end: its length and the padding are not known.
			fmt.Fprintf(w, "Payload: gzip, cut short (no end of the gzip stream: its length and the padding are not known), %d bytes of tar read\n", a.Payload.TarLength)
		} else {
			fmt.Fprintf(w, "Payload: %s, gzip stream %d bytes, tar %d bytes, %d bytes of padding\n", a.Payload.Encoding, a.Payload.GzipLength, a.Payload.TarLength, a.Payload.PaddingBytes)
		}
		if a.Verdict.Unchecked != "" {
			fmt.Fprintf(w, "Runtime: not checked: %s\n", a.Verdict.Unchecked)
		} else if a.Verdict.Accepts {
			fmt.Fprintln(w, "Runtime: libnrt 2.31 would accept this container")
		} else {
			fmt.Fprintf(w, "Runtime: libnrt 2.31 would REJECT this file (%s): %q\n", a.Verdict.StatusName(), a.Verdict.Message)
		}
		if v := overviewVerdict(f); v != nil {
			fmt.Fprintf(w, "Verdict: %s", safeMsg(v.Value))
			if v.Attrs[inspect.AttrVerdict] == inspect.VerdictOpen {
				fmt.Fprint(w, " ('neffscope check' works out the sync and memory checks)")
			}
			fmt.Fprintln(w)
		}
		if f.Program != nil {
			unread := unreadCores(f)
			printModel(w, f.Program, unread)
			printMemory(w, inspect.Memory(f), false, unread)
		}
		if opt.members {
			fmt.Fprintf(w, "Members (%d):\n", len(a.Members))
			width := 1
			for _, m := range a.Members {
				width = max(width, len(fmt.Sprint(m.Size)))
			}
			for _, m := range a.Members {
				note := ""
				if m.Truncated {
					note = fmt.Sprintf("  TRUNCATED at byte %d", m.Read)
				}
				fmt.Fprintf(w, "  %*d  %s%s\n", width, m.Size, safe(m.Path), note)
			}
		} else {
			printMemberSummary(w, f)
		}
		if n, size := inspect.DbgMembers(a); n > 0 && f.SourcePending() {
			fmt.Fprintf(w, "Debug info: %d .dbg members (%s) not read by info; 'neffscope inspect' maps them to kernel source lines and checks them.\n", n, neff.HumanSize(size))
		}
	}
	printFindings(w, unrelayed(f.Doc.Findings())) // the limits are named on stderr, with their codes
	fmt.Fprintln(w)
}

// printFindings lists the findings with every consequence of a root cause (a file cut short,
// a hash mismatch, no NEFF) under the root cause's own finding, then the others.
func printFindings(w io.Writer, fs []doc.Finding) {
	if len(fs) == 0 {
		return
	}
	line := func(indent string, fd doc.Finding) {
		where := ""
		if fd.Span != nil {
			where = " [" + fd.Span.String() + "]"
		}
		fmt.Fprintf(w, "%s%-7s %s%s [%s]\n", indent, fd.Severity, safeMsg(fd.Message), where, fd.Code)
	}
	fmt.Fprintf(w, "Findings (%d):\n", len(fs))
	causes := map[doc.Code][]doc.Finding{}
	for _, fd := range fs {
		if fd.Cause != "" {
			causes[fd.Cause] = append(causes[fd.Cause], fd)
		}
	}
	for _, fd := range fs {
		switch {
		case fd.Cause != "":
			continue // listed under its root cause
		case len(causes[fd.Code]) > 0:
			line("  ", fd)
			fmt.Fprintf(w, "    because of it (%d; their own advice gives way to this one's):\n", len(causes[fd.Code]))
			for _, c := range causes[fd.Code] {
				line("    ", c)
			}
			delete(causes, fd.Code) // a root cause found twice lists them once
		default:
			line("  ", fd)
		}
	}
	for code, rest := range causes { // a root cause whose own finding was not listed
		fmt.Fprintf(w, "  because of %s:\n", code)
		for _, c := range rest {
			line("    ", c)
		}
	}
}

// unreadCores names the cores whose def.json is not in the file (a file cut short before it):
// their figures are not known, and no zero stands for them.
func unreadCores(f *inspect.File) map[string]string {
	out := map[string]string{}
	if f.Program == nil || f.Program.Model == nil || f.Archive == nil {
		return out
	}
	for _, c := range f.Program.Model.Cores {
		if m := f.Archive.Member(c.DefPath); m == nil {
			out[c.Name] = "its " + c.DefPath + " is not in the file"
		} else if m.Truncated {
			out[c.Name] = "its " + c.DefPath + " is cut short"
		}
	}
	return out
}

func runInspect(args []string, stdout, stderr io.Writer) int {
	var maxOutput *outputCap
	var capped *jsonCapWriter // one for all the files: the cap is the output's
	return forEachFile("inspect", "print the Document as JSON (one object per file)", true, args, stderr, func(fs *flag.FlagSet) { maxOutput = outputCapFlag(fs) }, func(f *inspect.File, asJSON bool) int {
		if asJSON {
			out := jsonStdout(stdout)
			if limit := maxOutput.limit(rawStdout(stdout)); limit > 0 {
				if capped == nil {
					capped = &jsonCapWriter{w: out, limit: limit}
				}
				out = capped
			}
			// Written as it walks: stubs' children are built a page at a time, never held.
			restore := roomToWrite()
			stubs, err := f.WriteJSON(out)
			restore()
			if errors.Is(err, errOutputCapped) {
				fmt.Fprintf(stderr, "neffscope inspect: %s: the JSON stopped at --max-output %d bytes (--max-output 0 lifts the cap) [output.cap]\n", safe(f.Name), capped.limit)
				return 1
			}
			if err != nil {
				fmt.Fprintf(stderr, "neffscope inspect: %s: %v\n", f.Name, err)
				return 2
			}
			if stubs > 0 {
				fmt.Fprintf(stderr, "neffscope inspect: %s: %d nodes were left as stubs (their \"more\" attribute counts their children): expanding them would pass the values limit (%d nodes); raise it: neffscope inspect --json --max-values N\n", safe(f.Name), stubs, f.Budget.Limit(budget.Values))
				return 1
			}
		} else {
			tp := &treePrinter{w: stdout, f: f, left: f.Budget.Limit(budget.Values)}
			tp.print(f.Doc.Root, 0)
			relayLimits(stderr, f, false) // the tree leaves them out
			if tp.stubs > 0 {
				fmt.Fprintf(stderr, "neffscope inspect: %s: %d nodes were not expanded: their children would pass the values limit (%d nodes); raise it: neffscope inspect --max-values N [%s]\n", safe(f.Name), tp.stubs, f.Budget.Limit(budget.Values), doc.CodeBudgetValues)
				return 1
			}
		}
		return exitFor(f)
	})
}

// treePrinter prints the document as an indented outline. A stub's children are built a page
// at a time as it goes, as many in all as the values limit allows (as inspect --json does):
// a 60 MiB JSON array is 30 M lines otherwise.
type treePrinter struct {
	w     io.Writer
	f     *inspect.File
	left  int64 // stub children still to print
	stubs int   // stubs not expanded
}

func (p *treePrinter) print(n *doc.Node, depth int) {
	if n == nil {
		return
	}
	w := p.w
	line := strings.Repeat("  ", depth) + safe(n.Label)
	if n.Value != "" {
		line += ": " + safeMsg(n.Value)
	}
	if n.Detail != "" && depth > 0 {
		line += "    — " + safeMsg(n.Detail)
	}
	fmt.Fprintln(w, line)
	for _, f := range unrelayed(n.Findings) { // the limits are named on stderr, with their codes
		fmt.Fprintf(w, "%s  ! %s: %s\n", strings.Repeat("  ", depth), f.Severity, safeMsg(f.Message))
	}
	if v := n.Attrs[doc.AttrViewLimit]; v != "" { // a limit of this view, not a finding
		fmt.Fprintf(w, "%s  (view: %s)\n", strings.Repeat("  ", depth), safeMsg(v))
	}
	if !inspect.IsStub(n) {
		for _, c := range n.Children {
			p.print(c, depth+1)
		}
		return
	}
	total := inspect.ChildCount(n)
	if int64(total) > p.left {
		p.stubs++
		fmt.Fprintf(w, "%s  (%d children not shown: the values limit; --max-values)\n", strings.Repeat("  ", depth), total)
		return
	}
	p.left -= int64(total)
	for from := 0; from < total; from += 1024 {
		kids, _, err := p.f.ChildrenOf(n, from, from+1024)
		if err != nil {
			fmt.Fprintf(w, "%s  ! error: %s\n", strings.Repeat("  ", depth), safeMsg(err.Error()))
			return
		}
		for _, c := range kids {
			p.print(c, depth+1)
		}
	}
}

func runExtract(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("extract", flag.ContinueOnError)
	fs.SetOutput(stderr)
	maxInflate := fs.Int64("max-inflate", neff.DefaultMaxInflated, "stop decompressing after this many bytes (gzip-bomb guard)")
	fs.Usage = func() {
		fmt.Fprint(stderr, "usage: neffscope extract [--max-inflate N] FILE MEMBER  (bytes to stdout)\n\n"+exitHelp+"\n(a MEMBER the FILE does not hold is bad usage; one cut short, an error finding)\n\n")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return parseExit(err)
	}
	if fs.NArg() != 2 {
		fs.Usage()
		return 2
	}
	fh, size, err := openInputSize(fs.Arg(0))
	if err != nil {
		fmt.Fprintf(stderr, "neffscope: %v\n", err)
		return 2
	}
	defer fh.Close()
	if !isNEFFFile(fs.Arg(0)) {
		fmt.Fprintf(stderr, "neffscope: %s is not a NEFF (no NEFF header): it has no members to extract\n", safe(fs.Arg(0)))
		return 2
	}
	out := &failWriter{w: stdout}
	if err := neff.ReadMemberLimit(fh, size, fs.Arg(1), 0, -1, out, *maxInflate); err != nil {
		if out.err != nil { // the output failed, not the file
			fmt.Fprintf(stderr, "neffscope: writing %s: %v\n", safe(fs.Arg(1)), out.err)
			return 2
		}
		fmt.Fprintf(stderr, "neffscope: %s: %v\n", safe(fs.Arg(0)), err)
		if strings.HasPrefix(err.Error(), "no member ") { // neff.ReadMemberLimit's: MEMBER named none
			return 2
		}
		return 1 // the member is cut short, or the archive is damaged before it
	}
	return 0
}

// failWriter passes writes to w and keeps the first error, so a caller can tell an output
// that failed from an input that did.
type failWriter struct {
	w   io.Writer
	err error
}

func (o *failWriter) Write(b []byte) (int, error) {
	n, err := o.w.Write(b)
	if err != nil && o.err == nil {
		o.err = err
	}
	return n, err
}

// overviewVerdict is the verdict node of f's overview (nil when the file has none).
func overviewVerdict(f *inspect.File) *doc.Node {
	if f.Doc == nil || f.Doc.Root == nil || len(f.Doc.Root.Children) == 0 || f.Doc.Root.Children[0].Kind != doc.KindOverview {
		return nil
	}
	return f.Doc.Root.Children[0].Child(inspect.OverviewVerdict)
}

// ioShown is how many inputs (and outputs) info lists before it counts the rest.
const ioShown = 12

// printModel prints the program summary: target, inputs and outputs, cores and engines.
func printModel(w io.Writer, p *inspect.Program, unread map[string]string) {
	m := p.Model
	fmt.Fprintf(w, "Model: target %q (%s), %s", m.Target, safe(m.ArchName), subgraphsText(len(m.Cores)))
	if m.Info != nil && m.Info.ToolVersion != "" {
		fmt.Fprintf(w, ", compiled by neuronx-cc %s", m.Info.ToolVersion)
	}
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, group := range []struct {
		title string
		ts    []*manifest.Tensor
	}{{"input", m.Inputs}, {"output", m.Outputs}} {
		// A screen, not a dump: past ioShown tensors of a kind the rest are counted
		// ('info --json' has them all).
		for i, t := range group.ts {
			if i == ioShown-1 && len(group.ts) > ioShown {
				fmt.Fprintf(tw, "  %s\t… %d more\t\t\t('info --json' lists them)\n", group.title, len(group.ts)-i)
				break
			}
			fmt.Fprintf(tw, "  %s\t%s\t%s\t%v\t%d bytes\n", group.title, safe(t.Name), safe(t.DType), t.Shape, t.Bytes)
		}
	}
	tw.Flush()
	for _, c := range m.Cores {
		if why := unread[c.Name]; why != "" {
			fmt.Fprintf(w, "  core %s: not read: %s\n", c.Name, safeMsg(why))
			continue
		}
		var parts []string
		for _, e := range c.Engines {
			parts = append(parts, fmt.Sprintf("%s %d", safe(e.Name), e.Instructions))
		}
		fmt.Fprintf(w, "  core %s: %s instructions", c.Name, strings.Join(parts, ", "))
		for _, e := range c.Engines {
			if len(e.ActivationSets) > 0 {
				var sets []string
				for _, s := range e.ActivationSets {
					sets = append(sets, safe(s.Name))
				}
				fmt.Fprintf(w, "; activation sets %s", strings.Join(sets, ", "))
			}
		}
		fmt.Fprintln(w)
	}
}

// coresText is the header's num_tpb with what it counts: at LNC 2 one logical NeuronCore is two
// physical cores fused (spec neff.md §1.1: lnc_size), so a file that says 1 core has two
// subgraphs, one per physical core (§2.4).
func coresText(tpb, lnc uint32) string {
	if lnc <= 1 {
		return fmt.Sprint(tpb)
	}
	return fmt.Sprintf("%d logical (LNC %d: %d physical)", tpb, lnc, uint64(tpb)*uint64(lnc))
}

// subgraphsText says how many sgNN subgraphs the model has: one per physical NeuronCore.
func subgraphsText(n int) string {
	if n == 1 {
		return "1 subgraph (one physical core)"
	}
	return fmt.Sprintf("%d subgraphs (one per physical core)", n)
}

// memberClass is one line of info's member summary.
type memberClass struct {
	label   string
	members int
	bytes   int64
	trunc   int
}

// printMemberSummary prints the members by kind, a line each, and the truncated ones by name
// (what a reader must not miss); --members lists them all.
func printMemberSummary(w io.Writer, f *inspect.File) {
	a := f.Archive
	order := []string{"instruction streams", "engine JSON", "activation tables", "debug info", "manifests and other JSON", "other binaries"}
	classes := map[string]*memberClass{}
	var truncated []string
	var total int64
	for _, m := range a.Members {
		label := classOfMember(f, m.Path)
		c := classes[label]
		if c == nil {
			c = &memberClass{label: label}
			classes[label] = c
		}
		c.members++
		c.bytes += m.Size
		total += m.Size
		if m.Truncated {
			c.trunc++
			truncated = append(truncated, fmt.Sprintf("%s (at byte %d of %d)", safe(m.Path), m.Read, m.Size))
		}
	}
	fmt.Fprintf(w, "Members: %d, %s in all ('info --members' lists them)\n", len(a.Members), neff.HumanSize(total))
	nw, bw := 1, 1
	for _, c := range classes {
		nw = max(nw, len(fmt.Sprint(c.members)))
		bw = max(bw, len(neff.HumanSize(c.bytes)))
	}
	for _, label := range order {
		if c := classes[label]; c != nil {
			fmt.Fprintf(w, "  %*d  %-*s  %s\n", nw, c.members, bw, neff.HumanSize(c.bytes), label)
		}
	}
	const shown = 5
	for i, t := range truncated {
		if i == shown {
			fmt.Fprintf(w, "  … and %d more truncated\n", len(truncated)-shown)
			break
		}
		fmt.Fprintf(w, "  TRUNCATED %s\n", t)
	}
}

// classOfMember sorts a member into info's summary classes, by what the open made of it.
func classOfMember(f *inspect.File, p string) string {
	lower := strings.ToLower(p)
	if f.Program != nil {
		if ps := f.Program.Stream(p); ps != nil {
			return "instruction streams"
		}
		for _, c := range f.Program.Model.Cores {
			for _, e := range c.Engines {
				if e.JSONPath == p {
					return "engine JSON"
				}
				base := path.Base(p)
				for _, s := range e.ActivationSets {
					if base == s.Name+".json" || base == s.Name+"_bkt.bin" || base == s.Name+"_ctrl.bin" {
						return "activation tables"
					}
				}
			}
		}
	}
	switch {
	case strings.HasSuffix(lower, ".dbg") || strings.Contains(lower, ".dbg_") || strings.HasSuffix(lower, ".debuginfo.json") || strings.HasPrefix(lower, "debug_info/"):
		return "debug info"
	case strings.HasSuffix(lower, ".json"):
		return "manifests and other JSON"
	}
	return "other binaries"
}
