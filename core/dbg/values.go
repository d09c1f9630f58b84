package dbg

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/neffscope/neffscope/core/doc"
	"google.golang.org/protobuf/encoding/protowire"
)

// How .dbg values are shown beyond core/pbview: varint lists and bytes as text.

// guessBytes renders an unknown length-delimited value: text, a varint list, or hex.
func guessBytes(c []byte) string {
	if len(c) == 0 {
		return "(empty)"
	}
	if printable(c) {
		return doc.Quote(string(c), maxText)
	}
	if xs, ok := packed(nil, c, maxListed+1); ok {
		return "varints? " + listText(xs, maxListed)
	}
	return hexText(c, 32)
}

func printable(b []byte) bool {
	if !utf8.Valid(b) {
		return false
	}
	for _, r := range string(b) {
		if r < 0x20 && r != '\n' && r != '\t' && r != '\r' {
			return false
		}
	}
	return true
}

// packed reads a packed varint list, keeping at most keep values; ok is false when the bytes
// are not whole varints.
func packed(xs []uint64, c []byte, keep int) ([]uint64, bool) {
	for len(c) > 0 {
		x, n := protowire.ConsumeVarint(c)
		if n < 0 {
			return xs, false
		}
		if len(xs) < keep {
			xs = append(xs, x)
		}
		c = c[n:]
	}
	return xs, true
}

func countVarints(c []byte) int {
	n := 0
	for _, b := range c {
		if b < 0x80 {
			n++
		}
	}
	return n
}

func listText(xs []uint64, max int) string {
	var b strings.Builder
	b.WriteByte('[')
	for i, x := range xs {
		if i == max {
			b.WriteString(" …")
			break
		}
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(strconv.FormatUint(x, 10))
	}
	b.WriteByte(']')
	return b.String()
}

func hexText(c []byte, max int) string {
	const digits = "0123456789abcdef"
	var b strings.Builder
	for i, x := range c {
		if i == max {
			b.WriteString(" …")
			break
		}
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteByte(digits[x>>4])
		b.WriteByte(digits[x&15])
	}
	return b.String()
}

func itoa(v int64) string { return strconv.FormatInt(v, 10) }
