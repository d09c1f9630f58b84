package pwp

import (
	"bytes"
	"fmt"
	"hash/crc32"
	"math"
	"path"
	"strings"
	"sync"

	"github.com/neffscope/neffscope/core/doc"
)

// hwBuckets is the hardware BUCKET table size, 2^11 (spec §3, §7.6).
const hwBuckets = 2048

// maxOctaves bounds the octaves read per function: 2 regions × 256 exponents.
const maxOctaves = 512

// Region is one half of a function's table: octaves of negative or of positive inputs.
type Region uint8

const (
	Neg Region = iota
	Pos
)

func (r Region) String() string {
	if r == Neg {
		return "neg"
	}
	return "pos"
}

// Octave is one declared exponent octave of a region: its ctrl word and the bucket range it
// addresses (spec §3).
type Octave struct {
	Region    Region
	Exp       int // unbiased exponent E: the octave covers |v| ∈ [2^E, 2^(E+1))
	CtrlIndex int
	Control   Control
	// Buckets is the number of stored sections (2^size, fewer in a truncated top octave,
	// 0 for an empty-octave sentinel).
	Buckets int
}

// Empty reports an empty-octave sentinel (never reached: a clamp catches it first).
func (o Octave) Empty() bool { return o.Control.Sentinel() }

// Symmetry is the fold/reconstruct configuration of a function (spec §5 group C, §7.3).
type Symmetry struct {
	En, Invert, UseNeg bool
	Point              uint32 // raw f32 bits added after reconstruction
}

// Class names the symmetry: asymmetric, odd, even or point-symmetric, with "store-neg" when
// the table holds the negative half.
func (s Symmetry) Class() string {
	if !s.En {
		return "asymmetric"
	}
	c := "even"
	switch {
	case s.Invert && s.Point&0x7fffffff != 0:
		c = "point-symmetric"
	case s.Invert:
		c = "odd"
	case s.Point&0x7fffffff != 0:
		c = "even+offset"
	}
	if s.UseNeg {
		c += " store-neg"
	}
	return c
}

// Describe explains the symmetry as a formula.
func (s Symmetry) Describe() string {
	if !s.En {
		return "no fold: both halves are stored"
	}
	stored, other := "v ≥ 0", "v < 0"
	arg := "|v|"
	if s.UseNeg {
		stored, other, arg = "v ≤ 0", "v > 0", "−|v|"
	}
	p := FormatFloat32(math.Float32frombits(s.Point))
	sign := ""
	if s.Invert {
		sign = "−"
	}
	return fmt.Sprintf("the table stores %s; for %s f(v) = %sT(%s) + %s", stored, other, sign, arg, p)
}

// Function is one profile record joined with its blocks in the blobs.
type Function struct {
	Set       *Set
	Index     int
	Name      string // full name, e.g. exp_400p
	Bare      string // exp
	Budget    int    // from the _<N>p suffix
	ID        int    // func_id: the code an Activation instruction names
	Meta      *Meta
	Roster    *RosterFunc // the roster's entry, when a roster was given
	BktStart  int         // first bucket of the block
	BktEnd    int         // one past the last saturation slot
	LUTSize   int         // sections before the 4 slots
	CtrlStart int         // = pwl_control_base_neg
	CtrlEnd   int         // one past the last declared octave
	Octaves   []Octave    // neg region (ascending E) then pos region
	Slots     [SlotCount]int
	Symmetry  Symmetry
	Prelu     bool // evaluated as v > 0 ? v : alpha·v (§7.4)
	Findings  []doc.Finding
	ev        evalTable
}

// Hero reports a function with a lookup table (budget > 1).
func (f *Function) Hero() bool { return f.Budget > 1 }

// RegionOctaves returns the declared octaves of one region.
func (f *Function) RegionOctaves(r Region) []Octave {
	var out []Octave
	for _, o := range f.Octaves {
		if o.Region == r {
			out = append(out, o)
		}
	}
	return out
}

// Set is one activation function set: profile + bucket blob + ctrl blob, joined.
type Set struct {
	Name        string
	Profile     *Profile
	Roster      *RosterSet // the roster's entry, when known
	ProfilePath string
	BktSource   string
	CtrlSource  string
	HaveBkt     bool
	HaveCtrl    bool
	Buckets     []Bucket
	Controls    []Control
	CtrlStride  int
	Functions   []*Function
	// Findings covers the profile, the blobs and the set-level joins; per-function findings
	// are on each Function. AllFindings gathers both.
	Findings []doc.Finding
	// inputs are the profile and blob bytes the set was decoded from: what its functions
	// evaluate to depends on nothing else (tablesDigest, the sweep cache's key).
	inputs     [3][]byte
	digestOnce sync.Once
	canon      *[3][]byte
}

// tablesKey names the bytes a set was decoded from: each input's length and CRC-32. SHA-256
// and hash/maphash each took a fortieth of a small open in wasm; CRC-32 runs at memory speed
// there, and a match is checked byte for byte (canonical), so a collision costs a sweep,
// never a wrong answer.
type tablesKey [3]struct {
	n   int
	crc uint32
}

