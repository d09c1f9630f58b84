// Package doc owns the decoded-document model that every decoder in core/ produces and every
// front end (the page through the wasm worker, the CLI) renders. A Document is a tree of Nodes;
// each node says what it is, what it reads as, and which bytes it came from (a Span), so a page
// can highlight the bytes behind any field and any byte can say which field owns it.
//
// A decoder never stops at the first problem: it returns what it could read plus Findings that
// say what is wrong, where, and what the user can do.
//
// The wire format (worker → page, and the IndexedDB cache) is msgpack, written and read by
// tinylib/msgp's generated code (doc_gen.go); the CLI prints the same tree as JSON through
// encoding/json (json.go).
package doc

//go:generate go tool msgp -file doc.go -o doc_gen.go -tests=false -io=false

// Decoding refuses arrays longer than this, so a hostile 10-byte message cannot ask for
// gigabytes (a Document's biggest tables have thousands of rows).
//msgp:limit arrays:4194304 maps:65536
//msgp:ignore Repeats repeat

import (
	"fmt"
	"strconv"
	"strings"
)

// ModelVersion is bumped whenever the wire shape changes incompatibly, so cached documents
// written by an older build are re-decoded instead of misread. 2: Node.Attrs. 3: Node.Link,
// Table.RowLinks.
const ModelVersion = 3

// Severities of a Finding.
const (
	Error   = "error"   // the artifact is broken here: a runtime would reject it or data is lost
	Warning = "warning" // suspicious or non-standard, but readable
	Info    = "info"    // worth knowing (e.g. which hash byte order matched)
)

// Span is a byte range. Source is "" for the opened file itself, otherwise a path inside the
// container (a tar member of a NEFF) whose bytes the range indexes.
type Span struct {
	Source string `msg:"src" json:"source,omitempty"`
	Offset int64  `msg:"off" json:"offset"`
	Length int64  `msg:"len" json:"length"`
}

// At makes a span in the opened file itself.
func At(offset, length int64) *Span { return &Span{Offset: offset, Length: length} }

// In makes a span inside a container member.
func In(source string, offset, length int64) *Span {
	return &Span{Source: source, Offset: offset, Length: length}
}

// String renders a span for messages: "member sg00/def.json bytes 12..40" or "bytes 0..1024".
func (s *Span) String() string {
	if s == nil {
		return ""
	}
	where := "file"
	if s.Source != "" {
		where = "member " + s.Source
	}
	return fmt.Sprintf("%s at byte %d (length %d)", where, s.Offset, s.Length)
}

// Code is a finding's stable dotted name ("neff.truncated", "budget.memory"): what tests,
// scripts and the page match, so the English of a message can be reworded freely. The table
// of codes and their meanings is codes.go.
type Code string

// Finding is one problem or remark, placed at the bytes it is about.
type Finding struct {
	// Code is the finding's stable name (codes.go): tests, scripts and the page match it,
	// never the English of Message.
	Code     Code   `msg:"code" json:"code"`
	Severity string `msg:"sev" json:"severity"`
	Message  string `msg:"msg" json:"message"`
	Span     *Span  `msg:"span" json:"span,omitempty"`
	// Cause, on a finding that follows from a root cause (a file cut short, a payload that
	// does not match its hash, a file that is no NEFF), is the code of the root cause's own
	// finding (neff.truncated, neff.hash-mismatch, file.not-neff): front ends group the
	// consequences under it. Empty on the root cause and on findings nothing explains.
	Cause Code `msg:"cause,omitempty" json:"cause,omitempty"`
}

// Table is a grid the page shows as a (virtualised) table and exports as CSV.
type Table struct {
	Columns []string   `msg:"cols" json:"columns"`
	Rows    [][]string `msg:"rows" json:"rows"`
	// RowSpans, when present, has one entry per row: the bytes behind that row.
	RowSpans []Span `msg:"rspans" json:"row_spans,omitempty"`
	// RowLinks, when present, has one entry per row: the node the row leads to (NodeLink
	// form; "" for none), so a front end renders the row as a link without reading its text.
	RowLinks []string `msg:"rlinks,omitempty" json:"row_links,omitempty"`
}

