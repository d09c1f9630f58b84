package pwp

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Every catalog function has a reference, and every unknown is named by the code relying on it.
func TestEveryCatalogFunctionHasAReference(t *testing.T) {
	for _, f := range Functions {
		ref := References[f.Name]
		if ref == nil {
			t.Errorf("%s has no reference", f.Name)
			continue
		}
		if y := ref(0.5, 0.1); y != y {
			t.Errorf("%s(0.5) = NaN", f.Name)
		}
	}
	if got := References["gelu"](1, 0); got < 0.8413 || got > 0.8414 {
		t.Errorf("gelu(1) = %g", got)
	}
	if got := References["derivative_silu"](0, 0); got != 0.5 {
		t.Errorf("derivative_silu(0) = %g", got)
	}
}

func TestUnknownsAreUniqueAndReferenced(t *testing.T) {
	var src bytes.Buffer
	files, _ := filepath.Glob("*.go")
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") || f == "unknowns.go" {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		src.Write(b)
	}
	seen := map[string]bool{}
	for _, u := range Unknowns {
		if seen[u.ID] {
			t.Errorf("duplicate unknown %s", u.ID)
		}
		seen[u.ID] = true
		if u.Question == "" || u.Assumption == "" || u.Spec == "" || u.Confidence == "" {
			t.Errorf("%s is incomplete", u.ID)
		}
		if !strings.Contains(src.String(), "unknown "+u.ID) {
			t.Errorf("no code names unknown %s", u.ID)
		}
	}
}

func TestIdentifyWithLnRoster(t *testing.T) {
	// A roster shaped like with_ln's first two sets (built from text, not from the tables).
	r := DecodeRoster("act_info.json", []byte(`{"pwp_file_keys":["bkt_bin","ctrl_bin","profile_json"],"act_func_sets":[
	 {"name":"exp_and_others","bkt_bin":"exp_and_others_bkt.bin","ctrl_bin":"exp_and_others_ctrl.bin","profile_json":"exp_and_others.json",
	  "act":{"exp":400,"tanh":4,"identity":1,"leaky_relu":1,"parametric_relu":1,"relu":1,"abs":1,"sign":1}},
	 {"name":"softplus_tanh_and_others","bkt_bin":"a_bkt.bin","ctrl_bin":"a_ctrl.bin","profile_json":"a.json",
	  "act":{"softplus":40,"tanh":4,"identity":1,"leaky_relu":1,"parametric_relu":1,"relu":1,"abs":1,"square":1}}]}`))
	rep := IdentifyCatalog(r)
	if rep.Catalog != WithLn || rep.Matched != 1 {
		t.Fatalf("identified %s", rep.Summary())
	}
	if !strings.Contains(rep.Summary(), `set "softplus_tanh_and_others": extra square_1p, lacks sign`) || !strings.Contains(rep.Summary(), "lacks pwp_bin_with_ln set #13 erf_and_others") {
		t.Errorf("differences: %s", rep.Summary())
	}
	if rep := IdentifyCatalog(DecodeRoster("x", []byte(`{"act_func_sets":[{"name":"mine","act":{"exp":2}}]}`))); rep.Catalog != nil {
		t.Errorf("unknown roster identified as %s", rep.Catalog.Name)
	}
}

func TestPlotNodeAndLoadedSet(t *testing.T) {
	b := OpenFiles(readDir(t, "nkipy/matmul_small/sg00", "sg00/"))
	if s := b.LoadedSet("sg00", 0); s == nil || s.Name != "exp_and_others" {
		t.Fatalf("LoadedSet(sg00, 0) = %v", s)
	}
	if b.LoadedSet("sg00", 1) != nil || b.LoadedSet("sg01", 0) != nil {
		t.Error("LoadedSet out of range should be nil")
	}
	f := b.LoadedSet("sg00", 0).Function("exp")
	n := PlotNode(f, f.Sample(0.5, 8, 256, Options{}))
	if len(n.Series) != 5 || len(n.Series[0].Y) != 256 || n.Table == nil || len(n.Table.Rows) == 0 {
		t.Fatalf("plot node: %+v", n)
	}
	if n.Table.Rows[0][0] != "octave" || n.Table.Rows[0][1] != "0.5" {
		t.Errorf("first boundary row %v", n.Table.Rows[0])
	}
	if a := Affine(3, 0.5, 0.25); a != 1.75 {
		t.Errorf("Affine = %g", a)
	}
}

func TestSniff(t *testing.T) {
	res := genSet(t, 32)
	for _, c := range []struct {
		name string
		b    []byte
		want string
	}{
		{"act_info.json", res.Roster, "roster"}, {"whatever.json", res.Profile, "profile"},
		{"sg00/Activation.json", []byte(`{"activation_function_sets":["a"]}`), "engine"},
		{"x_bkt.bin", res.Bkt, "bkt"}, {"x_ctrl.bin", res.Ctrl, "ctrl"},
		{"def.json", []byte(`{"act":"Activation.json"}`), ""}, {"PE.bin", []byte{0x23, 0x10}, ""},
	} {
		if got := Sniff(c.name, c.b); got != c.want {
			t.Errorf("Sniff(%s) = %q, want %q", c.name, got, c.want)
		}
	}
}
