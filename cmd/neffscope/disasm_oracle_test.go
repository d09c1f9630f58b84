package main

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/neffscope/neffscope/core/budget"
	"github.com/neffscope/neffscope/core/doc"
	"github.com/neffscope/neffscope/core/inspect"
	"github.com/neffscope/neffscope/core/isa"
	"github.com/neffscope/neffscope/internal/bigneff"

	"github.com/neffscope/neffscope/internal/realfiles"
)

// The fast `disasm --json` encoder (disasmjson.go) is held byte for byte to the writer it
// replaced, kept here as the oracle: json.Marshal of instJSON per word, through the jsonEscaper
// the CLI's other JSON goes through (jsonStdout).

func oracleDisasmJSON(w io.Writer, f *inspect.File, picked []*inspect.ProgramStream) error {
	tw := &jsonEscaper{w: w}
	defer tw.Flush()
	bw := &errWriter{w: tw}
	bw.str("{\n \"streams\": [")
	for k, s := range picked {
		if k > 0 {
			bw.str(",")
		}
		count := 0
		if s.ISA != nil {
			count = s.ISA.Len()
		}
		head, _ := json.Marshal(struct {
			Subgraph string `json:"subgraph"`
			Engine   string `json:"engine"`
			Member   string `json:"member"`
			Count    int    `json:"count"`
		}{s.Core.Name, s.Engine.Name, s.Member, count})
		bw.str("\n  ")
		bw.write(head[:len(head)-1])
		bw.str(",\"instructions\": [")
		if s.ISA != nil {
			for i, in := range s.ISA.All() {
				ij := instJSON{Index: i, Offset: in.Offset, Opcode: in.Opcode, Name: in.Name, Fields: in.FieldMap(), Source: wordSource(f.Program, s, i)}
				r := f.Program.Resolve(s, i, s.ISA.Word(i))
				switch isa.JoinOf(in.Opcode) {
				case isa.JoinActivation:
					ij.Activation = &actJSON{Set: r.Set, Function: r.Function}
				case isa.JoinDMA:
					ij.DMA = &dmaJSON{Queue: r.Queue, Block: r.Block, Src: r.Src, Dst: r.Dst}
				}
				ij.Layout = in.Layout()
				if in.PartOf >= 0 {
					ij.PartOf = &in.PartOf
				}
				b, err := json.Marshal(ij)
				if err != nil {
					return err
				}
				if i > 0 {
					bw.str(",")
				}
				bw.str("\n   ")
				bw.write(b)
			}
		}
		bw.str("]}")
	}
	bw.str("\n ]\n}\n")
	return bw.err
}

// checkAgainstOracle compares the two writers on picked streams of f; it returns the fast
// writer's output when keep is set (the oracle's goes to a file, and the fast one is compared
// with it as it is written, so a listing of hundreds of MB is not held twice).
func checkAgainstOracle(t *testing.T, f *inspect.File, picked []*inspect.ProgramStream, keep bool) (int64, []byte) {
	return checkAgainstOracleFrom(t, f, archives[f], picked, keep)
}

// archives are the files openForTest opened, by their open.
var archives = map[*inspect.File]io.ReaderAt{}

func checkAgainstOracleFrom(t *testing.T, f *inspect.File, archive io.ReaderAt, picked []*inspect.ProgramStream, keep bool) (int64, []byte) {
	t.Helper()
	return compareWriters(t,
		func(w io.Writer) error { return oracleDisasmJSON(w, f, picked) },
		func(w io.Writer) error { return writeDisasmJSON(w, f, archive, picked) }, keep)
}

// checkTextAgainstOracle is checkAgainstOracle for the text listing.
func checkTextAgainstOracle(t *testing.T, f *inspect.File, picked []*inspect.ProgramStream) {
	t.Helper()
	compareWriters(t,
		func(w io.Writer) error { return oracleDisasmText(w, f, picked) },
		func(w io.Writer) error {
			tw := &termWriter{w: w}
			defer tw.Flush()
			return writeDisasmText(tw, f, archives[f], picked)
		}, false)
}

