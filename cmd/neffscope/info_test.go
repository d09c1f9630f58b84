package main

import (
	"bytes"
	"crypto/md5"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/neffscope/neffscope/core/doc"
	"github.com/neffscope/neffscope/core/neff/neffbuild"
	"github.com/neffscope/neffscope/internal/bigneff"
	"github.com/neffscope/neffscope/internal/realfiles"
)

func runCLI(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	var out, errb bytes.Buffer
	rc := run(args, &out, &errb)
	return out.String(), errb.String(), rc
}

func TestInfoJSONOnRealNEFFs(t *testing.T) {
	for _, p := range realfiles.NEFFs(t) {
		t.Run(filepath.Base(p), func(t *testing.T) {
			out, errs, rc := runCLI(t, "info", "--json", p)
			if rc != 0 {
				t.Fatalf("rc %d: %s", rc, errs)
			}
			var got map[string]any
			if err := json.Unmarshal([]byte(out), &got); err != nil {
				t.Fatalf("not one JSON object: %v\n%s", err, out)
			}
			for _, k := range []string{"file", "size", "header", "payload", "members", "findings"} {
				if _, ok := got[k]; !ok {
					t.Errorf("missing key %q", k)
				}
			}
			var info InfoJSON
			json.Unmarshal([]byte(out), &info)
			b, _ := os.ReadFile(p)
			sum := md5.Sum(b[1024:])
			h := info.Header
			if info.Size != int64(len(b)) || h.PkgVersion != 2 || h.HeaderSize != 1024 || h.DataSize != uint64(len(b)-1024) ||
				h.Hash != hex.EncodeToString(sum[:]) || len(h.TPBPerNode) != 64 || h.TPBPerNode[0] != 1 || h.UUID[14] != '4' {
				t.Errorf("header %+v", h)
			}
			if info.Payload.Encoding != "gzip" || info.Payload.Integrity != "ok" || info.Payload.ComputedHash != h.Hash || info.Payload.PaddingBytes <= 0 {
				t.Errorf("payload %+v", info.Payload)
			}
			for _, f := range info.Findings {
				if f.Severity != "info" {
					t.Errorf("%s finding on a real NEFF: %s", f.Severity, f.Message)
				}
			}
			if len(info.Members) < 30 {
				t.Errorf("%d members", len(info.Members))
			}
			wantNames := map[uint64]string{0: "", 0xC00: "vnc,dve_perf_mode", 0x209C00: "vnc,dve_perf_mode,DGE,DGE_cast,hardware_DGE"}
			if w, ok := wantNames[h.FeatureBits]; !ok || strings.Join(h.FeatureNames, ",") != w {
				t.Errorf("features 0x%x named %v", h.FeatureBits, h.FeatureNames)
			}
			// Every member's sha256 matches its extracted bytes.
			for _, m := range info.Members {
				data, _, rc := runCLI(t, "extract", p, m.Path)
				s := sha256.Sum256([]byte(data))
				if rc != 0 || int64(len(data)) != m.Size || hex.EncodeToString(s[:]) != m.SHA256 {
					t.Errorf("extract %s: rc %d, %d bytes, sha %x vs %s", m.Path, rc, len(data), s, m.SHA256)
				}
			}
		})
	}
}

func TestInfoHumanAndInspect(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "gen.neff")
	os.WriteFile(p, neffbuild.Bytes(neffbuild.Sample(), neffbuild.Options{FeatureBits: 0x400, Name: "my-model"}), 0o644)
	out, _, rc := runCLI(t, "info", p)
	for _, want := range []string{"Package Version (pkg_version)  2", "Network Name", "my-model", "0x400  vnc", "MD5 ok", "sg00/def.json", "would accept"} {
		if !strings.Contains(out, want) || rc != 0 {
			t.Errorf("info output lacks %q (rc %d):\n%s", want, rc, out)
		}
	}
	out, _, rc = runCLI(t, "inspect", "--json", p)
	var d struct {
		Kind   string `json:"kind"`
		SHA256 string `json:"sha256"`
		Root   struct {
			Children []struct {
				Label string `json:"label"`
			} `json:"children"`
		} `json:"root"`
	}
	if err := json.Unmarshal([]byte(out), &d); err != nil || rc != 0 || d.Kind != "neff" || len(d.SHA256) != 64 || len(d.Root.Children) != 6 || d.Root.Children[0].Label != "overview" || d.Root.Children[2].Label != "Model" {
		t.Errorf("inspect --json: rc %d err %v doc %+v", rc, err, d)
	}
	// A broken file: findings, exit 1, and the summary still printed.
	b, _ := os.ReadFile(p)
	b[len(b)-1] = 1
	os.WriteFile(p, b, 0o644)
	out, _, rc = runCLI(t, "info", p)
	if rc != 1 || !strings.Contains(out, "REJECT") {
		t.Errorf("damaged file: rc %d\n%s", rc, out)
	}
	if codes := infoCodes(t, p); codes[doc.CodeNeffHashMismatch] == 0 {
		t.Errorf("damaged file: no %s finding in %v", doc.CodeNeffHashMismatch, codes)
	}
	if _, errs, rc := runCLI(t, "extract", p, "nope.json"); rc != 2 || !strings.Contains(errs, `no member "nope.json"`) {
		t.Errorf("extract of a missing member: rc %d %s", rc, errs)
	}
	if _, _, rc := runCLI(t, "bogus"); rc != 2 {
		t.Errorf("unknown command rc %d", rc)
	}
}

