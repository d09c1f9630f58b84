package doc

import (
	"encoding/json"
	"strings"
)

// JSON returns the Document as the CLI's `neffscope inspect --json` prints it and the page
// exports it: encoding/json, one-space indent. A NaN or infinite series value is an error.
func (d *Document) JSON() ([]byte, error) { return json.MarshalIndent(d, "", " ") }

// NodeJSON returns n indented by indent spaces per level: `neffscope diff --json` (indent 2)
// and the page's diff export.
func NodeJSON(n *Node, indent int) ([]byte, error) {
	return json.MarshalIndent(n, "", strings.Repeat(" ", max(indent, 0)))
}
