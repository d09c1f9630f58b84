package manifest

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/neffscope/neffscope/core/budget"
	"github.com/neffscope/neffscope/core/doc"
	"github.com/neffscope/neffscope/core/jsonspan"
)

// resolver walks the chain neff.json → kelf → def.json → engine JSON → streams.
type resolver struct {
	a     *archive
	facts HeaderFacts
	m     *Model
	root  *doc.Node
	docs  map[string]*jdoc
	// budget is the open's (nil: unbounded); every JSON member's parse is charged to it.
	budget *budget.Budget
	// unread lists the JSON manifests whose bytes were not handed over: what they would
	// refer to cannot be told from what nothing refers to.
	unread []string
	// setsUsed is Model.ActivationSetsUsed as a set.
	setsUsed map[string]bool
}

// Resolve reads the manifest chain out of members, the way libnrt does (spec neff.md §2.4 D,
// §3.1), and cross-checks it with the header facts. It never fails: whatever is missing or
// broken becomes a finding naming both ends of the broken link, and the rest still resolves.
func Resolve(members Members, facts HeaderFacts) *Model { return resolve(members, facts, nil) }

func resolve(members Members, facts HeaderFacts, b *budget.Budget) *Model {
	r := &resolver{
		a:     newArchive(members),
		facts: facts,
		m:     &Model{Arch: -1, MemberTrees: map[string]*doc.Node{}, Forests: map[string]*jsonspan.Forest{}, FeatureBits: facts.FeatureBits},
		root:  &doc.Node{Kind: doc.KindModel, Key: "model", Label: "Model"},
		docs:  map[string]*jdoc{},
	}
	r.budget = b
	r.m.Overview = r.root

	kelfs := r.graph()
	r.kelfs(kelfs)
	for _, c := range r.m.Cores {
		r.core(c)
	}
	r.sidecars()
	r.crossCheckIO()
	r.crossCheckFeatures()
	r.crossCheckInfo()
	r.unreferenced()
	r.overview()
	return r.m
}

// load parses a JSON member once. It returns nil when the member is absent or its bytes were
// not handed over (a finding says which).
func (r *resolver) load(path, kind string) *jdoc {
	path = normPath(path)
	if d, ok := r.docs[path]; ok {
		return d
	}
	if !r.a.has(path) {
		return nil
	}
	b, ok := r.a.bytes(path)
	size := r.a.size(path)
	var in *jsonspan.Input
	if !ok && size <= MaxJSONMember {
		// Not held: read back now (the reader lets it go and reads it again as it needs); a
		// limit's refusal is the not-read finding below.
		var err error
		in, err = r.a.readJSON(path, size)
		if err == nil && in != nil {
			b, err = in.Bytes()
		}
		if err != nil && !errors.Is(err, budget.ErrLimit) {
			r.unread = append(r.unread, path)
			r.root.Errorf(doc.CodeManifestReadError, doc.In(path, 0, max(size, 0)), "%s (%d bytes) could not be read out of the archive: %v; what it defines is not shown. If the file changed since it was opened, open it again", path, size, err)
			r.docs[path] = nil
			return nil
		}
		ok = err == nil && in != nil
	}
	if !ok {
		r.unread = append(r.unread, path)
		if e := r.budget.First(); e != nil {
			r.root.Warnf(doc.CodeBudgetSkipped, doc.In(path, 0, max(size, 0)), "%s (%d bytes) is not read: the %s limit was reached before it (the file's finding says how to raise it), so what it defines is not shown", path, size, e.Kind)
		} else {
			r.root.Warnf(doc.CodeManifestUnread, doc.In(path, 0, max(size, 0)), "the bytes of %s (%d bytes) were not handed to the manifest reader, so it is not resolved; pass JSON members up to %d bytes", path, size, MaxJSONMember)
		}
		r.docs[path] = nil
		return nil
	}
	d := newJDoc(path, kind, b, in, size, r.budget)
	r.docs[path] = d
	r.m.MemberTrees[path] = d.tree
	r.m.Forests[path] = d.forest
	r.m.MemberOrder = append(r.m.MemberOrder, path)
	return d
}

