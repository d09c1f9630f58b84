package hlo

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"strconv"
	"strings"
)

// Class is what a difference between two modules means.
type Class string

const (
	// ClassGraph: the computation differs (opcode, shape, dtype, layout, wiring, a constant's
	// value, an instruction added or removed, an option passed to the compiler).
	ClassGraph Class = "graph"
	// ClassKernel: a custom call names another kernel or calls it otherwise (target, kernel
	// name, grid, version).
	ClassKernel Class = "kernel"
	// ClassVolatile: a value that changes from one trace to the next while the graph does
	// not (temporary paths, random suffixes, unique ids and generated names, timestamps).
	ClassVolatile Class = "volatile"
	// ClassMetadata: where the graph came from (source file and line, op type and name).
	ClassMetadata Class = "metadata"
)

// Rank orders classes by how much they say: graph > kernel > metadata > volatile.
func (c Class) Rank() int {
	switch c {
	case ClassGraph:
		return 4
	case ClassKernel:
		return 3
	case ClassMetadata:
		return 2
	case ClassVolatile:
		return 1
	}
	return 0
}

// FieldClass is one row of the table of what a field's difference means.
type FieldClass struct {
	Message, Field string
	Class          Class
	Why            string
}

// FieldClasses classifies the fields whose difference is not a graph difference; a field not
// listed is graph. Evidence: XLA's hlo.proto comments (ids and names are per-module
// bookkeeping; metadata is "symbolization metadata … for debugging"), and the eight real
// modules of one graph traced eight times (spec ntff.md §8), whose names and ids are equal
// here but are generated per trace by torch-xla (SyncTensorsGraph.<n>, <opcode>.<n>).
var FieldClasses = []FieldClass{
	{"HloModuleProto", "name", ClassVolatile, "the module's name ends in a number torch-xla gives each trace (SyncTensorsGraph.42)"},
	{"HloModuleProto", "id", ClassVolatile, "a unique id given when the module is built"},
	{"HloModuleProto", "entry_computation_name", ClassVolatile, "a generated name; the entry is matched as the entry"},
	{"HloModuleProto", "entry_computation_id", ClassVolatile, "ids are numbered per module; computations are matched by structure"},
	{"HloModuleProto", "stack_frame_index", ClassMetadata, "the source locations the instructions' metadata names"},
	{"HloModuleProto", "profile_info", ClassMetadata, "optimization profiles used, not the graph"},
	{"HloComputationProto", "name", ClassVolatile, "a generated name; computations are matched by structure"},
	{"HloComputationProto", "id", ClassVolatile, "ids are numbered per module"},
	{"HloComputationProto", "root_id", ClassVolatile, "an id; the root is compared as the matched instruction"},
	{"HloInstructionProto", "name", ClassVolatile, "instruction names are generated (<opcode>.<n>, p<k>.<n>); instructions are matched by structure"},
	{"HloInstructionProto", "id", ClassVolatile, "ids are numbered per module; operands are compared through the matching"},
	{"HloInstructionProto", "metadata", ClassMetadata, "op type, op name, source file and line: where the instruction came from"},
	{"HloInstructionProto", "statistics_viz", ClassMetadata, "statistics for drawing the graph"},
	{"HloInstructionProto", "original_value", ClassMetadata, "which original instruction a value came from, for tracking"},
	{"HloInstructionProto", "custom_call_target", ClassKernel, "the kernel a custom call runs"},
	{"HloInstructionProto", "backend_config", ClassKernel, "a custom call's configuration: for an NKI kernel its name, grid and binary (other instructions: graph)"},
}

// ClassOf is the class of a difference in field of message (graph when the table says nothing).
func ClassOf(message, field string) (Class, string) {
	for _, r := range FieldClasses {
		if r.Message == message && r.Field == field {
			return r.Class, r.Why
		}
	}
	return ClassGraph, ""
}

