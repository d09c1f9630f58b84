package manifest

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/neffscope/neffscope/core/doc"
	"github.com/neffscope/neffscope/core/featurebits"
	"github.com/neffscope/neffscope/core/jsonspan"
)

// sidecars reads the members found by name: info.json, hlo_stats.json, metrics.json,
// tensor maps, the NKI debug-info index and trees, and every .npy.
func (r *resolver) sidecars() {
	if d := r.load("info.json", "info.json"); d != nil && d.v != nil {
		r.info(d)
	}
	r.load("hlo_stats.json", "hlo_stats.json")
	if d := r.load("metrics.json", "metrics.json"); d != nil && d.v != nil {
		metricsTable(d)
	}
	for _, p := range r.a.matching(matcher(tensorMapPattern)) {
		if d := r.load(p, "tensor_map"); d != nil && d.v != nil {
			tensorMapTable(d)
		}
	}
	if d := r.load("kernel_debug_info.json", "kernel_debug_info"); d != nil && d.v != nil {
		for _, f := range items(d.v.Get("debug_info_files")) {
			fv := f.Get("file_name")
			if name, ok := fv.Text(); ok {
				r.a.ref(name, d.path+" debug_info_files")
				if !r.a.has(name) {
					d.warnf(doc.CodeManifestMissingDebugMember, fv, "%s names the debug-info tree %q, but the NEFF has no member %s; only source-line information is lost", d.path, name, name)
				}
			}
		}
	}
	for _, p := range r.a.matching(matcher(klirPattern)) {
		if d := r.load(p, "klir"); d != nil && d.v != nil {
			// A root too big to hold is a stub: the raw JSON is browsable, the source tree left out.
			if src := klirTree(d); src != nil && d.tree.Attrs[doc.AttrMore] == "" {
				d.tree.Children = append([]*doc.Node{src}, d.tree.Children...)
			}
		}
	}
	for _, p := range r.a.matching(func(p string) bool { return strings.HasSuffix(p, ".npy") }) {
		b, ok := r.a.bytes(p)
		size := r.a.size(p)
		if !ok {
			continue
		}
		np, n := ParseNPY(p, b, size)
		if int64(len(b)) < size {
			n.Infof(doc.CodeManifestPartialRead, doc.In(p, int64(len(b)), size-int64(len(b))), "only the first %d of %d bytes were read; the preview comes from them", len(b), size)
		}
		r.m.NPY = append(r.m.NPY, np)
		r.m.MemberTrees[p] = n
		r.m.MemberOrder = append(r.m.MemberOrder, p)
		r.checkNpyVar(np, n)
	}
}

// checkNpyVar compares a .npy constant with the def.json var that names it.
func (r *resolver) checkNpyVar(np *NPY, n *doc.Node) {
	for _, c := range r.m.Cores {
		for _, v := range c.Vars {
			if v.FilePath != np.Path || v.Size < 0 || np.Shape == nil {
				continue
			}
			item := descrSize(np.DType)
			if item == 0 {
				continue
			}
			if got := tensorBytes(np.Shape, item); got != v.Size {
				n.Warnf(doc.CodeManifestSizeMismatch, np.Span, "%s holds %d bytes of values (%s %s), but %s var %q says size %d", np.Path, got, np.DType, fmtShape(np.Shape), c.DefPath, v.Name, v.Size)
			} else {
				n.Detail = fmt.Sprintf("initial value of %s var %s", c.DefPath, v.Name)
			}
		}
	}
}

func (r *resolver) info(d *jdoc) {
	v := d.v
	in := &Info{Span: d.span(v), NumTPB: -1, NumTPBRequested: -1}
	in.ToolVersion = str(v.Get("tool_version"))
	in.KelpVersion = str(v.Get("kelp_version"))
	in.Name = str(v.Get("name"))
	in.NumTPB = intOr(v.Get("num_tpb"), -1)
	in.NumTPBRequested = intOr(v.Get("num_tpb_requested"), -1)
	in.NumTPBPerNode, _ = ints(v.Get("num_tpb_per_node"))
	r.m.Info = in
}

