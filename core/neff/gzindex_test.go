package neff

import (
	"bufio"
	"bytes"
	"compress/flate"
	stdgzip "compress/gzip"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/neffscope/neffscope/core/budget"
	kflate "github.com/neffscope/neffscope/core/neff/internal/inflate"
	"github.com/neffscope/neffscope/core/neff/neffbuild"
	"github.com/neffscope/neffscope/internal/realfiles"
)

// compressible returns n deterministic bytes that deflate about 2:1, so a member of them
// spans many deflate blocks (and checkpoints).
func compressible(seed uint64, n int) []byte {
	r := rand.New(rand.NewPCG(seed, 7))
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(r.IntN(16)) + 'a'
		if i%4096 == 0 { // a repeat now and then, so back-references cross blocks
			copy(b[i:], b[max(0, i-30000):max(0, i-30000)+min(200, n-i)])
		}
	}
	return b
}

// withSpacing makes the index dense for a test.
func withSpacing(t *testing.T, spacing int64, points int) {
	old, oldN := indexSpacing, indexMaxPoints
	indexSpacing, indexMaxPoints = spacing, points
	t.Cleanup(func() { indexSpacing, indexMaxPoints = old, oldN })
}

// fullWalk is what ReadMemberLimit (the walk from the payload's start) gives.
func fullWalk(r io.ReaderAt, size int64, path string, off, n int64) ([]byte, error) {
	var b bytes.Buffer
	err := ReadMemberLimit(r, size, path, off, n, &b, 0)
	return b.Bytes(), err
}

func indexed(a *Archive, r io.ReaderAt, path string, off, n int64) ([]byte, error) {
	var b bytes.Buffer
	err := a.ReadMember(r, path, off, n, &b, 0)
	return b.Bytes(), err
}

// sameAsWalk checks that the index read of [off, off+n) gives what the full walk gives: the
// same bytes, or an error when the walk errs.
func sameAsWalk(t *testing.T, a *Archive, r io.ReaderAt, path string, off, n int64) {
	t.Helper()
	want, werr := fullWalk(r, a.FileSize, path, off, n)
	got, gerr := indexed(a, r, path, off, n)
	switch {
	case werr != nil && gerr == nil:
		t.Fatalf("%s [%d,+%d): the full walk fails (%v), the index read gives %d bytes", path, off, n, werr, len(got))
	case werr == nil && gerr != nil:
		t.Fatalf("%s [%d,+%d): the index read fails: %v", path, off, n, gerr)
	case werr == nil && !bytes.Equal(got, want):
		t.Fatalf("%s [%d,+%d): the index read gives %d bytes differing from the full walk's %d", path, off, n, len(got), len(want))
	}
}

func TestReadMemberIndexRealFiles(t *testing.T) {
	withSpacing(t, 64<<10, 256) // real files are small: make checkpoints inside them
	files := realfiles.NEFFs(t)
	if realfiles.SharedDir() == "" {
		t.Logf("only testdata/real/ here: ../shared/testdata-real/ is absent, so %d file(s) checked", len(files))
	}
	for _, p := range files {
		t.Run(filepath.Base(p), func(t *testing.T) {
			b, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			r := bytes.NewReader(b)
			a := Open(r, int64(len(b)), Options{})
			n, _ := a.Checkpoints()
			t.Logf("%d members, %d tar bytes, %d checkpoints", len(a.Members), a.Payload.TarLength, n)
			rng := rand.New(rand.NewPCG(1, 2))
			for _, m := range a.Members {
				sameAsWalk(t, a, r, m.Path, 0, -1)
				if m.Size > 0 {
					off := rng.Int64N(m.Size)
					sameAsWalk(t, a, r, m.Path, off, rng.Int64N(m.Size-off+10))
				}
			}
		})
	}
}

// indexSample is a NEFF whose members span many checkpoints at a 256 KiB spacing.
func indexSample(t testing.TB) ([]byte, []neffbuild.Member) {
	ms := []neffbuild.Member{
		{Path: "neff.json", Data: []byte(`{"a":1}`)},
		{Path: "sg00/PE.bin", Data: compressible(1, 6<<20+123)},
		{Path: "sg00/small.bin", Data: compressible(2, 1000)},
		{Path: "sg00/ACT.bin", Data: compressible(3, 5<<20)},
		{Path: "sg00/empty.bin", Data: nil},
		{Path: "sg00/SP.bin", Data: compressible(4, 3<<20+7)},
	}
	return neffbuild.Bytes(ms, neffbuild.Options{}), ms
}

