// Package cachesrc lists and opens the files of a compile cache where it lives: a .tar or
// .tar.gz of a cache folder, or s3://bucket/prefix through the AWS SDK for Go v2. (A folder
// is walked by the CLI's own walker, which follows the file system's symlinks and inodes.)
// It is for the CLI only: the SDK must never reach the wasm build.
package cachesrc

import (
	"context"
	"io"
	"path"
	"strings"
)

// Kind is where a cache lives.
type Kind int

const (
	Folder Kind = iota
	Tar
	S3
)

// KindOf says where root lives: s3://… is S3, a name ending .tar, .tar.gz or .tgz is a tar
// archive, anything else a folder (or a file of one).
func KindOf(root string) Kind {
	l := strings.ToLower(root)
	switch {
	case strings.HasPrefix(l, "s3://"):
		return S3
	case strings.HasSuffix(l, ".tar"), strings.HasSuffix(l, ".tar.gz"), strings.HasSuffix(l, ".tgz"):
		return Tar
	}
	return Folder
}

// File is an entry's bytes, read at any offset.
type File interface {
	io.ReaderAt
	io.Closer
}

// Entry is one file of a source.
type Entry struct {
	// Path is what records name it by: the root, a slash, and the path below the root
	// ("s3://bucket/cache/neuronxcc-2.21/MODULE_1+2/model.neff").
	Path string
	// Rel is the path below the root, slash-separated.
	Rel  string
	Size int64
	// open reads the entry (nil: the source did not keep its bytes, Options.Keep said no).
	open func() (File, error)
}

// Open opens the entry's bytes.
func (e Entry) Open() (File, error) {
	if e.open == nil {
		return nil, errNotKept
	}
	return e.open()
}

// Kept says whether the entry's bytes can be opened.
func (e Entry) Kept() bool { return e.open != nil }

type errString string

func (e errString) Error() string { return string(e) }

const errNotKept = errString("the entry's bytes were not kept (only its name was listed)")

// Options tune a source.
type Options struct {
	// Keep says which entries' bytes are read (by base name); the others are listed by name
	// only (a cache entry's model.done and model.log say its state by being there).
	Keep func(name string) bool
	// TempDir is where a .tar.gz's kept members are inflated to, one entry at a time (""
	// the system's temporary directory).
	TempDir string
	// PageSize is how many keys one S3 listing request asks for (0: the server's default,
	// 1,000 on AWS).
	PageSize int32
}

// Source is a cache that is not a folder.
type Source interface {
	// Walk calls fn for every file, in the source's order (S3: key order; tar: member order),
	// streaming: a listing is never held whole. An error from fn stops the walk.
	Walk(ctx context.Context, fn func(Entry) error) error
	// Close lets go of the source (a tar's file, its inflated members).
	Close() error
}

// New opens root (KindOf Tar or S3).
func New(ctx context.Context, root string, opt Options) (Source, error) {
	if opt.Keep == nil {
		opt.Keep = func(string) bool { return true }
	}
	if KindOf(root) == S3 {
		return newS3(ctx, root, opt)
	}
	return newTar(root, opt)
}

// Dir is a slash path's directory ("" for a top-level name).
func Dir(p string) string {
	d := path.Dir(p)
	if d == "." {
		return ""
	}
	return d
}
