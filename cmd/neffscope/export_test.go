package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"

	"github.com/neffscope/neffscope/internal/realfiles"
)

type exportKey struct {
	core, engine string
	index        int32
}

// On every real NEFF, `export --parquet` writes as many instruction rows per stream as disasm
// lists, a sync edge per wait of sync --json with the same producer, and memmap --json's
// accesses box for box; every row carries the header's UUID (info --json), and an
// instruction's source location is disasm's.
func TestExportParquetMatchesDisasmSyncMemmap(t *testing.T) {
	if testing.Short() {
		t.Skip("-short skips the slow tests; make test-core runs this one")
	}
	paths := realfiles.Glob("*/*.neff")
	if len(paths) == 0 {
		t.Skip(realfiles.Missing("*/*.neff"))
	}
	for _, p := range paths {
		dir := t.TempDir()
		if _, errs, code := runCmd(t, "export", "--parquet", dir, p); code != 0 {
			t.Fatalf("%s: exit %d: %s", p, code, errs)
		}
		insts, err := parquet.ReadFile[exportInstRow](filepath.Join(dir, exportInstructions))
		if err != nil {
			t.Fatal(err)
		}
		edges, err := parquet.ReadFile[exportSyncRow](filepath.Join(dir, exportSyncEdges))
		if err != nil {
			t.Fatal(err)
		}
		boxes, err := parquet.ReadFile[exportMemRow](filepath.Join(dir, exportMemAccesses))
		if err != nil {
			t.Fatal(err)
		}

		out, _, _ := runCmd(t, "info", "--json", p)
		var info struct {
			Header struct {
				UUID string `json:"uuid"`
			} `json:"header"`
		}
		if err := json.Unmarshal([]byte(out), &info); err != nil || info.Header.UUID == "" {
			t.Fatalf("%s: info --json: %v", p, err)
		}
		for _, r := range insts {
			if r.NeffUUID != info.Header.UUID {
				t.Fatalf("%s: neff_uuid %q, info says %q", p, r.NeffUUID, info.Header.UUID)
			}
		}
		for _, r := range edges {
			if r.NeffUUID != info.Header.UUID {
				t.Fatalf("%s: sync edge neff_uuid %q, info says %q", p, r.NeffUUID, info.Header.UUID)
			}
		}

		// Instructions: disasm --json's streams, word for word (opcode, source line).
		out, errs, code := runCmd(t, "disasm", "--json", p)
		if code != 0 {
			t.Fatalf("%s: disasm exit %d: %s", p, code, errs)
		}
		var dis disasmJSON
		if err := json.Unmarshal([]byte(out), &dis); err != nil {
			t.Fatal(err)
		}
		byKey := map[exportKey]exportInstRow{}
		for _, r := range insts {
			byKey[exportKey{r.Core, r.Engine, r.InstructionIndex}] = r
		}
		words, located := 0, 0
		for _, s := range dis.Streams {
			for _, in := range s.Instructions {
				words++
				r, ok := byKey[exportKey{s.Subgraph, s.Engine, int32(in.Index)}]
				if !ok {
					t.Fatalf("%s: no instruction row for %s %s #%d", p, s.Subgraph, s.Engine, in.Index)
				}
				if r.OpcodeByte != int32(in.Opcode) || r.OpcodeName != in.Name {
					t.Fatalf("%s %s #%d: opcode %d %s, disasm %d %s", s.Subgraph, s.Engine, in.Index, r.OpcodeByte, r.OpcodeName, in.Opcode, in.Name)
				}
				var want, wantBase string
				if in.Source != nil && in.Source.File != nil && in.Source.Line != nil {
					want = *in.Source.File + ":" + strconv.Itoa(*in.Source.Line)
					wantBase = filepath.Base(*in.Source.File) + ":" + strconv.Itoa(*in.Source.Line)
					located++
				}
				if got := deref(r.NKISource); got != want {
					t.Fatalf("%s %s #%d: nki_source_location %q, disasm %q", s.Subgraph, s.Engine, in.Index, got, want)
				}
				if got := deref(r.NKISourceBase); got != wantBase {
					t.Fatalf("%s %s #%d: nki_source_base %q, want %q", s.Subgraph, s.Engine, in.Index, got, wantBase)
				}
				if r.NeffPath != p {
					t.Fatalf("neff_path %q, want %q", r.NeffPath, p)
				}
				if in.Source != nil && deref(r.BIRName) != in.Source.BIR {
					t.Fatalf("%s %s #%d: bir_instruction_name %q, disasm %q", s.Subgraph, s.Engine, in.Index, deref(r.BIRName), in.Source.BIR)
				}
				if r.Step < 0 {
					t.Fatalf("%s %s #%d: step %d on a file that ran", s.Subgraph, s.Engine, in.Index, r.Step)
				}
			}
		}
		if len(insts) != words {
			t.Errorf("%s: %d instruction rows, disasm lists %d words", p, len(insts), words)
		}

		// Sync edges: sync --json's waits, in order, with their producers and DMA queues.
		out, errs, code = runCmd(t, "sync", "--json", p)
		if code != 0 {
			t.Fatalf("%s: sync exit %d: %s", p, code, errs)
		}
		var sj syncJSON
		if err := json.Unmarshal([]byte(out), &sj); err != nil {
			t.Fatal(err)
		}
		k, dma := 0, 0
		for _, c := range sj.Cores {
			for _, w := range c.Waits {
				if k >= len(edges) {
					t.Fatalf("%s: %d sync edges, sync --json has more", p, len(edges))
				}
				e := edges[k]
				k++
				if e.Core != c.Core || e.Engine != w.Engine || e.InstructionIndex != w.Index || e.Semaphore != w.Semaphore || e.Value != int64(w.Value) {
					t.Fatalf("%s: edge %d is %+v, sync --json %+v", p, k-1, e, w)
				}
				if w.Producer == nil || e.ProducerEngine == nil || *e.ProducerEngine != w.Producer.Engine || *e.ProducerIndex != w.Producer.Index ||
					deref(e.QueueName) != w.Producer.DMA || e.Code != nil {
					t.Fatalf("%s: edge %+v, producer %+v", p, e, w.Producer)
				}
				if w.Producer.DMA != "" {
					dma++
				}
			}
		}
		if k != len(edges) {
			t.Errorf("%s: %d sync edges, sync --json lists %d waits", p, len(edges), k)
		}

		// Memory: memmap --json's accesses, a row per box.
		out, errs, code = runCmd(t, "memmap", "--json", p)
		if code != 0 {
			t.Fatalf("%s: memmap exit %d: %s", p, code, errs)
		}
		var mj memmapJSON
		if err := json.Unmarshal([]byte(out), &mj); err != nil {
			t.Fatal(err)
		}
		type accKey struct {
			core   string
			access int32
		}
		rows := map[accKey][]exportMemRow{}
		for _, b := range boxes {
			rows[accKey{b.Core, b.Access}] = append(rows[accKey{b.Core, b.Access}], b)
		}
		accesses := 0
		for _, c := range mj.Cores {
			for i, a := range c.Accesses {
				accesses++
				got := rows[accKey{c.Core, int32(i)}]
				if len(got) != max(len(a.Boxes), 1) {
					t.Fatalf("%s %s access %d: %d rows, %d boxes", p, c.Core, i, len(got), len(a.Boxes))
				}
				for j, b := range a.Boxes {
					r := got[j]
					if r.Engine != a.Engine || r.InstructionIndex != a.Index || r.DMA != a.DMA || r.Space != a.Space || r.Write != a.Write ||
						*r.Partition != int32(b.Partition) || *r.Partitions != int32(b.Partitions) || *r.Offset != int64(b.Offset) || *r.Bytes != int64(b.Bytes) ||
						*r.Stride != int64(b.Stride) || *r.Count != max(int64(b.Count), 1) {
						t.Fatalf("%s %s access %d box %d: row %+v, memmap %+v %+v", p, c.Core, i, j, r, a, b)
					}
				}
			}
		}
		if len(rows) != accesses {
			t.Errorf("%s: %d accesses exported, memmap --json lists %d", p, len(rows), accesses)
		}
		t.Logf("%s: %d instructions (%d with a source line), %d sync edges (%d by DMA), %d accesses in %d box rows", filepath.Base(p), words, located, k, dma, accesses, len(boxes))
	}
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// The written schemas are the column table (exportColumns), in its order; the tables are not
// overwritten without --force; and the command is in the CLI's list.
func TestExportSchemaOverwriteAndHelp(t *testing.T) {
	p := realfiles.Path(t, "nkipy/matmul_small.neff")
	dir := t.TempDir()
	if _, errs, code := runCmd(t, "export", "--parquet", dir, p); code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, table := range []string{exportInstructions, exportSyncEdges, exportMemAccesses, exportLints} {
		var want []string
		for _, c := range exportColumns {
			if c.Table == table {
				want = append(want, c.Column)
			}
		}
		fh, err := os.Open(filepath.Join(dir, table))
		if err != nil {
			t.Fatal(err)
		}
		st, _ := fh.Stat()
		pf, err := parquet.OpenFile(fh, st.Size())
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, f := range pf.Schema().Fields() {
			got = append(got, f.Name())
		}
		fh.Close()
		if strings.Join(got, ",") != strings.Join(want, ",") {
			t.Errorf("%s columns %v, the table says %v", table, got, want)
		}
	}
	before, _ := os.ReadFile(filepath.Join(dir, exportSyncEdges))
	_, errs, code := runCmd(t, "export", "--parquet", dir, p)
	if code != 2 || !strings.Contains(errs, "[output.exists]") {
		t.Fatalf("second export: exit %d, %s", code, errs)
	}
	if after, _ := os.ReadFile(filepath.Join(dir, exportSyncEdges)); string(after) != string(before) {
		t.Fatal("a refused export changed an existing table")
	}
	if _, errs, code := runCmd(t, "export", "--parquet", dir, "--force", p); code != 0 {
		t.Fatalf("--force: exit %d, %s", code, errs)
	}
	_, usage, _ := runCmd(t)
	if !strings.Contains(usage, "\n  export ") {
		t.Errorf("usage does not list export:\n%s", usage)
	}
	// A file that is no NEFF is reported (exit 1) and the others are still exported.
	notNEFF := filepath.Join(t.TempDir(), "x.neff")
	os.WriteFile(notNEFF, []byte("not a neff"), 0o644)
	_, _, code = runCmd(t, "export", "--parquet", t.TempDir(), notNEFF, p)
	if code != 1 {
		t.Errorf("a non-NEFF among the files: exit %d, want 1", code)
	}
}