// Series is a sampled curve (x, y) for plots.
type Series struct {
	Name string    `msg:"name" json:"name"`
	X    []float64 `msg:"x" json:"x"`
	Y    []float64 `msg:"y" json:"y"`
}

// Node is one element of the decoded tree.
type Node struct {
	// Kind says what the node is: a JSON kind (object, array, string, number, bool, null),
	// or a decoder's own (header, field, member, bytes, archive, ...). The page picks
	// renderers by kind.
	Kind string `msg:"kind" json:"kind"`
	// Key is the node's stable path segment among its siblings (used in URL hashes); when
	// empty the Label is the key.
	Key   string `msg:"key,omitempty" json:"key,omitempty"`
	Label string `msg:"label" json:"label"`
	// Value is the display text of a leaf ("2", "efe9b3bc…", "\"file.neff\"").
	Value string `msg:"value,omitempty" json:"value,omitempty"`
	// Detail explains the value in words ("MD5 of bytes 1024..EOF: matches").
	Detail string `msg:"detail,omitempty" json:"detail,omitempty"`
	// Attrs are machine-readable facts about the node for front ends (keys: the Attr*
	// constants), so a page never parses display text. Left out when empty (omitzero: the
	// msgp tag for a type with its own codec, attrs.go, which writes the keys sorted).
	Attrs    Attrs     `msg:"attrs,omitzero" json:"attrs,omitempty"`
	Span     *Span     `msg:"span,omitempty" json:"span,omitempty"`
	Children []*Node   `msg:"kids,omitempty" json:"children,omitempty"`
	Table    *Table    `msg:"table,omitempty" json:"table,omitempty"`
	Series   []Series  `msg:"series,omitempty" json:"series,omitempty"`
	Findings []Finding `msg:"finds,omitempty" json:"findings,omitempty"`
	// Ref is an opaque handle a front end hands back to the core to fetch more of this node
	// on demand (e.g. "member:sg00/PE.bin" for bytes that are not held in the document).
	Ref string `msg:"ref,omitempty" json:"ref,omitempty"`

	// childIndex maps path keys to positions for nodes with many children (Child), so
	// lookups over a 200,000-member listing stay linear in all; not encoded.
	childIndex *childIndex `msg:"-" json:"-"`
	// repeats counts the findings given per code through FlagRepeated; not encoded.
	repeats *Repeats `msg:"-" json:"-"`
	// Link is the node this one leads to, elsewhere in the same document (NodeLink form):
	// an engine to its listing, a used function to its plot.
	Link string `msg:"link,omitempty" json:"link,omitempty"`
}

// childIndex is rebuilt when Children's length or ends change; a hit is checked against the
// child itself and a miss confirmed by a scan, so edits in place never give a wrong answer.
type childIndex struct {
	pos         map[string]int
	n           int
	first, last *Node
}

// indexFrom is the child count past which Child builds an index.
const indexFrom = 64

// Document is the result of opening one file (or a group of sibling files).
type Document struct {
	Model int    `msg:"model" json:"model"`
	File  string `msg:"file" json:"file"`
	Size  int64  `msg:"size" json:"size"`
	// Kind is the artifact kind the registry matched ("neff", "json", "binary", ...).
	Kind string `msg:"kind" json:"kind"`
	// SHA256 of the whole file, hex; the fingerprint used by the library and URL hashes.
	SHA256 string `msg:"sha256,omitempty" json:"sha256,omitempty"`
	Root   *Node  `msg:"root" json:"root"`
}

// New makes a node.
func New(kind, label, value string) *Node { return &Node{Kind: kind, Label: label, Value: value} }

