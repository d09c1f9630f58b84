package doc

import (
	"sort"

	"github.com/tinylib/msgp/msgp"
)

// Attr keys: Node.Attrs holds machine-readable facts a front end needs, so it never parses
// the display text (Value, Detail) that says the same in words. Values are strings.
const (
	// AttrLine: the 1-based line of the dump a value was read from (ncfw-dump documents).
	AttrLine = "line"
	// AttrArch: the libncfw arch id a context was emulated for (ncfw-context root).
	AttrArch = "arch"
	// AttrRC: the return code libncfw_ctx_log gives (ncfw-context root): 0, 22 or 28.
	AttrRC = "rc"
	// AttrIntegrity: the payload hash check (payload's integrity field): one of the
	// Integrity* values.
	AttrIntegrity = "integrity"
	// AttrFeatures: the names of the header's known feature bits, comma-separated, "" when
	// none (header's feature_bits field).
	AttrFeatures = "features"
	// AttrBucket: the index of the bucket record an evaluation used (pwp-eval path field).
	AttrBucket = "bucket"
	// AttrBits: an fp32 value's bits as 8 hex digits (pwp-eval node: the output y).
	AttrBits = "bits"
	// AttrFloat: an fp32 value as the shortest decimal that reads back to it (pwp-eval x, y).
	AttrFloat = "f32"
	// AttrTarget, AttrArchName: the kelf target and the chip it names (model target field).
	AttrTarget   = "target"
	AttrArchName = "arch_name"
	// AttrLooksLike: what a file that is not a NEFF looks like by its first bytes (root of a
	// binary document): png, zip, elf, gzip, pdf, jpeg; absent when nothing is recognised (it
	// may then be a raw libncfw context).
	AttrLooksLike = "looks_like"

	// AttrMore: the node is a stub: it has this many children (decimal) that the Document does
	// not hold. A front end asks the core for them (inspect.File.Children, the page's
	// `children` call) by the node's path; they are built on demand from the node's Ref.
	AttrMore = "more"

	// AttrDomain: an activation function's table range "lo,hi" (decimal), from the catalog
	// (pwp.Domain): the function node, its overview row. Outside it a front end says "outside
	// the table's range" and gives no error figure.
	AttrDomain = "domain"
	// AttrWindow: the part of AttrDomain "lo,hi" the page's plot opens on and the overview
	// measures the error on (pwp.Domain.Window): the function node.
	AttrWindow = "window"
	// AttrViewLimit: what this node's view leaves out, in words (e.g. a .dbg tree that shows
	// its first 1500 fields). A limit of display is not a finding (the file is not at fault):
	// a front end shows it as a note in the pane that shows the node.
	AttrViewLimit = "view_limit"

	// s18 links

	// AttrNoLine: how many instruction words (every stream's, decimal) have no kernel source
	// line: the overview's hottest-source-lines answer, once the source lines are mapped.
	AttrNoLine = "no_line"
)

// Values of AttrIntegrity.
const (
	IntegrityOK         = "ok"          // the stored hash matches the payload
	IntegrityMismatch   = "mismatch"    // it does not
	IntegrityNotChecked = "not-checked" // no hash to check (truncated payload, unknown pkg_version)
)

// SetAttr sets one attr, making the map on first use, and returns the node.
func (n *Node) SetAttr(key, value string) *Node {
	if n.Attrs == nil {
		n.Attrs = map[string]string{}
	}
	n.Attrs[key] = value
	return n
}

// Attrs is Node.Attrs: a map on the wire and in JSON, left out of both when empty. Its
// msgpack codec writes the keys sorted, so a Document encodes to the same bytes every time
// (msgp's generated code writes a Go map in iteration order, which varies); it uses msgp's
// own append and read functions, so it is the generated code's format exactly.
type Attrs map[string]string

// IsZero reports an empty map: msgp's omitzero leaves the field out then.
func (a Attrs) IsZero() bool { return len(a) == 0 }

// MarshalMsg appends a as a msgpack map, keys sorted.
func (a Attrs) MarshalMsg(b []byte) ([]byte, error) {
	b = msgp.Require(b, a.Msgsize())
	if a == nil {
		return msgp.AppendNil(b), nil
	}
	keys := make([]string, 0, len(a))
	for k := range a {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	b = msgp.AppendMapHeader(b, uint32(len(a)))
	for _, k := range keys {
		b = msgp.AppendString(msgp.AppendString(b, k), a[k])
	}
	return b, nil
}

// UnmarshalMsg reads a msgpack map of strings (or nil) into a.
func (a *Attrs) UnmarshalMsg(b []byte) ([]byte, error) {
	if msgp.IsNil(b) {
		*a = nil
		return msgp.ReadNilBytes(b)
	}
	n, b, err := msgp.ReadMapHeaderBytes(b)
	if err != nil {
		return b, err
	}
	if n > maxAttrs {
		return b, msgp.ErrLimitExceeded
	}
	m := make(Attrs, n)
	for range n {
		var k, v string
		if k, b, err = msgp.ReadStringBytes(b); err != nil {
			return b, err
		}
		if v, b, err = msgp.ReadStringBytes(b); err != nil {
			return b, msgp.WrapError(err, k)
		}
		m[k] = v
	}
	*a = m
	return b, nil
}

// Msgsize is an upper bound of a's encoded size.
func (a Attrs) Msgsize() int {
	s := msgp.MapHeaderSize
	for k, v := range a {
		s += msgp.StringPrefixSize + len(k) + msgp.StringPrefixSize + len(v)
	}
	return s
}

// maxAttrs bounds a decoded Attrs map (as the msgp:limit directive bounds the generated maps).
const maxAttrs = 65536
