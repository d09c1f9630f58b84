package pool

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"runtime"
	"sync/atomic"
	"testing"

	"github.com/neffscope/neffscope/core/dbg"
	"github.com/neffscope/neffscope/core/neff"
	"github.com/neffscope/neffscope/internal/realfiles"
)

// opened is matmul_small opened, and its bytes.
func opened(t testing.TB) (*neff.Archive, []byte) {
	t.Helper()
	path, ok := realfiles.Find("nkipy/matmul_small.neff")
	if !ok {
		t.Skip(realfiles.Missing("nkipy/matmul_small.neff"))
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	a := neff.Open(bytes.NewReader(b), int64(len(b)), neff.Options{Keep: func(string, int64) bool { return true }, KeepBudget: 1 << 30})
	if !a.Complete {
		t.Fatal("matmul_small did not open whole")
	}
	return a, b
}

// members is a's .dbg members and all its members, in archive order.
func members(a *neff.Archive) (dbgs, all []*neff.Member) {
	for _, m := range a.Members {
		all = append(all, m)
		if _, _, ok := dbg.Match(m.Path); ok {
			dbgs = append(dbgs, m)
		}
	}
	return dbgs, all
}

// A scan job over every .dbg member and a hash job over every member, run on the file,
// answer what a scan of each member's bytes and its SHA-256 are.
func TestJobsAnswerAsTheMembers(t *testing.T) {
	a, b := opened(t)
	dbgs, all := members(a)
	ctx := context.Background()
	p := Goroutines(2, bytes.NewReader(b))
	for _, run := range Stretches(dbgs, 2) {
		j, ok := ScanJob(a, run, 64<<20, 0)
		if !ok {
			t.Fatal("no scan job")
		}
		out, err := p.Run(ctx, j)
		if err != nil {
			t.Fatal(err)
		}
		list, err := ParseScanned(out)
		if err != nil || len(list) != len(run) {
			t.Fatalf("%d answers for %d members: %v", len(list), len(run), err)
		}
		for k, s := range list {
			want, _ := dbg.Scan(run[k].Path, run[k].Data).AppendBinary(nil)
			got, _ := s.Compact.AppendBinary(nil)
			if s.Path != run[k].Path || !bytes.Equal(got, want) || s.Held <= 0 {
				t.Errorf("%s: the job's Compact differs from a scan of its bytes", run[k].Path)
			}
		}
	}
	j, _ := HashJob(a, all, 0)
	out, err := p.Run(ctx, j)
	if err != nil {
		t.Fatal(err)
	}
	hs, err := ParseHashes(out)
	if err != nil || len(hs) != len(all) {
		t.Fatalf("%d hashes for %d members: %v", len(hs), len(all), err)
	}
	for k, h := range hs {
		sum := sha256.Sum256(all[k].Data)
		if h.Path != all[k].Path || h.HeaderOffset != all[k].HeaderOffset || h.SHA256 != hex.EncodeToString(sum[:]) {
			t.Errorf("%s: hash %s", all[k].Path, h.SHA256)
		}
	}
	// A job of a member the scan's share cannot hold answers that it refused.
	j, _ = ScanJob(a, dbgs[len(dbgs)-1:], 1, 0)
	out, _ = p.Run(ctx, j)
	if list, err := ParseScanned(out); err != nil || len(list) != 1 || !list[0].Refused {
		t.Errorf("a scan with a 1-byte share: %+v %v", list, err)
	}
}

// Run never panics on a job's bytes, whatever they are.
func FuzzRun(f *testing.F) {
	a, b := opened(f)
	for _, m := range a.Members {
		if j, ok := ScanJob(a, []*neff.Member{m}, 1<<20, 1<<24); ok {
			f.Add(true, j.Data)
		}
		if j, ok := HashJob(a, []*neff.Member{m}, 1<<24); ok {
			f.Add(false, j.Data)
		}
	}
	f.Fuzz(func(t *testing.T, scan bool, data []byte) {
		kind := KindHash
		if scan {
			kind = KindScan
		}
		out, err := Run(context.Background(), kind, data, bytes.NewReader(b))
		if err != nil {
			return
		}
		if scan {
			ParseScanned(out)
		} else {
			ParseHashes(out)
		}
	})
}

// countingPool answers every job with its index's kind and counts the jobs it ran.
type countingPool struct {
	size int
	ran  atomic.Int32
	hold chan struct{} // each Run waits for it (nil: none)
}

func (c *countingPool) Size() int { return c.size }
func (c *countingPool) Run(_ context.Context, j Job) ([]byte, error) {
	c.ran.Add(1)
	if c.hold != nil {
		<-c.hold
	}
	return []byte(j.Kind), nil
}

// With hands a job to its first pool while that has a free place and the rest to the second:
// the page's pool workers get the jobs first and the core's own thread takes what is left.
func TestWithFillsTheFirstPoolFirst(t *testing.T) {
	first := &countingPool{size: 2, hold: make(chan struct{})}
	second := &countingPool{size: 1}
	w := With(first, second)
	if w.Size() != 3 {
		t.Fatalf("size %d, want 3", w.Size())
	}
	done := make(chan struct{})
	for range 2 {
		go func() { w.Run(context.Background(), Job{Kind: "x"}); done <- struct{}{} }()
	}
	for first.ran.Load() < 2 {
		runtime.Gosched()
	}
	// The first pool is full: the next jobs go to the second, one after another.
	for range 3 {
		if b, err := w.Run(context.Background(), Job{Kind: "y"}); err != nil || string(b) != "y" {
			t.Fatalf("answer %q, %v", b, err)
		}
	}
	if first.ran.Load() != 2 || second.ran.Load() != 3 {
		t.Errorf("first ran %d, second %d; want 2 and 3", first.ran.Load(), second.ran.Load())
	}
	close(first.hold)
	<-done
	<-done
	// Free again: the next job goes to the first.
	w.Run(context.Background(), Job{Kind: "z"})
	if first.ran.Load() != 3 {
		t.Errorf("first ran %d after it was free, want 3", first.ran.Load())
	}
}

// A job on the calling thread (Local) answers as a pool worker's, byte for byte, and pauses
// while it reads its stretch.
func TestLocalAnswersAsRunAndPauses(t *testing.T) {
	a, b := opened(t)
	dbgs, all := members(a)
	defer func(was int) { pauseEvery = was }(pauseEvery)
	pauseEvery = 64 << 10
	var pauses int
	l := Local(bytes.NewReader(b), func() { pauses++ })
	scan, ok := ScanJob(a, dbgs, 64<<20, 0)
	if !ok {
		t.Fatal("no scan job")
	}
	hash, _ := HashJob(a, all, 0)
	var tar int64
	for _, j := range []Job{scan, hash} {
		want, err := Run(context.Background(), j.Kind, j.Data, bytes.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		got, err := l.Run(context.Background(), j)
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("%s: the local answer differs from Run's (%v)", j.Kind, err)
		}
		tar += j.Bytes
	}
	// The stretch comes in pieces of up to a few dozen KiB: a pause at least every other
	// pauseEvery bytes.
	if want := int(tar) / (2 * pauseEvery); want < 4 || pauses < want {
		t.Errorf("%d pauses over %d tar bytes, want at least %d", pauses, tar, want)
	}
}
