package pwp

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/neffscope/neffscope/core/doc"
)

// Node kinds this package produces (the page picks renderers by kind).
const (
	KindRoster   = doc.KindPWPRoster
	KindSet      = doc.KindPWPSet
	KindFunction = doc.KindPWPFunction
	KindBucket   = doc.KindPWPBucket
	KindOctaves  = doc.KindPWPOctaves
)

func itoa(i int) string { return strconv.Itoa(i) }

// RosterNode renders a roster: one child per set with its functions as a table.
func RosterNode(r *Roster) *doc.Node {
	n := &doc.Node{Kind: KindRoster, Label: "activation roster", Value: fmt.Sprintf("%d sets", len(r.Sets)), Span: r.Span, Findings: r.Findings}
	n.Detail = "act_info.json: every activation function set the compiler could load, with each function's budget (1 = LUT-less resident, >1 = hero with a lookup table)"
	if len(r.FileKeys) > 0 {
		n.Field("pwp_file_keys", strings.Join(r.FileKeys, ", "), nil)
	}
	rep := IdentifyCatalog(r)
	cat := n.Field("catalog", "unknown", nil)
	if rep.Catalog != nil {
		cat.Value = rep.Catalog.Name
	}
	cat.Detail = rep.Summary()
	for _, s := range r.Sets {
		var heroes []string
		for _, h := range s.Heroes() {
			heroes = append(heroes, fmt.Sprintf("%s %d", h.Bare, h.Budget))
		}
		sn := &doc.Node{Kind: doc.KindPWPRosterSet, Key: s.Name, Label: fmt.Sprintf("#%d %s", s.Index, s.Name), Span: s.Span,
			Value: fmt.Sprintf("%d functions; heroes: %s", len(s.Funcs), orNone(heroes))}
		sn.Field("name", doc.Quote(s.Name, 200), s.NameSpan)
		sn.Field("bkt_bin", doc.Quote(s.BktBin, 200), s.BktSpan)
		sn.Field("ctrl_bin", doc.Quote(s.CtrlBin, 200), s.CtrlSpan).Detail = "spelled ctrl_bin here, ctl_bin in the profile"
		sn.Field("profile_json", doc.Quote(s.ProfileJSON, 200), s.ProfileSpan)
		t := &doc.Table{Columns: []string{"function", "budget", "role", "profile name"}}
		for _, f := range s.Funcs {
			role := "resident"
			if f.Hero() {
				role = "hero"
			}
			t.Rows = append(t.Rows, []string{f.Bare, itoa(f.Budget), role, f.Name()})
			t.RowSpans = append(t.RowSpans, spanOrZero(f.Span))
		}
		act := sn.Field("act", fmt.Sprintf("{%d}", len(s.Funcs)), s.ActSpan)
		act.Table = t
		n.Add(sn)
	}
	return n
}

func orNone(a []string) string {
	if len(a) == 0 {
		return "none"
	}
	return strings.Join(a, ", ")
}

func spanOrZero(s *doc.Span) doc.Span {
	if s == nil {
		return doc.Span{}
	}
	return *s
}

// SetNode renders a set: profile header, function table, a node per function, and the two
// blobs as tables.
func SetNode(s *Set) *doc.Node {
	p := s.Profile
	n := &doc.Node{Kind: KindSet, Key: s.Name, Label: s.Name, Span: doc.In(s.ProfilePath, 0, profileLen(p)),
		Value:    fmt.Sprintf("%d functions, %d buckets, %d ctrl words of %d B", len(s.Functions), len(s.Buckets), len(s.Controls), s.CtrlStride),
		Findings: s.Findings}
	hdr := n.Add(&doc.Node{Kind: doc.KindGroup, Key: "profile", Label: "profile", Value: s.ProfilePath})
	hdr.Field("bkt_bin", doc.Quote(p.BktBin, 200), p.Spans["bkt_bin"])
	if p.CtlBinKey != "" {
		hdr.Field(p.CtlBinKey, doc.Quote(p.CtlBin, 200), p.Spans[p.CtlBinKey]).Detail = "the profile spells it ctl_bin, the roster ctrl_bin, the file is _ctrl.bin: the value is what counts"
	}
	hdr.Field("bkt_entry_cnt", itoa(p.BktEntryCnt), p.Spans["bkt_entry_cnt"]).Explain("%d × 32 B = %d B", p.BktEntryCnt, p.BktEntryCnt*BucketSize)
	hdr.Field("ctl_entry_cnt", itoa(p.CtlEntryCnt), p.Spans["ctl_entry_cnt"]).Explain("stride = ctrl file size / ctl_entry_cnt = %d B", s.CtrlStride)

	ft := &doc.Table{Columns: []string{"function", "func_id", "budget", "role", "LUT", "bkt block", "ctrl block", "octaves", "symmetry", "findings"}}
	for _, f := range s.Functions {
		role := "resident"
		if f.Hero() {
			role = "hero"
		}
		ft.Rows = append(ft.Rows, []string{f.Name, itoa(f.ID), itoa(f.Budget), role, itoa(f.LUTSize),
			fmt.Sprintf("%d..%d", f.BktStart, f.BktEnd-1), fmt.Sprintf("%d..%d", f.CtrlStart, f.CtrlEnd-1),
			itoa(len(f.Octaves)), f.Symmetry.Class(), itoa(len(f.Findings))})
		ft.RowSpans = append(ft.RowSpans, spanOrZero(f.Meta.Span))
	}
	fl := n.Add(&doc.Node{Kind: doc.KindGroup, Key: "functions", Label: "functions", Value: itoa(len(s.Functions)), Table: ft, Span: p.Spans["profile_meta_data"]})
	for _, f := range s.Functions {
		fl.Add(FunctionNode(f))
	}
	n.Add(bucketsNode(s), controlsNode(s))
	return n
}

