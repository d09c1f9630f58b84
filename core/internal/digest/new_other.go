//go:build !js

package digest

import (
	"crypto/md5"
	"crypto/sha256"
	"hash"
)

// NewSHA256 starts a SHA-256 (crypto/sha256, which has assembly here).
func NewSHA256() hash.Hash { return sha256.New() }

// NewMD5 starts an MD5 (crypto/md5, which has assembly here).
func NewMD5() hash.Hash { return md5.New() }
