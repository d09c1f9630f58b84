//go:build !js

package inspect

import (
	"strings"
	"testing"

	"github.com/neffscope/neffscope/core/neff/neffbuild"
	"github.com/neffscope/neffscope/internal/realfiles"
)

// TestCoverageOnRealNEFFs: the classes add up to the significant bytes, every member is
// counted once, and the instruction streams are counted word by word.
func TestCoverageOnRealNEFFs(t *testing.T) {
	for _, p := range realfiles.NEFFs(t) {
		f := openPath(t, p)
		c := f.Coverage()
		members, words := 0, 0
		for _, k := range c.Kinds {
			if k.Named+k.JSON+k.Unknown+k.Hex != k.Significant || k.Significant > k.Bytes {
				t.Errorf("%s %s: %+v does not add up", p, k.Kind, k)
			}
			if k.InstrNamed > k.InstrNonZero {
				t.Errorf("%s %s: %d named of %d non-zero", p, k.Kind, k.InstrNamed, k.InstrNonZero)
			}
			members += k.Members
		}
		for _, s := range f.Program.Streams {
			words += s.ISA.Len()
		}
		if members != len(f.Archive.Members) || c.Total.Members != members || c.Total.Words != words {
			t.Errorf("%s: %d members counted of %d, %d words of %d", p, members, len(f.Archive.Members), c.Total.Words, words)
		}
		if k := kindOf(c, "sgNN/def.json"); k == nil || k.Named == 0 || k.JSON+k.Named != k.Significant {
			t.Errorf("%s: def.json coverage %+v", p, k)
		}
		if k := kindOf(c, "sgNN/<Engine>.bin"); k == nil || k.Named == 0 || k.Words == 0 {
			t.Errorf("%s: stream coverage %+v", p, k)
		}
		// At least 95 % of the non-zero instruction bytes sit in named fields.
		if c.Total.InstrNamed*100 < c.Total.InstrNonZero*95 {
			t.Errorf("%s: %d of %d non-zero instruction bytes named, under 95 %%", p, c.Total.InstrNamed, c.Total.InstrNonZero)
		}
	}
}

func kindOf(c *Coverage, kind string) *CoverageKind {
	for _, k := range c.Kinds {
		if k.Kind == kind {
			return k
		}
	}
	return nil
}

// TestCoverageDeepestSpanOwns: a byte belongs to the deepest node holding it, and zero bytes
// and JSON whitespace are not significant.
func TestCoverageDeepestSpanOwns(t *testing.T) {
	f := &File{}
	data := []byte("{ \"a\": 1,\n \"b\": \"xy\" }\x00\x00")
	f.Name = "m.json"
	f.r = strings.NewReader(string(data))
	f.Size = int64(len(data))
	k := &CoverageKind{}
	spans := []covSpan{
		{0, 23, 0, 1, covJSON},     // the object
		{2, 8, 1, 2, covNamed},     // "a": 1 (explained)
		{11, 21, 1, 3, covJSON},    // "b": "xy"
		{16, 20, 2, 4, covUnknown}, // a deeper node inside it
	}
	f.countMember(k, "m.json", int64(len(data)), true, spans)
	// significant: the 16 bytes that are neither whitespace nor zero
	if k.Significant != 16 || k.Named != 5 || k.Unknown != 4 || k.JSON != 7 || k.Hex != 0 {
		t.Errorf("%+v", k)
	}
}

// TestCoverageJSONRule: a JSON key the table of key meanings names counts as named, with the
// items of a named array; a key no row names stays JSON-only, its key bytes and all.
func TestCoverageJSONRule(t *testing.T) {
	var ms []neffbuild.Member
	for _, m := range neffbuild.Sample() {
		if m.Path == "sg00/def.json" {
			s := string(m.Data)
			i := strings.IndexByte(s, '{')
			m.Data = []byte(s[:i+1] + `"mystery_key":[1,2,3],` + s[i+1:])
		}
		ms = append(ms, m)
	}
	f := openBytes("sample.neff", neffbuild.Bytes(ms, neffbuild.Options{}))
	k := kindOf(f.Coverage(), "sgNN/def.json")
	if k == nil {
		t.Fatal("no def.json in the coverage")
	}
	// `"mystery_key":[1,2,3]` is 21 significant bytes; everything else in the sample's
	// def.json has a row.
	if k.JSON != 21 || k.Named+k.JSON != k.Significant {
		t.Errorf("def.json: %+v; want 21 JSON-only bytes, the rest named", k)
	}
}
