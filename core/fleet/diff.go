package fleet

import (
	"encoding/hex"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/neffscope/neffscope/core/budget"
	"github.com/neffscope/neffscope/core/doc"
	"github.com/neffscope/neffscope/core/inspect"
	"github.com/neffscope/neffscope/core/jsonspan"
	"github.com/neffscope/neffscope/core/manifest"
	"github.com/neffscope/neffscope/core/neff"
)

// MaxJSONDifferences bounds how many path differences one JSON member reports, so two
// unrelated manifests never turn into millions of rows.
const MaxJSONDifferences = 2000

// MaxMemberDifferences and MaxMemberRows bound the members section: its change nodes and its
// side-by-side table (the counts in its Value stay whole).
const (
	MaxMemberDifferences = 2000
	MaxMemberRows        = 10000
)

// maxDiffValue bounds a string value shown in a difference (the bytes stay in each file).
const maxDiffValue = 200

// Kinds of the nodes a diff is made of. A change node has children "a" and/or "b" holding
// the value in each file.
const (
	DiffChanged   = "changed"
	DiffAdded     = "added" // only in b
	DiffRemoved   = "removed"
	diffIdentical = "identical"
)

// Diff compares two opened files side by side: the NEFF header field by field, members by
// SHA-256, changed JSON members path by path, instruction counts per engine stream, and the
// resolved model. Its sections are "source lines" and "source instructions" (what changed in
// the kernel, per line: diffsource.go), "header", "members", "instructions" and "model"; its Value
// is a one-line summary. Each section's children are the differences; its table lists every
// row of both files (header fields, members, streams, model facts), equal ones included, for a
// side-by-side view. Spans are left out: a difference is about two files at once.
// Findings say only what could not be compared.
func Diff(a, b *inspect.File) *doc.Node {
	root := &doc.Node{Kind: doc.KindDiff, Label: "diff", Detail: fmt.Sprintf("a: %s (%s) · b: %s (%s)", a.Name, neff.HumanSize(a.Size), b.Name, neff.HumanSize(b.Size))}
	if a.Archive == nil || b.Archive == nil {
		for _, f := range []*inspect.File{a, b} {
			if f.Archive == nil {
				root.Errorf(doc.CodeDiffNotNEFF, nil, "%s is not a NEFF (it opened as %s), so it cannot be compared member by member; diff compares two NEFFs.", f.Name, f.Doc.Kind)
			}
		}
		root.Value = "cannot compare: not two NEFFs"
		return root
	}
	header, headerChanged := diffHeader(&a.Archive.Header, &b.Archive.Header)
	members, counts := diffMembers(root, a, b, a.Budget.Limits())
	instr, streamsChanged := diffInstructions(a, b)
	model, modelChanged := diffModel(a.Program, b.Program)
	lines, words, linesChanged, firstLine := diffSource(a, b)
	if why := recompileNode(a, b); why != nil {
		root.Add(why)
	}
	// What changed in the kernel first, then the bytes.
	if lines != nil {
		root.Add(lines, words)
	}
	root.Add(header, members, instr, model)

	var parts []string
	if linesChanged > 0 {
		verb := "differ"
		if linesChanged == 1 {
			verb = "differs"
		}
		parts = append(parts, fmt.Sprintf("source: %s %s (first %s)", inspect.Plural(linesChanged, "kernel line"), verb, firstLine))
	}
	if counts[DiffChanged]+counts[DiffAdded]+counts[DiffRemoved] > 0 {
		parts = append(parts, fmt.Sprintf("%d members changed, %d added, %d removed", counts[DiffChanged], counts[DiffAdded], counts[DiffRemoved]))
	}
	if len(headerChanged) > 0 {
		parts = append(parts, "header: "+strings.Join(headerChanged, ", ")+" differ")
	}
	if streamsChanged > 0 {
		parts = append(parts, fmt.Sprintf("instructions: %d streams differ", streamsChanged))
	}
	if len(modelChanged) > 0 {
		parts = append(parts, "model: "+strings.Join(modelChanged, ", ")+" differ")
	}
	root.Value = diffIdentical
	if len(parts) > 0 {
		root.Value = strings.Join(parts, "; ")
	}
	return root
}