func TestDisasm(t *testing.T) {
	p := realfiles.Path(t, "nkipy/matmul_small.neff")
	out, errs, rc := runCLI(t, "disasm", "--sg", "sg00", "--engine", "Activation", p)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	// A title line, then sg00/Activation.bin's 320 bytes: 5 words, the third loading the set.
	if rc != 0 || len(lines) != 1+320/64 || !strings.Contains(lines[3], "ActivationTableLoad") || !strings.Contains(lines[3], "set exp_and_others") {
		t.Fatalf("rc %d %s\n%d lines; line 3: %q", rc, errs, len(lines), lines[min(3, len(lines)-1)])
	}
	out, _, rc = runCLI(t, "disasm", "--json", p)
	var d disasmJSON
	if err := json.Unmarshal([]byte(out), &d); err != nil || rc != 0 || len(d.Streams) != 10 {
		t.Fatalf("disasm --json: rc %d, %v, %d streams", rc, err, len(d.Streams))
	}
	loads := 0
	for _, s := range d.Streams {
		if s.Count != len(s.Instructions) || s.Subgraph == "" || s.Member == "" {
			t.Errorf("stream %s/%s: count %d, %d instructions", s.Subgraph, s.Engine, s.Count, len(s.Instructions))
		}
		for _, in := range s.Instructions {
			if in.Opcode == 0x23 {
				loads++
			}
		}
	}
	if loads != 2 {
		t.Errorf("%d ActivationTableLoad instructions, want 2 (one per core)", loads)
	}
	t.Run("attn_v6", func(t *testing.T) {
		p, ok := realfiles.Optional(t, "nki-moe/attn_v6.neff", "Activate instructions resolved to their function")
		if !ok {
			return
		}
		out, errs, rc := runCLI(t, "disasm", "--sg", "sg00", "--engine", "Activation", p)
		lines := strings.Split(strings.TrimSpace(out), "\n")
		if rc != 0 || len(lines) != 150 || !strings.Contains(lines[19], "Activate") || !strings.Contains(lines[19], "fn exp_400p") {
			t.Fatalf("rc %d %s\n%d lines; line 19: %q", rc, errs, len(lines), lines[min(19, len(lines)-1)])
		}
		out, _, rc = runCLI(t, "disasm", "--json", p)
		var d disasmJSON
		if err := json.Unmarshal([]byte(out), &d); err != nil || rc != 0 || len(d.Streams) != 10 {
			t.Fatalf("disasm --json: rc %d, %v, %d streams", rc, err, len(d.Streams))
		}
		acts := 0
		for _, s := range d.Streams {
			for _, in := range s.Instructions {
				if in.Opcode == 0x21 {
					acts++
					if in.Activation == nil || in.Activation.Set == "" || in.Activation.Function == "" {
						t.Errorf("%s #%d: activation %+v", s.Member, in.Index, in.Activation)
					}
				}
			}
		}
		if acts != 136 {
			t.Errorf("%d Activate instructions, want 136", acts)
		}
	})
}

// inspect reads the file again while it prints (a stub's children: a .dbg member's tree that
// the open did not hold), so the file stays open until the output is written.
func TestInspectReadsStubsAfterTheOpen(t *testing.T) {
	if testing.Short() {
		t.Skip("-short skips the slow tests; make test-core runs this one")
	}
	path := filepath.Join(t.TempDir(), "big.neff")
	if _, err := bigneff.Generate(path, bigneff.Options{Size: 4 << 20, DefJSON: 2_000_000, DebugJSON: 2_000_000}); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"inspect", "--json", path}, {"inspect", path}} {
		var out, errb bytes.Buffer
		rc := run(args, &out, &errb)
		if rc != 0 || errb.Len() > 0 {
			t.Fatalf("%v: rc %d, stderr %s", args, rc, errb.String())
		}
		if !strings.Contains(out.String(), "debug_info_backend_PE.dbg") || out.Len() < 10<<20 {
			t.Errorf("%v: %d bytes of output", args, out.Len())
		}
	}
}

