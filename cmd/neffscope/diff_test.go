package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/neffscope/neffscope/core/doc"
	"github.com/neffscope/neffscope/core/neff"
	"github.com/neffscope/neffscope/core/neff/neffbuild"
	"github.com/neffscope/neffscope/internal/realfiles"
	"github.com/neffscope/neffscope/internal/repack"
)

// writeNEFF writes a generated NEFF into the test's temp dir.
func writeNEFF(t *testing.T, name string, members []neffbuild.Member, opt neffbuild.Options) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, neffbuild.Bytes(members, opt), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestDiffCLIGenerated(t *testing.T) {
	a := writeNEFF(t, "a.neff", neffbuild.Sample(), neffbuild.Options{})
	same := writeNEFF(t, "same.neff", neffbuild.Sample(), neffbuild.Options{})
	var changed []neffbuild.Member
	for _, m := range neffbuild.Sample() {
		if m.Path == "kelf-0.json" {
			m.Data = bytes.Replace(m.Data, []byte(`"sunda"`), []byte(`"cayman"`), 1)
		}
		changed = append(changed, m)
	}
	b := writeNEFF(t, "b.neff", changed, neffbuild.Options{})

	out, errs, rc := runCLI(t, "diff", a, same)
	if rc != 0 || !strings.Contains(out, "\nidentical\n") {
		t.Errorf("identical files: rc %d, out %q, err %q", rc, out, errs)
	}

	out, errs, rc = runCLI(t, "diff", a, b)
	if rc != 1 {
		t.Fatalf("different files: rc %d, err %q", rc, errs)
	}
	for _, want := range []string{
		"1 members changed, 0 added, 0 removed; header: hash differ; model: target, arch differ",
		" M kelf-0.json",
		"  - target: \"sunda\"\n  + target: \"cayman\"\n",
		"  - target: sunda\n  + target: cayman\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("text output lacks %q:\n%s", want, out)
		}
	}

	out, _, rc = runCLI(t, "diff", "--json", a, b)
	var tree struct {
		Kind     string `json:"kind"`
		Value    string `json:"value"`
		Children []struct {
			Label string `json:"label"`
			Value string `json:"value"`
		} `json:"children"`
	}
	if err := json.Unmarshal([]byte(out), &tree); err != nil || rc != 1 {
		t.Fatalf("--json: rc %d, %v", rc, err)
	}
	if tree.Kind != "diff" || len(tree.Children) != 4 || tree.Children[1].Label != "members" || tree.Children[1].Value != "1 changed, 0 added, 0 removed, 15 unchanged" {
		t.Errorf("--json tree: %+v", tree)
	}
}

func TestDiffCLIUsage(t *testing.T) {
	a := writeNEFF(t, "a.neff", neffbuild.Sample(), neffbuild.Options{})
	for _, args := range [][]string{{"diff"}, {"diff", a}, {"diff", a, a, a}, {"diff", "--nope", a, a}, {"diff", a, filepath.Join(t.TempDir(), "missing.neff")}} {
		if _, _, rc := runCLI(t, args...); rc != 2 {
			t.Errorf("%v: rc %d, want 2", args, rc)
		}
	}
	js := filepath.Join(t.TempDir(), "x.json")
	os.WriteFile(js, []byte(`{"x": 1}`), 0o644)
	out, _, rc := runCLI(t, "diff", "--json", a, js)
	var d doc.Node
	if err := json.Unmarshal([]byte(out), &d); rc != 2 || err != nil || len(d.Findings) != 1 || d.Findings[0].Code != doc.CodeDiffNotNEFF {
		t.Errorf("NEFF vs JSON: rc %d, %v, out %q", rc, err, out)
	}
}

// A real NEFF against a copy repacked with one member changed, one added, one removed.
func TestDiffCLIRealRepacked(t *testing.T) {
	a := realfiles.Path(t, "nkipy/matmul_small.neff")
	src := realfiles.Read(t, "nkipy/matmul_small.neff")
	members := len(neff.Open(bytes.NewReader(src), int64(len(src)), neff.Options{}).Members)
	b := filepath.Join(t.TempDir(), "repacked.neff")
	repacked := repack.NEFF(src, func(path string, data []byte) ([]byte, bool) {
		switch path {
		case "hlo_stats.json":
			return nil, false
		case "kelf-0.json":
			return bytes.Replace(data, []byte(`"cayman"`), []byte(`"sunda"`), 1), true
		}
		return data, true
	}, neffbuild.Member{Path: "notes.json", Data: []byte(`{}`)})
	if err := os.WriteFile(b, repacked, 0o644); err != nil {
		t.Fatal(err)
	}
	out, errs, rc := runCLI(t, "diff", a, b)
	if rc != 1 {
		t.Fatalf("rc %d: %s", rc, errs)
	}
	for _, want := range []string{
		fmt.Sprintf("members (1 changed, 1 added, 1 removed, %d unchanged):", members-2),
		" A notes.json",
		" D hlo_stats.json",
		"kelf-0.json:\n  - target: \"cayman\"\n  + target: \"sunda\"\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if _, _, rc := runCLI(t, "diff", a, a); rc != 0 {
		t.Errorf("a NEFF against itself: rc %d", rc)
	}
}

