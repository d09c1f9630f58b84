package isa

import (
	"encoding/json"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/neffscope/neffscope/core/doc"
	"github.com/neffscope/neffscope/core/neff"
	"github.com/neffscope/neffscope/internal/realfiles"
)

// readNEFF returns the def.json, Activation.json, activation-set profile and .bin members of a
// real NEFF.
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
		return strings.HasSuffix(p, "/def.json") || strings.HasSuffix(p, ".bin") || strings.HasSuffix(p, ".json") && !strings.HasSuffix(p, "act_info.json") && strings.HasPrefix(p, "sg")
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
	for _, path := range realfiles.NEFFs(t) {
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
				checkActivationChain(t, path, member, s, members)
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

// activationChain follows the ActivationTableLoad → Activate chain of sg00/Activation.bin
// (activation.md §1.1): every Activate follows a load, every set index is within
// Activation.json's activation_function_sets, and every function code is the func_id of a
// function in the set resident at that point (read from the member <set>.json). It returns the
// loads per set index and the activations by set/function.
func activationChain(t *testing.T, path string) (sets []string, loads map[int]int, activates map[string]int) {
	t.Helper()
	members := readNEFF(t, path)
	var act struct {
		Sets []string `json:"activation_function_sets"`
	}
	memberJSON(t, members, "sg00/Activation.json", &act)
	funcIDs := make([]map[uint8]string, len(act.Sets))
	for i, name := range act.Sets {
		var prof struct {
			Meta []struct {
				FuncName string `json:"func_name"`
				FuncID   int    `json:"func_id"`
			} `json:"profile_meta_data"`
		}
		memberJSON(t, members, "sg00/"+name+".json", &prof)
		funcIDs[i] = map[uint8]string{}
		for _, m := range prof.Meta {
			funcIDs[i][uint8(m.FuncID)] = m.FuncName
		}
	}
	s := NewStream("sg00/Activation.bin", members["sg00/Activation.bin"])
	if s.Len() == 0 {
		t.Fatal("no sg00/Activation.bin")
	}
	loads, activates = map[int]int{}, map[string]int{}
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
	t.Logf("loads per set %v; activations by set/function %v", loads, activates)
	return act.Sets, loads, activates
}

// TestRealActivationSets checks the ActivationTableLoad → Activate chain of real NEFFs.
func TestRealActivationSets(t *testing.T) {
	// matmul_small loads its one set (exp_and_others) once and copies PSUM out: no Activate.
	sets, loads, activates := activationChain(t, realfiles.Path(t, "nkipy/matmul_small.neff"))
	if len(sets) != 1 || sets[0] != "exp_and_others" || len(loads) != 1 || loads[0] != 1 || len(activates) != 0 {
		t.Errorf("matmul_small sg00: sets %v, loads %v, activations %v; want exp_and_others loaded once, no Activate", sets, loads, activates)
	}
	t.Run("attn_v6", func(t *testing.T) {
		path, ok := realfiles.Optional(t, "nki-moe/attn_v6.neff", "Activate words against the resident set's functions")
		if !ok {
			return
		}
		sets, loads, activates := activationChain(t, path)
		if len(sets) != 2 {
			t.Fatalf("activation_function_sets = %v", sets)
		}
		// The spec's own example: exp (code 7) runs from natural_log_exp_and_others (set 1)
		// and rsqrt (code 29) from reciprocal_sqrt_and_small (set 0).
		if activates["natural_log_exp_and_others/exp_400p"] == 0 || activates["reciprocal_sqrt_and_small/reciprocal_sqrt_40000p"] == 0 {
			t.Errorf("expected exp and rsqrt activations, got %v", activates)
		}
		if loads[0] == 0 || loads[1] == 0 {
			t.Errorf("loads per set: %v", loads)
		}
	})
}

func memberJSON(t *testing.T, members map[string][]byte, path string, v any) {
	t.Helper()
	b, ok := members[path]
	if !ok {
		t.Fatalf("no member %s", path)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}

// checkActivationChain: every Activate in an Activation stream follows an
// ActivationTableLoad whose set index is within the subgraph's Activation.json list.
func checkActivationChain(t *testing.T, neffPath, member string, s *Stream, members map[string][]byte) {
	t.Helper()
	var act struct {
		Sets []string `json:"activation_function_sets"`
	}
	jsonPath := path.Join(path.Dir(member), "Activation.json")
	b, ok := members[jsonPath]
	if !ok {
		t.Errorf("%s: %s has no %s beside it", neffPath, member, jsonPath)
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
