package fleet

import (
	"bytes"
	"strings"
	"testing"

	"github.com/neffscope/neffscope/core/doc"
	"github.com/neffscope/neffscope/core/inspect"
	"github.com/neffscope/neffscope/core/neff/neffbuild"
	"github.com/neffscope/neffscope/internal/realfiles"
)

func TestParseModuleKey(t *testing.T) {
	for _, c := range []struct {
		in     string
		ok     bool
		module string
		flags  string
	}{
		{"MODULE_7411938889920977621+d41d8cd9", true, "MODULE_7411938889920977621", "d41d8cd9"},
		{"MODULE_fefbaedf6fbc82fc61a8+ede6753c", true, "MODULE_fefbaedf6fbc82fc61a8", "ede6753c"},
		{"/tmp/ubuntu/w/model.MODULE_17825228117791364669+fad94d7c.neff", true, "MODULE_17825228117791364669", "fad94d7c"},
		{"model.MODULE_1+ABCDEF01.hlo_module.pb", true, "MODULE_1", "abcdef01"},
		{"MODULE_+d41d8cd9", false, "", ""},
		{"MODULE_12+d41d8cd", false, "", ""},
		{"MODULE_12+d41d8cd9x", false, "", ""},
		{"MODULE_zz+d41d8cd9", false, "", ""},
		{"file.neff", false, "", ""},
	} {
		k, ok := ParseModuleKey(c.in)
		if ok != c.ok || k.Module != c.module || k.FlagsHash != c.flags {
			t.Errorf("%q: %+v %v", c.in, k, ok)
		}
	}
	k, ok := ParseCachePath("/var/tmp/neuron-compile-cache/neuronxcc-2.15.128.0+56dc5a86/MODULE_98ba4c9111d5882d2331+39f12043/model.neff")
	if !ok || k.Compiler != "2.15.128.0+56dc5a86" || k.Module != "MODULE_98ba4c9111d5882d2331" || k.FlagsHash != "39f12043" {
		t.Errorf("cache path: %+v %v", k, ok)
	}
	if _, ok := ParseCachePath("/x/model.MODULE_1+d41d8cd9.neff"); ok {
		t.Error("a file named after a key outside an entry directory is not a cache entry")
	}
}

func TestFlagsHash(t *testing.T) {
	if h := FlagsHash(nil); h != "d41d8cd9" || FlagsName(h) != "no flags" {
		t.Errorf("no flags: %s %q", h, FlagsName(h))
	}
	// md5sum of the bytes "-O1 --auto-cast=none" (flags joined by one space) starts a016fee1.
	if h := FlagsHash([]string{"-O1", "--auto-cast=none"}); h != "a016fee1" {
		t.Errorf("two flags: %s", h)
	}
	for _, f := range KnownFlagSets {
		if FlagsHash(f.Flags) != f.Hash {
			t.Errorf("KnownFlagSets %q: hash %s, table says %s", f.Meaning, FlagsHash(f.Flags), f.Hash)
		}
	}
}

func TestCacheState(t *testing.T) {
	for _, c := range []struct {
		siblings []string
		err      bool
		want     string
	}{
		{[]string{"model.neff", "model.done"}, false, CacheDone},
		{[]string{"model.neff", "model.done"}, true, CacheFailed},
		{[]string{"model.neff"}, false, CacheIncomplete},
		{[]string{"model.hlo_module.pb", "model.log"}, false, CacheFailed},
		{[]string{"model.neff", "model.log", "model.done"}, false, CacheDone},
	} {
		if got := CacheState(c.siblings, c.err); got != c.want {
			t.Errorf("%v err=%v: %s, want %s", c.siblings, c.err, got, c.want)
		}
	}
}

func TestCacheExplanation(t *testing.T) {
	a := CacheKey{Module: "MODULE_1", FlagsHash: "d41d8cd9"}
	for _, c := range []struct {
		b      CacheKey
		ca, cb string
		want   []string
	}{
		{CacheKey{Module: "MODULE_1", FlagsHash: "39f12043"}, "2.15", "2.15", []string{"same graph (MODULE_1), flags changed: flags hash d41d8cd9 (no flags) → 39f12043"}},
		{CacheKey{Module: "MODULE_2", FlagsHash: "d41d8cd9"}, "2.15", "2.15", []string{"same flags (d41d8cd9 (no flags)), graph changed: MODULE_1 → MODULE_2"}},
		{CacheKey{Module: "MODULE_1", FlagsHash: "d41d8cd9"}, "2.14", "2.15", []string{"compiler version differs: 2.14 → 2.15", "same cache key MODULE_1+d41d8cd9"}},
		{CacheKey{Module: "MODULE_2", FlagsHash: "00000000"}, "", "", []string{"graph and flags changed: MODULE_1+d41d8cd9 → MODULE_2+00000000"}},
	} {
		got := CacheExplanation(a, c.b, true, true, c.ca, c.cb)
		if len(got) != len(c.want) {
			t.Errorf("%+v: %q", c.b, got)
			continue
		}
		for i := range got {
			if !strings.HasPrefix(got[i], c.want[i]) {
				t.Errorf("%+v [%d]: %q, want prefix %q", c.b, i, got[i], c.want[i])
			}
		}
	}
	if got := CacheExplanation(CacheKey{}, CacheKey{}, false, false, "2.23", "2.23"); got != nil {
		t.Errorf("no keys, same compiler: %q", got)
	}
}

