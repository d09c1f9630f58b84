package fleet

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/neffscope/neffscope/core/budget"
	"github.com/neffscope/neffscope/core/doc"
	"github.com/neffscope/neffscope/core/inspect"
	"github.com/neffscope/neffscope/core/neff/neffbuild"
	"github.com/neffscope/neffscope/internal/realfiles"
	"github.com/neffscope/neffscope/internal/repack"
)

func openBytes(name string, b []byte) *inspect.File {
	return inspect.Open(name, bytes.NewReader(b), int64(len(b)), inspect.Options{})
}

// modifiedSample is neffbuild.Sample with one JSON value changed, a member added, a member
// removed and PE.bin's third word turned from 0xcc into 0xb1.
func modifiedSample() []neffbuild.Member {
	var out []neffbuild.Member
	for _, m := range neffbuild.Sample() {
		switch m.Path {
		case "sg00/tensor_map.json":
			continue
		case "sg00/def.json":
			m.Data = bytes.Replace(m.Data, []byte(`"ops": [], "size": 64, "type": "input"`), []byte(`"ops": [], "size": 128, "type": "input"`), 1)
		case "sg00/PE.bin":
			d := bytes.Clone(m.Data)
			d[128] = 0xb1
			m.Data = d
		}
		out = append(out, m)
	}
	return append(out, neffbuild.Member{Path: "notes.txt", Data: []byte("added\n")})
}

func labels(ns []*doc.Node) []string {
	var out []string
	for _, n := range ns {
		out = append(out, n.Kind+" "+n.Label)
	}
	return out
}

func TestDiffWithItselfIsEmpty(t *testing.T) {
	b := neffbuild.Bytes(neffbuild.Sample(), neffbuild.Options{})
	d := Diff(openBytes("a.neff", b), openBytes("b.neff", b))
	if !DiffIdentical(d) || d.Value != "identical" {
		t.Fatalf("diff of a NEFF with itself: %q", d.Value)
	}
	for _, s := range []string{"header", "members", "instructions", "model"} {
		if n := d.Child(s); n == nil || len(n.Children) != 0 {
			t.Errorf("section %s: %+v", s, n)
		}
	}
	if got := d.Child("members").Value; got != "0 changed, 0 added, 0 removed, 16 unchanged" {
		t.Errorf("members: %q", got)
	}
	if got := d.Child("header").Value; got != "0 fields differ, 15 equal" {
		t.Errorf("header: %q", got)
	}
}

