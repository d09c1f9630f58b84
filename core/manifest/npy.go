package manifest

import (
	"encoding/binary"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/neffscope/neffscope/core/doc"
)

// npyMagic opens every .npy file (spec neff.md §3.4: libnrt requires v1).
const npyMagic = "\x93NUMPY"

// NpyPreviewValues is how many leading values an NPY preview shows.
const NpyPreviewValues = 8

// ParseNPY reads a .npy header (magic, version, the Python-dict header with descr,
// fortran_order and shape) and previews the first values from b, which may be a prefix of
// the member (size is the member's full size). It returns what it could read and a node
// carrying the fields and findings.
func ParseNPY(path string, b []byte, size int64) (*NPY, *doc.Node) {
	n := &doc.Node{Kind: doc.KindNPY, Key: path, Label: path, Span: doc.In(path, 0, size)}
	np := &NPY{Path: path, Span: n.Span}
	if len(b) < 10 || string(b[:6]) != npyMagic {
		n.Errorf(doc.CodeManifestNpyMagic, doc.In(path, 0, min(int64(len(b)), 6)), "%s does not start with the NumPy magic \\x93NUMPY: it is not a .npy file, and the runtime refuses to load it", path)
		return np, n
	}
	major, minor := b[6], b[7]
	n.Field("magic", `"\x93NUMPY"`, doc.In(path, 0, 6))
	n.Field("version", fmt.Sprintf("%d.%d", major, minor), doc.In(path, 6, 2))
	var hlen, hstart int64
	switch major {
	case 1:
		hlen, hstart = int64(binary.LittleEndian.Uint16(b[8:10])), 10
		n.Field("header_len", strconv.FormatInt(hlen, 10), doc.In(path, 8, 2))
	case 2, 3:
		if len(b) < 12 {
			n.Errorf(doc.CodeManifestNpyTruncated, doc.In(path, 8, int64(len(b))-8), "%s is cut short inside its header length", path)
			return np, n
		}
		hlen, hstart = int64(binary.LittleEndian.Uint32(b[8:12])), 12
		n.Field("header_len", strconv.FormatInt(hlen, 10), doc.In(path, 8, 4))
		n.Warnf(doc.CodeManifestNpyVersion, doc.In(path, 6, 2), "%s is NumPy format %d.%d; the runtime reads only version 1 and refuses it", path, major, minor)
	default:
		n.Errorf(doc.CodeManifestNpyVersion, doc.In(path, 6, 2), "%s has NumPy format version %d.%d, which no reader knows", path, major, minor)
		return np, n
	}
	np.DataOffset = hstart + hlen
	if np.DataOffset > int64(len(b)) {
		n.Errorf(doc.CodeManifestNpyTruncated, doc.In(path, hstart, int64(len(b))-hstart), "%s header claims %d bytes, more than the %d bytes available", path, hlen, int64(len(b))-hstart)
		return np, n
	}
	hdr := string(b[hstart:np.DataOffset])
	hs := doc.In(path, hstart, hlen)
	hn := n.Field("header", doc.Quote(strings.TrimRight(hdr, " \n"), 256), hs)
	np.DType = pyDictString(hdr, "descr")
	np.FortranOrder = strings.Contains(pyDictRaw(hdr, "fortran_order"), "True")
	shapeText := pyDictRaw(hdr, "shape")
	shape, ok := pyTuple(shapeText)
	if np.DType == "" || !ok {
		hn.Errorf(doc.CodeManifestNpyHeader, hs, "%s header lacks a readable descr or shape (%q); its values cannot be shown", path, hdr)
		return np, n
	}
	np.Shape = shape
	n.Field("dtype", np.DType, hs).Explain("%s", describeDescr(np.DType))
	n.Field("shape", fmtShape(shape), hs)
	n.Field("fortran_order", strconv.FormatBool(np.FortranOrder), hs)
	item := descrSize(np.DType)
	count := tensorBytes(shape, 1)
	if item > 0 && count >= 0 {
		want := count * item
		have := size - np.DataOffset
		dn := n.Field("data", fmt.Sprintf("%d values, %d bytes", count, have), doc.In(path, np.DataOffset, max(have, 0)))
		if want != have {
			dn.Warnf(doc.CodeManifestNpySize, doc.In(path, np.DataOffset, max(have, 0)), "%s holds %d data bytes, but shape %s of %s needs %d", path, have, fmtShape(shape), np.DType, want)
		}
		data := b[np.DataOffset:]
		for i := int64(0); i < min(count, NpyPreviewValues); i++ {
			off := i * item
			if off+item > int64(len(data)) {
				break
			}
			np.Preview = append(np.Preview, formatNpyValue(np.DType, data[off:off+item]))
		}
		if len(np.Preview) > 0 {
			more := ""
			if count > int64(len(np.Preview)) {
				more = ", …"
			}
			n.Field("preview", strings.Join(np.Preview, ", ")+more, doc.In(path, np.DataOffset, int64(len(np.Preview))*item))
		}
	} else {
		n.Infof(doc.CodeManifestNpyDType, hs, "%s dtype %q is not one neffscope previews", path, np.DType)
	}
	return np, n
}

