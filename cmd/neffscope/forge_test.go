package main

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/neffscope/neffscope/core/doc"
	"github.com/neffscope/neffscope/core/neff/neffbuild"
	"google.golang.org/protobuf/encoding/protowire"
)

// forging is a string with one of each kind of rune that can forge text output or break JSON
// written as text: ESC, DEL, a C1 control, the line separator, a tag character, bidi
// override and isolate, ZWJ, zero-width space, the BOM and a byte that is not UTF-8.
const forging = "f\x1b[2J\x7f\u0085\u009b\u2028\u2029\U000e0001\u202e\u2066\u200d\u200b\u2060\ufeff\xffg"

// forgedNEFF is neffbuild's sample with forging in the model's name, a member's name, and the
// strings of a backend and an asm .dbg member of sg00's PE stream (description, kernel file,
// record name).
func forgedNEFF(t *testing.T, dir, name string) string {
	t.Helper()
	str := func(b []byte, n protowire.Number, s string) []byte {
		return protowire.AppendString(protowire.AppendTag(b, n, protowire.BytesType), s)
	}
	msg := func(b []byte, n protowire.Number, m []byte) []byte {
		return protowire.AppendBytes(protowire.AppendTag(b, n, protowire.BytesType), m)
	}
	var backend []byte
	backend = str(backend, 1, "backend "+forging)
	backend = str(backend, 2, "debug_info_penguin.dbg")
	rec := protowire.AppendVarint(protowire.AppendTag(nil, 1, protowire.VarintType), 1)
	rec = str(rec, 2, "inst."+forging)
	backend = msg(backend, 3, rec)
	backend = str(backend, 5, "kernel/"+forging+".py")
	backend = str(backend, 7, "kern"+forging)
	var asm []byte
	asm = str(asm, 1, "asm "+forging)
	asm = str(asm, 2, "debug_info_backend_PE.dbg")
	for range 3 { // sg00/PE.bin's three words
		asm = msg(asm, 3, msg(nil, 3, protowire.AppendVarint(nil, 1)))
	}
	members := append(neffbuild.Sample(),
		neffbuild.Member{Path: "sg00/debug_info_backend_PE.dbg", Data: backend},
		neffbuild.Member{Path: "sg00/debug_info_asm_PE.dbg", Data: asm},
		neffbuild.Member{Path: "sg00/" + forging + ".json", Data: []byte(`{"k": "` + strings.ToValidUTF8(strings.ReplaceAll(forging, "\x1b", `\u001b`), "?") + `"}`)},
	)
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, neffbuild.Bytes(members, neffbuild.Options{Name: "net" + forging, GNU: true}), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestJSONOutputIsJSON: every --json command on NEFFs whose names and .dbg strings carry
// forging prints output that parses (one value, or one per line for scan --jsonl), holds no
// raw control, bidi, zero-width or separator rune, and still carries the names (as escapes).
func TestJSONOutputIsJSON(t *testing.T) {
	dir := t.TempDir()
	a := forgedNEFF(t, dir, "a.neff")
	b := filepath.Join(dir, "b.neff")
	if err := os.WriteFile(b, neffbuild.Bytes(neffbuild.Sample(), neffbuild.Options{}), 0o644); err != nil {
		t.Fatal(err)
	}
	// scan's records carry the path: one named with forging.
	scanDir := filepath.Join(dir, "scan")
	nb, _ := os.ReadFile(a)
	if err := os.Mkdir(scanDir, 0o755); err != nil || os.WriteFile(filepath.Join(scanDir, forging+".neff"), nb, 0o644) != nil {
		t.Fatal("cannot write the scan tree")
	}
	for _, args := range [][]string{
		{"info", "--json", a}, {"inspect", "--json", a}, {"disasm", "--json", a}, {"coverage", "--json", a},
		{"diff", "--json", a, b}, {"compare", "--json", a, b}, {"profile", "--json", a},
		{"profile", "--by-line", "--json", a}, {"memory", "--json", a}, {"sync", "--json", a}, {"memmap", "--json", a},
		{"scan", "--jsonl", "-q", scanDir},
	} {
		out, errs, _ := runCLI(t, args...)
		name := strings.Join(args[:len(args)-1], " ")
		if out == "" {
			t.Errorf("%s: no output; stderr %s", name, errs)
			continue
		}
		values := []string{out}
		if args[0] == "scan" {
			values = strings.Split(strings.TrimSuffix(out, "\n"), "\n")
		}
		for _, v := range values {
			var x any
			if err := json.Unmarshal([]byte(v), &x); err != nil {
				t.Errorf("%s: output does not parse: %v", name, err)
			}
		}
		if r, ok := rawEscapable(out, true); ok {
			t.Errorf("%s: %U raw in the JSON", name, r)
		}
		if r, ok := rawEscapable(errs, true); ok {
			t.Errorf("%s: %U raw on stderr", name, r)
		}
		if args[0] == "inspect" { // the member path and the header's name carry a coded finding
			var d doc.Document
			json.Unmarshal([]byte(out), &d)
			n := 0
			for _, fd := range d.Findings() {
				if fd.Code == doc.CodeInvalidUTF8 {
					n++
				}
			}
			if n != 2 {
				t.Errorf("inspect --json: %d findings %s, want 2 (member path, header name)", n, doc.CodeInvalidUTF8)
			}
		}
		switch args[0] {
		case "info", "inspect", "disasm", "diff", "compare", "scan":
			if !strings.Contains(out, `\u202e\u2066\u200d\u200b\u2060\ufeff\ufffdg`) || !strings.Contains(out, `\u007f\u0085\u009b\u2028\u2029\udb40\udc01`) {
				t.Errorf("%s: the forged name is not in the output as escapes", name)
			}
		}
	}
}

// TestTextOutputEscapesForging: the text commands print forging's runes only as escapes,
// whether they come from a member name, the model's name or a .dbg string.
func TestTextOutputEscapesForging(t *testing.T) {
	dir := t.TempDir()
	a := forgedNEFF(t, dir, "a.neff")
	b := filepath.Join(dir, "b.neff")
	if err := os.WriteFile(b, neffbuild.Bytes(neffbuild.Sample(), neffbuild.Options{}), 0o644); err != nil {
		t.Fatal(err)
	}
	// A .pt (zip) holding the NEFF under a forged entry name, for extract-neff --list.
	var z bytes.Buffer
	zw := zip.NewWriter(&z)
	nb, _ := os.ReadFile(a)
	w, err := zw.CreateHeader(&zip.FileHeader{Name: "model/" + forging + ".neff", Method: zip.Store})
	if err != nil {
		t.Fatal(err)
	}
	w.Write(nb)
	zw.Close()
	pt := filepath.Join(dir, "model.pt")
	if err := os.WriteFile(pt, z.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"info", "--members", a}, {"inspect", a}, {"coverage", a}, {"diff", a, b}, {"compare", a, b},
		{"disasm", a}, {"profile", a}, {"profile", "--by-line", a}, {"memory", a}, {"extract-neff", "--list", pt},
	} {
		out, errs, _ := runCLI(t, args...)
		name := strings.Join(args[:len(args)-1], " ")
		if out == "" {
			t.Errorf("%s: no output; stderr %s", name, errs)
		}
		if r, ok := rawEscapable(out, true); ok {
			t.Errorf("%s: %U raw in the text", name, r)
		}
		if r, ok := rawEscapable(errs, true); ok {
			t.Errorf("%s: %U raw on stderr", name, r)
		}
		switch args[0] {
		case "info", "inspect", "disasm", "diff", "extract-neff":
			if !strings.Contains(out, `\u202e\u2066\u200d\u200b\u2060\ufeff\xffg`) || !strings.Contains(out, `\x7f\u0085\u009b\u2028\u2029\U000e0001`) {
				t.Errorf("%s: the forged name is not in the output as escapes:\n%s", name, out)
			}
		}
	}
}
