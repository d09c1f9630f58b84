package realfiles

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The repository's own real NEFF is always found, in the repository, with the bytes its
// PROVENANCE.md names.
func TestRepoNEFF(t *testing.T) {
	p, ok := Find("nkipy/matmul_small.neff")
	if !ok {
		t.Fatalf("%s", Missing("nkipy/matmul_small.neff"))
	}
	if want := filepath.Join(RepoDir(), "nkipy", "matmul_small.neff"); p != want {
		t.Errorf("found %s, want the repository's copy %s", p, want)
	}
	checkSHA(t, p, "5100752fb155fff1c3c2a5f9d68aa13373b049f838057cf54a125e26856742de")
	prov, err := os.ReadFile(filepath.Join(RepoDir(), "nkipy", "PROVENANCE.md"))
	if err != nil || !strings.Contains(string(prov), "5100752fb155fff1c3c2a5f9d68aa13373b049f838057cf54a125e26856742de") {
		t.Errorf("PROVENANCE.md beside the NEFF does not name its sha256 (%v)", err)
	}
}

// A member of that NEFF is found as a loose file, byte-identical to the member (the sha256s are
// those of the shared folder's extracted copies).
func TestMemberOfRepoNEFF(t *testing.T) {
	for rel, sum := range map[string]string{
		"nkipy/matmul_small/sg00/act_info.json":          "28511ffe5a9fd7744768e885bdda7a00d620fb7c43259a49ac6815149c7d79c3",
		"nkipy/matmul_small/sg00/exp_and_others_bkt.bin": "303ef4882b7ae40f1460190e6fdbf500ec4611ef8c9dba79fb78fcfd9b821be5",
		"nkipy/matmul_small/sg01/def.json":               "818b7a9cd32ace3268595d200f4e8420a6e0d7d30fc5c959122b9fe6c75b42eb",
	} {
		p, ok := Find(rel)
		if !ok {
			t.Errorf("%s", Missing(rel))
			continue
		}
		checkSHA(t, p, sum)
	}
	if _, ok := Find("nkipy/matmul_small/sg00/no-such-member.json"); ok && SharedDir() == "" {
		t.Errorf("a member the NEFF does not have was found")
	}
}

func TestRepoRoot(t *testing.T) {
	r, err := RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(r, "go.mod")); err != nil {
		t.Errorf("repo root %s has no go.mod", r)
	}
	if got := Glob("nkipy/*.neff"); len(got) == 0 || filepath.Base(got[0]) != "matmul_small.neff" {
		t.Errorf("Glob(nkipy/*.neff) = %v", got)
	}
	if !strings.Contains(Missing("x/y.neff"), "x/y.neff") {
		t.Errorf("Missing does not name the file: %q", Missing("x/y.neff"))
	}
}

func checkSHA(t *testing.T, p, want string) {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	s := sha256.Sum256(b)
	if got := hex.EncodeToString(s[:]); got != want {
		t.Errorf("%s: sha256 %s, want %s", p, got, want)
	}
}

// ReadDir gives what the shared folder's extracted sg00 holds: its JSON members and the set's blobs.
func TestReadDir(t *testing.T) {
	files := ReadDir(t, "nkipy/matmul_small/sg00")
	for _, name := range []string{"Activation.json", "DVE.json", "PE.json", "Pool.json", "SP.json", "act_info.json", "def.json", "exp_and_others.json", "exp_and_others_bkt.bin", "exp_and_others_ctrl.bin", "tensor_map.json"} {
		if _, ok := files[name]; !ok {
			t.Errorf("ReadDir(nkipy/matmul_small/sg00) lacks %s", name)
		}
	}
	if len(files) != 11 {
		t.Errorf("ReadDir(nkipy/matmul_small/sg00): %d files, want 11", len(files))
	}
}