func TestDiffGeneratedChanges(t *testing.T) {
	a := neffbuild.Bytes(neffbuild.Sample(), neffbuild.Options{})
	uuid := [16]byte{0xaa, 0xbb, 0xcc, 0xdd, 1, 2, 0x43, 4, 0x85, 6, 7, 8, 9, 10, 11, 12}
	b := neffbuild.Bytes(modifiedSample(), neffbuild.Options{UUID: uuid})
	d := Diff(openBytes("a.neff", a), openBytes("b.neff", b))
	if DiffIdentical(d) {
		t.Fatal("different NEFFs reported identical")
	}
	want := "2 members changed, 1 added, 1 removed; header: hash, uuid differ; instructions: 1 streams differ"
	if d.Value != want {
		t.Errorf("summary\n got %q\nwant %q", d.Value, want)
	}
	if got := strings.Join(labels(d.Child("header").Children), "|"); got != "changed hash|changed uuid" {
		t.Errorf("header changes: %s", got)
	}
	if u := d.Find("header", "uuid", "b"); u == nil || u.Value != "aabbccdd-0102-4304-8506-0708090a0b0c" {
		t.Errorf("uuid b: %+v", u)
	}
	if u := d.Find("header", "uuid", "a"); u == nil || u.Value != "12345678-9abc-4def-8123-456789abcdef" {
		t.Errorf("uuid a: %+v", u)
	}
	members := d.Child("members")
	if got := strings.Join(labels(members.Children), "|"); got != "changed sg00/def.json|removed sg00/tensor_map.json|changed sg00/PE.bin|added notes.txt" {
		t.Errorf("member changes: %s", got)
	}
	var changedRows [][]string
	for _, r := range members.Table.Rows {
		if r[0] != "" {
			changedRows = append(changedRows, r)
		}
	}
	if len(changedRows) != 4 || changedRows[3][0] != "added" || changedRows[3][3] != "6" || changedRows[3][4] != "" {
		t.Errorf("members table: %v", members.Table.Rows)
	}
	// Every member is a row: the 13 equal ones too, with both sizes and hashes.
	if members.Value != "2 changed, 1 added, 1 removed, 13 unchanged" || len(members.Table.Rows) != 4+13 {
		t.Errorf("members %q: %d table rows, want 17 (4 differences, 13 equal)", members.Value, len(members.Table.Rows))
	}
	for _, r := range members.Table.Rows {
		if r[0] == "" && (r[4] == "" || r[4] != r[5] || r[2] != r[3]) {
			t.Errorf("equal member row %v", r)
		}
	}
	h := d.Child("header").Table
	if h == nil || len(h.Rows) != 15 || h.Rows[7][0] != "hash" || h.Rows[7][3] != "changed" || h.Rows[0][0] != "pkg_version" || h.Rows[0][3] != "" || h.Rows[0][1] != h.Rows[0][2] {
		t.Errorf("header table: %v", h)
	}
	def := members.Child("sg00/def.json")
	paths := def.Children[2:] // after the "a" and "b" values
	if len(paths) != 1 || paths[0].Label != "var/input0/size" || paths[0].Find("a").Value != "64" || paths[0].Find("b").Value != "128" {
		t.Errorf("def.json paths: %v", labels(paths))
	}
	pe := d.Find("instructions", "sg00/PE.bin")
	if pe == nil || pe.Value != "3 → 3" || pe.Table == nil {
		t.Fatalf("PE stream: %+v", pe)
	}
	if got := fmt.Sprint(pe.Table.Rows); got != "[[0xb1 SetOrderingMode 1 2 +1] [0xcc PseudoBranchLabel 2 1 -1]]" {
		t.Errorf("PE opcodes: %s", got)
	}
	if len(pe.Table.Rows) != 2 || pe.Table.Rows[0][1] != "1" || pe.Table.Rows[0][2] != "2" || pe.Table.Rows[1][3] != "-1" {
		t.Errorf("PE opcode rows: %v", pe.Table.Rows)
	}
	if n := len(d.Child("model").Children); n != 0 {
		t.Errorf("model differences: %v", labels(d.Child("model").Children))
	}
}

func TestDiffJSONCap(t *testing.T) {
	list := func(v int) []byte {
		var s strings.Builder
		s.WriteString("[")
		for i := range 2500 {
			if i > 0 {
				s.WriteString(",")
			}
			fmt.Fprintf(&s, "%d", v+i)
		}
		s.WriteString("]")
		return []byte(s.String())
	}
	a := neffbuild.Bytes([]neffbuild.Member{{Path: "x.json", Data: list(0)}}, neffbuild.Options{})
	b := neffbuild.Bytes([]neffbuild.Member{{Path: "x.json", Data: list(1)}}, neffbuild.Options{})
	d := Diff(openBytes("a.neff", a), openBytes("b.neff", b))
	x := d.Find("members", "x.json")
	// The cap is a limit of the diff's view: said on the node (view_limit), not a finding.
	if x == nil || len(x.Children) != 2+MaxJSONDifferences || len(x.Findings) != 0 || x.Attrs[doc.AttrViewLimit] == "" {
		t.Fatalf("capped member: %d children, findings %v, attrs %v", len(x.Children), x.Findings, x.Attrs)
	}
	if x.Detail != "2500 JSON paths differ; the first 2000 are listed" || x.Children[2].Label != "0" {
		t.Errorf("detail %q, first %q", x.Detail, x.Children[2].Label)
	}
}

func TestDiffNotNEFF(t *testing.T) {
	a := neffbuild.Bytes(neffbuild.Sample(), neffbuild.Options{})
	d := Diff(openBytes("a.neff", a), openBytes("b.json", []byte(`{"x": 1}`)))
	if DiffIdentical(d) || len(d.Findings) != 1 || d.Findings[0].Severity != doc.Error || d.Findings[0].Code != doc.CodeDiffNotNEFF {
		t.Errorf("findings: %v", d.Findings)
	}
}

// openRealBytes reads a real NEFF (internal/realfiles finds it) whole.
func openRealBytes(t testing.TB, rel string) *inspect.File {
	return openBytes(rel, realfiles.Read(t, rel))
}

