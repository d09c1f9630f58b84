package jsonspan

import (
	"fmt"
	"strings"
	"testing"
)

// defVars is a def.json shaped like the compiler's (and internal/bigneff's): a var object of n
// variables, each a small object of scalars, a shape list and sometimes a list of var ids.
func defVars(n int) []byte {
	var sb strings.Builder
	sb.WriteString("{\n    \"var\": {\n")
	for i := range n {
		if i > 0 {
			sb.WriteString(",\n")
		}
		switch i % 3 {
		case 0:
			fmt.Fprintf(&sb, "        \"DGETable%d\": {\n            \"list\": [\n                %d,\n                %d,\n                %d\n            ],\n            \"type\": \"dge-table\",\n            \"var_id\": %d\n        }", i, i+1, i+2, i+3, i)
		case 1:
			fmt.Fprintf(&sb, "        \"t%d_sg0000\": {\n            \"backing_variable_off\": %d,\n            \"dtype\": \"bfloat16\",\n            \"fabric_path\": \"main\",\n            \"internal_shape\": [\n                128,\n                %d\n            ],\n            \"size\": %d,\n            \"type\": \"virtual\",\n            \"var_id\": %d\n        }", i, i*64, i%512, i*256, i)
		default:
			fmt.Fprintf(&sb, "        \"identity_%d_sg0000\": {\n            \"alignment\": 32768,\n            \"fabric_path\": \"main\",\n            \"file_name\": \"value_sg0000_identity_%d_CRSM.npy\",\n            \"ops\": [],\n            \"size\": 32768,\n            \"type\": \"file\",\n            \"var_id\": %d\n        }", i, i, i)
		}
	}
	sb.WriteString("\n    }\n}\n")
	return []byte(sb.String())
}

// BenchmarkLazyVars is the manifest resolver's hot loop on a big def.json: the lazy check pass
// over the var object, then one Each over it reading each variable's fields (the
// def.json variables are most of a big NEFF's resolve).
func BenchmarkLazyVars(b *testing.B) {
	data := defVars(72_000)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		root, err := ParseWith(data, Options{LazyOver: 64 << 10})
		if err != nil {
			b.Fatal(err)
		}
		n := 0
		root.Get("var").Each(0, func(it Item) bool {
			for _, k := range []string{"type", "var_id", "size", "dtype", "backing_variable_off", "fabric_path", "shape", "internal_shape", "alignment", "list", "file_name"} {
				if it.V.Get(k) != nil {
					n++
				}
			}
			return true
		})
		if n == 0 {
			b.Fatal("no fields read")
		}
	}
}
