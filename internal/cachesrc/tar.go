package cachesrc

import (
	"archive/tar"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"strings"
	"sync"
)

// tarSource reads a .tar (members read in place) or a .tar.gz (each kept member inflated to a
// temporary file when the walk reaches it, removed when the reader closes it).
type tarSource struct {
	root string
	f    *os.File
	opt  Options
	gz   bool
	tmp  string
	once sync.Once
}

func newTar(root string, opt Options) (*tarSource, error) {
	f, err := os.Open(root)
	if err != nil {
		return nil, err
	}
	head := make([]byte, 2)
	n, _ := f.ReadAt(head, 0)
	return &tarSource{root: root, f: f, opt: opt, gz: n == 2 && head[0] == 0x1f && head[1] == 0x8b}, nil
}

// counter counts what the tar reader has read or skipped, so a member's data offset is known.
type counter struct {
	f *os.File
	n int64
}

func (c *counter) Read(p []byte) (int, error) {
	k, err := c.f.Read(p)
	c.n += int64(k)
	return k, err
}

func (c *counter) Seek(off int64, whence int) (int64, error) {
	pos, err := c.f.Seek(off, whence)
	if err == nil {
		c.n = pos
	}
	return pos, err
}

func (t *tarSource) Walk(ctx context.Context, fn func(Entry) error) error {
	var tr *tar.Reader
	var cnt *counter
	if t.gz {
		zr, err := gzip.NewReader(io.NewSectionReader(t.f, 0, 1<<62))
		if err != nil {
			return fmt.Errorf("%s: %v", t.root, err)
		}
		tr = tar.NewReader(zr)
	} else {
		if _, err := t.f.Seek(0, io.SeekStart); err != nil {
			return err
		}
		cnt = &counter{f: t.f}
		tr = tar.NewReader(cnt)
	}
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("%s: the archive cannot be read past a member: %v", t.root, err)
		}
		if h.Typeflag != tar.TypeReg && h.Typeflag != tar.TypeRegA {
			continue
		}
		rel := strings.TrimPrefix(path.Clean("/"+strings.ReplaceAll(h.Name, "\\", "/")), "/")
		e := Entry{Path: t.root + "/" + rel, Rel: rel, Size: h.Size}
		if t.opt.Keep(path.Base(rel)) {
			if cnt != nil {
				off, size := cnt.n, h.Size
				e.open = func() (File, error) { return nopClose{io.NewSectionReader(t.f, off, size)}, nil }
			} else {
				p, err := t.spill(tr, rel)
				if err != nil {
					return err
				}
				e.open = func() (File, error) {
					f, err := os.Open(p)
					if err != nil {
						return nil, err
					}
					return &removeOnClose{f}, nil
				}
			}
		}
		if err := fn(e); err != nil {
			return err
		}
	}
}

// spill inflates the current member to a temporary file (the scan's readers need random
// access; a gzip stream has none).
func (t *tarSource) spill(r io.Reader, rel string) (string, error) {
	var err error
	t.once.Do(func() { t.tmp, err = os.MkdirTemp(t.opt.TempDir, "neffscope-tar-") })
	if err != nil {
		return "", err
	}
	f, err := os.CreateTemp(t.tmp, "member-*-"+path.Base(rel))
	if err != nil {
		return "", err
	}
	defer f.Close()
	if _, err := io.Copy(f, r); err != nil {
		os.Remove(f.Name())
		return "", fmt.Errorf("%s: member %s: %v", t.root, rel, err)
	}
	return f.Name(), nil
}

func (t *tarSource) Close() error {
	if t.tmp != "" {
		os.RemoveAll(t.tmp)
	}
	return t.f.Close()
}

type nopClose struct{ *io.SectionReader }

func (nopClose) Close() error { return nil }

// removeOnClose is an inflated member: closing it removes it.
type removeOnClose struct{ *os.File }

func (r *removeOnClose) Close() error {
	err := r.File.Close()
	os.Remove(r.File.Name())
	return err
}
