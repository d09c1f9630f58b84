package pwp

import (
	"strconv"
	"strings"
	"testing"

	"github.com/neffscope/neffscope/core/doc"
	"github.com/neffscope/neffscope/internal/realfiles"
)

// readDir loads every file of a real extracted folder, keyed "<prefix><name>" like NEFF members.
func readDir(t *testing.T, rel, prefix string) map[string][]byte {
	t.Helper()
	files := map[string][]byte{}
	for name, b := range realfiles.ReadDir(t, rel) {
		files[prefix+name] = b
	}
	return files
}

func TestOpenFilesRealSubgraph(t *testing.T) {
	b := OpenFiles(readDir(t, "nkipy/matmul_small/sg00", "sg00/"))
	if got := strings.Join(b.LoadOrders["sg00"], ","); got != "exp_and_others" {
		t.Errorf("load order %q", got)
	}
	if len(b.Sets) != 1 || b.Sets[0].Name != "exp_and_others" {
		t.Fatalf("sets %v", b.Sets)
	}
	for _, f := range append(b.Findings, b.Sets[0].AllFindings()...) {
		if f.Severity != doc.Info {
			t.Errorf("finding: %s %s", f.Severity, f.Message)
		}
	}
	if b.Sets[0].BktSource != "sg00/exp_and_others_bkt.bin" || b.Sets[0].Roster == nil || b.Sets[0].Roster.Index != 0 {
		t.Errorf("set 0 joined to %q, roster %+v", b.Sets[0].BktSource, b.Sets[0].Roster)
	}
	if b.Catalog.Catalog != Trainium || b.Catalog.Matched != 21 || len(b.Catalog.Differences) != 0 {
		t.Errorf("catalog: %s", b.Catalog.Summary())
	}
	f, err := b.Function("", "exp_400p")
	if err != nil || f.Set.Name != "exp_and_others" {
		t.Fatalf("exp lookup: %v", err)
	}
	if y, tr := f.Evaluate(0.5); bitsOf(y) != 0x3fd308b1 || tr.Bucket != 424 {
		t.Errorf("exp(0.5) = %08x via %s", bitsOf(y), tr)
	}
	if _, err := b.Function("nope", "exp"); err == nil || !strings.Contains(err.Error(), "exp_and_others") {
		t.Errorf("missing set error: %v", err)
	}
	t.Run("attn_v6", func(t *testing.T) {
		if _, ok := realfiles.Optional(t, "nki-moe/attn_v6/sg00/act_info.json", "a subgraph with two sets"); !ok {
			t.SkipNow() // Optional said why
		}
		b := OpenFiles(readDir(t, "nki-moe/attn_v6/sg00", "sg00/"))
		if got := strings.Join(b.LoadOrders["sg00"], ","); got != "reciprocal_sqrt_and_small,natural_log_exp_and_others" {
			t.Errorf("load order %q", got)
		}
		if len(b.Sets) != 2 || b.Sets[0].Name != "reciprocal_sqrt_and_small" || b.Sets[1].Name != "natural_log_exp_and_others" {
			t.Fatalf("sets %v", b.Sets)
		}
		for _, f := range append(b.Findings, b.Sets[0].AllFindings()...) {
			if f.Severity != doc.Info {
				t.Errorf("finding: %s %s", f.Severity, f.Message)
			}
		}
		if b.Sets[1].BktSource != "sg00/natural_log_exp_and_others_bkt.bin" || b.Sets[1].Roster == nil || b.Sets[1].Roster.Index != 6 {
			t.Errorf("set 1 joined to %q, roster %+v", b.Sets[1].BktSource, b.Sets[1].Roster)
		}
		if b.Catalog.Catalog != Trainium || b.Catalog.Matched != 21 || len(b.Catalog.Differences) != 0 {
			t.Errorf("catalog: %s", b.Catalog.Summary())
		}
		f, err := b.Function("", "exp_400p")
		if err != nil || f.Set.Name != "natural_log_exp_and_others" {
			t.Fatalf("exp lookup: %v", err)
		}
		if y, tr := f.Evaluate(0.5); bitsOf(y) != 0x3fd308b1 || tr.Bucket != 517+424 {
			t.Errorf("exp(0.5) in nl_exp = %08x via %s", bitsOf(y), tr)
		}
		if _, err := b.Function("nope", "exp"); err == nil || !strings.Contains(err.Error(), "natural_log_exp_and_others") {
			t.Errorf("missing set error: %v", err)
		}
	})
}

