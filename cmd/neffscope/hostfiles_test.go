package main

import (
	"encoding/json"
	"fmt"
	"io"
	"syscall"

	"archive/zip"
	"bytes"
	"github.com/neffscope/neffscope/core/fleet"
	"github.com/neffscope/neffscope/core/neff/neffbuild"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/neffscope/neffscope/internal/realfiles"
)

// ptWith writes a zip holding src under each name (stored) and returns its path.
func ptWith(t *testing.T, dir string, src []byte, names ...string) string {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, name := range names {
		w, err := zw.CreateHeader(&zip.FileHeader{Name: name, Method: zip.Store})
		if err != nil {
			t.Fatal(err)
		}
		w.Write(src)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, "model.pt")
	if err := os.WriteFile(p, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// An entry named like a dot-file with terminal escapes in it: the default output name has no
// dot, no control and no separator; an existing file is not overwritten without --force.
func TestExtractNEFFNamesAndOverwrite(t *testing.T) {
	src := realfiles.Read(t, "nkipy/matmul_small.neff")
	dir := t.TempDir()
	t.Chdir(dir)
	pt := ptWith(t, dir, src, "../x/.bash\x1b]0;pwn\x07rc")
	if _, errs, rc := runCLI(t, "extract-neff", pt); rc != 0 {
		t.Fatalf("rc %d: %s", rc, errs)
	}
	names, _ := os.ReadDir(dir)
	var got []string
	for _, e := range names {
		got = append(got, e.Name())
	}
	if len(got) != 2 || got[0] != "bash_]0;pwn_rc" || got[1] != "model.pt" {
		t.Fatalf("files %q", got)
	}
	// Again: the file exists.
	_, errs, rc := runCLI(t, "extract-neff", pt)
	if rc != 2 || !strings.Contains(errs, "[output.exists]") {
		t.Errorf("overwrite: rc %d %s", rc, errs)
	}
	os.WriteFile(filepath.Join(dir, "bash_]0;pwn_rc"), []byte("keep"), 0o644)
	if _, _, rc := runCLI(t, "extract-neff", "-o", "bash_]0;pwn_rc", pt); rc != 2 {
		t.Errorf("-o over an existing file: rc %d", rc)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "bash_]0;pwn_rc")); string(b) != "keep" {
		t.Error("an existing file was overwritten")
	}
	if _, errs, rc := runCLI(t, "extract-neff", "--force", "-o", ".dotted", pt); rc != 0 {
		t.Errorf("-o .dotted: rc %d %s", rc, errs)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, ".dotted")); !bytes.Equal(b, src) {
		t.Error("-o names a dot-file: it is written")
	}
	list, _, rc := runCLI(t, "extract-neff", "--list", pt)
	if rc != 0 || strings.ContainsAny(list, "\x1b\x07") || !strings.Contains(list, `\x1b`) {
		t.Errorf("--list rc %d: %q", rc, list)
	}
}

// Directory records that alias one entry are refused with a coded warning, not read 64 times.
func TestExtractNEFFOverlap(t *testing.T) {
	src := realfiles.Read(t, "nkipy/matmul_small.neff")
	dir := t.TempDir()
	z, _ := os.ReadFile(ptWith(t, dir, src, "neff_0"))
	le := func(b []byte) int { return int(b[0]) | int(b[1])<<8 | int(b[2])<<16 | int(b[3])<<24 }
	eocd := bytes.LastIndex(z, []byte("PK\x05\x06"))
	dsize, doff := le(z[eocd+12:]), le(z[eocd+16:])
	out := bytes.Clone(z[:doff])
	for range 8 {
		out = append(out, z[doff:doff+dsize]...)
	}
	end := bytes.Clone(z[eocd:])
	end[8], end[10], end[12] = 8, 8, byte(dsize*8)
	end[13] = byte(dsize * 8 >> 8)
	p := filepath.Join(dir, "alias.pt")
	os.WriteFile(p, append(out, end...), 0o644)
	_, errs, rc := runCLI(t, "extract-neff", "--list", p)
	if rc != 1 || !strings.Contains(errs, "[zip.overlap]") {
		t.Errorf("rc %d: %s", rc, errs)
	}
}

