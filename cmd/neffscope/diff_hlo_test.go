package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/neffscope/neffscope/core/doc"
	"github.com/neffscope/neffscope/core/fleet"
	"github.com/neffscope/neffscope/internal/cachetest"
	"github.com/neffscope/neffscope/internal/realfiles"
)

func hloJSON(t *testing.T, args ...string) (fleet.HLODiff, int) {
	t.Helper()
	out, errs, rc := runCLI(t, append([]string{"diff", "--json"}, args...)...)
	var d fleet.HLODiff
	if err := json.Unmarshal([]byte(out), &d); err != nil {
		t.Fatalf("rc %d, not JSON: %v\n%s\n%s", rc, err, out, errs)
	}
	return d, rc
}

// The seven real modules against the eighth: volatile only, naming the kernel call and the
// path, in the JSON the issue names; and no word on the kernel without the NEFFs.
func TestDiffRealModulesJSON(t *testing.T) {
	paths := realfiles.Glob("nki-moe/hlo/*.hlo_module.pb")
	if len(paths) != 8 {
		t.Skip(realfiles.Missing("nki-moe/hlo/*.hlo_module.pb"))
	}
	for _, p := range paths[1:] {
		d, rc := hloJSON(t, paths[0], p)
		if rc != 1 || d.Kind != "hlo" || d.Verdict != doc.CodeHLOVolatileOnly || len(d.Differences) != 1 || d.NEFF != nil {
			t.Fatalf("rc %d: %+v", rc, d)
		}
		x := d.Differences[0]
		if x.Class != "volatile" || !strings.Contains(x.Instruction, "qwen3_attn_tkg_fused") || !strings.Contains(x.Before, "/tmp/klir_binaries/") || x.Note == "" {
			t.Fatalf("%+v", x)
		}
	}
	out, _, _ := runCLI(t, "diff", paths[0], paths[1])
	if !strings.HasPrefix(strings.SplitN(out, "\n\n", 2)[1], "hlo.volatile-only: the graph is the same except a temporary path in the call of qwen3_attn_tkg_fused") {
		t.Fatalf("the text does not lead with the verdict:\n%s", out)
	}
}

// Two cache entries with NEFFs: the same program compiled twice is told from a changed kernel.
func TestDiffEntriesWithNEFFs(t *testing.T) {
	tr := cachetest.RealTreeWithNEFFs(t)
	root, entries, v6, other, third := tr.Root, tr.Entries, tr.V6, tr.Same, tr.Other

	d, rc := hloJSON(t, v6, other)
	if rc != 1 || d.Verdict != doc.CodeHLOVolatileOnly || d.NEFF == nil || d.NEFF.Code != doc.CodeHLONEFFSame {
		t.Fatalf("same program: rc %d %+v", rc, d)
	}
	if !strings.Contains(d.Summary, "spurious recompile") || !strings.Contains(d.Summary, "prune these entries") || len(d.Cache) == 0 || d.Fix != fleet.SpuriousFix {
		t.Fatalf("summary %q cache %v", d.Summary, d.Cache)
	}
	d, _ = hloJSON(t, v6, third)
	if d.NEFF == nil || d.NEFF.Code != doc.CodeHLONEFFChanged || strings.Contains(d.Summary, "spurious") || !strings.Contains(d.Summary, "the kernel changed") || d.Fix != "" {
		t.Fatalf("changed kernel: %+v", d)
	}
	// An entry without a NEFF: nothing is claimed about the kernel.
	for _, e := range entries {
		if e.Dir != v6 && e.Dir != other && e.Dir != third {
			d, _ = hloJSON(t, v6, e.Dir)
			if d.NEFF == nil || d.NEFF.Code != doc.CodeHLONEFFMissing || strings.Contains(d.Summary, "spurious") || strings.Contains(d.Summary, "kernel changed, not") || !strings.Contains(d.Summary, "cannot be told") {
				t.Fatalf("no NEFF: %+v", d)
			}
			break
		}
	}
	// The same two entries on S3 and inside a .tar.gz compare alike.
	rel := func(dir string) string { r, _ := filepath.Rel(root, dir); return filepath.ToSlash(r) }
	url := cachetest.S3(t, root, "caches", "c", true)
	if d, _ := hloJSON(t, url+"/"+rel(v6), url+"/"+rel(other)); d.NEFF == nil || d.NEFF.Code != doc.CodeHLONEFFSame {
		t.Fatalf("s3: %+v", d)
	}
	tgz := filepath.Join(t.TempDir(), "cache.tar.gz")
	cachetest.Tar(t, root, tgz, true)
	if d, _ := hloJSON(t, tgz+"/"+rel(v6), tgz+"/"+rel(third)); d.NEFF == nil || d.NEFF.Code != doc.CodeHLONEFFChanged {
		t.Fatalf("tar.gz: %+v", d)
	}
}

// Two cache entries without HLO modules are compared by their NEFFs.
func TestDiffEntriesWithoutHLO(t *testing.T) {
	root := t.TempDir()
	for _, k := range []string{"MODULE_1+d41d8cd9", "MODULE_2+d41d8cd9"} {
		cachetest.Copy(t, realfiles.Path(t, "nkipy/matmul_small.neff"), filepath.Join(root, k, "model.neff"))
	}
	out, errs, rc := runCLI(t, "diff", filepath.Join(root, "MODULE_1+d41d8cd9"), filepath.Join(root, "MODULE_2+d41d8cd9"))
	if rc != 0 || !strings.Contains(errs, "comparing the NEFFs") || !strings.Contains(out, "identical") {
		t.Fatalf("rc %d\n%s\n%s", rc, out, errs)
	}
}
