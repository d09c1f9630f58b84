package fleet

import (
	"os"
	"strings"
	"testing"

	"github.com/neffscope/neffscope/core/doc"
	"github.com/neffscope/neffscope/core/hlo"
	"github.com/neffscope/neffscope/internal/realfiles"
)

// realModules opens the eight real modules of one graph traced eight times (spec ntff.md §8).
func realModules(t *testing.T) (names []string, mods []*hlo.Module) {
	t.Helper()
	paths := realfiles.Glob("nki-moe/hlo/*.hlo_module.pb")
	if len(paths) != 8 {
		t.Skip(realfiles.Missing("nki-moe/hlo/*.hlo_module.pb"))
	}
	for _, p := range paths {
		f, err := os.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		st, _ := f.Stat()
		m, _ := hlo.Open(p, f, st.Size(), hlo.Options{})
		f.Close()
		names = append(names, p)
		mods = append(mods, m)
	}
	return names, mods
}

// The eight real modules are one graph: one digest, and seven diffs against the first that are
// volatile only, naming the kernel call and the temporary path, and claiming nothing about the
// kernel itself.
func TestRealModulesOneGraph(t *testing.T) {
	names, mods := realModules(t)
	digests := map[string]bool{}
	for _, m := range mods {
		if m.Partial || len(m.Root.Findings) > 0 {
			t.Fatalf("%s: partial %v, findings %v", m.Name, m.Partial, m.Root.Findings)
		}
		digests[m.GraphDigest()] = true
	}
	if len(digests) != 1 {
		t.Fatalf("graph digests of the 8 real modules: %v, want one", digests)
	}
	for i := 1; i < len(mods); i++ {
		d := DiffHLO(mods[0], mods[i], names[0], names[i])
		if d.Verdict != doc.CodeHLOVolatileOnly {
			t.Fatalf("%s vs %s: verdict %s (%s), want hlo.volatile-only", names[0], names[i], d.Verdict, d.Summary)
		}
		if len(d.Differences) != 1 {
			t.Fatalf("differences %+v, want the one path", d.Differences)
		}
		f := d.Differences[0]
		if f.Class != hlo.ClassVolatile || f.Field != "backend_config.klir_binary.binary" || !strings.Contains(f.Instruction, "qwen3_attn_tkg_fused") ||
			!strings.HasPrefix(f.Before, "\"/tmp/klir_binaries/qwen3_attn_tkg_fused_") {
			t.Fatalf("difference %+v", f)
		}
		for _, claim := range []string{"kernel is unchanged", "kernel unchanged", "same kernel", "spurious"} {
			if strings.Contains(d.Summary, claim) {
				t.Fatalf("summary claims %q without NEFFs: %s", claim, d.Summary)
			}
		}
		if !strings.Contains(d.Summary, "compare the NEFFs") || !strings.Contains(d.Summary, "qwen3_attn_tkg_fused") {
			t.Fatalf("summary %q", d.Summary)
		}
		if i == 1 {
			t.Log(d.Summary)
		}
	}
	if d := DiffHLO(mods[3], mods[3], names[3], names[3]); d.Verdict != doc.CodeHLOSame {
		t.Fatalf("a module against itself: %s", d.Verdict)
	}
}
