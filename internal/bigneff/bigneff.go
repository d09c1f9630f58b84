// Package bigneff writes real-shaped big NEFFs for benchmarks and browser tests: the
// members of testdata/real/nkipy/matmul_small.neff, with its bulk scaled the way a big model's
// is. Every engine instruction stream is repeated K times (each copy's address-like fields
// varied, so it compresses like real code, not like a repeat), and its .dbg debug info with it:
// the asm members keep one record per 64-byte word, pointing at the copy's backend records
// (ids offset per copy), so source mapping still joins. Each def.json gains tens of MB of
// virtual variables, the NEFF gains an NKI debug-info tree (<kernel>.klir.debuginfo.json, tens
// of MB) named by kernel_debug_info.json, and optionally weights (.npy file variables).
//
// K is picked so the file comes out near Options.Size. Writing streams to disk through
// neffbuild (valid header, MD5, tar); only the JSON members (tens of MB) are held in memory.
package bigneff

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"

	"github.com/neffscope/neffscope/core/neff/neffbuild"
	"github.com/neffscope/neffscope/internal/realfiles"
)

// Version names the generator's output shape; Cached files carry it in their name, so a change
// here regenerates them.
const Version = 1

// Source is the real NEFF the members come from.
const Source = "nkipy/matmul_small.neff"

// KlirMember is the NKI debug-info tree the generated NEFF carries.
const KlirMember = "matmul_kernel.klir.debuginfo.json"

// Options say what to write. Zero values give the defaults noted.
type Options struct {
	// Size is the target file size in bytes (the result lands within a few per cent).
	Size int64
	// DefJSON is the size of each subgraph's def.json (default 20 MB): virtual variables.
	DefJSON int64
	// DebugJSON is the size of the klir debug-info JSON (default 30 MB).
	DebugJSON int64
	// Weights is the bytes of weights per subgraph (.npy float16 file variables); 0: none.
	Weights int64
	// Seed varies the instruction fields (default 1).
	Seed uint64
}

func (o *Options) defaults() {
	if o.DefJSON == 0 {
		o.DefJSON = 20_000_000
	}
	if o.DebugJSON == 0 {
		o.DebugJSON = 30_000_000
	}
	if o.Seed == 0 {
		o.Seed = 1
	}
}

// Stats describe a generated file.
type Stats struct {
	Copies       int   // K: times each stream and its debug info are repeated
	Words        int64 // instruction words in all streams
	Members      int
	Uncompressed int64 // bytes of member data
	FileSize     int64
}

func (s Stats) String() string {
	return fmt.Sprintf("%d members, %d instruction words (streams ×%d), %.1f MB of member data in %.1f MB",
		s.Members, s.Words, s.Copies, float64(s.Uncompressed)/1e6, float64(s.FileSize)/1e6)
}

// Cached returns the path of the generated file of sizeMiB MiB (weights: half the size in
// weights) under dir (created), generating it first when it is not there. dir "" is
// <repo>/testdata/gen (git-ignored).
func Cached(dir string, sizeMiB int, weights bool) (string, error) {
	if dir == "" {
		root, err := realfiles.RepoRoot()
		if err != nil {
			return "", err
		}
		dir = filepath.Join(root, "testdata", "gen")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	name := fmt.Sprintf("real-v%d-%dmib", Version, sizeMiB)
	opt := Options{Size: int64(sizeMiB) << 20}
	if weights {
		name += "-weights"
		opt.Weights = opt.Size / 4 // two subgraphs: half the file
	}
	path := filepath.Join(dir, name+".neff")
	if _, err := os.Stat(path); err == nil {
		return path, nil
	}
	_, err := Generate(path, opt)
	return path, err
}

// Generate writes the NEFF to path (through a temporary file of its own renamed at the end, so
// an interrupted run leaves nothing half-written under that name, and test binaries that
// generate the same file at once — make test runs its runners side by side — each write
// their own copy: the rename is atomic, and the copies are the same bytes).
func Generate(path string, opt Options) (Stats, error) {
	f, err := os.CreateTemp(filepath.Dir(path), filepath.Base(path)+".*.tmp")
	if err != nil {
		return Stats{}, err
	}
	tmp := f.Name()
	st, err := Write(f, opt)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(tmp)
		return st, err
	}
	return st, os.Rename(tmp, path)
}

