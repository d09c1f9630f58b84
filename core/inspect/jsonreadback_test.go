package inspect

import (
	"bytes"
	"strconv"
	"strings"
	"testing"

	"github.com/neffscope/neffscope/core/doc"
	"github.com/neffscope/neffscope/core/neff/neffbuild"
	"github.com/neffscope/neffscope/internal/realfiles"
)

// withJSONHoldMax runs fn with the archive walk holding JSON members up to max bytes.
func withJSONHoldMax(max int64, fn func()) {
	saved := jsonHoldMax
	jsonHoldMax = max
	defer func() { jsonHoldMax = saved }()
	fn()
}

// TestJSONMembersReadBack opens every real NEFF twice: holding its JSON members, and with the
// hold limit at 0, so every JSON member is read back through the seek index when the manifests
// are resolved and again when its tree is written (what a NEFF with tens of MB of JSON gets).
// The documents must be the same byte for byte, every stub expanded, and the read-back open
// must hold no JSON bytes once it is done.
func TestJSONMembersReadBack(t *testing.T) {
	paths := realfiles.NEFFs(t)
	for _, p := range paths {
		held := openPath(t, p)
		var back *File
		withJSONHoldMax(0, func() { back = openPath(t, p) })
		for _, m := range back.Archive.Members {
			if isJSONName(m.Path) && m.Data != nil {
				t.Fatalf("%s %s: %d bytes held", p, m.Path, len(m.Data))
			}
		}
		if n := back.resident.HeldBytes(); n != 0 {
			t.Fatalf("%s: %d bytes of JSON held after the open", p, n)
		}
		var a, b bytes.Buffer
		if _, err := held.WriteJSON(&a); err != nil {
			t.Fatal(err)
		}
		if _, err := back.WriteJSON(&b); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(a.Bytes(), b.Bytes()) {
			t.Fatalf("%s: the documents differ (%d and %d bytes of JSON)", p, a.Len(), b.Len())
		}
		if e := back.Budget.First(); e != nil {
			t.Fatalf("%s: the read-back open reports a limit: %v", p, e)
		}
	}
}

// bigJSONNEFF is the sample NEFF with a 2.4 MB JSON member of 300,000 numbers: more than an
// open holds, so it is read back.
func bigJSONNEFF() []byte {
	var b strings.Builder
	b.WriteString("[")
	for i := range 300_000 {
		if i > 0 {
			b.WriteString(",\n")
		}
		b.WriteString(strconv.Itoa(i * 7))
	}
	b.WriteString("]")
	ms := append(neffbuild.Sample(), neffbuild.Member{Path: "sg00/big_table.json", Data: []byte(b.String())})
	return neffbuild.Bytes(ms, neffbuild.Options{})
}

// TestBigJSONMemberReadBack browses a JSON member the open did not hold: its values are read
// back when a page deep in it is asked for. When the file changed since the open, the page
// fails with a message that says so (the read-back is CRC-checked) instead of showing other
// values, and nothing panics.
func TestBigJSONMemberReadBack(t *testing.T) {
	data := bigJSONNEFF()
	f := Open("big.neff", bytes.NewReader(data), int64(len(data)), Options{})
	if m := f.Archive.Member("sg00/big_table.json"); m == nil || m.Data != nil {
		t.Fatal("the big member is held (or missing)")
	}
	var content []string
	f.Walk(nil, func(p []string, n *doc.Node) bool {
		if n.Kind == doc.KindMember && n.Ref == doc.MemberRef("sg00/big_table.json") {
			content = append(append([]string(nil), p...), "content")
			return false
		}
		return true
	})
	if content == nil {
		t.Fatal("no member node")
	}
	kids, total, err := f.Children(content, 299_990, 300_000)
	if err != nil || total != 300_000 || len(kids) != 10 || kids[9].Value != strconv.Itoa(299_999*7) {
		t.Fatalf("children: %v, total %d, %d kids", err, total, len(kids))
	}
	if n := f.resident.HeldBytes(); n == 0 {
		t.Fatal("the member read back is not held while browsed")
	}
	// The file changes under the open: the member's bytes cannot be read back the same.
	f.resident.LetGoAll()
	for i := len(data) / 3; i < 2*len(data)/3; i++ {
		data[i] ^= 0x5A
	}
	_, _, err = f.Children(content, 1000, 1010)
	if err == nil || !strings.Contains(err.Error(), "sg00/big_table.json") {
		t.Fatalf("children of a changed file: %v, want an error naming the member", err)
	}
}
