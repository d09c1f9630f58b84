package inspect

import "testing"

func TestUnknownsTable(t *testing.T) {
	seen := map[string]bool{}
	all := Unknowns()
	if len(all) < 40 {
		t.Fatalf("only %d unknowns", len(all))
	}
	for _, u := range all {
		if seen[u.ID] {
			t.Errorf("duplicate unknown ID %s", u.ID)
		}
		seen[u.ID] = true
		if u.ID == "" || u.Spec == "" || u.Question == "" || u.Assumption == "" || u.Confidence == "" {
			t.Errorf("incomplete row %+v", u)
		}
	}
}
