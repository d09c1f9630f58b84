package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"reflect"
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

// The four tables `export --parquet DIR FILE…` writes, one row per instruction word (as
// `disasm` numbers them), per wait (as `sync --json` lists them), per box of every access
// (as `memmap --json` lists them) and per lint or undecided point of the sync and memory
// model (as sync and memmap list them), over every core of every FILE. Each row is keyed by
// neff_path (two copies of one NEFF share its UUID), core, engine and instruction_index. Rows
// go to the writers as the model is walked: no table is built in memory first. Every string
// from the file is doc.CleanString'd: valid UTF-8, no control or format character raw. No
// column is named by an SQL reserved word (DuckDB's list), so none needs quoting.
const (
	exportInstructions = "instructions.parquet"
	exportSyncEdges    = "sync_edges.parquet"
	exportMemAccesses  = "mem_accesses.parquet"
	exportLints        = "lints.parquet"
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
	{exportInstructions, "neff_path", "the FILE as named on the command line (two copies of one NEFF share a UUID: join on the path)", "neffscope", ""},
	{exportInstructions, "neff_uuid", "the NEFF header's UUID (scan's uuid)", "neffscope", ""},
	{exportInstructions, "core", "the subgraph (sg00…) as sync and memmap name it", "neffscope", ""},
	{exportInstructions, "engine", "the engine stream as disasm, sync and memmap name it (PE, Activation, Pool, DVE, SP)", "neffscope", ""},
	{exportInstructions, "instruction_index", "the word's index in its engine stream, as disasm numbers it", "neffscope", ""},
	{exportInstructions, "explorer_engine", "the engine as Explorer's Instruction.engine writes it (Tensor, Scalar, Vector, GpSimd, Sync): join on this", "[bounds] 'Tensor'; [spec] the mapping; Scalar/Vector as Explorer JSON labels; GpSimd, Sync spelling unseen", "medium for Tensor, low for the rest"},
	{exportInstructions, "opcode_byte", "the word's opcode byte", "neffscope", ""},
	{exportInstructions, "opcode_name", "neffscope's name of the opcode (core/isa)", "neffscope", ""},
	{exportInstructions, "step", "the earliest step: one after everything it waits for (-1: never runs or not modelled); steps, not time", "neffscope", ""},
	{exportInstructions, "bir_instruction_name", "the BIR instruction the debug info names (inst.262); null without debug info", "[dmasrc], [round]: the column holds compiler instruction ids", "low"},
	{exportInstructions, "nki_source_location", "the kernel file as the debug info names it (a path) and the line (/home/u/v6.py:278); null without a line", "[dmasrc], [round]: the column names a source line; whether Explorer keeps the path is not seen", "medium"},
	{exportInstructions, "nki_source_base", "the kernel file's base name and line (v6.py:278): the form Explorer's nki_source_location values were seen in; null without a line", "[round]: values like static_decode_35b.py:2326", "medium"},
	{exportInstructions, "measured_start_ps", "with --ntff: the instruction's first word's start, absolute picoseconds as the device profile records them; null where the profile has none", "neffscope", ""},
	{exportInstructions, "measured_end_ps", "with --ntff: its last word's end, absolute picoseconds; null where absent", "neffscope", ""},
	{exportInstructions, "estimated_start_ps", "the estimated start, picoseconds from the core's start (the static cost model, timeline --json's estimated rows; docs/estimate.md gives its error); null where it never runs", "neffscope", ""},
	{exportInstructions, "estimated_end_ps", "the estimated end, picoseconds from the core's start; null where it never runs", "neffscope", ""},

	{exportSyncEdges, "neff_path", "as in instructions", "neffscope", ""},
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

	{exportMemAccesses, "neff_path", "as in instructions", "neffscope", ""},
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
	{exportMemAccesses, "byte_offset", "the box's first byte in each partition (not \"offset\": an SQL reserved word)", "neffscope", ""},
	{exportMemAccesses, "bytes", "the box's bytes in each partition", "neffscope", ""},
	{exportMemAccesses, "stride", "the repeat stride in bytes (0: not repeated)", "neffscope", ""},
	{exportMemAccesses, "count", "how many times the box repeats at stride (1: once)", "neffscope", ""},

	{exportLints, "neff_path", "as in instructions", "neffscope", ""},
	{exportLints, "neff_uuid", "as in instructions", "neffscope", ""},
	{exportLints, "core", "as in instructions", "neffscope", ""},
	{exportLints, "engine", "the instruction's engine (null: the point names no instruction)", "neffscope", ""},
	{exportLints, "instruction_index", "the instruction's index (for an undecided point: the first of its kind)", "neffscope", ""},
	{exportLints, "model", "sync (the waits: sync) or memory (the SBUF/PSUM accesses: memmap)", "neffscope", ""},
	{exportLints, "class", "lint (a defect the model shows) or undecided (a point the model could not follow: no lint there means not looked at)", "neffscope", ""},
	{exportLints, "code", "the stable code (neffscope codes: sync.deadlock, mem.unsync, sync.limit…)", "neffscope", ""},
	{exportLints, "dma", "the instruction's DMA transfer, not the instruction itself, is the access", "neffscope", ""},
	{exportLints, "other_engine", "a lint's second instruction (the other side of a race, the wait it blocks on); null otherwise", "neffscope", ""},
	{exportLints, "other_index", "that instruction's index", "neffscope", ""},
	{exportLints, "count", "how many instructions the point stands for (undecided: every one of its kind on the engine; a lint: 1)", "neffscope", ""},
	{exportLints, "message", "what is wrong and where, as sync and memmap print it", "neffscope", ""},
}

