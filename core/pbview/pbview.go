// Package pbview shows protobuf fields that a decoder's table of shapes does not know: the
// .dbg members (core/dbg) and the NTFF header (core/ntff) both keep such a field as a generic
// node, named by its number and wire type, with its value as it stands on the wire.
package pbview

import (
	"strconv"

	"google.golang.org/protobuf/encoding/protowire"
)

// WireName names a wire type as the protobuf documentation does.
func WireName(t protowire.Type) string {
	switch t {
	case protowire.VarintType:
		return "varint"
	case protowire.Fixed32Type:
		return "fixed32"
	case protowire.Fixed64Type:
		return "fixed64"
	case protowire.BytesType:
		return "length-delimited"
	case protowire.StartGroupType:
		return "group start"
	case protowire.EndGroupType:
		return "group end"
	}
	return "wire type " + strconv.Itoa(int(t))
}

// Value is the value of a field of wire type t whose bytes after the tag are v: a varint in
// decimal, a fixed32 or fixed64 in hex, a length-delimited value as text renders its
// content, anything else as its length.
func Value(t protowire.Type, v []byte, text func([]byte) string) string {
	switch t {
	case protowire.VarintType:
		x, _ := protowire.ConsumeVarint(v)
		return strconv.FormatUint(x, 10)
	case protowire.Fixed32Type:
		x, _ := protowire.ConsumeFixed32(v)
		return "0x" + strconv.FormatUint(uint64(x), 16)
	case protowire.Fixed64Type:
		x, _ := protowire.ConsumeFixed64(v)
		return "0x" + strconv.FormatUint(x, 16)
	case protowire.BytesType:
		c, _ := protowire.ConsumeBytes(v)
		return text(c)
	}
	return strconv.Itoa(len(v)) + " B"
}
