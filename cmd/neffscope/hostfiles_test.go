package main

import (
	"archive/zip"
	"bytes"
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
	if rc != 2 || !strings.Contains(errs, "[extract.exists]") {
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
