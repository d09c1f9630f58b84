package main

import (
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/neffscope/neffscope/core/inspect"
	"github.com/neffscope/neffscope/core/isa"
)

func init() {
	commands["disasm"] = command{"disassemble the engine instruction streams a NEFF's manifests name", runDisasm}
}

// disasmJSON is the `disasm --json` contract: scripts read it.
type disasmJSON struct {
	Streams []streamJSON `json:"streams"`
}

type streamJSON struct {
	Subgraph     string     `json:"subgraph"`
	Engine       string     `json:"engine"`
	Member       string     `json:"member"`
	Count        int        `json:"count"`
	Instructions []instJSON `json:"instructions"`
}

type instJSON struct {
	Index      int               `json:"index"`
	Offset     int64             `json:"offset"`
	Opcode     uint8             `json:"opcode"`
	Name       string            `json:"name"`
	Fields     map[string]string `json:"fields"`
	Activation *actJSON          `json:"activation,omitempty"`
	DMA        *dmaJSON          `json:"dma,omitempty"`
	// Layout is the byte span of every field; names starting with "unknown" are bytes of
	// unknown meaning. PartOf, on the second word of a two-word 0xD4+0xDA, is the index of
	// its 0xD4.
	Layout []isa.LayoutSpan `json:"layout"`
	PartOf *int             `json:"part_of,omitempty"`
	Source *sourceJSON      `json:"source,omitempty"`
}

// sourceJSON is where a word came from, by the NEFF's debug info (file and line are null
// where the backend record names none).
type sourceJSON struct {
	BIR    string  `json:"bir"`
	File   *string `json:"file"`
	Line   *int    `json:"line"`
	Kernel string  `json:"kernel,omitempty"`
	Via    string  `json:"via,omitempty"` // "penguin": file and line from the record's penguin parent
}

// wordSource returns the source of word i of a stream (nil where the NEFF has no debug info).
func wordSource(p *inspect.Program, s *inspect.ProgramStream, i int) *sourceJSON {
	src := p.Source.Source(s.Member, i)
	if src == nil {
		return nil
	}
	j := &sourceJSON{BIR: src.BIR, Kernel: src.Kernel, Via: src.Via}
	if src.File != "" {
		j.File = &src.File
	}
	if src.Line > 0 {
		j.Line = &src.Line
	}
	return j
}

type actJSON struct {
	Set      string `json:"set"`
	Function string `json:"function,omitempty"`
}

type dmaJSON struct {
	Queue string `json:"queue"`
	Block string `json:"block"`
	Src   string `json:"src,omitempty"` // 0xD4: source and destination joined with def.json's vars
	Dst   string `json:"dst,omitempty"`
}

func runDisasm(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("disasm", flag.ContinueOnError)
	fs.SetOutput(stderr)
	sg := fs.String("sg", "", "only this subgraph (core), e.g. sg00")
	engine := fs.String("engine", "", "only this engine, e.g. Activation (or its def.json token, act)")
	asJSON := fs.Bool("json", false, "print {\"streams\": [...]} as JSON")
	prof := fs.String("ntff", "", ntffHelp+" (a duration column; as JSON, \"measured\" per instruction)")
	maxOutput := outputCapFlag(fs)
	maxInflate := commonFlags(fs)
	fs.Usage = func() {
		fmt.Fprint(stderr, "usage: neffscope disasm [--sg sg00] [--engine Activation] [--json] [--ntff PROFILE.ntff] FILE\n\n"+exitHelp+"\n(--sg and --engine naming no stream is bad usage; --max-output cutting the listing, a limit)\n\n")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return parseExit(err)
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return 2
	}
	f, fh, err := openFile(fs.Arg(0), inspect.Options{MaxInflated: *maxInflate})
	if err != nil {
		fmt.Fprintf(stderr, "neffscope: %v\n", err)
		return 2
	}
	defer fh.Close()
	if f.Program == nil {
		return notReadable(stderr, f, fmt.Sprintf("%s is not a NEFF with a program (kind %s)", safe(f.Name), f.Doc.Kind))
	}
	var picked []*inspect.ProgramStream
	for _, s := range f.Program.Streams {
		if *sg != "" && s.Core.Name != *sg {
			continue
		}
		if *engine != "" && !strings.EqualFold(s.Engine.Name, *engine) && !strings.EqualFold(s.Engine.Token, *engine) {
			continue
		}
		picked = append(picked, s)
	}
	if len(picked) == 0 {
		relayLimits(stderr, f, false)
		fmt.Fprintf(stderr, "neffscope: no stream matches --sg %q --engine %q\n", *sg, *engine)
		return 2
	}
	limits, _ := relayLimits(stderr, f, *asJSON)
	var format disasmFormat = textFormat{}
	if *asJSON {
		format = jsonFormat{findings: limits}
	}
	mrc := 0
	if *prof != "" {
		res, rc := measuredFor(*prof, f, *maxInflate, stderr)
		if res == nil {
			return rc
		}
		format, mrc = measuredListing{format, res, *asJSON}, rc
	}
	// The writers hold a bounded window of words over what the open left live; without room
	// above it the collector ran back to back (114 collections, a fifth of the CPU, for the
	// 32 MB real-shaped NEFF's disasm --json).
	defer roomToWrite()()
	limit := maxOutput.limit(rawStdout(stdout))
	// Streamed in runs of words (disasmpipe.go): a stream of a million words is never held
	// as structs, and its text or JSON is written as it is made.
	var capped bool
	if *asJSON {
		capped, err = writeDisasmCapped(rawStdout(stdout), f, fh, picked, format, limit)
	} else {
		capped, err = writeDisasmCapped(stdout, f, fh, picked, format, limit)
	}
	if err != nil { // the output failed
		fmt.Fprintf(stderr, "neffscope: %v\n", err)
		return 2
	}
	if capped {
		fmt.Fprintf(stderr, "neffscope: the listing stopped at --max-output %d bytes (--max-output 0 lifts the cap) [output.cap]\n", limit)
		return 1
	}
	return max(exitFor(f), mrc)
}

type errWriter struct {
	w   io.Writer
	err error
}

func (e *errWriter) write(b []byte) {
	if e.err == nil {
		_, e.err = e.w.Write(b)
	}
}
func (e *errWriter) str(s string) { e.write([]byte(s)) }