func TestReadMemberIndexSynthetic(t *testing.T) {
	withSpacing(t, 256<<10, 16) // 14 MiB of tar: the index thins twice
	b, ms := indexSample(t)
	r := bytes.NewReader(b)
	bud := budget.New(budget.Limits{})
	a := Open(r, int64(len(b)), Options{Budget: bud})
	if !a.Complete {
		t.Fatalf("open incomplete: %v", a.Findings)
	}
	n, held := a.Checkpoints()
	if n < 8 || n > 16 {
		t.Fatalf("%d checkpoints; want 8..16 after thinning", n)
	}
	if a.index.spacing != 1<<20 {
		t.Errorf("spacing %d after thinning; want 1 MiB", a.index.spacing)
	}
	if a.index.held != held-64 { // the first point (no window) is not charged
		t.Errorf("index charged %d to the budget, holds %d", a.index.held, held)
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for _, m := range ms {
		got, err := indexed(a, r, m.Path, 0, -1)
		if err != nil || !bytes.Equal(got, m.Data) {
			t.Fatalf("%s whole: %v (%d bytes of %d)", m.Path, err, len(got), len(m.Data))
		}
		for range 20 {
			if len(m.Data) == 0 {
				break
			}
			off := rng.Int64N(int64(len(m.Data)))
			k := rng.Int64N(1 << 20)
			got, err := indexed(a, r, m.Path, off, k)
			want := m.Data[off:min(int64(len(m.Data)), off+k)]
			if err != nil || !bytes.Equal(got, want) {
				t.Fatalf("%s [%d,+%d): %v", m.Path, off, k, err)
			}
		}
	}
	// Past the end, negative offsets, an absent member: as the full walk.
	sameAsWalk(t, a, r, "sg00/SP.bin", 3<<20+7, 10)
	sameAsWalk(t, a, r, "sg00/SP.bin", -5, 100)
	sameAsWalk(t, a, r, "nope.bin", 0, 10)
}

// A deep read inflates about one spacing plus the bytes asked (and up to one more spacing past
// them, to the checkpoint whose CRC-32 checks the stretch), not the tar before them.
func TestReadMemberIndexInflatesLittle(t *testing.T) {
	withSpacing(t, 512<<10, 256)
	b, _ := indexSample(t)
	r := bytes.NewReader(b)
	a := Open(r, int64(len(b)), Options{})
	var inflated int64
	readInflated = func(n int64) { inflated += n }
	defer func() { readInflated = nil }()
	m := a.Member("sg00/SP.bin")
	got, err := indexed(a, r, m.Path, 2<<20, 256<<10)
	if err != nil || len(got) != 256<<10 {
		t.Fatal(err, len(got))
	}
	const slack = 128 << 10 // a checkpoint is at the first block end past the spacing
	if limit := 2*(indexSpacing+slack) + 256<<10; inflated > limit {
		t.Errorf("inflated %d bytes for 256 KiB at tar byte %d; want at most %d", inflated, m.DataOffset+2<<20, limit)
	}
	t.Logf("read 256 KiB at tar byte %d: %d bytes inflated (spacing %d)", m.DataOffset+2<<20, inflated, indexSpacing)
}

// Damaged payloads: the index read gives the full walk's bytes, or fails where it fails.
func TestReadMemberIndexDamaged(t *testing.T) {
	withSpacing(t, 256<<10, 256)
	b, ms := indexSample(t)
	cases := map[string][]byte{}
	ats := []float64{0.3, 0.6, 0.9}
	if testing.Short() { // one place of damage (-short, the wasm runner); all three natively
		ats = ats[1:2]
	}
	for _, at := range ats {
		c := bytes.Clone(b)
		i := HeaderSize + int(float64(len(b)-HeaderSize)*at)
		for k := range 16 {
			c[i+k] ^= 0x5a
		}
		cases[fmt.Sprintf("corrupt at %.0f%%", at*100)] = c
		cases[fmt.Sprintf("cut at %.0f%%", at*100)] = b[:i]
	}
	c := bytes.Clone(b)
	end := HeaderSize + 10 // find the trailer: the last 8 bytes before the zero padding
	for i := len(c) - 1; i > HeaderSize; i-- {
		if c[i] != 0 {
			end = i - 7
			break
		}
	}
	c[end] ^= 1 // the CRC-32
	cases["bad CRC"] = c
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			r := bytes.NewReader(c)
			a := Open(r, int64(len(c)), Options{})
			if a.Complete {
				t.Fatalf("a damaged payload opened complete")
			}
			for _, m := range ms {
				sameAsWalk(t, a, r, m.Path, 0, -1)
				sameAsWalk(t, a, r, m.Path, int64(len(m.Data))/2, 300<<10)
			}
		})
	}
}