// missing reports a reference to an absent member, naming both ends: the referring member and
// value, and the member path it resolves to.
func (r *resolver) missing(from *jdoc, at *jsonspan.Value, what, member, advice string) {
	// A manifest can name any number of absent members (100,000 activation sets, 200,000
	// def.json): past doc.RepeatsKept on one node they are counted, not kept.
	if from == nil {
		r.root.FlagRepeated(doc.CodeManifestMissingMember, doc.Error, nil, "the chain needs %s %s, but the NEFF has no such member; %s", what, member, advice)
		return
	}
	if from.holdBack() {
		return
	}
	written := ""
	if s, ok := at.Text(); ok && normPath(s) != member {
		written = fmt.Sprintf(" as %q", s)
	}
	from.node(at).FlagRepeated(doc.CodeManifestMissingMember, doc.Error, from.span(at), "%s names %s%s, resolved to member %s, but the NEFF has no member %s; %s", from.path, what, written, member, member, advice)
}

// graph reads neff.json (or the legacy kelp.json) and returns the KELF members its __kelf
// nodes name.
func (r *resolver) graph() []kelfRef {
	path := "neff.json"
	d := r.load(path, "neff.json")
	if d == nil && !r.a.has(path) {
		if r.a.has("kelp.json") {
			path = "kelp.json"
			d = r.load(path, "neff.json")
			if d != nil {
				d.tree.Infof(doc.CodeManifestLegacyKelp, d.span(d.v), "the NEFF has no neff.json; the runtime reads the legacy kelp.json instead, and so does neffscope")
			}
		} else if e := r.budget.First(); e != nil {
			r.root.Infof(doc.CodeBudgetSkipped, nil, "neff.json is not among the members read before the %s limit was reached (the file's finding says how to raise it); neffscope falls back to the kelf-*.json members it found by name", e.Kind)
		} else {
			r.root.Errorf(doc.CodeManifestMissingMember, nil, "the NEFF has no neff.json (nor the legacy kelp.json): the runtime refuses it (\"Invalid NN: neff.json is missing\"). neffscope falls back to the kelf-*.json members it finds by name. A file cut short loses it: copy the file again; a complete file without it needs rebuilding")
		}
	}
	r.a.ref(path, "the runtime (root of the chain)")
	if d == nil || d.v == nil {
		return r.fallbackKelfs()
	}
	top := d.v
	if top.Kind != jsonspan.Object {
		d.errorf(doc.CodeManifestWrongType, top, "%s is a JSON %s, not an object; the runtime refuses it (\"Missing required fields in NEFF JSON\")", path, top.Kind)
		return r.fallbackKelfs()
	}
	var absent []string
	for _, k := range []string{"nodes", "arg_nodes", "heads", "node_row_ptr", "attrs"} {
		if top.Get(k) == nil {
			absent = append(absent, k)
		}
	}
	if len(absent) > 0 {
		d.errorf(doc.CodeManifestMissingField, top, "%s lacks %s: the runtime refuses it (\"Missing required fields in NEFF JSON\"); inputs and outputs cannot be listed", path, strings.Join(absent, ", "))
	}
	g := parseGraph(d)
	r.m.Inputs, r.m.Outputs = g.inputs, g.outputs
	r.m.Signature = parseSignature(d, g)
	if len(g.kelfs) == 0 {
		if top.Get("nodes") != nil {
			d.errorf(doc.CodeManifestNoDeviceNode, top.Get("nodes"), "%s has no device node (attrs.func_name \"__kelf\"): the runtime refuses it (\"No KELF node found in NEFF JSON\"); neffscope falls back to the kelf-*.json members it finds by name", path)
		}
		return r.fallbackKelfs()
	}
	return g.kelfs
}

