package pbview

import (
	"testing"

	"google.golang.org/protobuf/encoding/protowire"
)

func TestValue(t *testing.T) {
	quote := func(c []byte) string { return "«" + string(c) + "»" }
	for _, c := range []struct {
		t    protowire.Type
		v    []byte
		want string
	}{
		{protowire.VarintType, protowire.AppendVarint(nil, 300), "300"},
		{protowire.Fixed32Type, protowire.AppendFixed32(nil, 0xbeef), "0xbeef"},
		{protowire.Fixed64Type, protowire.AppendFixed64(nil, 1<<40), "0x10000000000"},
		{protowire.BytesType, protowire.AppendBytes(nil, []byte("sg00")), "«sg00»"},
		{protowire.StartGroupType, []byte{1, 2, 3}, "3 B"},
		{protowire.VarintType, nil, "0"}, // cut short: what could be read
	} {
		if got := Value(c.t, c.v, quote); got != c.want {
			t.Errorf("Value(%s, % x) = %q, want %q", WireName(c.t), c.v, got, c.want)
		}
	}
	if got := WireName(7); got != "wire type 7" {
		t.Errorf("WireName(7) = %q", got)
	}
}
