package inspect

import (
	"bytes"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/neffscope/neffscope/core/dbg"
	"github.com/neffscope/neffscope/core/doc"
	"github.com/neffscope/neffscope/core/neff/neffbuild"
	"github.com/neffscope/neffscope/core/srcmap"
	"github.com/neffscope/neffscope/internal/realfiles"
	"google.golang.org/protobuf/encoding/protowire"
)

// TestSourceOnRealNEFFs: every word whose asm record names a backend id gets that record's
// source; the listing's source column and the instruction node carry it. The penguin fallback
// is decided per file by its rule (every backend record named I-<n>-… has penguin parent n),
// which the test checks again on the full decodes: where it holds, a backend record's line and
// its penguin parent's agree wherever both name one; where it does not (attn_v6, torch-xla), no
// word takes a penguin line. Record field 6 is 3 exactly on the PE words whose transpose byte
// (+0x22) is 1. No warning or error. Each member is decoded once.
func TestSourceOnRealNEFFs(t *testing.T) {
	var words, withRecord, withSource, withLine, viaPenguin, agree, disagree, pairs int
	// PE matmul words by target and by (field 6 = 3, +0x22 = 1): the rule is checked on Trn2
	// (cayman), where neff.md §8.1 found it; other targets are counted and logged.
	type peKey struct {
		target         string
		code3, byteSet bool
	}
	pe := map[peKey]int{}
	for _, p := range realfiles.NEFFs(t) {
		f := openPath(t, p)
		name := filepath.Base(p)
		x := f.Program.Source
		if x == nil || len(x.Members) == 0 {
			t.Errorf("%s: no debug info decoded", p)
			continue
		}
		for _, fd := range f.Doc.Findings() {
			if fd.Severity != doc.Info {
				t.Errorf("%s: %s finding: %s", name, fd.Severity, fd.Message)
			}
		}
		decoded := map[string]*dbg.File{}
		decode := func(m string) *dbg.File {
			d, ok := decoded[m]
			if !ok {
				d = fullDecode(t, f, m)
				decoded[m] = d
			}
			return d
		}
		var penguin *dbg.File
		numbered, renumbered := 0, 0
		for m, c := range x.Members {
			switch c.Kind {
			case dbg.KindPenguin:
				if strings.HasSuffix(m, "_sg000000") {
					penguin = decode(m)
				}
			case dbg.KindBackend:
				for _, r := range decode(m).Records {
					rest, ok := strings.CutPrefix(r.Name, "I-")
					digits, _, _ := strings.Cut(rest, "-")
					n, err := strconv.ParseUint(digits, 10, 64)
					if ok && err == nil && len(r.Parents) > 0 {
						numbered++
						if r.Parents[0] != n {
							renumbered++
						}
					}
				}
			}
		}
		fallback := penguin != nil && numbered > 0 && renumbered == 0
		if x.PenguinFallback != fallback {
			t.Errorf("%s: penguin fallback %v; %d backend records named I-<n>-…, %d with another parent", name, x.PenguinFallback, numbered, renumbered)
		}
		if name == "attn_v6.neff" && x.PenguinFallback {
			t.Errorf("%s (torch-xla): the penguin fallback is used", name)
		}
		if fn := f.Doc.Root.Find("model", "source", srcmap.SourceLineFrom); fn == nil || fn.Value == "" || fn.Detail == "" {
			t.Errorf("%s: no %q field on the source node", name, srcmap.SourceLineFrom)
		}
		t.Logf("%s: penguin fallback %v (%d backend records named I-<n>-…, %d with another parent)", name, x.PenguinFallback, numbered, renumbered)
		for _, s := range f.Program.Streams {
			asm := decode(filepath.Dir(s.Member) + "/debug_info_asm_" + s.Engine.Name + ".dbg")
			if asm == nil || len(asm.Records) != s.ISA.Len() {
				t.Fatalf("%s %s: asm debug info missing or not one record per word", p, s.Member)
			}
			rows, _, err := f.Rows("stream:"+s.Member, 0, s.ISA.Len())
			if err != nil || rows.Columns[len(rows.Columns)-1] != "source" {
				t.Fatalf("%s rows: %v %v", s.Member, err, rows.Columns)
			}
			for i := range s.ISA.Len() {
				words++
				src := x.Source(s.Member, i)
				if len(asm.Records[i].Parents) > 0 {
					withRecord++
					if src == nil || src.BIR == "" {
						t.Errorf("%s %s #%d: asm record names backend %d but no source", name, s.Member, i, asm.Records[i].Parents[0])
						continue
					}
				}
				if src == nil {
					if rows.Rows[i][len(rows.Columns)-1] != "" {
						t.Errorf("%s #%d: source column %q without a source", s.Member, i, rows.Rows[i][len(rows.Columns)-1])
					}
					continue
				}
				withSource++
				if got := rows.Rows[i][len(rows.Columns)-1]; got != src.Text() || got == "" {
					t.Errorf("%s #%d: source column %q, want %q", s.Member, i, got, src.Text())
				}
				if src.Line > 0 {
					withLine++
					if !strings.HasSuffix(src.File, ".py") || src.Line > 5000 {
						t.Errorf("%s #%d: implausible source %s:%d", s.Member, i, src.File, src.Line)
					}
				}
				w := s.ISA.Word(i)
				if w[0] == 0xDA {
					// 0xDA PseudoExtension: the second word of a 0xD4 (neff.md §4.7); the debug
					// info gives both words the same BIR instruction.
					prev := x.Source(s.Member, i-1)
					if i == 0 || s.ISA.Word(i - 1)[0] != 0xD4 || prev == nil || prev.Backend != src.Backend {
						t.Errorf("%s %s #%d: 0xDA not paired with the 0xD4 before it (source %+v, before %+v)", name, s.Member, i, src, prev)
					}
					pairs++
				}
				backend, _ := src.Record()
				r := decode(backend).ByID(src.Backend)
				if r == nil {
					t.Fatalf("%s %s #%d: backend record %d not in %s", name, s.Member, i, src.Backend, backend)
				}
				if s.Engine.Name == "PE" && (w[0] == 0x01 || w[0] == 0x02) {
					// Ldweights / Matmul: on Trn2, record field 6 is 3 exactly when the
					// transpose byte is 1.
					k := peKey{f.Program.Model.Target, r.TransposeCode == 3, w[0x22] == 1}
					pe[k]++
					if k.target == "cayman" && k.code3 != k.byteSet && pe[k] <= 3 {
						t.Errorf("%s %s #%d: record %d field 6 = %d, +0x22 = %d", name, s.Member, i, r.ID, r.TransposeCode, w[0x22])
					}
				} else if r.TransposeCode == 3 {
					pe[peKey{target: "off PE matmuls", code3: true}]++
				}
				if src.Via == "penguin" {
					viaPenguin++
					if !x.PenguinFallback {
						t.Errorf("%s %s #%d: line via penguin where the fallback does not hold", name, s.Member, i)
					}
				} else if src.Line > 0 && penguin != nil && x.PenguinFallback && len(r.Parents) > 0 {
					// Where the fallback holds and the backend record names a line itself, its
					// penguin parent (if it names one) must agree.
					if pr := penguin.ByID(r.Parents[0]); pr != nil {
						if v, ok := pr.Attr("kernel_line"); ok {
							if v == itoaInt(src.Line) {
								agree++
							} else {
								disagree++
							}
						}
					}
				}
			}
		}
		// The instruction node of the first word with a line carries a source field.
		for _, s := range f.Program.Streams {
			for i := range s.ISA.Len() {
				if src := x.Source(s.Member, i); src != nil && src.Line > 0 {
					n, _ := f.Instruction("stream:"+s.Member, i)
					sn := n.Child("source")
					if sn == nil || sn.Child("bir") == nil || sn.Child("line").Value != itoaInt(src.Line) || sn.Span == nil || !strings.Contains(sn.Span.Source, "debug_info_asm_") {
						t.Errorf("%s #%d: instruction source node %+v", s.Member, i, sn)
					}
					goto next
				}
			}
		}
	next:
	}
	t.Logf("%d words; %d with an asm record naming a backend id; %d with a source (BIR name); %d with a kernel line (%d via penguin); where the fallback holds, backend/penguin lines agree %d, disagree %d; %d 0xD4+0xDA pairs share their BIR instruction",
		words, withRecord, withSource, withLine, viaPenguin, agree, disagree, pairs)
	for k, n := range pe {
		t.Logf("PE Ldweights/Matmul words, %s: field 6 = 3 %v, +0x22 = 1 %v: %d", k.target, k.code3, k.byteSet, n)
	}
	if withSource != withRecord {
		t.Errorf("%d words name a backend record, %d got a source", withRecord, withSource)
	}
	if disagree != 0 {
		t.Errorf("backend and penguin lines disagree on %d words where the fallback holds", disagree)
	}
	if pe[peKey{"cayman", true, true}] == 0 {
		t.Error("no Trn2 PE transpose word: record field 6 = 3 is unchecked")
	}
}

