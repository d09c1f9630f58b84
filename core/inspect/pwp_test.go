package inspect

import (
	"bytes"
	"math"
	"strings"
	"testing"

	"github.com/neffscope/neffscope/core/doc"
	"github.com/neffscope/neffscope/internal/realfiles"
)

// findRef returns the Ref of the first function node labelled name.
func findRef(t *testing.T, root *doc.Node, name string) string {
	t.Helper()
	ref := ""
	root.Walk(func(_ []string, n *doc.Node) bool {
		if k, _ := doc.ParseRef(n.Ref); ref == "" && n.Label == name && k == doc.RefPWP {
			ref = n.Ref
		}
		return ref == ""
	})
	if ref == "" {
		t.Fatalf("no function node %s", name)
	}
	return ref
}

func TestEvaluateInsideNEFF(t *testing.T) {
	f := openReal(t, "nkipy/matmul_small.neff")
	act := f.Doc.Root.Child("activation")
	if act == nil {
		t.Fatal("no activation tables node")
	}
	ref := findRef(t, act, "exp_400p")
	n, err := f.Evaluate(ref, 0.5, "")
	if err != nil {
		t.Fatal(err)
	}
	// spec activation.md §8: exp(0.5) on the real table is 0x3fd308b1.
	if !strings.Contains(n.Value, "3fd308b1") || n.Span == nil || !strings.HasSuffix(n.Span.Source, "sg00/exp_and_others_bkt.bin") {
		t.Errorf("exp(0.5) = %s, span %+v", n.Value, n.Span)
	}
	// The bucket bytes can be fetched for the hex view.
	b, err := f.Bytes(n.Span.Source, n.Span.Offset, n.Span.Length)
	if err != nil || len(b) != 32 {
		t.Errorf("bucket bytes: %d, %v", len(b), err)
	}
	p, err := f.Plot(ref, -10, 10, 4096, "sim")
	if err != nil || len(p.Series) == 0 || len(p.Series[0].X) != 4096 {
		t.Fatalf("plot: %v %+v", err, p)
	}
	if _, err := f.Plot(ref, 1, 1, 10, ""); err == nil {
		t.Error("empty range accepted")
	}
	if _, err := f.Evaluate("pwp:nope#exp", 1, ""); err == nil {
		t.Error("bad ref accepted")
	}
}

func TestOpenGroupLooseSet(t *testing.T) {
	// matmul_small's set, its members read alone (as a person drops them on the page).
	f, files := openLooseSet(t, "nkipy/matmul_small/sg00", "exp_and_others")
	n, err := f.Evaluate(findRef(t, f.Doc.Root, "exp_400p"), 0.5, "")
	if err != nil || !strings.Contains(n.Value, "3fd308b1") {
		t.Fatalf("exp(0.5): %v %v", n, err)
	}
	if b, err := f.Bytes(n.Span.Source, n.Span.Offset, 32); err != nil || len(b) != 32 {
		t.Errorf("bytes from a group member: %d %v", len(b), err)
	}
	// A profile alone: opened, with findings that say which blobs are missing.
	one := Open(files[1].Name, files[1].R, files[1].Size, Options{})
	if one.Doc.Kind != "pwp" || doc.Worst(one.Doc.Findings()) == "" {
		t.Errorf("profile alone: kind %s, findings %v", one.Doc.Kind, one.Doc.Findings())
	}
	t.Run("attn_v6", func(t *testing.T) {
		if _, ok := realfiles.Optional(t, "nki-moe/attn_v6/sg00/natural_log_exp_and_others.json", "ln from natural_log_exp_and_others"); !ok {
			t.SkipNow() // Optional said why
		}
		f, _ := openLooseSet(t, "nki-moe/attn_v6/sg00", "natural_log_exp_and_others")
		ln, _ := f.Evaluate(findRef(t, f.Doc.Root, "ln_400p"), float32(math.E), "horner")
		if ln == nil || !strings.HasPrefix(ln.Value, "1") {
			t.Errorf("ln(e) = %+v", ln)
		}
	})
}

// openLooseSet opens act_info.json and one set's profile and blobs as one group.
func openLooseSet(t *testing.T, dir, set string) (*File, []NamedReader) {
	t.Helper()
	names := []string{"act_info.json", set + ".json", set + "_bkt.bin", set + "_ctrl.bin"}
	var files []NamedReader
	for _, n := range names {
		b := realfiles.Read(t, dir+"/"+n)
		files = append(files, NamedReader{Name: n, R: bytes.NewReader(b), Size: int64(len(b))})
	}
	out := OpenGroup(files, Options{})
	if len(out) != 1 || out[0].Doc.Kind != "pwp" {
		t.Fatalf("%d files, kind %s", len(out), out[0].Doc.Kind)
	}
	for _, fd := range out[0].Doc.Findings() {
		if fd.Severity != doc.Info {
			t.Errorf("%s: %s", fd.Severity, fd.Message)
		}
	}
	for _, f := range files {
		f.R.(*bytes.Reader).Seek(0, 0)
	}
	return out[0], files
}