// repackedMatmul is matmul_small repacked with its header's identity kept: sg00/def.json with
// one value changed, sg01/SP.bin one word longer, hlo_stats.json removed and notes.json added.
func repackedMatmul(t testing.TB, src []byte) []byte {
	t.Helper()
	return repack.NEFF(src, func(path string, data []byte) ([]byte, bool) {
		switch path {
		case "hlo_stats.json":
			return nil, false
		case "sg00/def.json":
			return bytes.Replace(data, []byte(`"#rank_world_size": 0`), []byte(`"#rank_world_size": 2`), 1), true
		case "sg01/SP.bin":
			return append(bytes.Clone(data), data[:64]...), true
		}
		return data, true
	}, neffbuild.Member{Path: "notes.json", Data: []byte(`{"by": "repackedMatmul"}`)})
}

// A real NEFF against a repacked copy of itself with one member changed, one added, one removed.
func TestDiffRealRepacked(t *testing.T) {
	src := realfiles.Read(t, "nkipy/matmul_small.neff")
	a, b := openBytes("matmul_small.neff", src), openBytes("repacked.neff", repackedMatmul(t, src))
	n := len(a.Archive.Members)
	d := Diff(a, b)
	if got, want := d.Child("members").Value, fmt.Sprintf("2 changed, 1 added, 1 removed, %d unchanged", n-3); got != want {
		t.Errorf("members: %q, want %q", got, want)
	}
	if !strings.HasPrefix(d.Value, "2 members changed, 1 added, 1 removed; header: ") || !strings.Contains(d.Value, "instructions: 1 stream") {
		t.Errorf("summary: %q", d.Value)
	}
	if n := d.Find("members", "sg00/def.json", "#rank_world_size"); n == nil || n.Find("a").Value != "0" || n.Find("b").Value != "2" {
		t.Errorf("sg00/def.json #rank_world_size: %+v", n)
	}
	if n := d.Find("members", "notes.json"); n == nil || n.Kind != DiffAdded {
		t.Errorf("notes.json not added: %+v", n)
	}
	if n := d.Find("members", "hlo_stats.json"); n == nil || n.Kind != DiffRemoved {
		t.Errorf("hlo_stats.json not removed: %+v", n)
	}
	if n := d.Find("instructions", "sg01/SP.bin"); n == nil || n.Value != "3 → 4" {
		t.Errorf("sg01/SP.bin: %+v", n)
	}
	for _, f := range []string{"uuid", "name", "feature_bits", "lnc_size"} {
		if n := d.Find("header", f); n != nil {
			t.Errorf("header %s kept by the repack but listed as differing: %+v", f, n)
		}
	}
	if n := d.Find("header", "hash"); n == nil {
		t.Errorf("header hash not listed as differing (the payload changed)")
	}
	if mt := d.Child("members").Table; len(mt.Rows) != n+1 {
		t.Errorf("members table: %d rows, want %d", len(mt.Rows), n+1)
	}
	r := Diff(b, a)
	if got, want := r.Child("members").Value, fmt.Sprintf("2 changed, 1 added, 1 removed, %d unchanged", n-3); got != want {
		t.Errorf("reverse members: %q, want %q", got, want)
	}
	if !DiffIdentical(Diff(a, a)) {
		t.Error("a real NEFF differs from itself")
	}
}