// The file read back differs from the one opened: the index read fails, or gives the bytes the
// open read (the stretches it inflates are checked against the CRC-32 the open saw); never
// other bytes, silently.
func TestReadMemberIndexFileChanged(t *testing.T) {
	withSpacing(t, 256<<10, 256)
	b, ms := indexSample(t)
	a := Open(bytes.NewReader(b), int64(len(b)), Options{})
	if !a.Complete || !a.index.ended {
		t.Fatal("the sample should open whole")
	}
	rng := rand.New(rand.NewPCG(5, 6))
	failed, same := 0, 0
	for try := range 24 {
		c := bytes.Clone(b)
		i := HeaderSize + 20 + rng.IntN(len(b)-HeaderSize-20)
		for k := range 1 + try%4 { // 1..4 bytes changed
			if i+k < len(c) {
				c[i+k] ^= byte(1 + rng.IntN(255))
			}
		}
		r := bytes.NewReader(c)
		for _, m := range ms {
			for _, win := range [][2]int64{{0, -1}, {int64(len(m.Data)) / 3, 100 << 10}} {
				got, err := indexed(a, r, m.Path, win[0], win[1])
				want := m.Data[min(win[0], int64(len(m.Data))):]
				if win[1] >= 0 {
					want = want[:min(int64(len(want)), win[1])]
				}
				switch {
				case err != nil:
					failed++
				case !bytes.Equal(got, want):
					t.Fatalf("change at payload byte %d: %s [%d,+%d) read back wrong, without an error", i-HeaderSize, m.Path, win[0], win[1])
				default:
					same++
				}
			}
		}
	}
	t.Logf("%d reads failed, %d gave the bytes opened", failed, same)
}

// The CRC-32 at each checkpoint is that of the tar before it.
func TestCheckpointCRCs(t *testing.T) {
	withSpacing(t, 256<<10, 16)
	b, _ := indexSample(t)
	a := Open(bytes.NewReader(b), int64(len(b)), Options{})
	var tar bytes.Buffer
	zr, err := stdgzipReader(b[HeaderSize:])
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(&tar, zr)
	for _, p := range a.index.points {
		if !p.crcOK || p.crc != crc32.ChecksumIEEE(tar.Bytes()[:p.out]) {
			t.Fatalf("checkpoint at %d: crc %08x (set %v), want %08x", p.out, p.crc, p.crcOK, crc32.ChecksumIEEE(tar.Bytes()[:p.out]))
		}
	}
	if !a.index.ended || a.index.end != int64(tar.Len()) || a.index.endCRC != crc32.ChecksumIEEE(tar.Bytes()) {
		t.Fatalf("end %d crc %08x; want %d", a.index.end, a.index.endCRC, tar.Len())
	}
}

func stdgzipReader(b []byte) (io.Reader, error) {
	z, err := stdgzip.NewReader(bytes.NewReader(b))
	if err != nil {
		return nil, err
	}
	z.Multistream(false)
	return z, nil
}

// A plain-tar payload is read in place.
func TestReadMemberPlainTar(t *testing.T) {
	ms := neffbuild.Sample()
	b := neffbuild.Bytes(ms, neffbuild.Options{Plain: true, PkgVersion: 1})
	r := bytes.NewReader(b)
	a := Open(r, int64(len(b)), Options{})
	if a.Payload.Encoding != "tar" {
		t.Fatal(a.Payload.Encoding)
	}
	for _, m := range a.Members {
		sameAsWalk(t, a, r, m.Path, 0, -1)
		sameAsWalk(t, a, r, m.Path, 3, 10)
	}
}

// The open's gzip reader keeps compress/gzip's findings: a bad header, a cut trailer.
func TestGzipReaderErrors(t *testing.T) {
	if _, err := newGzipReader(bufioOf([]byte{0x1f, 0x8b, 9, 0, 0, 0, 0, 0, 0, 0}), nil); !errors.Is(err, errGzipHeader) {
		t.Errorf("method 9: %v", err)
	}
	if _, err := newGzipReader(bufioOf([]byte{0x1f, 0x8b, 8, 1 << 5, 0, 0, 0, 0, 0, 0}), nil); !errors.Is(err, errGzipHeader) {
		t.Errorf("reserved flag: %v", err)
	}
	if _, err := newGzipReader(bufioOf([]byte{0x1f, 0x8b, 8, 0}), nil); !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Errorf("short header: %v", err)
	}
}

// FuzzResume: every checkpoint the inflater reports resumes to the bytes compress/flate gives
// from that offset on, whatever the deflate stream's blocks (sizes, stored, fixed, dynamic,
// flushes at odd bit positions).
func FuzzResume(f *testing.F) {
	for _, s := range resumeSeeds() {
		f.Add(s.data, s.level, s.flushEvery)
	}
	var st resumeState
	f.Fuzz(func(t *testing.T, data []byte, level uint8, flushEvery uint16) {
		st.check(t, data, level, flushEvery)
	})
}

