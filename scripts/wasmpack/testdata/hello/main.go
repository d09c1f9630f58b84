// A small program for wasmpack's test: its output depends on static data (a table, strings,
// a map literal) and on the runtime's function tables (a caller's name and line, a stack
// trace), so a packed module that laid out memory differently would print something else.
package main

import (
	"fmt"
	"runtime"
	"sort"
	"strings"
)

var table = [...]uint32{0x428a2f98, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x71374491, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xb5c0fbcf}

var words = map[string]int{"pe": 0, "act": 1, "pool": 2, "dve": 3, "sp": 4}

func where() string {
	_, file, line, _ := runtime.Caller(1)
	return fmt.Sprintf("%s:%d", file[strings.LastIndex(file, "/")+1:], line)
}

func main() {
	sum := uint32(0)
	for i, v := range table {
		sum += v * uint32(i+1)
	}
	keys := make([]string, 0, len(words))
	for k := range words {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	fmt.Println("sum", sum, "keys", keys, "at", where())
	pcs := make([]uintptr, 8)
	frames := runtime.CallersFrames(pcs[:runtime.Callers(1, pcs)])
	for {
		f, more := frames.Next()
		fmt.Println("frame", f.Function)
		if !more {
			break
		}
	}
}
