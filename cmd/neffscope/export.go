package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"strconv"

	"github.com/parquet-go/parquet-go"

	"github.com/neffscope/neffscope/core/budget"
	"github.com/neffscope/neffscope/core/doc"
	"github.com/neffscope/neffscope/core/inspect"
	"github.com/neffscope/neffscope/core/isa"
	"github.com/neffscope/neffscope/core/sched"
	"github.com/neffscope/neffscope/core/timeline"
)

func init() {
	commands["export"] = command{"write every core's instructions, sync edges and SBUF/PSUM accesses as Parquet tables (--parquet DIR) to join with a Neuron Explorer profile", runExport}
}

// The three tables `export --parquet DIR FILE…` writes, one row per instruction word (as
// `disasm` numbers them), per wait (as `sync --json` lists them) and per box of every access
// (as `memmap --json` lists them), over every core of every FILE. Each row is keyed by
// neff_uuid, core, engine and instruction_index. Rows go to the writers as the model is walked:
// no table is built in memory first.
const (
	exportInstructions = "instructions.parquet"
	exportSyncEdges    = "sync_edges.parquet"
	exportMemAccesses  = "mem_accesses.parquet"
)

// exportColumn is one column of an exported table: its name, what it holds, and where the
// name comes from. A name is Neuron Explorer's (its profile Parquet schema) only where a public
// source shows Explorer's column holding the same thing; otherwise it is neffscope's own.
type exportColumn struct {
	Table, Column, Meaning string
	Source                 string // the evidence for an Explorer name; "neffscope" for our own
	Confidence             string // high, medium, low (of the Explorer name); "" for our own
}