// BenchmarkFuzzResume runs FuzzResume's body on its seeds: where a fuzz run's time goes.
func BenchmarkFuzzResume(b *testing.B) {
	seeds := resumeSeeds()
	var st resumeState
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		s := seeds[i%len(seeds)]
		st.check(b, s.data, s.level, s.flushEvery)
	}
}

type resumeSeed struct {
	data       []byte
	level      uint8
	flushEvery uint16
}

func resumeSeeds() []resumeSeed {
	return []resumeSeed{
		{[]byte("hello, hello, hello world"), 1, 7},
		{compressible(9, 16<<10), 6, 1000},
		{compressible(10, 10<<10), 0, 300},
		{bytes.Repeat([]byte{0}, 16<<10), 9, 4000},
		{compressible(11, 12<<10), 10, 13}, // HuffmanOnly
	}
}

// resumeState is what FuzzResume's runs share: a compress/flate writer per level (a new one
// costs ~1 MB), Reset for each run, and an inflater.
type resumeState struct {
	writers map[int]*flate.Writer
	z, out  bytes.Buffer
	in      bytes.Reader
	fl      io.ReadCloser // the inflater, Reset for each inflate and resume
	cps     []kflate.InflateCheckpoint
	windows [][]byte
	err     error
}

func (st *resumeState) check(t testing.TB, data []byte, level uint8, flushEvery uint16) {
	lv := int(level%11) - 1 // -1 (default) .. 9; 10 → HuffmanOnly below
	if level%11 == 10 {
		lv = flate.HuffmanOnly
	}
	if st.writers == nil {
		st.writers = map[int]*flate.Writer{}
	}
	z := &st.z
	z.Reset()
	w := st.writers[lv]
	if w == nil {
		var err error
		if w, err = flate.NewWriter(z, lv); err != nil {
			t.Skip()
		}
		st.writers[lv] = w
	}
	w.Reset(z)
	// At most ~32 flushes (every third write) and 8 KiB: every run compresses, inflates,
	// and resumes, so its time is the input's size times the inflates. Resumes with a full 32 KiB
	// window are TestReadMemberIndexRealFiles and -Synthetic's, on NEFFs of many MB.
	if len(data) > 8<<10 {
		data = data[:8<<10]
	}
	step := max(int(flushEvery%8192)+1, len(data)/96)
	for i := 0; i < len(data); i += step {
		w.Write(data[i:min(len(data), i+step)])
		if (i/step)%3 == 0 {
			w.Flush() // an empty stored block: a byte-aligned boundary
		}
	}
	w.Close()
	// The checkpoints numbered 0, 1, 2, 4, 8, …: early and late ones, each window copied
	// only for those kept (into buffers the runs share).
	st.cps = st.cps[:0]
	seen := 0
	keep := func(cp kflate.InflateCheckpoint) {
		if !cp.Final {
			if seen&(seen-1) == 0 {
				k := len(st.cps)
				if k == len(st.windows) {
					st.windows = append(st.windows, nil)
				}
				st.windows[k] = append(st.windows[k][:0], cp.Window...)
				cp.Window = st.windows[k]
				st.cps = append(st.cps, cp)
			}
			seen++
		}
	}
	st.in.Reset(z.Bytes())
	if st.fl == nil {
		st.fl = kflate.NewReaderOpts(&st.in, kflate.WithEobCallback(keep))
	} else {
		st.fl.(kflate.Resetter).Reset(&st.in, kflate.WithEobCallback(keep))
	}
	if !st.inflated(data) {
		t.Fatalf("inflate: %v", st.err)
	}
	if len(st.cps) == 0 {
		return
	}
	// One resume per run, at a kept checkpoint the input picks (a run's time is about its
	// inflates; every resume inflating the rest made a run cost ~7 inflates): it inflates the
	// rest.
	cp := st.cps[(int(flushEvery>>13)+len(data))%len(st.cps)]
	st.in.Reset(z.Bytes()[cp.CompressedOffset:])
	st.fl.(kflate.Resetter).Reset(&st.in, kflate.WithResumeFrom(cp))
	if !st.inflated(data[cp.UncompressedOffset:]) {
		t.Fatalf("resume at %d (compressed %d bit %d): %v", cp.UncompressedOffset, cp.CompressedOffset, cp.BitOffset, st.err)
	}
}

// inflated says whether st.fl inflates to want, without error.
func (st *resumeState) inflated(want []byte) bool {
	st.out.Reset()
	_, st.err = st.out.ReadFrom(st.fl)
	return st.err == nil && bytes.Equal(st.out.Bytes(), want)
}

func bufioOf(b []byte) *bufio.Reader { return bufio.NewReader(bytes.NewReader(b)) }
