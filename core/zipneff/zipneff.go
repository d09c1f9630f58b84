// Package zipneff finds NEFFs stored inside zip files: torch-neuronx writes the compiled NEFF
// into the TorchScript .pt it saves (a zip), and users want it back out. An entry counts as a
// NEFF when its first 1024 bytes are a NEFF header (pkg_version 1 or 2, header_size 1024,
// data_size + 1024 ≤ the entry's size) and its payload hash matches the header (MD5 for pkg 2,
// SHA-256 for pkg 1). Stored (uncompressed) entries can be opened in place at Offset; deflated
// ones are read through the zip reader.
package zipneff

import (
	"archive/zip"
	"fmt"
	"io"

	"github.com/neffscope/neffscope/core/neff"
)

// Entry is one NEFF found in a zip.
type Entry struct {
	Name string
	// Stored is true for an uncompressed entry: its bytes are the file's bytes
	// [Offset, Offset+Size).
	Stored bool
	Offset int64
	Size   int64
	// Integrity is the header check's verdict: "ok" or "mismatch" (a NEFF header whose payload
	// hash does not match is still listed, so the user sees it).
	Integrity string
	UUID      string
	file      *zip.File
}

// Open returns a reader of the entry's NEFF bytes (stored: straight from r; deflated: through
// the decompressor).
func (e *Entry) Open(r io.ReaderAt) (io.ReadCloser, error) {
	if e.Stored {
		return io.NopCloser(io.NewSectionReader(r, e.Offset, e.Size)), nil
	}
	return e.file.Open()
}

// Find lists the NEFFs in a zip, in the zip's entry order. A file that is not a zip is an
// error; entries that are not NEFFs are skipped.
func Find(r io.ReaderAt, size int64) ([]*Entry, error) {
	zr, err := zip.NewReader(r, size)
	if err != nil {
		return nil, fmt.Errorf("not a zip file (a TorchScript .pt is one): %w", err)
	}
	var out []*Entry
	for _, zf := range zr.File {
		if zf.FileInfo().IsDir() || zf.UncompressedSize64 < neff.HeaderSize || zf.UncompressedSize64 > 1<<40 {
			continue
		}
		e := &Entry{Name: zf.Name, Size: int64(zf.UncompressedSize64), file: zf}
		if zf.Method == zip.Store {
			off, err := zf.DataOffset()
			if err != nil || off < 0 || off+e.Size > size {
				continue
			}
			e.Stored, e.Offset = true, off
		}
		if !e.check(r) {
			continue
		}
		out = append(out, e)
	}
	return out, nil
}

// check reads the header and, when it looks like a NEFF, hashes the payload.
func (e *Entry) check(r io.ReaderAt) bool {
	rc, err := e.Open(r)
	if err != nil {
		return false
	}
	defer rc.Close()
	head := make([]byte, neff.HeaderSize)
	if _, err := io.ReadFull(rc, head); err != nil {
		return false
	}
	h := neff.ParseHeader(head)
	if (h.PkgVersion != 1 && h.PkgVersion != 2) || h.HeaderSize != neff.HeaderSize || h.DataSize+neff.HeaderSize > uint64(e.Size) {
		return false
	}
	var src io.ReaderAt
	if e.Stored {
		src = io.NewSectionReader(r, e.Offset, e.Size)
	} else {
		// A deflated entry is hashed through a fresh reader; neff.Open needs random access, so
		// only the hash is checked here (the bytes stream once).
		return e.streamCheck(h)
	}
	a := neff.Open(src, e.Size, neff.Options{})
	e.Integrity = a.Payload.Integrity
	e.UUID = a.Header.UUIDString()
	return e.Integrity == "ok" || e.Integrity == "mismatch"
}

func (e *Entry) streamCheck(h neff.Header) bool {
	rc, err := e.file.Open()
	if err != nil {
		return false
	}
	defer rc.Close()
	b, err := io.ReadAll(io.LimitReader(rc, 1<<30))
	if err != nil || int64(len(b)) != e.Size {
		return false
	}
	a := neff.Open(bytesReaderAt(b), e.Size, neff.Options{})
	e.Integrity = a.Payload.Integrity
	e.UUID = h.UUIDString()
	return e.Integrity == "ok" || e.Integrity == "mismatch"
}

type bytesReaderAt []byte

func (b bytesReaderAt) ReadAt(p []byte, off int64) (int, error) {
	if off >= int64(len(b)) {
		return 0, io.EOF
	}
	n := copy(p, b[off:])
	if n < len(p) {
		return n, io.EOF
	}
	return n, nil
}
