// A small program for wasmsize's test.
package main

import (
	"fmt"
	"strings"
)

var greeting = strings.Repeat("wasmsize ", 3)

func main() { fmt.Println(greeting, len(greeting)) }