// DiffIdentical reports whether a Diff found no difference and nothing it could not compare.
func DiffIdentical(d *doc.Node) bool {
	if d == nil || d.Value != diffIdentical {
		return false
	}
	ok := true
	d.Walk(func(_ []string, n *doc.Node) bool {
		if len(n.Findings) > 0 {
			ok = false
		}
		return ok
	})
	return ok
}

// change makes a change node with the value in each file (a missing side is left out).
func change(kind, label, va, vb string, hasA, hasB bool) *doc.Node {
	n := &doc.Node{Kind: kind, Label: label}
	switch {
	case hasA && hasB:
		n.Value = va + " → " + vb
	case hasA:
		n.Value = va
	default:
		n.Value = vb
	}
	if label != "" && strings.Contains(label, "/") {
		n.Key = label
	}
	if hasA {
		n.Add(&doc.Node{Kind: doc.KindField, Label: "a", Value: va})
	}
	if hasB {
		n.Add(&doc.Node{Kind: doc.KindField, Label: "b", Value: vb})
	}
	return n
}

// ---- header ----

// headerValues lists the header fields of spec neff.md §1.1 by their official names, with the
// value as the info command shows it.
func headerValues(h *neff.Header) [][2]string {
	u := func(v uint64) string { return strconv.FormatUint(v, 10) }
	pad := "zero"
	for _, c := range h.Pad() {
		if c != 0 {
			pad = hex.EncodeToString(h.Pad())
			break
		}
	}
	tpb := make([]string, 0, 8)
	last := 0
	for i, c := range h.TPBPerNode {
		if c != 0 {
			last = i + 1
		}
	}
	for _, c := range h.TPBPerNode[:max(last, 1)] {
		tpb = append(tpb, strconv.Itoa(int(c)))
	}
	return [][2]string{
		{"pkg_version", u(h.PkgVersion)},
		{"header_size", u(h.HeaderSize)},
		{"data_size", u(h.DataSize)},
		{"neff_version_major", u(h.NeffVersionMajor)},
		{"neff_version_minor", u(h.NeffVersionMinor)},
		{"neff_build_version", doc.Quote(h.NeffBuildVersion, maxDiffValue)},
		{"num_tpb", u(uint64(h.NumTPB))},
		{"hash", h.StoredDigest()},
		{"uuid", h.UUIDString()},
		{"name", doc.Quote(h.Name, maxDiffValue)},
		{"requested_tpb_count", u(uint64(h.RequestedTPBCount))},
		{"tpb_per_node", "[" + strings.Join(tpb, ", ") + "]"},
		{"feature_bits", fmt.Sprintf("0x%x", h.FeatureBits)},
		{"lnc_size", u(uint64(h.LNCSize))},
		{"pad", pad},
	}
}

func diffHeader(ha, hb *neff.Header) (*doc.Node, []string) {
	n := &doc.Node{Kind: doc.KindDiffSection, Label: "header"}
	va, vb := headerValues(ha), headerValues(hb)
	changed := sideBySide(n, "field", va, vb)
	equal := len(va) - len(changed)
	n.Value = fmt.Sprintf("%d fields differ, %d equal", len(changed), equal)
	return n, changed
}

// sideBySide adds a change node to n for each named value that differs, and gives n a table
// of every value in both files (change "changed" or "" when equal), so a side-by-side view can
// show the equal rows too. It returns the names that differ.
func sideBySide(n *doc.Node, what string, va, vb [][2]string) []string {
	n.Table = &doc.Table{Columns: []string{what, "a", "b", "change"}}
	var changed []string
	for i := range va {
		mark := ""
		if va[i][1] != vb[i][1] {
			mark = DiffChanged
			changed = append(changed, va[i][0])
			n.Add(change(DiffChanged, va[i][0], va[i][1], vb[i][1], true, true))
		}
		n.Table.Rows = append(n.Table.Rows, []string{va[i][0], va[i][1], vb[i][1], mark})
	}
	return changed
}

// ---- members ----

// limitWhat is what a limit counts, for the diff's own finding.
func limitWhat(k budget.Kind) string {
	switch k {
	case budget.Values:
		return "JSON values indexed"
	case budget.Memory:
		return "bytes held in memory"
	}
	return k.String()
}

