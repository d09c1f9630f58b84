package pwp

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/neffscope/neffscope/core/doc"
	"github.com/neffscope/neffscope/core/jsonspan"
)

// fieldKind says how a profile_meta_data value is read and shown.
type fieldKind uint8

const (
	kindString fieldKind = iota
	kindInt              // a plain integer (index, exponent, flag)
	kindBits             // a u32 holding raw IEEE-754 float bits
	kindBool             // a JSON boolean
)

// ProfileField describes one of the 30 profile_meta_data fields (spec §5): key, JSON type,
// the wiki's group letter and what it means. The order is the real key order.
type ProfileField struct {
	Key     string
	kind    fieldKind
	Group   string
	Meaning string
}

// Indices into ProfileFields (and Meta.Values).
const (
	FieldFuncName = iota
	FieldFuncID
	FieldSymmetryPoint
	FieldSymInvertSign
	FieldSymmetryEn
	FieldSymUseNegRegion
	FieldImmBias
	FieldExpOffset
	FieldBasePos
	FieldBaseNeg
	FieldSmallPosThr
	FieldSmallPosPtr
	FieldSmallNegThr
	FieldSmallNegPtr
	FieldLargePosThr
	FieldLargePosMant
	FieldLargePosPtr
	FieldLargeNegThr
	FieldLargeNegMant
	FieldLargeNegPtr
	FieldFNaN
	FieldFPInf
	FieldFNInf
	FieldFZero
	FieldFmaConst0
	FieldFmaConst1
	FieldFmaIndirection
	FieldUseMultipass
	FieldLowerBound
	FieldUpperBound
	NumFields
)

// ProfileFields is the 30-field record layout (spec §5, REAL key order in all 4 real sets).
var ProfileFields = [NumFields]ProfileField{
	{"func_name", kindString, "A", "<func>_<budget>p"},
	{"func_id", kindInt, "A", "silicon LUT code used by Activation (+0x23)"},
	{"symmetry_point", kindBits, "C", "added after reconstruction of a folded input"},
	{"sym_invert_sign_point", kindInt, "C", "negate the folded result (odd function)"},
	{"symmetry_opt_en", kindInt, "C", "fold the input to one half"},
	{"symmetry_opt_use_neg_region", kindInt, "C", "fold to −|v| (table stores the neg half)"},
	{"imm_bias", kindInt, "D", "1 only for reciprocal, copy, memset_zero, is_finite; meaning unknown"},
	{"exp_offset", kindInt, "D", "lowest declared octave (unbiased exponent)"},
	{"pwl_control_base_pos", kindInt, "E", "ctrl index of the pos octave block"},
	{"pwl_control_base_neg", kindInt, "E", "ctrl index of the neg octave block"},
	{"small_pos_signal_exp_threshold", kindInt, "F", "biased exponent below which v>0 takes the pos_small slot"},
	{"pos_small_signal_pwl_control", kindInt, "F", "bkt index of the pos_small slot"},
	{"small_neg_signal_exp_threshold", kindInt, "F", "biased exponent below which v<0 takes the neg_small slot"},
	{"neg_small_signal_pwl_control", kindInt, "F", "bkt index of the neg_small slot"},
	{"large_pos_signal_exp_threshold", kindInt, "F", "biased exponent above which v>0 takes the pos_large slot"},
	{"large_pos_signal_mantissa_threshold", kindInt, "F", "23-bit tie-break at the large pos exponent"},
	{"pos_large_signal_pwl_control", kindInt, "F", "bkt index of the pos_large slot"},
	{"large_neg_signal_exp_threshold", kindInt, "F", "biased exponent above which v<0 takes the neg_large slot"},
	{"large_neg_signal_mantissa_threshold", kindInt, "F", "23-bit tie-break at the large neg exponent"},
	{"neg_large_signal_pwl_control", kindInt, "F", "bkt index of the neg_large slot"},
	{"fnan_result", kindBits, "B", "result for a NaN input"},
	{"fpinf_result", kindBits, "B", "result for +inf"},
	{"fninf_result", kindBits, "B", "result for −inf"},
	{"fzero_result", kindBits, "B", "result for ±0"},
	{"fma_const_0", kindBits, "D", "post-polynomial FMA constant 0 (1.0 only for parametric_relu)"},
	{"fma_const_1", kindBits, "D", "post-polynomial FMA constant 1 (0 everywhere seen)"},
	{"fma_indirection_src_sel", kindInt, "D", "FMA operand selector (2 only for parametric_relu)"},
	{"use_multipass", kindBool, "G", "multipass ln (false in every shipped set)"},
	{"lower_bound", kindBits, "G", "LUT input domain low (metadata)"},
	{"upper_bound", kindBits, "G", "LUT input domain high (metadata)"},
}

