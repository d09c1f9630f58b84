//go:build !js

package inspect

import (
	"bytes"
	"testing"

	"github.com/neffscope/neffscope/core/doc"
	"github.com/neffscope/neffscope/core/isa"
	"github.com/neffscope/neffscope/core/neff/neffbuild"
)

// TestCoverageWordLimit: past the word limits coverage stops expanding words, counts the rest
// of the streams as unmeasured (not significant, in no column) and says so with a finding;
// within them nothing is left out.
func TestCoverageWordLimit(t *testing.T) {
	var raw []byte
	for _, h := range neffbuild.HostileClasses() {
		if h.Name == "table-loads" {
			raw = h.Build(1.0 / 64) // 16,384 words of one ActivationTableLoad
		}
	}
	f := Open("table-loads.neff", bytes.NewReader(raw), int64(len(raw)), Options{})
	whole := f.Coverage()
	if whole.Total.Unmeasured != 0 || len(whole.Findings) != 0 {
		t.Fatalf("within the limits: %d bytes unmeasured, findings %v", whole.Total.Unmeasured, whole.Findings)
	}
	for _, lim := range []struct{ words, built int }{{1000, 1 << 17}, {1 << 22, 1}} {
		defer func(w, b int) { CoverageWordLimit, CoverageBuiltLimit = w, b }(CoverageWordLimit, CoverageBuiltLimit)
		CoverageWordLimit, CoverageBuiltLimit = lim.words, lim.built
		c := f.Coverage()
		tot := c.Total
		// The word limit stops at its count; the built limit at the second distinct word
		// (the sample's other streams come first, so that is within the first stream).
		if lim.built > 1 && tot.Words != lim.words || lim.built == 1 && (tot.Words == 0 || tot.Words >= 16) {
			t.Errorf("limits %v: %d words measured", lim, tot.Words)
		}
		if want := int64(whole.Total.Words-tot.Words) * isa.WordSize; tot.Unmeasured != want {
			t.Errorf("limits %v: %d bytes unmeasured, want %d", lim, tot.Unmeasured, want)
		}
		if tot.Named+tot.JSON+tot.Unknown+tot.Hex != tot.Significant {
			t.Errorf("limits %v: the columns do not add up to the significant bytes: %+v", lim, tot)
		}
		limited := tot.Unmeasured > 0
		if got := len(c.Findings) == 1 && c.Findings[0].Code == doc.CodeCoverageWordLimit; got != limited {
			t.Errorf("limits %v: findings %v, unmeasured %d", lim, c.Findings, tot.Unmeasured)
		}
	}
}

// TestCoverageReadLimit: past the bytes coverage may read back, the rest of the members is
// unmeasured, with the finding; the columns still add up.
func TestCoverageReadLimit(t *testing.T) {
	var raw []byte
	for _, h := range neffbuild.HostileClasses() {
		if h.Name == "blob-flood" {
			raw = h.Build(1.0 / 30) // 40 members of 2 MiB zeros
		}
	}
	f := Open("blob-flood.neff", bytes.NewReader(raw), int64(len(raw)), Options{})
	if c := f.Coverage(); c.Total.Unmeasured != 0 || len(c.Findings) != 0 {
		t.Fatalf("within the limits: %d bytes unmeasured, findings %v", c.Total.Unmeasured, c.Findings)
	}
	defer func(r int64) { CoverageReadLimit = r }(CoverageReadLimit)
	CoverageReadLimit = 4 << 20
	c := f.Coverage()
	tot := c.Total
	if tot.Unmeasured < 70<<20 || tot.Unmeasured > tot.Bytes-(4<<20) {
		t.Errorf("%d of %d bytes unmeasured with 4 MiB to read", tot.Unmeasured, tot.Bytes)
	}
	if tot.Named+tot.JSON+tot.Unknown+tot.Hex != tot.Significant {
		t.Errorf("the columns do not add up to the significant bytes: %+v", tot)
	}
	if len(c.Findings) != 1 || c.Findings[0].Code != doc.CodeCoverageWordLimit {
		t.Errorf("findings %v", c.Findings)
	}
}
