package jsonspan

import (
	"errors"
	"sync"
)

// Input is the bytes a parse's lazy containers and a Forest read again. A plain
// Input holds its bytes for as long as it is used. A reloadable one (Resident.Input) belongs to a
// Resident set: it lets its bytes go when the set needs room for another's, and reads them
// again with its load function when next asked, so an open of a NEFF whose JSON manifests
// are tens of MB holds about one of them at a time, not all. The reader behind load must give
// the same bytes (neffscope's reads back out of a NEFF are CRC-checked): the lazy containers
// remember offsets into them.
type Input struct {
	mu   sync.Mutex
	b    []byte
	size int64
	load func() ([]byte, error)
	set  *Resident
}

// NewInput is an Input holding b.
func NewInput(b []byte) *Input { return &Input{b: b, size: int64(len(b))} }

// Input is an input on set of size bytes, not read yet: load reads them, when first asked
// (Bytes) and again after the set let them go.
func (r *Resident) Input(size int64, load func() ([]byte, error)) *Input {
	return &Input{size: size, load: load, set: r}
}

// errNoBytes is what Bytes says when an Input was let go and cannot read its bytes again.
var errNoBytes = errors.New("the JSON input's bytes were let go and cannot be read again")

// Bytes is the input's bytes: held, or read again when they were let go (making room on the
// set first). A read that fails returns its error and leaves the Input as it was, so a later
// call tries again.
func (in *Input) Bytes() ([]byte, error) {
	in.mu.Lock()
	b, load, set := in.b, in.load, in.set
	in.mu.Unlock()
	if b != nil || load == nil && in.size == 0 {
		if set != nil {
			set.touch(in)
		}
		return b, nil
	}
	if load == nil {
		return nil, errNoBytes
	}
	set.makeRoom(in)
	b, err := load()
	if err != nil {
		return nil, err
	}
	in.mu.Lock()
	if in.b == nil { // another caller may have read them meanwhile: keep one copy
		in.b = b
	}
	b = in.b
	in.mu.Unlock()
	set.admit(in)
	set.mu.Lock()
	set.Reads++
	set.mu.Unlock()
	return b, nil
}

// Held reports whether the input's bytes are in memory now.
func (in *Input) Held() bool {
	in.mu.Lock()
	defer in.mu.Unlock()
	return in.b != nil
}

// letGo drops the bytes of a reloadable input (a caller using them keeps its own reference).
func (in *Input) letGo() {
	in.mu.Lock()
	if in.load != nil {
		in.b = nil
	}
	in.mu.Unlock()
}

// Resident is the set of reloadable Inputs whose bytes may be held at once: at most Max
// bytes of them, least recently used let go first, and never the one being read (so one
// input larger than Max is still read, alone).
type Resident struct {
	mu   sync.Mutex
	max  int64
	held []*Input // least recently used first
	// Reads counts the inputs read again (tests and benchmarks watch it for thrashing).
	Reads int
}

// NewResident is a set holding at most max bytes of its inputs at once.
func NewResident(max int64) *Resident { return &Resident{max: max} }

// admit records in as held and most recently used, letting others go while over the limit.
func (r *Resident) admit(in *Input) {
	r.mu.Lock()
	r.remove(in)
	r.held = append(r.held, in)
	drop := r.overLimit(0, in)
	r.mu.Unlock()
	for _, d := range drop {
		d.letGo()
	}
}

// touch makes in the most recently used, if held.
func (r *Resident) touch(in *Input) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if k := r.index(in); k >= 0 && k != len(r.held)-1 {
		r.held = append(append(r.held[:k:k], r.held[k+1:]...), in)
	}
}

// makeRoom lets go of the least recently used inputs until in's bytes fit beside the rest.
func (r *Resident) makeRoom(in *Input) {
	r.mu.Lock()
	r.remove(in)
	drop := r.overLimit(in.size, in)
	r.mu.Unlock()
	for _, d := range drop {
		d.letGo()
	}
}

// LetGoAll lets go of every input's bytes (they are read again when next asked): what an open
// leaves held once it has resolved its manifests.
func (r *Resident) LetGoAll() {
	if r == nil {
		return
	}
	r.mu.Lock()
	drop := r.held
	r.held = nil
	r.mu.Unlock()
	for _, d := range drop {
		d.letGo()
	}
}

// HeldBytes is the bytes the set holds now.
func (r *Resident) HeldBytes() int64 {
	if r == nil {
		return 0
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	var n int64
	for _, in := range r.held {
		n += in.size
	}
	return n
}

// overLimit takes the least recently used inputs (never keep) off the held list while their
// bytes plus extra pass the limit, and returns them to be let go (outside r.mu).
func (r *Resident) overLimit(extra int64, keep *Input) []*Input {
	total := extra
	for _, in := range r.held {
		total += in.size
	}
	var drop []*Input
	for len(r.held) > 0 && total > r.max {
		if r.held[0] == keep {
			if len(r.held) == 1 {
				break
			}
			r.held = append(r.held[1:], keep)
			continue
		}
		total -= r.held[0].size
		drop = append(drop, r.held[0])
		r.held = r.held[1:]
	}
	return drop
}

func (r *Resident) index(in *Input) int {
	for k, h := range r.held {
		if h == in {
			return k
		}
	}
	return -1
}

func (r *Resident) remove(in *Input) {
	if k := r.index(in); k >= 0 {
		r.held = append(r.held[:k:k], r.held[k+1:]...)
	}
}
