package main

import (
	"encoding/binary"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/neffscope/neffscope/core/inspect"
	"github.com/neffscope/neffscope/core/neff/neffbuild"
	"github.com/neffscope/neffscope/core/sched"
	"github.com/neffscope/neffscope/internal/realfiles"
	"github.com/neffscope/neffscope/internal/repack"
)

// memmap says, where it shows a peak, how the peak is counted, what the model left out of it,
// and which buffers are live then with the kernel lines that wrote and last read them: on
// matmul_small, every buffer is named by its instructions and the sum of the live buffers is
// the peak.
func TestMemmapShowsThePeaksBuffersAndWhatWasLeftOut(t *testing.T) {
	p := realfiles.Path(t, "nkipy/matmul_small.neff")
	out, errs, code := runCmd(t, "memmap", "--json", p)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var got struct {
		Peak  string `json:"peak"`
		Cores []struct {
			Unplaced int `json:"unplaced"`
			SBUF     struct {
				PeakBytes uint64 `json:"peak_bytes"`
				Unswept   int    `json:"unswept"`
				Live      []struct {
					Bytes     uint64 `json:"bytes"`
					WriteLine string `json:"write_line"`
					LastRead  struct {
						Engine string `json:"engine"`
					} `json:"last_read"`
				} `json:"live_at_peak"`
			} `json:"sbuf"`
		} `json:"cores"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil || len(got.Cores) != 2 {
		t.Fatalf("%v: %s", err, out[:min(len(out), 400)])
	}
	if !strings.Contains(got.Peak, "a DMA counting after the compute of its step") {
		t.Errorf("peak convention %q", got.Peak)
	}
	for _, c := range got.Cores {
		var sum uint64
		for _, l := range c.SBUF.Live {
			sum += l.Bytes
			if l.LastRead.Engine == "" {
				t.Errorf("a live buffer without its last read: %+v", l)
			}
		}
		if sum != c.SBUF.PeakBytes || len(c.SBUF.Live) == 0 || c.Unplaced != 0 || c.SBUF.Unswept != 0 {
			t.Errorf("SBUF peak %d, live buffers sum to %d (%d), unplaced %d, unswept %d", c.SBUF.PeakBytes, sum, len(c.SBUF.Live), c.Unplaced, c.SBUF.Unswept)
		}
	}
	text, _, _ := runCmd(t, "memmap", p)
	for _, want := range []string{"a DMA counting after the compute of its step", "SBUF live at the peak (partitions 0..127), by the kernel line that wrote it: ", "read last by "} {
		if !strings.Contains(text, want) {
			t.Errorf("text lacks %q:\n%s", want, text)
		}
	}
}

// Where the model leaves operands out, the line that shows the peak says how many: the sample
// NEFF's DVE stream with two words of an opcode whose operands it does not know (Pool 0x45).
func TestMemmapSaysWhatItLeftOut(t *testing.T) {
	w := make([]byte, 128)
	w[0], w[1], w[64], w[65] = 0x45, 0x10, 0x45, 0x10
	var ms []neffbuild.Member
	for _, m := range neffbuild.Sample() {
		if m.Path == "sg00/DVE.bin" {
			m.Data = w
		}
		ms = append(ms, m)
	}
	p := filepath.Join(t.TempDir(), "unplaced.neff")
	if err := os.WriteFile(p, neffbuild.Bytes(ms, neffbuild.Options{}), 0o644); err != nil {
		t.Fatal(err)
	}
	text, _, _ := runCmd(t, "memmap", p)
	if !strings.Contains(text, "2 operands or DMA sides not placed, so in no peak and no race") {
		t.Errorf("text:\n%s", text)
	}
	out, _, _ := runCmd(t, "memmap", "--json", p)
	var got struct {
		Cores []struct {
			Unplaced int `json:"unplaced"`
		} `json:"cores"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil || len(got.Cores) != 1 || got.Cores[0].Unplaced != 2 {
		t.Errorf("%v %+v", err, got)
	}
}

// A write into the bytes def.json reserves for the runtime (runtime_statebuffer_reservation:
// 229,368..229,375 of every partition on matmul_small) is a mem.reserved lint, and memmap
// exits 1.
func TestMemmapReservedWrite(t *testing.T) {
	src := realfiles.Read(t, "nkipy/matmul_small.neff")
	p := filepath.Join(t.TempDir(), "reserved.neff")
	if err := os.WriteFile(p, repack.NEFF(src, func(path string, b []byte) ([]byte, bool) {
		if path == "sg00/Activation.bin" {
			out := b[4*64+0x2C:] // Activation #4, a Copy: its out descriptor (family C)
			binary.LittleEndian.PutUint32(out, 229368)
			binary.LittleEndian.PutUint16(out[12:], 2) // two fp32: 8 bytes
		}
		return b, true
	}), 0o644); err != nil {
		t.Fatal(err)
	}
	text, _, code := runCmd(t, "memmap", p)
	if code != 1 || !strings.Contains(text, "mem.reserved") || !strings.Contains(text, "Activation #4 writes SBUF partitions 0..127, bytes 0x37ff8..0x37fff, which def.json reserves for the runtime") {
		t.Errorf("exit %d:\n%s", code, text)
	}
}

// memmap --json writes each access with its own encoder: the bytes encoding/json writes for a
// memAccessJSON, for every access of the real NEFFs and for boxes of every shape.
func TestAccessJSONAsEncodingJSON(t *testing.T) {
	n := 0
	check := func(name string, c *sched.Core) {
		t.Helper()
		names := jsonNames(c)
		n += len(c.Accesses)
		for i := range c.Accesses {
			a := &c.Accesses[i]
			j := memAccessJSON{Engine: c.EngineName(a.At), Index: a.At.Index, DMA: a.DMA, Space: a.Space.String(), Write: a.Write, Boxes: []memBoxJSON{}}
			for _, b := range c.Boxes[a.BoxFrom:a.BoxTo] {
				x := memBoxJSON{Partition: b.Partition, Partitions: b.Parts, Offset: b.Offset, Bytes: b.Bytes}
				if b.Count > 1 {
					x.Stride, x.Count = b.Stride, b.Count
				}
				j.Boxes = append(j.Boxes, x)
			}
			want, _ := json.Marshal(j)
			if got := appendAccessJSON(nil, c, a, names); string(got) != string(want) {
				t.Fatalf("%s access %d: %s, want %s", name, i, got, want)
			}
		}
	}
	files := realfiles.NEFFs(t)
	for _, p := range files {
		f, fh, err := openFile(p, inspect.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if m := f.Memmap(); m != nil {
			for _, c := range m.Cores {
				check(filepath.Base(p)+" "+c.Name, c)
			}
		}
		fh.Close()
	}
	if n == 0 {
		t.Fatalf("no access in %d real NEFFs", len(files))
	}
	// Boxes the real files may lack: a stride of 0 over several, one of one, an engine the
	// core does not name, a name JSON escapes.
	c := &sched.Core{Engines: []sched.Engine{{Name: "<DVE&>"}}, Boxes: []sched.Box{
		{Partition: 3, Parts: 1, Offset: 64, Bytes: 8, Stride: 0, Count: 4},
		{Partition: 0, Parts: 128, Offset: 0, Bytes: 1 << 20, Stride: 512, Count: 1},
		{Partition: 127, Parts: 1, Offset: 4096, Bytes: 2, Stride: 16, Count: 9},
	}}
	c.Accesses = []sched.Access{
		{At: sched.At{Engine: 0, Index: 5}, Write: true, BoxFrom: 0, BoxTo: 3},
		{At: sched.At{Engine: 4, Index: -1}, DMA: true, BoxFrom: 1, BoxTo: 1},
	}
	check("made", c)
}