// crossCheckInfo compares info.json with the header fields the compiler copies from it
// (spec neff.md §1.1, §3.6).
func (r *resolver) crossCheckInfo() {
	d := r.docs["info.json"]
	if d == nil || d.v == nil || !r.facts.Present || r.m.Info == nil {
		return
	}
	in, h := r.m.Info, r.facts
	check := func(key string, jsonVal, hdrVal string, hdrField string) {
		off := h.offset(hdrField)
		v := d.v.Get(key)
		if v == nil {
			d.warnf(doc.CodeManifestInfoMismatch, d.v, "info.json has no %s; the header's %s (offset 0x%X) is %s", key, hdrField, off, hdrVal)
			return
		}
		if jsonVal != hdrVal {
			d.warnf(doc.CodeManifestInfoMismatch, v, "info.json %s is %s but the header's %s (file offset 0x%X) is %s: the header was edited or the members come from another compile", key, jsonVal, hdrField, off, hdrVal)
			return
		}
		d.explain(v, "matches the header's %s (file offset 0x%X)", hdrField, off)
	}
	check("name", strconv.Quote(in.Name), strconv.Quote(h.Name), "name")
	check("num_tpb", fmtInt(in.NumTPB), strconv.FormatUint(uint64(h.NumTPB), 10), "num_tpb")
	check("num_tpb_requested", fmtInt(in.NumTPBRequested), strconv.FormatUint(uint64(h.RequestedTPBCount), 10), "requested_tpb_count")
	per := make([]string, 0, 64)
	hdr := make([]string, 0, 64)
	for i := 0; i < 64; i++ {
		x := int64(0)
		if i < len(in.NumTPBPerNode) {
			x = in.NumTPBPerNode[i]
		}
		per = append(per, strconv.FormatInt(x, 10))
		hdr = append(hdr, strconv.Itoa(int(h.TPBPerNode[i])))
	}
	check("num_tpb_per_node", trimZeros(per), trimZeros(hdr), "tpb_per_node")
}

func trimZeros(s []string) string {
	n := len(s)
	for n > 0 && s[n-1] == "0" {
		n--
	}
	return "[" + strings.Join(s[:n], ", ") + ", 0…]"
}

// crossCheckIO compares the graph's inputs and outputs with the def.json variables.
func (r *resolver) crossCheckIO() {
	nd := r.docs[normPath("neff.json")]
	if nd == nil {
		nd = r.docs["kelp.json"]
	}
	if nd == nil || len(r.m.Cores) == 0 {
		return
	}
	if e := r.budget.First(); e != nil {
		// A def.json cut by the limit may hold the variable further on: no false alarm.
		nd.tree.Infof(doc.CodeBudgetSkipped, nd.span(nd.v), "the graph's inputs and outputs are not checked against the def.json variables: the %s limit was reached (the file's finding says how to raise it)", e.Kind)
		return
	}
	check := func(kind string, ts []*Tensor) {
		for _, t := range ts {
			var found *Var
			var where *Core
			for _, c := range r.m.Cores {
				if v := c.Var(t.Name); v != nil && v.Type == kind {
					found, where = v, c
					break
				}
			}
			node := nd.tree
			if found == nil {
				node.Warnf(doc.CodeManifestUnboundTensor, t.Span, "graph %s %q has no %s variable of that name in any core's def.json: the runtime cannot bind it", kind, t.Name, kind)
				continue
			}
			if t.Bytes >= 0 && found.Size >= 0 && t.Bytes != found.Size {
				node.Warnf(doc.CodeManifestSizeMismatch, t.Span, "graph %s %q is %d bytes (%s %s), but %s var %q says %d", kind, t.Name, t.Bytes, t.DType, fmtShape(t.Shape), where.DefPath, found.Name, found.Size)
			}
		}
	}
	check("input", r.m.Inputs)
	check("output", r.m.Outputs)
	// Duplicate output names are normal at LNC=2 (one per core), but worth saying.
	// Unknown-ID: manifest.outputs-per-core.
	seen := map[string]int{}
	for _, t := range r.m.Outputs {
		seen[t.Name]++
	}
	for name, n := range seen {
		if n > 1 {
			nd.tree.Infof(doc.CodeManifestSharedOutputName, nil, "%d graph outputs are named %q (heads list one per output index of the device node; %s)", n, name, outputWriters(r.m.Cores))
		}
	}
}

