package main

import (
	"encoding/json"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/neffscope/neffscope/internal/realfiles"
)

// TestDisasmSourceOnRealNEFFs: in `disasm --json` every word of every real NEFF whose debug
// info names a BIR instruction has "source" with a non-empty "bir"; the text listing shows the
// same source beside the word.
func TestDisasmSourceOnRealNEFFs(t *testing.T) {
	total, with, withLine := 0, 0, 0
	for _, p := range realfiles.NEFFs(t) {
		out, errs, rc := runCLI(t, "disasm", "--json", p)
		if rc != 0 {
			t.Fatalf("%s: rc %d: %s", p, rc, errs)
		}
		var got struct {
			Streams []struct {
				Member       string
				Instructions []struct {
					Index  int
					Source *struct {
						BIR  string  `json:"bir"`
						File *string `json:"file"`
						Line *int    `json:"line"`
					} `json:"source"`
				}
			}
		}
		if err := json.Unmarshal([]byte(out), &got); err != nil {
			t.Fatal(err)
		}
		text, _, _ := runCLI(t, "disasm", p)
		lines := map[string][]string{} // stream member → its listing lines, by word index
		member := ""
		for _, l := range strings.Split(text, "\n") {
			if f := strings.Fields(l); len(f) >= 4 && f[0] == ";" {
				member = f[3]
			} else if len(f) > 0 && member != "" {
				lines[member] = append(lines[member], l)
			}
		}
		for _, s := range got.Streams {
			for _, in := range s.Instructions {
				total++
				if in.Source == nil {
					continue
				}
				with++
				if in.Source.BIR == "" || (in.Source.File == nil) != (in.Source.Line == nil) {
					t.Errorf("%s %s #%d: source %+v", filepath.Base(p), s.Member, in.Index, in.Source)
				}
				want := in.Source.BIR
				if in.Source.Line != nil {
					withLine++
					want = filepath.Base(*in.Source.File) + ":" + strconv.Itoa(*in.Source.Line) + " " + in.Source.BIR
				}
				if ls := lines[s.Member]; in.Index >= len(ls) || !strings.HasSuffix(ls[in.Index], "  ; "+want) {
					t.Errorf("%s %s #%d: text listing lacks %q", filepath.Base(p), s.Member, in.Index, want)
				}
			}
		}
	}
	t.Logf("disasm --json over the real NEFFs: %d words, %d with \"source\", %d of them with file and line", total, with, withLine)
	if with == 0 {
		t.Fatal("no word has a source")
	}
}

// TestInfoJSONModel: "model" carries inputs, outputs and words per subgraph and engine that
// agree with the member sizes.
func TestInfoJSONModel(t *testing.T) {
	for _, p := range realfiles.NEFFs(t) {
		out, _, rc := runCLI(t, "info", "--json", p)
		if rc != 0 {
			t.Fatalf("%s: rc %d", p, rc)
		}
		var got struct {
			Members []struct {
				Path string
				Size int64
			}
			Model *struct {
				Inputs, Outputs []struct {
					Name  string  `json:"name"`
					DType string  `json:"dtype"`
					Shape []int64 `json:"shape"`
					Bytes int64   `json:"bytes"`
				}
				Engines map[string]map[string]int64 `json:"engines"`
			} `json:"model"`
		}
		if err := json.Unmarshal([]byte(out), &got); err != nil {
			t.Fatal(err)
		}
		m := got.Model
		if m == nil || len(m.Inputs) == 0 || len(m.Outputs) == 0 || len(m.Engines) == 0 {
			t.Fatalf("%s: model %+v", filepath.Base(p), m)
		}
		for _, in := range append(m.Inputs, m.Outputs...) {
			if in.Name == "" || in.DType == "" || in.Bytes <= 0 {
				t.Errorf("%s: tensor %+v", filepath.Base(p), in)
			}
		}
		sizes := map[string]int64{}
		for _, mb := range got.Members {
			sizes[mb.Path] = mb.Size
		}
		for sg, es := range m.Engines {
			if len(es) != 5 {
				t.Errorf("%s %s: engines %v", filepath.Base(p), sg, es)
			}
			for e, n := range es {
				if sizes[sg+"/"+e+".bin"] != n*64 {
					t.Errorf("%s %s %s: %d words, member %d bytes", filepath.Base(p), sg, e, n, sizes[sg+"/"+e+".bin"])
				}
			}
		}
	}
}
