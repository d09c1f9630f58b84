package isa

import (
	"bytes"
	"path/filepath"
	"sort"
	"testing"

	"github.com/neffscope/neffscope/internal/golden"
)

// TestFieldTextGolden pins every field's text (appendFieldText through Decode) of every word
// of every real engine stream, and of a fixed sweep of made-up words: each opcode with bytes
// from a fixed generator and the bytes its field kinds branch on (0x0D, 0x0F, 0x20) set to
// each value they test.
func TestFieldTextGolden(t *testing.T) {
	paths := golden.SharedNEFFs(t)
	sums := &golden.Sums{}
	addRealFieldTexts(t, sums, paths)
	addSweepFieldTexts(sums)
	sums.Check(t, "testdata/fieldtext.sha256")
}

// addRealFieldTexts adds the field texts of each engine stream of each NEFF at paths.
func addRealFieldTexts(t *testing.T, sums *golden.Sums, paths []string) {
	for _, path := range paths {
		members := readNEFF(t, path)
		streams := engineStreams(t, members)
		names := make([]string, 0, len(streams))
		for m := range streams {
			names = append(names, m)
		}
		sort.Strings(names)
		for _, m := range names {
			b := members[m]
			var buf bytes.Buffer
			for i := 0; i+WordSize <= len(b); i += WordSize {
				writeFieldTexts(&buf, Decode(b[i:i+WordSize], i/WordSize))
			}
			sums.Add(filepath.Base(filepath.Dir(path))+"/"+filepath.Base(path)+" "+m, buf.Bytes())
		}
	}
}

// addSweepFieldTexts adds, per opcode, the field texts of 48 made-up words.
func addSweepFieldTexts(sums *golden.Sums) {
	state := uint64(0x9E3779B97F4A7C15)
	next := func() byte {
		state ^= state << 13
		state ^= state >> 7
		state ^= state << 17
		return byte(state)
	}
	for op := 0; op < 256; op++ {
		var buf bytes.Buffer
		for k := 0; k < 48; k++ {
			var w [WordSize]byte
			for i := range w {
				w[i] = next()
			}
			w[0] = byte(op)
			switch k % 6 {
			case 0, 1, 2, 3:
				w[0x0F] = byte(k % 6) // Activate's imm0 source
			case 4:
				w[0x0D] = 1 // the scale source
				w[0x01] = 0x10
			case 5:
				w[0x01] = 0x11
			}
			writeFieldTexts(&buf, Decode(w[:], k))
		}
		sums.Add("sweep opcode "+hex2(byte(op)), buf.Bytes())
	}
}

func writeFieldTexts(buf *bytes.Buffer, in Instruction) {
	for _, f := range in.Fields {
		buf.WriteString(f.Name)
		buf.WriteByte('=')
		buf.WriteString(f.Text)
		buf.WriteByte('|')
		buf.WriteString(f.Immediate)
		buf.WriteByte('\n')
	}
}