func profileLen(p *Profile) int64 {
	if p.Root == nil {
		return 0
	}
	return p.Root.End
}

func bitsCell(f float32) string { return Hex8(math.Float32bits(f)) + " " + FormatFloat32(f) }

// The bucket and ctrl records of a set are a stub: the group carries its record
// count and a records:<blob> ref, and its record nodes and table rows are built on demand
// (BucketRecords, BucketRows, ControlRecords, ControlRows). Building the two tables of every
// set was a quarter of a small NEFF's open, for a view few users open.

func bucketsNode(s *Set) *doc.Node {
	n := &doc.Node{Kind: doc.KindGroup, Key: "bkt", Label: s.BktSource, Value: fmt.Sprintf("%d records × 32 B", len(s.Buckets)),
		Span: doc.In(s.BktSource, 0, int64(len(s.Buckets)*BucketSize)), Ref: doc.MemberRef(s.BktSource)}
	n.Detail = "polynomial buckets: f ≈ d0 + d1·t + d2·t² + d3·t³ with t = v − x; 12 zero bytes of padding"
	if len(s.Buckets) > 0 {
		n.Ref = doc.RecordsRef(s.BktSource)
		n.SetAttr(doc.AttrMore, itoa(len(s.Buckets)))
	}
	return n
}

// bucketOwners names, per bucket, the function (and saturation slot) that uses it.
func bucketOwners(s *Set) []string {
	owner := make([]string, len(s.Buckets))
	for _, f := range s.Functions {
		for i := max(0, f.BktStart); i < min(f.BktEnd, len(owner)); i++ {
			owner[i] = f.Name
		}
		for k, sl := range f.Slots {
			if sl >= 0 && sl < len(owner) {
				owner[sl] = f.Name + " " + slotNames[k]
			}
		}
	}
	return owner
}

// BucketColumns are the columns of BucketRows.
var BucketColumns = []string{"#", "d0", "d1", "d2", "d3", "x", "function"}

// BucketRows is rows [from, to) of a set's bucket table (clamped), each row's span its record.
func BucketRows(s *Set, from, to int) *doc.Table {
	from, to = clamp(from, to, len(s.Buckets))
	owner := bucketOwners(s)
	t := &doc.Table{Columns: BucketColumns, Rows: make([][]string, 0, to-from), RowSpans: make([]doc.Span, 0, to-from)}
	for i := from; i < to; i++ {
		b := s.Buckets[i]
		t.Rows = append(t.Rows, []string{itoa(i), bitsCell(b.D0), bitsCell(b.D1), bitsCell(b.D2), bitsCell(b.D3), bitsCell(b.X), owner[i]})
		t.RowSpans = append(t.RowSpans, *s.bktSpan(i))
	}
	return t
}

