package neff

import (
	"encoding/hex"
	"fmt"
	"path"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/neffscope/neffscope/core/doc"
)

// Node builds the document tree of the container: header, payload, runtime verdict and the
// member tree. Each finding hangs on the node it is about. Member nodes carry
// Ref "member:<path>"; core/inspect adds the decoded member content under them.
func (a *Archive) Node(label string) *doc.Node {
	root := &doc.Node{Kind: doc.KindNEFF, Label: label, Value: HumanSize(a.FileSize), Span: doc.At(0, a.FileSize)}
	hdr := a.headerNode()
	pay := a.payloadNode()
	verdict := a.verdictNode()
	members, byPath := a.membersNode()
	root.Add(verdict, hdr, pay, members)

	for _, f := range a.Findings {
		target := root
		kind, rest := doc.ParseRef(f.Part)
		switch {
		case kind == doc.RefHeader:
			if n := hdr.Child(rest); n != nil {
				target = n
			} else {
				target = hdr
			}
		case f.Part == "payload" || f.Part == "padding":
			target = pay
		case f.Part == "archive":
			target = members
		case kind == doc.RefMember:
			if n := byPath[rest]; n != nil {
				target = n
			} else {
				target = members
			}
		}
		target.Findings = append(target.Findings, f.Finding)
	}
	return root
}

func (a *Archive) headerNode() *doc.Node {
	h := &a.Header
	n := &doc.Node{Kind: doc.KindHeader, Label: "header", Value: fmt.Sprintf("%d bytes", min(int64(HeaderSize), a.FileSize)), Span: doc.At(0, min(int64(HeaderSize), a.FileSize))}
	n.Detail = "the 1024-byte binary header every NEFF starts with (little-endian; no magic number)"
	for i := range headerFields {
		f := &headerFields[i]
		span := f.span()
		if !h.has(f) {
			if span.Offset < int64(h.Have) {
				fn := n.Field(f.Name, "(cut off)", doc.At(span.Offset, int64(h.Have)-span.Offset))
				fn.Detail = f.Meaning
			}
			continue
		}
		fn := n.Field(f.Name, "", span)
		fn.Detail = f.Meaning
		f.show(a, f, fn)
	}
	return n
}

// showNumber shows an integer field as it is.
func showNumber(get func(h *Header) uint64) func(a *Archive, f *fieldSpec, n *doc.Node) {
	return func(a *Archive, _ *fieldSpec, n *doc.Node) { n.Value = fmt.Sprint(get(&a.Header)) }
}

func showPkgVersion(a *Archive, f *fieldSpec, n *doc.Node) {
	n.Value = fmt.Sprint(a.Header.PkgVersion)
	switch a.Header.PkgVersion {
	case 1:
		n.Detail = "1: plain tar payload, SHA-256 integrity. " + f.Meaning
	case 2:
		n.Detail = "2: gzip'd tar payload, MD5 integrity. " + f.Meaning
	}
}

func showDataSize(a *Archive, f *fieldSpec, n *doc.Node) {
	n.Value = fmt.Sprint(a.Header.DataSize)
	if a.FileSize >= HeaderSize && a.Header.DataSize == uint64(a.FileSize-HeaderSize) {
		n.Detail = "= file size − 1024, as in real NEFFs (includes the zero padding after the gzip stream). " + f.Meaning
	}
}

func showBuildVersion(a *Archive, _ *fieldSpec, n *doc.Node) {
	n.Value = doc.Quote(a.Header.NeffBuildVersion, 128)
	if a.Header.NeffBuildVersion == "" {
		n.Value = `""`
	}
}

func showHash(a *Archive, f *fieldSpec, n *doc.Node) {
	n.Value = a.Header.StoredDigest()
	n.Detail = a.hashDetail()
	n.Add(&doc.Node{Kind: doc.KindBytes, Label: "stored bytes", Value: hex.EncodeToString(a.Header.Hash[:]), Span: f.span()})
}

func showUUID(a *Archive, f *fieldSpec, n *doc.Node) {
	n.Value = a.Header.UUIDString()
	if v, rfc := a.Header.UUIDVersion(); rfc {
		n.Detail = fmt.Sprintf("RFC 4122 version %d. %s", v, f.Meaning)
	}
}

func showName(a *Archive, f *fieldSpec, n *doc.Node) {
	n.Value = doc.Quote(a.Header.Name, 256)
	if !utf8.ValidString(a.Header.Name) {
		n.Flag(doc.CodeInvalidUTF8, doc.Info, f.span(), "the header's name is not valid UTF-8: it is shown with U+FFFD for each bad byte.")
	}
}