func compareWriters(t *testing.T, oracle, fast func(io.Writer) error, keep bool) (int64, []byte) {
	t.Helper()
	ref, err := os.Create(filepath.Join(t.TempDir(), "oracle.out"))
	if err != nil {
		t.Fatal(err)
	}
	defer ref.Close()
	if err := oracle(ref); err != nil {
		t.Fatal(err)
	}
	if _, err := ref.Seek(0, io.SeekStart); err != nil {
		t.Fatal(err)
	}
	cw := &compareWriter{ref: ref, keep: keep}
	if err := fast(cw); err != nil && cw.diff == "" {
		t.Fatal(err)
	}
	if cw.diff == "" {
		if n, _ := ref.Read(make([]byte, 1)); n > 0 {
			cw.diff = "the fast output ends at byte " + strconv.FormatInt(cw.n, 10) + ", the oracle's goes on"
		}
	}
	if cw.diff != "" {
		t.Fatal(cw.diff)
	}
	return cw.n, cw.kept
}

// oracleDisasmText is the text listing as runDisasm printed it before the fast path (its
// output went through the CLI's termWriter).
func oracleDisasmText(out io.Writer, f *inspect.File, picked []*inspect.ProgramStream) error {
	tw := &termWriter{w: out}
	defer tw.Flush()
	w := bufio.NewWriterSize(tw, 1<<20)
	defer w.Flush()
	for _, s := range picked {
		fmt.Fprintf(w, "; %s %s  %s  (%d bytes)\n", s.Core.Name, s.Engine.Name, s.Member, s.Size)
		if s.ISA == nil {
			fmt.Fprintln(w, "; stream bytes not available")
			continue
		}
		for i, in := range s.ISA.All() {
			fmt.Fprintf(w, "%7d  %06x  %02x %-28s %s", i, in.Offset, in.Opcode, in.Name, isa.Summary(in))
			if sync := isa.SyncText(in); sync != "" {
				fmt.Fprintf(w, "  [%s]", sync)
			}
			if r := f.Program.Resolve(s, i, s.ISA.Word(i)).String(); r != "" {
				fmt.Fprintf(w, "  ; %s", r)
			}
			if src := f.Program.Source.Source(s.Member, i); src != nil {
				fmt.Fprintf(w, "  ; %s", src.Text())
			}
			fmt.Fprintln(w)
		}
		fmt.Fprintln(w)
	}
	return nil
}

// TestResolveOnlyJoinedOpcodes: Program.Resolve says nothing of a word whose opcode is not in
// isa's table of joins (the listings skip the call for those), whatever its other bytes.
func TestResolveOnlyJoinedOpcodes(t *testing.T) {
	f := openForTest(t, realfiles.NEFFs(t)[0])
	rnd := rand.New(rand.NewPCG(13, 5))
	for _, s := range f.Program.Streams {
		if s.ISA == nil {
			continue
		}
		for op := range 256 {
			if isa.JoinOf(uint8(op)) != isa.JoinNone {
				continue
			}
			for range 20 {
				w := make([]byte, isa.WordSize)
				for k := range w {
					w[k] = byte(rnd.Uint32())
				}
				w[0] = byte(op)
				if r := f.Program.Resolve(s, rnd.IntN(s.ISA.Len()), w); r != (inspect.Resolved{}) {
					t.Fatalf("opcode %#x: Resolve gives %+v", op, r)
				}
			}
		}
	}
}

// compareWriter checks what is written against ref.
type compareWriter struct {
	ref  io.Reader
	n    int64
	diff string
	keep bool
	kept []byte
}

func (c *compareWriter) Write(p []byte) (int, error) {
	if c.keep {
		c.kept = append(c.kept, p...)
	}
	want := make([]byte, len(p))
	m, _ := io.ReadFull(c.ref, want)
	for i := range p {
		if i >= m || p[i] != want[i] {
			lo := max(0, i-200)
			c.diff = fmt.Sprintf("output differs from the oracle at byte %d:\nfast:   %q\noracle: %q", c.n+int64(i), p[lo:min(len(p), i+200)], want[lo:min(m, i+200)])
			return 0, errors.New("differs")
		}
	}
	c.n += int64(len(p))
	return len(p), nil
}