// kelfRef is a KELF member named by a __kelf node.
type kelfRef struct {
	path string
	from *jdoc
	at   *jsonspan.Value
}

func (r *resolver) fallbackKelfs() []kelfRef {
	var out []kelfRef
	for _, p := range r.a.matching(matcher(kelfPattern)) {
		out = append(out, kelfRef{path: p})
	}
	return out
}

// kelfs reads each KELF descriptor and makes the cores its graphs list.
func (r *resolver) kelfs(refs []kelfRef) {
	seenKelf := map[string]bool{}
	seenDef := map[string]bool{}
	// Each core is charged to the budget: what the model, the overview and the memory figure
	// build per core is bounded by the memory limit, not by the file (200,000 cores fit in
	// 1 MB of kelf). Past the limit the cores are counted, not resolved.
	dropped, firstDropped := 0, ""
	addCore := func(name, def string) {
		def = normPath(def)
		if seenDef[def] {
			return
		}
		seenDef[def] = true
		if dropped > 0 || !r.budget.Take(budget.Memory, budget.CoreCost, "core "+name) {
			if dropped++; dropped == 1 {
				firstDropped = name
			}
			return
		}
		r.m.Cores = append(r.m.Cores, &Core{Name: name, Dir: dirOf(def), DefPath: def})
	}
	defer func() {
		if dropped > 0 {
			r.root.Flag(doc.CodeManifestTooManyCores, doc.Warning, nil, "%d cores are resolved and %d more (from core %s on) are not: the %s limit is reached (the file's finding says how to raise it), at about %d bytes a core", len(r.m.Cores), dropped, firstDropped, budget.Memory, budget.CoreCost)
		}
	}()
	for _, k := range refs {
		if seenKelf[k.path] {
			continue
		}
		seenKelf[k.path] = true
		r.m.KelfPaths = append(r.m.KelfPaths, k.path)
		if k.from != nil {
			r.a.ref(k.path, k.from.path+" __kelf node")
		} else {
			r.a.ref(k.path, "found by name (no neff.json device node names it)")
		}
		d := r.load(k.path, "kelf")
		if d == nil {
			if !r.a.has(k.path) {
				r.missing(k.from, k.at, "the KELF descriptor", k.path, "the runtime fails (\"NEFF Unable to open\"); neffscope falls back to the sgNN/def.json members it finds by name")
			}
			continue
		}
		top := d.v
		if top == nil || top.Kind != jsonspan.Object {
			d.errorf(doc.CodeManifestWrongType, top, "%s is not a JSON object; a KELF descriptor is {graphs, version, target}", k.path)
			continue
		}
		t := top.Get("target")
		target, isStr := t.Text()
		if t != nil && !isStr {
			d.errorf(doc.CodeManifestWrongType, t, "%s target is a %s, not a string", k.path, t.Kind)
		}
		if r.m.Target == "" || r.m.Arch < 0 {
			r.m.Target = target
			if tg, ok := lookupTarget(target); ok && (t != nil || target == "") {
				r.m.Arch, r.m.ArchName, r.m.Instance = tg.Arch, tg.Devices, tg.Instance
				if t != nil {
					d.explain(t, "arch %d: %s", tg.Arch, tg.Devices)
				}
			} else if t != nil {
				d.errorf(doc.CodeManifestBadTarget, t, "%s target %q is not one the runtime knows (sunda/v2, cayman/v3, mariana/v4, *): it refuses the NEFF (\"Invalid target\"); the arch stays unknown", k.path, target)
			}
		} else if target != r.m.Target {
			d.warnf(doc.CodeManifestTargetMismatch, t, "%s target %q differs from %q in %s; the first is used", k.path, target, r.m.Target, r.m.KelfPaths[0])
		}
		if r.m.KelfVersion == "" {
			r.m.KelfVersion = str(top.Get("version"))
		}
		graphs := top.Get("graphs")
		if graphs == nil || graphs.Kind != jsonspan.Array {
			d.errorf(doc.CodeManifestMissingField, top, "%s has no graphs list, so no core can be found; neffscope falls back to the sgNN/def.json members it finds by name", k.path)
			continue
		}
		// Item by item: a kelf of 200,000 graphs parsed into one list held them all at once.
		graphs.Each(0, func(it jsonspan.Item) bool {
			gv := it.V
			def := str(gv.Get("definition"))
			name := str(gv.Get("name"))
			if def == "" {
				d.errorf(doc.CodeManifestMissingField, gv, "%s graphs[%d] has no definition (the member path of its def.json)", k.path, it.Index)
				return true
			}
			if name == "" {
				name = dirOf(normPath(def))
			}
			r.a.ref(def, k.path+" graphs["+name+"]")
			if !r.a.has(def) {
				r.missing(d, gv.Get("definition"), "core "+name+"'s definition", def, "that core's engines, variables and DMA queues cannot be read")
			}
			addCore(name, def)
			return true
		})
	}
	if len(r.m.Cores) == 0 {
		for _, p := range r.a.matching(matcher(defPattern)) {
			r.a.ref(p, "found by name (no KELF descriptor lists it)")
			core, _, _ := strings.Cut(p, "/") // "sgNN"
			addCore(core, p)
		}
		if len(r.m.Cores) > 0 {
			r.root.Warnf(doc.CodeManifestCoresByName, nil, "no KELF descriptor lists the cores; neffscope resolved %d sgNN/def.json member(s) found by name", len(r.m.Cores))
		} else {
			r.root.Errorf(doc.CodeManifestNoCore, nil, "no core could be found: no KELF descriptor lists one and no sgNN/def.json member exists")
		}
	}
}