// The same kernel compiled for trn1 (sunda) and trn2 (cayman, two cores fused): only the
// shared folder has it; TestDiffRealRepacked covers the same paths on the repository's NEFF.
func TestDiffRealTrn1Trn2(t *testing.T) {
	if _, ok := realfiles.Optional(t, "cs149-trn1/stream_256k_fd1k.neff", "the trn1/trn2 diff"); !ok {
		t.SkipNow() // Optional said why
	}
	if _, ok := realfiles.Optional(t, "cs149-trn2/stream_256k_fd1k.neff", "the trn1/trn2 diff"); !ok {
		t.SkipNow() // Optional said why
	}
	a := openRealBytes(t, "cs149-trn1/stream_256k_fd1k.neff")
	b := openRealBytes(t, "cs149-trn2/stream_256k_fd1k.neff")
	d := Diff(a, b)
	if !strings.HasPrefix(d.Value, "24 members changed, 30 added, 2 removed; header: data_size, neff_version_major, hash, uuid, feature_bits, lnc_size differ; instructions: 10 streams differ; model: target, arch, cores, outputs, features differ") {
		t.Errorf("summary: %q", d.Value)
	}
	if got := d.Child("members").Value; got != "24 changed, 30 added, 2 removed, 6 unchanged" {
		t.Errorf("members: %q", got)
	}
	target := d.Find("members", "kelf-0.json", "target")
	if target == nil || target.Find("a").Value != `"sunda"` || target.Find("b").Value != `"cayman"` {
		t.Errorf("kelf-0.json target: %+v", target)
	}
	for _, p := range []string{"sg01/def.json", "sg01/PE.bin", "sg01/act_info.json"} {
		if n := d.Find("members", p); n == nil || n.Kind != DiffAdded {
			t.Errorf("%s not added: %+v", p, n)
		}
	}
	for _, p := range []string{"metrics.json", "sg00/default_control_table.bin"} {
		if n := d.Find("members", p); n == nil || n.Kind != DiffRemoved {
			t.Errorf("%s not removed: %+v", p, n)
		}
	}
	if n := d.Find("header", "lnc_size"); n == nil || n.Value != "1 → 2" {
		t.Errorf("lnc_size: %+v", n)
	}
	if n := d.Find("header", "uuid"); n == nil || n.Value != "3e35b3d8-249d-4b15-99fa-3691933d7c87 → 81b6457e-0b41-4a62-b568-b6afca396901" {
		t.Errorf("uuid: %+v", n)
	}
	if n := d.Find("model", "target"); n == nil || n.Value != "sunda → cayman" {
		t.Errorf("model target: %+v", n)
	}
	if mt := d.Child("model").Table; mt == nil || len(mt.Rows) != 9 || fmt.Sprint(mt.Rows[0]) != "[target sunda cayman changed]" || mt.Rows[8][3] != "" {
		t.Errorf("model table: %+v", mt)
	}
	if mt := d.Child("members").Table; len(mt.Rows) != 24+30+2+6 {
		t.Errorf("members table: %d rows, want 62", len(mt.Rows))
	}
	if n := d.Find("instructions", "sg00/SP.bin"); n == nil || n.Value != "5 → 6" || n.Table.Rows[0][0] != "0xcc PseudoBranchLabel" {
		t.Errorf("SP stream: %+v", n)
	}
	if n := d.Find("members", "neff.json", "nodes/2/attrs/num_outputs"); n == nil || n.Value != `"1" → "2"` {
		t.Errorf("neff.json num_outputs: %+v", n)
	}
	// The reverse diff mirrors it.
	r := Diff(b, a)
	if got := r.Child("members").Value; got != "24 changed, 2 added, 30 removed, 6 unchanged" {
		t.Errorf("reverse members: %q", got)
	}
	if DiffIdentical(Diff(a, a)) != true {
		t.Error("a real NEFF differs from itself")
	}
}

func FuzzDiffJSON(f *testing.F) {
	f.Add([]byte(`{"a": 1, "b": [1, 2]}`), []byte(`{"a": 2, "c": null}`))
	f.Add([]byte(`[1, {"x": "y"}]`), []byte(`[1]`))
	f.Add([]byte(`{"a": 1, "a": 2}`), []byte(`"s"`))
	f.Fuzz(func(t *testing.T, a, b []byte) {
		n := &doc.Node{Kind: DiffChanged, Label: "m.json"}
		diffJSON(n, "m.json", a, b, budget.Limits{Values: 10_000, Memory: 4 << 20})
		if len(n.Children) > MaxJSONDifferences {
			t.Fatalf("%d differences listed, cap %d", len(n.Children), MaxJSONDifferences)
		}
		if bytes.Equal(a, b) && len(n.Children) > 0 {
			t.Fatalf("equal bytes gave %d differences", len(n.Children))
		}
	})
}

func BenchmarkDiffRealTrn1Trn2(b *testing.B) {
	x := openRealBytes(b, "cs149-trn1/stream_256k_fd1k.neff")
	y := openRealBytes(b, "cs149-trn2/stream_256k_fd1k.neff")
	for b.Loop() {
		Diff(x, y)
	}
}

