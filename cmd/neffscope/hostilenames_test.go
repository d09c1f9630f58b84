package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/neffscope/neffscope/core/neff/neffbuild"
)

// hostileCore is a core (kelf graph) name with a NUL, ESC, DEL, a C1 control, a bidi
// override, the line separator, a non-BMP format character (U+E0001, a surrogate pair in the
// JSON) and invalid UTF-8, as a forged kelf-0.json can hold it.
const hostileCoreJSON = `sg\u0000\u001b[2J\u007f\u0085\u202e\u2028\udb40\udc01` + "\xff\xfe" + `x`

// hostileCoreNEFF is neffbuild's sample with hostileCoreJSON as its one core's name and a
// DMA queue named with the same runes.
func hostileCoreNEFF(t *testing.T, dir string) string {
	t.Helper()
	var ms []neffbuild.Member
	for _, m := range neffbuild.Sample() {
		switch m.Path {
		case "kelf-0.json":
			m.Data = []byte(strings.Replace(string(m.Data), `"name": "sg00"`, `"name": "`+hostileCoreJSON+`"`, 1))
		case "sg00/def.json", "sg00/SP.json":
			m.Data = []byte(strings.ReplaceAll(string(m.Data), `qSPIO0`, `q`+hostileCoreJSON))
		}
		ms = append(ms, m)
	}
	p := filepath.Join(dir, "hostile-core.neff")
	if err := os.WriteFile(p, neffbuild.Bytes(ms, neffbuild.Options{}), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}