func openForTest(t *testing.T, path string) *inspect.File {
	t.Helper()
	f, fh, err := openFile(path, inspect.Options{Limits: budget.Native()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { fh.Close(); delete(archives, f) })
	archives[f] = fh
	if f.Program == nil {
		t.Fatalf("%s: no program", path)
	}
	return f
}

// TestDisasmJSONMatchesOracle: every real NEFF (matmul_small in the repository, the shared
// folder's where it is beside the clone), and the CLI's own path (run) on matmul_small.
func TestDisasmJSONMatchesOracle(t *testing.T) {
	for _, p := range realfiles.NEFFs(t) {
		t.Run(filepath.Base(p), func(t *testing.T) {
			f := openForTest(t, p)
			n, _ := checkAgainstOracle(t, f, f.Program.Streams, false)
			t.Logf("%d bytes of JSON", n)
			checkTextAgainstOracle(t, f, f.Program.Streams)
		})
	}
	p := realfiles.NEFFs(t)[0]
	var want bytes.Buffer
	of := openForTest(t, p)
	if err := oracleDisasmJSON(&want, of, of.Program.Streams); err != nil {
		t.Fatal(err)
	}
	out, errs, rc := runCLI(t, "disasm", "--json", p)
	if rc != 0 || out != want.String() {
		t.Fatalf("CLI: rc %d (%s), output equal to the oracle: %v", rc, errs, out == want.String())
	}
	want.Reset()
	oracleDisasmText(&want, of, of.Program.Streams)
	if out, errs, rc = runCLI(t, "disasm", p); rc != 0 || out != want.String() {
		t.Fatalf("CLI text: rc %d (%s), output equal to the oracle: %v", rc, errs, out == want.String())
	}
}

// TestDisasmJSONStreamed: a generated NEFF whose PE streams are over the 8 MiB an open holds,
// so their words are read back out of the archive. The words every run hands out are the
// stream's own (read through its ReadAt windows), two streams picked against archive order
// take two walks, and the JSON is the bytes the same words give when held in memory (which
// the tests above hold to the oracle).
func TestDisasmJSONStreamed(t *testing.T) {
	if testing.Short() {
		t.Skip("generates a 10 MB NEFF")
	}
	path := filepath.Join(t.TempDir(), "big.neff")
	if _, err := bigneff.Generate(path, bigneff.Options{Size: 10 << 20, DefJSON: 500_000, DebugJSON: 500_000}); err != nil {
		t.Fatal(err)
	}
	f := openForTest(t, path)
	var streamed []*inspect.ProgramStream
	var held *inspect.ProgramStream
	for _, s := range f.Program.Streams {
		switch {
		case s.ISA == nil:
		case !s.ISA.Held():
			streamed = append(streamed, s)
		case held == nil || s.ISA.Len() < held.ISA.Len():
			held = s
		}
	}
	if len(streamed) < 2 || held == nil {
		t.Fatalf("want two streamed streams and a held one (streamed %d, held %v)", len(streamed), held != nil)
	}
	// The later member first. With the open's seek index each stream is read from the
	// checkpoint before it (no walk from the archive's start); without, two walks of the
	// archive, one started ahead of its turn.
	picked := []*inspect.ProgramStream{streamed[len(streamed)-1], held, streamed[0]}
	if !f.Archive.CanSeek() {
		t.Fatal("the open made no seek index")
	}
	for _, seek := range []bool{true, false} {
		seekAlone = seek
		checkFeeds(t, f, picked, map[bool]int{true: 0, false: 2}[seek])
	}
	seekAlone = true
}

func checkFeeds(t *testing.T, f *inspect.File, picked []*inspect.ProgramStream, walks int) {
	feeds := startFeeds(f, archives[f], picked)
	if feeds.walks() != walks {
		t.Errorf("%d walks of the archive, want %d", feeds.walks(), walks)
	}
	for k, s := range picked {
		n := 0
		feeds.each(k, func(first, count int, words []byte, release func()) bool {
			defer release()
			if first != n {
				t.Fatalf("%s: run at %d, want %d", s.Member, first, n)
			}
			for j := range count {
				if words != nil && !bytes.Equal(words[j*isa.WordSize:(j+1)*isa.WordSize], s.ISA.Word(first+j)) {
					t.Fatalf("%s: word %d differs", s.Member, first+j)
				}
			}
			n += count
			return true
		})
		if n != s.ISA.Len() {
			t.Fatalf("%s: %d words of %d", s.Member, n, s.ISA.Len())
		}
	}
	feeds.stop()

	// The same words held in memory.
	heldCopy := make([]*inspect.ProgramStream, len(picked))
	for k, s := range picked {
		b := make([]byte, 0, s.ISA.Len()*isa.WordSize)
		for i := range s.ISA.Len() {
			b = append(b, s.ISA.Word(i)...)
		}
		c := *s
		c.ISA = isa.NewStream(s.Member, b)
		heldCopy[k] = &c
	}
	sum := func(archive io.ReaderAt, picked []*inspect.ProgramStream) []byte {
		h := sha256.New()
		if err := writeDisasmJSON(h, f, archive, picked); err != nil {
			t.Fatal(err)
		}
		if err := writeDisasmText(h, f, archive, picked); err != nil {
			t.Fatal(err)
		}
		return h.Sum(nil)
	}
	want := sum(nil, heldCopy)
	if got := sum(archives[f], picked); !bytes.Equal(got, want) {
		t.Error("streams read by archive walks give other JSON than their words held")
	}
	// Without the archive, each stream is read through its own source.
	if got := sum(nil, picked); !bytes.Equal(got, want) {
		t.Error("streams read through their own source give other JSON than their words held")
	}
}

// TestDisasmJSONRandomWords: random words of every opcode (two-word 0xD4+0xDA pairs among
// them) in the place of matmul_small's streams, so the joins, the sources and the two-word
// rule all meet words the real file does not have.
func TestDisasmJSONRandomWords(t *testing.T) {
	f := openForTest(t, realfiles.NEFFs(t)[0])
	rnd := rand.New(rand.NewPCG(13, 3))
	var picked []*inspect.ProgramStream
	for _, s := range f.Program.Streams {
		if s.ISA == nil {
			continue
		}
		n := 3000
		b := make([]byte, n*isa.WordSize)
		for i := range n {
			w := b[i*isa.WordSize : (i+1)*isa.WordSize]
			for k := range w {
				if rnd.IntN(3) == 0 {
					w[k] = byte(rnd.Uint32())
				}
			}
			w[1] = 0x10
			switch r := rnd.IntN(10); {
			case r < 4:
				w[0] = byte(rnd.Uint32())
			case r < 7:
				w[0] = []byte{0x21, 0x23, 0xC1, 0xD4, 0xDA, 0x01, 0x02, 0x41, 0x46, 0x49}[rnd.IntN(10)]
			default:
				w[0] = s.ISA.Word(rnd.IntN(s.ISA.Len()))[0]
			}
			if w[0] == 0x23 {
				w[0x23] = byte(rnd.IntN(3))
			}
			if w[0] == 0xD4 && rnd.IntN(2) == 0 && i+1 < n {
				w[0x17] = isa.DmaTagDGEReg
				b[(i+1)*isa.WordSize] = 0xDA
			}
		}
		c := *s
		c.ISA = isa.NewStream(s.Member, b)
		picked = append(picked, &c)
	}
	checkAgainstOracle(t, f, picked, false)
	checkTextAgainstOracle(t, f, picked)
}

// TestDisasmJSONHostileNames: names from the file (core, engine, activation set, function
// and source strings are joined in from manifests and debug info) with every kind of byte
// encoding/json or jsonEscaper escapes, set on matmul_small's program.
func TestDisasmJSONHostileNames(t *testing.T) {
	f := openForTest(t, realfiles.NEFFs(t)[0])
	hostile := hostileStrings()
	for k, s := range f.Program.Streams {
		s.Core.Name = strings.Join(hostile, "|")
		s.Engine.Name = hostile[k%len(hostile)]
		for j := range s.Engine.ActivationSets {
			s.Engine.ActivationSets[j].Name = hostile[(k+j+2)%len(hostile)]
		}
	}
	checkTextAgainstOracle(t, f, f.Program.Streams)
	_, out := checkAgainstOracle(t, f, f.Program.Streams, true)
	for _, want := range []string{`"set":"\u003cscript\u003e\u0026amp;\u003c/script\u003e"`, `\u202e bidi`, `\u0085 nel`, `\ufffd invalid`, `del\u007f`, `\udb40\udc01 tag`, `\u200d zwj \ufeff bom`} {
		if !bytes.Contains(out, []byte(want)) {
			t.Errorf("no %s in the output", want)
		}
	}
}

func hostileStrings() []string {
	return []string{
		"", "plain", `q"uote\back`, "<script>&amp;</script>", "\x00\x01\x07\x08\x0c\n\r\t\x1b[2J\x1f", "del\x7f",
		"\xff\xfe invalid", "trunc\xe2\x82", "\xed\xa0\x80 surrogate", "ok é ü 漢字 🙂", "\u2028\u2029",
		"\u0085 nel \u009b csi", "\u202e bidi \u200b zw \u200d zwj \ufeff bom", "\U000e0001 tag", "\xc0\xaf overlong",
		"mix <\x7f\u202e\xff>",
	}
}

// TestAppendJSONString holds the escaper to encoding/json then jsonEscaper on hostile and
// random strings.
func TestAppendJSONString(t *testing.T) {
	oracle := func(s string) string {
		b, _ := json.Marshal(s)
		var out bytes.Buffer
		tw := &jsonEscaper{w: &out}
		tw.Write(b)
		tw.Flush()
		return out.String()
	}
	check := func(s string) {
		if got, want := string(doc.AppendJSONString(nil, s, doc.JSONSafe)), oracle(s); got != want {
			t.Fatalf("%q: %s, want %s", s, got, want)
		}
		if got, want := string(doc.AppendJSONString(nil, []byte(s), doc.JSONSafe)), oracle(s); got != want {
			t.Fatalf("[]byte %q: %s, want %s", s, got, want)
		}
	}
	for _, s := range hostileStrings() {
		check(s)
	}
	for c := range 256 {
		check(string([]byte{byte(c)}))
		check("a" + string([]byte{byte(c)}) + "b")
	}
	for r := rune(0x80); r < 0x3000; r++ {
		check(string(r))
	}
	rnd := rand.New(rand.NewPCG(13, 1))
	pieces := []string{"a", "<", "\x7f", "\xff", "\u0085", "\u202e", "é", "\u2028", "\"", "\n", "\xe2", "\x82\xac"}
	for range 20000 {
		var b strings.Builder
		for range rnd.IntN(12) {
			if rnd.IntN(3) == 0 {
				b.WriteByte(byte(rnd.Uint32()))
			} else {
				b.WriteString(pieces[rnd.IntN(len(pieces))])
			}
		}
		check(b.String())
	}
	// What the escaper writes is JSON that parses back to s (invalid bytes as U+FFFD) and
	// holds no raw rune of escapedRunes.
	for _, s := range hostileStrings() {
		b := doc.AppendJSONString(nil, s, doc.JSONSafe)
		var back string
		if err := json.Unmarshal(b, &back); err != nil || back != replaceInvalid(s) {
			t.Fatalf("%q: %s parses to %q, %v", s, b, back, err)
		}
		if r, ok := rawEscapable(string(b), false); ok {
			t.Fatalf("%q: %s holds %U raw", s, b, r)
		}
	}
}

// TestWordFeeds: streams read back through a WordSource come out in order and whole, across
// chunk boundaries, with the next stream's reader running ahead, and a stop mid-stream ends
// the readers.
func TestWordFeeds(t *testing.T) {
	mk := func(n int, seed uint64, held bool) *inspect.ProgramStream {
		b := make([]byte, n*isa.WordSize)
		rnd := rand.New(rand.NewPCG(seed, 2))
		for i := range b {
			b[i] = byte(rnd.Uint32())
		}
		if held {
			return &inspect.ProgramStream{ISA: isa.NewStream("held", b)}
		}
		x := isa.NewIndexer("streamed")
		x.Write(b)
		return &inspect.ProgramStream{ISA: x.Stream(bytesSource(b))}
	}
	picked := []*inspect.ProgramStream{
		mk(3*feedWords+17, 1, false), mk(100, 2, true), {}, mk(feedWords, 3, false), mk(1, 4, false), mk(5, 5, true),
	}
	feeds := startFeeds(nil, nil, picked)
	for k, s := range picked {
		n := 0
		feeds.each(k, func(first, count int, words []byte, release func()) bool {
			defer release()
			if first != n {
				t.Fatalf("stream %d: run at %d, want %d", k, first, n)
			}
			for j := range count {
				w := s.ISA.Word(first + j)
				if words != nil && !bytes.Equal(words[j*isa.WordSize:(j+1)*isa.WordSize], w) {
					t.Fatalf("stream %d: word %d differs", k, first+j)
				}
			}
			n += count
			return true
		})
		if s.ISA != nil && n != s.ISA.Len() {
			t.Fatalf("stream %d: %d words of %d", k, n, s.ISA.Len())
		}
	}
	feeds.stop()
	feeds = startFeeds(nil, nil, picked)
	feeds.each(0, func(first, n int, words []byte, release func()) bool { release(); return first < feedWords })
	feeds.stop() // returns once the readers have ended
}

type bytesSource []byte

func (b bytesSource) ReadAt(p []byte, off int64) (int, error) {
	return bytes.NewReader(b).ReadAt(p, off)
}

func (b bytesSource) Scan(fn func([]byte) bool) error {
	for off := 0; off < len(b); off += 1000 { // chunks that split words
		if !fn(b[off:min(len(b), off+1000)]) {
			return nil
		}
	}
	return nil
}
