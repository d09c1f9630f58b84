//go:build unix

package main

import (
	"os"
	"syscall"
)

// fileID names a file by device and inode, so scan reads each target of a symlink graph once.
type fileID struct {
	dev, ino uint64
	path     string // the fallback's key (scanfile_other.go); empty here
}

func fileKey(p string, st os.FileInfo) fileID {
	if s, ok := st.Sys().(*syscall.Stat_t); ok {
		return fileID{dev: uint64(s.Dev), ino: uint64(s.Ino)}
	}
	return fileID{path: p}
}

// openNonblocking opens for reading without blocking: a FIFO (named, or swapped in after a
// stat) opens at once, and openInput's fstat then refuses it, instead of waiting for a writer.
func openNonblocking(p string) (*os.File, error) {
	return os.OpenFile(p, os.O_RDONLY|syscall.O_NONBLOCK, 0)
}
