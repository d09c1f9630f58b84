package pwp

import (
	"github.com/neffscope/neffscope/core/doc"
	"github.com/neffscope/neffscope/core/jsonspan"
)

// RosterFunc is one member of a set's "act" map: a bare function name and its budget.
type RosterFunc struct {
	Bare   string
	Budget int
	Span   *doc.Span
}

// Name is the full `_<N>p` name the profile uses (spec §1, §5 group A).
func (f RosterFunc) Name() string { return FullName(f.Bare, f.Budget) }

// Hero reports a function with a real lookup table (budget > 1); budget 1 is a LUT-less resident.
func (f RosterFunc) Hero() bool { return f.Budget > 1 }

// RosterSet is one entry of act_func_sets.
type RosterSet struct {
	Index                        int
	Name                         string
	BktBin, CtrlBin, ProfileJSON string
	Funcs                        []RosterFunc
	Span                         *doc.Span
	NameSpan, BktSpan, CtrlSpan  *doc.Span
	ProfileSpan, ActSpan         *doc.Span
}

// Heroes returns the set's hero functions in roster order.
func (s *RosterSet) Heroes() []RosterFunc {
	var h []RosterFunc
	for _, f := range s.Funcs {
		if f.Hero() {
			h = append(h, f)
		}
	}
	return h
}

// Func finds a roster function by bare or full name.
func (s *RosterSet) Func(name string) *RosterFunc {
	for i := range s.Funcs {
		if s.Funcs[i].Bare == name || s.Funcs[i].Name() == name {
			return &s.Funcs[i]
		}
	}
	return nil
}

// Roster is a decoded act_info.json (spec §1).
type Roster struct {
	Source   string
	FileKeys []string
	Sets     []*RosterSet
	Findings []doc.Finding
	Span     *doc.Span
}

// Set returns the roster entry of that name, or nil.
func (r *Roster) Set(name string) *RosterSet {
	if r == nil {
		return nil
	}
	for _, s := range r.Sets {
		if s.Name == name {
			return s
		}
	}
	return nil
}

// rosterSetKeys: each set entry has exactly these 5 keys (spec §1). [WIKI][REAL]
var rosterSetKeys = []string{"name", "bkt_bin", "ctrl_bin", "profile_json", "act"}

// DecodeRoster decodes act_info.json. It never fails: problems are findings.
func DecodeRoster(source string, b []byte) *Roster {
	root, err := parseLenient(b)
	return decodeRoster(source, b, root, err)
}

