//go:build js

package digest

import "hash"

// NewSHA256 starts a SHA-256 (this package's code: see the package comment).
func NewSHA256() hash.Hash { return newSHA256() }

// NewMD5 starts an MD5 (this package's code: see the package comment).
func NewMD5() hash.Hash { return newMD5() }