func TestOldRosterIsTrainiumWithoutSet20(t *testing.T) {
	b := OpenFiles(readDir(t, "cs149-trn1/file_pool_1_float16/sg00", ""))
	rep := b.Catalog
	if rep.Catalog != Trainium || rep.Matched != 20 || len(rep.Differences) != 1 || !strings.Contains(rep.Differences[0], "derivative_gelu_apprx_sigmoid_and_others") {
		t.Errorf("old roster: %s", rep.Summary())
	}
	if len(b.Sets) != 1 || b.Sets[0].Name != "exp_and_others" {
		t.Fatalf("sets: %v", b.Sets)
	}
}

func TestMissingBlobsAreFindings(t *testing.T) {
	files := readDir(t, "nkipy/matmul_small/sg00", "")
	delete(files, "exp_and_others_bkt.bin")
	delete(files, "Activation.json")
	b := OpenFiles(files)
	s := b.Set("exp_and_others")
	if s == nil || s.HaveBkt || !s.HaveCtrl {
		t.Fatalf("set %+v", s)
	}
	if !hasFinding(s.Findings, doc.Error, doc.CodePwpMissingFile) {
		t.Errorf("no missing-blob finding: %v", s.Findings)
	}
	y, tr := s.Function("exp").Evaluate(1)
	if tr.Path != PathError || tr.Err == nil || y == y {
		t.Errorf("exp without buckets: %g via %s", y, tr)
	}
	// Without the ctrl blob, heroes fail with that reason and residents still work.
	delete(files, "exp_and_others_ctrl.bin")
	files["exp_and_others_bkt.bin"] = readDir(t, "nkipy/matmul_small/sg00", "")["exp_and_others_bkt.bin"]
	s = OpenFiles(files).Set("exp_and_others")
	if _, tr := s.Function("exp").Evaluate(1); tr.Err == nil || !strings.Contains(tr.Err.Error(), "ctrl blob is missing") {
		t.Errorf("exp without ctrl: %s %v", tr, tr.Err)
	}
	if y, _ := s.Function("abs").Evaluate(-2); y != 2 {
		t.Errorf("abs(-2) without ctrl = %g", y)
	}
	// prelu needs no table.
	if y, tr := s.Function("parametric_relu").EvaluateWith(-2, Options{Alpha: 0.5}); y != -1 || tr.Path != PathPrelu {
		t.Errorf("prelu: %g %s", y, tr)
	}
	// An engine JSON naming a set whose profile is absent.
	files2 := readDir(t, "nkipy/matmul_small/sg00", "sg00/")
	delete(files2, "sg00/exp_and_others.json")
	b2 := OpenFiles(files2)
	if !hasFinding(b2.Findings, doc.Error, doc.CodePwpMissingFile) || countFindings(b2.Findings, doc.Info, doc.CodePwpOrphanBlob, "sg00/exp_and_others_bkt.bin") != 1 {
		t.Errorf("findings: %v", b2.Findings)
	}
}

func hasFinding(fs []doc.Finding, sev string, code doc.Code) bool {
	return countFindings(fs, sev, code, "") > 0
}

// countFindings counts the findings of the severity and code placed in source ("": anywhere).
func countFindings(fs []doc.Finding, sev string, code doc.Code, source string) int {
	n := 0
	for _, f := range fs {
		if f.Severity == sev && f.Code == code && (source == "" || f.Span != nil && f.Span.Source == source) {
			n++
		}
	}
	return n
}

