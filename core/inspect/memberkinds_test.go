package inspect

import (
	"os"
	"path"
	"strings"
	"testing"

	"github.com/neffscope/neffscope/core/neff"
	"github.com/neffscope/neffscope/internal/realfiles"
)

// TestMemberKindsTable: every member of the real NEFFs is taken by exactly one row of
// memberKinds, or by none and so by the fallback; the rows this house knows the real roster
// by are the ones that take them.
func TestMemberKindsTable(t *testing.T) {
	if fb := memberKinds[len(memberKinds)-1]; fb.match != nil || fb.hold == nil {
		t.Fatalf("the last row %q must be the fallback (no match, a hold rule)", fb.name)
	}
	names := map[string]bool{}
	for _, k := range memberKinds {
		if names[k.name] || k.hold == nil {
			t.Errorf("row %q: a name used twice, or no hold rule", k.name)
		}
		names[k.name] = true
	}
	files := realfiles.NEFFs(t)
	seen := map[string]int{}
	for _, rel := range files {
		fh, err := os.Open(rel)
		if err != nil {
			t.Fatal(err)
		}
		st, _ := fh.Stat()
		var paths []string
		_, err = neff.ReadMembers(fh, st.Size(), func(path string, _ int64) bool { paths = append(paths, path); return false })
		fh.Close()
		if err != nil || len(paths) == 0 {
			t.Fatalf("%s: %d members, %v", rel, len(paths), err)
		}
		for _, mp := range paths {
			var took []string
			for _, k := range memberKinds {
				if k.match != nil && k.match(mp) {
					took = append(took, k.name)
				}
			}
			if len(took) > 1 {
				t.Errorf("%s: member %s is claimed by %v", rel, mp, took)
			}
			k := memberKindOf(mp)
			if len(took) == 1 && k.name != took[0] || len(took) == 0 && k != &memberKinds[len(memberKinds)-1] {
				t.Errorf("%s: member %s: lookup gives %q, rows %v", rel, mp, k.name, took)
			}
			seen[k.name]++
		}
	}
	// The real roster (spec neff.md §2.4) reaches every row but the ones for odd names.
	for _, want := range []string{"json", "activation-buckets", "activation-control", "dve-table", "instruction-stream", "numpy", "debug-info"} {
		if seen[want] == 0 {
			t.Errorf("no real member is of kind %q (seen %v)", want, seen)
		}
	}
	if seen["other"] != 0 || seen["dve-table-unknown"] != 0 {
		t.Errorf("real members fell to the fallback or an unknown DVE table: %v", seen)
	}
	t.Logf("%d files, members by kind %v", len(files), seen)
}

// TestActivationMembersByTable: the activation pick (`neffscope eval`) is the table's: on the
// real NEFFs it takes every set's buckets and control words and the JSON members, and no
// stream, .dbg or other binary member.
func TestActivationMembersByTable(t *testing.T) {
	files := realfiles.NEFFs(t)
	took := map[string]int{}
	for _, rel := range files {
		fh, err := os.Open(rel)
		if err != nil {
			t.Fatal(err)
		}
		st, _ := fh.Stat()
		_, err = neff.ReadMembers(fh, st.Size(), func(p string, size int64) bool {
			k := memberKindOf(p)
			if got, want := ActivationMember(p, size), k.name == "activation-buckets" || k.name == "activation-control" || k.name == "json" && !strings.HasPrefix(path.Base(p), "debug"); got != want {
				t.Errorf("%s: member %s (%s): activation %v, want %v", rel, p, k.name, got, want)
			}
			if ActivationMember(p, size) {
				took[k.name]++
			}
			return false
		})
		fh.Close()
		if err != nil {
			t.Fatal(err)
		}
	}
	if took["activation-buckets"] == 0 || took["activation-control"] == 0 || took["json"] == 0 {
		t.Errorf("the real roster's activation members by kind: %v", took)
	}
}