// Write writes the NEFF to f.
func Write(f *os.File, opt Options) (Stats, error) {
	opt.defaults()
	src, ok := realfiles.Find(Source)
	if !ok {
		return Stats{}, errors.New("bigneff: " + realfiles.Missing(Source))
	}
	orig, err := readMembers(src)
	if err != nil {
		return Stats{}, fmt.Errorf("bigneff: reading %s: %w", src, err)
	}
	g, err := newGen(orig, opt)
	if err != nil {
		return Stats{}, err
	}
	fixed, err := g.fixedMembers()
	if err != nil {
		return Stats{}, err
	}
	// Pick K from the compressed size of the fixed part and of one block of copies.
	fixedZ := int64(1024)
	for _, m := range fixed {
		fixedZ += gzSize(m.reader()) + 512 // and its tar header
	}
	const probe = 256
	perCopy := float64(g.copiesGz(probe)) / probe
	k := 1
	if left := float64(opt.Size - fixedZ); left > perCopy {
		k = int(left / perCopy)
	}
	members, st := g.assemble(fixed, k)
	bw := &seekBuf{f: f, w: newBufWriter(f)}
	if err := neffbuild.Write(bw, members, neffbuild.Options{Name: "file.neff", LNCSize: 2, FeatureBits: 0x209c00, UUID: g.uuid}); err != nil {
		return st, err
	}
	if err := bw.w.Flush(); err != nil {
		return st, err
	}
	if fi, err := f.Stat(); err == nil {
		st.FileSize = fi.Size()
	}
	return st, nil
}

// member is one member of the template or the output, in archive order.
type member struct {
	path string
	data []byte
}

func (m member) reader() io.Reader { return bytes.NewReader(m.data) }

func readMembers(path string) ([]member, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	if len(b) < 1024 {
		return nil, errors.New("shorter than a NEFF header")
	}
	zr, err := gzip.NewReader(bytes.NewReader(b[1024:]))
	if err != nil {
		return nil, err
	}
	zr.Multistream(false)
	tr := tar.NewReader(zr)
	var out []member
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return nil, err
		}
		if h.Typeflag != tar.TypeReg {
			continue
		}
		d, err := io.ReadAll(tr)
		if err != nil {
			return nil, err
		}
		out = append(out, member{path: strings.TrimPrefix(h.Name, "./"), data: d})
	}
}

// gen holds the template and what scaling needs.
type gen struct {
	opt     Options
	orig    []member
	byPath  map[string][]byte
	sgs     []string          // sg00, sg01
	streams map[string]bool   // engine stream members (sgNN/<Engine>.bin named by def.json *_instr)
	asm     map[string]*asmT  // asm .dbg members
	backend map[string]*bkT   // backend .dbg members
	stride  map[string]uint64 // per subgraph: one more than the largest backend id
	uuid    [16]byte
}

func newGen(orig []member, opt Options) (*gen, error) {
	g := &gen{opt: opt, orig: orig, byPath: map[string][]byte{}, streams: map[string]bool{}, asm: map[string]*asmT{}, backend: map[string]*bkT{}, stride: map[string]uint64{}}
	g.uuid = [16]byte{0xb1, 0x9e, 0xff, 0x00, 0, 0, 0x4d, 0, 0x80, 0, 0, 0, 0, 0, 0, byte(Version)}
	binary.BigEndian.PutUint64(g.uuid[4:12], uint64(opt.Size)|0x4000)
	for _, m := range orig {
		g.byPath[m.path] = m.data
		dir, base, ok := strings.Cut(m.path, "/")
		if !ok || strings.Contains(base, "/") || !strings.HasPrefix(dir, "sg") {
			continue
		}
		switch {
		case base == "def.json":
			g.sgs = append(g.sgs, dir)
			var def map[string]json.RawMessage
			if err := json.Unmarshal(m.data, &def); err != nil {
				return nil, fmt.Errorf("bigneff: %s: %w", m.path, err)
			}
			for key, v := range def {
				var s string
				if strings.HasSuffix(key, "_instr") && json.Unmarshal(v, &s) == nil {
					g.streams[dir+"/"+s] = true
				}
			}
		case strings.HasPrefix(base, "debug_info_asm_") && strings.HasSuffix(base, ".dbg"):
			a, err := parseAsm(m.data)
			if err != nil {
				return nil, fmt.Errorf("bigneff: %s: %w", m.path, err)
			}
			g.asm[m.path] = a
		case strings.HasPrefix(base, "debug_info_backend_") && strings.HasSuffix(base, ".dbg"):
			b, err := parseBackend(m.data)
			if err != nil {
				return nil, fmt.Errorf("bigneff: %s: %w", m.path, err)
			}
			if len(b.records) == 0 {
				continue // nothing to scale (matmul_small's DMA member: a description only)
			}
			g.backend[m.path] = b
			g.stride[dir] = max(g.stride[dir], b.maxID+1)
		}
	}
	if len(g.sgs) == 0 || len(g.streams) == 0 {
		return nil, errors.New("bigneff: the template has no subgraph with streams")
	}
	for p, a := range g.asm {
		dir, _, _ := strings.Cut(p, "/")
		eng := strings.TrimSuffix(strings.TrimPrefix(p[len(dir)+1:], "debug_info_asm_"), ".dbg")
		if bin := g.byPath[dir+"/"+eng+".bin"]; len(bin) != 64*len(a.records) {
			return nil, fmt.Errorf("bigneff: %s has %d records for %d words", p, len(a.records), len(bin)/64)
		}
	}
	return g, nil
}