func TestDiffSameOpcodesOtherOperands(t *testing.T) {
	a := neffbuild.Bytes(neffbuild.Sample(), neffbuild.Options{})
	var members []neffbuild.Member
	for _, m := range neffbuild.Sample() {
		if m.Path == "sg00/SP.bin" {
			d := bytes.Clone(m.Data)
			d[70] = 0x7f // an operand byte of word 1
			m.Data = d
		}
		members = append(members, m)
	}
	d := Diff(openBytes("a.neff", a), openBytes("b.neff", neffbuild.Bytes(members, neffbuild.Options{})))
	in := d.Child("instructions")
	var row []string
	for _, r := range in.Table.Rows {
		if r[0] == "sg00/SP.bin" {
			row = r
		}
	}
	if len(in.Children) != 0 || fmt.Sprint(row) != "[sg00/SP.bin sg00 SP 2 2 operands]" {
		t.Errorf("instructions: %v, SP row %v", labels(in.Children), row)
	}
	if d.Find("members", "sg00/SP.bin") == nil {
		t.Error("SP.bin not listed as changed")
	}
}

func TestDiffTruncatedMember(t *testing.T) {
	big := make([]byte, 200000)
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range big {
		big[i] = byte(rng.Uint32()) // random, so gzip keeps it large
	}
	members := append(neffbuild.Sample(), neffbuild.Member{Path: "weights.npy", Data: big})
	full := neffbuild.Bytes(members, neffbuild.Options{PadTo: -1})
	cut := full[:len(full)-50000] // inside weights.npy, the last member
	d := Diff(openBytes("full.neff", full), openBytes("cut.neff", cut))
	w := d.Find("members", "weights.npy")
	if w == nil || w.Kind != DiffChanged || len(w.Findings) != 1 || w.Findings[0].Severity != doc.Warning || w.Findings[0].Code != doc.CodeDiffMemberTruncated {
		t.Fatalf("truncated member: %+v", w)
	}
	if DiffIdentical(d) {
		t.Error("a cut file reported identical")
	}
}

// TestDiffJSONUnderBudget: the two versions of a changed JSON member are parsed under one
// budget with the open's limits: within them the member is compared path by path; past them
// it is compared by SHA-256 only, with a warning naming the limit, where, and the flag (two
// 60 MiB members used to take gigabytes).
func TestDiffJSONUnderBudget(t *testing.T) {
	member := func(last string) []neffbuild.Member {
		body := "[" + strings.Repeat("0,", 2999) + last + "]" // 3,000 values (+ the array)
		return append(neffbuild.Sample(), neffbuild.Member{Path: "sg00/big.json", Data: []byte(body)})
	}
	x := neffbuild.Bytes(member("0"), neffbuild.Options{})
	y := neffbuild.Bytes(member("1"), neffbuild.Options{})
	open := func(b []byte, l budget.Limits) *inspect.File {
		return inspect.Open("x.neff", bytes.NewReader(b), int64(len(b)), inspect.Options{Limits: l})
	}
	changed := func(d *doc.Node) *doc.Node { return d.Child("members").Child("sg00/big.json") }

	c := changed(Diff(open(x, budget.Limits{}), open(y, budget.Limits{})))
	if c == nil || c.Detail != "1 JSON path differs" || len(c.Findings) != 0 || c.Children[len(c.Children)-1].Label != "2999" {
		t.Fatalf("within the limits: %+v", c)
	}
	// 5,000 values cannot hold both versions (6,002): compared by hash, one warning.
	lim := budget.Limits{Values: 5000}
	c = changed(Diff(open(x, lim), open(y, lim)))
	if c == nil || len(c.Findings) != 1 || c.Findings[0].Severity != doc.Warning || c.Findings[0].Code != doc.CodeBudgetValues || c.Detail != "" {
		t.Fatalf("past the values limit: %+v", c)
	}
	for _, want := range []string{"sg00/big.json", "5000", "b: sg00/big.json byte", "--max-values"} {
		if !strings.Contains(c.Findings[0].Message, want) {
			t.Errorf("the finding lacks %q: %s", want, c.Findings[0].Message)
		}
	}
	for _, ch := range c.Children {
		if ch.Label == "2999" {
			t.Errorf("a JSON path was listed past the limit: %s", ch.Label)
		}
	}
}

