package isa

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/neffscope/neffscope/core/doc"
	"github.com/neffscope/neffscope/core/neff"
)

const realDir = "../../../shared/testdata-real"

func realNEFFs(t *testing.T) []string {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(realDir, "*", "*.neff"))
	if len(files) == 0 {
		t.Skipf("no real NEFFs under %s (the shared test data is absent in a fresh clone)", realDir)
	}
	sort.Strings(files)
	return files
}

// readNEFF returns the def.json and .bin members of a real NEFF.
func readNEFF(t *testing.T, path string) map[string][]byte {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		t.Fatal(err)
	}
	m, err := neff.ReadMembers(f, st.Size(), func(p string, _ int64) bool {
		return strings.HasSuffix(p, "/def.json") || strings.HasSuffix(p, ".bin")
	})
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return m
}

// engineStreams finds each subgraph's engine streams through def.json's "<eng>_instr" keys
// (neff.md §3.4): member path → engine key.
func engineStreams(t *testing.T, members map[string][]byte) map[string]string {
	t.Helper()
	out := map[string]string{}
	for p, b := range members {
		if !strings.HasSuffix(p, "/def.json") {
			continue
		}
		dir := strings.TrimSuffix(p, "def.json")
		var def map[string]any
		if err := json.Unmarshal(b, &def); err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		for k, v := range def {
			name, ok := v.(string)
			if !strings.HasSuffix(k, "_instr") || !ok {
				continue
			}
			out[dir+name] = strings.TrimSuffix(k, "_instr")
		}
	}
	return out
}

// TestRealStreams decodes every engine stream of every real NEFF: size/64 instructions, each
// named from the table or flagged unknown, every word renderable as a row and a node.
func TestRealStreams(t *testing.T) {
	unknownPerEngine := map[string]int{}
	wordsPerEngine := map[string]int{}
	streams := 0
	for _, path := range realNEFFs(t) {
		members := readNEFF(t, path)
		found := engineStreams(t, members)
		if len(found) == 0 {
			t.Errorf("%s: no <eng>_instr streams in any def.json", path)
		}
		for member, engine := range found {
			b, ok := members[member]
			if !ok {
				t.Errorf("%s: def.json names %s, which is not a member", path, member)
				continue
			}
			streams++
			s := NewStream(member, b)
			if s.Len() != len(b)/64 || s.Trailing() != 0 {
				t.Errorf("%s %s: %d instructions, %d trailing, size %d", path, member, s.Len(), s.Trailing(), len(b))
			}
			for _, f := range s.Findings() {
				if f.Severity != "info" {
					t.Errorf("%s %s: %s", path, member, f.Message)
				}
			}
			total := 0
			for _, c := range s.Counts() {
				total += c.Count
				if !c.Known {
					unknownPerEngine[engine] += c.Count
					if !strings.HasPrefix(c.Name, "op_0x") {
						t.Errorf("unknown opcode %#x named %q", c.Opcode, c.Name)
					}
				}
			}
			wordsPerEngine[engine] += total
			if total != s.Len() {
				t.Errorf("%s %s: counts sum %d != %d", path, member, total, s.Len())
			}
			rows := s.Rows(0, s.Len())
			if len(rows.Rows) != s.Len() || len(rows.RowSpans) != s.Len() {
				t.Fatalf("%s %s: %d rows", path, member, len(rows.Rows))
			}
			for i, r := range rows.Rows {
				if r[3] != OpcodeName(s.Word(i)[0]) || rows.RowSpans[i].Offset != int64(i)*64 || rows.RowSpans[i].Source != member {
					t.Fatalf("%s %s row %d: %v %+v", path, member, i, r, rows.RowSpans[i])
				}
			}
			if engine == "act" {
				checkActivationChain(t, path, member, s)
			}
			for i := 0; i < s.Len(); i++ {
				for _, f := range nodeFindings(s.Node(i)) {
					t.Errorf("%s %s #%d: %s", path, member, i, f)
				}
			}
		}
	}
	engines := make([]string, 0, len(wordsPerEngine))
	for e := range wordsPerEngine {
		engines = append(engines, e)
	}
	sort.Strings(engines)
	for _, e := range engines {
		t.Logf("engine %-4s %7d words, %d with an opcode in no table", e, wordsPerEngine[e], unknownPerEngine[e])
	}
	t.Logf("%d engine streams", streams)
	if streams < 5 {
		t.Errorf("only %d streams found", streams)
	}
}

// nodeFindings returns the messages of warning/error findings anywhere in n.
func nodeFindings(n *doc.Node) []string {
	var out []string
	n.Walk(func(_ []string, c *doc.Node) bool {
		for _, f := range c.Findings {
			if f.Severity != doc.Info {
				out = append(out, f.Severity+": "+f.Message)
			}
		}
		return true
	})
	return out
}