// exportInstructionAt is the columns that name an instruction, first in each table whose rows
// are an instruction's (instructions, sync_waits, memory_accesses); parquet-go lays an embedded
// struct's fields out as the row's own columns.
type exportInstructionAt struct {
	NeffPath         string `parquet:"neff_path,dict"`
	NeffUUID         string `parquet:"neff_uuid,dict"`
	Core             string `parquet:"core,dict"`
	Engine           string `parquet:"engine,dict"`
	InstructionIndex int32  `parquet:"instruction_index"`
}

// at names instruction index of engine on core in the file key names.
func (key exportKeyOf) at(core, engine string, index int32) exportInstructionAt {
	return exportInstructionAt{NeffPath: key.path, NeffUUID: key.uuid, Core: core, Engine: engine, InstructionIndex: index}
}

type exportInstRow struct {
	exportInstructionAt
	ExplorerEngine   string  `parquet:"explorer_engine,dict"`
	OpcodeByte       int32   `parquet:"opcode_byte"`
	OpcodeName       string  `parquet:"opcode_name,dict"`
	Step             int32   `parquet:"step"`
	BIRName          *string `parquet:"bir_instruction_name,optional"`
	NKISource        *string `parquet:"nki_source_location,optional,dict"`
	NKISourceBase    *string `parquet:"nki_source_base,optional,dict"`
	MeasuredStartPS  *int64  `parquet:"measured_start_ps,optional"`
	MeasuredEndPS    *int64  `parquet:"measured_end_ps,optional"`
	EstimatedStartPS *int64  `parquet:"estimated_start_ps,optional"`
	EstimatedEndPS   *int64  `parquet:"estimated_end_ps,optional"`
}

type exportSyncRow struct {
	exportInstructionAt
	SecondBand     bool    `parquet:"second_band"`
	Semaphore      int32   `parquet:"semaphore"`
	Value          int64   `parquet:"value"`
	ProducerEngine *string `parquet:"producer_engine,optional,dict"`
	ProducerIndex  *int32  `parquet:"producer_index,optional"`
	QueueName      *string `parquet:"queue_name,optional,dict"`
	Code           *string `parquet:"code,optional,dict"`
}