// Add appends children and returns the first one added (or nil), for chaining.
func (n *Node) Add(children ...*Node) *Node {
	n.Children = append(n.Children, children...)
	if len(children) == 0 {
		return nil
	}
	return children[0]
}

// Field appends a leaf field with a span and returns it.
func (n *Node) Field(label, value string, span *Span) *Node {
	c := &Node{Kind: KindField, Label: label, Value: value, Span: span}
	n.Children = append(n.Children, c)
	return c
}

// Explain sets the Detail text and returns the node.
func (n *Node) Explain(format string, args ...any) *Node {
	n.Detail = fmt.Sprintf(format, args...)
	return n
}

// Flag attaches a finding with its stable code to the node.
func (n *Node) Flag(code Code, severity string, span *Span, format string, args ...any) *Finding {
	n.Findings = append(n.Findings, Finding{Code: code, Severity: severity, Message: fmt.Sprintf(format, args...), Span: span})
	return &n.Findings[len(n.Findings)-1]
}

// Errorf, Warnf and Infof attach a finding of that severity with its code, placed at span.
func (n *Node) Errorf(code Code, span *Span, format string, args ...any) {
	n.Flag(code, Error, span, format, args...)
}
func (n *Node) Warnf(code Code, span *Span, format string, args ...any) {
	n.Flag(code, Warning, span, format, args...)
}
func (n *Node) Infof(code Code, span *Span, format string, args ...any) {
	n.Flag(code, Info, span, format, args...)
}

// RepeatsKept is how many findings of one code one node keeps (FlagRepeated): past it they
// are counted, and one summary finding of the same code says how many more there were.
const RepeatsKept = 8

// Repeats counts findings per code so that a list of findings keeps the first RepeatsKept of
// each code and one summary for the rest (Flag). A node has its own (FlagRepeated); a decoder
// that gathers findings in a list of its own keeps one beside the list.
type Repeats struct{ of map[Code]*repeat }

// repeat is one code's count and where its summary finding is.
type repeat struct {
	given   int
	summary int // index of the summary in the list (-1: none yet)
}

// Flag appends a finding of code to *fs while fewer than RepeatsKept of that code were given
// through r; past that it counts it in one summary finding of the same code, "and N more
// like this". A flood then costs a counter, not a message each.
func (r *Repeats) Flag(fs *[]Finding, code Code, severity string, span *Span, format string, args ...any) {
	if r.of == nil {
		r.of = map[Code]*repeat{}
	}
	c := r.of[code]
	if c == nil {
		c = &repeat{summary: -1}
		r.of[code] = c
	}
	c.given++
	if c.given <= RepeatsKept {
		*fs = append(*fs, Finding{Code: code, Severity: severity, Message: fmt.Sprintf(format, args...), Span: span})
		return
	}
	msg := MoreLikeThis(code, c.given-RepeatsKept)
	if c.summary >= 0 && c.summary < len(*fs) && (*fs)[c.summary].Code == code {
		(*fs)[c.summary].Message = msg
		return
	}
	*fs = append(*fs, Finding{Code: code, Severity: severity, Message: msg})
	c.summary = len(*fs) - 1
}

// FlagRepeated is Flag for a problem that may repeat without bound (one per tar entry, per
// missing member, per set): the node keeps the first RepeatsKept findings of code and one
// summary of the same code for the rest (Repeats).
func (n *Node) FlagRepeated(code Code, severity string, span *Span, format string, args ...any) {
	if n.repeats == nil {
		n.repeats = &Repeats{}
	}
	n.repeats.Flag(&n.Findings, code, severity, span, format, args...)
}

// MoreLikeThis is the message of a summary finding: how many findings of code were counted
// past the RepeatsKept kept.
func MoreLikeThis(code Code, more int) string {
	return "and " + strconv.Itoa(more) + " more like this (" + string(code) + "): the first " + strconv.Itoa(RepeatsKept) + " are listed, the rest are counted, not kept"
}

