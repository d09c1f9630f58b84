package pwp

import "testing"

// A remembered sweep is the sweep: the second call (from the cache) and a sweep of a set
// decoded again from the same bytes give what a fresh evaluation gives, and a set decoded
// from other bytes is not answered from the cache.
func TestSweepCache(t *testing.T) {
	s := loadRealSet(t, "exp_and_others")
	f := s.Function("exp")
	fresh := func(f *Function) ErrorStats {
		return f.ErrorsAt(Grid(-4, 4, 333), Options{})
	}
	want := fresh(f)
	for i := range 2 {
		if got := f.Sweep(-4, 4, 333, Options{}); got != want {
			t.Fatalf("sweep %d: %+v, want %+v", i, got, want)
		}
	}
	// The same bytes decoded again share the entry; a changed bucket does not.
	in := setFilesOf(t, "exp_and_others")
	again := NewSet(in).Function("exp")
	if got := again.Sweep(-4, 4, 333, Options{}); got != want {
		t.Errorf("the same set decoded again: %+v, want %+v", got, want)
	}
	in.Bkt = append([]byte(nil), in.Bkt...)
	for i := range in.Bkt {
		in.Bkt[i] ^= 0x5a
	}
	changed := NewSet(in).Function("exp")
	if got, w := changed.Sweep(-4, 4, 333, Options{}), fresh(changed); got != w {
		t.Errorf("a changed bkt blob: %+v, want its own %+v", got, w)
	}
}
