package ntff

import (
	"encoding/binary"
	"os"
	"testing"

	"github.com/neffscope/neffscope/core/ntff/ntffbuild"
	"github.com/neffscope/neffscope/internal/realfiles"
)

// FuzzRead: any bytes give a profile, findings and a measurement within the budget, never a
// panic. Seeds: the sample, and each shared capture's container and header with the first
// records of its blob (the fuzzer mutates headers; whole captures are too big to minimise).
func FuzzRead(f *testing.F) {
	f.Add(ntffbuild.Bytes(ntffbuild.Sample()))
	for _, c := range captures {
		p, ok := realfiles.Find(c.file)
		if !ok {
			continue
		}
		b, err := os.ReadFile(p)
		if err != nil || len(b) < 8 {
			continue
		}
		l := int(binary.LittleEndian.Uint64(b[0:8]) >> 8)
		f.Add(b[:min(len(b), 0x80+l+4096)])
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		readAll(t, b, 8<<20)
	})
}
