package neffbuild

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"crypto/md5"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// Hostile is one class of crafted NEFF that is valid (or nearly) yet tries to cost unbounded
// memory or time, or to forge terminal output. Build makes the file in memory; sizes are
// picked so a file stays a few MB at most.
type Hostile struct {
	Name string
	What string
	// Build makes the NEFF; scale 1 is the size that first showed the cost, smaller scales
	// (tests) shrink the counts.
	Build func(scale float64) []byte
}

// repeat is a reader of n bytes repeating pattern.
type repeat struct {
	pattern []byte
	n, pos  int64
}

func (r *repeat) Read(p []byte) (int, error) {
	if r.pos >= r.n {
		return 0, io.EOF
	}
	// The first pattern's length byte by byte, then doubled by copying what is written (a
	// byte at a time, the GiB-sized classes took seconds to build).
	k := int(min(int64(len(p)), r.n-r.pos))
	l := len(r.pattern)
	for i := range min(k, l) {
		p[i] = r.pattern[(r.pos+int64(i))%int64(l)]
	}
	for w := l; w < k; w *= 2 { // p[:w] repeats with period l, w a multiple of l
		copy(p[w:k], p[:w])
	}
	r.pos += int64(k)
	return k, nil
}

// jsonArray is a member holding "[0,0,…,0]" of n values, streamed.
func jsonArray(path string, n int64) Member {
	body := &repeat{pattern: []byte("0,"), n: 2*n - 1}
	return Member{Path: path, Reader: io.MultiReader(strings.NewReader("["), body, strings.NewReader("0]")), Size: 2*n + 2}
}

func scaled(n int64, s float64) int64 { return max(1, int64(float64(n)*s)) }

// HostileClasses lists every class: sizes past what a file should cost, floods of tar
// entries, floods of manifest references, decoders' budgets, and the sync and memory model's
// work (schedhostile.go).
func HostileClasses() []Hostile {
	var all []Hostile
	for _, group := range [][]Hostile{sizeClasses(), entryClasses(), manifestClasses(), decoderClasses(), schedClasses()} {
		all = append(all, group...)
	}
	return all
}

// sizeClasses cost memory or time by their size: many members, JSON values by the million,
// declared and inflated sizes, blobs; and one forges terminal output.
func sizeClasses() []Hostile {
	return []Hostile{
		{"many-members", "200,000 one-byte members (D3)", func(s float64) []byte {
			n := scaled(200_000, s)
			ms := make([]Member, n)
			for i := range ms {
				ms[i] = Member{Path: "m/" + strconv.FormatInt(int64(i), 36), Data: []byte{'x'}}
			}
			// gzip level 1, as neuronx-cc writes: the best level spent 16 times as long
			// (10 CPU-s) on the near-identical tar headers for a 1.8 MB file instead of 2.8 MB;
			// the class is about the member count, not the ratio.
			return Bytes(ms, Options{GzipLevel: gzip.BestSpeed})
		}},
		{"json-many", "50 JSON members of 200,000 values each (D1)", func(s float64) []byte {
			var ms []Member
			for i := range 50 {
				ms = append(ms, jsonArray(fmt.Sprintf("sg00/j%02d.json", i), scaled(200_000, s)))
			}
			return bytesOf(ms)
		}},
		{"json-wide", "one 60 MiB [0,0,…] JSON member (D1)", func(s float64) []byte {
			return bytesOf([]Member{jsonArray("neff.json", scaled(30<<20, s))})
		}},
		{"json-deep", "JSON nested a million levels (D10)", func(s float64) []byte {
			n := int(scaled(1_000_000, s))
			return bytesOf([]Member{{Path: "deep.json", Data: []byte(strings.Repeat("[", n) + strings.Repeat("]", n))}})
		}},
		{"json-dupkeys", "an object whose keys repeat (D8)", func(s float64) []byte {
			var b strings.Builder
			b.WriteString("{")
			for i := range scaled(1000, s) {
				if i > 0 {
					b.WriteString(",")
				}
				b.WriteString(`"k":` + strconv.FormatInt(i, 10))
			}
			b.WriteString("}")
			return bytesOf([]Member{{Path: "dup.json", Data: []byte(b.String())}})
		}},
		{"huge-declared", "a member declaring 2^40 bytes in a complete gzip stream (D7)", func(float64) []byte {
			return WrapTar(rawTar(tarEntry{name: "big.bin", size: 1 << 40, data: []byte("only this")}))
		}},
		{"bad-pax", "a pax header whose size record is not a number (D8)", func(float64) []byte {
			pax := paxRecord("size", "12x") + paxRecord("path", "p.bin")
			return WrapTar(rawTar(tarEntry{name: "PaxHeaders/p", typeflag: 'x', size: int64(len(pax)), data: []byte(pax)}, tarEntry{name: "p.bin", size: 3, data: []byte("abc")}))
		}},
		{"bomb", "a member inflating to 1 GiB of zeros (limits)", func(s float64) []byte {
			n := scaled(1<<30, s)
			return Bytes([]Member{{Path: "zeros.bin", Reader: &repeat{pattern: []byte{0}, n: n}, Size: n}}, Options{GzipLevel: gzip.BestCompression})
		}},
		{"escapes", "member and model names carrying ESC/OSC/BEL and a forged line (D6)", func(float64) []byte {
			return Bytes([]Member{
				{Path: "\x1b]0;pwned\x07title.json", Data: []byte(`{"name": "\u001b[2J\rall checks passed"}`)},
				{Path: "x\r\x1b[2Kall checks passed\n.bin", Data: []byte("x")},
				{Path: "\x1b[31mred\x1b[0m", Data: []byte("y")},
			}, Options{Name: "net\x1b]2;evil\x07"})
		}},
		{"blob-flood", "40 activation blobs of 60 MiB zeros (D4)", func(s float64) []byte {
			var ms []Member
			n := scaled(60<<20, s)
			for i := range 40 {
				ms = append(ms, Member{Path: fmt.Sprintf("sg00/act_%02d_bkt.bin", i), Reader: &repeat{pattern: []byte{0}, n: n}, Size: n})
			}
			return Bytes(ms, Options{GzipLevel: gzip.BestCompression})
		}},
	}
}