// TestDiffManyKeysAndRepeats: an object of many keys is compared key by key (through an
// index), and a repeated key compares by its last value, as Value.Get reads it.
func TestDiffManyKeysAndRepeats(t *testing.T) {
	obj := func(n int, last string) []byte {
		var b strings.Builder
		b.WriteString(`{"r":1,`)
		for i := range n {
			fmt.Fprintf(&b, `"k%d":%d,`, i, i)
		}
		b.WriteString(`"r":2,"z":` + last + "}")
		return []byte(b.String())
	}
	n := &doc.Node{}
	diffJSON(n, "m.json", obj(20_000, "0"), obj(20_000, "1"), budget.Native())
	if len(n.Children) != 1 || n.Children[0].Key != "z" || n.Children[0].Kind != DiffChanged {
		t.Fatalf("%d differences: %+v", len(n.Children), n.Children)
	}
	n = &doc.Node{}
	diffJSON(n, "m.json", []byte(`{"x":1,"x":2,"y":1}`), []byte(`{"x":2,"w":3}`), budget.Native())
	if len(n.Children) != 2 || n.Children[0].Key != "y" || n.Children[0].Kind != DiffRemoved || n.Children[1].Key != "w" || n.Children[1].Kind != DiffAdded {
		t.Fatalf("repeated keys: %+v", n.Children)
	}
	// An index the budget refuses: the object is compared by its item count, and a warning
	// names the limit.
	n = &doc.Node{}
	diffJSON(n, "m.json", obj(20_000, "0"), obj(20_000, "1"), budget.Limits{Memory: 1 << 20})
	if len(n.Findings) != 1 || n.Findings[0].Severity != doc.Warning {
		t.Fatalf("past the budget: %+v", n.Findings)
	}
}

// hostileBytes builds the neffbuild hostile class name at scale s.
func hostileBytes(t *testing.T, name string, s float64) []byte {
	t.Helper()
	for _, h := range neffbuild.HostileClasses() {
		if h.Name == name {
			return h.Build(s)
		}
	}
	t.Fatalf("no hostile class %s", name)
	return nil
}

// TestDiffMemberListCut: past the caps the members section counts every member but lists at
// most MaxMemberDifferences changes and MaxMemberRows rows, and says so with diff.list-cut.
func TestDiffMemberListCut(t *testing.T) {
	many := hostileBytes(t, "many-members", 0.06) // 12,000 one-byte members
	sample := neffbuild.Bytes(neffbuild.Sample(), neffbuild.Options{})
	d := Diff(openBytes("sample.neff", sample), openBytes("many.neff", many))
	m := d.Child("members")
	if m == nil {
		t.Fatal("no members section")
	}
	if len(m.Children) != MaxMemberDifferences || len(m.Table.Rows) != MaxMemberRows {
		t.Errorf("listed %d changes and %d rows, want %d and %d", len(m.Children), len(m.Table.Rows), MaxMemberDifferences, MaxMemberRows)
	}
	if !strings.Contains(m.Value, "12000 added") {
		t.Errorf("the counts are not whole: %s", m.Value)
	}
	if len(m.Findings) != 1 || m.Findings[0].Code != doc.CodeDiffListCut {
		t.Errorf("findings %+v, want one %s", m.Findings, doc.CodeDiffListCut)
	}
	// Under the caps nothing is cut.
	small := Diff(openBytes("sample.neff", sample), openBytes("b.neff", neffbuild.Bytes(modifiedSample(), neffbuild.Options{}))).Child("members")
	if len(small.Findings) != 0 || small.Attrs[doc.AttrViewLimit] != "" {
		t.Errorf("a small diff was cut: %+v", small.Findings)
	}
}

// TestDiffJSONParseShare: a JSON member of millions of values is refused by the memory share
// each parse of a diff gets (budget.memory), before the values limit and before the parse's
// stack outgrows the limit, and is compared by SHA-256 only.
func TestDiffJSONParseShare(t *testing.T) {
	wide := hostileBytes(t, "json-wide", 0.1) // neff.json: [0,0,…] of 3.1 M values
	sample := neffbuild.Bytes(neffbuild.Sample(), neffbuild.Options{})
	d := Diff(openBytes("wide.neff", wide), openBytes("sample.neff", sample))
	c := d.Child("members").Child("neff.json")
	if c == nil {
		t.Fatalf("neff.json is not a changed member: %v", labels(d.Child("members").Children))
	}
	if len(c.Findings) != 1 || c.Findings[0].Code != doc.CodeBudgetMemory || c.Detail != "" || len(c.Children) != 2 {
		t.Fatalf("neff.json: detail %q, %d children, findings %+v", c.Detail, len(c.Children), c.Findings)
	}
}
