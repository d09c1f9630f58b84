package pwp

import (
	"fmt"
	"path"
	"sort"
	"strings"

	"github.com/neffscope/neffscope/core/doc"
	"github.com/neffscope/neffscope/core/jsonspan"
)

// Bundle is everything found in a group of files dropped together (or the members of a NEFF):
// rosters, engine JSONs' set lists, and every profile joined with its two blobs.
type Bundle struct {
	Rosters []*Roster
	Sets    []*Set
	// LoadOrders maps a directory ("sg00", or "" for loose files) to the set names its engine
	// JSON (Activation.json) lists in activation_function_sets: the index a LoadActFuncSet
	// instruction names (spec §1.1).
	LoadOrders map[string][]string
	Catalog    CatalogReport
	Findings   []doc.Finding
}

// Set returns the first set of that name (any directory), or nil.
func (b *Bundle) Set(name string) *Set {
	for _, s := range b.Sets {
		if s.Name == name {
			return s
		}
	}
	return nil
}

// LoadedSet returns the set a LoadActFuncSet with act_tbl_sel = index loads in directory dir
// (the engine JSON's activation_function_sets[index], spec §1.1), or nil.
func (b *Bundle) LoadedSet(dir string, index int) *Set {
	order := b.LoadOrders[dir]
	if index < 0 || index >= len(order) {
		return nil
	}
	for _, s := range b.Sets {
		if s.Name == order[index] && dirOf(s.ProfilePath) == dir {
			return s
		}
	}
	return nil
}

// Function finds a function by bare or full name, in the named set when set != "", else in
// the first set (load order) that has it.
func (b *Bundle) Function(set, name string) (*Function, error) {
	if len(b.Sets) == 0 {
		return nil, fmt.Errorf("no activation set among the files: no <set>.json profile (a subgraph whose engine JSON lists no activation_function_sets has none)")
	}
	var have []string
	for _, s := range b.Sets {
		if set != "" && s.Name != set {
			continue
		}
		if f := s.Function(name); f != nil {
			return f, nil
		}
		for _, f := range s.Functions {
			have = append(have, f.Name)
		}
	}
	if set != "" && b.Set(set) == nil {
		var names []string
		for _, s := range b.Sets {
			names = append(names, s.Name)
		}
		return nil, fmt.Errorf("no set %q among the files (sets found: %s)", set, strings.Join(names, ", "))
	}
	return nil, fmt.Errorf("no function %q in %s (functions: %s)", name, orAll(set), strings.Join(dedupe(have), ", "))
}

func orAll(set string) string {
	if set == "" {
		return "any set"
	}
	return "set " + set
}