func TestDiffCLIRealTrn1Trn2(t *testing.T) {
	a, okA := realfiles.Optional(t, "cs149-trn1/stream_256k_fd1k.neff", "the trn1/trn2 diff")
	b, okB := realfiles.Optional(t, "cs149-trn2/stream_256k_fd1k.neff", "the trn1/trn2 diff")
	if !okA || !okB {
		return
	}
	out, errs, rc := runCLI(t, "diff", a, b)
	if rc != 1 {
		t.Fatalf("rc %d: %s", rc, errs)
	}
	for _, want := range []string{
		"members (24 changed, 30 added, 2 removed, 6 unchanged):",
		" A sg01/def.json",
		" D metrics.json",
		"  - lnc_size: 1\n  + lnc_size: 2\n",
		"kelf-0.json:\n  + graphs/1: {2}\n  - target: \"sunda\"\n  + target: \"cayman\"\n",
		"0xcc PseudoBranchLabel  0 → 1  (+1)",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q", want)
		}
	}
}

func TestDiffCLIOperands(t *testing.T) {
	a := writeNEFF(t, "a.neff", neffbuild.Sample(), neffbuild.Options{})
	var members []neffbuild.Member
	for _, m := range neffbuild.Sample() {
		if m.Path == "sg00/DVE.bin" {
			d := bytes.Clone(m.Data)
			d[9] = 1 // an operand byte
			m.Data = d
		}
		members = append(members, m)
	}
	b := writeNEFF(t, "b.neff", members, neffbuild.Options{})
	out, _, rc := runCLI(t, "diff", a, b)
	if rc != 1 || !strings.Contains(out, " M sg00/DVE.bin") || !strings.Contains(out, "  ~ sg00/DVE.bin: same opcode counts, other operands\n") {
		t.Errorf("rc %d:\n%s", rc, out)
	}
}

// TestDiffCLIDeepPath: a member path 20,000 levels deep is printed cut in the text diff (the
// member table pads every row to its widest path) and whole in --json.
func TestDiffCLIDeepPath(t *testing.T) {
	var deep []byte
	for _, h := range neffbuild.HostileClasses() {
		if h.Name == "deep-pax" {
			deep = h.Build(0.04)
		}
	}
	dir := t.TempDir()
	f := filepath.Join(dir, "deep.neff")
	if err := os.WriteFile(f, deep, 0o644); err != nil {
		t.Fatal(err)
	}
	sample := writeNEFF(t, "sample.neff", neffbuild.Sample(), neffbuild.Options{})
	out, errs, rc := runCLI(t, "diff", sample, f)
	if rc != 1 {
		t.Fatalf("rc %d: %s", rc, errs)
	}
	if !strings.Contains(out, "(a path of 40005 bytes, cut; diff --json has it whole)") {
		t.Errorf("the deep path is not cut:\n%.2000s", out)
	}
	for _, line := range strings.Split(out, "\n") {
		if len(line) > 4*maxPathPrinted {
			t.Fatalf("a line of %d bytes: %.200s…", len(line), line)
		}
	}
	js, errs, _ := runCLI(t, "diff", "--json", sample, f)
	if !strings.Contains(js, strings.Repeat("d/", 20000)+"x.bin") {
		t.Errorf("--json lacks the whole path (%s)", errs)
	}
}

// TestOpenInputsOnce: a path named twice is opened once (compare F G F holds one open of F).
func TestOpenInputsOnce(t *testing.T) {
	a := writeNEFF(t, "a.neff", neffbuild.Sample(), neffbuild.Options{})
	b := writeNEFF(t, "b.neff", modifiedSampleCLI(), neffbuild.Options{})
	fs := flag.NewFlagSet("compare", flag.ContinueOnError)
	files, rc := openInputs(fs, []string{a, b, a}, io.Discard, "usage", 2, 0, nil)
	if rc != 0 || len(files) != 3 {
		t.Fatalf("rc %d, %d files", rc, len(files))
	}
	if files[0] != files[2] || files[0] == files[1] {
		t.Errorf("a named twice gave two opens, or two paths one")
	}
	out, errs, rc := runCLI(t, "compare", a, b, a)
	if rc == 2 || !strings.Contains(out, "B: "+b) {
		t.Errorf("compare A B A: rc %d, err %q:\n%s", rc, errs, out)
	}
}

// modifiedSampleCLI is neffbuild.Sample with kelf-0.json's target changed.
func modifiedSampleCLI() []neffbuild.Member {
	var out []neffbuild.Member
	for _, m := range neffbuild.Sample() {
		if m.Path == "kelf-0.json" {
			m.Data = bytes.Replace(m.Data, []byte(`"sunda"`), []byte(`"cayman"`), 1)
		}
		out = append(out, m)
	}
	return out
}