func itoaInt(v int) string { return strconv.Itoa(v) }

// fullDecode is the full decode of a .dbg member of an opened NEFF (nil: no such member), the
// reference the compact joins are checked against.
func fullDecode(t *testing.T, f *File, member string) *dbg.File {
	t.Helper()
	if f.Archive.Member(member) == nil {
		return nil
	}
	b, err := f.memberBytes(member, 1<<30)
	if err != nil {
		t.Fatalf("%s: %v", member, err)
	}
	return dbg.Decode(member, b)
}

// TestSourceMatmulSmallByHand: facts read off matmul_small with a protowire dump: PE word 7
// comes from backend record 155 "I-72-0-wait-0", test_spike_async.py line 58; the source table
// lists line 58 with its words per engine; WordsAt finds that word.
func TestSourceMatmulSmallByHand(t *testing.T) {
	f := openReal(t, "nkipy/matmul_small.neff")
	src := f.Program.Source.Source("sg00/PE.bin", 7)
	if src == nil || src.BIR != "I-72-0-wait-0" || src.Line != 58 || !strings.HasSuffix(src.File, "/test_spike_async.py") || src.Backend != 155 {
		t.Fatalf("PE #7 source %+v", src)
	}
	if s := f.Program.Source.Source("sg00/PE.bin", 0); s != nil {
		t.Errorf("PE #0 has an empty asm record but source %+v", s)
	}
	at := f.Program.Source.WordsAt(src.File, 58)
	found := false
	for _, w := range at["sg00/PE.bin"] {
		found = found || w == 7
	}
	if !found {
		t.Errorf("WordsAt(file, 58) = %v", at)
	}
	lines := f.Doc.Root.Find("model", "source", "lines")
	if lines == nil || len(lines.Table.Rows) != 1 || lines.Table.Rows[0][1] != "58" {
		t.Fatalf("source lines node %+v", lines)
	}
	// The .dbg members are typed trees now, not hex.
	m := f.Doc.Root.Find("members")
	if m == nil {
		t.Fatal("no members node")
	}
	var content []string
	f.Walk(nil, func(p []string, n *doc.Node) bool {
		if n.Ref == doc.DbgRef("sg00/debug_info_backend_PE.dbg") && n.Kind == "protobuf" {
			content = p
		}
		return content == nil
	})
	if content == nil {
		t.Fatal("no content stub for the backend member")
	}
	name, err := f.Node(append(content, "instruction[3]", "name"))
	if err != nil || name.Value != `"I-72-0-wait-0"` {
		t.Fatalf("backend member content: %v %+v", err, name)
	}
}