// Evidence cited below (public, read this session):
//
//	[bounds]  a Neuron Explorer skill's performance-bounds guide (Instruction.parquet read with
//	          pandas: inst['engine'] == 'Tensor', inst['opcode'] == 'MATMUL', start_ts, adjusted_flops)
//	[dmasrc]  a DuckDB script over an Explorer Parquet dump "using only verified columns":
//	          Instruction.engine, opcode, nki_source_location, bir_debug_info_source_location,
//	          hlo_name, bir_instruction_name; DmaPacketAggregated.queue_name, queue_type
//	[round]   a profiling report: bir_instruction_name "holds compiler ids", nki_source_location
//	          values like "static_decode_35b.py:2326"; DmaPacket queue_name values like qSyncDynamicHW
//	[session] a script reading Instruction.parquet: pcore_idx (physical core), compiler_opcode
//	[spec]    ../shared/spec/neff.md §4.1: external engine names Pool=GPSIMD, Activation=Scalar,
//	          PE=Tensor, DVE=Vector, SP=Sync
//
// Not used, for want of evidence that it is the same thing: Explorer's `opcode` holds a
// mnemonic of its own (MATMUL, LDWEIGHTS, WRITE), not the word's byte or neffscope's name;
// `pcore_idx` is a physical core index, not the NEFF's subgraph; `compiler_pc` (seen in the
// JSON output, consecutive per instruction) may be the word's index in its stream, but nothing
// says from where it counts, so instruction_index keeps neffscope's name.
var exportColumns = []exportColumn{
	{exportInstructions, "neff_uuid", "the NEFF header's UUID (scan's uuid)", "neffscope", ""},
	{exportInstructions, "core", "the subgraph (sg00…) as sync and memmap name it", "neffscope", ""},
	{exportInstructions, "engine", "the engine stream as disasm, sync and memmap name it (PE, Activation, Pool, DVE, SP)", "neffscope", ""},
	{exportInstructions, "instruction_index", "the word's index in its engine stream, as disasm numbers it", "neffscope", ""},
	{exportInstructions, "explorer_engine", "the engine as Explorer's Instruction.engine writes it (Tensor, Scalar, Vector, GpSimd, Sync): join on this", "[bounds] 'Tensor'; [spec] the mapping; Scalar/Vector as Explorer JSON labels; GpSimd, Sync spelling unseen", "medium for Tensor, low for the rest"},
	{exportInstructions, "opcode_byte", "the word's opcode byte", "neffscope", ""},
	{exportInstructions, "opcode_name", "neffscope's name of the opcode (core/isa)", "neffscope", ""},
	{exportInstructions, "step", "the earliest step: one after everything it waits for (-1: never runs or not modelled); steps, not time", "neffscope", ""},
	{exportInstructions, "bir_instruction_name", "the BIR instruction the debug info names (inst.262); null without debug info", "[dmasrc], [round]: the column holds compiler instruction ids", "low"},
	{exportInstructions, "nki_source_location", "the kernel file's base name and line (v6.py:278); null without a line", "[dmasrc], [round]: values like file.py:2326", "medium"},
	{exportInstructions, "measured_start_ps", "with --ntff: the instruction's first word's start, absolute picoseconds as the device profile records them; null where the profile has none", "neffscope", ""},
	{exportInstructions, "measured_end_ps", "with --ntff: its last word's end, absolute picoseconds; null where absent", "neffscope", ""},
	{exportInstructions, "estimated_start_ps", "the estimated start, picoseconds from the core's start (the static cost model, timeline --json's estimated rows; docs/estimate.md gives its error); null where it never runs", "neffscope", ""},
	{exportInstructions, "estimated_end_ps", "the estimated end, picoseconds from the core's start; null where it never runs", "neffscope", ""},

	{exportSyncEdges, "neff_uuid", "as in instructions", "neffscope", ""},
	{exportSyncEdges, "core", "as in instructions", "neffscope", ""},
	{exportSyncEdges, "engine", "the waiting instruction's engine", "neffscope", ""},
	{exportSyncEdges, "instruction_index", "the waiting instruction's index", "neffscope", ""},
	{exportSyncEdges, "second_band", "the wait is an EventSemaphore's second band (+0x20)", "neffscope", ""},
	{exportSyncEdges, "semaphore", "the semaphore waited on", "neffscope", ""},
	{exportSyncEdges, "value", "the count waited for (semaphore >= value)", "neffscope", ""},
	{exportSyncEdges, "producer_engine", "the producer's engine (null: none, or undecided)", "neffscope", ""},
	{exportSyncEdges, "producer_index", "the producer's instruction index", "neffscope", ""},
	{exportSyncEdges, "queue_name", "the DMA queue whose transfer completes the wait (the producer is its trigger); null otherwise", "[dmasrc], [round]: DmaPacket(Aggregated).queue_name; whether its values are def.json's names is not confirmed", "low"},
	{exportSyncEdges, "code", "the lint or undecided code (sync.no-producer…); null when resolved", "neffscope", ""},

	{exportMemAccesses, "neff_uuid", "as in instructions", "neffscope", ""},
	{exportMemAccesses, "core", "as in instructions", "neffscope", ""},
	{exportMemAccesses, "engine", "the accessing instruction's engine (a DMA trigger's for a transfer)", "neffscope", ""},
	{exportMemAccesses, "instruction_index", "the accessing instruction's index", "neffscope", ""},
	{exportMemAccesses, "access", "the access's index in its core, as memmap --json lists them (a row per box)", "neffscope", ""},
	{exportMemAccesses, "dma", "the access is the DMA transfer the instruction starts", "neffscope", ""},
	{exportMemAccesses, "space", "SBUF or PSUM", "neffscope", ""},
	{exportMemAccesses, "write", "the access writes", "neffscope", ""},
	{exportMemAccesses, "partition", "the box's first partition (null: an access without boxes)", "neffscope", ""},
	{exportMemAccesses, "partitions", "the box's partitions", "neffscope", ""},
	{exportMemAccesses, "offset", "the box's first byte in each partition", "neffscope", ""},
	{exportMemAccesses, "bytes", "the box's bytes in each partition", "neffscope", ""},
	{exportMemAccesses, "stride", "the repeat stride in bytes (0: not repeated)", "neffscope", ""},
	{exportMemAccesses, "count", "how many times the box repeats at stride (1: once)", "neffscope", ""},
}

type exportInstRow struct {
	NeffUUID         string  `parquet:"neff_uuid,dict"`
	Core             string  `parquet:"core,dict"`
	Engine           string  `parquet:"engine,dict"`
	InstructionIndex int32   `parquet:"instruction_index"`
	ExplorerEngine   string  `parquet:"explorer_engine,dict"`
	OpcodeByte       int32   `parquet:"opcode_byte"`
	OpcodeName       string  `parquet:"opcode_name,dict"`
	Step             int32   `parquet:"step"`
	BIRName          *string `parquet:"bir_instruction_name,optional"`
	NKISource        *string `parquet:"nki_source_location,optional,dict"`
	MeasuredStartPS  *int64  `parquet:"measured_start_ps,optional"`
	MeasuredEndPS    *int64  `parquet:"measured_end_ps,optional"`
	EstimatedStartPS *int64  `parquet:"estimated_start_ps,optional"`
	EstimatedEndPS   *int64  `parquet:"estimated_end_ps,optional"`
}

