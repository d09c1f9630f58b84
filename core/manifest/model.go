// Package manifest owns a NEFF's JSON manifests: neff.json (the TVM graph), kelf-N.json,
// each sgNN/def.json, the engine JSONs, info.json, tensor_map.json, hlo_stats.json,
// metrics.json, the klir debug-info trees and the .npy constants. It resolves them the way the
// runtime does (spec neff.md §2.4 D) into a Model: target, cores, engines with their streams,
// inputs and outputs, var and DMA-queue tables. Every broken link is a finding naming both
// ends. It reads bytes handed to it; it never opens files and never imports another artifact
// package.
package manifest

import (
	"github.com/neffscope/neffscope/core/doc"
	"github.com/neffscope/neffscope/core/jsonspan"
)

// HeaderFacts are what the container decoder read from the 1024-byte header, for the
// cross-checks (spec neff.md §1.1). Present is false when there is no header (loose members).
type HeaderFacts struct {
	Present           bool
	Name              string
	NumTPB            uint32
	RequestedTPBCount uint32
	TPBPerNode        [64]byte
	FeatureBits       uint64
	NeffVersionMajor  uint64
	// At is where each header field lies in the file, by its spec name (core/neff's table,
	// neff.HeaderFieldSpans): the findings that cite a header field point at it.
	At map[string]*doc.Span
}

// offset is where the header holds a field (0 when At does not say).
func (h HeaderFacts) offset(field string) int64 {
	if s := h.At[field]; s != nil {
		return s.Offset
	}
	return 0
}

// span is the bytes of a header field (nil when At does not say).
func (h HeaderFacts) span(field string) *doc.Span {
	if s := h.At[field]; s != nil {
		c := *s
		return &c
	}
	return nil
}

// Model is a resolved NEFF program.
type Model struct {
	// Target is kelf-N.json `target`; Arch the libnrt arch number (2 sunda, 3 cayman, 4
	// mariana, 0 any, -1 unknown); ArchName says it in words, Instance as the device family
	// (Trn1/Inf2, Trn2; "" when the target is unknown).
	Target   string
	Arch     int
	ArchName string
	Instance string
	// KelfPaths are the KELF descriptor members the __kelf nodes name, in node order.
	KelfPaths []string
	// KelfVersion is the first KELF descriptor's version ("0.5"), logged by the runtime only.
	KelfVersion string
	Cores       []*Core
	// Inputs and Outputs come from the TVM graph (arg_nodes / heads through the EID rule).
	Inputs  []*Tensor
	Outputs []*Tensor
	// Signature is neff.json metadata.signatures.default (nil when absent).
	Signature *Signature
	// FeatureBits is the header mask; FeatureNames the def.json neff_features strings of all
	// cores (deduplicated, first-seen order).
	FeatureBits  uint64
	FeatureNames []string
	// ActivationSetsUsed lists every set any Activation engine lists (deduplicated).
	ActivationSetsUsed []string
	Info               *Info
	NPY                []*NPY

	// Overview is the "Model" tree; MemberTrees holds one tree per manifest member, in
	// MemberOrder. Findings sit on the node they concern; Findings() collects them.
	Overview    *doc.Node
	MemberTrees map[string]*doc.Node
	MemberOrder []string
	// Forests build the nodes of those trees that are not held (stubs), by member path.
	Forests map[string]*jsonspan.Forest
}

// Tensor is one model input or output.
type Tensor struct {
	Name  string
	DType string
	Shape []int64
	// Bytes is product(shape) × dtype size; -1 when the dtype is unknown.
	Bytes   int64
	EntryID int
	// Node is the TVM node id; OutputIndex the output of that node (outputs only).
	Node        int
	OutputIndex int
	Span        *doc.Span
}

// Signature is neff.json metadata.signatures.default.
type Signature struct {
	Inputs  []*SignatureTensor
	Outputs []*SignatureTensor
}

// SignatureTensor is one signature entry.
type SignatureTensor struct {
	Name  string
	ID    int64
	DType string
	Shape []int64
	Span  *doc.Span
}

// Core is one subgraph (sgNN): one physical NeuronCore.
type Core struct {
	Name    string // kelf graphs[].name, e.g. "sg00"
	Dir     string // directory of its def.json, e.g. "sg00"; member names in it are relative to this
	DefPath string
	// Engines in libnrt order (pe, act, pool, dve, sp); an engine def.json omits is absent.
	Engines []*Engine
	// Vars are def.json's variables in file order, held by value (varindex.go); a *Var into it
	// stays valid (nothing appends after the resolve).
	Vars     []Var
	Queues   []*Queue
	Features []string // def.json neff_features
	// RankWorldSize is def.json #rank_world_size (0 when absent); ReplicaGroups the raw
	// replica_groups list; CCStreams cc_streams.num_streams.
	RankWorldSize int64
	ReplicaGroups [][][]int64
	CCStreams     int64
	// Reserved are def.json's runtime_statebuffer_reservation ranges: state-buffer bytes the
	// runtime keeps for itself (neff.md §3.4).
	Reserved   []Reservation
	VarTable   *doc.Table
	QueueTable *doc.Table
	// VarSpan and QueueSpan are def.json's var and dma_queue objects.
	VarSpan   *doc.Span
	QueueSpan *doc.Span
	Node      *doc.Node // this core's node in the overview

	varNames nameIndex
	varIDs   idIndex
	// varsByID is Vars' indexes sorted by var_id (the var table's order).
	varsByID []int32
	// dgeTable is the first var of type dge-table (the list 0xD4 DGE addresses index), or nil.
	dgeTable *Var
	// queueVal is each dma_queue entry's JSON, for the owner checks after the engines.
	queueVal    map[string]*jsonspan.Value
	queueByName map[string]*Queue
}