// canonicalInputs maps a tablesKey to the first inputs seen with it (at most canonicalMax,
// then it starts afresh).
var canonicalInputs = struct {
	sync.Mutex
	m map[tablesKey]*[3][]byte
}{m: map[tablesKey]*[3][]byte{}}

const canonicalMax = 256

// canonical is the one copy, in this process, of the bytes the set was decoded from (profile,
// bkt, ctrl): sets decoded from equal bytes share it, so its address identifies what their
// functions evaluate to (the sweep cache's key).
func (s *Set) canonical() *[3][]byte {
	s.digestOnce.Do(func() {
		var key tablesKey
		for k, b := range s.inputs {
			key[k].n, key[k].crc = len(b), crc32.ChecksumIEEE(b)
			if b == nil {
				key[k].n = -1 // a missing blob is not an empty one
			}
		}
		canonicalInputs.Lock()
		defer canonicalInputs.Unlock()
		if c := canonicalInputs.m[key]; c != nil && sameInputs(c, &s.inputs) {
			s.canon = c
			return
		}
		if len(canonicalInputs.m) >= canonicalMax {
			clear(canonicalInputs.m)
		}
		s.canon = &s.inputs
		canonicalInputs.m[key] = s.canon
	})
	return s.canon
}

// sameInputs reports whether two sets were decoded from the same bytes.
func sameInputs(a, b *[3][]byte) bool {
	for k := range a {
		if (a[k] == nil) != (b[k] == nil) || !bytes.Equal(a[k], b[k]) {
			return false
		}
	}
	return true
}

// Function finds a function by bare (exp) or full (exp_400p) name, or by its decimal func_id
// prefixed with '#'. Returns nil when absent.
func (s *Set) Function(name string) *Function {
	for _, f := range s.Functions {
		if f.Name == name || f.Bare == name || ("#"+fmt.Sprint(f.ID)) == name {
			return f
		}
	}
	return nil
}

// FunctionByID finds a function by its func_id (the Activation instruction's code).
func (s *Set) FunctionByID(id int) *Function {
	for _, f := range s.Functions {
		if f.ID == id {
			return f
		}
	}
	return nil
}

// AllFindings returns the set's findings followed by every function's.
func (s *Set) AllFindings() []doc.Finding {
	all := append([]doc.Finding(nil), s.Findings...)
	for _, f := range s.Functions {
		all = append(all, f.Findings...)
	}
	return all
}

// SetFiles is what a Set is built from: the profile and its two blobs, as bytes, with the
// names (member paths or file names) their spans should point into.
type SetFiles struct {
	Name        string // the set name; "" = from the roster entry or the profile's file name
	ProfilePath string
	Profile     []byte
	BktPath     string
	Bkt         []byte // nil = the blob is missing
	CtrlPath    string
	Ctrl        []byte // nil = the blob is missing
	Roster      *RosterSet
	decoded     *Profile // Profile decoded already (OpenFiles), or nil
}

// NewSet decodes and joins one set. It never fails: problems are findings on the set or on a
// function, and every function whose table is unusable evaluates to an error, not a panic.
func NewSet(in SetFiles) *Set {
	s := &Set{Name: in.Name, Roster: in.Roster, ProfilePath: in.ProfilePath, BktSource: in.BktPath, CtrlSource: in.CtrlPath,
		inputs: [3][]byte{in.Profile, in.Bkt, in.Ctrl}}
	if s.Name == "" && in.Roster != nil {
		s.Name = in.Roster.Name
	}
	if s.Name == "" {
		s.Name = strings.TrimSuffix(path.Base(in.ProfilePath), ".json")
	}
	p := in.decoded
	if p == nil {
		p = DecodeProfile(in.ProfilePath, in.Profile)
	}
	s.Profile = p
	s.Findings = append(s.Findings, p.Findings...)
	fd := finder{in.ProfilePath, &s.Findings}
	whole := doc.In(in.ProfilePath, 0, int64(len(in.Profile)))
	if s.BktSource == "" {
		s.BktSource = p.BktBin
	}
	if s.CtrlSource == "" {
		s.CtrlSource = p.CtlBin
	}
	if in.Bkt == nil {
		fd.add(doc.CodePwpMissingFile, doc.Error, p.Spans["bkt_bin"], "set %s: the bucket blob %q is missing; no function of the set can be evaluated (drop it with the profile)", s.Name, p.BktBin)
	} else {
		s.HaveBkt = true
		want := -1
		if p.HasBktCnt {
			want = p.BktEntryCnt
		}
		var fs []doc.Finding
		s.Buckets, fs = DecodeBuckets(s.BktSource, in.Bkt, want)
		s.Findings = append(s.Findings, fs...)
	}
	if in.Ctrl == nil {
		fd.add(doc.CodePwpMissingFile, doc.Error, p.Spans[p.CtlBinKey], "set %s: the ctrl blob %q is missing; only LUT-less functions can be evaluated (drop it with the profile)", s.Name, p.CtlBin)
	} else {
		s.HaveCtrl = true
		want := -1
		if p.HasCtlCnt {
			want = p.CtlEntryCnt
		}
		var fs []doc.Finding
		s.Controls, s.CtrlStride, fs = DecodeControls(s.CtrlSource, in.Ctrl, want)
		s.Findings = append(s.Findings, fs...)
	}
	if in.Roster != nil {
		if in.Roster.BktBin != "" && p.BktBin != "" && path.Base(in.Roster.BktBin) != path.Base(p.BktBin) {
			fd.add(doc.CodePwpNameDisagrees, doc.Warning, p.Spans["bkt_bin"], "the roster names the bucket blob %q, the profile %q; the profile's value is followed", in.Roster.BktBin, p.BktBin)
		}
		if in.Roster.CtrlBin != "" && p.CtlBin != "" && path.Base(in.Roster.CtrlBin) != path.Base(p.CtlBin) {
			fd.add(doc.CodePwpNameDisagrees, doc.Warning, p.Spans[p.CtlBinKey], "the roster names the ctrl blob %q, the profile %q; the profile's value is followed", in.Roster.CtrlBin, p.CtlBin)
		}
	}
	if len(s.Buckets) > hwBuckets {
		fd.add(doc.CodePwpBucketCount, doc.Warning, p.Spans["bkt_entry_cnt"], "set %s has %d buckets; a ctrl word's 11-bit base and the hardware BUCKET table address %d", s.Name, len(s.Buckets), hwBuckets)
	}
	s.join(fd)
	s.checkCatalog(fd, whole)
	return s
}