func showTPBPerNode(a *Archive, _ *fieldSpec, n *doc.Node) { n.Value = runs(a.Header.TPBPerNode[:]) }

// showFeatureBits names the set bits, each a child node on its byte.
func showFeatureBits(a *Archive, f *fieldSpec, n *doc.Node) {
	bits := a.Header.FeatureBits
	n.Value = fmt.Sprintf("0x%x", bits)
	names, _ := FeatureNames(bits)
	n.SetAttr(doc.AttrFeatures, strings.Join(names, ", "))
	if len(names) == 0 {
		n.Detail = "no features. " + f.Meaning
	} else {
		n.Detail = strings.Join(names, ", ")
	}
	for bit := 0; bit < 64; bit++ {
		v := uint64(1) << bit
		if bits&v == 0 {
			continue
		}
		b := &doc.Node{Kind: doc.KindFlag, Label: fmt.Sprintf("bit %d", bit), Value: fmt.Sprintf("0x%x", v), Span: doc.At(f.span().Offset+int64(bit/8), 1)}
		if ft, ok := FeatureByBit(v); ok {
			b.Label = ft.Name
			b.Detail = fmt.Sprintf("bit %d: %s (name source: %s", bit, ft.Meaning, ft.Confidence)
			if ft.DefJSON != "" {
				b.Detail += "; def.json lists it as " + ft.DefJSON
			}
			b.Detail += ")"
		} else {
			b.Detail = fmt.Sprintf("bit %d has no known name", bit)
		}
		n.Add(b)
	}
}

func showPad(a *Archive, _ *fieldSpec, n *doc.Node) {
	n.Value = "zero"
	for _, c := range a.Header.Pad() {
		if c != 0 {
			n.Value = "not zero"
			break
		}
	}
}

func (a *Archive) hashDetail() string {
	p := &a.Payload
	algo := strings.ToUpper(p.HashAlgo)
	cover := fmt.Sprintf("%s of bytes 1024..%d (the payload as stored)", algo, HeaderSize+int64(a.Header.DataSize))
	switch p.Integrity {
	case doc.IntegrityOK:
		if p.HashAlgo == "md5" {
			return fmt.Sprintf("%s: matches (stored as %s)", cover, p.MatchedOrder)
		}
		return cover + ": matches"
	case doc.IntegrityMismatch:
		return fmt.Sprintf("%s: MISMATCH — the payload hashes to %s", cover, p.ComputedHash)
	}
	return cover + ": not checked"
}

// utcStamp is t as "2006-01-02 15:04:05 UTC" (time.Time.Format's layout engine is ~5 KB of
// brotli'd wasm, and this was its only use).
func utcStamp(t time.Time) string {
	t = t.UTC()
	y, mo, d := t.Date()
	h, mi, s := t.Clock()
	return fmt.Sprintf("%04d-%02d-%02d %02d:%02d:%02d UTC", y, int(mo), d, h, mi, s)
}

// runs renders a byte array compactly: "1, 0 ×63".
func runs(b []byte) string {
	var parts []string
	for i := 0; i < len(b); {
		j := i
		for j < len(b) && b[j] == b[i] {
			j++
		}
		if j-i > 2 {
			parts = append(parts, fmt.Sprintf("%d ×%d", b[i], j-i))
		} else {
			for k := i; k < j; k++ {
				parts = append(parts, fmt.Sprint(b[k]))
			}
		}
		i = j
	}
	return strings.Join(parts, ", ")
}

