package golden

import (
	"path/filepath"
	"strings"
	"testing"
)

// recorder is a testing.TB that keeps what a Check says instead of failing the test.
type recorder struct {
	testing.TB
	said   []string
	failed bool
}

func (r *recorder) Helper() {}
func (r *recorder) Errorf(format string, args ...any) {
	r.failed = true
	r.said = append(r.said, format)
}
func (r *recorder) Fatalf(format string, args ...any) { r.Errorf(format, args...) }
func (r *recorder) Failed() bool                      { return r.failed }
func (r *recorder) Log(args ...any)                   {}

// Check writes with -update-sums, then passes on the same output and fails, naming the case, on a
// changed byte, a missing case or an extra one.
func TestCheck(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.sha256")
	var s Sums
	s.Add("a", []byte("one"))
	s.Add("b", []byte("two"))
	s.check(t, path, true)
	s.Check(t, path)
	for name, c := range map[string]func(*Sums){
		"changed": func(s *Sums) { s.Add("a", []byte("one")); s.Add("b", []byte("twO")) },
		"fewer":   func(s *Sums) { s.Add("a", []byte("one")) },
		"more":    func(s *Sums) { s.Add("a", []byte("one")); s.Add("b", []byte("two")); s.Add("c", nil) },
	} {
		var again Sums
		c(&again)
		r := &recorder{TB: t}
		again.Check(r, path)
		if !r.failed {
			t.Errorf("%s: passed", name)
		}
		if name == "changed" && (len(r.said) != 1 || !strings.Contains(r.said[0], "line %d")) {
			t.Errorf("%s: %q", name, r.said)
		}
	}
}