type exportSyncRow struct {
	NeffUUID         string  `parquet:"neff_uuid,dict"`
	Core             string  `parquet:"core,dict"`
	Engine           string  `parquet:"engine,dict"`
	InstructionIndex int32   `parquet:"instruction_index"`
	SecondBand       bool    `parquet:"second_band"`
	Semaphore        int32   `parquet:"semaphore"`
	Value            int64   `parquet:"value"`
	ProducerEngine   *string `parquet:"producer_engine,optional,dict"`
	ProducerIndex    *int32  `parquet:"producer_index,optional"`
	QueueName        *string `parquet:"queue_name,optional,dict"`
	Code             *string `parquet:"code,optional,dict"`
}

type exportMemRow struct {
	NeffUUID         string `parquet:"neff_uuid,dict"`
	Core             string `parquet:"core,dict"`
	Engine           string `parquet:"engine,dict"`
	InstructionIndex int32  `parquet:"instruction_index"`
	Access           int32  `parquet:"access"`
	DMA              bool   `parquet:"dma"`
	Space            string `parquet:"space,dict"`
	Write            bool   `parquet:"write"`
	Partition        *int32 `parquet:"partition,optional"`
	Partitions       *int32 `parquet:"partitions,optional"`
	Offset           *int64 `parquet:"offset,optional"`
	Bytes            *int64 `parquet:"bytes,optional"`
	Stride           *int64 `parquet:"stride,optional"`
	Count            *int64 `parquet:"count,optional"`
}

// explorerEngine maps neffscope's engine names to Explorer's (exportColumns: explorer_engine).
var explorerEngine = map[string]string{"PE": "Tensor", "Activation": "Scalar", "DVE": "Vector", "Pool": "GpSimd", "SP": "Sync"}

// exportBatch is how many rows a sink hands its writer at once.
const exportBatch = 4096

// exportSink writes one table: rows are batched, and the writer flushes a row group every 64 Ki.
type exportSink[T any] struct {
	f    *os.File
	w    *parquet.GenericWriter[T]
	path string
	buf  []T
	rows int64
}

// createSink creates path, refusing an existing file unless force (O_EXCL: a symlink too).
func createSink[T any](path string, force bool) (*exportSink[T], error) {
	mode := os.O_WRONLY | os.O_CREATE | os.O_EXCL
	if force {
		mode = os.O_WRONLY | os.O_CREATE | os.O_TRUNC
	}
	f, err := os.OpenFile(path, mode, 0o644)
	if err != nil {
		return nil, err
	}
	w := parquet.NewGenericWriter[T](f, parquet.Compression(&parquet.Snappy), parquet.MaxRowsPerRowGroup(64<<10))
	return &exportSink[T]{f: f, w: w, path: path, buf: make([]T, 0, exportBatch)}, nil
}

func (s *exportSink[T]) add(r T) error {
	s.buf = append(s.buf, r)
	if len(s.buf) == cap(s.buf) {
		return s.flush()
	}
	return nil
}

func (s *exportSink[T]) flush() error {
	if len(s.buf) == 0 {
		return nil
	}
	n, err := s.w.Write(s.buf)
	s.rows += int64(n)
	clear(s.buf)
	s.buf = s.buf[:0]
	if err != nil {
		return fmt.Errorf("writing %s: %w", s.path, err)
	}
	return nil
}

func (s *exportSink[T]) close() error {
	err := s.flush()
	if cerr := s.w.Close(); err == nil && cerr != nil {
		err = fmt.Errorf("writing %s: %w", s.path, cerr)
	}
	if cerr := s.f.Close(); err == nil && cerr != nil {
		err = fmt.Errorf("writing %s: %w", s.path, cerr)
	}
	return err
}

type exportSinks struct {
	inst *exportSink[exportInstRow]
	sync *exportSink[exportSyncRow]
	mem  *exportSink[exportMemRow]
}