// symlinkGraph builds levels directories, each holding fan symlinks to the next, and a NEFF
// in the last: fan^levels paths lead to one file.
func symlinkGraph(t testing.TB, root string, levels, fan int, neffBytes []byte) {
	for l := 0; l <= levels; l++ {
		if err := os.Mkdir(filepath.Join(root, fmt.Sprintf("L%d", l)), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for l := 0; l < levels; l++ {
		for k := range fan {
			if err := os.Symlink(filepath.Join("..", fmt.Sprintf("L%d", l+1)), filepath.Join(root, fmt.Sprintf("L%d", l), fmt.Sprintf("s%02d", k))); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := os.WriteFile(filepath.Join(root, fmt.Sprintf("L%d", levels), "model.neff"), neffBytes, 0o644); err != nil {
		t.Fatal(err)
	}
}

// 160 links making 20⁸ paths to one NEFF: with --follow each directory is walked once and
// the NEFF read once; without it no link is followed.
func TestScanSymlinkGraphOnce(t *testing.T) {
	root := t.TempDir()
	symlinkGraph(t, root, 8, 20, realfiles.Read(t, "nkipy/matmul_small.neff"))
	start := filepath.Join(root, "L0")
	out, errs, rc := runCLI(t, "scan", "--jsonl", "--follow", start)
	recs := decodeJSONL(t, out)
	if rc != 0 || len(recs) != 1 || recs[0].HasError() || !strings.Contains(errs, "152 symlinks led to directories already walked") {
		t.Fatalf("rc %d, %d records: %s", rc, len(recs), errs)
	}
	out, errs, rc = runCLI(t, "scan", "--jsonl", start)
	if recs := decodeJSONL(t, out); rc != 0 || len(recs) != 0 || !strings.Contains(errs, "20 symlinks not followed") {
		t.Errorf("without --follow: rc %d, %d records: %s", rc, len(recs), errs)
	}
	// A NEFF reached by a second path (a symlink beside it) is read once.
	os.Symlink("model.neff", filepath.Join(root, "L8", "same.neff"))
	out, _, _ = runCLI(t, "scan", "--jsonl", "--follow", filepath.Join(root, "L8"))
	recs = decodeJSONL(t, out)
	if len(recs) != 2 || recs[0].SHA256 == "" || !problemCode(recs[1], fleet.CodeScanSeen) || recs[1].SHA256 != "" {
		t.Errorf("second path: %+v", recs)
	}
}

// A FIFO where the walk saw a NEFF (swapped between its stat and the read): the read neither
// blocks nor reads, the record says why.
func TestScanFIFOAtReadTime(t *testing.T) {
	p := filepath.Join(t.TempDir(), "model.neff")
	if err := syscall.Mkfifo(p, 0o644); err != nil {
		t.Skipf("cannot make a FIFO here: %v", err)
	}
	r := readItem(scanItem{path: p, size: 62464}, 0)
	if !problemCode(*r, fleet.CodeScanNotRegular) || !r.HasError() {
		t.Errorf("%+v", r)
	}
}

// writeLog records every Write: each must be whole JSONL lines, so a killed scan leaves
// valid JSONL up to its last line.
type writeLog struct{ writes [][]byte }

func (w *writeLog) Write(p []byte) (int, error) {
	w.writes = append(w.writes, bytes.Clone(p))
	return len(p), nil
}

func TestScanJSONLOneWritePerRecord(t *testing.T) {
	root, _ := cacheTree(t)
	var log writeLog
	sink := newJSONLSink(&log)
	if _, err := scan([]string{root}, scanOptions{jobs: 2}, sink); err != nil {
		t.Fatal(err)
	}
	if len(log.writes) != 7 {
		t.Fatalf("%d writes", len(log.writes))
	}
	for _, b := range log.writes {
		var r fleet.ScanRecord
		if bytes.Count(b, []byte{'\n'}) != 1 || b[len(b)-1] != '\n' || json.Unmarshal(b, &r) != nil {
			t.Errorf("a write that is not one whole record line: %q", b)
		}
	}
}

// On a terminal, scan prints a table (file strings escaped, a STATE column) and its progress
// line is erased; --jsonl still gives JSONL.
func TestScanTableOnTerminal(t *testing.T) {
	old := isTerminal
	isTerminal = func(w io.Writer) bool { _, ok := w.(*bytes.Buffer); return ok }
	t.Cleanup(func() { isTerminal = old })
	root := t.TempDir()
	src := realfiles.Read(t, "nkipy/matmul_small.neff")
	os.WriteFile(filepath.Join(root, "a.neff"), src, 0o644)
	os.WriteFile(filepath.Join(root, "b\x1b[2Jx.neff"), src[:3000], 0o644)
	out, errs, rc := runCLI(t, "scan", root)
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if rc != 1 || len(lines) != 3 || !strings.HasPrefix(lines[0], "PATH ") || strings.Contains(out, "\x1b") {
		t.Fatalf("rc %d, table:\n%s", rc, out)
	}
	fields := strings.Fields(lines[1])
	if !strings.HasSuffix(fields[0], "a.neff") || fields[1] != "-" || fields[2]+" "+fields[3] != "61.0 KiB" || fields[5] != "Trn2" || fields[6] != "2" || fields[7] != "58" || fields[8] != "ok" {
		t.Errorf("row %q", lines[1])
	}
	if !strings.Contains(lines[2], `\x1b[2Jx.neff`) || !strings.Contains(lines[2], "error") {
		t.Errorf("row %q", lines[2])
	}
	// A progress line drawn is erased (before each row and at the end); none may be left.
	if i := strings.LastIndex(errs, "done /"); i >= 0 && !strings.Contains(errs[i:], "\r\x1b[K") || !strings.Contains(errs, "scan: 2 NEFFs") {
		t.Errorf("stderr %q", errs)
	}
	if js, _, _ := runCLI(t, "scan", "--jsonl", "-q", root); len(decodeJSONL(t, js)) != 2 {
		t.Errorf("--jsonl on a terminal: %q", js)
	}
}

// disasm stopped at a small --max-output: the JSON still parses and names the cap; the text's
// last line names it; both exit 1.
func TestDisasmOutputCap(t *testing.T) {
	p := realfiles.Path(t, "nkipy/matmul_small.neff")
	full, _, rc := runCLI(t, "disasm", "--json", p)
	if rc != 0 {
		t.Fatalf("rc %d", rc)
	}
	var all struct {
		Streams []json.RawMessage `json:"streams"`
	}
	if err := json.Unmarshal([]byte(full), &all); err != nil || len(all.Streams) != 10 {
		t.Fatalf("full: %v, %d streams", err, len(all.Streams))
	}
	for _, limit := range []int{len(full) / 2, 10} {
		out, errs, rc := runCLI(t, "disasm", "--json", "--max-output", fmt.Sprint(limit), p)
		var got struct {
			Streams []struct {
				Instructions []json.RawMessage `json:"instructions"`
			} `json:"streams"`
			Cap struct {
				Code string `json:"code"`
				Max  int    `json:"max_output"`
			} `json:"output_cap"`
		}
		if err := json.Unmarshal([]byte(out), &got); err != nil || rc != 1 || got.Cap.Code != "output.cap" || got.Cap.Max != limit || !strings.Contains(errs, "[output.cap]") {
			t.Fatalf("cap %d: rc %d, %v, %+v\n%s", limit, rc, err, got.Cap, out)
		}
		// Cut at a word: within a word's JSON (< 4 KB) of the cap.
		if n := len(got.Streams); n >= 10 || len(out) > limit+300 || (limit > 10) != (n > 0) || limit > 10 && len(out) < limit-4096 {
			t.Errorf("cap %d: %d streams, %d bytes", limit, n, len(out))
		}
	}
	if out, _, rc := runCLI(t, "disasm", "--json", "--max-output", "0", p); rc != 0 || out != full {
		t.Errorf("--max-output 0: rc %d, %d bytes (want %d)", rc, len(out), len(full))
	}
	text, _, _ := runCLI(t, "disasm", p)
	out, _, rc := runCLI(t, "disasm", "--max-output", "1KiB", p)
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if rc != 1 || len(out) > 1024+200 || !strings.HasSuffix(lines[len(lines)-1], "[output.cap]") || !strings.HasPrefix(text, strings.Join(lines[:len(lines)-1], "\n")) {
		t.Errorf("text cap: rc %d\n%s", rc, out)
	}
}

// The default cap applies to a terminal or a regular file, not to a pipe; a given value
// applies everywhere.
func TestOutputCapDefault(t *testing.T) {
	f, err := os.Create(filepath.Join(t.TempDir(), "out"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	var unset outputCap
	if unset.limit(f) != defaultMaxOutput || unset.limit(w) != 0 || unset.limit(&bytes.Buffer{}) != 0 {
		t.Errorf("default: file %d, pipe %d", unset.limit(f), unset.limit(w))
	}
	var c outputCap
	for in, want := range map[string]int64{"0": 0, "4096": 4096, "64MiB": 64 << 20, "1GiB": 1 << 30, "2k": 2048} {
		if err := c.Set(in); err != nil || c.limit(w) != want {
			t.Errorf("%s: %v %d", in, err, c.limit(w))
		}
	}
	for _, bad := range []string{"-1", "1TiB", "x", "99999999999G"} {
		if c.Set(bad) == nil {
			t.Errorf("%s accepted", bad)
		}
	}
}

// FuzzScanWalk builds a tree of directories, NEFF-named files, FIFOs and symlinks (to
// anything in the tree, loops included) from the input, and scans it with and without
// --follow: the walk ends, every write is one whole JSONL record, and no path is a record
// twice.
func FuzzScanWalk(f *testing.F) {
	f.Add([]byte{0, 1, 4, 0, 2, 0, 2, 1, 3})
	f.Add([]byte{0, 4, 0, 4, 0, 2, 0, 2, 1, 2, 2, 1})
	f.Add([]byte{1, 1, 2, 0, 2, 1, 0, 2, 3, 4, 2})
	neffBytes := neffbuild.Bytes(neffbuild.Sample(), neffbuild.Options{})
	f.Fuzz(func(t *testing.T, ops []byte) {
		root := t.TempDir()
		dirs, all := []string{root}, []string{root}
		cur := root
		for i := 0; i+1 < len(ops) && i < 96; i += 2 {
			arg := int(ops[i+1])
			p := filepath.Join(cur, fmt.Sprintf("e%d", i))
			switch ops[i] % 5 {
			case 0:
				if os.Mkdir(p, 0o755) == nil {
					dirs, all = append(dirs, p), append(all, p)
				}
			case 1:
				if os.WriteFile(p+".neff", neffBytes[:len(neffBytes)*(arg%3)/2], 0o644) == nil {
					all = append(all, p+".neff")
				}
			case 2:
				target := all[arg%len(all)]
				rel, err := filepath.Rel(cur, target)
				if err == nil && os.Symlink(rel, p+[]string{"", ".neff"}[arg%2]) == nil {
					all = append(all, p)
				}
			case 3:
				syscall.Mkfifo(p+".neff", 0o644)
			case 4:
				cur = dirs[arg%len(dirs)]
			}
		}
		for _, follow := range []bool{false, true} {
			var log writeLog
			if _, err := scan([]string{root}, scanOptions{jobs: 2, follow: follow}, newJSONLSink(&log)); err != nil {
				t.Fatal(err)
			}
			paths := map[string]bool{}
			for _, b := range log.writes {
				var r fleet.ScanRecord
				if bytes.Count(b, []byte{'\n'}) != 1 || b[len(b)-1] != '\n' || json.Unmarshal(b, &r) != nil {
					t.Fatalf("a write that is not one whole record line: %q", b)
				}
				if paths[r.Path] {
					t.Fatalf("follow %v: %s is a record twice", follow, r.Path)
				}
				paths[r.Path] = true
			}
		}
	})
}

// The JSON closer, cut anywhere in a real Document's JSON (every 7th byte of its first 24 KB
// and 24 places after): the output parses and names the cap in its outermost object.
func TestJSONCapCutsAnywhere(t *testing.T) {
	full, _, rc := runCLI(t, "inspect", "--json", realfiles.Path(t, "nkipy/matmul_small.neff"))
	if rc != 0 || !json.Valid([]byte(full)) {
		t.Fatalf("rc %d", rc)
	}
	full = `[{"a\u00e9\"": [1.5e+3, -2, true, null, "x\\y"]}, ` + full + "]"
	fullb := []byte(full)
	var cuts []int
	for i := 1; i < min(len(full), 24<<10); i += 7 {
		cuts = append(cuts, i)
	}
	for k := range 24 {
		cuts = append(cuts, len(full)*k/24+k%7+1)
	}
	for i, cut := range cuts {
		var out bytes.Buffer
		w := &jsonCapWriter{w: &out, limit: int64(cut)}
		w.Write(fullb[:cut/2])
		if _, err := w.Write(fullb[cut/2:]); err != errOutputCapped {
			t.Fatalf("cut %d: %v", cut, err)
		}
		tail := out.Bytes()[max(0, out.Len()-300):]
		if !json.Valid(out.Bytes()) || !bytes.Contains(tail, []byte(`{"output_cap": {"code": "output.cap"`)) && !bytes.Contains(tail, []byte(`"output_cap": {"code": "output.cap"`)) {
			t.Fatalf("cut %d: not JSON, or no output_cap:\n%s", cut, tail)
		}
		if cut < 24<<10 && i%50 == 0 || i%6 == 0 { // the cap is a member of the outermost value's last element
			var v []map[string]any
			if err := json.Unmarshal(out.Bytes(), &v); err != nil || v[len(v)-1]["output_cap"] == nil {
				t.Fatalf("cut %d: %v\n%s", cut, err, tail)
			}
		}
	}
}

func TestInspectJSONOutputCap(t *testing.T) {
	p := realfiles.Path(t, "nkipy/matmul_small.neff")
	out, errs, rc := runCLI(t, "inspect", "--json", "--max-output", "64KiB", p)
	var v struct {
		Cap struct {
			Code string `json:"code"`
		} `json:"output_cap"`
	}
	if err := json.Unmarshal([]byte(out), &v); err != nil || rc != 1 || v.Cap.Code != "output.cap" || len(out) > 64<<10+300 || !strings.Contains(errs, "[output.cap]") {
		t.Errorf("rc %d, %v, %d bytes: %s", rc, err, len(out), errs)
	}
}