// Meta is one decoded profile_meta_data record. Values holds every non-string field as an
// integer (bits fields as their u32 pattern, booleans as 0/1), indexed by the Field* constants.
type Meta struct {
	Index   int
	Name    string // func_name
	Values  [NumFields]int64
	Present [NumFields]bool
	Spans   [NumFields]*doc.Span
	Span    *doc.Span // the whole record
}

// Int returns a field as an int.
func (m *Meta) Int(field int) int { return int(m.Values[field]) }

// Bits returns a bits field as its raw u32 pattern.
func (m *Meta) Bits(field int) uint32 { return uint32(m.Values[field]) }

// Float returns a bits field as the float32 it encodes.
func (m *Meta) Float(field int) float32 { return math.Float32frombits(m.Bits(field)) }

// NamedIndex is one member of func_to_bkt_start_idx / func_to_ctl_start_idx.
type NamedIndex struct {
	Name  string
	Index int
	Span  *doc.Span
}

// ExpEntry is one octave key of a func_exp_to_* map: the unbiased exponent and the list of
// per-region indices ([neg, pos] for the regions that declare it).
type ExpEntry struct {
	Exp     int
	Indices []int
	Span    *doc.Span
}

// FuncExpMap is one function's member of func_exp_to_bkt_start_idx / func_exp_to_ctl_start_idx.
type FuncExpMap struct {
	Name    string
	Entries []ExpEntry
	Span    *doc.Span
}

// Profile is a decoded <set>.json (spec §4).
type Profile struct {
	Source                   string
	BktBin, CtlBin           string
	BktBinKey, CtlBinKey     string // the keys the blob names were found under (ctl_bin / ctrl_bin skew)
	BktEntryCnt, CtlEntryCnt int
	HasBktCnt, HasCtlCnt     bool
	Meta                     []*Meta
	FuncToBkt, FuncToCtl     []NamedIndex
	FuncExpToBkt             []FuncExpMap
	FuncExpToCtl             []FuncExpMap
	Keys                     []string             // top-level keys in file order
	Spans                    map[string]*doc.Span // top-level key → bytes of its value
	Findings                 []doc.Finding
	Root                     *jsonspan.Value // the parsed JSON (nil when unparseable)
}

// profileKeys are the 9 top-level keys in real order (spec §4).
var profileKeys = []string{"bkt_bin", "ctl_bin", "profile_meta_data", "bkt_entry_cnt", "ctl_entry_cnt",
	"func_to_bkt_start_idx", "func_to_ctl_start_idx", "func_exp_to_bkt_start_idx", "func_exp_to_ctl_start_idx"}

// ctlBinKeys: the profile spells it ctl_bin, the roster ctrl_bin; accept either (spec §1).
var ctlBinKeys = []string{"ctl_bin", "ctrl_bin"}

type finder struct {
	source string
	fs     *[]doc.Finding
}

func (f finder) span(v *jsonspan.Value) *doc.Span {
	if v == nil {
		return doc.In(f.source, 0, 0)
	}
	return doc.In(f.source, v.Start, v.End-v.Start)
}

func (f finder) add(code doc.Code, sev string, span *doc.Span, format string, args ...any) {
	*f.fs = append(*f.fs, doc.Finding{Code: code, Severity: sev, Message: fmt.Sprintf(format, args...), Span: span})
}

// DecodeProfile decodes a <set>.json. It never fails: what it could not read is a finding.
func DecodeProfile(source string, b []byte) *Profile {
	root, err := parseLenient(b)
	return decodeProfile(source, b, root, err)
}