// TestRealActivationSetsAttnV6 checks the ActivationTableLoad → Activate chain of
// nki-moe/attn_v6 (activation.md §1.1): every Activate follows a load, every set index is
// within Activation.json's activation_function_sets, and every function code is the func_id of
// a function in the set resident at that point (read from the extracted <set>.json).
func TestRealActivationSetsAttnV6(t *testing.T) {
	path := filepath.Join(realDir, "nki-moe", "attn_v6.neff")
	dir := filepath.Join(realDir, "nki-moe", "attn_v6", "sg00")
	if _, err := os.Stat(path); err != nil {
		t.Skipf("real NEFF absent: %v", err)
	}
	var act struct {
		Sets []string `json:"activation_function_sets"`
	}
	readJSON(t, filepath.Join(dir, "Activation.json"), &act)
	if len(act.Sets) != 2 {
		t.Fatalf("activation_function_sets = %v", act.Sets)
	}
	funcIDs := make([]map[uint8]string, len(act.Sets))
	for i, name := range act.Sets {
		var prof struct {
			Meta []struct {
				FuncName string `json:"func_name"`
				FuncID   int    `json:"func_id"`
			} `json:"profile_meta_data"`
		}
		readJSON(t, filepath.Join(dir, name+".json"), &prof)
		funcIDs[i] = map[uint8]string{}
		for _, m := range prof.Meta {
			funcIDs[i][uint8(m.FuncID)] = m.FuncName
		}
	}
	members := readNEFF(t, path)
	s := NewStream("sg00/Activation.bin", members["sg00/Activation.bin"])
	if s.Len() == 0 {
		t.Fatal("no sg00/Activation.bin")
	}
	loads, activates := map[int]int{}, map[string]int{}
	for i := 0; i < s.Len(); i++ {
		w := s.Word(i)
		if set, ok := SetIndexOf(w); ok {
			if set >= len(act.Sets) {
				t.Errorf("#%d loads set %d, beyond the %d sets of Activation.json", i, set, len(act.Sets))
			}
			loads[set]++
			continue
		}
		code, ok := FuncCodeOf(w)
		if !ok {
			continue
		}
		set, at, ok := s.ResidentSet(i)
		if !ok {
			t.Errorf("#%d Activate (func %d) has no ActivationTableLoad before it", i, code)
			continue
		}
		if at >= i || w[0] != 0x21 {
			t.Fatalf("#%d: resident load at %d", i, at)
		}
		name, found := funcIDs[set][code]
		if !found {
			t.Errorf("#%d Activate func %d is not in resident set %d %s", i, code, set, act.Sets[set])
		}
		activates[act.Sets[set]+"/"+name]++
	}
	// The spec's own example: exp (code 7) runs from natural_log_exp_and_others (set 1) and
	// rsqrt (code 29) from reciprocal_sqrt_and_small (set 0).
	if activates["natural_log_exp_and_others/exp_400p"] == 0 || activates["reciprocal_sqrt_and_small/reciprocal_sqrt_40000p"] == 0 {
		t.Errorf("expected exp and rsqrt activations, got %v", activates)
	}
	if loads[0] == 0 || loads[1] == 0 {
		t.Errorf("loads per set: %v", loads)
	}
	t.Logf("loads per set %v; activations by set/function %v", loads, activates)
}

func readJSON(t *testing.T, path string, v any) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Skipf("extracted member absent: %v", err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}

// checkActivationChain: every Activate in an Activation stream follows an
// ActivationTableLoad whose set index is within the subgraph's extracted Activation.json list.
func checkActivationChain(t *testing.T, neffPath, member string, s *Stream) {
	t.Helper()
	var act struct {
		Sets []string `json:"activation_function_sets"`
	}
	jsonPath := filepath.Join(strings.TrimSuffix(neffPath, ".neff"), filepath.Dir(member), "Activation.json")
	b, err := os.ReadFile(jsonPath)
	if err != nil {
		t.Logf("%s: no extracted Activation.json beside it (%v); chain not checked", member, err)
		return
	}
	if err := json.Unmarshal(b, &act); err != nil {
		t.Fatalf("%s: %v", jsonPath, err)
	}
	activates := 0
	for i := 0; i < s.Len(); i++ {
		w := s.Word(i)
		if set, ok := SetIndexOf(w); ok && set >= len(act.Sets) {
			t.Errorf("%s %s #%d: set index %d beyond %d sets", neffPath, member, i, set, len(act.Sets))
		}
		if _, ok := FuncCodeOf(w); ok {
			activates++
			if _, _, ok := s.ResidentSet(i); !ok {
				t.Errorf("%s %s #%d: Activate with no ActivationTableLoad before it", neffPath, member, i)
			}
		}
	}
	t.Logf("%s %s: %d Activate words, all after a load; %d sets listed", filepath.Base(neffPath), member, activates, len(act.Sets))
}