func dedupe(a []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, s := range a {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}

// Sniff says which activation-table file a name and its bytes are: "roster" (act_info.json),
// "profile" (<set>.json), "engine" (an engine JSON listing activation_function_sets), "bkt"
// or "ctrl" (blobs, by their name), or "" — for a registry's Match. JSON is recognised by its
// top-level keys, whatever the file is called.
func Sniff(name string, b []byte) string {
	switch {
	case strings.HasSuffix(name, "_bkt.bin"):
		return "bkt"
	case strings.HasSuffix(name, "_ctrl.bin"):
		return "ctrl"
	case len(b) > 0 && (b[0] == '{' || b[0] == ' ' || b[0] == '\n' || b[0] == '\t' || b[0] == '\r' || b[0] == 0xEF):
		return fileKind(b)
	}
	return ""
}

// fileKind classifies a JSON file by its top-level keys.
func fileKind(b []byte) string {
	v, _ := parseLenient(b)
	return kindOf(v)
}

// parseLenient is the one parse of an activation-table JSON file that its sniff and its
// decoder share (each parsing it again was a sixth of a small NEFF's open in the page).
func parseLenient(b []byte) (*jsonspan.Value, error) {
	return jsonspan.ParseWith(b, jsonspan.Options{Lenient: true})
}

// kindOf classifies a parsed JSON file by its top-level keys.
func kindOf(v *jsonspan.Value) string {
	switch {
	case v.Get("act_func_sets") != nil:
		return "roster"
	case v.Get("profile_meta_data") != nil:
		return "profile"
	case v.Get("activation_function_sets") != nil:
		return "engine"
	}
	return ""
}

func dirOf(name string) string {
	d := path.Dir(name)
	if d == "." {
		return ""
	}
	return d
}

// OpenFiles finds and joins activation-table files among named byte slices (loose files
// dropped together, or NEFF members keyed by their tar paths). Blobs are found by the
// profile's bkt_bin / ctl_bin values, in the profile's directory first, then by base name
// anywhere. Missing or unused pieces are findings.
func OpenFiles(files map[string][]byte) *Bundle {
	b := &Bundle{LoadOrders: map[string][]string{}}
	l := &looseFiles{b: b, fd: finder{"", &b.Findings}, files: files, names: sortedKeys(files),
		rosterByDir: map[string]*Roster{}, used: map[string]bool{}, decoded: map[string]*Profile{}}
	l.classify()
	l.openSets()
	l.checkLoaded()
	l.flagOrphans()
	b.sortSets()
	l.checkShared()
	if len(b.Rosters) > 0 {
		b.Catalog = IdentifyCatalog(b.Rosters[0])
	}
	if len(l.profiles) == 0 && len(b.Rosters) == 0 {
		l.fd.add(doc.CodePwpNoActivationFiles, doc.Error, nil, "none of the %d files is an activation roster (act_info.json) or set profile (<set>.json)", len(files))
	}
	return b
}

// looseFiles is OpenFiles at work: the files by name, and what it has made of them so far.
type looseFiles struct {
	b           *Bundle
	fd          finder
	files       map[string][]byte
	names       []string // the files' names, sorted
	profiles    []string // the set profiles' names, in name order
	decoded     map[string]*Profile
	rosterByDir map[string]*Roster // the first roster of each directory
	used        map[string]bool    // the files something reads
}

// classify reads every JSON file as what it is: a roster, a set profile, or an engine JSON
// (whose activation_function_sets is its directory's load order).
func (l *looseFiles) classify() {
	b := l.b
	for _, n := range l.names {
		if !strings.HasSuffix(strings.ToLower(n), ".json") {
			continue
		}
		root, err := parseLenient(l.files[n])
		switch kindOf(root) {
		case "roster":
			r := decodeRoster(n, l.files[n], root, err)
			b.Rosters = append(b.Rosters, r)
			b.Findings = append(b.Findings, r.Findings...)
			if _, ok := l.rosterByDir[dirOf(n)]; !ok {
				l.rosterByDir[dirOf(n)] = r
			}
			l.used[n] = true
		case "profile":
			l.profiles = append(l.profiles, n)
			l.decoded[n] = decodeProfile(n, l.files[n], root, err)
			l.used[n] = true
		case "engine":
			var order []string
			for _, it := range root.Get("activation_function_sets").Items {
				if s, ok := it.Text(); ok {
					order = append(order, s)
				}
			}
			if prev, dup := b.LoadOrders[dirOf(n)]; dup {
				l.fd.add(doc.CodePwpAmbiguous, doc.Warning, doc.In(n, 0, int64(len(l.files[n]))), "two engine JSONs in %q list activation sets (%v and %v); the first is used", dirOf(n), prev, order)
				continue
			}
			b.LoadOrders[dirOf(n)] = order
			l.used[n] = true
		}
	}
}

// rosterFor is the roster of a directory, else the first roster found.
func (l *looseFiles) rosterFor(dir string) *Roster {
	if r, ok := l.rosterByDir[dir]; ok {
		return r
	}
	if len(l.b.Rosters) > 0 {
		return l.b.Rosters[0]
	}
	return nil
}

// find is the file a profile names (want, beside it in dir), else the one file of that base
// name anywhere; its bytes are nil when there is none.
func (l *looseFiles) find(dir, want string) (string, []byte) {
	if want == "" {
		return "", nil
	}
	if p := path.Join(dir, want); l.files[p] != nil {
		return p, l.files[p]
	}
	var hits []string
	for _, n := range l.names {
		if path.Base(n) == path.Base(want) {
			hits = append(hits, n)
		}
	}
	if len(hits) == 0 {
		return path.Join(dir, want), nil
	}
	if len(hits) > 1 {
		l.fd.add(doc.CodePwpAmbiguous, doc.Warning, doc.In(hits[0], 0, 0), "%d files are named %s (%s); the first is used", len(hits), path.Base(want), strings.Join(hits, ", "))
	}
	return hits[0], l.files[hits[0]]
}

// openSets opens a set per profile, with the blobs it names and its roster entry.
func (l *looseFiles) openSets() {
	for _, pn := range l.profiles {
		dir := dirOf(pn)
		prof := l.decoded[pn]
		var rs *RosterSet
		if r := l.rosterFor(dir); r != nil {
			for _, s := range r.Sets {
				if path.Base(s.ProfileJSON) == path.Base(pn) {
					rs = s
					break
				}
			}
		}
		bp, bb := l.find(dir, prof.BktBin)
		cp, cb := l.find(dir, prof.CtlBin)
		if bb != nil {
			l.used[bp] = true
		}
		if cb != nil {
			l.used[cp] = true
		}
		l.b.Sets = append(l.b.Sets, NewSet(SetFiles{ProfilePath: pn, Profile: l.files[pn], BktPath: bp, Bkt: bb, CtrlPath: cp, Ctrl: cb, Roster: rs, decoded: prof}))
	}
}

// checkLoaded: the sets an engine JSON loads must be present. The sets are looked up by name
// (a scan of them per set loaded was the product of the two counts), and an engine JSON naming
// a flood of absent sets gives the first few findings and one count (doc.Repeats).
func (l *looseFiles) checkLoaded() {
	b := l.b
	type setKey struct{ name, dir string }
	present := map[setKey]bool{}
	for _, s := range b.Sets {
		present[setKey{s.Name, dirOf(s.ProfilePath)}] = true
		present[setKey{s.Name, "\x00any"}] = true
	}
	var missing doc.Repeats
	for _, dir := range sortedKeys(b.LoadOrders) {
		for i, name := range b.LoadOrders[dir] {
			found := present[setKey{name, dir}] || (len(b.LoadOrders) == 1 && present[setKey{name, "\x00any"}])
			if !found {
				missing.Flag(&b.Findings, doc.CodePwpMissingFile, doc.Error, doc.In(path.Join(dir, "Activation.json"), 0, 0), "the engine JSON in %q loads set %d = %s, but its profile %s.json is not among the files", dir, i, name, name)
			}
		}
	}
}

// flagOrphans says which activation blobs no profile names.
func (l *looseFiles) flagOrphans() {
	for _, n := range l.names {
		if !l.used[n] && strings.HasSuffix(n, ".bin") && (strings.HasSuffix(n, "_bkt.bin") || strings.HasSuffix(n, "_ctrl.bin")) {
			l.fd.add(doc.CodePwpOrphanBlob, doc.Info, doc.In(n, 0, int64(len(l.files[n]))), "%s looks like an activation blob but no profile names it", n)
		}
	}
}

// checkShared: a function shared by two sets should be the same table in both (spec §1,
// [REAL]).
func (l *looseFiles) checkShared() {
	first := map[string]*Function{}
	for _, s := range l.b.Sets {
		for _, f := range s.Functions {
			g, ok := first[f.Name]
			if !ok {
				first[f.Name] = f
				continue
			}
			if d := CompareFunctions(g, f); len(d) > 0 {
				l.fd.add(doc.CodePwpSetDiffers, doc.Warning, f.Meta.Span, "%s differs between %s and %s (real sets share byte-identical blocks): %s", f.Name, g.Set.ProfilePath, s.ProfilePath, strings.Join(d, "; "))
			}
		}
	}
}

// sortSets puts sets in load order per directory (the engine JSON's list), then roster order.
func (b *Bundle) sortSets() {
	rank := func(s *Set) (string, int) {
		dir := dirOf(s.ProfilePath)
		for i, n := range b.LoadOrders[dir] {
			if n == s.Name {
				return dir, i
			}
		}
		if s.Roster != nil {
			return dir, 1000 + s.Roster.Index
		}
		return dir, 1 << 20
	}
	sort.SliceStable(b.Sets, func(i, j int) bool {
		di, ri := rank(b.Sets[i])
		dj, rj := rank(b.Sets[j])
		if di != dj {
			return di < dj
		}
		return ri < rj
	})
}

// CatalogReport says which built-in catalog a roster is and how it differs.
type CatalogReport struct {
	Catalog     *Catalog // best match; nil when no set name matches any catalog
	Matched     int      // sets identical (name, heroes, residents) to the catalog's
	Differences []string
}

// IdentifyCatalog compares a roster with the trainium and with_ln catalogs (spec §10).
// Residents and heroes are compared as unordered lists (unknown pwp.with-ln-order).
func IdentifyCatalog(r *Roster) CatalogReport {
	best := CatalogReport{}
	bestScore := -1
	for _, c := range Catalogs {
		rep := CatalogReport{Catalog: c}
		score := 0
		for _, rs := range r.Sets {
			cs := c.Set(rs.Name)
			if cs == nil {
				rep.Differences = append(rep.Differences, fmt.Sprintf("set %q is not in %s", rs.Name, c.Name))
				continue
			}
			score++
			var diffs []string
			wantFuncs := map[string]int{}
			for _, h := range cs.Heroes {
				wantFuncs[h.Func] = h.Budget
			}
			for _, res := range c.residentsOf(*cs) {
				wantFuncs[res] = 1
			}
			for _, f := range rs.Funcs {
				if b, ok := wantFuncs[f.Bare]; !ok {
					diffs = append(diffs, fmt.Sprintf("extra %s_%dp", f.Bare, f.Budget))
				} else if b != f.Budget {
					diffs = append(diffs, fmt.Sprintf("%s budget %d (catalog %d)", f.Bare, f.Budget, b))
				}
				delete(wantFuncs, f.Bare)
			}
			for _, k := range sortedKeys(wantFuncs) {
				diffs = append(diffs, "lacks "+k)
			}
			if len(diffs) == 0 {
				rep.Matched++
			} else {
				rep.Differences = append(rep.Differences, fmt.Sprintf("set %q: %s", rs.Name, strings.Join(diffs, ", ")))
			}
			if rs.Index != cs.Index {
				rep.Differences = append(rep.Differences, fmt.Sprintf("set %q is entry %d, catalog #%d", rs.Name, rs.Index, cs.Index))
			}
		}
		for _, cs := range c.Sets {
			if r.Set(cs.Name) == nil {
				rep.Differences = append(rep.Differences, fmt.Sprintf("lacks %s set #%d %s", c.Name, cs.Index, cs.Name))
			}
		}
		if score+rep.Matched > bestScore {
			best, bestScore = rep, score+rep.Matched
		}
	}
	if bestScore <= 0 {
		best.Catalog = nil
	}
	return best
}

// Summary renders the report in one line.
func (c CatalogReport) Summary() string {
	if c.Catalog == nil {
		return "matches no known catalog"
	}
	s := fmt.Sprintf("%s: %d of %d sets identical", c.Catalog.Name, c.Matched, len(c.Catalog.Sets))
	if len(c.Differences) > 0 {
		s += "; " + strings.Join(c.Differences, "; ")
	}
	return s
}