func diffMembers(root *doc.Node, fa, fb *inspect.File, lim budget.Limits) (*doc.Node, map[string]int) {
	a, b := fa.Archive, fb.Archive
	n := &doc.Node{Kind: doc.KindDiffSection, Label: "members"}
	n.Table = &doc.Table{Columns: []string{"change", "path", "size a", "size b", "sha256 a", "sha256 b"}}
	counts := map[string]int{}
	seen := map[string]bool{}
	var paths []string
	for _, ar := range []*neff.Archive{a, b} {
		for _, m := range ar.Members {
			if !seen[m.Path] {
				seen[m.Path] = true
				paths = append(paths, m.Path)
			}
		}
	}
	size := func(m *neff.Member) string { return strconv.FormatInt(m.Size, 10) }
	// Past the caps a member is counted, not listed: 200,000 changed members made 62 MB of
	// JSON and half a GiB of nodes.
	row := func(r ...string) {
		if len(n.Table.Rows) < MaxMemberRows {
			n.Table.Rows = append(n.Table.Rows, r)
		}
	}
	listed := 0
	add := func(c *doc.Node) *doc.Node {
		listed++
		if listed > MaxMemberDifferences {
			return &doc.Node{} // counted, not kept
		}
		return n.Add(c)
	}
	for _, p := range paths {
		ma, mb := a.Member(p), b.Member(p)
		switch {
		case mb == nil:
			counts[DiffRemoved]++
			row(DiffRemoved, p, size(ma), "", ma.SHA256, "")
			add(change(DiffRemoved, p, neff.HumanSize(ma.Size), "", true, false)).Key = p
		case ma == nil:
			counts[DiffAdded]++
			row(DiffAdded, p, "", size(mb), "", mb.SHA256)
			add(change(DiffAdded, p, "", neff.HumanSize(mb.Size), false, true)).Key = p
		case ma.Truncated || mb.Truncated || ma.SHA256 == "" || mb.SHA256 == "":
			counts[DiffChanged]++
			row(DiffChanged, p, size(ma), size(mb), ma.SHA256, mb.SHA256)
			c := add(change(DiffChanged, p, neff.HumanSize(ma.Size), neff.HumanSize(mb.Size), true, true))
			c.Key = p
			c.Warnf(doc.CodeDiffMemberTruncated, nil, "member %s is cut short in one of the files (the archive ended before its last byte), so its bytes cannot be compared; it is counted as changed.", p)
		case ma.SHA256 != mb.SHA256:
			counts[DiffChanged]++
			row(DiffChanged, p, size(ma), size(mb), ma.SHA256, mb.SHA256)
			c := add(change(DiffChanged, p, neff.HumanSize(ma.Size), neff.HumanSize(mb.Size), true, true))
			c.Key = p
			if inspect.IsJSONName(p) && listed <= MaxMemberDifferences {
				diffJSONMember(c, fa, fb, ma, mb, lim)
			}
		default:
			counts[diffIdentical]++
			// Equal members are rows of the table (change "") but not change nodes.
			row("", p, size(ma), size(mb), ma.SHA256, mb.SHA256)
		}
	}
	n.Value = fmt.Sprintf("%d changed, %d added, %d removed, %d unchanged", counts[DiffChanged], counts[DiffAdded], counts[DiffRemoved], counts[diffIdentical])
	if listed > MaxMemberDifferences || len(paths) > MaxMemberRows {
		n.Infof(doc.CodeDiffListCut, nil, "%d members differ and %d are in the files; only the first %d differences and %d rows are listed (the counts are whole). Compare a member's SHA-256 with neffscope info --members.",
			listed, len(paths), min(listed, MaxMemberDifferences), min(len(paths), MaxMemberRows))
		n.SetAttr(doc.AttrViewLimit, fmt.Sprintf("the first %d of %d member differences", min(listed, MaxMemberDifferences), listed))
	}
	return n, counts
}