// scaled reports whether a member is repeated K times.
func (g *gen) scaled(p string) bool {
	return g.streams[p] || g.asm[p] != nil || g.backend[p] != nil
}

// fixedMembers are the members whose content does not depend on K: the template's, with the
// def.json files grown, the klir tree and its index added, and the weights.
func (g *gen) fixedMembers() ([]member, error) {
	var out []member
	for _, m := range g.orig {
		if g.scaled(m.path) {
			continue
		}
		dir, base, _ := strings.Cut(m.path, "/")
		if base == "def.json" {
			d, err := g.defJSON(dir, m.data)
			if err != nil {
				return nil, err
			}
			m.data = d
		}
		out = append(out, m)
	}
	out = append(out, member{path: "kernel_debug_info.json", data: []byte(`{
    "debug_info_files": [
        {
            "file_name": "` + KlirMember + `",
            "kernel_name": "spike.tests.test_spike_async.matmul_kernel",
            "parent_tensorizer_id": 14
        }
    ]
}
`)})
	out = append(out, member{path: KlirMember, data: klirJSON(g.opt.DebugJSON, g.opt.Seed)})
	return out, nil
}

// weightsMember is the path of a subgraph's weights (a def.json file variable).
func weightsMember(sg string) string { return sg + "/value_sg0000_weights_0_CRSM.npy" }

// assemble lists the output members in the template's order, the scaled ones as readers.
func (g *gen) assemble(fixed []member, k int) ([]neffbuild.Member, Stats) {
	st := Stats{Copies: k}
	fixedBy := map[string][]byte{}
	for _, m := range fixed {
		fixedBy[m.path] = m.data
	}
	var out []neffbuild.Member
	add := func(p string, r io.Reader, size int64) {
		out = append(out, neffbuild.Member{Path: p, Reader: r, Size: size})
		st.Uncompressed += size
	}
	seed := g.opt.Seed
	for _, m := range g.orig {
		switch {
		case g.streams[m.path]:
			seed++
			add(m.path, &streamReader{tmpl: m.data, k: k, rng: rand.New(rand.NewPCG(seed, 13))}, int64(len(m.data))*int64(k))
			st.Words += int64(len(m.data)/64) * int64(k)
		case g.asm[m.path] != nil || g.backend[m.path] != nil:
			enc := g.encoder(m.path)
			add(m.path, &copyReader{enc: enc, k: k}, copiesSize(enc, k))
		default:
			d := fixedBy[m.path]
			add(m.path, bytes.NewReader(d), int64(len(d)))
		}
		if dir, base, _ := strings.Cut(m.path, "/"); base == "def.json" && g.opt.Weights > 0 {
			n := g.opt.Weights / 2
			hdr := npyHeader(n)
			seed++
			add(weightsMember(dir), io.MultiReader(bytes.NewReader(hdr), &weightReader{r: rand.New(rand.NewPCG(seed, 7))}), int64(len(hdr))+2*n)
		}
	}
	for _, p := range []string{"kernel_debug_info.json", KlirMember} {
		add(p, bytes.NewReader(fixedBy[p]), int64(len(fixedBy[p])))
	}
	st.Members = len(out)
	return out, st
}

// copiesGz is the compressed size of n copies of every scaled member.
func (g *gen) copiesGz(n int) int64 {
	var total int64
	seed := uint64(999)
	for _, m := range g.orig {
		switch {
		case g.streams[m.path]:
			seed++
			total += gzSize(&streamReader{tmpl: m.data, k: n, rng: rand.New(rand.NewPCG(seed, 13))})
		case g.asm[m.path] != nil || g.backend[m.path] != nil:
			total += gzSize(&copyReader{enc: g.encoder(m.path), k: n})
		}
	}
	return total
}