// entryClasses are deep member paths and floods of tar entries that each carry a problem.
func entryClasses() []Hostile {
	return []Hostile{
		{"deep-longname", "one member named sg00/ + d/ ×30,000 (a GNU long name)", func(s float64) []byte {
			name := "sg00/" + strings.Repeat("d/", int(scaled(30_000, s))) + "x.bin"
			return WrapTar(rawTar(tarEntry{name: "././@LongLink", typeflag: 'L', size: int64(len(name) + 1), data: []byte(name + "\x00")},
				tarEntry{name: "x.bin", size: 3, data: []byte("abc")}))
		}},
		{"deep-pax", "one member whose pax path has 500,000 levels", func(s float64) []byte {
			pax := paxRecord("path", strings.Repeat("d/", int(scaled(500_000, s)))+"x.bin")
			return WrapTar(rawTar(tarEntry{name: "PaxHeaders/x", typeflag: 'x', size: int64(len(pax)), data: []byte(pax)},
				tarEntry{name: "x.bin", size: 3, data: []byte("abc")}))
		}},
		{"symlink-flood", "1,000,000 tar symlink entries", func(s float64) []byte {
			return streamTar(func(emit func(tarEntry)) {
				for i := range scaled(1_000_000, s) {
					emit(tarEntry{name: "l/" + strconv.FormatInt(i, 36), typeflag: '2'})
				}
			})
		}},
		{"zero-block-flood", "500,000 lone zero blocks, each followed by a directory entry", func(s float64) []byte {
			return streamTar(func(emit func(tarEntry)) {
				for i := range scaled(500_000, s) {
					emit(tarEntry{zeroBefore: true, name: "d" + strconv.FormatInt(i, 36) + "/", typeflag: '5'})
				}
			})
		}},
		{"pax-flood", "500,000 malformed pax headers, each before a directory entry", func(s float64) []byte {
			return streamTar(func(emit func(tarEntry)) {
				bad := []byte("7 bad\n\x00")
				for i := range scaled(500_000, s) {
					emit(tarEntry{name: "PaxHeaders/p", typeflag: 'x', size: int64(len(bad)), data: bad})
					emit(tarEntry{name: "d" + strconv.FormatInt(i, 36) + "/", typeflag: '5'})
				}
			})
		}},
	}
}

