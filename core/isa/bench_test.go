package isa

import (
	"io"
	"testing"
)

// generateStream builds a synthetic stream of n words cycling through real-shaped words of the
// opcodes that dominate real streams (Ldweights/Matmul on PE, Activate with table loads,
// Copy/TensorTensor/Cast on DVE, DMA triggers and semaphores), with addresses varying per word.
func generateStream(n int) []byte {
	b := make([]byte, 0, n*WordSize)
	for i := 0; len(b) < n*WordSize; i++ {
		a := uint32(i*64) & 0x1FFFF
		var w []byte
		switch i % 8 {
		case 0:
			w = newWord(0x01)
			putSync(w, 0x05, 4, 0, 0, uint32(i))
			putDesc(w, 0x10, 0x43fe+a, []int16{-1, 0, -32}, []uint16{32, 1, 4})
		case 1:
			w = newWord(0x02)
			putSync(w, 0, 0, 0x13, 5, 0)
			putDesc(w, 0x10, 0x19100+a, []int16{1, 0, 0}, []uint16{128, 1, 1})
			putDesc(w, 0x30, 0x02000000+a&0xFFFF, []int16{1, 0, 0}, []uint16{128, 1, 1})
		case 2:
			w = activateWord(uint8(7+i%3), 0x2dc06+a, 0x4300+a)
		case 3:
			w = newWord(0x23)
			w[0x23] = uint8(i % 2)
		case 4:
			w = newWord(0x46)
			putSync(w, 0x05, 9, 0x13, 6, uint32(i))
			putDesc(w, 0x0C, 0x2dc06+a, []int16{9, 1, 1, 1}, []uint16{128, 3, 1, 1})
			w[0x20], w[0x21], w[0x22] = 7, 7, 0x80
			putDesc(w, 0x2C, 0x4600+a, []int16{1, 1, 1, 1}, []uint16{384, 1, 1, 1})
		case 5:
			w = newWord(0x41)
			putSync(w, 0x05, 11, 0x13, 6, uint32(i))
			w[0x0C], w[0x0D], w[0x0E], w[0x0F] = 0xAA, 0x0A, 4, 0x80
			putDesc(w, 0x10, 0x2c180+a, []int16{1, 1, 1}, []uint16{1000, 1, 1})
			putDesc(w, 0x20, 0x2e0c0+a, []int16{1, 1, 1}, []uint16{1000, 1, 1})
			putDesc(w, 0x30, 0x4000+a, []int16{1, 1, 1}, []uint16{1000, 1, 1})
		case 6:
			w = newWord(0xC1)
			putSync(w, 0x05, 4, 0, 0, uint32(i))
			copy(w[0x0C:], "qSPIO0")
			w[0x30] = uint8(i)
		case 7:
			w = newWord(0xA0)
			putSync(w, 0x05, 0x30, 0, 0, uint32(i))
		}
		b = append(b, w...)
	}
	return b
}

const benchBytes = 100 << 20 // 100 MB, the throughput goal size

// BenchmarkDisassemble measures full text disassembly (index, offset, opcode, name, key
// operands, sync band per line) of a generated 100 MB stream. Goal: ≥ 200 MB/s native.
// It also reports MB per CPU-second of the process, which stays meaningful when the machine
// is shared and wall-clock MB/s is not.
func BenchmarkDisassemble(b *testing.B) {
	data := generateStream(benchBytes / WordSize)
	b.SetBytes(int64(len(data)))
	b.ResetTimer()
	cpu0 := processCPUSeconds()
	for range b.N {
		if err := NewStream("sg00/PE.bin", data).WriteText(io.Discard); err != nil {
			b.Fatal(err)
		}
	}
	if cpu := processCPUSeconds() - cpu0; cpu > 0 {
		b.ReportMetric(float64(b.N)*float64(len(data))/1e6/cpu, "MB/cpu-s")
	}
}

// BenchmarkIndex measures NewStream alone (opcode counts, table-load index, findings).
func BenchmarkIndex(b *testing.B) {
	data := generateStream(benchBytes / WordSize)
	b.SetBytes(int64(len(data)))
	b.ResetTimer()
	for range b.N {
		if s := NewStream("sg00/PE.bin", data); s.Len() != len(data)/WordSize {
			b.Fatal(s.Len())
		}
	}
}

// BenchmarkDecode measures the full field decode of one word (every field with text).
func BenchmarkDecode(b *testing.B) {
	data := generateStream(4096)
	b.SetBytes(WordSize)
	b.ResetTimer()
	for i := range b.N {
		j := i % 4096
		_ = Decode(data[j*WordSize:(j+1)*WordSize], j)
	}
}

// BenchmarkRowsScreen measures one screen (200 rows) of a 1,000,000-instruction listing,
// fetched from the middle, as the page's virtualised listing does.
func BenchmarkRowsScreen(b *testing.B) {
	s := NewStream("sg00/PE.bin", generateStream(1_000_000))
	b.ResetTimer()
	for range b.N {
		if t := s.Rows(500_000, 500_200); len(t.Rows) != 200 {
			b.Fatal(len(t.Rows))
		}
	}
}