// join builds the Functions and checks every structural invariant of spec §1–§5.
func (s *Set) join(fd finder) {
	p := s.Profile
	j := &layout{s: s, nb: len(s.Buckets), nc: len(s.Controls), bktIdx: indexOf(p.FuncToBkt), ctlIdx: indexOf(p.FuncToCtl)}
	if p.HasBktCnt {
		j.nb = min(j.nb, p.BktEntryCnt)
	}
	if p.HasCtlCnt {
		j.nc = min(j.nc, p.CtlEntryCnt)
	}
	s.checkOrders(fd)
	for i, m := range p.Meta {
		f, ff := s.newFunction(i, m)
		j.bucketBlock(f, ff)
		baseNeg, basePos := j.ctrlBlock(f, ff, i)
		s.joinOctaves(f, ff, baseNeg, basePos, j.nc)
		s.checkExpMaps(f, ff)
		s.checkThresholds(f, ff)
		f.ev = s.compile(f)
	}
	if len(p.Meta) > 0 {
		if j.bktEnd != j.nb && s.HaveBkt {
			fd.add(doc.CodePwpBadLayout, doc.Error, p.Spans["bkt_entry_cnt"], "the function blocks end at bucket %d but the table has %d records (bkt_entry_cnt = Σ(lut_size + 4))", j.bktEnd, j.nb)
		}
		if j.ctlEnd != j.nc && s.HaveCtrl {
			fd.add(doc.CodePwpBadLayout, doc.Error, p.Spans["ctl_entry_cnt"], "the function ctrl blocks end at word %d but the table has %d words", j.ctlEnd, j.nc)
		}
	}
}

// checkOrders checks the order invariant (§1): roster act order == profile_meta_data order ==
// func_to_* key order.
func (s *Set) checkOrders(fd finder) {
	p := s.Profile
	names := make([]string, len(p.Meta))
	for i, m := range p.Meta {
		names[i], _, _ = BareName(m.Name)
	}
	checkOrder := func(what string, got []NamedIndex, span *doc.Span) {
		if len(got) == 0 {
			return
		}
		if len(got) != len(names) {
			fd.add(doc.CodePwpNameDisagrees, doc.Error, span, "%s has %d functions, profile_meta_data %d", what, len(got), len(names))
			return
		}
		for i := range got {
			if got[i].Name != names[i] {
				fd.add(doc.CodePwpNameDisagrees, doc.Warning, got[i].Span, "%s lists %q at position %d where profile_meta_data has %q (real profiles keep one order)", what, got[i].Name, i, names[i])
				return
			}
		}
	}
	checkOrder("func_to_bkt_start_idx", p.FuncToBkt, p.Spans["func_to_bkt_start_idx"])
	checkOrder("func_to_ctl_start_idx", p.FuncToCtl, p.Spans["func_to_ctl_start_idx"])
	if s.Roster != nil {
		rs := s.Roster
		if len(rs.Funcs) != len(p.Meta) {
			fd.add(doc.CodePwpNameDisagrees, doc.Error, rs.ActSpan, "the roster lists %d functions for set %s, its profile %d", len(rs.Funcs), s.Name, len(p.Meta))
		}
		for i := 0; i < len(rs.Funcs) && i < len(names); i++ {
			if rs.Funcs[i].Bare != names[i] {
				fd.add(doc.CodePwpNameDisagrees, doc.Warning, rs.Funcs[i].Span, "the roster lists %q at position %d of set %s, the profile %q (the block order follows the profile)", rs.Funcs[i].Bare, i, s.Name, names[i])
				break
			}
		}
	}
}