// tempPrefixes are directories whose files are temporary: a path under one is made per run.
var tempPrefixes = []string{"/tmp/", "/var/tmp/", "/dev/shm/", "/private/tmp/", "/private/var/folders/", "/var/folders/"}

// TemporaryPath says whether p lies in a temporary directory.
func TemporaryPath(p string) bool {
	p = strings.ReplaceAll(p, "\\", "/")
	for _, t := range tempPrefixes {
		if strings.HasPrefix(p, t) {
			return true
		}
	}
	return strings.Contains(strings.ToLower(p), "/appdata/local/temp/")
}

// randomRun says whether s could be what a tempfile name adds: Python's tempfile draws 8
// characters from "abcdefghijklmnopqrstuvwxyz0123456789_" (mkdtemp/mkstemp); 6 to 16 are taken.
func randomRun(s string) bool {
	if len(s) < 6 || len(s) > 16 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; !('a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '_') {
			return false
		}
	}
	return true
}

// RandomParts compares two paths component by component and returns, for each component that
// differs, the differing middles when both look like a tempfile's random characters (equal
// length, [a-z0-9_]{6,16}); ok is false when some component differs otherwise.
func RandomParts(a, b string) (parts [][2]string, ok bool) {
	ca, cb := strings.Split(a, "/"), strings.Split(b, "/")
	if len(ca) != len(cb) {
		return nil, false
	}
	for i := range ca {
		if ca[i] == cb[i] {
			continue
		}
		x, y := ca[i], cb[i]
		p := 0
		for p < len(x) && p < len(y) && x[p] == y[p] {
			p++
		}
		s := 0
		for s < len(x)-p && s < len(y)-p && x[len(x)-1-s] == y[len(y)-1-s] {
			s++
		}
		mx, my := x[p:len(x)-s], y[p:len(y)-s]
		// A run that happens to share its last or first characters with the other is widened
		// to the run's usual 8 characters, rightwards first, never over a separator.
		for len(mx) < 8 && s > 0 && len(mx) == len(my) && randomRun(x[p:len(x)-s+1]+"xxxxxx") {
			s--
			mx, my = x[p:len(x)-s], y[p:len(y)-s]
		}
		for len(mx) < 8 && p > 0 && len(mx) == len(my) && randomRun(x[p-1:len(x)-s]+"xxxxxx") {
			p--
			mx, my = x[p:len(x)-s], y[p:len(y)-s]
		}
		if len(mx) != len(my) || !randomRun(mx) || !randomRun(my) {
			return nil, false
		}
		parts = append(parts, [2]string{mx, my})
	}
	return parts, len(parts) > 0
}

// withoutSuffix drops the ".<n>" XLA and torch-xla put after names they generate; ok is false
// when s has none.
func withoutSuffix(s string) (string, bool) {
	i := len(s)
	for i > 0 && '0' <= s[i-1] && s[i-1] <= '9' {
		i--
	}
	if i == len(s) || i == 0 || s[i-1] != '.' {
		return s, false
	}
	return s[:i-1], true
}

// SameButGeneratedSuffix says whether two names differ only by their ".<n>" suffixes.
func SameButGeneratedSuffix(a, b string) bool {
	x, okA := withoutSuffix(a)
	y, okB := withoutSuffix(b)
	return a != b && okA && okB && x == y
}

// LeafClass classifies a difference in backend_config value path of a custom call (a and b
// the two values, as JSON text).
func LeafClass(path, a, b string, nki bool) (Class, string) {
	base := path
	if i := strings.IndexByte(base, '['); i >= 0 {
		base = base[:i]
	}
	ua, _ := strconv.Unquote(a)
	ub, _ := strconv.Unquote(b)
	switch {
	case nki && base == "klir_binary.binary" && TemporaryPath(ua) && TemporaryPath(ub):
		return ClassVolatile, "a temporary path: its random parts change on every trace"
	case SameButGeneratedSuffix(ua, ub):
		return ClassVolatile, "a generated name: only its .<n> suffix differs"
	case looksLikeTime(ua) && looksLikeTime(ub):
		return ClassVolatile, "a timestamp"
	}
	return ClassKernel, ""
}

