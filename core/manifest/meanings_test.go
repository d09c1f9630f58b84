package manifest

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/neffscope/neffscope/core/doc"
	"github.com/neffscope/neffscope/internal/realfiles"
)

// TestMeaningRows: every row says how sure it is, and a row below high confidence names the
// unknowns row it is recorded as.
func TestMeaningRows(t *testing.T) {
	ids := map[string]bool{}
	for _, u := range Unknowns {
		ids[u.ID] = true
	}
	seen := map[[2]string]bool{}
	for _, m := range KeyMeanings {
		switch m.Confidence {
		case "high", "medium", "low":
		default:
			t.Errorf("%s %q: confidence %q", m.Kind, m.Path, m.Confidence)
		}
		if m.Meaning == "" || m.Spec == "" {
			t.Errorf("%s %q: no meaning or source", m.Kind, m.Path)
		}
		if m.Confidence == "low" && !ids[m.Unknown] {
			t.Errorf("%s %q: a low-confidence guess with no unknowns row (%q)", m.Kind, m.Path, m.Unknown)
		}
		if m.Unknown != "" && !ids[m.Unknown] {
			t.Errorf("%s %q: unknowns row %q does not exist", m.Kind, m.Path, m.Unknown)
		}
		if seen[[2]string{m.Kind, m.Path}] {
			t.Errorf("%s %q: two rows", m.Kind, m.Path)
		}
		seen[[2]string{m.Kind, m.Path}] = true
	}
}

func TestPathMatch(t *testing.T) {
	for _, c := range []struct {
		pattern string
		path    []string
		want    bool
	}{
		{"", nil, true},
		{"", []string{"a"}, false},
		{"var/*/type", []string{"var", "x", "type"}, true},
		{"var/*/type", []string{"var", "x"}, false},
		{"*_asm_dbg", []string{"pe_asm_dbg"}, true},
		{"*_dbg", []string{"pe_instr"}, false},
		{"**/inst/line", []string{"*", "info", "*", "func", "children", "*", "inst", "line"}, true},
		{"**/inst/line", []string{"inst", "line"}, true},
		{"**/inst/line", []string{"inst", "name"}, false},
	} {
		if got := pathMatch(c.pattern, c.path); got != c.want {
			t.Errorf("pathMatch(%q, %v) = %v", c.pattern, c.path, got)
		}
	}
	if m := meaningOf("def.json", []string{"pe_asm_dbg"}); m == nil || m.Path != "*_asm_dbg" {
		t.Errorf("pe_asm_dbg matched %+v; the asm row must come before *_dbg", m)
	}
}

// TestRealKeysHaveMeanings: every value of every JSON member of the real NEFFs is named by the
// table (or is an item of a named array): the coverage report's JSON-only column is empty on
// them, and a key added by a new compiler shows up here.
func TestRealKeysHaveMeanings(t *testing.T) {
	for _, file := range realfiles.NEFFs(t) {
		set, facts := loadNEFF(t, file)
		m := Resolve(set, facts)
		for p, tree := range m.MemberTrees {
			var walk func(n *doc.Node, inArray bool, at string)
			walk = func(n *doc.Node, inArray bool, at string) {
				if !jsonKind[n.Kind] {
					return // a decoder's own node (an .npy header, ...): not a JSON value
				}
				if n.Detail == "" && !inArray {
					t.Errorf("%s %s: %s (%s) has no meaning", filepath.Base(file), p, at, n.Kind)
					return
				}
				for _, c := range n.Children {
					walk(c, n.Kind == doc.KindArray, at+"/"+c.Label)
				}
			}
			walk(tree, false, "")
		}
	}
}

var jsonKind = map[string]bool{doc.KindManifest: true, doc.KindObject: true, doc.KindArray: true, doc.KindString: true, doc.KindNumber: true, doc.KindBool: true, doc.KindNull: true}

// meaningOf's index finds what a scan of the whole table in order finds, for paths made from
// every pattern (wildcards filled in several ways) and their neighbours.
func TestMeaningIndexMatchesTableScan(t *testing.T) {
	scan := func(kind string, path []string) *KeyMeaning {
		for i := range KeyMeanings {
			if KeyMeanings[i].Kind == kind && segsMatch(meaningSegs[i], path) {
				return &KeyMeanings[i]
			}
		}
		return nil
	}
	fills := [][]string{{"x"}, {"*"}, {"a", "b"}, {}}
	checked := 0
	for i, m := range KeyMeanings {
		for _, fill := range fills {
			var path []string
			for _, seg := range meaningSegs[i] {
				switch {
				case seg == "**":
					path = append(path, fill...)
				case seg == "*":
					path = append(path, "*")
				case strings.HasPrefix(seg, "*"):
					path = append(path, "pe"+seg[1:])
				default:
					path = append(path, seg)
				}
			}
			for _, p := range [][]string{path, append(append([]string{}, path...), "extra"), path[:max(0, len(path)-1)]} {
				if got, want := meaningOf(m.Kind, p), scan(m.Kind, p); got != want {
					t.Errorf("%s %q: index finds %v, the table scan %v", m.Kind, p, got, want)
				}
				checked++
			}
		}
	}
	if checked == 0 {
		t.Fatal("no paths checked")
	}
}