// newFunction is function i of the set from its profile_meta_data entry m: its name and budget
// (checked against the roster), symmetry and flags; ff is where its findings go.
func (s *Set) newFunction(i int, m *Meta) (*Function, finder) {
	f := &Function{Set: s, Index: i, Name: m.Name, Meta: m, ID: m.Int(FieldFuncID)}
	s.Functions = append(s.Functions, f)
	ff := finder{s.Profile.Source, &f.Findings}
	var ok bool
	f.Bare, f.Budget, ok = BareName(m.Name)
	if !ok {
		ff.add(doc.CodePwpFunctionName, doc.Warning, m.Spans[FieldFuncName], "func_name %q does not end in _<N>p (the budget suffix, spec §1); budget unknown", m.Name)
	}
	if s.Roster != nil {
		if rf := s.Roster.Func(f.Bare); rf == nil {
			ff.add(doc.CodePwpFunctionName, doc.Warning, m.Spans[FieldFuncName], "%s is not in the roster's act map of set %s", f.Name, s.Name)
		} else {
			f.Roster = rf
			if rf.Budget != f.Budget {
				ff.add(doc.CodePwpFunctionName, doc.Error, m.Spans[FieldFuncName], "func_name %q says budget %d but the roster gives %s budget %d (the suffix rule: func_name = <bare>_<budget>p)", m.Name, f.Budget, f.Bare, rf.Budget)
			}
		}
	}
	f.Symmetry = Symmetry{En: m.Values[FieldSymmetryEn] != 0, Invert: m.Values[FieldSymInvertSign] != 0, UseNeg: m.Values[FieldSymUseNegRegion] != 0, Point: m.Bits(FieldSymmetryPoint)}
	for _, fi := range []int{FieldSymmetryEn, FieldSymInvertSign, FieldSymUseNegRegion, FieldImmBias} {
		if v := m.Values[fi]; v != 0 && v != 1 {
			ff.add(doc.CodePwpFlagValue, doc.Warning, m.Spans[fi], "%s.%s = %d; a flag is 0 or 1 (read as %v)", f.Name, ProfileFields[fi].Key, v, v != 0)
		}
	}
	f.Prelu = f.Bare == preluFuncName || m.Int(FieldFmaIndirection) == preluIndirection // unknown pwp.prelu-selectors
	if m.Values[FieldUseMultipass] != 0 {                                               // unknown pwp.multipass
		ff.add(doc.CodePwpMultipass, doc.Warning, m.Spans[FieldUseMultipass], "%s uses multipass (use_multipass=true): its algorithm is undocumented (spec §7.4) and single-pass evaluation is only an approximation", f.Name)
	}
	if cf := CatalogFunctionNamed(f.Bare); cf != nil && cf.Code >= 0 && cf.Code != f.ID {
		ff.add(doc.CodePwpFuncID, doc.Info, m.Spans[FieldFuncID], "%s has func_id %d; the trainium code table says %d (with_ln uses tonga ids, so this can be legitimate)", f.Name, f.ID, cf.Code)
	}
	return f, ff
}

// layout places the functions' blocks one after another in the bucket table and the ctrl
// table, checking that they are contiguous.
type layout struct {
	s              *Set
	nb, nc         int // the bucket records and ctrl words there are
	bktIdx, ctlIdx map[string]NamedIndex
	bktEnd, ctlEnd int // where the blocks placed so far end
}