// info leaves the .dbg members' scan out of its open (it prints no source lines): it says so,
// in text and in --json, and its findings are the full open's less those on the .dbg members
// and the source mapping — nothing else is lost.
func TestInfoLeavesDebugInfoOut(t *testing.T) {
	for _, p := range realfiles.NEFFs(t) {
		t.Run(filepath.Base(p), func(t *testing.T) {
			out, errs, rc := runCLI(t, "info", "--json", p)
			if rc != 0 {
				t.Fatalf("rc %d: %s", rc, errs)
			}
			var info InfoJSON
			if err := json.Unmarshal([]byte(out), &info); err != nil {
				t.Fatal(err)
			}
			var n int
			var size int64
			for _, m := range info.Members {
				if b := filepath.Base(m.Path); strings.HasPrefix(b, "debug_info_") && strings.Contains(b, ".dbg") {
					n++
					size += m.Size
				}
			}
			if n == 0 {
				if info.DebugInfo != nil {
					t.Errorf("debugInfo %+v on a NEFF without .dbg members", info.DebugInfo)
				}
				return
			}
			if d := info.DebugInfo; d == nil || d.Members != n || d.Bytes != size || d.Mapped {
				t.Errorf("debugInfo %+v, want %d members, %d bytes, not mapped", d, n, size)
			}
			text, _, _ := runCLI(t, "info", p)
			if !strings.Contains(text, fmt.Sprintf("Debug info: %d .dbg members", n)) || !strings.Contains(text, "'neffscope inspect' maps them") {
				t.Errorf("the text does not say the debug info was not read:\n%s", text)
			}
			// The full open's findings, from inspect --json.
			full, _, _ := runCLI(t, "inspect", "--json", p)
			var d struct {
				Root json.RawMessage `json:"root"`
			}
			json.Unmarshal([]byte(full), &d)
			want := map[string]int{}
			collectFindings(t, d.Root, want)
			got := map[string]int{}
			for _, f := range info.Findings {
				got[string(f.Code)+" "+f.Severity+" "+f.Message]++
			}
			for k, c := range got {
				if want[k] < c {
					t.Errorf("info has a finding the full open lacks: %s", k)
				}
			}
			for k, c := range want {
				if got[k] < c && !strings.HasPrefix(k, "dbg.") && !strings.HasPrefix(k, "source.") {
					t.Errorf("info lost a finding that is not the debug info's: %s", k)
				}
			}
		})
	}
}

// collectFindings counts every finding (code, severity and message) in an inspect --json node
// tree.
func collectFindings(t *testing.T, raw json.RawMessage, into map[string]int) {
	var n struct {
		Findings []struct {
			Code     string `json:"code"`
			Severity string `json:"severity"`
			Message  string `json:"message"`
		} `json:"findings"`
		Children []json.RawMessage `json:"children"`
	}
	if err := json.Unmarshal(raw, &n); err != nil {
		t.Fatal(err)
	}
	for _, f := range n.Findings {
		into[f.Code+" "+f.Severity+" "+f.Message]++
	}
	for _, c := range n.Children {
		collectFindings(t, c, into)
	}
}

// TestInfoFitsAScreen: info on every real NEFF is one screen (at most 60 lines), its member
// summary adds up to the member count, --members lists every member, and the header's core
// count and the model's subgraphs say the same thing.
func TestInfoFitsAScreen(t *testing.T) {
	for _, p := range realfiles.Glob("*/*.neff") {
		t.Run(filepath.Base(p), func(t *testing.T) {
			out, _, rc := runCLI(t, "info", p)
			lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
			if rc != 0 || len(lines) > 60 {
				t.Fatalf("rc %d, %d lines:\n%s", rc, len(lines), out)
			}
			js, _, _ := runCLI(t, "info", "--json", p)
			var d InfoJSON
			if err := json.Unmarshal([]byte(js), &d); err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(out, fmt.Sprintf("Members: %d,", len(d.Members))) {
				t.Errorf("no summary of %d members:\n%s", len(d.Members), out)
			}
			sum := 0
			inSummary := false
			for _, l := range lines {
				if strings.HasPrefix(l, "Members:") {
					inSummary = true
					continue
				}
				if inSummary {
					var n int
					if _, err := fmt.Sscanf(strings.TrimSpace(l), "%d", &n); err != nil || !strings.HasPrefix(l, "  ") {
						break
					}
					sum += n
				}
			}
			if sum != len(d.Members) {
				t.Errorf("the summary's classes add up to %d members, not %d", sum, len(d.Members))
			}
			all, _, _ := runCLI(t, "info", "--members", p)
			for _, m := range d.Members {
				if !strings.Contains(all, " "+m.Path+"\n") {
					t.Errorf("--members does not list %s", m.Path)
				}
			}
			if d.Header != nil && d.Header.LNCSize == 2 && !strings.Contains(out, "1 logical (LNC 2: 2 physical)") {
				t.Errorf("the header's core count does not say it is logical:\n%s", out)
			}
		})
	}
}

// infoCodes runs info --json on p and counts its findings by code.
func infoCodes(t *testing.T, p string) map[doc.Code]int {
	t.Helper()
	out, errs, _ := runCLI(t, "info", "--json", p)
	var info InfoJSON
	if err := json.Unmarshal([]byte(out), &info); err != nil {
		t.Fatalf("info --json %s: %v (%s)", p, err, errs)
	}
	codes := map[doc.Code]int{}
	for _, f := range info.Findings {
		codes[f.Code]++
	}
	return codes
}