// diffJSONMember adds one child per JSON path that differs between the two versions of a member.
// Both versions are parsed under one budget with the open's limits (lim), so two big members
// cost what one open may spend, not gigabytes (two 60 MiB [0,0,…] members took 2.4 GB and
// more); past a limit the member is compared by SHA-256 only and a finding says which limit.
func diffJSONMember(n *doc.Node, fa, fb *inspect.File, ma, mb *neff.Member, lim budget.Limits) {
	bud := fa.Budget.Parent().Within(lim) // the diff's own limits, within the command's budget
	defer bud.Done()
	// The two versions' bytes are held while they are compared: charged before they are read.
	if !bud.Take(budget.Memory, ma.Size+mb.Size, "diff of "+ma.Path) {
		warnTooBig(n, ma.Path, bud.First())
		return
	}
	da, errA := fa.MemberBytes(ma.Path, manifest.MaxJSONMember)
	db, errB := fb.MemberBytes(mb.Path, manifest.MaxJSONMember)
	if err := errors.Join(errA, errB); err != nil {
		n.Infof(doc.CodeDiffByHash, nil, "JSON member %s is compared by SHA-256 only: %v.", ma.Path, err)
		return
	}
	diffJSONWithin(n, ma.Path, da, db, bud)
}

// diffJSON lists the JSON paths whose values differ between two versions a and b of member p.
func diffJSON(n *doc.Node, p string, a, b []byte, lim budget.Limits) {
	diffJSONWithin(n, p, a, b, budget.New(lim))
}

// diffJSONWithin is diffJSON under the budget bud: both parses and the key indexes of the walk.
func diffJSONWithin(n *doc.Node, p string, a, b []byte, bud *budget.Budget) {
	// Each version's parse may spend a share of the memory left, so the parse's own working
	// space (which the per-value charge does not cover) stays inside the limit too.
	share := bud.Left(budget.Memory) / jsonParseShares
	va, errA := jsonspan.ParseWith(a, jsonspan.Options{Budget: bud, Where: "a: " + p, MaxMemory: share})
	var vb *jsonspan.Value
	var errB error
	if errA == nil {
		vb, errB = jsonspan.ParseWith(b, jsonspan.Options{Budget: bud, Where: "b: " + p, MaxMemory: share})
	}
	if e := bud.First(); e != nil {
		warnTooBig(n, p, e)
		return
	}
	if errA != nil || errB != nil || va == nil || vb == nil {
		err := errA
		if err == nil {
			err = errB
		}
		n.Infof(doc.CodeDiffByHash, nil, "JSON member %s does not parse in one of the files (%v), so it is compared by SHA-256 only.", p, err)
		return
	}
	d := &jsonDiffer{out: n, bud: bud, where: "diff of " + p}
	d.walk("", va, vb)
	if e := bud.First(); e != nil {
		n.Warnf(e.Kind.Code(), nil, "JSON member %s is compared value by value only in part: its key indexes need more than the %s limit allows (%s %s, reached at %s); the objects past it are compared by their item counts only. If the files are trusted, raise it: neffscope diff %s N.",
			p, e.Kind, budget.Human(e.Kind, e.Limit), limitWhat(e.Kind), e.Where, e.Kind.Flag())
	}
	n.Detail = "1 JSON path differs"
	if d.found != 1 {
		n.Detail = fmt.Sprintf("%d JSON paths differ", d.found)
	}
	if d.found > MaxJSONDifferences {
		n.Detail = fmt.Sprintf("%d JSON paths differ; the first %d are listed", d.found, MaxJSONDifferences)
		n.SetAttr(doc.AttrViewLimit, n.Detail)
	}
}

// jsonParseShares: each of the two parses of a JSON diff spends at most this fraction of the
// memory left; the rest is the parses' working space (their item stacks) and the walk's indexes.
const jsonParseShares = 4

// warnTooBig says a JSON member is compared by SHA-256 only because limit e was reached.
func warnTooBig(n *doc.Node, p string, e *budget.Exceeded) {
	n.Warnf(e.Kind.Code(), nil, "JSON member %s is too big to compare value by value: the two versions need more than the %s limit allows (%s %s, reached at %s), so it is compared by SHA-256 only. If the files are trusted, raise it: neffscope diff %s N.",
		p, e.Kind, budget.Human(e.Kind, e.Limit), limitWhat(e.Kind), e.Where, e.Kind.Flag())
}

type jsonDiffer struct {
	out   *doc.Node
	found int
	bud   *budget.Budget
	where string
}

// keyIndexOver is the object size past which the walk looks keys up in an index, not by
// scanning the keys (an object of 100,000 keys took minutes).
const keyIndexOver = 16