// BucketRecords is the record nodes [from, to) of a set's buckets (clamped): one node per
// record, so a byte of the blob belongs to its bucket (the smallest owner), not to the table.
func BucketRecords(s *Set, from, to int) []*doc.Node {
	from, to = clamp(from, to, len(s.Buckets))
	owner := bucketOwners(s)
	kids := make([]*doc.Node, 0, to-from)
	for i := from; i < to; i++ {
		c := &doc.Node{Kind: KindBucket, Key: itoa(i), Label: "bucket " + itoa(i), Span: s.bktSpan(i), Value: bucketText(s.Buckets[i])}
		c.SetAttr(doc.AttrBucket, itoa(i))
		if owner[i] != "" {
			c.Detail = "bucket record of " + owner[i]
		}
		kids = append(kids, c)
	}
	return kids
}

func clamp(from, to, n int) (int, int) {
	from = max(0, min(from, n))
	return from, max(from, min(to, n))
}

func controlsNode(s *Set) *doc.Node {
	n := &doc.Node{Kind: doc.KindGroup, Key: "ctrl", Label: s.CtrlSource, Value: fmt.Sprintf("%d words, stride %d B", len(s.Controls), s.CtrlStride),
		Span: doc.In(s.CtrlSource, 0, int64(len(s.Controls)*s.CtrlStride)), Ref: doc.MemberRef(s.CtrlSource)}
	n.Detail = "octave control words: bkt_base [10:0], extract_lsb [15:11], extract_size [23:16]"
	if len(s.Controls) > 0 {
		n.Ref = doc.RecordsRef(s.CtrlSource)
		n.SetAttr(doc.AttrMore, itoa(len(s.Controls)))
	}
	return n
}

// controlOwners names, per ctrl word, the function octave that uses it.
func controlOwners(s *Set) []string {
	owner := make([]string, len(s.Controls))
	for _, f := range s.Functions {
		for _, o := range f.Octaves {
			if o.CtrlIndex >= 0 && o.CtrlIndex < len(owner) {
				owner[o.CtrlIndex] = fmt.Sprintf("%s %s E%d", f.Name, o.Region, o.Exp)
			}
		}
	}
	return owner
}

// ControlColumns are the columns of ControlRows.
var ControlColumns = []string{"#", "word", "bkt_base", "extract_lsb", "extract_size", "function / octave"}

// ControlRows is rows [from, to) of a set's ctrl table (clamped), each row's span its word.
func ControlRows(s *Set, from, to int) *doc.Table {
	from, to = clamp(from, to, len(s.Controls))
	owner := controlOwners(s)
	t := &doc.Table{Columns: ControlColumns, Rows: make([][]string, 0, to-from), RowSpans: make([]doc.Span, 0, to-from)}
	for i := from; i < to; i++ {
		c := s.Controls[i]
		t.Rows = append(t.Rows, []string{itoa(i), "0x" + Hex8(c.Word), itoa(c.Base), itoa(c.ExtractLSB), itoa(c.Size), owner[i]})
		t.RowSpans = append(t.RowSpans, *s.ctrlSpan(i))
	}
	return t
}

// ControlRecords is the record nodes [from, to) of a set's ctrl words (clamped).
func ControlRecords(s *Set, from, to int) []*doc.Node {
	from, to = clamp(from, to, len(s.Controls))
	owner := controlOwners(s)
	kids := make([]*doc.Node, 0, to-from)
	for i := from; i < to; i++ {
		c := s.Controls[i]
		r := &doc.Node{Kind: doc.KindField, Key: itoa(i), Label: "ctrl " + itoa(i), Span: s.ctrlSpan(i),
			Value: "0x" + Hex8(c.Word) + ": bkt_base " + itoa(c.Base) + ", extract_lsb " + itoa(c.ExtractLSB) + ", extract_size " + itoa(c.Size)}
		if owner[i] != "" {
			r.Detail = "ctrl record of " + owner[i]
		}
		kids = append(kids, r)
	}
	return kids
}

// Blob is one of a set's record blobs (its buckets or its ctrl words), what a records:<blob>
// ref names: its records are built by range, as nodes or as table rows.
type Blob struct {
	Set *Set
	Bkt bool // the bucket blob, else the ctrl blob
}

// Len is how many records the blob has.
func (b Blob) Len() int {
	if b.Bkt {
		return len(b.Set.Buckets)
	}
	return len(b.Set.Controls)
}

// Nodes is the record nodes [from, to) (clamped).
func (b Blob) Nodes(from, to int) []*doc.Node {
	if b.Bkt {
		return BucketRecords(b.Set, from, to)
	}
	return ControlRecords(b.Set, from, to)
}

// Rows is the table rows [from, to) (clamped).
func (b Blob) Rows(from, to int) *doc.Table {
	if b.Bkt {
		return BucketRows(b.Set, from, to)
	}
	return ControlRows(b.Set, from, to)
}