// runExport exits 0 when every FILE was exported, 1 when one could not be (not a NEFF, no
// program, an unread stream: the others are still written), 2 on bad usage or a write error.
// Lints are rows of the tables, not a failure.
func runExport(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("export", flag.ContinueOnError)
	fs.SetOutput(stderr)
	dir := fs.String("parquet", "", "write "+exportInstructions+", "+exportSyncEdges+" and "+exportMemAccesses+" into this `DIR` (created when missing)")
	force := fs.Bool("force", false, "overwrite the tables when they exist")
	var profs profileList
	fs.Var(&profs, "ntff", "a device profile (NTFF) captured from one of the FILEs, joined by NEFF UUID (repeatable): measured_start_ps and measured_end_ps")
	maxInflate := commonFlags(fs)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: neffscope export --parquet DIR [--force] [--ntff PROFILE.ntff]... FILE...")
		fmt.Fprintln(stderr, "Rows are keyed by neff_uuid, core, engine and instruction_index (as disasm numbers it);")
		fmt.Fprintln(stderr, "explorer_engine, bir_instruction_name and nki_source_location join a Neuron Explorer profile's Instruction table.")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *dir == "" || fs.NArg() == 0 {
		fs.Usage()
		return 2
	}
	profiles, prc := openProfiles(profs, *maxInflate, stderr)
	if profiles == nil {
		return prc
	}
	if err := os.MkdirAll(*dir, 0o755); err != nil {
		fmt.Fprintf(stderr, "neffscope: %v\n", err)
		return 2
	}
	var s exportSinks
	var created []string
	fail := func(err error) int {
		if errors.Is(err, os.ErrExist) {
			fmt.Fprintf(stderr, "neffscope: %v; not overwritten (--force overwrites the tables) [export.exists]\n", err)
		} else {
			fmt.Fprintf(stderr, "neffscope: %v\n", err)
		}
		for _, p := range created {
			os.Remove(p) // only what this run created
		}
		return 2
	}
	var err error
	if s.inst, err = createSink[exportInstRow](filepath.Join(*dir, exportInstructions), *force); err != nil {
		return fail(err)
	}
	created = append(created, s.inst.path)
	if s.sync, err = createSink[exportSyncRow](filepath.Join(*dir, exportSyncEdges), *force); err != nil {
		s.inst.f.Close()
		return fail(err)
	}
	created = append(created, s.sync.path)
	if s.mem, err = createSink[exportMemRow](filepath.Join(*dir, exportMemAccesses), *force); err != nil {
		s.inst.f.Close()
		s.sync.f.Close()
		return fail(err)
	}
	rc := 0
	shared := commandBudget()
	for _, p := range fs.Args() {
		code, err := exportFile(p, &s, *maxInflate, shared, profiles, stderr)
		if err != nil {
			s.inst.close()
			s.sync.close()
			s.mem.close()
			fmt.Fprintf(stderr, "neffscope: %v\n", err)
			return 2
		}
		rc = max(rc, code)
	}
	rc = max(rc, profiles.unused(stderr))
	for _, t := range []interface{ close() error }{s.inst, s.sync, s.mem} {
		if err := t.close(); err != nil {
			fmt.Fprintf(stderr, "neffscope: %v\n", err)
			rc = 2
		}
	}
	if rc < 2 {
		fmt.Fprintf(stderr, "wrote %s (%d rows), %s (%d rows), %s (%d rows)\n",
			safe(s.inst.path), s.inst.rows, safe(s.sync.path), s.sync.rows, safe(s.mem.path), s.mem.rows)
	}
	return rc
}

// exportFile opens one FILE within the command's budget and streams its model's rows. The
// error is a write error (the command stops); the code is 1 when the file is not exported whole.
func exportFile(p string, s *exportSinks, maxInflate int64, shared *budget.Budget, profiles *profileSet, stderr io.Writer) (int, error) {
	// The source lines are mapped after the model, on what the model leaves of the budget.
	f, fh, err := openFile(p, inspect.Options{MaxInflated: maxInflate, DeferSource: true, Within: shared})
	if err != nil {
		fmt.Fprintf(stderr, "neffscope: %v\n", err)
		return 1, nil
	}
	defer fh.Close()
	defer f.Budget.Done() // the next file's open has the whole command budget again
	m := f.Memmap()
	if m == nil || f.Archive == nil {
		relayLimits(stderr, f, false)
		fmt.Fprintf(stderr, "neffscope: %s has no resolvable program (no NEFF manifests): nothing exported\n", safe(f.Name))
		return 1, nil
	}
	if f.SourcePending() {
		if ms, err := f.IndexSource(context.Background(), nil); err == nil {
			f.ApplySource(ms)
		}
	}
	_, rc := relayLimits(stderr, f, false) // the parquet tables have no place for them
	for _, fd := range errorFindings(f) {
		rc = 1
		if !doc.IsLimit(fd.Code) { // a limit: the relay named it, with its code
			fmt.Fprintf(stderr, "neffscope: %s: error: %s\n", safe(f.Name), safeMsg(fd.Message))
		}
	}
	uuid := f.Archive.Header.UUIDString()
	res, mrc := profiles.joinTo(f, stderr)
	rc = max(rc, mrc)
	est := estimateWith(f, m)
	for _, c := range m.Cores {
		for k := range c.Engines {
			if e := &c.Engines[k]; !e.Read {
				fmt.Fprintf(stderr, "neffscope: %s: %s %s was not read whole (see sync): its instructions are not exported\n", safe(f.Name), c.Name, e.Name)
				rc = 1
			}
		}
		if err := exportCore(s, f.Program, uuid, c, res, est.CoreOf(c.Name)); err != nil {
			return rc, err
		}
	}
	return rc, nil
}