// keyIndexCost is what an index entry costs, about (the key's header and the map's slot).
const keyIndexCost = 64

// keyIndex maps each key of object v to its last item (as Value.Get finds it); nil for a small
// object, or when the budget refuses it.
func (d *jsonDiffer) keyIndex(v *jsonspan.Value) (map[string]*jsonspan.Value, bool) {
	if len(v.Keys) <= keyIndexOver {
		return nil, true
	}
	if !d.bud.Take(budget.Memory, int64(len(v.Keys))*keyIndexCost, d.where) {
		return nil, false
	}
	m := make(map[string]*jsonspan.Value, len(v.Keys))
	for i, k := range v.Keys {
		m[k] = v.Items[i]
	}
	return m, true
}

func (d *jsonDiffer) report(kind, path, va, vb string, hasA, hasB bool) {
	d.found++
	if d.found > MaxJSONDifferences {
		return
	}
	c := change(kind, path, va, vb, hasA, hasB)
	c.Key = path
	d.out.Add(c)
}

func joinPath(base, seg string) string {
	if base == "" {
		return seg
	}
	return base + "/" + seg
}

// walk compares two values at a path. Object members match by key (first occurrence), array
// items by index.
func (d *jsonDiffer) walk(path string, a, b *jsonspan.Value) {
	if a.Kind != b.Kind || (a.Kind != jsonspan.Object && a.Kind != jsonspan.Array) {
		if a.Kind != b.Kind || jsonLeaf(a) != jsonLeaf(b) {
			d.report(DiffChanged, path, jsonLeaf(a), jsonLeaf(b), true, true)
		}
		return
	}
	if a.Kind == jsonspan.Array {
		for i := range max(len(a.Items), len(b.Items)) {
			p := joinPath(path, strconv.Itoa(i))
			switch {
			case i >= len(b.Items):
				d.report(DiffRemoved, p, jsonLeaf(a.Items[i]), "", true, false)
			case i >= len(a.Items):
				d.report(DiffAdded, p, "", jsonLeaf(b.Items[i]), false, true)
			default:
				d.walk(p, a.Items[i], b.Items[i])
			}
		}
		return
	}
	ia, okA := d.keyIndex(a)
	ib, okB := d.keyIndex(b)
	if !okA || !okB {
		if jsonLeaf(a) != jsonLeaf(b) {
			d.report(DiffChanged, path, jsonLeaf(a), jsonLeaf(b), true, true)
		}
		return
	}
	get := func(v *jsonspan.Value, index map[string]*jsonspan.Value, k string) *jsonspan.Value {
		if index != nil {
			return index[k]
		}
		return v.Get(k)
	}
	// A key is done once its last item has been compared (a repeated key's value is its last).
	done := func(v *jsonspan.Value, index map[string]*jsonspan.Value, i int) bool {
		return get(v, index, v.Keys[i]) != v.Items[i]
	}
	for i, k := range a.Keys {
		if done(a, ia, i) {
			continue
		}
		p := joinPath(path, k)
		if vb := get(b, ib, k); vb == nil {
			d.report(DiffRemoved, p, jsonLeaf(a.Items[i]), "", true, false)
		} else {
			d.walk(p, a.Items[i], vb)
		}
	}
	for i, k := range b.Keys {
		if done(b, ib, i) || get(a, ia, k) != nil {
			continue
		}
		d.report(DiffAdded, joinPath(path, k), "", jsonLeaf(b.Items[i]), false, true)
	}
	if ia != nil {
		d.bud.Release(budget.Memory, int64(len(a.Keys))*keyIndexCost)
	}
	if ib != nil {
		d.bud.Release(budget.Memory, int64(len(b.Keys))*keyIndexCost)
	}
}

// jsonLeaf renders a value as the tree shows it: strings quoted, containers as {n} / [n].
func jsonLeaf(v *jsonspan.Value) string {
	switch v.Kind {
	case jsonspan.Object:
		return fmt.Sprintf("{%d}", len(v.Items))
	case jsonspan.Array:
		return fmt.Sprintf("[%d]", len(v.Items))
	case jsonspan.String:
		return doc.Quote(v.Str, maxDiffValue)
	case jsonspan.Bool:
		return strconv.FormatBool(v.Bool)
	case jsonspan.Null:
		return "null"
	}
	return v.Str
}

