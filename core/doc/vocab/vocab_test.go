package vocab

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const root = "../../.."

// The generated page file is what the Go constants say now (run `go generate ./core/doc`).
func TestGeneratedVocabIsCurrent(t *testing.T) {
	want, err := JS(root)
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(GeneratedPath)))
	if err != nil {
		t.Fatalf("%v: run go generate ./core/doc", err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("%s is stale: run go generate ./core/doc", GeneratedPath)
	}
}

// The constants the page leans on are there, under the names the page uses.
func TestVocabNames(t *testing.T) {
	js, err := JS(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`  PWP_FUNCTION: "pwp-function",`, `  NCFW_CONTEXT: "ncfw-context",`, `  DMA_BLOCKS: "dma-blocks",`,
		`  PWP_PART: "pwp-part",`, `  NCFW_TEXT: "ncfw-text",`, `  VIEW_LIMIT: "view_limit",`, `  MORE: "more",`, `  PENDING: "pending",`,
		`  NOT_CHECKED: "not-checked",`, `  OTHER: "other",`} {
		if !strings.Contains(string(js), want) {
			t.Errorf("the vocabulary has no %s", want)
		}
	}
	if strings.Contains(string(js), `: "",`) {
		t.Error("an empty constant (RefNone) was written")
	}
	for in, want := range map[string]string{"PWPFunction": "PWP_FUNCTION", "ViewLimit": "VIEW_LIMIT", "NEFF": "NEFF", "F32": "F32", "LineB": "LINE_B"} {
		if got := upperSnake(in); got != want {
			t.Errorf("upperSnake(%s) = %s, want %s", in, got, want)
		}
	}
}