func exportCore(s *exportSinks, prog *inspect.Program, uuid string, c *sched.Core, res *timeline.Result, est *timeline.CoreSchedule) error {
	for k := range c.Engines {
		e := &c.Engines[k]
		if !e.Read {
			continue // its opcodes past where the model stopped are not known
		}
		ee := explorerEngine[e.Name]
		var lastSrc *inspect.Source
		var bir, loc *string
		st := res.Stream(e.Member)
		for i := 0; i < e.Len; i++ {
			op := e.Opcode(i)
			r := exportInstRow{NeffUUID: uuid, Core: c.Name, Engine: e.Name, InstructionIndex: int32(i), ExplorerEngine: ee,
				OpcodeByte: int32(op), OpcodeName: isa.OpcodeName(op), Step: e.Step(i)}
			if src := prog.Source.Source(e.Member, i); src != nil {
				if lastSrc == nil || *src != *lastSrc {
					lastSrc, bir, loc = src, nil, nil
					if src.BIR != "" {
						b := src.BIR
						bir = &b
					}
					if src.File != "" && src.Line > 0 {
						l := path.Base(src.File) + ":" + strconv.Itoa(src.Line)
						loc = &l
					}
				}
				r.BIRName, r.NKISource = bir, loc
			}
			r.MeasuredStartPS, r.MeasuredEndPS = measuredColumns(st, i)
			r.EstimatedStartPS, r.EstimatedEndPS = estimatedColumns(est, k, i)
			if err := s.inst.add(r); err != nil {
				return err
			}
		}
	}
	for _, w := range c.Waits {
		r := exportSyncRow{NeffUUID: uuid, Core: c.Name, Engine: c.EngineName(w.At), InstructionIndex: w.Index, SecondBand: w.Second,
			Semaphore: w.Sem, Value: int64(w.Value)}
		if w.Code.Class() == sched.ClassOK && w.Producer.Valid() {
			pe, pi := c.EngineName(w.Producer), w.Producer.Index
			r.ProducerEngine, r.ProducerIndex = &pe, &pi
			if w.Queue >= 0 {
				q := c.Queues[w.Queue]
				r.QueueName = &q
			}
		}
		if w.Code != sched.OK {
			code := w.Code.String()
			r.Code = &code
		}
		if err := s.sync.add(r); err != nil {
			return err
		}
	}
	for k := range c.Accesses {
		a := &c.Accesses[k]
		r := exportMemRow{NeffUUID: uuid, Core: c.Name, Engine: c.EngineName(a.At), InstructionIndex: a.At.Index, Access: int32(k),
			DMA: a.DMA, Space: a.Space.String(), Write: a.Write}
		if a.BoxFrom == a.BoxTo {
			if err := s.mem.add(r); err != nil {
				return err
			}
			continue
		}
		for _, b := range c.Boxes[a.BoxFrom:a.BoxTo] {
			part, parts := int32(b.Partition), int32(b.Parts)
			off, n, stride, count := int64(b.Offset), int64(b.Bytes), int64(0), int64(1)
			if b.Count > 1 {
				stride, count = int64(b.Stride), int64(b.Count)
			}
			r.Partition, r.Partitions, r.Offset, r.Bytes, r.Stride, r.Count = &part, &parts, &off, &n, &stride, &count
			if err := s.mem.add(r); err != nil {
				return err
			}
		}
	}
	return nil
}
