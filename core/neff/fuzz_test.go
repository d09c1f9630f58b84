package neff

import (
	"bytes"
	"os"
	"testing"

	"github.com/neffscope/neffscope/core/neff/neffbuild"
	"github.com/neffscope/neffscope/internal/realfiles"
)

// FuzzHeader: any 0..1100 bytes give a header, findings and a verdict, never a panic.
func FuzzHeader(f *testing.F) {
	good := neffbuild.Bytes(neffbuild.Sample(), neffbuild.Options{})
	f.Add(good[:1024])
	f.Add(good[:1023])
	f.Add([]byte{})
	if p, ok := realfiles.SpecFind("fixtures/libnrt-fixture-neff-header.bin"); ok {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if len(b) > 1100 {
			b = b[:1100]
		}
		a := Open(bytes.NewReader(b), int64(len(b)), Options{MaxInflated: 1 << 20})
		n := a.Node("fuzz.neff")
		if n == nil || (a.Verdict.Accepts && len(b) <= 0x3FF) {
			t.Fatalf("verdict %+v for %d bytes", a.Verdict, len(b))
		}
	})
}

// FuzzOpen: the whole container (gzip, tar walk, padding, hash) on mutated NEFFs: no panic,
// bounded work, and every member listed has a size the walk could account for.
func FuzzOpen(f *testing.F) {
	// Seeds without the zero padding (PadTo -1) and small: the fuzzer minimises every input
	// that finds new coverage, and on padded 11–20 KB seeds it did little else.
	for _, opt := range []neffbuild.Options{{PadTo: -1}, {GNU: true, Dirs: true, PadTo: -1}, {Plain: true, PkgVersion: 1, PadTo: -1}} {
		f.Add(neffbuild.Bytes(neffbuild.Sample(), opt))
	}
	long := []neffbuild.Member{{Path: string(bytes.Repeat([]byte("x/"), 70)) + "y.json", Data: []byte(`{}`)}}
	f.Add(neffbuild.Bytes(long, neffbuild.Options{Plain: true, PadTo: -1}))
	f.Fuzz(func(t *testing.T, b []byte) {
		a := Open(bytes.NewReader(b), int64(len(b)), Options{MaxInflated: 256 << 10, Keep: func(string, int64) bool { return true }})
		a.Node("fuzz.neff")
		for _, m := range a.Members {
			if m.Read > m.Size || int64(len(m.Data)) > m.Read {
				t.Fatalf("member %q read %d of %d, holds %d", m.Path, m.Read, m.Size, len(m.Data))
			}
		}
	})
}
