package jsonspan

// A writer that walks every stub of a forest (inspect.File.WriteJSON) makes each nested stub
// once and never asks for it again; the forest would remember them all (their parsed Values),
// hundreds of MB for a 20 MB def.json. It takes a snapshot of the stubs known before it starts
// and, between the stubs it expands, drops the ones made since.

// StubSet is a snapshot of the stubs a forest knows.
type StubSet map[int64]struct{}

// Stubs returns the stubs f knows now.
func (f *Forest) Stubs() StubSet {
	s := make(StubSet, len(f.stubs))
	for off := range f.stubs {
		s[off] = struct{}{}
	}
	return s
}

// StubCount is how many stubs f knows.
func (f *Forest) StubCount() int { return len(f.stubs) }

// ForgetExcept drops the stubs of f that keep does not hold (their refs then name nothing
// until a Children call makes them again).
func (f *Forest) ForgetExcept(keep StubSet) {
	for off := range f.stubs {
		if _, ok := keep[off]; !ok {
			delete(f.stubs, off)
		}
	}
}