func TestViews(t *testing.T) {
	s := loadRealSet(t, "exp_and_others")
	n := SetNode(s)
	fn := n.Find("functions", "exp_400p")
	if fn == nil || fn.Kind != KindFunction {
		t.Fatal("no exp node")
	}
	// The record and the saturation slots are stubs: their children are built by FunctionPart.
	for _, part := range []string{PartRecord, PartSaturation} {
		g := fn.Find(part)
		if g == nil || len(g.Children) != 0 || g.Attrs[doc.AttrMore] == "" || !strings.HasPrefix(g.Ref, "pwp-part:") {
			t.Fatalf("%s: %+v, want a stub", part, g)
		}
		kids, ok := FunctionPart(s.Function("exp_400p"), part)
		if !ok || strconv.Itoa(len(kids)) != g.Attrs[doc.AttrMore] {
			t.Fatalf("%s: %d children built, the stub says %s", part, len(kids), g.Attrs[doc.AttrMore])
		}
		g.Children, g.Attrs = kids, nil
	}
	if _, ok := FunctionPart(s.Function("exp_400p"), "nope"); ok {
		t.Error("a part of no known name was built")
	}
	if v := fn.Find("record", "fnan_result").Value; v != "0x7fc00000 = NaN" {
		t.Errorf("fnan_result shows %q", v)
	}
	if v := fn.Find("record", "lower_bound").Value; v != "0xff7fffff = -3.4028235e+38" {
		t.Errorf("lower_bound shows %q", v)
	}
	oct := fn.Find("octaves").Table
	if len(oct.Rows) != 52 || oct.Rows[44][3] != "0x0001b1a8" || oct.RowSpans[44].Offset != 44*32 || oct.RowSpans[44].Source != "sg00/exp_and_others_ctrl.bin" {
		t.Errorf("octave row 44: %v %+v", oct.Rows[44], oct.RowSpans[44])
	}
	slot := fn.Find("saturation", "pos_large")
	if slot == nil || slot.Span.Offset != 779*32 || slot.Find("d0").Value != "0x7f800000 = +Inf" {
		t.Errorf("pos_large slot: %+v", slot)
	}
	// Every field of the record points at its bytes in the profile.
	prof := realfiles.Read(t, realSetDirs["exp_and_others"]+"/exp_and_others.json")
	sp := fn.Find("record", "large_pos_signal_mantissa_threshold").Span
	if got := string(prof[sp.Offset : sp.Offset+sp.Length]); got != "3240472" {
		t.Errorf("span of large_pos_signal_mantissa_threshold reads %q", got)
	}
	// The bucket and ctrl records are a stub: their rows and nodes are built by range.
	bkt := n.Find("bkt")
	if bkt.Table != nil || len(bkt.Children) != 0 || bkt.Attrs[doc.AttrMore] != "941" || bkt.Ref != doc.RecordsRef(s.BktSource) {
		t.Errorf("bucket group: table %v, %d children, more %q, ref %q", bkt.Table != nil, len(bkt.Children), bkt.Attrs[doc.AttrMore], bkt.Ref)
	}
	if bt := BucketRows(s, 770, 5000); len(bt.Rows) != 941-770 || !strings.HasPrefix(bt.Rows[7][6], "exp_400p pos_small") || bt.Rows[7][0] != "777" || bt.RowSpans[7].Offset != 777*32 {
		t.Errorf("bucket rows from 770: %d rows, row 777 %v %+v", len(bt.Rows), bt.Rows[7], bt.RowSpans[7])
	}
	if r := BucketRecords(s, 777, 778); len(r) != 1 || r[0].Key != "777" || r[0].Span.Offset != 777*32 || !strings.HasPrefix(r[0].Detail, "bucket record of exp_400p pos_small") {
		t.Errorf("bucket record 777: %+v", r)
	}
	if ct := ControlRows(s, 44, 45); len(ct.Rows) != 1 || ct.Rows[0][1] != "0x0001b1a8" || ct.RowSpans[0].Offset != 44*32 {
		t.Errorf("ctrl row 44: %+v", ct)
	}
	if r := ControlRecords(s, -5, 2); len(r) != 2 || r[1].Span.Offset != 32 || r[1].Span.Source != s.CtrlSource {
		t.Errorf("ctrl records 0..2: %+v", r)
	}
	if g, ok := (&Bundle{Sets: []*Set{s}}).Records(s.CtrlSource); !ok || g.Set != s || g.Bkt || g.Len() != len(s.Controls) {
		t.Errorf("Records(%s) = %+v, %v", s.CtrlSource, g, ok)
	}
	em := n.Find("functions", "identity_1p", "exp-maps").Table
	if len(em.Rows) != 1 || em.Rows[0][0] != "-127" || em.Rows[0][1] != "[52, 53]" || em.Rows[0][2] != "[781, 781]" {
		t.Errorf("identity exp maps: %v", em.Rows)
	}
	r := RosterNode(DecodeRoster("act_info.json", realfiles.Read(t, "nkipy/matmul_small/sg00/act_info.json")))
	if len(r.Children) != 2+21 || r.Find("exp_and_others", "act").Table.Rows[0][3] != "exp_400p" || r.Find("catalog").Value != "pwp_bin_trainium" {
		t.Errorf("roster view: %d children", len(r.Children))
	}
	y, tr := s.Function("exp").Evaluate(0.5)
	tn := TraceNode(s.Function("exp"), 0.5, y, tr)
	if tn.Find("path").Value != "pos:ctl44:sect0:bkt424" || tn.Find("bkt424").Span.Offset != 424*32 {
		t.Errorf("trace node: %+v", tn)
	}
}
