package ncfw

import (
	"bytes"
	"encoding/binary"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/neffscope/neffscope/core/doc"
	"github.com/neffscope/neffscope/internal/realfiles"
)

// randomContext fills a context with random bytes; fold_n and the basic-block tables come out
// random too, so walks past the records (U-14) and long tables are exercised.
func randomContext(rng *rand.Rand, size int) []byte {
	ctx := make([]byte, size)
	for i := range ctx {
		ctx[i] = byte(rng.Uint32())
	}
	return ctx
}

// readField reads a field's value from the context with encoding/binary, independently of
// the emitter's reader.
func readField(ctx []byte, f Field) uint64 {
	buf := make([]byte, 8)
	for i := int64(0); i < f.Width; i++ {
		if p := f.Offset + i; p < int64(len(ctx)) {
			buf[i] = ctx[p]
		}
	}
	v := binary.LittleEndian.Uint64(buf)
	if f.Mask != 0 {
		v = v >> f.Shift & f.Mask
	}
	return v
}

func parsePrinted(t *testing.T, s string, format string) uint64 {
	t.Helper()
	var v uint64
	var err error
	switch {
	case s == "(nil)":
		return 0
	case format == "0x%016lX":
		v, err = strconv.ParseUint(strings.Trim(s, `"`)[2:], 16, 64)
	case strings.HasPrefix(s, "0x"):
		v, err = strconv.ParseUint(s[2:], 16, 64)
	default:
		v, err = strconv.ParseUint(s, 10, 64)
	}
	if err != nil {
		t.Fatalf("printed %q: %v", s, err)
	}
	return v
}

// TestRoundTrip: Emit → Read → every value equals the struct bytes at its offset, the rebuilt
// context re-emits the same text, and the reader's field map equals the emitter's, for random
// contexts (some shorter than the arch needs) on all four arches.
func TestRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, a := range Arches() {
		for round := 0; round < 6; round++ {
			size := int(a.Padded)
			if round == 5 {
				size = int(a.MinSize) / 3
			}
			ctx := randomContext(rng, size)
			model := "model-" + strconv.Itoa(round)
			res := EmitMapped(ctx, model, a.ID)
			if res.RC != RCOK {
				t.Fatalf("arch %d round %d: rc %d", a.ID, round, res.RC)
			}
			if bad := checkTextRules(res.Text, false); len(bad) > 0 {
				t.Fatalf("arch %d round %d text rules:\n%s", a.ID, round, strings.Join(bad, "\n"))
			}
			if err := validJSON(res.Text); err != nil {
				t.Fatalf("arch %d round %d: %v", a.ID, round, err)
			}
			d := Read(res.Text, a.ID)
			if d.Deviation != -1 || d.Model != model || d.Cut {
				t.Fatalf("arch %d round %d: deviation %d model %q cut %v findings %+v", a.ID, round, d.Deviation, d.Model, d.Cut, d.Findings)
			}
			if len(d.Fields) != len(res.Fields)-1 { // the emitter also maps model_name
				t.Fatalf("arch %d: reader maps %d fields, emitter %d", a.ID, len(d.Fields), len(res.Fields)-1)
			}
			for i, f := range d.Fields {
				e := res.Fields[i+1]
				if f.Path != e.Path || f.Offset != e.Offset || f.Width != e.Width || f.TextStart != e.TextStart || f.TextEnd != e.TextEnd || f.Line != e.Line {
					t.Fatalf("field %d: reader %+v, emitter %+v", i, f, e)
				}
				printed := string(res.Text[f.TextStart:f.TextEnd])
				got := parsePrinted(t, printed, f.Format)
				switch f.Source {
				case "field":
					if want := readField(ctx, f); got != want {
						t.Fatalf("arch %d %s prints %s, struct bytes at ctx+0x%X hold %d", a.ID, f.Path, printed, f.Offset, want)
					}
					if back := readField(d.Context, f); back != got {
						t.Fatalf("%s: rebuilt context holds %d, printed %d", f.Path, back, got)
					}
				case "address":
					if got != uint64(f.Offset) {
						t.Fatalf("%s prints %d, its address is %d", f.Path, got, f.Offset)
					}
				}
			}
		}
	}
}