// Reservation is one runtime_statebuffer_reservation entry (neff.md §3.4): bytes [Offset,
// Offset+Size) of partitions [BasePartition, BasePartition+Partitions), kept by the runtime
// for what Type names (only "evtaccel" seen). A field absent is -1.
type Reservation struct {
	Type                                    string
	Offset, Size, BasePartition, Partitions int64
}

// Var is one def.json variable. Its fields most vars repeat are in the *VarAttrs it shares
// with the vars alike (v.Type reads v.VarAttrs.Type); a Var is 64 bytes, so a def.json of
// 100,000 vars holds 6.4 MB of them.
type Var struct {
	Name string // a substring of one string holding all the core's var names
	*VarAttrs
	ID   int64 // -1 when absent
	Size int64 // -1 when absent
	// Backing is backing_variable_off (-1 when absent).
	Backing int64
	// KeyStart and End bound the var's entry in def.json, its key to its value's end (Entry);
	// ValueOff is where its value (after the key) starts. 32-bit offsets: a def.json is at
	// most MaxJSONMember.
	KeyStart, End, ValueOff int32
}

// VarAttrs are a var's fields besides its name, id, size, backing offset and place: shared,
// never written after the resolve (vars with equal attributes hold the same *VarAttrs).
type VarAttrs struct {
	Type  string
	DType string
	Shape []int64
	// Area is the backing area the var is in (fabric_path, else backing_buf, else "" when
	// neither).
	Area      string
	FileName  string // as written (relative to the core's directory)
	FilePath  string // resolved member path ("" when no file)
	Alignment int64
	List      []int64 // dge-table / list entries (var ids)
}

// Entry is the span of the var's entry (its key to its value's end) in def (its core's
// DefPath).
func (v *Var) Entry(def string) *doc.Span {
	return doc.In(def, int64(v.KeyStart), int64(v.End)-int64(v.KeyStart))
}

// Queue is one def.json dma_queue entry.
type Queue struct {
	Name         string
	Type         string
	Owner        string
	NumQueues    int64
	Semaphores   []int64
	FabricPath   string
	Dynamic      bool
	Span         *doc.Span
	UsedByBlocks int
}

// Engine is one engine of a core.
type Engine struct {
	Token string // def.json key: pe, act, pool, dve, sp
	Name  string // PE, Activation, Pool, DVE, SP
	// JSONPath is the engine JSON member ("" when def.json names none or it is missing).
	JSONPath string
	// StreamPath is the instruction-stream member, found through the engine JSON `instr`
	// (or def.json `<eng>_instr`); StreamSize its size (-1 when missing); Instructions
	// StreamSize/64.
	StreamPath   string
	StreamSize   int64
	Instructions int64
	// ActivationSets is the Activation engine's activation_function_sets, in order: the index
	// is the ActivationTableLoad (0x23) set index (spec activation.md §1.1).
	ActivationSets []*ActivationSet
	ActSemaphore   int64
	DMABlocks      []*DMABlock
	DVETables      []*DVETable
	Span           *doc.Span // the engine JSON as a whole
	Node           *doc.Node // this engine's node in the overview

	blocks map[blockKey]*DMABlock
}

type blockKey struct {
	queue string
	id    int64
}

// ActivationSet is one entry of activation_function_sets.
type ActivationSet struct {
	Index       int
	Name        string
	ProfilePath string // <set>.json member
	BktPath     string
	CtrlPath    string
	Span        *doc.Span
}

// DMABlock is one engine JSON dma[] block.
type DMABlock struct {
	Index     int // position in the dma list
	ID        int64
	Queue     string // queue (or instance_name)
	QueueRef  *Queue // nil when the queue is not in def.json
	Semaphore int64  // -1 when absent
	Comment   string
	Descs     []*DMADesc
	Span      *doc.Span
}

// DMADesc is one descriptor of a DMA block.
type DMADesc struct {
	Op                 string
	From, To           string
	FromOff, ToOff     int64
	FromSizes, ToSizes []int64
	FromSteps, ToSteps []int64
	FromDType, ToDType string
	Span               *doc.Span
}

