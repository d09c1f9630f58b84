package doc

import "strings"

// A Ref is the handle a front end hands back to the core to fetch more of a node; a finding's
// Part (core/neff) uses the same forms to say where it belongs. The strings are part of the
// wire format, so they are built and read only here, and on the page only in
// www/src/lib/refs.js, with the kinds of www/src/lib/vocab.gen.js (go generate writes REF from
// the RefKind constants).

// RefKind is what a ref names.
type RefKind string

const (
	RefNone     RefKind = ""          // no ref, or one of no known form
	RefMember   RefKind = "member"    // "member:<path>": a container member's bytes
	RefStream   RefKind = "stream"    // "stream:<member>": a disassembled stream's listing rows
	RefRecords  RefKind = "records"   // "records:<member>": a .dbg member's records table rows ("records:" a loose .dbg file's)
	RefFile     RefKind = "file"      // "file:": the opened file's own bytes
	RefPWP      RefKind = "pwp"       // "pwp:<profile>#<function>": an activation function
	RefHeader   RefKind = "header"    // "header:<field>": a NEFF header field (finding parts)
	RefNCFWText RefKind = "ncfw-text" // "ncfw-text": the text of an emulated libncfw context
	RefJSON     RefKind = "json"      // "json:<source>@<offset>": a JSON container whose children are built on demand (a stub, AttrMore)
	RefKlir     RefKind = "klir"      // "klir:<member>@<offset>": a klir source-tree list (the JSON list at offset) built on demand (a stub)
	RefDbg      RefKind = "dbg"       // "dbg:<member>": a .dbg member's content tree, built on demand from its bytes (a stub, AttrMore)
	RefPWPPart  RefKind = "pwp-part"  // "pwp-part:<profile>#<function>#<part>": a part of an activation function's node (its record, its saturation slots) built on demand (a stub)
)

// PWPPartRef names part (e.g. "record") of the node of function in the set whose profile is
// the member at profile.
func PWPPartRef(profile, function, part string) string {
	return string(RefPWPPart) + ":" + profile + "#" + function + "#" + part
}

// ParsePWPPartRef splits a pwp-part ref into the profile, the function and the part.
func ParsePWPPartRef(s string) (profile, function, part string, ok bool) {
	kind, rest := ParseRef(s)
	i := strings.LastIndexByte(rest, '#')
	if kind != RefPWPPart || i < 0 {
		return "", "", "", false
	}
	rest, part = rest[:i], rest[i+1:]
	j := strings.LastIndexByte(rest, '#')
	if j < 0 {
		return "", "", "", false
	}
	return rest[:j], rest[j+1:], part, true
}

// DbgRef names the content tree of the .dbg member at path, built on demand.
func DbgRef(path string) string { return string(RefDbg) + ":" + path }

// MemberRef names the bytes of the member at path.
func MemberRef(path string) string { return string(RefMember) + ":" + path }

// StreamRef names the instruction listing of the stream member at path.
func StreamRef(path string) string { return string(RefStream) + ":" + path }

// RecordsRef names the records table of the .dbg member at path ("" for a .dbg file opened
// alone), served by range like a stream's listing.
func RecordsRef(path string) string { return string(RefRecords) + ":" + path }

// FileRef names the opened file's bytes.
const FileRef = string(RefFile) + ":"

// NCFWTextRef names an emulated context's printed text.
const NCFWTextRef = string(RefNCFWText)

// PWPRef names the activation function called function in the set whose profile is the
// member at profile.
func PWPRef(profile, function string) string {
	return string(RefPWP) + ":" + profile + "#" + function
}

// HeaderRef names the NEFF header field called field.
func HeaderRef(field string) string { return string(RefHeader) + ":" + field }

// ParseRef splits a ref into its kind and the rest ("member:a/b" → RefMember, "a/b").
// A ref of no known form gives RefNone and the whole string.
func ParseRef(s string) (RefKind, string) {
	if s == NCFWTextRef {
		return RefNCFWText, ""
	}
	k, rest, ok := strings.Cut(s, ":")
	if !ok {
		return RefNone, s
	}
	switch kind := RefKind(k); kind {
	case RefMember, RefStream, RefRecords, RefFile, RefPWP, RefHeader, RefJSON, RefKlir, RefDbg, RefPWPPart:
		return kind, rest
	}
	return RefNone, s
}

// ParsePWPRef splits the rest of a pwp ref into the profile and the function name (the
// function is after the last '#': a profile path may hold one, a function name may not).
func ParsePWPRef(s string) (profile, function string, ok bool) {
	kind, rest := ParseRef(s)
	i := strings.LastIndexByte(rest, '#')
	if kind != RefPWP || i < 0 {
		return "", "", false
	}
	return rest[:i], rest[i+1:], true
}

// NodeLink is the link form of the node at path (its keys): each key escaped ('%', '/',
// '#', '&' and controls as %XX, which decodeURIComponent reverses) and joined by '/', the
// form the page's URL hash uses for a node path.
func NodeLink(path ...string) string {
	var b strings.Builder
	for i, k := range path {
		if i > 0 {
			b.WriteByte('/')
		}
		for j := 0; j < len(k); j++ {
			c := k[j]
			if c == '%' || c == '/' || c == '#' || c == '&' || c < 0x20 || c == 0x7f {
				const hexd = "0123456789ABCDEF"
				b.WriteByte('%')
				b.WriteByte(hexd[c>>4])
				b.WriteByte(hexd[c&15])
				continue
			}
			b.WriteByte(c)
		}
	}
	return b.String()
}

// LinkPath splits a NodeLink back into keys; ok is false for a malformed escape.
func LinkPath(link string) (path []string, ok bool) {
	if link == "" {
		return nil, true
	}
	for _, seg := range strings.Split(link, "/") {
		var b strings.Builder
		for j := 0; j < len(seg); j++ {
			if seg[j] != '%' {
				b.WriteByte(seg[j])
				continue
			}
			if j+2 >= len(seg) {
				return nil, false
			}
			hi, lo := unhex(seg[j+1]), unhex(seg[j+2])
			if hi < 0 || lo < 0 {
				return nil, false
			}
			b.WriteByte(byte(hi<<4 | lo))
			j += 2
		}
		path = append(path, b.String())
	}
	return path, true
}

func unhex(c byte) int {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0')
	case c >= 'a' && c <= 'f':
		return int(c-'a') + 10
	case c >= 'A' && c <= 'F':
		return int(c-'A') + 10
	}
	return -1
}