// manifestClasses are manifests naming floods of members that are not there, or of cores.
func manifestClasses() []Hostile {
	return []Hostile{
		{"act-missing", "100,000 activation sets whose members are all missing", func(s float64) []byte {
			n := scaled(100_000, s)
			var b strings.Builder
			b.WriteString(`{"act_info": "act_info.json", "act_semaphore": 12, "dma": [], "instr": "Activation.bin", "name": "Activation.json", "activation_function_sets": [`)
			for i := range n {
				if i > 0 {
					b.WriteByte(',')
				}
				b.WriteString(`"s` + strconv.FormatInt(i, 36) + `"`)
			}
			b.WriteString("]}")
			return bytesOf(replaceSample(map[string]string{"sg00/Activation.json": b.String()}))
		}},
		{"def-missing", "a kelf naming 200,000 def.json members that are not there", func(s float64) []byte {
			return bytesOf(replaceSample(map[string]string{"kelf-0.json": kelfOf(scaled(200_000, s), "nodef")}))
		}},
		{"many-cores", "20,000 cores, each a one-line def.json", func(s float64) []byte {
			n := scaled(20_000, s)
			ms := replaceSample(map[string]string{"kelf-0.json": kelfOf(n, "sg")})
			for i := range n {
				ms = append(ms, Member{Path: "sg" + strconv.FormatInt(i, 10) + "/def.json", Data: []byte(`{"var": {}}`)})
			}
			return bytesOf(ms)
		}},
	}
}

// decoderClasses cost a decoder what its budget must bound: .dbg members and an engine stream.
func decoderClasses() []Hostile {
	return []Hostile{
		{"dbg-wiretype", "a .dbg member of 4 M fields of the wrong wire type", func(s float64) []byte {
			n := scaled(4_000_000, s)
			// field 3 (a word record, a message) written as a varint: tag 0x18, value 0
			return withSample(Member{Path: "sg00/debug_info_asm_PE.dbg", Reader: &repeat{pattern: []byte{0x18, 0x00}, n: 2 * n}, Size: 2 * n})
		}},
		{"dbg-kernel-paths", "a backend .dbg member naming 1 M distinct kernel files", func(s float64) []byte {
			n := scaled(1_000_000, s)
			item := func(i int64, b []byte) []byte { // field 5: "/kernels/<39 x>/k0000000.py"
				b = append(b, 0x2a, 60)
				b = append(b, "/kernels/"+strings.Repeat("x", 39)...)
				return fmt.Appendf(b, "/k%07d.py", i)
			}
			return withSample(Member{Path: "sg00/debug_info_backend_PE.dbg", Reader: &items{n: n, item: item}, Size: n * 62})
		}},
		{"dbg-attrs", "a backend .dbg member of 2 M records with distinct kernel lines", func(s float64) []byte {
			n := min(scaled(2_000_000, s), 2_000_000)
			item := func(i int64, b []byte) []byte {
				id := 1<<14 + i // a 3-byte varint
				b = append(b, 0x1a, 28, 0x08, byte(id)|0x80, byte(id>>7)|0x80, byte(id>>14))
				b = append(b, 0x3a, 22, 0x0a, 11)
				b = append(b, "kernel_line"...)
				b = append(b, 0x12, 7)
				return fmt.Appendf(b, "%07d", i+1)
			}
			return withSample(Member{Path: "sg00/debug_info_backend_PE.dbg", Reader: &items{n: n, item: item}, Size: n * 30})
		}},
		{"table-loads", "an Activation stream of 1 M ActivationTableLoad (0x23) words; scale 32 is 2 GiB", func(s float64) []byte {
			n := scaled(1<<20, s)
			w := make([]byte, 64)
			w[0], w[1] = 0x23, 0x10
			return withSample(Member{Path: "sg00/Activation.bin", Reader: &repeat{pattern: w, n: 64 * n}, Size: 64 * n})
		}},
	}
}

// kelfOf is a KELF descriptor whose graphs name n def.json members, <dir><i>/def.json.
func kelfOf(n int64, dir string) string {
	var b strings.Builder
	b.WriteString(`{"version": "0.5", "target": "sunda", "graphs": [`)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		d := dir + strconv.FormatInt(i, 10)
		b.WriteString(`{"definition": "` + d + `/def.json", "name": "` + d + `"}`)
	}
	b.WriteString("]}")
	return b.String()
}

// replaceSample is Sample with the given members' contents replaced.
func replaceSample(with map[string]string) []Member {
	ms := Sample()
	for i, m := range ms {
		if t, ok := with[m.Path]; ok {
			ms[i].Data = []byte(t)
		}
	}
	return ms
}