func TestReadCutDump(t *testing.T) {
	ctx := SampleContext(12, SampleLarge)
	text, rc := Emit(ctx, strings.Repeat("n", 150_000), 12)
	if rc != RCBufferFull {
		t.Fatalf("rc %d", rc)
	}
	// The buffer as memory holds it: the text, then NULs.
	buf := append(append([]byte(nil), text...), make([]byte, BufferSize-len(text))...)
	d := Read(buf, 0)
	if !d.Cut || d.Deviation != -1 || d.Arch.ID != 12 || d.End != MaxText || len(d.Model) != 150_000 {
		t.Fatalf("cut %v deviation %d arch %d end %d model %d findings %+v", d.Cut, d.Deviation, d.Arch.ID, d.End, len(d.Model), d.Findings)
	}
	full := EmitMapped(ctx, strings.Repeat("n", 150_000), 12)
	if len(d.Fields) < len(full.Fields)-3 || len(d.Fields) == 0 {
		t.Fatalf("%d fields read, %d in the cut text", len(d.Fields), len(full.Fields))
	}
	for _, f := range d.Fields {
		if f.Source == "field" && readField(d.Context, f) != readField(ctx, f) {
			t.Fatalf("%s rebuilt wrong", f.Path)
		}
	}
}

func TestReadDeviations(t *testing.T) {
	text, _ := Emit(SampleContext(5, SamplePatterned), "m", 5)
	cases := []struct {
		name, from, to string
		want           string // the line or the path the deviation names
	}{
		{"json null instead of %p", `"execute_device_barrier": 0x1,`, `"execute_device_barrier": 1,`, "barrier_configs/execute_device_barrier"},
		{"lowercase hex", `"soc_addr": "0x` + hexOf(text, `"soc_addr": "0x`), `"soc_addr": "0x` + strings.ToLower(hexOf(text, `"soc_addr": "0x`)), "line 24 "},
		{"missing member", "              \"spad_slot_idx\"", "              \"spad_slot_idy\"", "channels/0: "},
		{"wrong channel_id", `"channel_id": 3,`, `"channel_id": 4,`, "channels/3/channel_id"},
		{"fold_n disagrees", "\"fold_n\": 2,\n                \"type\"", "\"fold_n\": 1,\n                \"type\"", "channels/1/prev_neigh/net_idx_addrs"},
	}
	for _, c := range cases {
		if !bytes.Contains(text, []byte(c.from)) {
			t.Fatalf("%s: %q not in the text", c.name, c.from)
		}
		bad := bytes.Replace(text, []byte(c.from), []byte(c.to), 1)
		d := Read(bad, 5)
		if d.Deviation < 0 {
			t.Errorf("%s: no deviation found", c.name)
		}
		found := false
		for _, f := range d.Findings {
			if f.Code == doc.CodeNcfwDeviation && strings.Contains(f.Message, c.want) {
				found = true
			}
		}
		if !found {
			t.Errorf("%s: no %s finding names %q: %+v", c.name, doc.CodeNcfwDeviation, c.want, d.Findings)
		}
	}
	// A value that contradicts an earlier one reading the same bytes: channel 31's prev_neigh
	// walks 5 slots, the 4th overlapping its own fold_n/type bytes.
	d := Read(text, 5)
	if d.Deviation != -1 {
		t.Fatalf("the patterned text deviates at %d: %+v", d.Deviation, d.Findings)
	}
}

func hexOf(text []byte, after string) string {
	i := bytes.Index(text, []byte(after))
	return string(text[i+len(after) : i+len(after)+16])
}

func TestReadLogWrapping(t *testing.T) {
	text, _ := Emit(SampleContext(5, SampleZero), "m\",\n  \"evil\": 1", 5)
	in := append([]byte("2026-11-29T10:00:00 nrt: ctx_log:\n"), text...)
	d := Read(in, 0)
	if d.Start != 34 || d.Model != "m\",\n  \"evil\": 1" || d.Deviation != -1 || d.Arch.ID != 5 || !d.ArchInferred {
		t.Fatalf("start %d model %q deviation %d arch %d %+v", d.Start, d.Model, d.Deviation, d.Arch.ID, d.Findings)
	}
	n := d.Tree.Find("ncfw_ctx_top_sp", "configs", "neff", "barrier_configs", "execute_device_barrier")
	if n == nil || n.Value != "(nil)" || n.Kind != "field" || !strings.Contains(n.Detail, "ctx+0x2BE4") || n.Span.Offset < 34 {
		t.Fatalf("tree node %+v", n)
	}
	if dup := d.Tree.Find("ncfw_ctx_top_sp", "configs", "neff", "barrier_configs", "device_barrier", "dma_sync_sema", "dma_sync_sema#3"); dup == nil {
		t.Fatal("repeated keys are not kept apart")
	}
	// Lines count in the input, prefix included.
	for _, f := range d.Fields[:50] {
		if want := bytes.Count(in[:f.TextStart], []byte{'\n'}) + 1; f.Line != want {
			t.Fatalf("%s: line %d, the input says %d", f.Path, f.Line, want)
		}
	}
}