// decodeProfile decodes a <set>.json parsed already (parseLenient).
func decodeProfile(source string, b []byte, root *jsonspan.Value, err error) *Profile {
	p := &Profile{Source: source, Spans: map[string]*doc.Span{}}
	fd := finder{source, &p.Findings}
	if err != nil {
		off := int64(0)
		if je, ok := err.(*jsonspan.Error); ok {
			off = je.Offset
		}
		fd.add(doc.CodeJSONSyntax, doc.Error, doc.In(source, off, 1), "%s: %v; the profile is read up to that point", source, err)
	}
	p.Root = root
	if root == nil || root.Kind != jsonspan.Object {
		fd.add(doc.CodePwpBadProfile, doc.Error, fd.span(root), "%s is not a JSON object, so it is not an activation profile (<set>.json)", source)
		return p
	}
	p.Keys = append(p.Keys, root.Keys...)
	for i, k := range root.Keys {
		p.Spans[k] = doc.In(source, root.KeyStart[i], root.Items[i].End-root.KeyStart[i])
	}
	known := map[string]bool{"ctrl_bin": true}
	for _, k := range profileKeys {
		known[k] = true
	}
	for i, k := range root.Keys {
		if !known[k] {
			fd.add(doc.CodePwpProfileUnusual, doc.Warning, fd.span(root.Items[i]), "unexpected top-level key %q in the profile (spec §4 lists 9 keys); it is shown but not used", k)
		}
	}
	if len(root.Keys) != len(profileKeys) {
		fd.add(doc.CodePwpProfileUnusual, doc.Info, fd.span(root), "the profile has %d top-level keys; real profiles have 9", len(root.Keys))
	}

	str := func(key string) (string, *jsonspan.Value) {
		v := root.Get(key)
		s, ok := v.Text()
		if v != nil && !ok {
			fd.add(doc.CodePwpBadProfile, doc.Error, fd.span(v), "%q should be a string (a blob file name), found %s", key, v.Kind)
		}
		return s, v
	}
	p.BktBin, _ = str("bkt_bin")
	p.BktBinKey = "bkt_bin"
	if p.BktBin == "" {
		fd.add(doc.CodePwpBadProfile, doc.Error, fd.span(root), "the profile has no \"bkt_bin\" (name of the <set>_bkt.bin blob); give the blob explicitly")
	}
	for _, k := range ctlBinKeys {
		if s, v := str(k); v != nil {
			p.CtlBin, p.CtlBinKey = s, k
			break
		}
	}
	if p.CtlBin == "" {
		fd.add(doc.CodePwpBadProfile, doc.Error, fd.span(root), "the profile has no \"ctl_bin\" (name of the <set>_ctrl.bin blob); give the blob explicitly")
	} else if p.CtlBinKey != "ctl_bin" {
		fd.add(doc.CodePwpProfileUnusual, doc.Info, p.Spans[p.CtlBinKey], "the ctrl blob is named under %q; real profiles spell it \"ctl_bin\" (the roster spells it \"ctrl_bin\")", p.CtlBinKey)
	}
	cnt := func(key string) (int, bool) {
		v := root.Get(key)
		if v == nil {
			fd.add(doc.CodePwpBadProfile, doc.Error, fd.span(root), "the profile has no %q; the record count is taken from the blob size", key)
			return 0, false
		}
		n, ok := v.Int()
		if !ok || n < 0 || n > maxBlobRecords {
			fd.add(doc.CodePwpBadProfile, doc.Error, fd.span(v), "%q = %s is not a record count in 0..%d", key, v.Str, maxBlobRecords)
			return 0, false
		}
		return int(n), true
	}
	p.BktEntryCnt, p.HasBktCnt = cnt("bkt_entry_cnt")
	p.CtlEntryCnt, p.HasCtlCnt = cnt("ctl_entry_cnt")

	if md := root.Get("profile_meta_data"); md == nil {
		fd.add(doc.CodePwpBadProfile, doc.Error, fd.span(root), "the profile has no \"profile_meta_data\": no function can be evaluated")
	} else if md.Kind != jsonspan.Array {
		fd.add(doc.CodePwpBadProfile, doc.Error, fd.span(md), "\"profile_meta_data\" should be an array of function records, found %s", md.Kind)
	} else {
		for i, it := range md.Items {
			if i >= maxProfileEntries {
				fd.add(doc.CodePwpBadProfile, doc.Error, fd.span(md), "profile_meta_data has %d records; only the first %d are read", len(md.Items), maxProfileEntries)
				break
			}
			p.Meta = append(p.Meta, decodeMeta(fd, i, it))
		}
	}
	p.FuncToBkt = decodeNamedIndex(fd, root, "func_to_bkt_start_idx")
	p.FuncToCtl = decodeNamedIndex(fd, root, "func_to_ctl_start_idx")
	p.FuncExpToBkt = decodeFuncExp(fd, root, "func_exp_to_bkt_start_idx")
	p.FuncExpToCtl = decodeFuncExp(fd, root, "func_exp_to_ctl_start_idx")
	return p
}