// unreferenced reports members no manifest refers to and the runtime does not look for.
func (r *resolver) unreferenced() {
	if len(r.unread) > 0 {
		// A manifest that was not read may be the one that names them: no false alarms.
		r.root.Infof(doc.CodeBudgetSkipped, doc.In(r.unread[0], 0, max(r.a.size(r.unread[0]), 0)), "members are not checked for a manifest that refers to them: %s (and %d more) was not read", r.unread[0], len(r.unread)-1)
		return
	}
	if e := r.budget.First(); e != nil {
		r.root.Infof(doc.CodeBudgetSkipped, nil, "members are not checked for a manifest that refers to them: the %s limit was reached, so a manifest (or its end) was not read", e.Kind)
		return
	}
	reported := 0
	for _, p := range r.a.paths {
		if len(r.a.refs[p]) > 0 {
			continue
		}
		if _, ok := sidecarRole(p); ok {
			continue
		}
		if reported++; reported > maxUnreferencedReported {
			continue
		}
		size := r.a.size(p)
		r.root.Warnf(doc.CodeManifestUnreferenced, doc.In(p, 0, max(size, 0)), "member %s (%d bytes) is referred to by no manifest (neff.json → kelf → def.json → engine JSON) and is not a sidecar the tools look for by name: the runtime never reads it. If it should be used, the manifest that ought to name it is broken", p, size)
		if strings.HasSuffix(p, ".json") {
			r.load(p, "json")
		}
	}
	if reported > maxUnreferencedReported {
		r.root.Warnf(doc.CodeManifestUnreferenced, nil, "%d more members are referred to by no manifest; the members table lists them all as \"(nothing)\"", reported-maxUnreferencedReported)
	}
}

// maxUnreferencedReported bounds the per-member warnings on an archive full of strays.
const maxUnreferencedReported = 50

// sortedKeys returns an object's keys in byte order (for stable tables).
func sortedKeys(v *jsonspan.Value) []string {
	if v == nil || v.Kind != jsonspan.Object {
		return nil
	}
	var k []string
	for _, m := range v.Members() {
		k = append(k, m.Key)
	}
	sort.Strings(k)
	return k
}