// ---- instructions ----

type streamCounts struct {
	core, engine string
	count        int64
	ops          map[string]int // opcode name (or hex) → count; nil when the bytes are not held
}

func programCounts(p *inspect.Program) map[string]*streamCounts {
	out := map[string]*streamCounts{}
	if p == nil {
		return out
	}
	for _, s := range p.Streams {
		sc := &streamCounts{core: s.Core.Name, engine: s.Engine.Name, count: s.Count}
		if s.ISA != nil {
			sc.count = int64(s.ISA.Len())
			sc.ops = map[string]int{}
			for _, oc := range s.ISA.Counts() {
				sc.ops[fmt.Sprintf("0x%02x %s", oc.Opcode, oc.Name)] = oc.Count
			}
		}
		out[s.Member] = sc
	}
	return out
}

func diffInstructions(fa, fb *inspect.File) (*doc.Node, int) {
	pa, pb := fa.Program, fb.Program
	n := &doc.Node{Kind: doc.KindDiffSection, Label: "instructions"}
	n.Table = &doc.Table{Columns: []string{"stream", "core", "engine", "count a", "count b", "change"}}
	ca, cb := programCounts(pa), programCounts(pb)
	var members []string
	for m := range ca {
		members = append(members, m)
	}
	for m := range cb {
		if ca[m] == nil {
			members = append(members, m)
		}
	}
	sort.Strings(members)
	differ := 0
	for _, m := range members {
		sa, sb := ca[m], cb[m]
		row := []string{m, "", "", "", "", ""}
		var c *doc.Node
		switch {
		case sb == nil:
			row[1], row[2], row[3], row[5] = sa.core, sa.engine, strconv.FormatInt(sa.count, 10), DiffRemoved
			c = change(DiffRemoved, m, strconv.FormatInt(sa.count, 10), "", true, false)
		case sa == nil:
			row[1], row[2], row[4], row[5] = sb.core, sb.engine, strconv.FormatInt(sb.count, 10), DiffAdded
			c = change(DiffAdded, m, "", strconv.FormatInt(sb.count, 10), false, true)
		default:
			row[1], row[2], row[3], row[4] = sa.core, sa.engine, strconv.FormatInt(sa.count, 10), strconv.FormatInt(sb.count, 10)
			ops := opDifferences(sa.ops, sb.ops)
			if sa.count != sb.count || len(ops.Rows) > 0 {
				row[5] = DiffChanged
				c = change(DiffChanged, m, strconv.FormatInt(sa.count, 10), strconv.FormatInt(sb.count, 10), true, true)
				if len(ops.Rows) > 0 {
					c.Table = ops
				}
			} else if ma, mb := fa.Archive.Member(m), fb.Archive.Member(m); ma != nil && mb != nil && ma.SHA256 != mb.SHA256 {
				// Same opcodes, other operands: the member list shows it changed; say so here too.
				row[5] = "operands"
			}
		}
		n.Table.Rows = append(n.Table.Rows, row)
		if c != nil {
			differ++
			c.Key = m
			c.Detail = "instructions (64-byte words)"
			n.Add(c)
		}
	}
	n.Value = fmt.Sprintf("%d of %d streams differ", differ, len(members))
	return n, differ
}

// opDifferences is a table of the opcodes whose counts differ (nil maps: nothing to compare).
func opDifferences(a, b map[string]int) *doc.Table {
	t := &doc.Table{Columns: []string{"opcode", "count a", "count b", "delta"}}
	if a == nil || b == nil {
		return t
	}
	for _, k := range unionKeys(a, b) {
		if a[k] != b[k] {
			t.Rows = append(t.Rows, []string{k, strconv.Itoa(a[k]), strconv.Itoa(b[k]), fmt.Sprintf("%+d", b[k]-a[k])})
		}
	}
	return t
}

// ---- model ----

func tensorList(ts []*manifest.Tensor) string {
	parts := make([]string, 0, len(ts))
	for _, t := range ts {
		parts = append(parts, fmt.Sprintf("%s %s%s", t.Name, t.DType, shapeText(t.Shape)))
	}
	return strings.Join(parts, ", ")
}