func decodeMeta(fd finder, index int, v *jsonspan.Value) *Meta {
	m := &Meta{Index: index, Span: fd.span(v)}
	if v.Kind != jsonspan.Object {
		fd.add(doc.CodePwpBadProfile, doc.Error, m.Span, "profile_meta_data[%d] should be an object of 30 fields, found %s", index, v.Kind)
		return m
	}
	for fi, f := range ProfileFields {
		fv := v.Get(f.Key)
		if fv == nil {
			fd.add(doc.CodePwpBadProfile, doc.Error, m.Span, "profile_meta_data[%d] (%s) lacks %q; it is taken as 0", index, m.Name, f.Key)
			continue
		}
		m.Spans[fi] = fd.span(fv)
		m.Present[fi] = true
		switch f.kind {
		case kindString:
			s, ok := fv.Text()
			if !ok {
				fd.add(doc.CodePwpBadProfile, doc.Error, m.Spans[fi], "profile_meta_data[%d].%s should be a string", index, f.Key)
			}
			m.Name = s
		case kindBool:
			if fv.Kind == jsonspan.Bool {
				if fv.Bool {
					m.Values[fi] = 1
				}
			} else if n, ok := fv.Int(); ok && (n == 0 || n == 1) {
				m.Values[fi] = n
				fd.add(doc.CodePwpProfileUnusual, doc.Info, m.Spans[fi], "%s.%s is the number %d; real profiles use a JSON boolean", m.Name, f.Key, n)
			} else {
				fd.add(doc.CodePwpBadProfile, doc.Error, m.Spans[fi], "%s.%s should be true or false", m.Name, f.Key)
			}
		case kindBits:
			n, ok := fv.Int()
			switch {
			case !ok:
				fd.add(doc.CodePwpBadProfile, doc.Error, m.Spans[fi], "%s.%s should be an integer holding f32 bits, found %s %q", m.Name, f.Key, fv.Kind, fv.Str)
			case n < 0 && n >= math.MinInt32:
				m.Values[fi] = int64(uint32(int32(n)))
				fd.add(doc.CodePwpProfileUnusual, doc.Warning, m.Spans[fi], "%s.%s is negative (%d); read as the u32 pattern 0x%08x", m.Name, f.Key, n, uint32(int32(n)))
			case n < 0 || n > math.MaxUint32:
				fd.add(doc.CodePwpBadProfile, doc.Error, m.Spans[fi], "%s.%s = %d does not fit 32 bits", m.Name, f.Key, n)
			default:
				m.Values[fi] = n
			}
		default:
			n, ok := fv.Int()
			if !ok {
				fd.add(doc.CodePwpBadProfile, doc.Error, m.Spans[fi], "%s.%s should be an integer, found %s %q", m.Name, f.Key, fv.Kind, fv.Str)
			} else if n < -1<<31 || n > 1<<31 {
				fd.add(doc.CodePwpBadProfile, doc.Error, m.Spans[fi], "%s.%s = %d is out of any sensible range; taken as 0", m.Name, f.Key, n)
			} else {
				m.Values[fi] = n
			}
		}
	}
	if len(v.Keys) != NumFields {
		fd.add(doc.CodePwpProfileUnusual, doc.Warning, m.Span, "profile_meta_data[%d] (%s) has %d fields; spec §5 lists 30", index, m.Name, len(v.Keys))
	}
	known := map[string]bool{}
	for _, f := range ProfileFields {
		known[f.Key] = true
	}
	for i, k := range v.Keys {
		if !known[k] {
			fd.add(doc.CodePwpProfileUnusual, doc.Warning, fd.span(v.Items[i]), "%s has an unknown field %q; it is ignored", m.Name, k)
		}
	}
	return m
}

