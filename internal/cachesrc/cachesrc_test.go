package cachesrc

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/neffscope/neffscope/internal/cachetest"
)

func tree(t *testing.T) string {
	root := t.TempDir()
	for i, n := range []string{"a/MODULE_1+00000000/model.neff", "a/MODULE_1+00000000/model.done", "a/MODULE_2+00000000/model.hlo_module.pb", "b/big.neff"} {
		size := 10 + i
		if strings.HasSuffix(n, "big.neff") {
			size = 3 << 20
		}
		b := make([]byte, size)
		for j := range b {
			b[j] = byte(j * 7)
		}
		cachetest.Write(t, filepath.Join(root, filepath.FromSlash(n)), b)
	}
	return root
}

// The listing is paginated and streamed (pages of 2 keys here), the names the Keep function
// refuses are listed without their bytes, and an object is read with range requests: a
// header-sized read costs one small request, a whole read a few growing ones.
func TestS3ListingAndRanges(t *testing.T) {
	root := tree(t)
	url := cachetest.S3(t, root, "b", "p", true)
	src, err := New(context.Background(), url, Options{PageSize: 2, Keep: func(n string) bool { return strings.HasSuffix(n, ".neff") }})
	if err != nil {
		t.Fatal(err)
	}
	var rels []string
	var big Entry
	err = src.Walk(context.Background(), func(e Entry) error {
		rels = append(rels, e.Rel)
		if e.Kept() != strings.HasSuffix(e.Rel, ".neff") {
			t.Errorf("%s kept %v", e.Rel, e.Kept())
		}
		if e.Rel == "b/big.neff" {
			big = e
		}
		return nil
	})
	if err != nil || strings.Join(rels, " ") != "a/MODULE_1+00000000/model.done a/MODULE_1+00000000/model.neff a/MODULE_2+00000000/model.hlo_module.pb b/big.neff" {
		t.Fatalf("%v: %v", err, rels)
	}
	f, err := big.Open()
	if err != nil {
		t.Fatal(err)
	}
	o := f.(*s3Object)
	head := make([]byte, 1024)
	if _, err := f.ReadAt(head, 0); err != nil || o.Requests != 1 || len(o.buf) != firstWindow {
		t.Fatalf("header read: %v, %d requests, %d B fetched", err, o.Requests, len(o.buf))
	}
	all, err := io.ReadAll(io.NewSectionReader(f, 0, big.Size))
	want, _ := os.ReadFile(filepath.Join(root, "b", "big.neff"))
	if err != nil || string(all) != string(want) || o.Requests > 8 {
		t.Fatalf("whole read: %v, equal %v, %d requests", err, string(all) == string(want), o.Requests)
	}
}

// A .tar member is read in place; a .tar.gz member is inflated to a file that goes when read.
func TestTarSources(t *testing.T) {
	root := tree(t)
	for _, gz := range []bool{false, true} {
		p := filepath.Join(t.TempDir(), "c.tar")
		cachetest.Tar(t, root, p, gz)
		src, err := New(context.Background(), p, Options{})
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		err = src.Walk(context.Background(), func(e Entry) error {
			f, err := e.Open()
			if err != nil {
				return err
			}
			defer f.Close()
			b := make([]byte, e.Size)
			if _, err := f.ReadAt(b, 0); err != nil {
				return err
			}
			want, _ := os.ReadFile(filepath.Join(root, filepath.FromSlash(e.Rel)))
			if string(b) != string(want) {
				t.Errorf("gz %v: %s differs", gz, e.Rel)
			}
			n++
			return nil
		})
		if err != nil || n != 4 {
			t.Fatalf("gz %v: %v, %d entries", gz, err, n)
		}
		src.Close()
	}
}