// bucketBlock places f's bucket block (§2): its LUT sections, then four consecutive
// saturation slots pos_small, neg_small, pos_large, neg_large.
func (j *layout) bucketBlock(f *Function, ff finder) {
	s, p, m := j.s, j.s.Profile, f.Meta
	ptrFields := [SlotCount]int{FieldSmallPosPtr, FieldSmallNegPtr, FieldLargePosPtr, FieldLargeNegPtr}
	for k, pf := range ptrFields {
		f.Slots[k] = m.Int(pf)
		if s.HaveBkt && (f.Slots[k] < 0 || f.Slots[k] >= j.nb) { // a missing blob is reported once, on the set
			ff.add(doc.CodePwpBadLayout, doc.Error, m.Spans[pf], "%s.%s = %d is outside the bucket table (0..%d); inputs routed to the %s slot give an error", f.Name, ProfileFields[pf].Key, f.Slots[k], j.nb-1, slotNames[k])
		}
		if k > 0 && f.Slots[k] != f.Slots[0]+k {
			ff.add(doc.CodePwpBadLayout, doc.Error, m.Spans[pf], "%s: saturation pointers are not consecutive (%s = %d, expected %d = pos_small + %d)", f.Name, slotNames[k], f.Slots[k], f.Slots[0]+k, k)
		}
	}
	f.BktStart = j.bktEnd
	if b, ok := j.bktIdx[f.Bare]; ok {
		f.BktStart = b.Index
		if b.Index != j.bktEnd {
			ff.add(doc.CodePwpBadLayout, doc.Error, b.Span, "%s's bucket block starts at %d but the previous block ends at %d: blocks are not contiguous", f.Name, b.Index, j.bktEnd)
		}
	} else if p.FuncToBkt != nil {
		ff.add(doc.CodePwpBadLayout, doc.Error, p.Spans["func_to_bkt_start_idx"], "func_to_bkt_start_idx has no entry for %q; its block is assumed to start at %d", f.Bare, j.bktEnd)
	}
	f.LUTSize = f.Slots[0] - f.BktStart
	f.BktEnd = f.Slots[0] + SlotCount
	if f.LUTSize < 0 || f.LUTSize > maxBlobRecords {
		ff.add(doc.CodePwpBadLayout, doc.Error, m.Spans[FieldSmallPosPtr], "%s: pos_small slot %d lies before the block start %d", f.Name, f.Slots[0], f.BktStart)
		f.LUTSize, f.BktEnd = 0, f.BktStart+SlotCount
	}
	if !f.Hero() && f.LUTSize != 0 {
		ff.add(doc.CodePwpBadLayout, doc.Warning, m.Spans[FieldSmallPosPtr], "%s is a budget-1 resident but has %d LUT sections (residents have none)", f.Name, f.LUTSize)
	}
	if cf := CatalogFunctionNamed(f.Bare); cf != nil {
		if want, ok := cf.LUT[f.Budget]; ok && want != f.LUTSize {
			ff.add(doc.CodePwpCatalog, doc.Info, m.Spans[FieldSmallPosPtr], "%s has %d LUT sections; the catalog (spec §10.3) knows %d", f.Name, f.LUTSize, want)
		}
	}
	j.bktEnd = f.BktEnd
}

// ctrlBlock places function i's ctrl block (§3): [neg octaves][pos octaves], from
// pwl_control_base_neg to the next function's; it returns where the neg and pos octaves start.
func (j *layout) ctrlBlock(f *Function, ff finder, i int) (baseNeg, basePos int) {
	p, m := j.s.Profile, f.Meta
	baseNeg, basePos = m.Int(FieldBaseNeg), m.Int(FieldBasePos)
	f.CtrlStart = baseNeg
	if c, ok := j.ctlIdx[f.Bare]; ok {
		if c.Index != baseNeg {
			ff.add(doc.CodePwpBadLayout, doc.Error, c.Span, "func_to_ctl_start_idx[%s] = %d but pwl_control_base_neg = %d (they must agree)", f.Bare, c.Index, baseNeg)
		}
	} else if p.FuncToCtl != nil {
		ff.add(doc.CodePwpBadLayout, doc.Error, p.Spans["func_to_ctl_start_idx"], "func_to_ctl_start_idx has no entry for %q", f.Bare)
	}
	if baseNeg != j.ctlEnd {
		ff.add(doc.CodePwpBadLayout, doc.Error, m.Spans[FieldBaseNeg], "%s's ctrl block starts at %d but the previous block ends at %d: blocks are not contiguous", f.Name, baseNeg, j.ctlEnd)
	}
	f.CtrlEnd = j.nc
	if i+1 < len(p.Meta) {
		f.CtrlEnd = p.Meta[i+1].Int(FieldBaseNeg)
	}
	if f.CtrlEnd-baseNeg > maxOctaves {
		ff.add(doc.CodePwpBadLayout, doc.Error, m.Spans[FieldBaseNeg], "%s: its ctrl block %d..%d would declare %d octaves; only %d are read (an f32 has 256 exponents per sign)", f.Name, baseNeg, f.CtrlEnd, f.CtrlEnd-baseNeg, maxOctaves)
		f.CtrlEnd = baseNeg + maxOctaves
	}
	if basePos < baseNeg || basePos > f.CtrlEnd {
		ff.add(doc.CodePwpBadLayout, doc.Error, m.Spans[FieldBasePos], "%s: pwl_control_base_pos %d is outside its ctrl block %d..%d (base_pos = base_neg + number of neg octaves)", f.Name, basePos, baseNeg, f.CtrlEnd)
		f.CtrlEnd = max(baseNeg, f.CtrlEnd)
		basePos = max(baseNeg, min(basePos, f.CtrlEnd))
	}
	j.ctlEnd = f.CtrlEnd
	return baseNeg, basePos
}

func indexOf(list []NamedIndex) map[string]NamedIndex {
	m := make(map[string]NamedIndex, len(list))
	for _, n := range list {
		if _, dup := m[n.Name]; !dup {
			m[n.Name] = n
		}
	}
	return m
}

// expected number of stored sections of an octave (§3, unknown pwp.truncated-octave): 0 for a sentinel, the truncated count
// (large_mantissa_threshold >> lsb) + 1 in the octave of the large threshold, else 2^size.
func expectedSections(o Octave, largeThr, largeMant int) int {
	if o.Empty() || o.Control.Size > 23 {
		return 0
	}
	full := 1 << o.Control.Size
	if o.Exp == largeThr-127 {
		return min(full, (largeMant>>(23-o.Control.Size))+1)
	}
	return full
}

