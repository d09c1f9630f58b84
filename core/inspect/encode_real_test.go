package inspect

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"path/filepath"
	"testing"

	"github.com/neffscope/neffscope/core/doc"
)

// TestEncodersOnRealFiles: for the Document of every real file, Document.JSON (what
// `neffscope inspect --json` and the page's export write) is byte for byte encoding/json's
// MarshalIndent, and the msgpack wire (worker → page) decodes to a Document that encodes to
// the same bytes.
func TestEncodersOnRealFiles(t *testing.T) {
	var paths []string
	filepath.WalkDir(realDir, func(p string, e fs.DirEntry, err error) error {
		if err == nil && !e.IsDir() {
			paths = append(paths, p)
		}
		return nil
	})
	if len(paths) == 0 {
		t.Skipf("real compiler files not present at %s; they live in the shared folder beside the repository", realDir)
	}
	for _, p := range paths {
		rel, _ := filepath.Rel(realDir, p)
		f := openReal(t, rel)
		got, err := f.Doc.JSON()
		want, wantErr := json.MarshalIndent(f.Doc, "", " ")
		if err != nil || wantErr != nil || !bytes.Equal(got, want) {
			t.Errorf("%s: Document.JSON (%d bytes, %v) differs from encoding/json (%d bytes, %v)", rel, len(got), err, len(want), wantErr)
			continue
		}
		wire, _ := f.Doc.MarshalMsg(nil)
		var back doc.Document
		if rest, err := back.UnmarshalMsg(wire); err != nil || len(rest) != 0 {
			t.Errorf("%s: the msgpack wire does not decode: %v (%d bytes left)", rel, err, len(rest))
			continue
		}
		// Compared as msgpack: the wire has no null for an empty array, so an empty Rows
		// comes back nil (JSON null), as it did with msgp's decoder.
		if again, _ := back.MarshalMsg(nil); !bytes.Equal(again, wire) {
			t.Errorf("%s: the msgpack round trip changes the document", rel)
		}
	}
}
