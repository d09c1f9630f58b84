// Package repack is test support: it rewrites a real NEFF with members changed, dropped or
// added, keeping its header's identity (name, UUID, feature bits, LNC size, TPB count, version),
// for tests that need a second, slightly different real-shaped NEFF (the diff tests).
package repack

import (
	"bytes"

	"github.com/neffscope/neffscope/core/neff"
	"github.com/neffscope/neffscope/core/neff/neffbuild"
)

// NEFF returns src repacked: edit sees each member in archive order and returns its new bytes,
// and false to leave it out; extra members are appended.
func NEFF(src []byte, edit func(path string, data []byte) ([]byte, bool), extra ...neffbuild.Member) []byte {
	a := neff.Open(bytes.NewReader(src), int64(len(src)), neff.Options{Keep: func(string, int64) bool { return true }})
	var ms []neffbuild.Member
	for _, m := range a.Members {
		if data, keep := edit(m.Path, m.Data); keep {
			ms = append(ms, neffbuild.Member{Path: m.Path, Data: data})
		}
	}
	ms = append(ms, extra...)
	h := a.Header
	return neffbuild.Bytes(ms, neffbuild.Options{Name: h.Name, UUID: h.UUID, FeatureBits: h.FeatureBits, LNCSize: h.LNCSize,
		NumTPB: h.NumTPB, NeffVersionMajor: h.NeffVersionMajor})
}