// Records is the blob a records:<blob> ref of a bundle names, if member is a set's bucket or
// ctrl blob.
func (b *Bundle) Records(member string) (Blob, bool) {
	for _, s := range b.Sets {
		if s.BktSource == member && len(s.Buckets) > 0 {
			return Blob{s, true}, true
		}
		if s.CtrlSource == member && len(s.Controls) > 0 {
			return Blob{s, false}, true
		}
	}
	return Blob{}, false
}

// FunctionNode renders one function: the 30-field record, the octave table, the four
// saturation slots with their bucket records, symmetry and findings.
func FunctionNode(f *Function) *doc.Node {
	s := f.Set
	role := "resident (no LUT)"
	if f.Hero() {
		role = fmt.Sprintf("hero, %d LUT sections", f.LUTSize)
	}
	n := &doc.Node{Kind: KindFunction, Key: f.Name, Label: f.Name, Span: f.Meta.Span, Findings: f.Findings,
		Value: fmt.Sprintf("func_id %d, %s, %s", f.ID, role, f.Symmetry.Class())}
	n.Field("symmetry", f.Symmetry.Class(), f.Meta.Spans[FieldSymmetryEn]).Detail = f.Symmetry.Describe()
	if d, ok := f.Domain(); ok {
		lo, hi := d.Window()
		n.SetAttr(doc.AttrDomain, d.Attr()).SetAttr(doc.AttrWindow, Domain{Lo: lo, Hi: hi}.Attr())
		n.Field("domain", d.String(), nil).Detail = "the input range the table is meant to be right on (catalog, confidence " + d.Confidence + "): " + d.Evidence
	}
	n.Field("bkt block", fmt.Sprintf("%d..%d", f.BktStart, f.BktEnd-1), doc.In(s.BktSource, int64(f.BktStart*BucketSize), int64(max(0, f.BktEnd-f.BktStart)*BucketSize)))
	n.Field("ctrl block", fmt.Sprintf("%d..%d", f.CtrlStart, f.CtrlEnd-1), doc.In(s.CtrlSource, int64(f.CtrlStart*s.CtrlStride), int64(max(0, f.CtrlEnd-f.CtrlStart)*s.CtrlStride)))
	if f.Prelu {
		n.Field("evaluation", "v > 0 ? v : alpha·v", nil).Detail = "parametric_relu's slots hold operand selectors, not coefficients (spec §7.4)"
	}
	// The record's fields and the saturation slots' buckets are stubs, built on demand
	// (FunctionPart): they were most of every function's nodes, and of a small NEFF's document.
	rec := n.Add(&doc.Node{Kind: doc.KindGroup, Key: PartRecord, Label: "profile_meta_data", Value: fmt.Sprintf("[%d]", f.Meta.Index), Span: f.Meta.Span,
		Ref: doc.PWPPartRef(s.ProfilePath, f.Name, PartRecord)})
	rec.SetAttr(doc.AttrMore, itoa(len(ProfileFields)))
	n.Add(OctaveNode(f))
	n.Add(expMapNode(f))
	sat := n.Add(&doc.Node{Kind: doc.KindGroup, Key: PartSaturation, Label: "saturation slots", Value: fmt.Sprintf("bkt %d..%d", f.Slots[0], f.Slots[0]+3),
		Ref: doc.PWPPartRef(s.ProfilePath, f.Name, PartSaturation)})
	sat.SetAttr(doc.AttrMore, itoa(len(f.Slots)))
	return n
}

// The parts of a function's node built on demand (FunctionPart).
const (
	PartRecord     = "record"     // the 30 fields of its profile_meta_data record
	PartSaturation = "saturation" // its four saturation slots' bucket records
)

// FunctionPart builds the children of part of f's node (PartRecord, PartSaturation); ok is
// false for a part of no known name.
func FunctionPart(f *Function, part string) (kids []*doc.Node, ok bool) {
	switch part {
	case PartRecord:
		return recordFields(f), true
	case PartSaturation:
		s := f.Set
		for k, bi := range f.Slots {
			bn := BucketNode(s, bi)
			bn.Key, bn.Label = slotNames[k], slotNames[k]+" (bkt "+itoa(bi)+")"
			kids = append(kids, bn)
		}
		return kids, true
	}
	return nil, false
}

