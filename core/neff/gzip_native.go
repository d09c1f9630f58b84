//go:build !(js && wasm)

package neff

import "github.com/klauspost/compress/gzip"

// Natively klauspost/compress inflates NEFF payloads ~1.35× faster than compress/gzip
// (README, Dependencies).
type gzipImpl = gzip.Reader

var newGzipImpl = gzip.NewReader
