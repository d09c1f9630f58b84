package neffbuild

import (
	"encoding/binary"
	"strconv"
	"strings"
)

// The sync and memory model's hostile classes: small, valid NEFFs whose streams and engine
// JSON ask the model (core/sched) for work or memory far beyond their size. Words are written
// byte by byte from neff.md §4 (opcode, word length 0x10, the sync band at +0x04, family C
// descriptors at +0x0C and +0x2C), so this package needs no decoder.
func schedClasses() []Hostile {
	return []Hostile{
		{"sched-sweep-bands", "DVE copies one partition 128 times, then the whole SBUF 2,000 times: every whole copy crosses 128 partition bands of the memory sweep", func(s float64) []byte {
			n := scaled(2000, s)
			b := make([]byte, 0, 64*(128+n))
			for p := range uint32(128) {
				b = append(b, copyWord(p<<18, p<<18|0x100, 1, 1)...)
			}
			for range n {
				// fp32: 24,576 elements are 96 KiB a partition, in the first half, out the second.
				b = append(b, copyWord(0, 96<<10, 24576, 128)...)
			}
			return withSample(Member{Path: "sg00/DVE.bin", Data: b})
		}},
		{"sched-dma-lanes", "20,000 DMA queues, each one block writing the state buffer, and 20,000 PseudoDMATrigger words: a happens-before clock of 20,000 lanes per node", func(s float64) []byte {
			n := scaled(20000, s)
			var def, sp strings.Builder
			var bin []byte
			def.WriteString(`{"sp": "SP.json", "sp_instr": "SP.bin", "act": "Activation.json", "act_instr": "Activation.bin", "name": "definition", "version": "0.6", "neff_features": [],
 "var": {"SB": {"type": "state-buffer", "var_id": 0}, "input0": {"ops": [], "size": 64, "type": "input", "var_id": 1}, "output0": {"ops": [], "size": 64, "type": "output", "var_id": 2}},
 "dma_queue": {`)
			sp.WriteString(`{"instr": "SP.bin", "name": "SP.json", "dma": [`)
			for i := range n {
				q := "q" + strconv.FormatInt(i, 10)
				if i > 0 {
					def.WriteByte(',')
					sp.WriteByte(',')
				}
				sem := strconv.FormatInt(8+i%64, 10)
				def.WriteString(`"` + q + `": {"fabric_path": "main", "num_queues": 1, "owner": "sp", "semaphore_set": [` + sem + `], "type": "in"}`)
				sp.WriteString(`{"desc": [{"from": "input0", "from_off": 0, "from_sizes": [64, 1], "from_steps": [1, 64], "op": "copy", "to": "SB", "to_off": ` + strconv.FormatInt(64*(i%2048), 10) + `, "to_sizes": [64, 1], "to_steps": [1, 64]}], "id": 0, "queue": "` + q + `", "semaphore": ` + sem + `}`)
				bin = append(bin, triggerWord(q, 0)...)
			}
			def.WriteString("}}")
			sp.WriteString("]}")
			ms := replaceSample(map[string]string{"sg00/def.json": def.String(), "sg00/SP.json": sp.String()})
			var out []Member
			for _, m := range ms {
				switch m.Path {
				case "sg00/SP.bin":
					m.Data = bin
				case "sg00/DVE.bin", "sg00/DVE.json", "sg00/PE.bin", "sg00/PE.json", "sg00/Pool.bin", "sg00/Pool.json":
					continue
				}
				out = append(out, m)
			}
			return bytesOf(out)
		}},
		{"sched-one-semaphore", "150,000 updates of one semaphore on DVE and one on Pool, 150,000 waits for it on Activation, and 150,000 waits on PE past what S[4]'s 150,000 updates on SP reach", func(s float64) []byte {
			n := scaled(150_000, s)
			stream := func(word func(i int64) []byte, count int64) Member {
				return Member{Reader: &items{n: count, item: func(i int64, b []byte) []byte { return append(b, word(i)...) }}, Size: 64 * count}
			}
			inc := func(sem byte) func(int64) []byte {
				return func(int64) []byte { return syncWord(0xA0, 0, 0, 0, 0x13, sem) }
			}
			waits := func(sem byte, value func(i int64) uint32) func(int64) []byte {
				return func(i int64) []byte { return syncWord(0xA0, 0x05, sem, value(i), 0, 0) }
			}
			pool := stream(inc(3), 1)
			pool.Path = "sg00/Pool.bin"
			dve := stream(inc(3), n)
			dve.Path = "sg00/DVE.bin"
			act := stream(waits(3, func(i int64) uint32 { return uint32(i + 1) }), n)
			act.Path = "sg00/Activation.bin"
			sp := stream(inc(4), n)
			sp.Path = "sg00/SP.bin"
			pe := stream(waits(4, func(int64) uint32 { return uint32(n + 1) }), n)
			pe.Path = "sg00/PE.bin"
			var ms []Member
			for _, m := range Sample() {
				switch m.Path {
				case pool.Path:
					m = pool
				case dve.Path:
					m = dve
				case act.Path:
					m = act
				case sp.Path:
					m = sp
				case pe.Path:
					m = pe
				}
				ms = append(ms, m)
			}
			return bytesOf(ms)
		}},
	}
}

// syncWord is a word of opcode op carrying only a sync band (neff.md §4.2): wait mode,
// semaphore and value, update mode and semaphore.
func syncWord(op, waitMode, waitSem byte, value uint32, updateMode, updateSem byte) []byte {
	w := make([]byte, 64)
	w[0], w[1] = op, 0x10
	w[4], w[5], w[6], w[7] = waitMode, waitSem, updateMode, updateSem
	binary.LittleEndian.PutUint32(w[8:], value)
	return w
}

// copyWord is a DVE Copy (0x46, family C, neff.md §4.4): fp32 in and out, elems elements in
// one run from each address, over parts partitions.
func copyWord(in, out uint32, elems, parts uint16) []byte {
	w := make([]byte, 64)
	w[0], w[1] = 0x46, 0x10
	desc := func(off int, addr uint32) {
		binary.LittleEndian.PutUint32(w[off:], addr)
		for d := range 4 {
			binary.LittleEndian.PutUint16(w[off+4+2*d:], 1)
			binary.LittleEndian.PutUint16(w[off+12+2*d:], 1)
		}
		binary.LittleEndian.PutUint16(w[off+12:], elems)
	}
	desc(0x0C, in)
	desc(0x2C, out)
	w[0x20], w[0x21], w[0x22] = 10, 10, byte(parts)
	return w
}

// triggerWord is a PseudoDMATrigger (0xC1, neff.md §4.5): the queue's name at +0x0C and the
// block id at +0x30.
func triggerWord(queue string, id uint32) []byte {
	w := make([]byte, 64)
	w[0], w[1] = 0xC1, 0x10
	copy(w[0x0C:0x2C], queue)
	binary.LittleEndian.PutUint32(w[0x30:], id)
	return w
}
