package manifest

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"errors"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/neffscope/neffscope/core/doc"
	"github.com/neffscope/neffscope/core/neff"
)

// loadNEFF is a test-only container reader (header fields at the spec neff.md §1.1 offsets,
// then gzip + tar at byte 1024 with Multistream(false) because of the zero padding). It keeps
// the bytes of the members Resolve reads (wanted) and the size of every member.
func loadNEFF(t testing.TB, path string) (*MemberSet, HeaderFacts) {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(raw) < 1024 {
		t.Fatalf("%s: shorter than a header", path)
	}
	h := raw[:1024]
	facts := HeaderFacts{
		Present:           true,
		NeffVersionMajor:  binary.LittleEndian.Uint64(h[0x18:]),
		NumTPB:            binary.LittleEndian.Uint32(h[0xA8:]),
		Name:              string(bytes.TrimRight(h[0xDC:0xDC+256], "\x00")),
		RequestedTPBCount: binary.LittleEndian.Uint32(h[0x1DC:]),
		FeatureBits:       binary.LittleEndian.Uint64(h[0x220:]),
		At:                neff.HeaderFieldSpans(), // where the findings point; the values above are read independently
	}
	if i := strings.IndexByte(facts.Name, 0); i >= 0 {
		facts.Name = facts.Name[:i]
	}
	copy(facts.TPBPerNode[:], h[0x1E0:0x220])
	zr, err := gzip.NewReader(bytes.NewReader(raw[1024:]))
	if err != nil {
		t.Fatal(err)
	}
	zr.Multistream(false)
	tr := tar.NewReader(zr)
	set := NewMemberSet()
	for {
		hd, err := tr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		if hd.Typeflag != tar.TypeReg {
			continue
		}
		var data []byte
		if wanted(hd.Name, hd.Size) {
			data, err = io.ReadAll(tr)
			if err != nil {
				t.Fatal(err)
			}
		}
		set.Add(hd.Name, hd.Size, data)
	}
	return set, facts
}

// findingsOf returns the findings of a severity.
func findingsOf(m *Model, severity string) []doc.Finding {
	var out []doc.Finding
	for _, f := range m.Findings() {
		if f.Severity == severity {
			out = append(out, f)
		}
	}
	return out
}

// hasFinding reports whether a finding of the severity and code names every fragment (a
// member, a key, a number: not wording).
func hasFinding(m *Model, severity string, code doc.Code, fragments ...string) bool {
	for _, f := range findingsOf(m, severity) {
		ok := f.Code == code
		for _, s := range fragments {
			if !strings.Contains(f.Message, s) {
				ok = false
				break
			}
		}
		if ok {
			return true
		}
	}
	return false
}

func dumpFindings(t testing.TB, m *Model) {
	t.Helper()
	for _, f := range m.Findings() {
		t.Logf("%s: %s [%s]", f.Severity, f.Message, f.Span)
	}
}

// wanted says whether Resolve reads a member's bytes: JSON members (up to MaxJSONMember) and
// .npy members (up to NpyHeldBytes); an open decides by its member-kind table
// (core/inspect/memberkinds.go).
func wanted(path string, size int64) bool {
	switch {
	case strings.HasSuffix(path, ".json"):
		return size <= MaxJSONMember
	case strings.HasSuffix(path, ".npy"):
		return size <= NpyHeldBytes
	}
	return false
}
