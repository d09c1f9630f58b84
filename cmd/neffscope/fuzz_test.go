package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/neffscope/neffscope/core/doc"
	"github.com/neffscope/neffscope/core/inspect"
	"github.com/neffscope/neffscope/core/neff/neffbuild"
	"google.golang.org/protobuf/encoding/protowire"
)

// The fuzz targets of the output writers: make fuzz runs them with core's.

// FuzzTermWriter: whatever bytes a printer writes, and however they are cut into writes, the
// terminal gets valid UTF-8 with no rune of escapedRunes but newline and tab, and the same
// bytes as one write gives.
func FuzzTermWriter(f *testing.F) {
	f.Add([]byte("a\x1b]0;t\x07b\r\xc2\x9b\xe2\x82\xac ok\n"), uint(9))
	f.Add([]byte(forging), uint(5))
	f.Add([]byte("\U000e0001\u202e\xf0\x9f"), uint(2))
	f.Fuzz(func(t *testing.T, p []byte, cut uint) {
		write := func(parts ...[]byte) string {
			var b bytes.Buffer
			tw := &termWriter{w: &b}
			for _, part := range parts {
				if n, err := tw.Write(part); n != len(part) || err != nil {
					t.Fatalf("Write: %d of %d, %v", n, len(part), err)
				}
			}
			tw.Flush()
			return b.String()
		}
		whole := write(p)
		k := int(cut % uint(len(p)+1))
		if cutUp := write(p[:k], p[k:]); cutUp != whole {
			t.Fatalf("%q cut at %d: %q, one write %q", p, k, cutUp, whole)
		}
		if !utf8.ValidString(whole) {
			t.Fatalf("%q: invalid UTF-8 out: %q", p, whole)
		}
		if r, ok := rawEscapable(whole, true); ok {
			t.Fatalf("%q: %U raw in %q", p, r, whole)
		}
		if s := string(p); plain(s) != (safe(s) == s) || !utf8.ValidString(safe(s)) {
			t.Fatalf("%q: safe gives %q", s, safe(s))
		} else if r, ok := rawEscapable(safe(s), false); ok {
			t.Fatalf("%q: %U raw in safe's %q", s, r, safe(s))
		}
	})
}

// FuzzJSONOut: every JSON writer's output parses, to the values given (invalid UTF-8 as
// U+FFFD), with no raw rune of escapedRunes: disasm's string encoder and the jsonEscaper over
// encoding/json however its output is cut into writes. FuzzJSONOutNEFF drives the commands'
// writers on a NEFF carrying the string; it is apart because an open per input is ~100 times
// the cost of the writers, and the writers' target should run at thousands of inputs a second.
func FuzzJSONOut(f *testing.F) {
	addJSONSeeds(f)
	f.Fuzz(func(t *testing.T, s string, cut uint) {
		noRaw := noRawIn(t, s)
		// disasm --json's encoder.
		b := doc.AppendJSONString(nil, s, doc.JSONSafe)
		var back string
		if err := json.Unmarshal(b, &back); err != nil || back != replaceInvalid(s) {
			t.Fatalf("%q: doc.AppendJSONString %s parses to %q, %v", s, b, back, err)
		}
		noRaw("doc.AppendJSONString", b)
		// encoding/json through the escaper, cut anywhere.
		v := map[string][]string{s: {s, "x" + s}}
		m, _ := json.MarshalIndent(v, "", "\t")
		var out bytes.Buffer
		k := int(cut % uint(len(m)+1))
		je := &jsonEscaper{w: &out}
		je.Write(m[:k])
		je.Write(m[k:])
		je.Flush()
		var got map[string][]string
		if err := json.Unmarshal(out.Bytes(), &got); err != nil || len(got) != 1 || got[replaceInvalid(s)][1] != "x"+replaceInvalid(s) {
			t.Fatalf("%q: escaped %s parses to %q, %v", s, out.Bytes(), got, err)
		}
		noRaw("jsonEscaper", out.Bytes())
	})
}

