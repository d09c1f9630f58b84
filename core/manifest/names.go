package manifest

import "strings"

// Member-name patterns. The tables say which member paths they mean in a small glob
// language rather than regular expressions: the names are simple and anchored, and the regexp
// engine was a quarter of a megabyte of the WebAssembly build.
//
// A pattern matches the whole path, byte by byte:
//
//	?        any one byte but '/'
//	*        zero or more bytes, none of them '/'
//	**       zero or more bytes of any kind, '/' included
//	#        one or more ASCII digits 0-9
//	{a,b,c}  one of the comma-separated alternatives (each may be empty and may use the
//	         syntax above, but not braces)
//
// Every other byte matches itself ('.' is a plain dot). "kelf-?*.json" is regexp
// `^kelf-[^/]+\.json$`; "{sgLnk/,}sg#/tensor_map.json" is `^(sgLnk/)?sg[0-9]+/tensor_map\.json$`.
const (
	kelfPattern      = "kelf-?*.json"                 // a KELF descriptor found by name
	defPattern       = "sg#/def.json"                 // a core's def.json found by name; the directory is the core
	tensorMapPattern = "{sgLnk/,}sg#/tensor_map.json" // a subgraph's tensor map
	klirPattern      = "**.klir.debuginfo.json"       // an NKI source debug-info tree
)

// matchName reports whether the member path name matches pattern (syntax above).
func matchName(pattern, name string) bool {
	for pattern != "" {
		switch c := pattern[0]; c {
		case '*':
			anySlash := strings.HasPrefix(pattern, "**")
			rest := pattern[1:]
			if anySlash {
				rest = pattern[2:]
			}
			for i := 0; i <= len(name); i++ {
				if matchName(rest, name[i:]) {
					return true
				}
				if i < len(name) && name[i] == '/' && !anySlash {
					return false
				}
			}
			return false
		case '#':
			digits := 0
			for digits < len(name) && name[digits] >= '0' && name[digits] <= '9' {
				digits++
			}
			for i := digits; i >= 1; i-- {
				if matchName(pattern[1:], name[i:]) {
					return true
				}
			}
			return false
		case '{':
			end := strings.IndexByte(pattern, '}')
			if end < 0 {
				break // no closing brace: a literal '{'
			}
			for alt := range strings.SplitSeq(pattern[1:end], ",") {
				if matchName(alt+pattern[end+1:], name) {
					return true
				}
			}
			return false
		case '?':
			if name == "" || name[0] == '/' {
				return false
			}
			pattern, name = pattern[1:], name[1:]
			continue
		}
		if name == "" || name[0] != pattern[0] {
			return false
		}
		pattern, name = pattern[1:], name[1:]
	}
	return name == ""
}

// matcher returns a func that matches pattern, for archive.matching.
func matcher(pattern string) func(string) bool {
	return func(name string) bool { return matchName(pattern, name) }
}