// Diff explains two cache entries before the member differences: entries are opened under
// cache paths (the File's Name), one of them a NEFF whose info.json names another compiler.
func TestDiffExplainsRecompile(t *testing.T) {
	src := realfiles.Read(t, "nkipy/matmul_small.neff")
	a := openBytes("/c/neuronxcc-2.23.6484.0+3b612583/MODULE_5+d41d8cd9/model.neff", src)
	b := openBytes("/c/neuronxcc-2.23.6484.0+3b612583/MODULE_5+39f12043/model.neff", src)
	d := Diff(a, b)
	why := d.Child("recompile")
	if why == nil || !strings.HasPrefix(why.Value, "same graph (MODULE_5), flags changed: flags hash d41d8cd9 (no flags) → 39f12043") {
		t.Fatalf("recompile node: %+v", why)
	}
	if d.Children[0] != why {
		t.Error("the explanation comes before what changed inside")
	}
	var ms []neffbuild.Member
	for _, m := range neffbuild.Sample() {
		if m.Path == "info.json" {
			m.Data = bytes.Replace(m.Data, []byte(`"0.0.0+neffscope"`), []byte(`"2.24.1.0+abc"`), 1)
		}
		ms = append(ms, m)
	}
	c := openBytes("sample.neff", neffbuild.Bytes(neffbuild.Sample(), neffbuild.Options{}))
	e := openBytes("sample-2.24.neff", neffbuild.Bytes(ms, neffbuild.Options{}))
	why = Diff(c, e).Child("recompile")
	if why == nil || why.Value != "compiler version differs: 0.0.0+neffscope → 2.24.1.0+abc (a cache is keyed per neuronxcc version, so any graph recompiles)" {
		t.Errorf("compiler change: %+v", why)
	}
	if Diff(c, c).Child("recompile") != nil {
		t.Error("no cache key and one compiler: no explanation")
	}
}

func TestScanRecordOfGenerated(t *testing.T) {
	f := openBytes("x/model.neff", neffbuild.Bytes(neffbuild.Sample(), neffbuild.Options{}))
	f.Doc.SHA256 = "ab"
	r := NewScanRecord(f, "x/model.neff", nil)
	if r.Cache != nil || r.Compiler != "0.0.0+neffscope" || r.Target != "sunda" || r.Instance != "Trn1/Inf2" || r.Subgraphs != 1 || r.NeffVersion != "2.0" || r.SHA256 != "ab" {
		t.Errorf("%+v", r)
	}
	var total int64
	for _, n := range r.Instructions {
		total += n
	}
	if len(r.Instructions) != 5 || total == 0 {
		t.Errorf("instructions %v", r.Instructions)
	}
	if r.HasError() {
		t.Errorf("findings %v: %v", r.Findings, r.Problems)
	}
	u := UnreadableRecord("c/MODULE_1+d41d8cd9/model.neff", 0, []string{"model.neff", "model.done"}, doc.CodeScanUnreadable, "cannot open")
	if !u.HasError() || u.Cache == nil || u.Cache.State != CacheFailed || u.Problems[0].Severity != doc.Error || u.Problems[0].Code != doc.CodeScanUnreadable {
		t.Errorf("unreadable: %+v", u)
	}
}

// TestSameCompiler: a cache directory may carry all of tool_version's fields or only the
// leading ones (neuronxcc-2.21 for 2.21.18209.0); a different field is another compiler.
func TestSameCompiler(t *testing.T) {
	for _, c := range []struct {
		dir, tool string
		same      bool
	}{
		{"2.21", "2.21.18209.0", true},
		{"2.21.18209.0", "2.21.18209.0+ab12", true},
		{"2.15.128.0+56dc5a86", "2.15.128.0+56dc5a86", true},
		{"2.2", "2.21.18209.0", false},
		{"2.21.18209.0", "2.21", false},
		{"2.22", "2.21.18209.0", false},
	} {
		if got := sameCompiler(c.dir, c.tool); got != c.same {
			t.Errorf("sameCompiler(%q, %q) = %v", c.dir, c.tool, got)
		}
	}
}

// TestScanRecordCauseFirst: a cache entry cut short names the truncation before the errors it
// caused (a missing neff.json says "rebuild the NEFF", which the truncation explains).
func TestScanRecordCauseFirst(t *testing.T) {
	b := neffbuild.Bytes(neffbuild.Sample(), neffbuild.Options{})
	cut := b[:len(b)*2/3]
	f := openBytes("c/neuronxcc-2.21/MODULE_1+d41d8cd9/model.neff", cut)
	r := NewScanRecord(f, "c/neuronxcc-2.21/MODULE_1+d41d8cd9/model.neff", []string{"model.neff", "model.done"})
	if len(r.Problems) == 0 || !r.HasError() {
		t.Fatalf("a cut file has no problem: %+v", r)
	}
	if code, why := inspect.RootCause(f); code != doc.CodeNeffTruncated || r.Problems[0].Message != why || r.Problems[0].Code != code {
		t.Errorf("first problem %q, cause %q", r.Problems[0].Message, code)
	}
}