func TestSniff(t *testing.T) {
	text, _ := Emit(make([]byte, 8), strings.Repeat("x", 100_000), 5)
	for _, c := range []struct {
		in   string
		want bool
	}{
		{string(text), true},
		{string(text[:200_000]), true},
		{"{\n  \"model_name\": \"m\"", true},
		{"\xEF\xBB\xBF {\"model_name\": 1}", true},
		{`{"a": {"ncfw_ctx_top_sp": 1}}`, true},
		{`{"a": 1, "model_name": "x"}`, false},
		{`[1, 2]`, false},
		{"", false},
	} {
		if Sniff([]byte(c.in)) != c.want {
			t.Errorf("Sniff(%.40q) != %v", c.in, c.want)
		}
	}
}

func TestReadGarbage(t *testing.T) {
	for _, in := range []string{"", "{", "not json", "{\n  \"model_name\": \"abc", `{"ncfw_ctx_top_sp": [1,2,3]}`, `[[[[[[`} {
		d := Read([]byte(in), 0)
		if d.Tree == nil || d.Context == nil {
			t.Fatalf("%q: no tree/context", in)
		}
	}
	d := Read([]byte(`{"ncfw_ctx_top_sp": {"configs": 5}}`), 5)
	if len(d.Findings) == 0 || d.Deviation < 0 {
		t.Fatalf("%+v", d)
	}
}

func TestReadExactFit(t *testing.T) {
	ctx := SampleContext(5, SampleLarge)
	base, _ := Emit(ctx, "", 5)
	text, rc := Emit(ctx, strings.Repeat("q", MaxText-len(base)), 5)
	if rc != RCOK || len(text) != MaxText {
		t.Fatalf("rc %d len %d", rc, len(text))
	}
	if d := Read(text, 5); d.Cut || d.Deviation != -1 {
		t.Fatalf("a text that exactly fills the buffer read as cut=%v deviation=%d", d.Cut, d.Deviation)
	}
	if d := Read(text[:len(text)-2], 5); !d.Cut || d.Deviation != -1 {
		t.Fatalf("two bytes short: cut=%v deviation=%d", d.Cut, d.Deviation)
	}
}

func TestReadWrongArch(t *testing.T) {
	text, _ := Emit(SampleContext(5, SampleZero), "m", 5)
	d := Read(text, 12)
	found := false
	for _, f := range d.Findings {
		found = found || f.Code == doc.CodeNcfwArch && f.Severity == doc.Warning
	}
	if !found || d.Deviation < 0 {
		t.Fatalf("a sunda dump read as cayman: %+v", d.Findings)
	}
}

// TestSniffRealFiles: no real compiler output (JSON members, activation blobs, NEFFs) is taken
// for a libncfw dump.
func TestSniffRealFiles(t *testing.T) {
	// The repository's real files and the loose members of its NEFF, and every file of the
	// shared folder where it is beside the clone.
	var paths []string
	for _, root := range []string{realfiles.RepoDir(), realfiles.SharedDir()} {
		if root == "" {
			continue
		}
		if err := filepath.WalkDir(root, func(p string, e fs.DirEntry, err error) error {
			if err == nil && !e.IsDir() {
				paths = append(paths, p)
			}
			return err
		}); err != nil {
			t.Fatal(err)
		}
	}
	for name := range realfiles.ReadDir(t, "nkipy/matmul_small/sg00") {
		paths = append(paths, realfiles.Path(t, "nkipy/matmul_small/sg00/"+name))
	}
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if Sniff(b) {
			t.Errorf("%s sniffs as a libncfw dump", p)
		}
	}
	if len(paths) < 10 {
		t.Fatalf("walked %d files", len(paths))
	}
}
