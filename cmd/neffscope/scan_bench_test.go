package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/neffscope/neffscope/core/fleet"
	"github.com/neffscope/neffscope/core/neff"
	"github.com/neffscope/neffscope/core/neff/neffbuild"
	"github.com/neffscope/neffscope/internal/realfiles"
)

// genCache writes n cache entries, each matmul_small's members repacked under its own UUID
// (so no two are duplicates), in dir/neuronxcc-2.23.6484.0+3b612583/MODULE_<i>+d41d8cd9/.
func genCache(tb testing.TB, dir string, n int) {
	tb.Helper()
	src := realfiles.Read(tb, "nkipy/matmul_small.neff")
	a := neff.Open(bytes.NewReader(src), int64(len(src)), neff.Options{Keep: func(string, int64) bool { return true }})
	var ms []neffbuild.Member
	for _, m := range a.Members {
		ms = append(ms, neffbuild.Member{Path: m.Path, Data: m.Data})
	}
	for i := range n {
		d := filepath.Join(dir, "neuronxcc-2.23.6484.0+3b612583", fmt.Sprintf("MODULE_%d+d41d8cd9", 1000000+i))
		if err := os.MkdirAll(d, 0o755); err != nil {
			tb.Fatal(err)
		}
		uuid := a.Header.UUID
		uuid[0], uuid[1] = byte(i), byte(i>>8)
		b := neffbuild.Bytes(ms, neffbuild.Options{UUID: uuid, Name: a.Header.Name, FeatureBits: a.Header.FeatureBits, NumTPB: a.Header.NumTPB, LNCSize: a.Header.LNCSize, NeffVersionMajor: a.Header.NeffVersionMajor})
		os.WriteFile(filepath.Join(d, "model.neff"), b, 0o644)
		os.WriteFile(filepath.Join(d, "model.done"), nil, 0o644)
	}
}

type countSink struct{ n, errs int }

func (c *countSink) Write(r *fleet.ScanRecord) error {
	c.n++
	if r.HasError() {
		c.errs++
	}
	return nil
}
func (c *countSink) Close() error { return nil }

// BenchmarkScan1000 scans a generated cache of 1,000 NEFFs (matmul_small repacked, 62 KB each)
// on every core and reports NEFFs per second. NEFFSCOPE_BENCH_CACHE=DIR keeps the tree in DIR
// (generated once) for a by-hand comparison with find | xargs -P neffscope info --json.
func BenchmarkScan1000(b *testing.B) {
	dir := os.Getenv("NEFFSCOPE_BENCH_CACHE")
	if dir == "" {
		dir = b.TempDir()
	}
	if _, err := os.Stat(filepath.Join(dir, "neuronxcc-2.23.6484.0+3b612583")); err != nil {
		genCache(b, dir, 1000)
	}
	b.ResetTimer()
	for range b.N {
		var s countSink
		st, err := scan([]string{dir}, scanOptions{jobs: runtime.NumCPU(), maxInflate: neff.DefaultMaxInflated}, &s)
		if err != nil || s.n != 1000 || s.errs != 0 {
			b.Fatalf("%v: %d records, %d with errors", err, s.n, s.errs)
		}
		b.ReportMetric(float64(st.records)/st.elapsed.Seconds(), "NEFFs/s")
	}
}