// TestSourceAttnV6ByHand: attn_v6 (an NKI kernel) names its kernel: a word with a line in
// v6_ultimate.py carries kernel __main__.qwen3_attn_tkg_fused (backend fields 5 and 7).
func TestSourceAttnV6ByHand(t *testing.T) {
	if _, ok := realfiles.Optional(t, "nki-moe/attn_v6.neff", "kernel names in the backend tables (TestSourceMatmulSmallByHand checks files and lines on the repository's NEFF)"); !ok {
		t.SkipNow() // Optional said why
	}
	f := openReal(t, "nki-moe/attn_v6.neff")
	found := 0
	for _, s := range f.Program.Streams {
		for i := range s.ISA.Len() {
			src := f.Program.Source.Source(s.Member, i)
			if src != nil && strings.HasSuffix(src.File, "/v6_ultimate.py") && src.Kernel == "__main__.qwen3_attn_tkg_fused" && src.Line > 0 && src.Via == "" {
				found++
			}
		}
	}
	if found == 0 {
		t.Fatal("no attn_v6 word traced to v6_ultimate.py with its kernel name")
	}
}

// TestNoDebugInfoSaysSoOnce: a NEFF without .dbg members gets one info finding, and no
// source column.
func TestNoDebugInfoSaysSoOnce(t *testing.T) {
	b := neffbuild.Bytes(neffbuild.Sample(), neffbuild.Options{})
	f := Open("sample.neff", bytes.NewReader(b), int64(len(b)), Options{})
	if f.Program == nil || len(f.Program.Streams) == 0 {
		t.Skip("the minimal NEFF has no streams")
	}
	n := 0
	for _, fd := range f.Doc.Findings() {
		if fd.Code == doc.CodeSourceNoDebugInfo {
			n++
		}
	}
	if n != 1 {
		t.Fatalf("%d 'no debug info' findings", n)
	}
	s := f.Program.Streams[0]
	rows, _, _ := f.Rows("stream:"+s.Member, 0, 10)
	if rows.Columns[len(rows.Columns)-1] == "source" {
		t.Fatalf("source column without debug info: %v", rows.Columns)
	}
}

