package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/neffscope/neffscope/core/fleet"
	"github.com/neffscope/neffscope/internal/cachetest"
	"github.com/parquet-go/parquet-go"
)

// relRecords keys a scan's records by their path below root, with the root taken out of every
// path they hold, so scans of one tree in different places compare equal.
func relRecords(t *testing.T, out, root string) map[string]fleet.ScanRecord {
	t.Helper()
	recs := map[string]fleet.ScanRecord{}
	for _, r := range decodeJSONL(t, out) {
		rel, ok := strings.CutPrefix(r.Path, root+"/")
		if !ok {
			t.Fatalf("record %s is not under %s", r.Path, root)
		}
		r.Path = rel
		if r.HLO != nil {
			r.HLO.Path = strings.TrimPrefix(r.HLO.Path, root+"/")
		}
		for i := range r.Problems {
			r.Problems[i].Message = strings.ReplaceAll(r.Problems[i].Message, root+"/", "")
		}
		recs[rel] = r
	}
	return recs
}

// The eight real modules as a cache: one graph, and the scan says the keys differ only by
// the kernel's temporary path, with what to do.
func TestScanRealCacheOneGraph(t *testing.T) {
	root, entries := cachetest.RealTree(t)
	out, errs, _ := runCLI(t, "scan", "--jsonl", root)
	recs := relRecords(t, out, filepath.ToSlash(root))
	if len(recs) != 8 {
		t.Fatalf("%d records, want 8 (one per entry):\n%s", len(recs), out)
	}
	graphs := map[string]bool{}
	for rel, r := range recs {
		if r.Graph == nil || r.HLO == nil || !r.HLO.TemporaryPaths || len(r.HLO.Kernels) != 1 || r.HLO.Kernels[0] != "qwen3_attn_tkg_fused" {
			t.Fatalf("%s: graph %v hlo %+v", rel, r.Graph, r.HLO)
		}
		graphs[*r.Graph] = true
	}
	if len(graphs) != 1 {
		t.Fatalf("graphs %v, want one", graphs)
	}
	v6 := recs["neuronxcc-"+cachetest.Compiler+"/MODULE_"+cachetest.V6Module+"+"+cachetest.Flags+"/model.neff"]
	if v6.SHA256 == "" || v6.Cache == nil || v6.Cache.State != fleet.CacheDone {
		t.Fatalf("the attn_v6 entry: %+v", v6)
	}
	if !strings.Contains(errs, "8 entries, one graph (") || !strings.Contains(errs, "keys differ only by the kernel's temporary path") || !strings.Contains(errs, "prune these entries") {
		t.Fatalf("stderr lacks the grouping:\n%s", errs)
	}
	_ = entries
}

// A scan of the tree on S3 (a real S3 API on loopback) gives the records a scan of the folder
// gives, and so do a scan of its .tar and of its .tar.gz; `scan --parquet` of the bucket works.
func TestScanS3AndTarEqualFolder(t *testing.T) {
	root, _ := cachetest.RealTree(t)
	want := relRecords(t, mustScan(t, root), filepath.ToSlash(root))
	dir := t.TempDir()
	tarPath, tgzPath := filepath.Join(dir, "cache.tar"), filepath.Join(dir, "cache.tar.gz")
	cachetest.Tar(t, root, tarPath, false)
	cachetest.Tar(t, root, tgzPath, true)
	for _, c := range []struct {
		name, root string
		creds      bool
	}{
		{"tar", tarPath, false},
		{"tar.gz", tgzPath, false},
		{"s3 with credentials", "", true},
		{"s3 anonymous", "", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			src := c.root
			if src == "" {
				src = cachetest.S3(t, root, "caches", "team/neuron-cache", c.creds)
			}
			out, errs, rc := runCLI(t, "scan", "--jsonl", src)
			if rc != 0 {
				t.Fatalf("rc %d: %s", rc, errs)
			}
			if strings.Contains(errs, "neffscope-test-secret") || strings.Contains(out, "neffscope-test-secret") {
				t.Fatal("a credential was printed")
			}
			got := relRecords(t, out, src)
			if len(got) != len(want) {
				t.Fatalf("%d records, want %d:\n%s\n%s", len(got), len(want), out, errs)
			}
			for rel, w := range want {
				g, ok := got[rel]
				if !ok {
					t.Fatalf("no record for %s", rel)
				}
				if gj, wj := mustJSON(t, g), mustJSON(t, w); gj != wj {
					t.Fatalf("%s differs:\n got %s\nwant %s", rel, gj, wj)
				}
			}
			if !strings.Contains(errs, "8 entries, one graph") {
				t.Fatalf("stderr lacks the grouping:\n%s", errs)
			}
		})
	}
	t.Run("s3 parquet", func(t *testing.T) {
		src := cachetest.S3(t, root, "caches", "team/neuron-cache", true)
		pq := filepath.Join(t.TempDir(), "scan.parquet")
		if _, errs, rc := runCLI(t, "scan", "--parquet", pq, "-q", src); rc != 0 {
			t.Fatalf("rc %d: %s", rc, errs)
		}
		rows := readParquetRows(t, pq)
		if len(rows) != 8 {
			t.Fatalf("%d rows, want 8", len(rows))
		}
		for _, r := range rows {
			if r.Graph == nil || !strings.HasPrefix(r.Path, src+"/") {
				t.Fatalf("row %+v", r)
			}
		}
	})
}

func mustScan(t *testing.T, root string) string {
	t.Helper()
	out, errs, rc := runCLI(t, "scan", "--jsonl", root)
	if rc != 0 {
		t.Fatalf("rc %d: %s", rc, errs)
	}
	return out
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func readParquetRows(t *testing.T, p string) []flatRecord {
	t.Helper()
	rows, err := parquet.ReadFile[flatRecord](p)
	if err != nil {
		t.Fatal(err)
	}
	return rows
}
