package manifest

import (
	"fmt"
	"sort"
	"strings"
	"testing"
	"unsafe"

	"github.com/neffscope/neffscope/core/doc"
)

// A Var stays 64 bytes: budget.VarCost counts on it (a def.json may hold 100,000 of them).
func TestVarSize(t *testing.T) {
	if s := unsafe.Sizeof(Var{}); s > 64 {
		t.Errorf("manifest.Var is %d bytes, over 64: budget.VarCost must be measured again", s)
	}
}

// withVars is the synthetic NEFF with def.json's var object replaced by entries (JSON members
// without the braces).
func withVars(entries []string) *Model {
	set, facts := synthetic(func(path, text string) string {
		if path != "sg00/def.json" {
			return text
		}
		i := strings.Index(text, `"var": {`)
		j := strings.Index(text[i:], "\n },") + i
		return text[:i] + `"var": {` + "\n  " + strings.Join(entries, ",\n  ") + text[j:]
	})
	return Resolve(set, facts)
}

// checkVarLookups compares Var, VarByID, DGETable and the var table's order with what the
// list of vars says: a name finds its last definition, an id its first var.
func checkVarLookups(t *testing.T, c *Core) {
	t.Helper()
	lastByName, firstByID := map[string]*Var{}, map[int64]*Var{}
	var dge *Var
	for i := range c.Vars {
		v := &c.Vars[i]
		lastByName[v.Name] = v
		if _, ok := firstByID[v.ID]; !ok && v.ID >= 0 {
			firstByID[v.ID] = v
		}
		if dge == nil && v.Type == "dge-table" {
			dge = v
		}
	}
	for name, want := range lastByName {
		if got := c.Var(name); got != want {
			t.Errorf("Var(%q) = %+v, want %+v", name, got, want)
		}
	}
	for id, want := range firstByID {
		if got := c.VarByID(id); got != want {
			t.Errorf("VarByID(%d) = %+v, want %+v", id, got, want)
		}
	}
	for _, id := range []int64{-1, int64(len(c.Vars)), 1 << 40} {
		if _, ok := firstByID[id]; !ok && c.VarByID(id) != nil {
			t.Errorf("VarByID(%d) = %+v, want nil", id, c.VarByID(id))
		}
	}
	if c.Var("no such var") != nil || c.Var("") != nil {
		t.Errorf("a name no var has found one")
	}
	if c.DGETable() != dge {
		t.Errorf("DGETable = %+v, want %+v", c.DGETable(), dge)
	}
	// The table's rows: every var, stably by var_id.
	order := make([]*Var, len(c.Vars))
	for i := range c.Vars {
		order[i] = &c.Vars[i]
	}
	sort.SliceStable(order, func(a, b int) bool { return order[a].ID < order[b].ID })
	rows := c.VarRows(0, c.VarCount())
	if c.VarCount() != len(c.Vars) || len(rows.Rows) != len(order) {
		t.Fatalf("%d rows, %d vars", len(rows.Rows), len(c.Vars))
	}
	for k, v := range order {
		if r := rows.Rows[k]; r[0] != fmtInt(v.ID) || r[1] != v.Name {
			t.Errorf("row %d = %v, want var %q (id %d)", k, r, v.Name, v.ID)
		}
	}
}