// stubWords: a core whose engines hold at most this many instructions each and no DMA block
// is a stub (the second core of most LNC=2 NEFFs): it moves no data.
const stubWords = 2

// outputWriters says which cores can write the outputs: each core when every one moves data,
// else the ones that do, naming the stubs.
func outputWriters(cores []*Core) string {
	working, stubs := dataMovers(cores)
	switch {
	case len(stubs) == 0:
		return fmt.Sprintf("with %d cores each core writes its own", len(cores))
	case len(working) == 0:
		return "no core has a DMA block or more than " + strconv.Itoa(stubWords) + " instructions in an engine"
	}
	return fmt.Sprintf("only %s moves data: %s has at most %d instructions an engine and no DMA block", strings.Join(working, ", "), strings.Join(stubs, ", "), stubWords)
}

// dataMovers splits the cores into those that move data and the stubs (stubWords).
func dataMovers(cores []*Core) (working, stubs []string) {
	for _, c := range cores {
		stub := true
		for _, e := range c.Engines {
			if e.Instructions < 0 || e.Instructions > stubWords || len(e.DMABlocks) > 0 { // < 0: no stream, unknown
				stub = false
			}
		}
		if stub {
			stubs = append(stubs, c.Name)
		} else {
			working = append(working, c.Name)
		}
	}
	return working, stubs
}

// crossCheckFeatures compares def.json neff_features with the header's feature_bits
// (spec neff.md §1.4; Unknown-ID neff.feature-names).
func (r *resolver) crossCheckFeatures() {
	for _, c := range r.m.Cores {
		for _, f := range c.Features {
			if !contains(r.m.FeatureNames, f) {
				r.m.FeatureNames = append(r.m.FeatureNames, f)
			}
		}
	}
	for _, c := range r.m.Cores {
		d := r.docs[c.DefPath]
		if d == nil || d.v == nil {
			continue
		}
		fv := d.v.Get("neff_features")
		for _, it := range items(fv) {
			name, ok := it.Text()
			if !ok {
				continue
			}
			f, known := featurebits.ByDefJSON(name)
			switch {
			case !known:
				d.warnf(doc.CodeManifestFeatureMismatch, it, "%s neff_features lists %q, which no known feature bit carries; the header's feature_bits mask is what the runtime checks", c.DefPath, name)
			case r.facts.Present && r.facts.FeatureBits&f.Bit == 0:
				d.warnf(doc.CodeManifestFeatureMismatch, it, "%s neff_features lists %q (bit 0x%X), but the header's feature_bits (file offset 0x%X) is 0x%X without that bit: the runtime follows the header", c.DefPath, name, f.Bit, r.facts.offset("feature_bits"), r.facts.FeatureBits)
			default:
				d.explain(it, "feature bit 0x%X (%s): %s", f.Bit, f.Name, f.Meaning)
			}
		}
		if r.facts.Present {
			for _, f := range featurebits.All {
				if f.DefJSON != "" && r.facts.FeatureBits&f.Bit != 0 && !contains(c.Features, f.DefJSON) {
					at := fv
					if at == nil {
						at = d.v
					}
					d.warnf(doc.CodeManifestFeatureMismatch, at, "the header's feature_bits (file offset 0x%X) has bit 0x%X (%s) set, but %s neff_features does not list %q", r.facts.offset("feature_bits"), f.Bit, f.Name, c.DefPath, f.DefJSON)
				}
			}
		}
	}
	if !r.facts.Present {
		return
	}
	for bit := 0; bit < 64; bit++ {
		v := uint64(1) << bit
		if r.facts.FeatureBits&v == 0 {
			continue
		}
		if _, ok := featurebits.ByBit(v); !ok {
			r.root.Warnf(doc.CodeNeffFeatureUnknown, r.facts.span("feature_bits"), "the header's feature_bits (file offset 0x%X) has bit %d (0x%X) set, which has no known name: a runtime that does not support it refuses the NEFF", r.facts.offset("feature_bits"), bit, v)
		}
	}
	if r.facts.NeffVersionMajor != 2 && r.facts.FeatureBits != 0 {
		r.root.Infof(doc.CodeNeffFeatureIgnored, doc.At(0x18, 8), "feature_bits is 0x%X but neff_version_major is %d: the runtime checks feature bits only when the major version is 2", r.facts.FeatureBits, r.facts.NeffVersionMajor)
	}
}