// PathKey is the node's path segment.
func (n *Node) PathKey() string {
	if n.Key != "" {
		return n.Key
	}
	return n.Label
}

// Child returns the first child whose path key is key.
func (n *Node) Child(key string) *Node {
	if n == nil {
		return nil
	}
	if len(n.Children) < indexFrom {
		for _, c := range n.Children {
			if c.PathKey() == key {
				return c
			}
		}
		return nil
	}
	ix := n.childIndex
	if ix == nil || ix.n != len(n.Children) || ix.first != n.Children[0] || ix.last != n.Children[ix.n-1] {
		ix = &childIndex{pos: make(map[string]int, len(n.Children)), n: len(n.Children), first: n.Children[0], last: n.Children[len(n.Children)-1]}
		for i := len(n.Children) - 1; i >= 0; i-- { // the first child with a key wins
			ix.pos[n.Children[i].PathKey()] = i
		}
		n.childIndex = ix
	}
	if i, ok := ix.pos[key]; ok && n.Children[i].PathKey() == key {
		return n.Children[i]
	}
	// A miss (or a stale hit) is confirmed by a scan: a child replaced in place leaves the
	// length and ends unchanged. Hits, the common case, stay O(1).
	for i, c := range n.Children {
		if c.PathKey() == key {
			if ix.pos[key] != i {
				n.childIndex = nil // stale: rebuild on the next lookup
			}
			return c
		}
	}
	return nil
}

// Find follows a path of keys ("members/sg00/def.json" split on "/" is NOT how member paths
// work: member keys contain slashes, so a path is a list of keys).
func (n *Node) Find(path ...string) *Node {
	for _, k := range path {
		n = n.Child(k)
		if n == nil {
			return nil
		}
	}
	return n
}

// Walk visits n and its descendants depth-first in order; visit returns false to skip a
// node's children. path is shared by every call and changes as the walk goes on: a visit
// that keeps it must copy it.
func (n *Node) Walk(visit func(path []string, n *Node) bool) {
	// One path grows and shrinks with the walk (a copy per node would cost the depth at every
	// node: a member path of 30,000 levels made that quadratic).
	var path []string
	var rec func(n *Node)
	rec = func(n *Node) {
		if n == nil || !visit(path, n) {
			return
		}
		for _, c := range n.Children {
			if c != nil { // a decoded document may hold nil children
				path = append(path, c.PathKey())
				rec(c)
				path = path[:len(path)-1]
			}
		}
	}
	rec(n)
}

// Findings collects every finding in the document in tree order.
func (d *Document) Findings() []Finding {
	var all []Finding
	d.Root.Walk(func(_ []string, n *Node) bool {
		all = append(all, n.Findings...)
		return true
	})
	return all
}

// Worst is the most severe severity among the findings ("" when there are none).
func Worst(fs []Finding) string {
	rank := map[string]int{Info: 1, Warning: 2, Error: 3}
	worst := ""
	for _, f := range fs {
		if rank[f.Severity] > rank[worst] {
			worst = f.Severity
		}
	}
	return worst
}

// Quote renders a string value as the page and CLI show it: JSON-style quoted, cut at max
// runes with an ellipsis so a huge string never bloats a document.
func Quote(s string, max int) string {
	r := []rune(s)
	cut := false
	if max > 0 && len(r) > max {
		r, cut = r[:max], true
	}
	var b strings.Builder
	b.WriteByte('"')
	for _, c := range r {
		switch {
		case c == '"' || c == '\\':
			b.WriteByte('\\')
			b.WriteRune(c)
		case c == '\n':
			b.WriteString(`\n`)
		case c == '\t':
			b.WriteString(`\t`)
		case c == '\r':
			b.WriteString(`\r`)
		case c < 0x20 || c == 0x7f:
			fmt.Fprintf(&b, `\u%04x`, c)
		default:
			b.WriteRune(c)
		}
	}
	b.WriteByte('"')
	if cut {
		b.WriteString("…")
	}
	return b.String()
}
