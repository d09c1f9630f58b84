package sched

import "testing"

// The code table is indexed by code: each row must sit at its own code's place.
func TestCodeTableOrder(t *testing.T) {
	for i, ci := range Codes {
		if int(ci.Code) != i {
			t.Errorf("row %d holds code %d (%s)", i, ci.Code, ci.Name)
		}
		if i > 0 && ci.Name == "" {
			t.Errorf("code %d has no name", i)
		}
	}
}
