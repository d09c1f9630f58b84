package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/neffscope/neffscope/core/doc"
)

// TestContainerClassesThroughCommands runs `info --json` and `inspect --json` on the
// container and manifest hostile classes (scaled down): each finishes with JSON that parses,
// and `inspect --json` carries the code of the finding that says what was bounded.
func TestContainerClassesThroughCommands(t *testing.T) {
	if testing.Short() {
		t.Skip("-short skips the slow tests; make test-core runs this one")
	}
	classes := []struct {
		name  string
		scale float64
		code  doc.Code
	}{
		{"deep-longname", 1, "tar.path-depth"},
		{"deep-pax", 0.2, "tar.path-depth"},
		{"symlink-flood", 0.01, "tar.not-file"},
		{"zero-block-flood", 0.01, "tar.lone-zero-block"},
		{"pax-flood", 0.01, "tar.bad-pax"},
		{"act-missing", 0.05, "manifest.missing-member"},
		{"def-missing", 0.05, "manifest.too-many-cores"},
	}
	dir := t.TempDir()
	for _, c := range classes {
		t.Run(c.name, func(t *testing.T) {
			p := writeClass(t, dir, c.name, c.scale)
			out, errs, _ := runCLI(t, "info", "--json", p)
			if !json.Valid([]byte(out)) {
				t.Fatalf("info --json is not JSON (stderr %q)", errs)
			}
			out, errs, _ = runCLI(t, "inspect", "--json", p)
			if !json.Valid([]byte(out)) {
				t.Fatalf("inspect --json is not JSON (stderr %q)", errs)
			}
			var d doc.Document
			if err := json.Unmarshal([]byte(out), &d); err != nil || d.Root == nil {
				t.Fatalf("inspect --json is not a document: %v", err)
			}
			found := false
			d.Root.Walk(func(_ []string, n *doc.Node) bool {
				for _, f := range n.Findings {
					found = found || f.Code == c.code
				}
				return !found
			})
			if !found {
				t.Errorf("inspect --json has no finding coded %s", c.code)
			}
		})
	}
}

// TestInspectTextStopsAtValuesLimit: `inspect` (text) expands lazy JSON arrays only as far as
// the values limit, as --json does, and says which limit stopped it: a 60 MiB array is not
// 30 M lines.
func TestInspectTextStopsAtValuesLimit(t *testing.T) {
	p := writeClass(t, t.TempDir(), "json-wide", 0.05) // one lazy array of 1,572,864 values
	out, errs, rc := runCLI(t, "inspect", p)
	if rc != 1 || !strings.Contains(errs, "["+string(doc.CodeBudgetValues)+"]") {
		t.Fatalf("rc %d, stderr %q", rc, errs)
	}
	whole, _, _ := runCLI(t, "inspect", "--max-values", "2000000", p)
	if n, all := strings.Count(out, "\n"), strings.Count(whole, "\n"); n > 1000 || all < 1_572_864 {
		t.Fatalf("%d lines within the limit, %d without", n, all)
	}
}
