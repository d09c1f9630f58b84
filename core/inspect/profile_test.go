package inspect

import (
	"bytes"
	"strconv"
	"strings"
	"testing"

	"github.com/neffscope/neffscope/core/doc"
	"github.com/neffscope/neffscope/core/neff/neffbuild"
)

func tableRows(t *testing.T, n *doc.Node, section string) [][]string {
	t.Helper()
	s := n.Child(section)
	if s == nil || s.Table == nil {
		t.Fatalf("no %s table", section)
	}
	if len(s.Table.RowSpans) != len(s.Table.Rows) {
		t.Errorf("%s: %d rows, %d row spans", section, len(s.Table.Rows), len(s.Table.RowSpans))
	}
	return s.Table.Rows
}

func atoi(t *testing.T, s string) int64 {
	t.Helper()
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		t.Fatalf("%q: %v", s, err)
	}
	return v
}

func TestProfileRealMatmul(t *testing.T) {
	f := openRealBytes(t, "nkipy/matmul_small.neff")
	p := Profile(f)
	// Opcode counts per stream add up to the stream's instruction count.
	perStream := map[string]int64{}
	for _, r := range tableRows(t, p, "opcodes") {
		perStream[r[0]+"/"+r[1]] += atoi(t, r[4])
	}
	engines := tableRows(t, p, "engines")
	if len(engines) != 10 {
		t.Fatalf("%d engine rows", len(engines))
	}
	for _, r := range engines {
		if got := perStream[r[0]+"/"+r[1]]; got != atoi(t, r[2]) || got == 0 {
			t.Errorf("%s %s: opcodes sum to %d, stream has %s", r[0], r[1], got, r[2])
		}
	}
	// Each core: Pool issues its 0xD4 words on qPoolDynamic; x and y are loaded into SBUF
	// through the DGE table (y twice: the 256×128 operand is read in two halves).
	dma := tableRows(t, p, "dma")
	found := 0
	for _, r := range dma {
		if r[1] == "qPoolDynamic" {
			found++
			if r[2] != "dynamic" || r[3] != "pool" || atoi(t, r[9]) == 0 {
				t.Errorf("qPoolDynamic row %v", r)
			}
		}
	}
	if found != 2 {
		t.Errorf("qPoolDynamic rows: %d", found)
	}
	loads := map[string]string{}
	for _, r := range tableRows(t, p, "reloads") {
		loads[r[0]+" "+r[1]] = r[5]
	}
	if loads["sg00 x"] == "" || loads["sg00 y"] == "" || atoi(t, loads["sg00 y"]) < atoi(t, loads["sg00 x"]) {
		t.Errorf("0xD4 loads: %v", loads)
	}
	hlo := tableRows(t, p, "hlo")
	if !containsRow(hlo, []string{"HloMacCount", "4194304"}) {
		t.Errorf("hlo rows %v", hlo)
	}
}

func containsRow(rows [][]string, want []string) bool {
	for _, r := range rows {
		if strings.Join(r, "\x00") == strings.Join(want, "\x00") {
			return true
		}
	}
	return false
}

// A generated NEFF whose SP engine loads input0 (64 bytes) into SBUF twice: reload factor 2.
func TestProfileStaticReloads(t *testing.T) {
	var ms []neffbuild.Member
	for _, m := range neffbuild.Sample() {
		if m.Path == "sg00/SP.json" {
			d := bytes.ReplaceAll(m.Data, []byte(`"op": "copy"`), []byte(`"from_dtype": "uint8", "op": "copy"`))
			d = bytes.Replace(d, []byte(`"dma": [`), []byte(`"dma": [
  {"#comment": "again", "desc": [{"from": "input0", "from_dtype": "uint8", "from_off": 0, "from_sizes": [64, 1], "from_steps": [1, 64], "op": "copy", "to": "SB", "to_off": 64, "to_sizes": [64, 1], "to_steps": [1, 64]}], "id": 2, "queue": "qSPIO0", "semaphore": 9},`), 1)
			m.Data = d
		}
		ms = append(ms, m)
	}
	f := openBytes("reload.neff", neffbuild.Bytes(ms, neffbuild.Options{}))
	p := Profile(f)
	r := tableRows(t, p, "reloads")
	if len(r) != 1 || r[0][1] != "input0" || r[0][4] != "2" || r[0][6] != "128" || r[0][7] != "0" || r[0][8] != "2.00" {
		t.Errorf("reloads %v", r)
	}
	d := tableRows(t, p, "dma")
	if len(d) != 1 || d[0][1] != "qSPIO0" || d[0][6] != "3" || d[0][7] != "3" || d[0][8] != "192" {
		t.Errorf("dma %v", d)
	}
	// Memory: 3 transfers of [64, 1] → [64, 1], each 1 + 1 ring descriptors plus 2 × 16 for the
	// semaphores, 16 B each, all I/O (input0 and output0); code is the five streams.
	mb := Memory(f)
	if len(mb.Cores) != 1 {
		t.Fatalf("%d cores", len(mb.Cores))
	}
	items := map[string]*MemoryItem{}
	for _, it := range mb.Cores[0].Items {
		items[it.Category] = it
	}
	if it := items["dma rings"]; it.Bytes != 3*34*16 || it.Count != 3*34 || it.Parts[0].Name != "sg00/SP.json: 102 descriptors (I/O 102, spill 0)" {
		t.Errorf("dma rings %+v", it)
	}
	var code int64
	for _, s := range f.Program.Streams {
		code += s.Size
	}
	if it := items["model code"]; it.Bytes != code || it.Count != 5 {
		t.Errorf("code %+v, streams %d", it, code)
	}
	if it := mb.NEFF.Items[0]; it.Category != "tensors" || it.Bytes != 128 || len(it.Parts) != 2 || it.Parts[0].Span == nil {
		t.Errorf("tensors %+v", it)
	}
}
