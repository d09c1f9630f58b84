package doc

import (
	"regexp"
	"testing"
)

// codeShape is an area and a problem, dotted, lowercase, words joined by hyphens.
var codeShape = regexp.MustCompile(`^[a-z][a-z0-9]*(\.[a-z0-9]+(-[a-z0-9]+)*)+$`)

func TestCodesTable(t *testing.T) {
	if len(Codes) == 0 {
		t.Fatal("the code table is empty")
	}
	seen := map[Code]bool{}
	for _, r := range Codes {
		if !codeShape.MatchString(string(r.Code)) {
			t.Errorf("code %q is not a dotted lowercase name (area.problem)", r.Code)
		}
		if seen[r.Code] {
			t.Errorf("code %q is in the table twice", r.Code)
		}
		seen[r.Code] = true
		if len(r.Meaning) < 10 {
			t.Errorf("code %q has no meaning (%q)", r.Code, r.Meaning)
		}
		if got, ok := Meaning(r.Code); !ok || got != r {
			t.Errorf("Meaning(%q) = %v, %v", r.Code, got, ok)
		}
	}
	if _, ok := Meaning(""); ok {
		t.Error("the empty code is in the table")
	}
}

func TestFlagHelpersCarryTheCode(t *testing.T) {
	n := &Node{}
	n.Errorf(CodeNeffTruncated, At(0, 1), "cut at %d", 1)
	n.Warnf(CodeJSONDuplicateKey, nil, "key")
	n.Infof(CodeFileUnknown, nil, "hex")
	want := []struct {
		code Code
		sev  string
	}{{CodeNeffTruncated, Error}, {CodeJSONDuplicateKey, Warning}, {CodeFileUnknown, Info}}
	if len(n.Findings) != len(want) {
		t.Fatalf("%d findings, want %d", len(n.Findings), len(want))
	}
	for i, w := range want {
		if f := n.Findings[i]; f.Code != w.code || f.Severity != w.sev {
			t.Errorf("finding %d: %s %s, want %s %s", i, f.Code, f.Severity, w.code, w.sev)
		}
	}
	if n.Findings[0].Message != "cut at 1" {
		t.Errorf("message %q", n.Findings[0].Message)
	}
}