// encoder returns the function that appends copy k of a .dbg member.
func (g *gen) encoder(p string) copyEncoder {
	dir, _, _ := strings.Cut(p, "/")
	s := g.stride[dir]
	if a := g.asm[p]; a != nil {
		return func(dst []byte, k, n int) []byte { return a.encode(dst, k, n, s) }
	}
	b := g.backend[p]
	return func(dst []byte, k, n int) []byte { return b.encode(dst, k, n, s) }
}

// gzSize is the gzip level-1 size of what r holds.
func gzSize(r io.Reader) int64 {
	cw := &counter{}
	zw, _ := gzip.NewWriterLevel(cw, gzip.BestSpeed)
	io.Copy(zw, r)
	zw.Close()
	return cw.n
}

type counter struct{ n int64 }

func (c *counter) Write(p []byte) (int, error) { c.n += int64(len(p)); return len(p), nil }

// streamReader yields k copies of an instruction stream, each word's address-like fields
// varied (16-bit fields at 16, 20, 24, 32, 36, 48, 52 that are not zero in the template; in
// DMA words only the two address offsets, so every var id and DGE index still resolves).
type streamReader struct {
	tmpl []byte
	k    int
	rng  *rand.Rand
	copy int
	buf  []byte
	pos  int
}

func (s *streamReader) Read(p []byte) (int, error) {
	if s.pos == len(s.buf) {
		if s.copy == s.k {
			return 0, io.EOF
		}
		s.copy++
		s.buf = append(s.buf[:0], s.tmpl...)
		s.pos = 0
		for w := 0; w+64 <= len(s.buf); w += 64 {
			word := s.buf[w : w+64]
			offs := []int{16, 20, 24, 32, 36, 48, 52}
			if word[0] == 0xD4 || word[0] == 0xDA {
				offs = []int{16, 40} // DMA words: only the address offsets (ids at 0x14, 0x2C name vars)
			}
			for _, off := range offs {
				if word[off] != 0 || word[off+1] != 0 {
					v := s.rng.Uint32()
					word[off], word[off+1] = byte(v), byte(v>>8)&0x3f
				}
			}
		}
	}
	n := copy(p, s.buf[s.pos:])
	s.pos += n
	return n, nil
}

// copyEncoder appends copy k (of n) of a member to dst: the whole member for n == 1; otherwise
// copy 0 carries the header fields and the last copy the trailing ones.
type copyEncoder func(dst []byte, k, n int) []byte

// copiesSize is the byte size of n copies (encoded once to measure: exact, and cheap next to
// the compression that follows).
func copiesSize(enc copyEncoder, n int) int64 {
	var total int64
	var buf []byte
	for k := range n {
		buf = enc(buf[:0], k, n)
		total += int64(len(buf))
	}
	return total
}

type copyReader struct {
	enc  copyEncoder
	k    int
	next int
	buf  []byte
	pos  int
}

func (c *copyReader) Read(p []byte) (int, error) {
	for c.pos == len(c.buf) {
		if c.next == c.k {
			return 0, io.EOF
		}
		c.buf = c.enc(c.buf[:0], c.next, c.k)
		c.next++
		c.pos = 0
	}
	n := copy(p, c.buf[c.pos:])
	c.pos += n
	return n, nil
}

// weightReader yields float16 values around N(0, 0.02): gzip takes them to ~80%, like real
// weights.
type weightReader struct{ r *rand.Rand }

func (w *weightReader) Read(p []byte) (int, error) {
	for i := 0; i+1 < len(p); i += 2 {
		v := uint16(0x2000) + uint16(w.r.IntN(0x800))
		if w.r.IntN(2) == 1 {
			v |= 0x8000
		}
		p[i], p[i+1] = byte(v), byte(v>>8)
	}
	return len(p) &^ 1, nil
}

// npyHeader is a version-1 .npy header for n float16 values, shape (n,).
func npyHeader(n int64) []byte {
	dict := fmt.Sprintf("{'descr': '<f2', 'fortran_order': False, 'shape': (%d,), }", n)
	total := 10 + len(dict) + 1
	pad := (64 - total%64) % 64
	dict += strings.Repeat(" ", pad) + "\n"
	h := append([]byte("\x93NUMPY\x01\x00"), byte(len(dict)), byte(len(dict)>>8))
	return append(h, dict...)
}

