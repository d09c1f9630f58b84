package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/neffscope/neffscope/internal/realfiles"
	"github.com/neffscope/neffscope/internal/repack"
)

// joinParts are the joins `disasm --json` gives a word, in the words of the text listing
// (inspect.Resolved.String without its problem).
func joinParts(in instJSON) []string {
	var parts []string
	add := func(prefix, v string) {
		if v != "" {
			parts = append(parts, prefix+v)
		}
	}
	if a := in.Activation; a != nil {
		add("set ", a.Set)
		add("fn ", a.Function)
	}
	if d := in.DMA; d != nil {
		add("queue ", d.Queue)
		add("", d.Block)
		if d.Src != "" || d.Dst != "" {
			parts = append(parts, d.Src+" → "+d.Dst)
		}
	}
	return parts
}

// textJoins reads the joins of every word of a text listing: per stream member, per word
// index, the " · " parts of its "; resolved" segment (the problem, "⚠ …", left out). The
// segment is the one after the summary and sync band that is not the word's source.
func textJoins(t *testing.T, text string, sources map[string]map[int]string) map[string]map[int][]string {
	t.Helper()
	out := map[string]map[int][]string{}
	member := ""
	for _, line := range strings.Split(text, "\n") {
		if strings.HasPrefix(line, "; ") {
			if f := strings.Fields(line); len(f) >= 4 && strings.HasSuffix(line, " bytes)") {
				member = f[3]
			}
			continue
		}
		segs := strings.Split(line, "  ; ")
		if len(segs) < 2 {
			continue
		}
		i, err := strconv.Atoi(strings.Fields(segs[0])[0])
		if err != nil {
			t.Fatalf("line %q: no index", line)
		}
		for _, seg := range segs[1:] {
			if seg == sources[member][i] {
				continue
			}
			var parts []string
			for _, p := range strings.Split(seg, " · ") {
				if !strings.HasPrefix(p, "⚠ ") {
					parts = append(parts, p)
				}
			}
			if out[member] == nil {
				out[member] = map[int][]string{}
			}
			out[member][i] = parts
		}
	}
	return out
}

// checkJoinsAgree runs `disasm` and `disasm --json` on a file and holds every join the text
// shows to be in the JSON, and every join of the JSON to be in the text. It returns how many
// words the two join.
func checkJoinsAgree(t *testing.T, path string) int {
	t.Helper()
	text, errs, rc := runCLI(t, "disasm", path)
	if rc != 0 {
		t.Fatalf("disasm: rc %d: %s", rc, errs)
	}
	js, errs, rc := runCLI(t, "disasm", "--json", path)
	if rc != 0 {
		t.Fatalf("disasm --json: rc %d: %s", rc, errs)
	}
	var doc struct{ Streams []streamJSON }
	if err := json.Unmarshal([]byte(js), &doc); err != nil {
		t.Fatal(err)
	}
	f := openForTest(t, path)
	sources := map[string]map[int]string{}
	for _, s := range doc.Streams {
		sources[s.Member] = map[int]string{}
		for _, in := range s.Instructions {
			if src := f.Program.Source.Source(s.Member, in.Index); src != nil {
				sources[s.Member][in.Index] = src.Text()
			}
		}
	}
	shown := textJoins(t, text, sources)
	joined := 0
	for _, s := range doc.Streams {
		for _, in := range s.Instructions {
			want, got := joinParts(in), shown[s.Member][in.Index]
			for _, p := range got {
				if !slices.Contains(want, p) {
					t.Errorf("%s #%d (%s): the text shows %q, the JSON joins %q", s.Member, in.Index, in.Name, p, want)
				}
			}
			for _, p := range want {
				if !slices.Contains(got, p) {
					t.Errorf("%s #%d (%s): the JSON joins %q, the text shows %q", s.Member, in.Index, in.Name, p, got)
				}
			}
			if len(want) > 0 {
				joined++
			}
		}
	}
	return joined
}

// TestDisasmJoinsAgree: on every real NEFF, `disasm` and `disasm --json` show the same joins.
func TestDisasmJoinsAgree(t *testing.T) {
	for _, p := range realfiles.NEFFs(t) {
		t.Run(filepath.Base(p), func(t *testing.T) {
			if n := checkJoinsAgree(t, p); n == 0 {
				t.Errorf("no joined word")
			}
		})
	}
}

// TestDisasmJoinsActivate2: file_pool_1_float16 (2.18, Trn1) with its Activate words rewritten as Activate2 (0x25,
// whose function code sits at +0x23 too): both listings name the set and the function.
func TestDisasmJoinsActivate2(t *testing.T) {
	src := realfiles.Read(t, "cs149-trn1/file_pool_1_float16.neff")
	rewritten := 0
	neffBytes := repack.NEFF(src, func(path string, data []byte) ([]byte, bool) {
		if strings.HasSuffix(path, "/Activation.bin") {
			data = bytes.Clone(data)
			for off := 0; off+64 <= len(data); off += 64 {
				if data[off] == 0x21 {
					data[off] = 0x25
					rewritten++
				}
			}
		}
		return data, true
	})
	if rewritten == 0 {
		t.Fatal("file_pool_1_float16 has no Activate word")
	}
	p := filepath.Join(t.TempDir(), "activate2.neff")
	if err := os.WriteFile(p, neffBytes, 0o644); err != nil {
		t.Fatal(err)
	}
	checkJoinsAgree(t, p)
	js, _, _ := runCLI(t, "disasm", "--json", p)
	var doc struct{ Streams []streamJSON }
	if err := json.Unmarshal([]byte(js), &doc); err != nil {
		t.Fatal(err)
	}
	named := 0
	for _, s := range doc.Streams {
		for _, in := range s.Instructions {
			if in.Opcode == 0x25 && in.Activation != nil && in.Activation.Set != "" && in.Activation.Function != "" {
				named++
			}
		}
	}
	if named != rewritten {
		t.Errorf("%d of %d Activate2 words have their set and function in the JSON", named, rewritten)
	}
}
