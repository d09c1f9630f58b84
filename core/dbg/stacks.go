package dbg

import (
	"path"
	"strconv"

	"github.com/neffscope/neffscope/core/doc"
	"google.golang.org/protobuf/encoding/protowire"
)

// StackFrames is the stack-frame member's field 6, XLA's StackFrameIndexProto (schema.go):
// four flat lists that name each other by 1-based position (0: none).
type StackFrames struct {
	Files     []string
	Functions []string
	Locations []FileLocation
	Frames    []StackFrame
	// Cut is set when a list passed maxRecords entries (the rest is counted, not kept).
	Cut bool
	// text is the bytes of Files and Functions (held counts it as they grow).
	text int64
}

// FileLocation is one source position; File and Function are 1-based positions in Files and
// Functions.
type FileLocation struct{ File, Function, Line, Column uint64 }

// StackFrame is one frame: its file location and its caller, both 1-based (Parent 0: the
// outermost frame).
type StackFrame struct{ Location, Parent uint64 }

// Frame is one frame resolved to its file, function and line.
type Frame struct {
	File, Function string
	Line, Column   int
}

// Text is "file.py:44 (function)", the file's base name.
func (f Frame) Text() string {
	s := "?"
	if f.File != "" {
		s = path.Base(f.File)
	}
	s += ":" + strconv.Itoa(f.Line)
	if f.Function != "" {
		s += " (" + f.Function + ")"
	}
	return s
}

// at is entry id (1-based) of a list of n, ok false for 0 or past the end.
func at(id uint64, n int) (int, bool) {
	if id == 0 || id > uint64(n) {
		return 0, false
	}
	return int(id - 1), true
}

// Frame resolves stack frame id (1-based, as an hlo record's stack_frame_id names it); ok is
// false when id names no frame or its location.
func (s *StackFrames) Frame(id uint64) (Frame, bool) {
	if s == nil {
		return Frame{}, false
	}
	i, ok := at(id, len(s.Frames))
	if !ok {
		return Frame{}, false
	}
	j, ok := at(s.Frames[i].Location, len(s.Locations))
	if !ok {
		return Frame{}, false
	}
	l := s.Locations[j]
	f := Frame{Line: int(min(l.Line, 1<<31-1)), Column: int(min(l.Column, 1<<31-1))}
	if k, ok := at(l.File, len(s.Files)); ok {
		f.File = s.Files[k]
	}
	if k, ok := at(l.Function, len(s.Functions)); ok {
		f.Function = s.Functions[k]
	}
	return f, true
}

// Stack is frame id and its callers, innermost first: at most most frames, and never a frame
// twice (a parent chain that loops stops where it would repeat).
func (s *StackFrames) Stack(id uint64, most int) []Frame {
	var out []Frame
	seen := map[uint64]bool{}
	for id != 0 && len(out) < most && !seen[id] {
		seen[id] = true
		f, ok := s.Frame(id)
		if !ok {
			break
		}
		out = append(out, f)
		i, _ := at(id, len(s.Frames))
		id = s.Frames[i].Parent
	}
	return out
}

// held is what the lists hold, about.
func (s *StackFrames) held() int64 {
	if s == nil {
		return 0
	}
	return int64(len(s.Locations))*32 + int64(len(s.Frames))*16 + 96 + s.text + int64(len(s.Files)+len(s.Functions))*16
}

// shown says whether the member's view has a frames table.
func (s *StackFrames) shown() bool { return s != nil && (len(s.Frames) > 0 || len(s.Locations) > 0) }

// maxStackShown bounds the frames one row's call chain lists.
const maxStackShown = 16

