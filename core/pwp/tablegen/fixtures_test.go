package tablegen_test

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/neffscope/neffscope/core/pwp/tablegen"
)

var update = flag.Bool("update", false, "rewrite core/pwp/testdata/gen_* from the generator")

// TestFixtures keeps core/pwp/testdata/gen_trainium (32-byte ctrl stride) and gen_with_ln
// (16-byte) equal to the generator's output: loose-file fixtures for page and CLI tests that
// need no real compiler output. Regenerate with: go test ./core/pwp/tablegen -run Fixtures -update
func TestFixtures(t *testing.T) {
	if runtime.GOARCH != "amd64" && !*update {
		// math.Exp is assembly on amd64 and the compiler may fuse multiply-adds elsewhere, so
		// the fitted coefficients can differ in the last bit on other architectures.
		t.Skipf("fixtures are byte-compared on amd64 only (this is %s)", runtime.GOARCH)
	}
	for _, fx := range []struct {
		dir    string
		stride int
	}{{"gen_trainium", 32}, {"gen_with_ln", 16}} {
		res, err := tablegen.Generate("gen_set", fx.stride, tablegen.Standard())
		if err != nil {
			t.Fatal(err)
		}
		dir := filepath.Join("..", "testdata", fx.dir)
		for name, want := range res.Files("gen_set") {
			p := filepath.Join(dir, name)
			if *update {
				if err := os.MkdirAll(dir, 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, want, 0o644); err != nil {
					t.Fatal(err)
				}
				continue
			}
			got, err := os.ReadFile(p)
			if err != nil {
				t.Fatalf("%v (run with -update to create the fixtures)", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("%s differs from the generator output (%d vs %d bytes); run with -update", p, len(got), len(want))
			}
		}
	}
}