func addJSONSeeds(f *testing.F) {
	f.Add(forging, uint(3))
	f.Add("<script>&amp;</script>\x00\"\\", uint(7))
	f.Add("\xed\xa0\x80 \xc0\xaf \xf4\x90\x80\x80", uint(1))
}

// noRawIn fails t when out holds a raw rune of escapedRunes.
func noRawIn(t testing.TB, s string) func(what string, out []byte) {
	return func(what string, out []byte) {
		if r, ok := rawEscapable(string(out), true); ok {
			t.Fatalf("%q: %s: %U raw in %s", s, what, r, out)
		}
	}
}

// FuzzJSONOutNEFF: info --json and inspect --json (File.WriteJSON) of a NEFF whose model name,
// member name, JSON string and .dbg strings are the fuzzed string parse, with no raw rune of
// escapedRunes.
func FuzzJSONOutNEFF(f *testing.F) {
	addJSONSeeds(f)
	f.Fuzz(func(t *testing.T, s string, _ uint) { jsonOutNEFF(t, s) })
}

// BenchmarkFuzzJSONOutNEFF runs FuzzJSONOutNEFF's body on its seeds: where a fuzz run's time
// goes.
func BenchmarkFuzzJSONOutNEFF(b *testing.B) {
	seeds := []string{forging, "<script>&amp;</script>\x00\"\\", "\xed\xa0\x80 \xc0\xaf \xf4\x90\x80\x80"}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		jsonOutNEFF(b, seeds[i%len(seeds)])
	}
}

func jsonOutNEFF(t testing.TB, s string) {
	noRaw := noRawIn(t, s)
	nb, ok := neffCarrying(s)
	if !ok {
		return
	}
	file := inspect.Open("fuzz.neff", bytes.NewReader(nb), int64(len(nb)), inspect.Options{})
	var out bytes.Buffer
	info, _ := json.MarshalIndent(infoJSON(file), "", "  ")
	w := jsonStdout(&out)
	w.Write(info)
	if !json.Valid(out.Bytes()) {
		t.Fatalf("%q: info --json does not parse: %s", s, out.Bytes())
	}
	noRaw("info --json", out.Bytes())
	out.Reset()
	if _, err := file.WriteJSON(jsonStdout(&out)); err != nil {
		t.Fatalf("%q: WriteJSON: %v", s, err)
	}
	var d doc.Document
	if err := json.Unmarshal(out.Bytes(), &d); err != nil {
		t.Fatalf("%q: inspect --json does not parse: %v", s, err)
	}
	noRaw("inspect --json", out.Bytes())
}

// neffCarrying builds a small NEFF (no model: the fuzzer's time goes to the writers) with s as
// its name, in a member's name (when a GNU tar header can carry it), as a JSON member's string
// and as a .dbg member's strings.
func neffCarrying(s string) (nb []byte, ok bool) {
	if len(s) > 4096 {
		return nil, false
	}
	str := func(b []byte, n protowire.Number, s string) []byte {
		return protowire.AppendString(protowire.AppendTag(b, n, protowire.BytesType), s)
	}
	var dbgb []byte
	dbgb = str(dbgb, 1, s)
	dbgb = str(dbgb, 5, s)
	rec := str(protowire.AppendVarint(protowire.AppendTag(nil, 1, protowire.VarintType), 1), 2, s)
	dbgb = protowire.AppendBytes(protowire.AppendTag(dbgb, 3, protowire.BytesType), rec)
	js, _ := json.Marshal(map[string]string{"k": s})
	members := []neffbuild.Member{
		{Path: "sg00/debug_info_backend_PE.dbg", Data: dbgb},
		{Path: "sg00/s.json", Data: js}}
	if s != "" && !strings.ContainsRune(s, 0) {
		members = append(members, neffbuild.Member{Path: "m/" + s, Data: []byte("x")})
	}
	defer func() {
		if recover() != nil { // a name archive/tar cannot write
			nb, ok = nil, false
		}
	}()
	return neffbuild.Bytes(members, neffbuild.Options{Name: s, GNU: true, Plain: true, PadTo: -1}), true
}