func signatureList(ts []*manifest.SignatureTensor) string {
	parts := make([]string, 0, len(ts))
	for _, t := range ts {
		parts = append(parts, fmt.Sprintf("%s %s%s", t.Name, t.DType, shapeText(t.Shape)))
	}
	return strings.Join(parts, ", ")
}

func shapeText(s []int64) string {
	parts := make([]string, len(s))
	for i, d := range s {
		parts[i] = strconv.FormatInt(d, 10)
	}
	return "[" + strings.Join(parts, ",") + "]"
}

// modelValues are the model facts compared, in display order.
func modelValues(p *inspect.Program) [][2]string {
	if p == nil || p.Model == nil {
		return nil
	}
	m := p.Model
	var sigIn, sigOut string
	if m.Signature != nil {
		sigIn, sigOut = signatureList(m.Signature.Inputs), signatureList(m.Signature.Outputs)
	}
	cores := make([]string, 0, len(m.Cores))
	for _, c := range m.Cores {
		cores = append(cores, c.Name)
	}
	return [][2]string{
		{"target", m.Target},
		{"arch", m.ArchName},
		{"cores", strings.Join(cores, ", ")},
		{"inputs", tensorList(m.Inputs)},
		{"outputs", tensorList(m.Outputs)},
		{"signature inputs", sigIn},
		{"signature outputs", sigOut},
		{"features", strings.Join(m.FeatureNames, ", ")},
		{"activation sets", strings.Join(m.ActivationSetsUsed, ", ")},
	}
}

func diffModel(pa, pb *inspect.Program) (*doc.Node, []string) {
	n := &doc.Node{Kind: doc.KindDiffSection, Label: "model"}
	va, vb := modelValues(pa), modelValues(pb)
	if va == nil || vb == nil {
		n.Value = "no model to compare"
		if (va == nil) != (vb == nil) {
			n.Infof(doc.CodeDiffNoModel, nil, "only one of the files has a resolvable program (manifests), so the models are not compared.")
		}
		return n, nil
	}
	changed := sideBySide(n, "fact", va, vb)
	n.Value = fmt.Sprintf("%d facts differ, %d equal", len(changed), len(va)-len(changed))
	return n, changed
}

// recompileNode explains two compile-cache entries before what changed inside them: same graph
// with other flags, same flags with another graph, another compiler. Each reason is
// a child; nil when neither file is a cache entry nor the compilers differ.
func recompileNode(a, b *inspect.File) *doc.Node {
	ka, wa, okA := CacheKeyOf(a)
	kb, wb, okB := CacheKeyOf(b)
	ca, cb := compilerOf(a, ka), compilerOf(b, kb)
	reasons := CacheExplanation(ka, kb, okA, okB, ca, cb)
	if len(reasons) == 0 {
		return nil
	}
	n := &doc.Node{Kind: doc.KindDiffSection, Key: "recompile", Label: "why it recompiled", Value: reasons[0]}
	n.Table = &doc.Table{Columns: []string{"", "a", "b"}}
	key := func(k CacheKey, ok bool, where string) string {
		if !ok {
			return "—"
		}
		s := k.Module + "+" + k.FlagsHash
		if name := FlagsName(k.FlagsHash); name != "" {
			s += " (" + name + ")"
		}
		return s + " from the " + where
	}
	n.Table.Rows = [][]string{
		{"cache key", key(ka, okA, wa), key(kb, okB, wb)},
		{"compiler", ca, cb},
	}
	for i, r := range reasons {
		n.Add(&doc.Node{Kind: doc.KindReason, Label: strconv.Itoa(i + 1), Value: r})
	}
	return n
}

// compilerOf is info.json tool_version, else the cache directory's neuronxcc version.
func compilerOf(f *inspect.File, k CacheKey) string {
	if f.Program != nil && f.Program.Model.Info != nil && f.Program.Model.Info.ToolVersion != "" {
		return f.Program.Model.Info.ToolVersion
	}
	return k.Compiler
}

// unionKeys is the keys of a and b, each once, sorted.
func unionKeys[A, B any](a map[string]A, b map[string]B) []string {
	keys := make([]string, 0, len(a)+len(b))
	for k := range a {
		keys = append(keys, k)
	}
	for k := range b {
		if _, ok := a[k]; !ok {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	return keys
}