// pyDictRaw returns the raw text after 'key': up to the next top-level comma or brace.
func pyDictRaw(h, key string) string {
	i := strings.Index(h, "'"+key+"'")
	if i < 0 {
		return ""
	}
	rest := strings.TrimLeft(h[i+len(key)+2:], " ")
	if !strings.HasPrefix(rest, ":") {
		return ""
	}
	rest = strings.TrimLeft(rest[1:], " ")
	depth := 0
	for j, c := range rest {
		switch c {
		case '(', '[':
			depth++
		case ')', ']':
			depth--
			if depth == 0 {
				return rest[:j+1]
			}
		case ',', '}':
			if depth == 0 {
				return rest[:j]
			}
		}
	}
	return rest
}

func pyDictString(h, key string) string {
	raw := strings.TrimSpace(pyDictRaw(h, key))
	if len(raw) >= 2 && (raw[0] == '\'' || raw[0] == '"') && raw[len(raw)-1] == raw[0] {
		return raw[1 : len(raw)-1]
	}
	return ""
}

// pyTuple parses "(128, 128, 1, 1)" or "(5,)" or "()".
func pyTuple(s string) ([]int64, bool) {
	s = strings.TrimSpace(s)
	if len(s) < 2 || s[0] != '(' || s[len(s)-1] != ')' {
		return nil, false
	}
	out := []int64{}
	for _, part := range strings.Split(s[1:len(s)-1], ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		n, err := strconv.ParseInt(strings.TrimSuffix(part, "L"), 10, 64)
		if err != nil || n < 0 || len(out) >= maxDims {
			return nil, false
		}
		out = append(out, n)
	}
	return out, true
}

// descrSize is the item size of a simple NumPy descr ("<f4" → 4), 0 when not simple.
func descrSize(d string) int64 {
	if len(d) < 3 || !strings.ContainsRune("<>|=", rune(d[0])) || !strings.ContainsRune("fiubc", rune(d[1])) {
		return 0
	}
	n, err := strconv.ParseInt(d[2:], 10, 64)
	if err != nil || n <= 0 || n > 16 {
		return 0
	}
	return n
}

func describeDescr(d string) string {
	names := map[byte]string{'f': "float", 'i': "int", 'u': "uint", 'b': "bool", 'c': "complex"}
	order := map[byte]string{'<': "little-endian", '>': "big-endian", '|': "byte-sized", '=': "native order"}
	if descrSize(d) == 0 {
		return "NumPy type " + d
	}
	bits := descrSize(d) * 8
	if d[1] == 'b' {
		return "bool, " + order[d[0]]
	}
	return fmt.Sprintf("%s%d, %s", names[d[1]], bits, order[d[0]])
}

func formatNpyValue(descr string, b []byte) string {
	var bo binary.ByteOrder = binary.LittleEndian
	if descr[0] == '>' {
		bo = binary.BigEndian
	}
	kind, size := descr[1], len(b)
	switch {
	case kind == 'f' && size == 2:
		return strconv.FormatFloat(float64(halfToFloat(bo.Uint16(b))), 'g', 6, 32)
	case kind == 'f' && size == 4:
		return strconv.FormatFloat(float64(math.Float32frombits(bo.Uint32(b))), 'g', 7, 32)
	case kind == 'f' && size == 8:
		return strconv.FormatFloat(math.Float64frombits(bo.Uint64(b)), 'g', 10, 64)
	case kind == 'i' || kind == 'u' || kind == 'b':
		var u uint64
		switch size {
		case 1:
			u = uint64(b[0])
		case 2:
			u = uint64(bo.Uint16(b))
		case 4:
			u = uint64(bo.Uint32(b))
		case 8:
			u = bo.Uint64(b)
		default:
			return fmt.Sprintf("0x%x", b)
		}
		if kind == 'b' {
			return strconv.FormatBool(u != 0)
		}
		if kind == 'i' {
			shift := 64 - 8*size
			return strconv.FormatInt(int64(u<<shift)>>shift, 10)
		}
		return strconv.FormatUint(u, 10)
	}
	return fmt.Sprintf("0x%x", b)
}

// halfToFloat converts IEEE 754 binary16.
func halfToFloat(h uint16) float32 {
	sign := uint32(h>>15) << 31
	exp := uint32(h>>10) & 0x1f
	frac := uint32(h) & 0x3ff
	switch exp {
	case 0:
		f := float32(frac) / 1024 * float32(math.Pow(2, -14))
		if sign != 0 {
			f = -f
		}
		return f
	case 0x1f:
		return math.Float32frombits(sign | 0x7f800000 | frac<<13)
	}
	return math.Float32frombits(sign | (exp+112)<<23 | frac<<13)
}
