package inspect

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/neffscope/neffscope/core/doc"
	"github.com/neffscope/neffscope/internal/realfiles"
)

// TestEncodersOnRealFiles: for the Document of every real file, Document.JSON (what
// `neffscope inspect --json` and the page's export write) is byte for byte encoding/json's
// MarshalIndent, and the msgpack wire (worker → page) decodes to a Document that encodes to
// the same bytes.
func TestEncodersOnRealFiles(t *testing.T) {
	// The repository's real files, loose members of its NEFF (an activation set, a def.json),
	// and every file of the shared folder where it is beside the clone.
	var paths []string
	for _, dir := range []string{realfiles.RepoDir(), realfiles.SharedDir()} {
		if dir == "" {
			continue
		}
		filepath.WalkDir(dir, func(p string, e fs.DirEntry, err error) error {
			if err == nil && !e.IsDir() {
				paths = append(paths, p)
			}
			return nil
		})
	}
	for _, m := range []string{"sg00/act_info.json", "sg00/exp_and_others.json", "sg00/exp_and_others_bkt.bin", "sg00/exp_and_others_ctrl.bin", "sg00/def.json"} {
		paths = append(paths, realfiles.Path(t, "nkipy/matmul_small/"+m))
	}
	if !slices.ContainsFunc(paths, func(p string) bool { return strings.HasSuffix(p, ".neff") }) {
		t.Fatalf("no real NEFF among %v", paths)
	}
	for _, p := range paths {
		rel := p
		f := openPath(t, p)
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