func (a *Archive) payloadNode() *doc.Node {
	p := &a.Payload
	n := &doc.Node{Kind: doc.KindPayload, Label: "payload", Value: p.Encoding, Span: doc.At(HeaderSize, p.Available)}
	n.Detail = "what follows the header: a gzip member holding a tar archive, then zero padding up to data_size"
	if a.FileSize <= HeaderSize {
		n.Value = "none"
		return n
	}
	n.Field("encoding", p.Encoding, doc.At(HeaderSize, min(p.Available, 2))).Detail = "sniffed from the bytes at 1024 (1f 8b = gzip, ustar block = plain tar), not taken from pkg_version"
	if p.Encoding == "gzip" {
		g := n.Field("gzip member", HumanSize(p.GzipLength), doc.At(HeaderSize, p.GzipLength))
		if p.GzipLength == 0 {
			g.Value = "(did not end)"
			g.Span = doc.At(HeaderSize, p.Available)
		}
		g.Detail = "RFC 1952; one member, decompressed as a stream"
		g.Field("mtime", utcStamp(p.GzipMTime), doc.At(HeaderSize+4, 4)).Detail = "compile time in neuronx-cc 2.18–2.23 output"
		g.Field("xfl", fmt.Sprint(p.GzipXFL), doc.At(HeaderSize+8, 1)).Detail = "4 = fastest compression"
		g.Field("os", fmt.Sprint(p.GzipOS), doc.At(HeaderSize+9, 1)).Detail = "3 = Unix"
	}
	n.Field("tar archive", HumanSize(p.TarLength), nil).Detail = "decompressed length up to the end-of-archive blocks"
	if p.PaddingBytes > 0 || a.Complete {
		start := HeaderSize + p.GzipLength
		if p.Encoding == "tar" {
			start = HeaderSize + p.TarLength
		}
		pad := n.Field("padding", fmt.Sprintf("%d bytes", p.PaddingBytes), doc.At(start, p.PaddingBytes))
		pad.Kind = doc.KindPadding
		if p.PaddingNonZero == 0 {
			pad.Detail = "zero bytes after the stream up to data_size (real NEFFs pad to a multiple of 10240); covered by the hash"
		} else {
			pad.Detail = fmt.Sprintf("%d non-zero bytes, first at %d", p.PaddingNonZero, p.FirstNonZero)
		}
	}
	integ := n.Field("integrity", p.Integrity, doc.At(spanOf((*headerBlock).hash).Offset, 16))
	integ.SetAttr(doc.AttrIntegrity, p.Integrity)
	integ.Detail = a.hashDetail()
	if p.ComputedHash != "" {
		integ.Add(&doc.Node{Kind: doc.KindField, Label: "computed " + p.HashAlgo, Value: p.ComputedHash})
	}
	if p.TrailingBytes > 0 {
		n.Field("trailing bytes", fmt.Sprint(p.TrailingBytes), doc.At(HeaderSize+int64(a.Header.DataSize), p.TrailingBytes)).Detail = "after data_size: not part of the NEFF"
	}
	return n
}

func (a *Archive) verdictNode() *doc.Node {
	v := a.Verdict
	n := &doc.Node{Kind: doc.KindVerdict, Label: "runtime", Span: v.Span}
	if v.Unchecked != "" {
		n.Value = "not checked"
		n.Detail = "libnrt 2.31's verdict is not known: " + v.Unchecked
		return n
	}
	if v.Accepts {
		n.Value = "accepted"
		n.Detail = "libnrt 2.31 would load this container: " + v.Rule
		return n
	}
	n.Value = fmt.Sprintf("rejected (%s, status %d)", v.StatusName(), v.Status)
	n.Detail = "libnrt 2.31 would refuse this file: " + v.Rule
	n.Errorf(doc.CodeNeffRuntimeRefuses, v.Span, "A Neuron runtime (libnrt 2.31) would refuse this file with status %d (%s), logging: %q. Why: %s.", v.Status, v.StatusName(), v.Message, v.Rule)
	return n
}

// MaxPathDepth is the deepest a member's folder is built in the member tree: a member whose
// path has more levels is listed under members by its full name, with a finding (tar.path-depth).
// Real NEFFs nest two or three levels; the bound keeps the document shallow enough for JSON
// readers even with a member's decoded content (up to a hundred levels) below it.
const MaxPathDepth = 128

// maxFlatLabel bounds the label of a member listed by its full name (its key adds the
// header offset; the detail and the span keep the whole path).
const maxFlatLabel = 120