// recordFields is the fields of f's profile_meta_data record.
func recordFields(f *Function) []*doc.Node {
	rec := &doc.Node{}
	for i, pf := range ProfileFields {
		v := ""
		switch pf.kind {
		case kindString:
			v = doc.Quote(f.Meta.Name, 200)
		case kindBits:
			v = BitsText(f.Meta.Bits(i))
		case kindBool:
			v = strconv.FormatBool(f.Meta.Values[i] != 0)
		default:
			v = strconv.FormatInt(f.Meta.Values[i], 10)
		}
		if !f.Meta.Present[i] {
			v = "(missing)"
		}
		c := rec.Field(pf.Key, v, f.Meta.Spans[i])
		c.Detail = pf.Group + ": " + pf.Meaning
	}
	return rec.Children
}

// OctaveNode renders the octave table of a function.
func OctaveNode(f *Function) *doc.Node {
	s := f.Set
	t := &doc.Table{Columns: []string{"region", "E", "ctrl", "word", "bkt_base", "extract_lsb", "extract_size", "sections", "buckets", "|v| from"}}
	for _, o := range f.Octaves {
		c := o.Control
		buckets := "—"
		if o.Buckets > 0 {
			buckets = fmt.Sprintf("%d..%d", c.Base, c.Base+o.Buckets-1)
		}
		sections := itoa(o.Buckets)
		if o.Empty() {
			sections = "0 (empty sentinel)"
		}
		t.Rows = append(t.Rows, []string{o.Region.String(), itoa(o.Exp), itoa(o.CtrlIndex), "0x" + Hex8(c.Word), itoa(c.Base), itoa(c.ExtractLSB), itoa(c.Size), sections, buckets,
			strconv.FormatFloat(math.Ldexp(1, o.Exp), 'g', -1, 64)})
		t.RowSpans = append(t.RowSpans, *s.ctrlSpan(o.CtrlIndex))
	}
	return &doc.Node{Kind: KindOctaves, Key: "octaves", Label: "octaves", Value: fmt.Sprintf("%d declared (neg %d, pos %d)", len(f.Octaves), len(f.RegionOctaves(Neg)), len(f.RegionOctaves(Pos))), Table: t}
}

// BucketNode renders one bucket record with every coefficient as hex bits and float.
func BucketNode(s *Set, i int) *doc.Node {
	n := &doc.Node{Kind: KindBucket, Key: "bkt" + itoa(i), Label: "bucket " + itoa(i), Span: s.bktSpan(i)}
	if !s.HaveBkt {
		n.Value = "no bucket blob"
		return n // the missing blob is reported once, on the set
	}
	if i < 0 || i >= len(s.Buckets) {
		n.Value = "out of range"
		n.Errorf(doc.CodePwpBadLayout, n.Span, "bucket %d is outside the table of %d records", i, len(s.Buckets))
		return n
	}
	b := s.Buckets[i]
	for k, c := range []struct {
		name string
		v    float32
	}{{"d0", b.D0}, {"d1", b.D1}, {"d2", b.D2}, {"d3", b.D3}, {"x", b.X}} {
		n.Field(c.name, BitsText(math.Float32bits(c.v)), doc.In(s.BktSource, int64(i*BucketSize+4*k), 4))
	}
	n.Field("pad", "12 bytes", doc.In(s.BktSource, int64(i*BucketSize+bucketPayload), BucketSize-bucketPayload))
	n.Value = bucketText(b)
	return n
}

// bucketText is a bucket's polynomial in words.
func bucketText(b Bucket) string {
	return FormatFloat32(b.D0) + " + " + FormatFloat32(b.D1) + "·t + " + FormatFloat32(b.D2) + "·t² + " + FormatFloat32(b.D3) + "·t³, t = v − " + FormatFloat32(b.X)
}

// BundleNode renders everything OpenFiles found.
func BundleNode(b *Bundle) *doc.Node {
	n := &doc.Node{Kind: doc.KindPWPBundle, Label: "activation tables", Value: fmt.Sprintf("%d sets", len(b.Sets)), Findings: b.Findings}
	for _, dir := range sortedKeys(b.LoadOrders) { // map order would make the document differ per open
		order := b.LoadOrders[dir]
		n.Field("load order "+dir, strings.Join(order, ", "), nil).Detail = "activation_function_sets of the engine JSON: LoadActFuncSet index i loads the i-th"
	}
	for _, r := range b.Rosters {
		n.Add(RosterNode(r))
	}
	for _, s := range b.Sets {
		n.Add(SetNode(s))
	}
	return n
}

