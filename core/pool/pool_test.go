package pool

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"os"
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

// A scan job over every .dbg member and a hash job over every member, run on the file,
// answer what a scan of each member's bytes and its SHA-256 are.
func TestJobsAnswerAsTheMembers(t *testing.T) {
	a, b := opened(t)
	var dbgs, all []*neff.Member
	for _, m := range a.Members {
		all = append(all, m)
		if _, _, ok := dbg.Match(m.Path); ok {
			dbgs = append(dbgs, m)
		}
	}
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