func metricsTable(d *jdoc) {
	if d.v.Kind != jsonspan.Array {
		return
	}
	t := &doc.Table{Rows: [][]string{}, Columns: []string{"metric", "value", "unit"}}
	for _, it := range items(d.v) {
		vs := ""
		if val := it.Get("Value"); val != nil {
			vs = val.Str // a number's literal text, or a string's value
		}
		t.Rows = append(t.Rows, []string{str(it.Get("MetricName")), vs, str(it.Get("Unit"))})
		t.RowSpans = append(t.RowSpans, *d.span(it))
	}
	d.tree.Table = t
}

// tensorMapTable tabulates tensor_map.json: an object keyed by tensor name (spec §3.6). Keys
// whose value is not a tensor entry (inputs, alias_map, name in other producers) are left to
// the raw tree.
func tensorMapTable(d *jdoc) {
	if d.v.Kind != jsonspan.Object {
		return
	}
	t := &doc.Table{Rows: [][]string{}, Columns: []string{"tensor", "kind", "dtype", "tf_shape", "sim_shape", "const", "layer"}}
	for _, m := range d.v.Members() {
		name, e := m.Key, m.V
		if e.Kind != jsonspan.Object || e.Get("dtype") == nil {
			continue
		}
		tf, _ := ints(e.Get("tf_shape"))
		sim, _ := ints(e.Get("sim_shape"))
		isConst := ""
		if c := e.Get("is_const"); c != nil && c.Kind == jsonspan.Bool {
			isConst = strconv.FormatBool(c.Bool)
		}
		t.Rows = append(t.Rows, []string{name, str(e.Get("kind")), str(e.Get("dtype")), fmtShape(tf), fmtShape(sim), isConst, str(e.Get("layer_name"))})
		t.RowSpans = append(t.RowSpans, *doc.In(d.path, m.KeyStart, e.End-m.KeyStart))
	}
	d.tree.Table = t
}

// klirHeld is the nodes the klir source tree holds; a func or iteration whose children do not
// fit is a stub (klir:<member>@<offset of its children list>), built on demand a page at a
// time (Model.KlirChildren), so nothing is cut however big the tree.
const klirHeld = 2000

// klirList is the most items a list of the tree may have to be built with the tree: a longer
// one (a kernel of thousands of functions) is a stub whose pages are built when shown, so
// the open parses none of it (real trees have lists of under 100).
const klirList = 256

// klirPage is the nodes one page of a stub's children may hold below them.
const klirPage = 20000

// klirTree renders a *.klir.debuginfo.json as a source tree: per logical core, functions with
// their file and line, loop iterations, and instructions with their source line (spec §3.6).
func klirTree(d *jdoc) *doc.Node {
	if d.v.Kind != jsonspan.Array {
		return nil
	}
	root := &doc.Node{Kind: doc.KindSourceTree, Key: "source", Label: "source tree", Detail: "NKI instructions by source function, loop iteration and line"}
	k := &klirBuilder{path: d.path, forest: d.forest, left: klirHeld, list: klirList}
	if jsonspan.Eager {
		k.left, k.list = 1<<40, 1<<40
	}
	for i, core := range items(d.v) {
		n := &doc.Node{Kind: doc.KindLNC, Key: strconv.Itoa(i), Label: "logical core " + fmtInt(intOr(core.Get("lnc"), -1)), Span: doc.In(d.path, core.Start, core.Len64())}
		root.Add(n)
		k.children(n, core.Get("info"), 0)
	}
	return root
}