// TraceNode explains one evaluation (for an evaluate box): input, output, path and the bucket.
func TraceNode(f *Function, x, y float32, tr Trace) *doc.Node {
	n := &doc.Node{Kind: doc.KindPWPEval, Label: f.Name + "(" + FormatFloat32(x) + ")", Value: FormatFloat32(y) + " (0x" + Hex8(math.Float32bits(y)) + ")"}
	n.SetAttr(doc.AttrBits, Hex8(math.Float32bits(y)))
	n.Field("x", BitsText(math.Float32bits(x)), nil).SetAttr(doc.AttrFloat, FormatFloat32(x))
	n.Field("y", BitsText(math.Float32bits(y)), nil).SetAttr(doc.AttrFloat, FormatFloat32(y))
	path := n.Field("path", tr.String(), nil)
	if tr.Bucket >= 0 {
		path.SetAttr(doc.AttrBucket, strconv.Itoa(int(tr.Bucket)))
	}
	if tr.Err != nil {
		n.Errorf(doc.CodePwpEvalError, nil, "%v", tr.Err)
	}
	if tr.Ctrl >= 0 && int(tr.Ctrl) < len(f.Set.Controls) {
		n.Field("ctrl word", fmt.Sprintf("%d = 0x%s", tr.Ctrl, Hex8(f.Set.Controls[tr.Ctrl].Word)), f.Set.ctrlSpan(int(tr.Ctrl)))
	}
	if tr.Bucket >= 0 && int(tr.Bucket) < len(f.Set.Buckets) {
		n.Add(BucketNode(f.Set, int(tr.Bucket)))
	}
	return n
}

// PlotNode carries a sampled plot for the page: the five curves as Series, and a table of the
// vertical lines (octave / section starts) and shaded saturation intervals.
func PlotNode(f *Function, p *Plot) *doc.Node {
	n := &doc.Node{Kind: doc.KindPWPPlot, Key: "plot", Label: "plot of " + f.Name, Series: p.Series(),
		Value: fmt.Sprintf("%d points, %d boundaries, %d saturation intervals", len(p.Emulated.X), len(p.Boundaries), len(p.Saturation))}
	t := &doc.Table{Columns: []string{"kind", "from", "to", "label"}}
	for _, b := range p.Boundaries {
		x := strconv.FormatFloat(b.X, 'g', -1, 64)
		t.Rows = append(t.Rows, []string{b.Kind, x, x, b.Label})
	}
	for _, iv := range p.Saturation {
		t.Rows = append(t.Rows, []string{"saturation", strconv.FormatFloat(iv.Lo, 'g', -1, 64), strconv.FormatFloat(iv.Hi, 'g', -1, 64), iv.Slot})
	}
	n.Table = t
	if p.Failed > 0 {
		n.Warnf(doc.CodePwpEvalError, nil, "%d sample points could not be evaluated (table errors; see the function's findings)", p.Failed)
	}
	return n
}

// expMapNode shows the function's func_exp_to_ctl_start_idx / func_exp_to_bkt_start_idx
// members side by side: exponent → [neg, pos] indices.
func expMapNode(f *Function) *doc.Node {
	p := f.Set.Profile
	n := &doc.Node{Kind: doc.KindGroup, Key: "exp-maps", Label: "func_exp_to_*_start_idx"}
	var ctl, bkt *FuncExpMap
	for i := range p.FuncExpToCtl {
		if p.FuncExpToCtl[i].Name == f.Bare {
			ctl = &p.FuncExpToCtl[i]
		}
	}
	for i := range p.FuncExpToBkt {
		if p.FuncExpToBkt[i].Name == f.Bare {
			bkt = &p.FuncExpToBkt[i]
		}
	}
	if ctl == nil {
		n.Value = "absent"
		return n
	}
	n.Span = ctl.Span
	list := func(a []int) string {
		s := make([]string, len(a))
		for i, v := range a {
			s[i] = itoa(v)
		}
		return "[" + strings.Join(s, ", ") + "]"
	}
	t := &doc.Table{Columns: []string{"E", "ctl indices", "bkt bases"}}
	for i, e := range ctl.Entries {
		b := ""
		if bkt != nil && i < len(bkt.Entries) && bkt.Entries[i].Exp == e.Exp {
			b = list(bkt.Entries[i].Indices)
		}
		t.Rows = append(t.Rows, []string{itoa(e.Exp), list(e.Indices), b})
		t.RowSpans = append(t.RowSpans, spanOrZero(e.Span))
	}
	n.Value = fmt.Sprintf("%d exponents", len(ctl.Entries))
	n.Table = t
	return n
}
