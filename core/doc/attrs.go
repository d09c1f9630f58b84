package doc

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