// klirBuilder makes source-tree nodes from klir JSON lists, holding at most left of them.
type klirBuilder struct {
	path   string
	forest *jsonspan.Forest
	left   int
	list   int // the longest list built in place (klirList)
}

// children gives n the nodes of list's items, or makes n a stub when they do not fit.
func (k *klirBuilder) children(n *doc.Node, list *jsonspan.Value, depth int) {
	count := list.Len()
	if count == 0 {
		return
	}
	if count > k.left || count > k.list || depth > 200 {
		n.Ref = string(doc.RefKlir) + ":" + k.path + "@" + strconv.FormatInt(list.Start, 10)
		n.SetAttr(doc.AttrMore, strconv.Itoa(count))
		return
	}
	k.left -= count
	for i, it := range items(list) {
		n.Add(k.item(it, i, depth))
	}
}

// item is the node of one entry of a klir list.
func (k *klirBuilder) item(it *jsonspan.Value, i, depth int) *doc.Node {
	key := strconv.Itoa(i)
	span := doc.In(k.path, it.Start, it.Len64())
	switch {
	case it.Get("inst") != nil:
		in := it.Get("inst")
		return &doc.Node{Kind: doc.KindInst, Key: key, Label: str(in.Get("name")), Value: "line " + fmtInt(intOr(in.Get("line"), -1)), Span: span}
	case it.Get("func") != nil:
		f := it.Get("func")
		n := &doc.Node{Kind: doc.KindFunc, Key: key, Label: str(f.Get("name")), Value: fmt.Sprintf("%s:%s", str(f.Get("file")), fmtInt(intOr(f.Get("line"), -1))), Span: span}
		k.children(n, f.Get("children"), depth+1)
		return n
	case it.Get("iter") != nil:
		f := it.Get("iter")
		n := &doc.Node{Kind: doc.KindIter, Key: key, Label: str(f.Get("var")) + " = " + str(f.Get("val")), Value: "line " + fmtInt(intOr(f.Get("line"), -1)), Span: span}
		k.children(n, f.Get("children"), depth+1)
		return n
	}
	return k.forest.Tree(it, key, 1000)
}

// KlirChildren builds the children [from, to) of a klir source-tree stub (its ref) and says
// how many it has.
func (m *Model) KlirChildren(ref string, from, to int) ([]*doc.Node, int, error) {
	kind, rest := doc.ParseRef(ref)
	at := strings.LastIndexByte(rest, '@')
	if kind != doc.RefKlir || at < 0 {
		return nil, 0, fmt.Errorf("%q is not a klir ref", ref)
	}
	off, err := strconv.ParseInt(rest[at+1:], 10, 64)
	fo := m.Forests[rest[:at]]
	if err != nil || fo == nil {
		return nil, 0, fmt.Errorf("no klir debug info %q is held", rest[:at])
	}
	if err := fo.Ready(); err != nil {
		return nil, 0, err
	}
	list := fo.ValueAt(off, 1)
	if list == nil || list.Kind != jsonspan.Array {
		return nil, 0, fmt.Errorf("no list starts at byte %d of %s", off, rest[:at])
	}
	total := list.Len()
	k := &klirBuilder{path: rest[:at], forest: fo, left: klirPage, list: klirList}
	var kids []*doc.Node
	list.Each(from, func(it jsonspan.Item) bool {
		if it.Index >= to {
			return false
		}
		k.left--
		kids = append(kids, k.item(it.V, it.Index, 1))
		return true
	})
	return kids, total, nil
}