// TestDbgCoverageOnRealNEFFs: every .dbg byte of the real NEFFs lies under a table field
// (named, or named unknown…); none is generic or unread. Logs the per-kind table the README
// quotes.
func TestDbgCoverageOnRealNEFFs(t *testing.T) {
	total := map[dbg.Kind]dbg.Coverage{}
	var all, dbgBytes int64
	for _, p := range realfiles.NEFFs(t) {
		f := openPath(t, p)
		for _, m := range f.Archive.Members {
			all += m.Size
			if _, _, ok := dbg.Match(m.Path); ok {
				dbgBytes += m.Size
			}
		}
		for k, c := range f.DbgCoverage() {
			tc := total[k]
			tc.Add(c)
			total[k] = tc
		}
	}
	var sum dbg.Coverage
	for _, k := range dbg.Kinds {
		c := total[k]
		sum.Add(c)
		n := c.Named + c.Unknown + c.Generic + c.None
		if n == 0 {
			continue
		}
		t.Logf("%-18s %9d B: named %9d (%5.1f%%)  unknown-named %7d (%4.1f%%)  generic %d  unread %d", k, n, c.Named, 100*float64(c.Named)/float64(n), c.Unknown, 100*float64(c.Unknown)/float64(n), c.Generic, c.None)
		if c.Generic != 0 || c.None != 0 {
			t.Errorf("%s: %d generic and %d unread bytes on valid files", k, c.Generic, c.None)
		}
	}
	n := sum.Named + sum.Unknown
	t.Logf("all .dbg: %d of %d member bytes (%.1f%%); named %.1f%%, unknown-named %.1f%%", dbgBytes, all, 100*float64(dbgBytes)/float64(all), 100*float64(sum.Named)/float64(n), 100*float64(sum.Unknown)/float64(n))
}

// TestSourceFaults: asm debug info whose record count differs from the stream's words, a
// backend id no backend member holds, and a kernel_file index past the list give findings
// (once each), and the words that do resolve keep their source.
func TestSourceFaults(t *testing.T) {
	str := func(b []byte, num protowire.Number, s string) []byte {
		return protowire.AppendString(protowire.AppendTag(b, num, protowire.BytesType), s)
	}
	msg := func(b []byte, num protowire.Number, m []byte) []byte {
		return protowire.AppendBytes(protowire.AppendTag(b, num, protowire.BytesType), m)
	}
	var asm []byte
	asm = str(asm, 1, "Debug info for one engine's assembly instructions.")
	asm = str(asm, 2, "debug_info_backend_PE.dbg")
	asm = msg(asm, 3, msg(nil, 3, protowire.AppendVarint(nil, 7)))  // word 0 → backend 7
	asm = msg(asm, 3, msg(nil, 3, protowire.AppendVarint(nil, 99))) // word 1 → no such record
	for range 3 {                                                   // 2 records more than the stream's words
		asm = msg(asm, 3, nil)
	}
	var rec []byte
	rec = protowire.AppendVarint(protowire.AppendTag(rec, 1, protowire.VarintType), 7)
	rec = str(rec, 2, "inst.7-act")
	for _, kv := range [][2]string{{"kernel_file", "3"}, {"kernel_line", "12"}} {
		rec = msg(rec, 7, str(str(nil, 1, kv[0]), 2, kv[1]))
	}
	var be []byte
	be = str(be, 1, "Debug info for one engine's BIR Instructions.")
	be = msg(be, 3, rec)
	be = str(be, 5, "/src/k.py")
	members := neffbuild.Sample()
	words := 0
	for _, m := range members {
		if m.Path == "sg00/PE.bin" {
			words = len(m.Data) / 64
		}
	}
	if words < 2 {
		t.Skipf("the sample's PE stream has %d words", words)
	}
	members = append(members, neffbuild.Member{Path: "sg00/debug_info_asm_PE.dbg", Data: asm}, neffbuild.Member{Path: "sg00/debug_info_backend_PE.dbg", Data: be})
	b := neffbuild.Bytes(members, neffbuild.Options{})
	f := Open("faulty.neff", bytes.NewReader(b), int64(len(b)), Options{})
	want := map[doc.Code]int{doc.CodeSourceWordCount: 0, doc.CodeSourceMissingBackend: 0, doc.CodeDbgBadIndex: 0}
	for _, fd := range f.Doc.Findings() {
		if _, ok := want[fd.Code]; ok {
			want[fd.Code]++
		}
	}
	for k, n := range want {
		if n != 1 {
			t.Errorf("%d findings containing %q", n, k)
		}
	}
	src := f.Program.Source.Source("sg00/PE.bin", 0)
	if src == nil || src.BIR != "inst.7-act" || src.Line != 12 || src.File != "3" {
		t.Fatalf("word 0 source %+v", src)
	}
	if s := f.Program.Source.Source("sg00/PE.bin", 1); s != nil {
		t.Fatalf("word 1 has source %+v", s)
	}
}
