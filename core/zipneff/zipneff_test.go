package zipneff

import (
	"archive/zip"
	"bytes"
	"io"
	"testing"

	"github.com/neffscope/neffscope/internal/realfiles"
)

// ptZip writes a TorchScript-shaped zip: code and constants entries, then the NEFF, stored or
// deflated.
func ptZip(t *testing.T, neffs map[string][]byte, method uint16) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	add := func(name string, b []byte, m uint16) {
		w, err := zw.CreateHeader(&zip.FileHeader{Name: name, Method: m})
		if err != nil {
			t.Fatal(err)
		}
		w.Write(b)
	}
	add("model/data.pkl", []byte("\x80\x02}q\x00."), zip.Deflate)
	add("model/code/__torch__.py", []byte("def forward(self, x):\n  return x\n"), zip.Deflate)
	add("model/version", []byte("3\n"), zip.Store)
	for _, name := range []string{"model/constants/neff_0", "model/constants/neff_1"} {
		if b, ok := neffs[name]; ok {
			add(name, b, method)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestFindStoredNEFF(t *testing.T) {
	src := realfiles.Read(t, "nkipy/matmul_small.neff")
	z := ptZip(t, map[string][]byte{"model/constants/neff_0": src}, zip.Store)
	es, err := Find(bytes.NewReader(z), int64(len(z)))
	if err != nil || len(es) != 1 {
		t.Fatalf("%v, %d entries", err, len(es))
	}
	e := es[0]
	if !e.Stored || e.Name != "model/constants/neff_0" || e.Size != int64(len(src)) || e.Integrity != "ok" || e.UUID == "" {
		t.Errorf("%+v", e)
	}
	if !bytes.Equal(z[e.Offset:e.Offset+e.Size], src) {
		t.Error("Offset does not point at the NEFF's bytes")
	}
	rc, _ := e.Open(bytes.NewReader(z))
	got, _ := io.ReadAll(rc)
	if !bytes.Equal(got, src) {
		t.Error("Open does not return the NEFF")
	}
}

func TestFindDeflatedAndDamaged(t *testing.T) {
	src := realfiles.Read(t, "nkipy/matmul_small.neff")
	bad := bytes.Clone(src)
	bad[5000] ^= 0xff // payload byte: the MD5 no longer matches
	z := ptZip(t, map[string][]byte{"model/constants/neff_0": src, "model/constants/neff_1": bad}, zip.Deflate)
	es, err := Find(bytes.NewReader(z), int64(len(z)))
	if err != nil || len(es) != 2 {
		t.Fatalf("%v, %d entries", err, len(es))
	}
	if es[0].Stored || es[0].Integrity != "ok" || es[1].Integrity != "mismatch" {
		t.Errorf("%+v / %+v", es[0], es[1])
	}
	rc, err := es[0].Open(bytes.NewReader(z))
	if err != nil {
		t.Fatal(err)
	}
	got, _ := io.ReadAll(rc)
	if !bytes.Equal(got, src) {
		t.Error("deflated entry reads back wrong")
	}
}

func TestFindNoNEFF(t *testing.T) {
	z := ptZip(t, nil, zip.Store)
	if es, err := Find(bytes.NewReader(z), int64(len(z))); err != nil || len(es) != 0 {
		t.Errorf("%v %v", es, err)
	}
	if _, err := Find(bytes.NewReader([]byte("not a zip")), 9); err == nil {
		t.Error("a non-zip is an error")
	}
}