// defJSON grows a def.json to about DefJSON bytes with virtual variables (scratch tensors
// placed in the state buffer, as a big model's def.json lists them), ids continuing densely,
// and adds the weights variable.
func (g *gen) defJSON(sg string, orig []byte) ([]byte, error) {
	var def map[string]json.RawMessage
	if err := json.Unmarshal(orig, &def); err != nil {
		return nil, err
	}
	var vars map[string]json.RawMessage
	if err := json.Unmarshal(def["var"], &vars); err != nil {
		return nil, err
	}
	next := len(vars)
	if g.opt.Weights > 0 {
		vars["weights_0_sg0000"] = json.RawMessage(fmt.Sprintf(`{"alignment": 64, "fabric_path": "main", "file_name": %q, "ops": [], "size": %d, "type": "file", "var_id": %d}`,
			strings.TrimPrefix(weightsMember(sg), sg+"/"), g.opt.Weights/2*2, next))
		next++
	}
	rng := rand.New(rand.NewPCG(g.opt.Seed, uint64(len(sg))))
	// A pretty-printed virtual variable is ~275 bytes; 4-space indent, as neuronx-cc writes.
	const perVar = 275
	n := int(max(0, g.opt.DefJSON-int64(len(orig))) / perVar)
	layers := []string{"attn_q", "attn_k", "attn_v", "attn_o", "mlp_gate", "mlp_up", "mlp_down", "rmsnorm", "rope", "softmax"}
	var off int64
	for i := range n {
		size := int64(512 * (1 + rng.IntN(64)))
		name := fmt.Sprintf("layer%d_%s_t%d_sg0000", i/4096, layers[i%len(layers)], i)
		vars[name] = json.RawMessage(fmt.Sprintf(`{"backing_variable_off": %d, "fabric_path": "main", "ops": [], "partition_offset": %d, "size": %d, "type": "virtual", "var_id": %d}`,
			off, (i*32)%128, size, next))
		next++
		off += size
	}
	varJSON, err := json.Marshal(vars)
	if err != nil {
		return nil, err
	}
	def["var"] = varJSON
	out, err := json.MarshalIndent(def, "", "    ")
	return append(out, '\n'), err
}

// klirJSON is an NKI debug-info tree of about size bytes: per logical core, kernel functions
// holding unrolled loop iterations holding instructions, each with its source line.
func klirJSON(size int64, seed uint64) []byte {
	rng := rand.New(rand.NewPCG(seed, 3))
	var b bytes.Buffer
	b.Grow(int(size) + 4096)
	b.WriteString("[\n")
	inst := 0
	for lnc := 0; lnc < 2; lnc++ {
		if lnc > 0 {
			b.WriteString(",\n")
		}
		fmt.Fprintf(&b, ` {"lnc": %d, "info": [`, lnc)
		half := size / 2 * int64(lnc+1)
		for f := 0; int64(b.Len()) < half; f++ {
			if f > 0 {
				b.WriteString(",")
			}
			line := 20 + rng.IntN(400)
			fmt.Fprintf(&b, "\n  {\"func\": {\"name\": \"spike.tests.test_spike_async.matmul_kernel_tile%d\", \"file\": \"/home/ubuntu/workplace/spike-async/nkipy/spike/tests/test_spike_async.py\", \"line\": %d, \"children\": [", f, line)
			for it := 0; it < 8; it++ {
				if it > 0 {
					b.WriteString(",")
				}
				fmt.Fprintf(&b, "\n   {\"iter\": {\"var\": \"k_t\", \"val\": %d, \"line\": %d, \"children\": [", it, line+3)
				for j := 0; j < 24; j++ {
					if j > 0 {
						b.WriteString(",")
					}
					inst++
					fmt.Fprintf(&b, "\n    {\"inst\": {\"name\": \"inst.%d\", \"line\": %d}}", inst, line+4+rng.IntN(12))
				}
				b.WriteString("]}}")
			}
			b.WriteString("]}}")
		}
		b.WriteString("]}")
	}
	b.WriteString("\n]\n")
	return b.Bytes()
}

// MemberCount is how many members a generated NEFF has (the template's, the klir tree and its
// index, and one weights member per subgraph with weights).
func MemberCount(weights bool) (int, error) {
	src, ok := realfiles.Find(Source)
	if !ok {
		return 0, errors.New("bigneff: " + realfiles.Missing(Source))
	}
	orig, err := readMembers(src)
	if err != nil {
		return 0, err
	}
	n := len(orig) + 2
	if weights {
		for _, m := range orig {
			if _, base, _ := strings.Cut(m.path, "/"); base == "def.json" {
				n++
			}
		}
	}
	return n, nil
}