func (s *Set) ctrlSpan(i int) *doc.Span {
	return doc.In(s.CtrlSource, int64(i*s.CtrlStride), int64(max(s.CtrlStride, 4)))
}

func (s *Set) bktSpan(i int) *doc.Span {
	return doc.In(s.BktSource, int64(i*BucketSize), BucketSize)
}

func (s *Set) joinOctaves(f *Function, ff finder, baseNeg, basePos, nc int) {
	m := f.Meta
	expOff := m.Int(FieldExpOffset)
	// Octave k of a region is exponent exp_offset + k at ctrl base + k (unknown pwp.octave-index);
	// neg declares base_pos − base_neg octaves, pos the rest of the block (unknown pwp.region-sizes).
	regions := []struct {
		r         Region
		base, n   int
		thr, mant int
	}{
		{Neg, baseNeg, basePos - baseNeg, m.Int(FieldLargeNegThr), m.Int(FieldLargeNegMant)},
		{Pos, basePos, f.CtrlEnd - basePos, m.Int(FieldLargePosThr), m.Int(FieldLargePosMant)},
	}
	for _, rg := range regions {
		for k := 0; k < rg.n; k++ {
			ci := rg.base + k
			o := Octave{Region: rg.r, Exp: expOff + k, CtrlIndex: ci}
			if ci < 0 || ci >= nc {
				if s.HaveCtrl { // a missing blob is reported once, on the set
					ff.add(doc.CodePwpBadLayout, doc.Error, m.Spans[FieldBaseNeg], "%s: %s octave %d needs ctrl word %d, beyond the table (%d words)", f.Name, rg.r, o.Exp, ci, nc)
				}
				break
			}
			o.Control = s.Controls[ci]
			f.Octaves = append(f.Octaves, o)
		}
	}
	// Running bucket index and per-octave deltas.
	running := f.BktStart
	for k := range f.Octaves {
		o := &f.Octaves[k]
		c := o.Control
		span := s.ctrlSpan(o.CtrlIndex)
		thr, mant := m.Int(FieldLargePosThr), m.Int(FieldLargePosMant)
		if o.Region == Neg {
			thr, mant = m.Int(FieldLargeNegThr), m.Int(FieldLargeNegMant)
		}
		if c.Base != running {
			ff.add(doc.CodePwpBadLayout, doc.Error, span, "%s %s octave %d: ctrl word %d (0x%08x) has bucket base %d, expected the running index %d (bkt_base = block start + Σ earlier sections)", f.Name, o.Region, o.Exp, o.CtrlIndex, c.Word, c.Base, running)
		}
		if c.Sentinel() {
			if c.Word != uint32(c.Base) {
				ff.add(doc.CodePwpCtrlWord, doc.Warning, span, "%s: ctrl word %d = 0x%08x looks like an empty-octave sentinel but carries other bits", f.Name, o.CtrlIndex, c.Word)
			}
		} else {
			if c.Size > 23 {
				ff.add(doc.CodePwpCtrlWord, doc.Error, span, "%s: ctrl word %d has extract_size %d > 23 mantissa bits; inputs in octave %d give an error", f.Name, o.CtrlIndex, c.Size, o.Exp)
			} else if c.Size > 15 {
				ff.add(doc.CodePwpCtrlWord, doc.Warning, span, "%s: ctrl word %d has extract_size %d; the hardware control struct holds 4 bits (≤ 15)", f.Name, o.CtrlIndex, c.Size)
			} else if c.ExtractLSB != 23-c.Size {
				ff.add(doc.CodePwpCtrlWord, doc.Warning, span, "%s: ctrl word %d has extract_lsb %d, expected 23 − extract_size = %d (the evaluator follows extract_size)", f.Name, o.CtrlIndex, c.ExtractLSB, 23-c.Size)
			}
		}
		want := expectedSections(*o, thr, mant)
		next := f.Slots[0]
		if k+1 < len(f.Octaves) {
			next = f.Octaves[k+1].Control.Base
		}
		o.Buckets = want
		if got := next - c.Base; got != want && c.Base == running {
			ff.add(doc.CodePwpBadLayout, doc.Error, span, "%s %s octave %d stores %d sections (next base %d − %d) but its ctrl word implies %d", f.Name, o.Region, o.Exp, got, next, c.Base, want)
		}
		running = c.Base + o.Buckets
		if end := c.Base + o.Buckets; end > f.Slots[0] || c.Base < f.BktStart {
			ff.add(doc.CodePwpBadLayout, doc.Error, span, "%s %s octave %d addresses buckets %d..%d, outside its LUT %d..%d", f.Name, o.Region, o.Exp, c.Base, end-1, f.BktStart, f.Slots[0]-1)
		} else if !o.Empty() && o.Control.Size <= 23 && c.Base == running-o.Buckets {
			s.checkMidpoints(f, ff, o)
		}
	}
	if running != f.Slots[0] && len(f.Octaves) > 0 {
		ff.add(doc.CodePwpBadLayout, doc.Error, m.Spans[FieldSmallPosPtr], "%s: the octaves end at bucket %d but the saturation slots start at %d", f.Name, running, f.Slots[0])
	}
}

