package manifest

import (
	"sort"
	"strings"

	"github.com/neffscope/neffscope/core/jsonspan"
)

// Members is the archive as the manifest chain sees it: every member's path and size, and the
// bytes of the members the caller chose to hold (the JSON members; small .npy files). Binary
// streams never need to be held: the chain only asks for their size.
type Members interface {
	// Paths lists every member, in archive order.
	Paths() []string
	// Size is a member's byte length; ok is false when there is no such member.
	Size(path string) (int64, bool)
	// Bytes returns a member's contents, or ok=false when the caller does not hold them.
	// It may return only the first part of a member (len < Size): decoders treat that as a
	// preview and say so.
	Bytes(path string) ([]byte, bool)
}

// JSONReader is what a Members may also do: give a JSON member whose bytes it does not hold
// as a reloadable jsonspan.Input, read now (the caller's Resident set lets it go and reads it
// again as it needs). A NEFF open holds no JSON member over 1 MiB; the resolver asks for each
// when it gets to it. A nil Input with a nil error: the member cannot be read back; an error
// wrapping budget.ErrLimit: the budget refused it.
type JSONReader interface {
	ReadJSON(path string, size int64) (*jsonspan.Input, error)
}

// MaxJSONMember bounds how large a JSON member Resolve asks the caller to hold (or read back). The largest
// real one is 150 KB (a klir debug-info tree); 64 MiB leaves a wide margin and still bounds
// memory on hostile archives.
const MaxJSONMember = 64 << 20

// NpyHeldBytes is how much of a .npy member Resolve reads (the open's member-kind table,
// core/inspect/memberkinds.go, holds that much): whole members up to this size,
// and the caller may hand over just the first NpyHeldBytes of a larger one (the header plus a
// value preview).
const NpyHeldBytes = 1 << 20

// MemberSet is a ready-made Members: add each member with its size, and its bytes when held.
type MemberSet struct {
	order []string
	size  map[string]int64
	data  map[string][]byte
	read  func(path string, size int64) (*jsonspan.Input, error)
}

// SetReader gives the set a JSONReader: read gives a JSON member whose bytes were not added.
func (s *MemberSet) SetReader(read func(path string, size int64) (*jsonspan.Input, error)) {
	s.read = read
}

// ReadJSON implements JSONReader (nil, nil when the set has no reader).
func (s *MemberSet) ReadJSON(path string, size int64) (*jsonspan.Input, error) {
	if s.read == nil {
		return nil, nil
	}
	return s.read(path, size)
}

// NewMemberSet makes an empty set.
func NewMemberSet() *MemberSet {
	return &MemberSet{size: map[string]int64{}, data: map[string][]byte{}}
}

// Add records a member; data may be nil (size only) or a prefix of the member. A repeated path
// replaces the earlier one, as libnrt's path→bytes map does (spec neff.md §2.2).
func (s *MemberSet) Add(path string, size int64, data []byte) {
	if _, dup := s.size[path]; !dup {
		s.order = append(s.order, path)
	}
	s.size[path] = size
	if data != nil {
		s.data[path] = data
	} else {
		delete(s.data, path)
	}
}

// Remove drops a member (tests use it to make faults).
func (s *MemberSet) Remove(path string) {
	if _, ok := s.size[path]; !ok {
		return
	}
	delete(s.size, path)
	delete(s.data, path)
	for i, p := range s.order {
		if p == path {
			s.order = append(s.order[:i:i], s.order[i+1:]...)
			break
		}
	}
}

// Paths implements Members.
func (s *MemberSet) Paths() []string { return append([]string(nil), s.order...) }

// Size implements Members.
func (s *MemberSet) Size(path string) (int64, bool) { n, ok := s.size[path]; return n, ok }

// Bytes implements Members.
func (s *MemberSet) Bytes(path string) ([]byte, bool) { b, ok := s.data[path]; return b, ok }

// archive is the chain's view of Members: paths normalised the way libnrt normalises them
// (a leading "./" stripped, spec neff.md §2.2), with reference bookkeeping for the
// "member nothing refers to" check.
type archive struct {
	src     Members
	paths   []string          // normalised, archive order
	real    map[string]string // normalised → path as given
	refs    map[string][]string
	reasons map[string]string
}

func newArchive(m Members) *archive {
	a := &archive{src: m, real: map[string]string{}, refs: map[string][]string{}, reasons: map[string]string{}}
	if m == nil {
		return a
	}
	for _, p := range m.Paths() {
		n := normPath(p)
		if _, dup := a.real[n]; !dup {
			a.paths = append(a.paths, n)
		}
		a.real[n] = p
	}
	return a
}

func normPath(p string) string {
	for strings.HasPrefix(p, "./") {
		p = p[2:]
	}
	return p
}

func (a *archive) has(p string) bool { _, ok := a.real[normPath(p)]; return ok }

func (a *archive) size(p string) int64 {
	r, ok := a.real[normPath(p)]
	if !ok {
		return -1
	}
	n, ok := a.src.Size(r)
	if !ok {
		return -1
	}
	return n
}

func (a *archive) bytes(p string) ([]byte, bool) {
	r, ok := a.real[normPath(p)]
	if !ok {
		return nil, false
	}
	return a.src.Bytes(r)
}

// readJSON reads JSON member p when its bytes were not handed over (JSONReader; nil, nil when
// the Members cannot).
func (a *archive) readJSON(p string, size int64) (*jsonspan.Input, error) {
	r, ok := a.real[normPath(p)]
	jr, can := a.src.(JSONReader)
	if !ok || !can {
		return nil, nil
	}
	return jr.ReadJSON(r, size)
}

// ref notes that member p is referred to by "who" (e.g. "sg00/def.json var x").
func (a *archive) ref(p, who string) {
	p = normPath(p)
	for _, w := range a.refs[p] {
		if w == who {
			return
		}
	}
	if len(a.refs[p]) < 8 { // enough to show; bounded on hostile input
		a.refs[p] = append(a.refs[p], who)
	}
}

// matching lists member paths for which keep is true, sorted.
func (a *archive) matching(keep func(string) bool) []string {
	var out []string
	for _, p := range a.paths {
		if keep(p) {
			out = append(out, p)
		}
	}
	sort.Strings(out)
	return out
}

// joinSG joins a name from def.json or an engine JSON to its subgraph directory (spec neff.md
// §2.4 D: paths are relative to the subgraph directory). Unknown-ID:
// manifest.subgraph-relative-paths.
func joinSG(dir, name string) string {
	name = normPath(name)
	if dir == "" {
		return name
	}
	return dir + "/" + name
}

// dirOf is the directory part of a member path ("" for top level).
func dirOf(p string) string {
	if i := strings.LastIndexByte(p, '/'); i >= 0 {
		return p[:i]
	}
	return ""
}
