package dvetable

import (
	"crypto/sha256"
	"os"
	"path"
	"strconv"
	"strings"
	"testing"

	"github.com/neffscope/neffscope/core/doc"
	"github.com/neffscope/neffscope/core/isa"
	"github.com/neffscope/neffscope/core/neff"
	"github.com/neffscope/neffscope/internal/realfiles"
)

// TestRealTables: every DVE table of the real NEFFs splits into rows, each non-zero row is an
// unknown… field with its span, and the opcode table has an entry for every DVE data-path
// opcode the stream beside it uses and none for its control and pseudo opcodes.
func TestRealTables(t *testing.T) {
	files := realfiles.NEFFs(t)
	seen := 0
	versions := map[string]map[[32]byte]bool{} // kind+size → distinct contents
	for _, p := range files {
		fh, err := os.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		st, _ := fh.Stat()
		ms, err := neff.ReadMembers(fh, st.Size(), func(m string, _ int64) bool {
			_, ok := Match(m)
			return ok || strings.HasSuffix(m, "/DVE.bin")
		})
		fh.Close()
		if err != nil {
			t.Fatal(err)
		}
		for m, b := range ms {
			l, ok := Match(m)
			if !ok {
				continue
			}
			seen++
			key := l.Kind + "/" + strconv.Itoa(len(b))
			if versions[key] == nil {
				versions[key] = map[[32]byte]bool{}
			}
			versions[key][sha256.Sum256(b)] = true
			n := Decode(m, m, b)
			for _, f := range n.Findings {
				t.Errorf("%s %s: finding on a real table: %s", p, m, f.Message)
			}
			var covered int64
			for _, c := range n.Children {
				if !isa.IsUnknownName(c.Label) || c.Span == nil || c.Span.Source != m {
					t.Errorf("%s %s: row %q %+v", p, m, c.Label, c.Span)
				}
				covered += c.Span.Length
			}
			nonzero := int64(0)
			for _, c := range b {
				if c != 0 {
					nonzero++
				}
			}
			if nonzero > 0 && covered == 0 {
				t.Errorf("%s %s: no rows", p, m)
			}
			if l.Kind != "opcode_table" {
				continue
			}
			w := len(b) / 256
			stream := ms[path.Join(path.Dir(m), "DVE.bin")]
			for i := 0; i+isa.WordSize <= len(stream); i += isa.WordSize {
				op := stream[i]
				info := isa.Opcode(op)
				entry := b[int(op)*w : int(op+1)*w]
				dataPath := info.Band == "DVE"
				if dataPath == allZero(entry) {
					t.Errorf("%s %s: opcode 0x%02x (%s, %s) has entry % x", p, m, op, info.Name, info.Band, entry)
				}
			}
		}
	}
	if seen == 0 {
		t.Fatal("no DVE table in the real NEFFs")
	}
	for k, v := range versions {
		if len(v) > 2 {
			t.Errorf("%s: %d distinct contents; the unknowns row says one per target and compiler", k, len(v))
		}
	}
}

// TestBadSize: a table whose size does not split into its rows is hex with an info finding.
func TestBadSize(t *testing.T) {
	n := Decode("sg00/default_datapath_table.bin", "sg00/default_datapath_table.bin", make([]byte, 100))
	if len(n.Findings) != 1 || n.Findings[0].Severity != doc.Info || len(n.Children) != 0 {
		t.Errorf("%+v", n)
	}
	if _, ok := Match("sg00/default_nothing_table.bin"); ok {
		t.Error("an unknown table kind matched")
	}
	n = Decode("sg00/default_opcode_table.bin", "", []byte{1, 0, 0, 0})
	if len(n.Findings) != 1 {
		t.Errorf("4-byte opcode table: %+v", n)
	}
}
