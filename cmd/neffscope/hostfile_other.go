//go:build !unix

package main

import (
	"os"
	"path/filepath"
)

// fileID names a file by its path with every symlink resolved where the platform gives no
// device and inode (the unix build, scanfile_unix.go, uses them).
type fileID struct {
	dev, ino uint64
	path     string
}

func fileKey(p string, _ os.FileInfo) fileID {
	if r, err := filepath.EvalSymlinks(p); err == nil {
		if a, err := filepath.Abs(r); err == nil {
			return fileID{path: a}
		}
	}
	return fileID{path: p}
}

func openNonblocking(p string) (*os.File, error) { return os.Open(p) }