// decodeRoster decodes an act_info.json parsed already (parseLenient).
func decodeRoster(source string, b []byte, root *jsonspan.Value, err error) *Roster {
	r := &Roster{Source: source, Span: doc.In(source, 0, int64(len(b)))}
	fd := finder{source, &r.Findings}
	if err != nil {
		off := int64(0)
		if je, ok := err.(*jsonspan.Error); ok {
			off = je.Offset
		}
		fd.add(doc.CodeJSONSyntax, doc.Error, doc.In(source, off, 1), "%s: %v; the roster is read up to that point", source, err)
	}
	if root == nil || root.Kind != jsonspan.Object {
		fd.add(doc.CodePwpBadRoster, doc.Error, fd.span(root), "%s is not a JSON object, so it is not an act_info.json roster", source)
		return r
	}
	if len(root.Keys) != 2 {
		fd.add(doc.CodePwpRosterUnusual, doc.Warning, fd.span(root), "the roster has %d top-level keys; real ones have exactly 2 (pwp_file_keys, act_func_sets)", len(root.Keys))
	}
	if fk := root.Get("pwp_file_keys"); fk != nil {
		for _, it := range fk.Items {
			s, _ := it.Text()
			r.FileKeys = append(r.FileKeys, s)
		}
	} else {
		fd.add(doc.CodePwpRosterUnusual, doc.Warning, fd.span(root), "the roster has no \"pwp_file_keys\" (real ones list bkt_bin, ctrl_bin, profile_json)")
	}
	sets := root.Get("act_func_sets")
	if sets == nil || sets.Kind != jsonspan.Array {
		fd.add(doc.CodePwpBadRoster, doc.Error, fd.span(root), "the roster has no \"act_func_sets\" array: no set is listed")
		return r
	}
	seen := map[string]int{}
	for i, sv := range sets.Items {
		if i >= maxProfileEntries {
			fd.add(doc.CodePwpBadRoster, doc.Error, fd.span(sets), "act_func_sets has %d entries; only the first %d are read", len(sets.Items), maxProfileEntries)
			break
		}
		s := &RosterSet{Index: i, Span: fd.span(sv)}
		r.Sets = append(r.Sets, s)
		if sv.Kind != jsonspan.Object {
			fd.add(doc.CodePwpBadRoster, doc.Error, s.Span, "act_func_sets[%d] should be an object, found %s", i, sv.Kind)
			continue
		}
		text := func(key string) (string, *doc.Span) {
			v := sv.Get(key)
			t, ok := v.Text()
			if !ok {
				fd.add(doc.CodePwpBadRoster, doc.Error, s.Span, "act_func_sets[%d] has no string %q", i, key)
				return "", s.Span
			}
			return t, fd.span(v)
		}
		s.Name, s.NameSpan = text("name")
		s.BktBin, s.BktSpan = text("bkt_bin")
		s.CtrlBin, s.CtrlSpan = text("ctrl_bin")
		s.ProfileJSON, s.ProfileSpan = text("profile_json")
		if len(sv.Keys) != len(rosterSetKeys) {
			fd.add(doc.CodePwpRosterUnusual, doc.Warning, s.Span, "set %q has %d keys; real entries have exactly 5 (%v)", s.Name, len(sv.Keys), rosterSetKeys)
		}
		if j, dup := seen[s.Name]; dup {
			fd.add(doc.CodePwpDuplicateSet, doc.Error, s.NameSpan, "set name %q appears twice (entries %d and %d); lookups by name use the first", s.Name, j, i)
		} else {
			seen[s.Name] = i
		}
		// The blob names follow <set>_bkt.bin / <set>_ctrl.bin / <set>.json in every real roster.
		for _, c := range []struct {
			got, want string
			span      *doc.Span
		}{
			{s.BktBin, s.Name + "_bkt.bin", s.BktSpan}, {s.CtrlBin, s.Name + "_ctrl.bin", s.CtrlSpan}, {s.ProfileJSON, s.Name + ".json", s.ProfileSpan}} {
			if c.got != "" && c.got != c.want {
				fd.add(doc.CodePwpRosterUnusual, doc.Info, c.span, "set %q names %q where the usual name is %q; the name given is followed", s.Name, c.got, c.want)
			}
		}
		act := sv.Get("act")
		if act == nil || act.Kind != jsonspan.Object {
			fd.add(doc.CodePwpBadRoster, doc.Error, s.Span, "set %q has no \"act\" map {function: budget}", s.Name)
			continue
		}
		s.ActSpan = fd.span(act)
		for j, fv := range act.Items {
			n, ok := fv.Int()
			if !ok || n < 1 || n > 1<<30 {
				fd.add(doc.CodePwpBadRoster, doc.Error, fd.span(fv), "set %q: budget of %q is %s; a budget is a positive integer (1 = LUT-less resident)", s.Name, act.Keys[j], fv.Str)
				n = 0
			}
			s.Funcs = append(s.Funcs, RosterFunc{Bare: act.Keys[j], Budget: int(n), Span: doc.In(source, act.KeyStart[j], fv.End-act.KeyStart[j])})
			if CatalogFunctionNamed(act.Keys[j]) == nil {
				fd.add(doc.CodePwpRosterUnusual, doc.Warning, fd.span(fv), "set %q lists %q, a function the catalog (spec §10.4) does not know", s.Name, act.Keys[j])
			}
		}
	}
	return r
}