func decodeNamedIndex(fd finder, root *jsonspan.Value, key string) []NamedIndex {
	v := root.Get(key)
	if v == nil {
		fd.add(doc.CodePwpBadProfile, doc.Error, fd.span(root), "the profile has no %q; block starts are taken from the profile records", key)
		return nil
	}
	if v.Kind != jsonspan.Object {
		fd.add(doc.CodePwpBadProfile, doc.Error, fd.span(v), "%q should be an object {function: index}", key)
		return nil
	}
	out := make([]NamedIndex, 0, len(v.Items))
	for i, it := range v.Items {
		n, ok := it.Int()
		if !ok || n < 0 || n > maxBlobRecords {
			fd.add(doc.CodePwpBadProfile, doc.Error, fd.span(it), "%s[%q] = %s is not an index", key, v.Keys[i], it.Str)
			n = -1
		}
		out = append(out, NamedIndex{Name: v.Keys[i], Index: int(n), Span: fd.span(it)})
	}
	return out
}

func decodeFuncExp(fd finder, root *jsonspan.Value, key string) []FuncExpMap {
	v := root.Get(key)
	if v == nil {
		fd.add(doc.CodePwpBadProfile, doc.Error, fd.span(root), "the profile has no %q", key)
		return nil
	}
	if v.Kind != jsonspan.Object {
		fd.add(doc.CodePwpBadProfile, doc.Error, fd.span(v), "%q should be an object {function: {exponent: [index…]}}", key)
		return nil
	}
	out := make([]FuncExpMap, 0, len(v.Items))
	for i, fv := range v.Items {
		m := FuncExpMap{Name: v.Keys[i], Span: fd.span(fv)}
		if fv.Kind != jsonspan.Object {
			fd.add(doc.CodePwpBadProfile, doc.Error, m.Span, "%s[%q] should be an object {exponent: [index…]}", key, m.Name)
			out = append(out, m)
			continue
		}
		prev := math.MinInt
		for j, ev := range fv.Items {
			e, err := strconv.Atoi(fv.Keys[j])
			if err != nil || e < -1000 || e > 1000 {
				fd.add(doc.CodePwpBadProfile, doc.Error, fd.span(ev), "%s[%q] key %q is not an exponent", key, m.Name, fv.Keys[j])
				continue
			}
			if e <= prev {
				fd.add(doc.CodePwpProfileUnusual, doc.Warning, fd.span(ev), "%s[%q]: exponent keys are not ascending at %d (real profiles list them ascending)", key, m.Name, e)
			}
			prev = e
			entry := ExpEntry{Exp: e, Span: fd.span(ev)}
			if ev.Kind != jsonspan.Array || len(ev.Items) > 2 {
				fd.add(doc.CodePwpBadProfile, doc.Error, entry.Span, "%s[%q][%q] should be a list of 1 or 2 indices ([neg, pos])", key, m.Name, fv.Keys[j])
			}
			for k, iv := range ev.Items {
				if k >= 2 {
					break
				}
				n, ok := iv.Int()
				if !ok || n < 0 || n > maxBlobRecords {
					fd.add(doc.CodePwpBadProfile, doc.Error, fd.span(iv), "%s[%q][%q] item %s is not an index", key, m.Name, fv.Keys[j], iv.Str)
					n = -1
				}
				entry.Indices = append(entry.Indices, int(n))
			}
			m.Entries = append(m.Entries, entry)
		}
		out = append(out, m)
	}
	return out
}

// BareName splits the `_<N>p` suffix: "exp_400p" → ("exp", 400, true).
func BareName(full string) (bare string, budget int, ok bool) {
	i := strings.LastIndexByte(full, '_')
	if i <= 0 || !strings.HasSuffix(full, "p") || len(full)-i < 3 {
		return full, 0, false
	}
	n, err := strconv.Atoi(full[i+1 : len(full)-1])
	if err != nil || n <= 0 {
		return full, 0, false
	}
	return full[:i], n, true
}

// FullName applies the suffix rule: bare + "_" + budget + "p".
func FullName(bare string, budget int) string { return bare + "_" + strconv.Itoa(budget) + "p" }

func sortedKeys[M ~map[string]V, V any](m M) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}