// checkMidpoints: every bucket's x is the midpoint of its section (§2, [REAL] within 1.2e-4 of
// a half-width). A loose 5% tolerance flags only real misplacement.
func (s *Set) checkMidpoints(f *Function, ff finder, o *Octave) {
	sz := o.Control.Size
	bad := 0
	for k := 0; k < o.Buckets; k++ {
		bi := o.Control.Base + k
		if bi >= len(s.Buckets) {
			return
		}
		half := math.Ldexp(1, o.Exp-sz-1)
		mid := math.Ldexp(1+(float64(k)+0.5)/float64(int(1)<<sz), o.Exp)
		if o.Region == Neg {
			mid = -mid
		}
		if d := math.Abs(float64(s.Buckets[bi].X) - mid); !(d <= 0.05*half) {
			if bad == 0 {
				ff.add(doc.CodePwpMidpoint, doc.Warning, s.bktSpan(bi), "%s %s octave %d section %d: x = %g is not the section midpoint %g", f.Name, o.Region, o.Exp, k, s.Buckets[bi].X, mid)
			}
			bad++
		}
	}
	if bad > 1 {
		ff.add(doc.CodePwpMidpoint, doc.Warning, s.ctrlSpan(o.CtrlIndex), "%s %s octave %d: %d sections in all have x away from their midpoint", f.Name, o.Region, o.Exp, bad)
	}
}

// checkExpMaps compares func_exp_to_{ctl,bkt}_start_idx with what the ctrl words imply (§4):
// per exponent key, one entry per declaring region in [neg, pos] order.
func (s *Set) checkExpMaps(f *Function, ff finder) {
	p := s.Profile
	type want struct{ ctl, bkt []int }
	byExp := map[int]*want{}
	var exps []int
	for _, o := range f.Octaves {
		w := byExp[o.Exp]
		if w == nil {
			w = &want{}
			byExp[o.Exp] = w
			exps = append(exps, o.Exp)
		}
		w.ctl = append(w.ctl, o.CtrlIndex)
		w.bkt = append(w.bkt, o.Control.Base)
	}
	sortInts(exps)
	for _, mp := range []struct {
		key  string
		list []FuncExpMap
		pick func(*want) []int
	}{
		{"func_exp_to_ctl_start_idx", p.FuncExpToCtl, func(w *want) []int { return w.ctl }},
		{"func_exp_to_bkt_start_idx", p.FuncExpToBkt, func(w *want) []int { return w.bkt }},
	} {
		if mp.list == nil {
			continue
		}
		var fm *FuncExpMap
		for i := range mp.list {
			if mp.list[i].Name == f.Bare {
				fm = &mp.list[i]
				break
			}
		}
		if fm == nil {
			ff.add(doc.CodePwpBadLayout, doc.Error, p.Spans[mp.key], "%s has no entry for %q", mp.key, f.Bare)
			continue
		}
		if len(fm.Entries) > 0 && fm.Entries[0].Exp != f.Meta.Int(FieldExpOffset) {
			ff.add(doc.CodePwpBadLayout, doc.Warning, fm.Entries[0].Span, "%s[%s]: the first exponent key is %d but exp_offset is %d", mp.key, f.Bare, fm.Entries[0].Exp, f.Meta.Int(FieldExpOffset))
		}
		if s.HaveCtrl && len(fm.Entries) != len(exps) {
			ff.add(doc.CodePwpBadLayout, doc.Error, fm.Span, "%s[%s] has %d exponent keys; the ctrl block declares %d octaves (%v)", mp.key, f.Bare, len(fm.Entries), len(exps), exps)
		}
		for i := 0; i < len(fm.Entries) && i < len(exps); i++ {
			e := fm.Entries[i]
			w := mp.pick(byExp[exps[i]])
			if e.Exp != exps[i] || !equalInts(e.Indices, w) {
				ff.add(doc.CodePwpBadLayout, doc.Error, e.Span, "%s[%s][%d] = %v; the ctrl words imply exponent %d → %v ([neg, pos] for the regions declaring it)", mp.key, f.Bare, e.Exp, e.Indices, exps[i], w)
				break
			}
		}
	}
}

