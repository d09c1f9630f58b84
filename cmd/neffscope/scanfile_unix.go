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

// openForScan opens without blocking: a FIFO swapped in after the walk's stat opens at once
// (and is then refused by its fstat) instead of waiting for a writer.
func openForScan(p string) (*os.File, error) {
	return os.OpenFile(p, os.O_RDONLY|syscall.O_NONBLOCK, 0)
}
