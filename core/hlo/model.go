// Package hlo reads an XLA HloModuleProto, the graph a compile-cache entry was compiled from
// (model.hlo_module.pb beside model.neff in neuronxcc-<version>/MODULE_<hash>+<flags>/),
// plain or gzip'd. The wire format is walked with protowire through a table generated from
// XLA's own hlo.proto and xla_data.proto (schema_gen.go), so every field is shown with its
// name and its bytes, and a typed model (computations, instructions, shapes, wiring, metadata,
// custom calls with their backend_config decoded) feeds the diff and the graph digest.
// Everything held is charged to the open's budget; bad input gives coded findings.
package hlo

import (
	"fmt"
	"strings"

	"github.com/neffscope/neffscope/core/doc"
)

// Module is the typed view of one HloModuleProto.
type Module struct {
	Name      string
	EntryName string
	EntryID   int64
	ID        int64
	// Computations in file order (XLA writes callees before callers).
	Computations []*Computation
	// FrontendAttrs are the module's frontend_attributes (field 19), in file order.
	FrontendAttrs []Attr
	// Stack is the module's stack frame index (field 17), which metadata.stack_frame_id names.
	Stack StackIndex
	// Gzip: the file was a gzip stream; WireSize is the HloModuleProto's own size.
	Gzip     bool
	WireSize int64
	// Partial says the model holds less than the file (a limit or a wire error stopped it):
	// what it says of the rest is unknown. Why says what stopped it.
	Partial bool
	Why     string
	// Root is the document tree: every field with its span.
	Root *doc.Node
	// masked is MaskedDigest's value.
	masked string
}

// MaskedDigest is the digest of the module's bytes with only the temporary paths of its NKI
// kernel calls masked: two modules with one masked digest differ in nothing but those paths
// ("" when the model is partial).
func (m *Module) MaskedDigest() string { return m.masked }

// TemporaryPaths says whether a custom call names its kernel's binary by a temporary path.
func (m *Module) TemporaryPaths() bool {
	for _, c := range m.Computations {
		for _, in := range c.Instructions {
			if in.Backend != nil && in.Backend.NKI != nil && TemporaryPath(in.Backend.NKI.Binary) {
				return true
			}
		}
	}
	return false
}

// Kernels lists the kernels the module's custom calls name, each once, in file order.
func (m *Module) Kernels() []string {
	seen := map[string]bool{}
	out := []string{}
	for _, c := range m.Computations {
		for _, in := range c.Instructions {
			if k := in.Kernel(); k != "" && !seen[k] && len(out) < 64 {
				seen[k] = true
				out = append(out, k)
			}
		}
	}
	return out
}

// Computation is one HloComputationProto.
type Computation struct {
	Name         string
	ID, RootID   int64
	IsFusion     bool
	Instructions []*Instruction
	Span         doc.Span
	ids          map[int64]*Instruction
}

// Instruction is one HloInstructionProto.
type Instruction struct {
	Name   string
	Opcode string
	ID     int64
	Shape  Shape
	// Operands, Called and ControlPreds are ids (operand_ids, called_computation_ids,
	// control_predecessor_ids).
	Operands, Called, ControlPreds []int64
	// Param is parameter_number (-1: not a parameter).
	Param    int64
	Metadata Metadata
	// Literal is a constant's value, as a digest (the values are not held).
	Literal *Blob
	// Target is custom_call_target; Backend the backend_config (nil when absent).
	Target        string
	Backend       *BackendConfig
	FrontendAttrs []Attr
	// Other are the fields not named above (dimensions, window, sharding, …): each by its
	// name, a short text and a digest of its bytes.
	Other []FieldValue
	Span  doc.Span
}

// Attr is one key/value pair of a frontend_attributes map.
type Attr struct {
	Key, Value string
	Span       doc.Span
}

// Metadata is an instruction's OpMetadata: where in the user's program it came from.
type Metadata struct {
	OpType, OpName string
	SourceFile     string
	SourceLine     int64
	StackFrame     int64
	// Other are the OpMetadata fields not named above.
	Other []FieldValue
}

// Source is "file:line", resolved through the stack frame index when the metadata names a
// frame and has no file of its own ("" when neither says).
func (m *Metadata) Source(st *StackIndex) string {
	if m.SourceFile != "" {
		return fmt.Sprintf("%s:%d", m.SourceFile, m.SourceLine)
	}
	if f, line, ok := st.Frame(m.StackFrame); ok {
		return fmt.Sprintf("%s:%d", f, line)
	}
	return ""
}

// FieldValue is a field kept as text and digest.
type FieldValue struct {
	Name   string
	Text   string
	Digest string // hex SHA-256 of the field's value bytes (first 16 hex digits)
	Span   doc.Span
}

// Blob is bytes known by their size and digest.
type Blob struct {
	Size   int64
	Digest string // hex SHA-256, first 16 hex digits
	Span   doc.Span
}

// Shape is a ShapeProto: its text ("bf16[1,128]{1,0}") and its parts.
type Shape struct {
	Text   string // element type, dimensions and layout, as XLA prints it
	DType  string
	Dims   []int64
	Layout string // "{1,0}" minor_to_major, "" when none
	Tuple  []Shape
}

// StackIndex is the module's StackFrameIndexProto, enough to resolve a frame's file and line.
type StackIndex struct {
	Files     []string
	Locations [][2]int64 // file_name_id, line
	Frames    []int64    // file_location_id
}

// Frame resolves a 1-based stack_frame_id to its file and line.
func (s *StackIndex) Frame(id int64) (string, int64, bool) {
	if s == nil || id < 1 || id > int64(len(s.Frames)) {
		return "", 0, false
	}
	loc := s.Frames[id-1]
	if loc < 1 || loc > int64(len(s.Locations)) {
		return "", 0, false
	}
	l := s.Locations[loc-1]
	if l[0] < 1 || l[0] > int64(len(s.Files)) {
		return "", 0, false
	}
	return s.Files[l[0]-1], l[1], true
}

// Entry is the entry computation (by id, else by name, else the last), nil when none.
func (m *Module) Entry() *Computation {
	for _, c := range m.Computations {
		if c.ID == m.EntryID && m.EntryID != 0 {
			return c
		}
	}
	for _, c := range m.Computations {
		if c.Name == m.EntryName {
			return c
		}
	}
	if n := len(m.Computations); n > 0 {
		return m.Computations[n-1]
	}
	return nil
}

// Instructions counts the instructions of every computation.
func (m *Module) Instructions() int {
	n := 0
	for _, c := range m.Computations {
		n += len(c.Instructions)
	}
	return n
}

// Text is the instruction as XLA's text form starts it: "%name = shape opcode(...)".
func (in *Instruction) Text(byID func(int64) string) string {
	var ops []string
	for _, o := range in.Operands {
		ops = append(ops, "%"+byID(o))
	}
	s := fmt.Sprintf("%%%s = %s %s(%s)", in.Name, in.Shape.Text, in.Opcode, strings.Join(ops, ", "))
	if in.Target != "" {
		s += fmt.Sprintf(", custom_call_target=%q", in.Target)
	}
	return s
}

// Kernel names the kernel an instruction calls: the NKI function name of its backend_config,
// else its custom_call_target ("" for an instruction that calls none).
func (in *Instruction) Kernel() string {
	if in.Backend != nil && in.Backend.NKI != nil && in.Backend.NKI.FuncName != "" {
		return in.Backend.NKI.FuncName
	}
	return in.Target
}