// framesTable is the frames as a table node: each frame's location and its call chain (the
// lists' raw fields are in the tree below it).
func (s *StackFrames) framesTable() *doc.Node {
	if !s.shown() {
		return nil
	}
	t := &doc.Table{Columns: []string{"frame", "file", "line", "column", "function", "parent", "call chain (innermost first)"}}
	for i := range min(len(s.Frames), maxRows) {
		id := uint64(i + 1)
		f, ok := s.Frame(id)
		row := []string{strconv.FormatUint(id, 10), f.File, strconv.Itoa(f.Line), strconv.Itoa(f.Column), f.Function, strconv.FormatUint(s.Frames[i].Parent, 10), ""}
		if !ok {
			row[1], row[2], row[3] = "(location "+strconv.FormatUint(s.Frames[i].Location, 10)+" not in the list)", "", ""
		}
		chain := ""
		for k, c := range s.Stack(id, maxStackShown) {
			if k > 0 {
				chain += " ← "
			}
			chain += c.Text()
		}
		row[6] = chain
		t.Rows = append(t.Rows, row)
	}
	n := &doc.Node{Kind: doc.KindTable, Label: "stack frames", Value: strconv.Itoa(len(s.Frames)), Table: t,
		Detail: "every frame of field 6 resolved: file, line and function of its location, its caller, and the chain of callers; an hlo record's stack_frame_id is the frame number here. " +
			strconv.Itoa(len(s.Files)) + " files, " + strconv.Itoa(len(s.Functions)) + " functions, " + strconv.Itoa(len(s.Locations)) + " locations"}
	if len(s.Frames) > maxRows {
		n.Detail += "; the first " + strconv.Itoa(maxRows) + " frames listed"
	}
	return n
}

// stackEntry starts a file location or a frame of the stack-frame lists being read (none
// when its list is full).
func (d *decoder) stackEntry(msg string) {
	s := d.f.Stack
	d.stackAt = nil
	switch msg {
	case "xla_file_location":
		if len(s.Locations) >= maxRecords {
			s.Cut = true
			return
		}
		s.Locations = append(s.Locations, FileLocation{})
		l := &s.Locations[len(s.Locations)-1]
		d.stackAt = []*uint64{&l.File, &l.Function, &l.Line, &l.Column}
	case "xla_stack_frame":
		if len(s.Frames) >= maxRecords {
			s.Cut = true
			return
		}
		s.Frames = append(s.Frames, StackFrame{})
		f := &s.Frames[len(s.Frames)-1]
		d.stackAt = []*uint64{&f.Location, &f.Parent}
	}
}

// stackCut warns, on the member's root, when a stack-frame list was longer than is kept.
func (d *decoder) stackCut() {
	if s := d.f.Stack; s != nil && s.Cut {
		d.f.Root.Warnf(doc.CodeDbgTooManyRecords, d.f.Root.Span, "%s: a list of its stack frame index has more than %d entries; only the first %d of each are kept (frames past them do not resolve).", d.f.Member, maxRecords, maxRecords)
	}
}

// stackValue sets field num of the stack entry being read.
func (d *decoder) stackValue(num protowire.Number, x uint64) {
	if num >= 1 && int(num) <= len(d.stackAt) {
		*d.stackAt[num-1] = x
	}
}

// stackName adds a file or function name.
func (d *decoder) stackName(name, s string) {
	st := d.f.Stack
	switch {
	case st == nil:
	case name == "file_names" && len(st.Files) < maxRecords:
		st.Files = append(st.Files, s)
		st.text += int64(len(s))
	case name == "function_names" && len(st.Functions) < maxRecords:
		st.Functions = append(st.Functions, s)
		st.text += int64(len(s))
	default:
		st.Cut = true
	}
}

// frameText is a records-table cell: "3 → model.py:44 (forward)", the id alone when it names
// no frame, "" for none.
func frameText(st *StackFrames, id uint64) string {
	if id == 0 {
		return ""
	}
	v := strconv.FormatUint(id, 10)
	if f, ok := st.Frame(id); ok {
		v += " → " + f.Text()
	} else {
		v += " (no such frame)"
	}
	return v
}