type exportMemRow struct {
	exportInstructionAt
	Access     int32  `parquet:"access"`
	DMA        bool   `parquet:"dma"`
	Space      string `parquet:"space,dict"`
	Write      bool   `parquet:"write"`
	Partition  *int32 `parquet:"partition,optional"`
	Partitions *int32 `parquet:"partitions,optional"`
	Offset     *int64 `parquet:"byte_offset,optional"`
	Bytes      *int64 `parquet:"bytes,optional"`
	Stride     *int64 `parquet:"stride,optional"`
	Count      *int64 `parquet:"count,optional"`
}

type exportLintRow struct {
	NeffPath         string  `parquet:"neff_path,dict"`
	NeffUUID         string  `parquet:"neff_uuid,dict"`
	Core             string  `parquet:"core,dict"`
	Engine           *string `parquet:"engine,optional,dict"`
	InstructionIndex *int32  `parquet:"instruction_index,optional"`
	Model            string  `parquet:"model,dict"`
	Class            string  `parquet:"class,dict"`
	Code             string  `parquet:"code,dict"`
	DMA              bool    `parquet:"dma"`
	OtherEngine      *string `parquet:"other_engine,optional,dict"`
	OtherIndex       *int32  `parquet:"other_index,optional"`
	Count            int64   `parquet:"count"`
	Message          string  `parquet:"message"`
}

// explorerEngine maps neffscope's engine names to Explorer's (exportColumns: explorer_engine).
var explorerEngine = map[string]string{"PE": "Tensor", "Activation": "Scalar", "DVE": "Vector", "Pool": "GpSimd", "SP": "Sync"}

// exportBatch is how many rows a sink hands its writer at once.
const exportBatch = 4096

// exportSink writes one table: rows are batched, and the writer flushes a row group every 64 Ki.
// The table is written beside its name and moved into place by commit (createOutput).
type exportSink[T any] struct {
	out  *outputFile
	w    *parquet.GenericWriter[T]
	path string
	buf  []T
	rows int64
}