// checkThresholds: ranges, and the observed rule small = 127 + first populated octave,
// large = 127 + last octave (§5 notes) — a deviation is only remarkable, not an error.
func (s *Set) checkThresholds(f *Function, ff finder) {
	m := f.Meta
	for _, fi := range []int{FieldSmallPosThr, FieldSmallNegThr, FieldLargePosThr, FieldLargeNegThr} {
		if v := m.Int(fi); v < 0 || v > 255 {
			ff.add(doc.CodePwpBadProfile, doc.Error, m.Spans[fi], "%s.%s = %d is not a biased f32 exponent (0..255)", f.Name, ProfileFields[fi].Key, v)
		}
	}
	for _, fi := range []int{FieldLargePosMant, FieldLargeNegMant} {
		if v := m.Int(fi); v < 0 || v > 0x7fffff {
			ff.add(doc.CodePwpBadProfile, doc.Error, m.Spans[fi], "%s.%s = %d is not a 23-bit mantissa", f.Name, ProfileFields[fi].Key, v)
		}
	}
	if !f.Hero() {
		return
	}
	for _, r := range []Region{Neg, Pos} {
		first, last := math.MaxInt, math.MinInt
		for _, o := range f.Octaves {
			if o.Region == r {
				last = max(last, o.Exp) // the large threshold counts declared sentinels (rsqrt E97)
				if !o.Empty() {
					first = min(first, o.Exp)
				}
			}
		}
		if first == math.MaxInt {
			continue
		}
		small, large := FieldSmallPosThr, FieldLargePosThr
		if r == Neg {
			small, large = FieldSmallNegThr, FieldLargeNegThr
		}
		if m.Int(small) != 127+first {
			ff.add(doc.CodePwpThreshold, doc.Info, m.Spans[small], "%s %s: small threshold %d, where the first populated octave %d suggests %d", f.Name, r, m.Int(small), first, 127+first)
		}
		if m.Int(large) != 127+last {
			ff.add(doc.CodePwpThreshold, doc.Info, m.Spans[large], "%s %s: large threshold %d, where the last octave %d suggests %d", f.Name, r, m.Int(large), last, 127+last)
		}
	}
}

// checkCatalog compares the set with the built-in catalogs (§10) by name and sizes.
func (s *Set) checkCatalog(fd finder, whole *doc.Span) {
	for _, c := range Catalogs {
		cs := c.Set(s.Name)
		if cs == nil || c.CtrlStride != s.CtrlStride {
			continue
		}
		if len(s.Buckets)*BucketSize == cs.BktBytes && len(s.Controls)*s.CtrlStride == cs.CtrlBytes {
			fd.add(doc.CodePwpCatalog, doc.Info, whole, "set %s matches %s set #%d in sizes (bkt %d B, ctrl %d B)", s.Name, c.Name, cs.Index, cs.BktBytes, cs.CtrlBytes)
		} else {
			fd.add(doc.CodePwpCatalog, doc.Info, whole, "set %s differs from %s set #%d: bkt %d B (catalog %d), ctrl %d B (catalog %d)", s.Name, c.Name, cs.Index, len(s.Buckets)*BucketSize, cs.BktBytes, len(s.Controls)*s.CtrlStride, cs.CtrlBytes)
		}
		return
	}
}

func sortInts(a []int) {
	for i := 1; i < len(a); i++ {
		for j := i; j > 0 && a[j] < a[j-1]; j-- {
			a[j], a[j-1] = a[j-1], a[j]
		}
	}
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// CompareFunctions reports how two sets' copies of one function differ: real sets carry
// byte-identical blocks and identical non-pointer profile fields (spec §1, [REAL]); only
// absolute indices move. An empty result means identical.
func CompareFunctions(a, b *Function) []string {
	var diffs []string
	if a.Name != b.Name {
		diffs = append(diffs, fmt.Sprintf("names %s and %s", a.Name, b.Name))
	}
	pointer := map[int]bool{FieldBasePos: true, FieldBaseNeg: true, FieldSmallPosPtr: true, FieldSmallNegPtr: true, FieldLargePosPtr: true, FieldLargeNegPtr: true}
	for i, pf := range ProfileFields {
		if !pointer[i] && i != FieldFuncName && a.Meta.Values[i] != b.Meta.Values[i] {
			diffs = append(diffs, fmt.Sprintf("%s %d vs %d", pf.Key, a.Meta.Values[i], b.Meta.Values[i]))
		}
	}
	if a.BktEnd-a.BktStart != b.BktEnd-b.BktStart {
		return append(diffs, fmt.Sprintf("bucket blocks of %d and %d records", a.BktEnd-a.BktStart, b.BktEnd-b.BktStart))
	}
	n := 0
	for k := 0; k < a.BktEnd-a.BktStart; k++ {
		i, j := a.BktStart+k, b.BktStart+k
		if i < 0 || j < 0 || i >= len(a.Set.Buckets) || j >= len(b.Set.Buckets) {
			return append(diffs, "bucket blocks outside their tables")
		}
		x, y := a.Set.Buckets[i], b.Set.Buckets[j]
		if math.Float32bits(x.D0) != math.Float32bits(y.D0) || math.Float32bits(x.D1) != math.Float32bits(y.D1) ||
			math.Float32bits(x.D2) != math.Float32bits(y.D2) || math.Float32bits(x.D3) != math.Float32bits(y.D3) ||
			math.Float32bits(x.X) != math.Float32bits(y.X) {
			if n == 0 {
				diffs = append(diffs, fmt.Sprintf("first differing bucket: record %d of the block (bkt %d vs %d)", k, i, j))
			}
			n++
		}
	}
	if n > 1 {
		diffs = append(diffs, fmt.Sprintf("%d bucket records differ", n))
	}
	return diffs
}