// looksLikeTime says whether s starts like an ISO 8601 time: 2026-03-12T10:04 (or a space for T).
func looksLikeTime(s string) bool {
	if len(s) < 16 {
		return false
	}
	for i, c := range []byte(s[:16]) {
		switch i {
		case 4, 7:
			if c != '-' {
				return false
			}
		case 10:
			if c != 'T' && c != ' ' {
				return false
			}
		case 13:
			if c != ':' {
				return false
			}
		default:
			if c < '0' || c > '9' {
				return false
			}
		}
	}
	return true
}

// GraphDigest is a digest of the module with its volatile and metadata fields left out: two
// modules with the same digest are the same graph calling the same kernels the same way.
// Instructions and computations are taken in file order, operands by position, so two traces
// of one graph digest alike; a module whose model stopped at a limit has no digest ("").
func (m *Module) GraphDigest() string {
	if m == nil || m.Partial || len(m.Computations) == 0 {
		return ""
	}
	h := sha256.New()
	w := func(parts ...string) {
		for _, p := range parts {
			var n [8]byte
			binary.LittleEndian.PutUint64(n[:], uint64(len(p)))
			h.Write(n[:])
			h.Write([]byte(p))
		}
	}
	compPos := map[int64]int{}
	for i, c := range m.Computations {
		compPos[c.ID] = i
	}
	if e := m.Entry(); e != nil {
		w("entry", strconv.Itoa(compPos[e.ID]))
	}
	for _, a := range m.FrontendAttrs {
		w("attr", a.Key, a.Value)
	}
	for _, c := range m.Computations {
		pos := map[int64]int{}
		for i, in := range c.Instructions {
			pos[in.ID] = i
		}
		ref := func(id int64, table map[int64]int) string {
			if p, ok := table[id]; ok {
				return strconv.Itoa(p)
			}
			return "?"
		}
		w("computation", strconv.Itoa(len(c.Instructions)))
		if r := c.Root(); r != nil {
			w("root", ref(r.ID, pos))
		}
		for _, in := range c.Instructions {
			w("instruction", in.Opcode, in.Shape.Text, strconv.FormatInt(in.Param, 10), in.Target)
			for _, o := range in.Operands {
				w("operand", ref(o, pos))
			}
			for _, k := range in.Called {
				w("calls", ref(k, compPos))
			}
			for _, k := range in.ControlPreds {
				w("after", ref(k, pos))
			}
			if in.Literal != nil {
				w("literal", in.Literal.Digest)
			}
			for _, a := range in.FrontendAttrs {
				w("attr", a.Key, a.Value)
			}
			for _, o := range in.Other {
				if cl, _ := ClassOf("HloInstructionProto", o.Name); cl == ClassGraph || cl == ClassKernel {
					w("field", o.Name, o.Digest)
				}
			}
			digestBackend(w, in)
		}
	}
	return hex.EncodeToString(h.Sum(nil)[:8])
}

// digestBackend adds a backend_config to a digest: its values one by one with the volatile
// ones left out (a temporary path, a generated suffix), or its bytes when not decoded.
func digestBackend(w func(...string), in *Instruction) {
	bc := in.Backend
	if bc == nil {
		return
	}
	if len(bc.Leaves) == 0 {
		w("backend", bc.Raw.Digest)
		return
	}
	for _, l := range bc.Leaves {
		v := l.Value
		if u, err := strconv.Unquote(v); err == nil {
			switch {
			case bc.NKI != nil && strings.HasPrefix(l.Path, "klir_binary.binary") && TemporaryPath(u):
				v = "(temporary path)"
			case hasSuffix(u):
				v, _ = withoutSuffix(u)
				v += ".#"
			case looksLikeTime(u):
				v = "(time)"
			}
		}
		w("backend", l.Path, v)
	}
}

func hasSuffix(s string) bool { _, ok := withoutSuffix(s); return ok }
