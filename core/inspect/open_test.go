package inspect

import (
	"bytes"
	"testing"

	"github.com/neffscope/neffscope/internal/realfiles"
)

func openBytes(name string, b []byte) *File {
	return Open(name, bytes.NewReader(b), int64(len(b)), Options{})
}

// openRealBytes reads a real NEFF (internal/realfiles finds it) whole.
func openRealBytes(t testing.TB, rel string) *File {
	return openBytes(rel, realfiles.Read(t, rel))
}
