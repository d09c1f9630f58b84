package inspect

import (
	"bytes"
	"encoding/binary"
	"path/filepath"
	"strings"
	"testing"

	"github.com/neffscope/neffscope/core/isa"
	"github.com/neffscope/neffscope/core/manifest"
	"github.com/neffscope/neffscope/core/neff/neffbuild"
	"github.com/neffscope/neffscope/internal/realfiles"
)

// streamedOnce are vars the real kernels read into SBUF exactly once per core (their sources
// stream each input tile once): the reload factor must be 1.00.
var streamedOnce = map[string][]string{
	"cs149-trn1/stream_256k_fd1k.neff":    {"a_vec", "b_vec"},
	"cs149-trn2/stream_256k_fd1k.neff":    {"a_vec", "b_vec"},
	"cs149-trn2/transpose_1024.neff":      {"a_tensor"},
	"cs149-trn1/file_pool_1_float16.neff": {"W", "bias"},
	"cs149-trn1/file_pool_2_float32.neff": {"W", "bias"},
	"nki-moe/attn_v6.neff":                {"input1", "input2", "input3", "input4", "input5", "input6", "input7", "input8", "input9", "input10"},
	"nkipy/matmul_small.neff":             {"x"},
}

// TestDMABytesRealNEFFs: descriptor sizes are bytes (neff.md §3.5). On every real NEFF each
// output and constant var's static descriptors sum to its size, no descriptor or 0xD4 word
// reaches past its var, every constant and every tensor the kernel streams once shows
// reload factor 1.00.
func TestDMABytesRealNEFFs(t *testing.T) {
	files := realfiles.NEFFs(t)
	for _, path := range files {
		rel := filepath.ToSlash(filepath.Join(filepath.Base(filepath.Dir(path)), filepath.Base(path)))
		f := openRealBytes(t, rel)
		if f.Program == nil {
			t.Errorf("%s: no program", rel)
			continue
		}
		for _, c := range f.Program.Model.Cores {
			sums := map[*manifest.Var]int64{}
			for _, e := range c.Engines {
				for _, b := range e.DMABlocks {
					for _, d := range b.Descs {
						if _, ok := descBytes(d); !ok {
							t.Errorf("%s %s: a descriptor of %s has no byte size", rel, c.Name, e.JSONPath)
						}
						for _, side := range []struct {
							name         string
							off          int64
							sizes, steps []int64
						}{{d.From, d.FromOff, d.FromSizes, d.FromSteps}, {d.To, d.ToOff, d.ToSizes, d.ToSteps}} {
							v := c.Var(side.name)
							if v == nil || v.Type == "state-buffer" {
								continue
							}
							n, end := int64(1), side.off+1
							for _, s := range side.sizes {
								n *= s
							}
							sums[v] += n // each side's sizes are its own bytes (a cast moves fewer or more)
							for i, s := range side.sizes {
								if i < len(side.steps) {
									end += (s - 1) * side.steps[i]
								}
							}
							if end > v.Size {
								t.Errorf("%s %s: a descriptor of %s reaches byte %d of %s (%d B)", rel, c.Name, e.JSONPath, end, v.Name, v.Size)
							}
						}
					}
				}
			}
			for v, n := range sums {
				if (v.Type == "output" || v.Type == "file") && n != v.Size {
					t.Errorf("%s %s: %s %s: descriptors move %d B, its size is %d", rel, c.Name, v.Type, v.Name, n, v.Size)
				}
			}
			for _, ps := range f.Program.Streams {
				if ps.Core != c || ps.ISA == nil {
					continue
				}
				for _, w := range ps.ISA.Words() {
					src, dst, ok := isa.Direct2dAddrs(w)
					if !ok {
						continue
					}
					for k, a := range []isa.DmaAddr{src, dst} {
						v := addrVar(c, a)
						if _, reg := a.OffsetReg(); v == nil || v.Type == "state-buffer" || reg {
							continue
						}
						o := 0x18 + 0x18*k // the side's step_elem[0]
						u32 := func(at int) int64 { return int64(binary.LittleEndian.Uint32(w[at:])) }
						u16 := func(at int) int64 { return int64(binary.LittleEndian.Uint16(w[at:])) }
						end := int64(a.Offset) + (u16(o+8)-1)*u32(o) + (u16(o+10)-1)*u32(o+4) + u16(o+12)
						if end > v.Size {
							t.Errorf("%s %s: a 0xD4 word reaches byte %d of %s (%d B)", rel, ps.Member, end, v.Name, v.Size)
						}
					}
				}
			}
		}
		factor := map[string]string{}
		for _, r := range tableRows(t, Profile(f), "reloads") {
			factor[r[0]+" "+r[1]] = r[8]
			if r[2] == "file" && r[8] != "1.00" {
				t.Errorf("%s: constant %s %s reload factor %s", rel, r[0], r[1], r[8])
			}
		}
		for _, name := range streamedOnce[rel] {
			if got := factor["sg00 "+name]; got != "1.00" {
				t.Errorf("%s: %s reload factor %q, want 1.00", rel, name, got)
			}
		}
	}
}

