package main

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/neffscope/neffscope/internal/realfiles"
)

func TestExtractNEFFFromPt(t *testing.T) {
	src := realfiles.Read(t, "nkipy/matmul_small.neff")
	dir := t.TempDir()
	pt := filepath.Join(dir, "model.pt")
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	w, _ := zw.CreateHeader(&zip.FileHeader{Name: "model/data.pkl", Method: zip.Deflate})
	w.Write([]byte("pickle"))
	w, _ = zw.CreateHeader(&zip.FileHeader{Name: "model/constants/neff_0", Method: zip.Store})
	w.Write(src)
	zw.Close()
	os.WriteFile(pt, buf.Bytes(), 0o644)
	out := filepath.Join(dir, "out.neff")
	if _, errs, rc := runCLI(t, "extract-neff", "-o", out, pt); rc != 0 {
		t.Fatalf("rc %d: %s", rc, errs)
	}
	got, _ := os.ReadFile(out)
	if !bytes.Equal(got, src) {
		t.Error("extracted bytes differ from the NEFF stored in the zip")
	}
	list, _, rc := runCLI(t, "extract-neff", "--list", pt)
	if rc != 0 || !strings.HasPrefix(list, "model/constants/neff_0\t62464 bytes\tstored at byte ") || !strings.Contains(list, "hash ok") {
		t.Errorf("list rc %d: %q", rc, list)
	}
	empty := filepath.Join(dir, "empty.zip")
	buf.Reset()
	zw = zip.NewWriter(&buf)
	zw.Create("a.txt")
	zw.Close()
	os.WriteFile(empty, buf.Bytes(), 0o644)
	if _, errs, rc := runCLI(t, "extract-neff", empty); rc != 1 || !strings.Contains(errs, "holds no NEFF") {
		t.Errorf("no NEFF: rc %d %s", rc, errs)
	}
}

func TestProfileCLI(t *testing.T) {
	p := realfiles.Path(t, "nkipy/matmul_small.neff")
	out, errs, rc := runCLI(t, "profile", p)
	if rc != 0 {
		t.Fatalf("rc %d: %s", rc, errs)
	}
	for _, want := range []string{"engines: 58 instructions in 10 streams of 2 cores", "reloads: 6 tensors loaded into SBUF", "HloMacCount"} {
		if !strings.Contains(out, want) {
			t.Errorf("text lacks %q", want)
		}
	}
	js, _, _ := runCLI(t, "profile", "--json", p)
	var n struct {
		Children []struct {
			Label string `json:"label"`
			Table struct {
				Rows [][]string `json:"rows"`
			} `json:"table"`
		} `json:"children"`
	}
	if err := json.Unmarshal([]byte(js), &n); err != nil || len(n.Children) != 5 || n.Children[0].Label != "engines" || len(n.Children[0].Table.Rows) != 10 {
		t.Errorf("json: %v %+v", err, n)
	}
	csvOut, _, _ := runCLI(t, "profile", "--csv", p)
	if !strings.HasPrefix(csvOut, "section,core,engine,instructions,bytes,stream\nengines,sg00,PE,12,768,sg00/PE.bin\n") {
		t.Errorf("csv starts %q", csvOut[:min(200, len(csvOut))])
	}
}

func TestCompareCLI(t *testing.T) {
	p := realfiles.Path(t, "nkipy/matmul_small.neff")
	out, _, rc := runCLI(t, "compare", p, p)
	if rc != 0 || !strings.HasPrefix(out, "all 2 files are the same NEFF") {
		t.Errorf("rc %d: %s", rc, out)
	}
	other, ok := realfiles.Optional(t, "cs149-trn1/stream_256k_fd1k.neff", "a three-way compare with an odd one out")
	if !ok {
		return
	}
	out, _, rc = runCLI(t, "compare", p, other, p)
	// The summary is wrapped to the table's width: read it as words.
	words := strings.Join(strings.Fields(out), " ")
	if rc != 1 || !strings.Contains(words, "differing from the majority: B ("+other+")") || !strings.Contains(out, "\ntarget ") {
		t.Errorf("rc %d: %s", rc, out)
	}
}

func TestInfoShowsMemory(t *testing.T) {
	p := realfiles.Path(t, "nkipy/matmul_small.neff")
	out, _, _ := runCLI(t, "info", p)
	if !strings.Contains(out, "Device memory (static estimate") || !strings.Contains(out, "scratchpad") {
		t.Errorf("info text lacks the memory table")
	}
	js, _, _ := runCLI(t, "info", "--json", p)
	var v struct {
		Memory struct {
			Cores []struct {
				Core  string `json:"core"`
				Total int64  `json:"total"`
			} `json:"cores"`
			NEFF struct {
				Total int64 `json:"total"`
			} `json:"neff"`
			Total int64 `json:"total"`
		} `json:"memory"`
	}
	if err := json.Unmarshal([]byte(js), &v); err != nil || len(v.Memory.Cores) != 2 || v.Memory.Total != v.Memory.NEFF.Total+v.Memory.Cores[0].Total+v.Memory.Cores[1].Total || v.Memory.Total == 0 {
		t.Errorf("%v %+v", err, v.Memory)
	}
}

func TestDiffCLIExplainsRecompile(t *testing.T) {
	src := realfiles.Read(t, "nkipy/matmul_small.neff")
	root := t.TempDir()
	var paths []string
	for _, mod := range []string{"MODULE_5+d41d8cd9", "MODULE_5+39f12043"} {
		d := filepath.Join(root, "neuronxcc-2.23.6484.0+3b612583", mod)
		os.MkdirAll(d, 0o755)
		os.WriteFile(filepath.Join(d, "model.neff"), src, 0o644)
		paths = append(paths, filepath.Join(d, "model.neff"))
	}
	out, _, rc := runCLI(t, "diff", paths[0], paths[1])
	if rc != 0 || !strings.Contains(out, "why it recompiled (cache key a: MODULE_5+d41d8cd9 (no flags) from the path; b: MODULE_5+39f12043 from the path):\n  same graph (MODULE_5), flags changed") {
		t.Errorf("rc %d:\n%s", rc, out)
	}
}