// DVETable is one dve_tables entry: table kind → member path.
type DVETable struct {
	Kind string // control_table, control_fast_table, datapath_table, ...
	Path string
	Size int64
	Span *doc.Span
}

// Info is info.json.
type Info struct {
	ToolVersion       string
	KelpVersion       string
	Name              string
	NumTPB            int64
	NumTPBRequested   int64
	NumTPBPerNode     []int64
	Span              *doc.Span
	numTPBPerNodeSpan *doc.Span
}

// NPY is a parsed .npy member header with a value preview.
type NPY struct {
	Path         string
	DType        string // NumPy descr, e.g. "<f2"
	Shape        []int64
	FortranOrder bool
	DataOffset   int64
	Preview      []string // the first values, formatted
	Span         *doc.Span
}

// Engine returns the core's engine by token (pe/act/pool/dve/sp) or by name
// (PE/Activation/...), or nil.
func (c *Core) Engine(tokenOrName string) *Engine {
	if c == nil {
		return nil
	}
	for _, e := range c.Engines {
		if e.Token == tokenOrName || e.Name == tokenOrName {
			return e
		}
	}
	return nil
}

// Var returns a variable by name, or nil.
func (c *Core) Var(name string) *Var {
	if c == nil {
		return nil
	}
	if i := c.varNames.find(c.Vars, name); i != noVar {
		return &c.Vars[i]
	}
	return nil
}

// VarByID returns a variable by var_id, or nil.
func (c *Core) VarByID(id int64) *Var {
	if c == nil {
		return nil
	}
	if i := c.varIDs.find(id); i != noVar {
		return &c.Vars[i]
	}
	return nil
}

// DGETable returns the core's first var of type dge-table (def.json order), or nil: the list
// a PseudoDmaDirect2d DGE address indexes, looked up for every such word.
func (c *Core) DGETable() *Var {
	if c == nil {
		return nil
	}
	return c.dgeTable
}

// Queue returns a DMA queue by name, or nil.
func (c *Core) Queue(name string) *Queue {
	if c == nil {
		return nil
	}
	return c.queueByName[name]
}

// Block finds the DMA block a trigger names. Block ids are unique per queue, not per engine:
// real SP.json files reuse id 0 on two queues (Unknown-ID manifest.dma-block-id-scope).
func (e *Engine) Block(queue string, id int64) *DMABlock {
	if e == nil {
		return nil
	}
	return e.blocks[blockKey{queue, id}]
}

// BlocksWithID lists every block with this id (one per queue that uses it), in list order:
// the join for a trigger whose queue name is not decoded.
func (e *Engine) BlocksWithID(id int64) []*DMABlock {
	if e == nil {
		return nil
	}
	var out []*DMABlock
	for _, b := range e.DMABlocks {
		if b.ID == id {
			out = append(out, b)
		}
	}
	return out
}

// ActivationSet returns the set at an ActivationTableLoad index, or nil.
func (e *Engine) ActivationSet(index int) *ActivationSet {
	if e == nil || index < 0 || index >= len(e.ActivationSets) {
		return nil
	}
	return e.ActivationSets[index]
}

// Core returns a core by name ("sg00") or nil.
func (m *Model) Core(name string) *Core {
	if m == nil {
		return nil
	}
	for _, c := range m.Cores {
		if c.Name == name || c.Dir == name {
			return c
		}
	}
	return nil
}

// CoreOfDef returns the core whose def.json is at path, or nil.
func (m *Model) CoreOfDef(path string) *Core {
	if m == nil {
		return nil
	}
	for _, c := range m.Cores {
		if c.DefPath == path {
			return c
		}
	}
	return nil
}

// VarCount is how many rows the var table has.
func (c *Core) VarCount() int { return len(c.varsByID) }

// Findings collects every finding of the overview and the member trees, in tree order.
func (m *Model) Findings() []doc.Finding {
	if m == nil {
		return nil
	}
	var all []doc.Finding
	collect := func(n *doc.Node) {
		n.Walk(func(_ []string, n *doc.Node) bool {
			all = append(all, n.Findings...)
			return true
		})
	}
	collect(m.Overview)
	for _, p := range m.MemberOrder {
		collect(m.MemberTrees[p])
	}
	return all
}

// Stream is one engine instruction stream found through the manifests.
type Stream struct {
	Core   *Core
	Engine *Engine
	// Member is the stream's member path; Size its bytes; Count Size/64 instructions.
	Member string
	Size   int64
	Count  int64
}

// Streams lists every stream that exists, core by core in kelf order, engines in libnrt order
// (pe, act, pool, dve, sp).
func (m *Model) Streams() []Stream {
	if m == nil {
		return nil
	}
	var out []Stream
	for _, c := range m.Cores {
		for _, e := range c.Engines {
			if e.StreamPath == "" || e.StreamSize < 0 {
				continue
			}
			out = append(out, Stream{Core: c, Engine: e, Member: e.StreamPath, Size: e.StreamSize, Count: e.Instructions})
		}
	}
	return out
}