// regChainNEFF is neffbuild.Sample with a Pool stream that loads an expert id from SBUF (0xCE),
// scales and offsets it (0xA8 mult, 0xA8 add) and DMAs that slice of the DGE-indexed expert
// weights through a register offset (0xD4 tag 0x28 + 0xDA), as the MoE kernels do; then a
// chain whose value is static, one whose 0xDA bound size is not the var's size, and one whose
// register nothing writes.
func regChainNEFF() []byte {
	const slice, base, experts = 0x100000, 0x40000, 0x800000
	word := func(op byte) []byte {
		w := make([]byte, isa.WordSize)
		w[0], w[1] = op, 0x10
		return w
	}
	tensorLoad := func(addr, dst uint32) []byte {
		w := word(0xCE)
		w[0x0C] = 9
		binary.LittleEndian.PutUint32(w[0x14:], addr)
		binary.LittleEndian.PutUint32(w[0x20:], dst)
		return w
	}
	alu := func(op byte, src, dst, imm uint32) []byte {
		w := word(0xA8)
		w[0x0C], w[0x0D] = op, 9
		binary.LittleEndian.PutUint32(w[0x10:], src)
		binary.LittleEndian.PutUint32(w[0x14:], dst)
		binary.LittleEndian.PutUint32(w[0x18:], imm)
		return w
	}
	direct2d := func(sem byte, reg uint32, bound uint32) []byte {
		w := word(0xD4)
		w[0x0D], w[0x0E], w[0x26] = sem, 16, 0xBD
		binary.LittleEndian.PutUint64(w[0x10:], uint64(isa.DmaTagDGEReg)<<56|1<<32|uint64(reg))
		binary.LittleEndian.PutUint64(w[0x28:], uint64(isa.DmaTagVar)<<56)
		for _, o := range []int{0x18, 0x30} { // each side: 128 rows of 8 KiB
			binary.LittleEndian.PutUint32(w[o:], 0x2000)
			binary.LittleEndian.PutUint32(w[o+4:], 1)
			binary.LittleEndian.PutUint16(w[o+8:], 128)
			binary.LittleEndian.PutUint16(w[o+10:], 1)
			binary.LittleEndian.PutUint16(w[o+12:], 0x2000)
		}
		binary.LittleEndian.PutUint32(w[0x30:], 0x40000)
		w[0x3E], w[0x3F] = 6, 6
		ext := make([]byte, isa.WordSize)
		ext[0] = 0xDA
		binary.LittleEndian.PutUint32(ext[0x0C:], bound)
		return append(w, ext...)
	}
	pool := bytes.Join([][]byte{
		word(0xB1),                  // #0
		tensorLoad(0x2000, 5),       // #1: R5 = the expert id
		alu(6, 5, 6, slice),         // #2: R6 = R5 × slice
		alu(4, 6, 31, base),         // #3: R31 = R6 + base
		direct2d(24, 31, experts),   // #4, #5
		alu(6, 5, 7, 0),             // #6: R7 = R5 × 0
		alu(4, 7, 8, 0x300000),      // #7: R8 = 0x300000
		direct2d(25, 8, experts),    // #8, #9
		direct2d(26, 31, experts-1), // #10, #11: bound size is not the var's
		direct2d(27, 40, experts),   // #12, #13: nothing writes R40
	}, nil)
	var ms []neffbuild.Member
	for _, m := range neffbuild.Sample() {
		switch m.Path {
		case "sg00/Pool.bin":
			m.Data = pool
		case "sg00/def.json":
			d := bytes.Replace(m.Data, []byte(`"dma_queue": {`), []byte(`"dma_queue": {"qPoolDynamic": {"fabric_path": "main", "num_queues": 16, "owner": "pool", "semaphore_set": [24, 25, 26, 27], "type": "dynamic"}, `), 1)
			d = bytes.Replace(d, []byte(`"SB": {`), []byte(`"DGETable0": {"list": [1, 3], "type": "dge-table", "var_id": 4},
  "experts": {"ops": [], "size": 8388608, "type": "input", "var_id": 3},
  "SB": {`), 1)
			m.Data = d
		}
		ms = append(ms, m)
	}
	return neffbuild.Bytes(ms, neffbuild.Options{})
}

