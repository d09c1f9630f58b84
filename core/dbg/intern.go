package dbg

// The scan's interning tables: which record name, and which set of kernel attributes, a
// Compact holds already. They were Go maps keyed by string and by Tuple; a lookup per record
// hashed with the runtime's generic hash (in the wasm its fallback, byte by byte with calls)
// and a new name was copied to be a key. These are open-addressing tables of indexes into
// what the Compact holds (a name's span of the arena, a tuple's place in Tuples), with an
// FNV-1a hash computed inline.

const (
	fnvOffset = 14695981039346656037
	fnvPrime  = 1099511628211
)

func fnvText(h uint64, s string) uint64 {
	for i := 0; i < len(s); i++ {
		h = (h ^ uint64(s[i])) * fnvPrime
	}
	return (h ^ uint64(len(s))) * fnvPrime // the length ends each text: ("ab", "") ≠ ("a", "b")
}

// nameSlot is a name held in the arena: its index + 1 (0: an empty slot), hash and bytes.
type nameSlot struct {
	k      uint32
	h      uint32
	lo, hi int
}

// nameSet finds the names a Compact has interned.
type nameSet struct {
	slots []nameSlot // a power of two long, at most three quarters full
	n     int
}

// find is the index of name (its bytes in arena), ok false when it is not held.
func (s *nameSet) find(h uint64, name string, arena []byte) (uint32, bool) {
	if len(s.slots) == 0 {
		return 0, false
	}
	mask := len(s.slots) - 1
	for i := int(h) & mask; ; i = (i + 1) & mask {
		sl := &s.slots[i]
		if sl.k == 0 {
			return 0, false
		}
		if sl.h == uint32(h) && string(arena[sl.lo:sl.hi]) == name {
			return sl.k - 1, true
		}
	}
}

// add holds name k at arena[lo:hi] (not held yet). The table grows past three quarters full:
// at most 8/3 slots of 24 bytes an entry, the 64 bytes Held counts for one (mapEntry).
func (s *nameSet) add(h uint64, k uint32, lo, hi int) {
	if 4*(s.n+1) > 3*len(s.slots) {
		old := s.slots
		s.slots = make([]nameSlot, max(16, 2*len(old)))
		for _, sl := range old {
			if sl.k != 0 {
				s.put(sl)
			}
		}
	}
	s.put(nameSlot{k: k + 1, h: uint32(h), lo: lo, hi: hi})
	s.n++
}

func (s *nameSet) put(sl nameSlot) {
	mask := len(s.slots) - 1
	i := int(sl.h) & mask
	for s.slots[i].k != 0 {
		i = (i + 1) & mask
	}
	s.slots[i] = sl
}

// tupleHash is t's hash (every field, the Has flags too).
func tupleHash(t *Tuple) uint64 {
	h := fnvText(fnvText(fnvText(fnvOffset, t.File), t.Line), t.Kernel)
	return (h ^ boolBits(t.HasFile, t.HasLine, t.HasKernel)) * fnvPrime
}

// tupleSet finds the tuples a Compact holds: slots hold an index into Tuples + 1.
type tupleSet struct {
	slots []uint32 // a power of two long, at most half full
	hs    []uint32 // the slots' hashes
	n     int
}

// find is the slot of t: held (its index in tuples) or the empty one it would take.
func (s *tupleSet) find(h uint64, t *Tuple, tuples []Tuple) (slot int, k uint32, ok bool) {
	if len(s.slots) == 0 {
		return -1, 0, false
	}
	mask := len(s.slots) - 1
	for i := int(h) & mask; ; i = (i + 1) & mask {
		if s.slots[i] == 0 {
			return i, 0, false
		}
		if s.hs[i] == uint32(h) && tuples[s.slots[i]-1] == *t {
			return i, s.slots[i] - 1, true
		}
	}
}

// set holds t at index k, in place of an equal tuple held before (as a map's assignment).
func (s *tupleSet) set(h uint64, t *Tuple, k uint32, tuples []Tuple) {
	if i, _, ok := s.find(h, t, tuples); ok {
		s.slots[i] = k + 1
		return
	}
	if 2*(s.n+1) > len(s.slots) {
		old, oldH := s.slots, s.hs
		s.slots, s.hs = make([]uint32, max(16, 2*len(old))), make([]uint32, max(16, 2*len(old)))
		for i, v := range old {
			if v != 0 {
				s.put(oldH[i], v)
			}
		}
	}
	s.put(uint32(h), k+1)
	s.n++
}

func (s *tupleSet) put(h, v uint32) {
	mask := len(s.slots) - 1
	i := int(h) & mask
	for s.slots[i] != 0 {
		i = (i + 1) & mask
	}
	s.slots[i], s.hs[i] = v, h
}