func TestVarLookupsRepeatsAndSparseIDs(t *testing.T) {
	m := withVars([]string{
		`"SB": {"type": "state-buffer", "var_id": 0}`,
		`"x": {"ops": [], "size": 64, "type": "input", "var_id": 1}`,
		`"y": {"ops": [], "size": 128, "type": "output", "var_id": 2}`,
		`"x": {"ops": [], "size": 32, "type": "input", "var_id": 7}`, // defined twice: the last is kept
		`"d": {"size": 8, "type": "virtual", "var_id": 2}`,           // id repeated: y keeps it
		`"far": {"size": 8, "type": "virtual", "var_id": 1099511627776}`,
		`"noid": {"size": 8, "type": "virtual"}`,
		`"bad": 5`, // not an object: not a var
		`"T": {"list": [1, 2], "type": "dge-table", "var_id": 4}`,
		`"T2": {"list": [0], "type": "dge-table", "var_id": 3}`,
		`"s0": {"size": 8, "type": "virtual", "var_id": 5, "shape": [1, 2]}`,
		`"s1": {"size": 8, "type": "virtual", "var_id": 6, "shape": [12]}`,
		`"s2": {"size": 8, "type": "virtual", "var_id": 8, "shape": []}`,
		`"s3": {"size": 8, "type": "virtual", "var_id": 9, "shape": [1, 2]}`,
	})
	c := m.Core("sg00")
	if len(c.Vars) != 13 {
		t.Fatalf("%d vars, want 13 (every object entry, repeats too)", len(c.Vars))
	}
	checkVarLookups(t, c)
	if v := c.Var("x"); v == nil || v.Size != 32 || v.ID != 7 {
		t.Errorf("Var(x) = %+v, want the last definition", v)
	}
	if v := c.VarByID(2); v == nil || v.Name != "y" {
		t.Errorf("VarByID(2) = %+v, want y (the first with the id)", v)
	}
	if v := c.VarByID(1 << 40); v == nil || v.Name != "far" {
		t.Errorf("VarByID(1<<40) = %+v, want far", v)
	}
	if !hasFinding(m, "error", doc.CodeManifestDuplicateID, `"d"`, "2", `"y"`) {
		dumpFindings(t, m)
		t.Errorf("no finding for the repeated id")
	}
	// Equal attributes are shared; a shape of other numbers, or empty against absent, is not.
	s0, s1, s2, s3, d := c.Var("s0"), c.Var("s1"), c.Var("s2"), c.Var("s3"), c.Var("d")
	if s0.VarAttrs != s3.VarAttrs || s0.VarAttrs == s1.VarAttrs || s2.VarAttrs == d.VarAttrs || s2.Shape == nil || d.Shape != nil {
		t.Errorf("attrs: s0 %p %v, s1 %p %v, s2 %p %v, s3 %p %v, d %p %v", s0.VarAttrs, s0.Shape, s1.VarAttrs, s1.Shape, s2.VarAttrs, s2.Shape, s3.VarAttrs, s3.Shape, d.VarAttrs, d.Shape)
	}
}

// Enough vars for the var object to be parsed lazily and the name table to probe: the ids
// 0..N-1 in shuffled order (the table's order is then the id index itself), then with a gap.
func TestVarLookupsMany(t *testing.T) {
	const n = 5000
	entries := func(skip int) []string {
		var out []string
		for k := range n {
			id := (k * 7919) % n // a permutation: 7919 is prime, n is not its multiple
			if id == skip {
				continue
			}
			typ := "virtual"
			if id == 1 {
				typ = "output"
			}
			out = append(out, fmt.Sprintf(`"layer%d_t%d_sg0000": {"backing_variable_off": %d, "fabric_path": "main", "size": 64, "type": %q, "var_id": %d}`, k%7, k, 64*k, typ, id))
		}
		return out
	}
	for _, skip := range []int{-1, 17} {
		m := withVars(entries(skip))
		c := m.Core("sg00")
		want := n
		if skip >= 0 {
			want--
		}
		if len(c.Vars) != want {
			t.Fatalf("skip %d: %d vars, want %d", skip, len(c.Vars), want)
		}
		checkVarLookups(t, c)
		if gap := hasFinding(m, "error", doc.CodeManifestSparseVarIDs); gap != (skip >= 0) {
			t.Errorf("skip %d: not-dense finding %v", skip, gap)
		}
		if c.Vars[0].VarAttrs != c.Vars[n/2].VarAttrs {
			t.Errorf("skip %d: vars alike do not share their attributes", skip)
		}
	}
}
