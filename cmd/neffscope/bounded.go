package main

import (
	"bytes"
	"fmt"
	"io"
)

// maxNcfwInput bounds what ncfw reads of its file: a context is at most 17,638 bytes and a
// libncfw dump at most 1 MiB, so /dev/zero or a 1 GiB file costs 8 MiB, not its size.
const maxNcfwInput = 8 << 20

// maxLooseTable bounds a loose activation-table file read by eval (real ones are a few KB;
// blobs inside a NEFF are bounded by maxLooseTable*2 in all).
const maxLooseTable = 16 << 20

// readBounded reads at most limit bytes of path; more says the file holds more than that.
func readBounded(path string, limit int64) (data []byte, more bool, err error) {
	// Opened without blocking: a FIFO no one writes to reads as empty instead of hanging;
	// a pipe with a writer (a shell's <(…)) is read as it comes.
	fh, err := openNonblocking(path)
	if err != nil {
		return nil, false, err
	}
	defer fh.Close()
	if st, err := fh.Stat(); err == nil && st.IsDir() {
		return nil, false, fmt.Errorf("%s is a directory", path)
	}
	// A regular file gets one buffer of its size; a device or pipe grows one up to the limit.
	buf := make([]byte, 0, 64<<10)
	if st, err := fh.Stat(); err == nil && st.Mode().IsRegular() {
		buf = make([]byte, 0, min(st.Size(), limit)+1)
	}
	b := bytes.NewBuffer(buf)
	_, err = b.ReadFrom(io.LimitReader(fh, limit+1))
	data = b.Bytes()
	if err != nil {
		return nil, false, err
	}
	if int64(len(data)) > limit {
		return data[:limit], true, nil
	}
	return data, false, nil
}
