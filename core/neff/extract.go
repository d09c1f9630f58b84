package neff

import (
	"errors"
	"fmt"
	"github.com/neffscope/neffscope/core/doc"
	"io"
)

// ReadMembers reads a NEFF and returns the bytes of every member for which want returns true
// (every member when want is nil). It is the simple door for tools and tests; front ends that
// need findings use Open.
func ReadMembers(r io.ReaderAt, size int64, want func(path string, size int64) bool) (map[string][]byte, error) {
	return ReadMembersLimit(r, size, 1<<62, want)
}

// ReadMembersLimit is ReadMembers holding at most keep bytes in all (and decompressing at most
// DefaultMaxInflated); a wanted member past that bound is an error naming it.
func ReadMembersLimit(r io.ReaderAt, size int64, keep int64, want func(path string, size int64) bool) (map[string][]byte, error) {
	if want == nil {
		want = func(string, int64) bool { return true }
	}
	var refused []string
	var sum int64
	a := Open(r, size, Options{Keep: func(p string, s int64) bool {
		ok := want(p, s)
		if ok && sum+s > keep {
			refused = append(refused, p)
		} else if ok {
			sum += s
		}
		return ok
	}, KeepBudget: keep})
	out := map[string][]byte{}
	for _, m := range a.Members {
		if m.Data != nil || (m.Size == 0 && want(m.Path, 0)) {
			out[m.Path] = m.Data
			if out[m.Path] == nil {
				out[m.Path] = []byte{}
			}
		}
	}
	if len(refused) > 0 {
		return out, fmt.Errorf("member %s (and %d more) is not read: the members wanted hold more than %d bytes in all", refused[0], len(refused)-1, keep)
	}
	if !a.Complete {
		for _, f := range a.Findings {
			if f.Severity == "error" {
				return out, errors.New(f.Message)
			}
		}
		return out, errors.New("the NEFF could not be read to its end")
	}
	return out, nil
}

// ReadMember streams the archive up to one member and writes its bytes [off, off+n) to w
// (n < 0: to the end). Nothing else is held in memory, so it works on files of any size.
func ReadMember(r io.ReaderAt, size int64, path string, off, n int64, w io.Writer) error {
	return ReadMemberLimit(r, size, path, off, n, w, 0)
}

// ReadMemberLimit is ReadMember with a bound on the bytes decompressed (0: DefaultMaxInflated).
func ReadMemberLimit(r io.ReaderAt, size int64, path string, off, n int64, w io.Writer, maxInflated int64) error {
	errFound := errors.New("found")
	var werr error
	found := false
	a := Open(r, size, Options{
		Keep: func(p string, s int64) bool { return false },
		streamTo: func(p string) io.Writer {
			if p != path || found {
				return nil
			}
			found = true
			return &window{w: w, off: off, n: n, err: &werr}
		},
		stopAfterStream: errFound,
		MaxInflated:     maxInflated,
		noHash:          true,
	})
	if werr != nil {
		return werr
	}
	if !found {
		for _, f := range a.Findings {
			if f.Part == "archive" && f.Severity == doc.Error {
				return fmt.Errorf("no member %q among the %d members listed: %s", path, len(a.Members), f.Message)
			}
		}
		return fmt.Errorf("no member %q in the archive (%d members listed)", path, len(a.Members))
	}
	if m := a.Member(path); m != nil && m.Truncated {
		return fmt.Errorf("member %q is truncated at byte %d of %d", path, m.Read, m.Size)
	}
	return nil
}

// window passes through the bytes of [off, off+n) of what is written to it.
type window struct {
	w      io.Writer
	off, n int64
	pos    int64
	err    *error
}

func (x *window) Write(p []byte) (int, error) {
	start, end := x.pos, x.pos+int64(len(p))
	x.pos = end
	lo, hi := max(start, x.off), end
	if x.n >= 0 {
		hi = min(end, x.off+x.n)
	}
	if lo < hi && *x.err == nil {
		if _, err := x.w.Write(p[lo-start : hi-start]); err != nil {
			*x.err = err
		}
	}
	return len(p), nil
}