// membersNode builds the member tree (directories from the paths) and the member table.
func (a *Archive) membersNode() (*doc.Node, map[string]*doc.Node) {
	n := &doc.Node{Kind: doc.KindArchive, Label: "members", Value: fmt.Sprintf("%d", len(a.Members))}
	n.Detail = "tar members in archive order; paths are how the runtime looks them up"
	t := &doc.Table{Columns: []string{"path", "size", "sha256", "tar offset"}}
	byPath := map[string]*doc.Node{}
	// A folder is found by its parent and its own name, so placing a member costs its path's
	// length once (hashing every prefix of it cost the square of a long path).
	type dirKey struct {
		parent *doc.Node
		name   string
	}
	dirs := map[dirKey]*doc.Node{}
	var made []*doc.Node
	dirOf := func(p string) *doc.Node {
		d := n
		for p != "" {
			name, rest, _ := strings.Cut(p, "/")
			if p = rest; name == "" {
				continue // "a//b", "/a": no folder without a name
			}
			c := dirs[dirKey{d, name}]
			if c == nil {
				c = &doc.Node{Kind: doc.KindDir, Label: name + "/", Key: name + "/"}
				d.Add(c)
				dirs[dirKey{d, name}] = c
				made = append(made, c)
			}
			d = c
		}
		return d
	}
	type takenKey struct {
		dir  *doc.Node
		base string
	}
	taken := make(map[takenKey]bool, len(a.Members)) // linear in members
	for _, m := range a.Members {
		base := path.Base(m.Path)
		mn := &doc.Node{Kind: doc.KindMember, Label: base, Value: HumanSize(m.Size), Span: doc.In(m.Path, 0, m.Size), Ref: doc.MemberRef(m.Path)}
		mn.Detail = MemberDetail(m)
		if !utf8.ValidString(m.Path) {
			mn.Flag(doc.CodeInvalidUTF8, doc.Info, mn.Span, "this member's path is not valid UTF-8: JSON shows each bad byte as U+FFFD, text as \\xNN.")
		}
		if m.Truncated {
			mn.Value = fmt.Sprintf("%s (truncated: %d bytes present)", HumanSize(m.Size), m.Read)
		}
		var d *doc.Node
		if levels := strings.Count(m.Path, "/"); levels > MaxPathDepth {
			d = n
			mn.Label = clipMiddle(m.Path, maxFlatLabel)
			mn.Key = fmt.Sprintf("%s#%d", mn.Label, m.HeaderOffset)
			n.FlagRepeated(doc.CodeTarPathDepth, doc.Warning, doc.In(m.Path, 0, m.Size), "member %s (tar stream byte %d) has %d folder levels, more than the %d the member tree builds; it is listed under members by its full name", mn.Label, m.HeaderOffset, levels, MaxPathDepth)
		} else {
			d = dirOf(parentDir(m.Path))
			if k := (takenKey{d, base}); taken[k] { // duplicate path: keep both, distinct keys
				mn.Key = fmt.Sprintf("%s#%d", base, m.HeaderOffset)
			} else {
				taken[k] = true
			}
		}
		d.Add(mn)
		byPath[m.Path] = mn
		t.Rows = append(t.Rows, []string{m.Path, fmt.Sprint(m.Size), m.SHA256, fmt.Sprint(m.DataOffset)})
		t.RowSpans = append(t.RowSpans, doc.Span{Source: m.Path, Length: m.Size})
	}
	for _, d := range made {
		d.Value = fmt.Sprintf("%d", len(d.Children))
	}
	n.Table = t
	return n, byPath
}

// clipMiddle cuts s to about max bytes, keeping its start and end (a path's end names the
// member), at rune boundaries, with an ellipsis between.
func clipMiddle(s string, max int) string {
	if len(s) <= max {
		return strings.ToValidUTF8(s, "\uFFFD")
	}
	head, tail := s[:max/2], s[len(s)-max/2:]
	for len(head) > 0 && !utf8.RuneStart(head[len(head)-1]) {
		head = head[:len(head)-1]
	}
	for len(tail) > 0 && !utf8.RuneStart(tail[0]) {
		tail = tail[1:]
	}
	return strings.ToValidUTF8(head+"…"+tail, "\uFFFD")
}

// MemberDetail is the detail text of a member's node: its path, its SHA-256 when known, and
// whether libnrt drops it.
func MemberDetail(m *Member) string {
	d := m.Path
	if m.SHA256 != "" {
		d += " · sha256 " + m.SHA256
	}
	if m.Dropped {
		d += " · libnrt drops members ending in " + droppedSuffix + " at load"
	}
	return d
}

// MemberTableHash is the column of the members table (Archive.Node) that holds the SHA-256.
const MemberTableHash = 2

func parentDir(p string) string {
	i := strings.LastIndexByte(p, '/')
	if i < 0 {
		return ""
	}
	return p[:i]
}

// HumanSize renders a byte count as "61,440 B (60.0 KiB)".
func HumanSize(n int64) string {
	s := fmt.Sprint(n)
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 && s[i-1] != '-' {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	out := b.String() + " B"
	switch {
	case n >= 1<<30:
		out += fmt.Sprintf(" (%.1f GiB)", float64(n)/(1<<30))
	case n >= 1<<20:
		out += fmt.Sprintf(" (%.1f MiB)", float64(n)/(1<<20))
	case n >= 1<<10:
		out += fmt.Sprintf(" (%.1f KiB)", float64(n)/(1<<10))
	}
	return out
}