// streamTar is WrapTar of the entries gen emits, written as they come (a flood of entries is
// hundreds of MB of tar that never exists whole).
func streamTar(gen func(emit func(tarEntry))) []byte {
	var payload bytes.Buffer
	gz, _ := gzip.NewWriterLevel(&payload, gzip.BestSpeed)
	bw := bufio.NewWriterSize(gz, 1<<16)
	gen(func(e tarEntry) { writeEntry(bw, e) })
	bw.Write(make([]byte, 1024))
	bw.Flush()
	gz.Close()
	return wrapPayload(&payload)
}

// withSample is the Sample NEFF with m added, or in place of the sample's member of its path.
func withSample(m Member) []byte {
	var ms []Member
	for _, x := range Sample() {
		if x.Path != m.Path {
			ms = append(ms, x)
		}
	}
	return bytesOf(append(ms, m))
}

// items is a reader of n items, item i written by item (each the same size).
type items struct {
	n, i int64
	item func(i int64, b []byte) []byte
	buf  []byte
}

func (r *items) Read(p []byte) (int, error) {
	k := 0
	for k < len(p) {
		if len(r.buf) == 0 {
			if r.i >= r.n {
				break
			}
			r.buf = r.item(r.i, r.buf[:0])
			r.i++
		}
		c := copy(p[k:], r.buf)
		k += c
		r.buf = r.buf[c:]
	}
	if k == 0 {
		return 0, io.EOF
	}
	return k, nil
}

func bytesOf(ms []Member) []byte { return Bytes(ms, Options{GzipLevel: gzip.BestCompression}) }

type tarEntry struct {
	name     string
	typeflag byte
	size     int64 // declared
	data     []byte
	// zeroBefore writes a lone zero block before the header.
	zeroBefore bool
}

// rawTar writes entries whose headers say what the test wants (archive/tar refuses to write
// a size that disagrees with the data), then the end-of-archive blocks.
func rawTar(es ...tarEntry) []byte {
	var b bytes.Buffer
	for _, e := range es {
		writeEntry(&b, e)
	}
	b.Write(make([]byte, 1024))
	return b.Bytes()
}

// writeEntry writes one entry: its header block (after a zero block when zeroBefore), its
// data and the fill to the next block.
func writeEntry(b io.Writer, e tarEntry) {
	if e.zeroBefore {
		b.Write(make([]byte, 512))
	}
	h := make([]byte, 512)
	copy(h, e.name)
	copy(h[100:], "0000664\x00")
	copy(h[108:], "0000000\x00")
	copy(h[116:], "0000000\x00")
	if e.size < 1<<33 {
		copy(h[124:], fmt.Sprintf("%011o\x00", e.size))
	} else { // GNU base-256
		h[124] = 0x80
		for i, v := 135, e.size; i > 124; i, v = i-1, v>>8 {
			h[i] = byte(v)
		}
	}
	copy(h[136:], "00000000000\x00")
	tf := e.typeflag
	if tf == 0 {
		tf = '0'
	}
	h[156] = tf
	copy(h[257:], "ustar\x0000")
	for i := 148; i < 156; i++ {
		h[i] = ' '
	}
	var sum int64
	for _, c := range h {
		sum += int64(c)
	}
	copy(h[148:], fmt.Sprintf("%06o\x00 ", sum))
	b.Write(h)
	b.Write(e.data)
	if r := len(e.data) % 512; r != 0 {
		b.Write(make([]byte, 512-r))
	}
}

func paxRecord(k, v string) string {
	rec := " " + k + "=" + v + "\n"
	n := len(rec)
	for {
		s := strconv.Itoa(n) + rec
		if len(s) == n {
			return s
		}
		n = len(s)
	}
}

// WrapTar gzips a raw tar and puts it in a NEFF with a correct header and MD5.
func WrapTar(tarBytes []byte) []byte {
	var payload bytes.Buffer
	gz, _ := gzip.NewWriterLevel(&payload, gzip.BestSpeed)
	gz.Write(tarBytes)
	gz.Close()
	return wrapPayload(&payload)
}

// wrapPayload pads a gzip'd tar and puts it after a NEFF header with its MD5.
func wrapPayload(payload *bytes.Buffer) []byte {
	if r := payload.Len() % 10240; r != 0 {
		payload.Write(make([]byte, 10240-r))
	}
	sum := md5.Sum(payload.Bytes())
	return append(Header(int64(payload.Len()), sum[:], Options{}), payload.Bytes()...)
}