// TestRegisterOffsetDMA: a 0xD4 whose source tag is 0x28 names its var through the DGE index,
// shows the register's value (static) or its expression and range (bound register, the 0xDA
// word's src_bound_size_bytes), and the profile counts its loads against that var.
func TestRegisterOffsetDMA(t *testing.T) {
	f := openBytes("regchain.neff", regChainNEFF())
	ps := f.Program.Stream("sg00/Pool.bin")
	if ps == nil || ps.ISA == nil || ps.ISA.Len() != 14 {
		t.Fatalf("Pool stream %+v", ps)
	}
	s := ps.ISA
	for _, pair := range []int{4, 8, 10, 12} {
		if s.PartOf(pair+1) != pair {
			t.Errorf("#%d is not the second word of #%d", pair+1, pair)
		}
	}

	// The chain, as isa follows it.
	v := isa.RegisterValue(s.Word, 4, 31)
	if !v.Known || v.Static || v.Base != 0x40000 || v.Scale != 0x100000 || !v.Loaded || v.Load != 0x2000 || v.LoadAt != 1 || v.Writer != 3 {
		t.Errorf("R31 at #4: %+v", v)
	}
	if v := isa.RegisterValue(s.Word, 8, 8); !v.Known || !v.Static || v.Base != 0x300000 || v.Writer != 7 {
		t.Errorf("R8 at #8: %+v", v)
	}
	if v := isa.RegisterValue(s.Word, 12, 40); v.Known || v.Writer != -1 {
		t.Errorf("R40 at #12: %+v", v)
	}

	// The join: the var by the DGE index, the register's value or its range.
	resolve := func(i int) Resolved { return f.Program.Resolve(ps, i, s.Word(i)) }
	r := resolve(4)
	want := "experts+R31 = 0x40000 + 0x100000 × SBUF[0x2000] (loaded at #1) (range: src_bound_size_bytes 8388608, bound R61)"
	if r.Src != want || r.Dst != "SB:0x0" || r.Queue != "qPoolDynamic" || r.Problem != "" {
		t.Errorf("#4: %+v\nwant src %q", r, want)
	}
	if r := resolve(8); r.Src != "experts+R8 = 0x300000" || r.Problem != "" {
		t.Errorf("#8: %+v", r)
	}
	if r := resolve(10); !strings.HasPrefix(r.Src, "experts+R31 = ") || r.Problem == "" {
		t.Errorf("#10: a bound size that is not the var's size is not reported: %+v", r)
	}
	if r := resolve(12); !strings.HasPrefix(r.Src, "experts+R40 (") || r.Problem != "" {
		t.Errorf("#12: %+v", r)
	}
	// The var's node lists the four words (the reverse join).
	uses := f.Program.VarUses(ps.Core)[3]
	if len(uses) != 4 || uses[0].Index != 4 || uses[0].Addr() != want {
		t.Errorf("experts uses %+v", uses)
	}

	// The field maps.
	fields := func(i int) map[string]string {
		m := map[string]string{}
		for _, fl := range s.Instruction(i).Fields {
			m[fl.Name] = fl.Text
		}
		return m
	}
	for i, want := range map[int]map[string]string{
		1: {"dtype": "uint32", "sbuf address": "0x2000", "dst register": "R5"},
		2: {"alu op": "mult", "dtype": "uint32", "src register": "R5", "dst register": "R6", "immediate": "1048576"},
		3: {"alu op": "add", "src register": "R6", "dst register": "R31", "immediate": "262144"},
		4: {"addr0": "dge[1]+R31", "addr1": "SB:0x0", "sem increment": "16", "src bound reg": "R61", "dst bound reg": "none", "src elem size": "8192 bytes", "src num elem[0]": "128"},
		5: {"src bound size bytes": "8388608"},
	} {
		got := fields(i)
		for k, w := range want {
			if got[k] != w {
				t.Errorf("#%d %s = %q, want %q", i, k, got[k], w)
			}
		}
	}

	// The profile counts the four loads (128 rows of 8 KiB each) against experts.
	var row []string
	for _, rr := range tableRows(t, Profile(f), "reloads") {
		if rr[1] == "experts" {
			row = rr
		}
	}
	if row == nil || row[5] != "4" || row[7] != itoa(4*128*0x2000) || row[8] != "0.50" {
		t.Errorf("experts reloads row %v", row)
	}
}