// createSink starts writing path (createOutput's rules: no existing file without force, never
// a symlink, a FIFO, a NEFF or one of inputs).
func createSink[T any](path string, force bool, inputs []string) (*exportSink[T], error) {
	out, err := createOutput(path, outputRules{force: force, inputs: inputs})
	if err != nil {
		return nil, err
	}
	w := parquet.NewGenericWriter[T](out, parquet.Compression(&parquet.Snappy), parquet.MaxRowsPerRowGroup(64<<10))
	return &exportSink[T]{out: out, w: w, path: path, buf: make([]T, 0, exportBatch)}, nil
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

// finish writes what is batched and the Parquet footer; commit then moves the table into place.
func (s *exportSink[T]) finish() error {
	err := s.flush()
	if cerr := s.w.Close(); err == nil && cerr != nil {
		err = fmt.Errorf("writing %s: %w", s.path, cerr)
	}
	return err
}

func (s *exportSink[T]) commit() error { return s.out.commit() }
func (s *exportSink[T]) abort()        { s.out.abort() }

type exportSinks struct {
	inst *exportSink[exportInstRow]
	sync *exportSink[exportSyncRow]
	mem  *exportSink[exportMemRow]
	lint *exportSink[exportLintRow]
}

// runExport exits 0 when every FILE was exported whole, 1 when an error finding was printed (a
// FILE's own error, a limit that cut its rows, an unread stream), 2 on trouble: bad usage, a
// write error, or a FILE that cannot be read or is not a NEFF (the others are still written).
// Lints are rows of the tables, not a failure.
func runExport(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("export", flag.ContinueOnError)
	fs.SetOutput(stderr)
	dir := fs.String("parquet", "", "write "+exportInstructions+", "+exportSyncEdges+", "+exportMemAccesses+" and "+exportLints+" into this `DIR` (created when missing)")
	force := fs.Bool("force", false, "overwrite the tables when they exist")
	var profs profileList
	fs.Var(&profs, "ntff", "a device profile (NTFF) captured from one of the FILEs, joined by NEFF UUID (repeatable): measured_start_ps and measured_end_ps")
	maxInflate := commonFlags(fs)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: neffscope export --parquet DIR [--force] [--ntff PROFILE.ntff]... FILE...")
		fmt.Fprintln(stderr, "Rows are keyed by neff_path, core, engine and instruction_index (as disasm numbers it);")
		fmt.Fprintln(stderr, "explorer_engine, bir_instruction_name and nki_source_location join a Neuron Explorer profile's Instruction table.")
		fmt.Fprint(stderr, "\n"+exitHelp+" (the worst over the FILEs;\nthe others are still written)\n\n")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return parseExit(err)
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
	var err error
	inputs := fs.Args()
	s.inst, err = createSink[exportInstRow](filepath.Join(*dir, exportInstructions), *force, inputs)
	if err == nil {
		s.sync, err = createSink[exportSyncRow](filepath.Join(*dir, exportSyncEdges), *force, inputs)
	}
	if err == nil {
		s.mem, err = createSink[exportMemRow](filepath.Join(*dir, exportMemAccesses), *force, inputs)
	}
	if err == nil {
		s.lint, err = createSink[exportLintRow](filepath.Join(*dir, exportLints), *force, inputs)
	}
	if err != nil {
		s.abort()
		return reportOutputErr(stderr, err)
	}
	rc := 0
	shared := commandBudget()
	for _, p := range inputs {
		code, err := exportFile(p, &s, *maxInflate, shared, profiles, stderr)
		if err != nil {
			s.abort()
			fmt.Fprintf(stderr, "neffscope: %v (no table written)\n", err)
			return 2
		}
		rc = max(rc, code)
	}
	rc = max(rc, profiles.unused(stderr))
	if err := s.finish(); err != nil {
		s.abort()
		fmt.Fprintf(stderr, "neffscope: %v (no table written)\n", err)
		return 2
	}
	// All four are checked before any is moved, so a refusal leaves every table as it was.
	for _, t := range s.tables() {
		if err := t.output().check(); err != nil {
			s.abort()
			return reportOutputErr(stderr, err)
		}
	}
	for _, t := range s.tables() {
		if err := t.commit(); err != nil {
			s.abort()
			return reportOutputErr(stderr, err)
		}
	}
	fmt.Fprintf(stderr, "wrote %s (%d rows), %s (%d rows), %s (%d rows), %s (%d rows)\n",
		safe(s.inst.path), s.inst.rows, safe(s.sync.path), s.sync.rows, safe(s.mem.path), s.mem.rows, safe(s.lint.path), s.lint.rows)
	return rc
}

// table is what the command does with each of its sinks, whatever its row type.
type table interface {
	finish() error
	commit() error
	abort()
	output() *outputFile
}

func (s *exportSink[T]) output() *outputFile { return s.out }

// tables are the sinks made so far, in order.
func (s *exportSinks) tables() []table {
	var ts []table
	for _, t := range []table{s.inst, s.sync, s.mem, s.lint} {
		if !reflect.ValueOf(t).IsNil() {
			ts = append(ts, t)
		}
	}
	return ts
}

// finish ends the tables' Parquet streams (nothing is in place until commit).
func (s *exportSinks) finish() error {
	for _, t := range s.tables() {
		if err := t.finish(); err != nil {
			return err
		}
	}
	return nil
}

// abort removes every table not yet in place (only the temporary files this run made).
func (s *exportSinks) abort() {
	for _, t := range s.tables() {
		t.abort()
	}
}

// exportFile opens one FILE within the command's budget and streams its model's rows. The
// error is a write error (the command stops); the code is 1 when the file is not exported whole
// for an error of its own, 2 when it could not be read or is not a NEFF.
func exportFile(p string, s *exportSinks, maxInflate int64, shared *budget.Budget, profiles *profileSet, stderr io.Writer) (int, error) {
	// The source lines are mapped after the model, on what the model leaves of the budget.
	f, fh, err := openFile(p, inspect.Options{MaxInflated: maxInflate, DeferSource: true, Within: shared})
	if err != nil {
		fmt.Fprintf(stderr, "neffscope: %v\n", err)
		return 2, nil
	}
	defer fh.Close()
	defer f.Budget.Done() // the next file's open has the whole command budget again
	m := f.Memmap()
	if m == nil || f.Archive == nil {
		return notReadable(stderr, f, safe(f.Name)+" has no resolvable program (no NEFF manifests): nothing exported"), nil
	}
	mapSource(f)
	_, rc := relayLimits(stderr, f, false) // the parquet tables have no place for them
	for _, fd := range errorFindings(f) {
		rc = 1
		if !doc.IsLimit(fd.Code) { // a limit: the relay named it, with its code
			fmt.Fprintf(stderr, "neffscope: %s: error: %s\n", safe(f.Name), safeMsg(fd.Message))
		}
	}
	key := exportKeyOf{path: doc.CleanString(p), uuid: f.Archive.Header.UUIDString()}
	res, mrc := profiles.joinTo(f, stderr)
	rc = max(rc, mrc)
	est := estimateWith(f, m)
	for _, c := range m.Cores {
		for k := range c.Engines {
			if e := &c.Engines[k]; !e.Read {
				fmt.Fprintf(stderr, "neffscope: %s: %s %s was not read whole (see sync): its instructions are not exported\n", safe(f.Name), safe(c.Name), safe(e.Name))
				rc = 1
			}
		}
		if cut := modelCut(c); cut != "" {
			// The budget refused the model's tables: the waits and accesses past the refusal
			// are not in the model, so sync_edges and mem_accesses stop there too.
			fmt.Fprintf(stderr, "neffscope: %s: %s: %s; the model stops there, so %s, %s and %s lack the rows past it (--max-memory raises the limit) [%s]\n",
				safe(f.Name), safe(c.Name), safeMsg(cut), exportSyncEdges, exportMemAccesses, exportLints, doc.CodeExportRowsCut)
			rc = 1
		}
		if err := exportCore(s, f.Program, key, c, res, est.CoreOf(c.Name)); err != nil {
			return rc, err
		}
	}
	return rc, nil
}

// modelCut says where the budget stopped the model of c ("" when it did not): the first
// sync.limit or mem.limit point of the core.
func modelCut(c *sched.Core) string {
	for _, u := range append(c.Undecided[:len(c.Undecided):len(c.Undecided)], c.MemIssues...) {
		if u.Code == sched.Limit || u.Code == sched.MemLimit {
			return c.IssueMessage(u)
		}
	}
	return ""
}

// exportKeyOf is what every row of one FILE carries: its path and its UUID.
type exportKeyOf struct{ path, uuid string }

func exportCore(s *exportSinks, prog *inspect.Program, key exportKeyOf, c *sched.Core, res *timeline.Result, est *timeline.CoreSchedule) error {
	core := doc.CleanString(c.Name)
	engines := make([]string, len(c.Engines))
	for k := range c.Engines {
		engines[k] = doc.CleanString(c.Engines[k].Name)
	}
	engineOf := func(a sched.At) string {
		if a.Valid() && int(a.Engine) < len(engines) {
			return engines[a.Engine]
		}
		return doc.CleanString(c.EngineName(a))
	}
	if err := exportInstructionRows(s, prog, key, c, core, engines, res, est); err != nil {
		return err
	}
	for _, w := range c.Waits {
		r := exportSyncRow{exportInstructionAt: key.at(core, engineOf(w.At), w.Index), SecondBand: w.Second,
			Semaphore: w.Sem, Value: int64(w.Value)}
		if w.Code.Class() == sched.ClassOK && w.Producer.Valid() {
			pe, pi := engineOf(w.Producer), w.Producer.Index
			r.ProducerEngine, r.ProducerIndex = &pe, &pi
			if w.Queue >= 0 {
				q := doc.CleanString(c.Queues[w.Queue])
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
		r := exportMemRow{exportInstructionAt: key.at(core, engineOf(a.At), a.At.Index), Access: int32(k),
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
	return exportLintRows(s, key, c, core, engineOf)
}

// exportInstructionRows writes one row per instruction word of the engines read whole.
func exportInstructionRows(s *exportSinks, prog *inspect.Program, key exportKeyOf, c *sched.Core, core string, engines []string, res *timeline.Result, est *timeline.CoreSchedule) error {
	for k := range c.Engines {
		e := &c.Engines[k]
		if !e.Read {
			continue // its opcodes past where the model stopped are not known
		}
		ee := explorerEngine[e.Name]
		var lastSrc *inspect.Source
		var bir, loc, base *string
		st := res.Stream(e.Member)
		for i := 0; i < e.Len; i++ {
			op := e.Opcode(i)
			r := exportInstRow{exportInstructionAt: key.at(core, engines[k], int32(i)), ExplorerEngine: ee,
				OpcodeByte: int32(op), OpcodeName: isa.OpcodeName(op), Step: e.Step(i)}
			if src := prog.Source.Source(e.Member, i); src != nil {
				if lastSrc == nil || *src != *lastSrc {
					lastSrc, bir, loc, base = src, nil, nil, nil
					if src.BIR != "" {
						b := doc.CleanString(src.BIR)
						bir = &b
					}
					if src.File != "" && src.Line > 0 {
						line := ":" + strconv.Itoa(src.Line)
						l, b := doc.CleanString(src.File+line), doc.CleanString(path.Base(src.File)+line)
						loc, base = &l, &b
					}
				}
				r.BIRName, r.NKISource, r.NKISourceBase = bir, loc, base
			}
			r.MeasuredStartPS, r.MeasuredEndPS = measuredColumns(st, i)
			r.EstimatedStartPS, r.EstimatedEndPS = estimatedColumns(est, k, i)
			if err := s.inst.add(r); err != nil {
				return err
			}
		}
	}
	return nil
}

// exportLintRows writes the core's sync and memory lints and undecided points.
func exportLintRows(s *exportSinks, key exportKeyOf, c *sched.Core, core string, engineOf func(sched.At) string) error {
	row := func(model, class string, code sched.Code, at, other sched.At, dma bool, count int, msg string) error {
		r := exportLintRow{NeffPath: key.path, NeffUUID: key.uuid, Core: core, Model: model, Class: class, Code: code.String(),
			DMA: dma, Count: int64(count), Message: doc.CleanString(msg)}
		if at.Valid() {
			e, i := engineOf(at), at.Index
			r.Engine, r.InstructionIndex = &e, &i
		}
		if other.Valid() {
			e, i := engineOf(other), other.Index
			r.OtherEngine, r.OtherIndex = &e, &i
		}
		return s.lint.add(r)
	}
	for _, w := range c.Lints() {
		if err := row("sync", "lint", w.Code, w.At, w.Other, false, 1, c.Message(w)); err != nil {
			return err
		}
	}
	for _, u := range c.Undecided {
		if err := row("sync", "undecided", u.Code, u.At, sched.None, false, u.Count, c.IssueMessage(u)); err != nil {
			return err
		}
	}
	for _, l := range c.MemLints {
		a, other := &c.Accesses[l.Access], sched.None
		if l.Other >= 0 {
			other = c.Accesses[l.Other].At
		}
		if err := row("memory", "lint", l.Code, a.At, other, a.DMA, 1, c.MemMessage(l)); err != nil {
			return err
		}
	}
	for _, u := range c.MemIssues {
		if err := row("memory", "undecided", u.Code, u.At, sched.None, false, u.Count, c.IssueMessage(u)); err != nil {
			return err
		}
	}
	return nil
}
