package neff

import (
	"bytes"
	"testing"

	"github.com/neffscope/neffscope/core/neff/neffbuild"
)

func BenchmarkOpenSmall(b *testing.B) {
	data := neffbuild.Bytes(neffbuild.Sample(), neffbuild.Options{})
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		Open(bytes.NewReader(data), int64(len(data)), Options{})
	}
}
