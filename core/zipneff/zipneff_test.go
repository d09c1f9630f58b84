package zipneff

import (
	"encoding/binary"
	"slices"

	"archive/zip"
	"bytes"
	"github.com/neffscope/neffscope/core/doc"
	"github.com/neffscope/neffscope/core/neff"
	"github.com/neffscope/neffscope/core/neff/neffbuild"
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
	res, err := Find(bytes.NewReader(z), int64(len(z)))
	if err != nil || len(res.Entries) != 1 || len(res.Findings) != 0 {
		t.Fatalf("%v, %+v", err, res)
	}
	es := res.Entries
	if len(es) != 1 {
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
	res, err := Find(bytes.NewReader(z), int64(len(z)))
	if err != nil || len(res.Entries) != 2 {
		t.Fatalf("%v, %+v", err, res)
	}
	es := res.Entries
	if len(es) != 2 {
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
	if res, err := Find(bytes.NewReader(z), int64(len(z))); err != nil || len(res.Entries) != 0 || len(res.Findings) != 0 {
		t.Errorf("%+v %v", res, err)
	}
	if _, err := Find(bytes.NewReader([]byte("not a zip")), 9); err == nil {
		t.Error("a non-zip is an error")
	}
}

// aliasDirectory returns z with its one central-directory record repeated copies times: every
// copy names the same local header, so a reader that trusts the directory reads one entry's
// data copies times over.
func aliasDirectory(t *testing.T, z []byte, copies int) []byte {
	t.Helper()
	le := binary.LittleEndian
	eocd := bytes.LastIndex(z, []byte{0x50, 0x4b, 0x05, 0x06})
	dirSize, dirOff := int(le.Uint32(z[eocd+12:])), int(le.Uint32(z[eocd+16:]))
	dir := z[dirOff : dirOff+dirSize]
	if le.Uint16(z[eocd+10:]) != 1 {
		t.Fatal("want a zip of one entry")
	}
	out := bytes.Clone(z[:dirOff])
	for range copies {
		out = append(out, dir...)
	}
	end := bytes.Clone(z[eocd:])
	le.PutUint16(end[8:], uint16(copies))
	le.PutUint16(end[10:], uint16(copies))
	le.PutUint32(end[12:], uint32(dirSize*copies))
	return append(out, end...)
}

func oneEntryZip(t *testing.T, name string, b []byte, method uint16) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	w, err := zw.CreateHeader(&zip.FileHeader{Name: name, Method: method})
	if err != nil {
		t.Fatal(err)
	}
	w.Write(b)
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func codes(fs []doc.Finding) []doc.Code {
	var out []doc.Code
	for _, f := range fs {
		out = append(out, f.Code)
	}
	return out
}

// Many directory records naming one entry's bytes: refused with one zip.overlap finding,
// nothing read.
func TestFindRefusesOverlappingEntries(t *testing.T) {
	src := realfiles.Read(t, "nkipy/matmul_small.neff")
	for _, method := range []uint16{zip.Store, zip.Deflate} {
		z := aliasDirectory(t, oneEntryZip(t, "neff_0", src, method), 64)
		res, err := Find(bytes.NewReader(z), int64(len(z)))
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Entries) != 0 || !slices.Equal(codes(res.Findings), []doc.Code{CodeOverlap}) {
			t.Errorf("method %d: %d entries, codes %v", method, len(res.Entries), codes(res.Findings))
		}
	}
}

// An entry inflating past the ratio, or declaring more than MaxEntrySize, is not inflated and
// is named by a zip.bomb finding.
func TestFindRefusesBombs(t *testing.T) {
	zeros := make([]byte, ratioFloor+neff.HeaderSize)
	z := oneEntryZip(t, "zeros", zeros, zip.Deflate)
	res, err := Find(bytes.NewReader(z), int64(len(z)))
	if err != nil || len(res.Entries) != 0 || !slices.Equal(codes(res.Findings), []doc.Code{CodeBomb}) {
		t.Errorf("ratio: %v %+v", err, res)
	}
	src := realfiles.Read(t, "nkipy/matmul_small.neff")
	z = oneEntryZip(t, "neff_0", src, zip.Deflate)
	lim := DefaultLimits
	lim.MaxEntrySize = int64(len(src)) - 1
	res, err = FindWith(bytes.NewReader(z), int64(len(z)), lim)
	if err != nil || len(res.Entries) != 0 || !slices.Equal(codes(res.Findings), []doc.Code{CodeBomb}) {
		t.Errorf("size: %v %+v", err, res)
	}
	lim.MaxDirectory = 16
	res, err = FindWith(bytes.NewReader(z), int64(len(z)), lim)
	if err == nil || !slices.Equal(codes(res.Findings), []doc.Code{CodeDirectory}) {
		t.Errorf("directory: %v %+v", err, res)
	}
}

// Every code Find gives is a row of the one table.
func TestZipCodesInTable(t *testing.T) {
	for _, c := range []doc.Code{CodeDirectory, CodeBomb, CodeOverlap, CodeDamaged} {
		if _, ok := doc.Meaning(c); !ok {
			t.Errorf("%s is not in doc.Codes", c)
		}
	}
}

func FuzzZipNeff(f *testing.F) {
	src := neffbuild.Bytes(neffbuild.Sample(), neffbuild.Options{})
	var tb testing.T
	f.Add(oneEntryZip(&tb, "model/constants/neff_0", src, zip.Store))
	f.Add(oneEntryZip(&tb, "neff_0", src, zip.Deflate))
	f.Add(aliasDirectory(&tb, oneEntryZip(&tb, "neff_0", src, zip.Store), 3))
	f.Add([]byte("PK\x05\x06" + string(make([]byte, 18))))
	f.Fuzz(func(t *testing.T, z []byte) {
		res, err := FindWith(bytes.NewReader(z), int64(len(z)), Limits{MaxDirectory: 1 << 16, MaxEntrySize: 1 << 22, MaxRatio: 256})
		if err != nil {
			return
		}
		for _, e := range res.Entries {
			if e.Stored && (e.Offset < 0 || e.Offset+e.Size > int64(len(z))) {
				t.Fatalf("entry %q outside the file", e.Name)
			}
			rc, err := e.Open(bytes.NewReader(z))
			if err == nil {
				n, _ := io.Copy(io.Discard, rc)
				if n > e.Size {
					t.Fatalf("entry %q read %d bytes past its size %d", e.Name, n, e.Size)
				}
				rc.Close()
			}
		}
		for _, fd := range res.Findings {
			if _, ok := doc.Meaning(fd.Code); !ok {
				t.Fatalf("uncoded finding %+v", fd)
			}
		}
	})
}
