package main

import (
	"context"
	"io"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"unicode"
	"unicode/utf8"

	"github.com/neffscope/neffscope/core/budget"
	"github.com/neffscope/neffscope/core/inspect"
	"github.com/neffscope/neffscope/core/isa"
	"github.com/neffscope/neffscope/core/neff"
)

// The `disasm --json` encoder (issue 13). A NEFF of 250 MB holds 17.6 M instruction words and
// its listing is 13 GB of JSON, so the encoder appends bytes and never reflects:
//
//   - what is fixed per opcode is encoded once (opPlan): the name, the "layout" entries of the
//     header, sync band and field map, and the order of the "fields" keys (encoding/json sorts
//     a map's keys; the undocumented runs, which vary per word, are merged into that order);
//   - a word's field texts come from isa.AppendFields into buffers reused from word to word;
//   - strings from the file go through appendJSONString, which writes what encoding/json
//     wrote and then what the CLI's termWriter made of it, so the output is the bytes the old
//     writer (json.Marshal of instJSON, through termWriter) produced, and termWriter is not
//     run over 13 GB (disasm_oracle_test.go holds the two equal);
//   - the words are read by wordFeed: a stream that is not held is read out of the archive by a
//     goroutine of its own, and the next stream's read starts while this one is encoded (its
//     inflate up to the member runs on the other core), with at most feedChunks chunks in
//     flight per stream.

// opPlan is what is fixed for every word of one opcode.
type opPlan struct {
	name   []byte    // `,"name":"Matmul","fields":{`
	layout []byte    // `},"layout":[{"field":"opcode","off":0,"len":1},...` (fixed fields, no closing bracket)
	keys   []planKey // the fixed fields in "fields" key order, one per name (the last wins, as in a map)
	spans  int       // entries in layout
}

type planKey struct {
	name       string
	key        []byte // `"name":`
	field      int    // index in isa.FixedFieldsOf
	wordLength bool   // the "word length" field, whose text a second word replaces
	// byteOnly: the text depends on the byte at off alone (isa.FixedField.ByteOnly); texts
	// keeps each value's JSON string once made.
	byteOnly bool
	off      int
	texts    *[256][]byte
}

func newOpPlan(op uint8) *opPlan {
	p := &opPlan{}
	fixed := isa.FixedFieldsOf(op)
	p.name = append(p.name, `,"name":`...)
	p.name = appendJSONString(p.name, isa.Decode([]byte{op}, 0).Name)
	p.name = append(p.name, `,"fields":{`...)
	p.layout = append(p.layout, `},"layout":[`...)
	for _, f := range fixed {
		if f.Width > 0 {
			p.layout = appendLayoutEntry(p.layout, p.spans > 0, f.Name, f.Off, f.Width)
			p.spans++
		}
	}
	last := map[string]int{}
	for k, f := range fixed {
		last[f.Name] = k
	}
	for name, k := range last {
		pk := planKey{name: name, key: append(appendJSONString(nil, name), ':'), field: k, wordLength: name == "word length",
			byteOnly: fixed[k].ByteOnly, off: fixed[k].Off}
		if pk.byteOnly {
			pk.texts = new([256][]byte)
		}
		p.keys = append(p.keys, pk)
	}
	slices.SortFunc(p.keys, func(a, b planKey) int { return strings.Compare(a.name, b.name) })
	return p
}

func appendLayoutEntry(b []byte, comma bool, name string, off, width int) []byte {
	if comma {
		b = append(b, ',')
	}
	b = append(b, `{"field":`...)
	b = appendJSONString(b, name)
	b = append(b, `,"off":`...)
	b = strconv.AppendInt(b, int64(off), 10)
	b = append(b, `,"len":`...)
	b = strconv.AppendInt(b, int64(width), 10)
	return append(b, '}')
}

// jsonEncoder encodes instructions; its buffers are reused. One per goroutine.
type jsonEncoder struct {
	p       *inspect.Program
	plans   [256]*opPlan
	runs    []isa.Run
	tmp     []byte
	lastSrc *inspect.Source
	srcJSON []byte // `,"source":{...}` of lastSrc
}

// appendText appends a field text as a JSON string: text appends it raw, and it is escaped
// only when it holds a byte that needs it.
func (e *jsonEncoder) appendText(b []byte, text func([]byte) []byte) []byte {
	start := len(b)
	b = text(append(b, '"'))
	for _, c := range b[start+1:] {
		if !plainJSON[c] {
			e.tmp = append(e.tmp[:0], b[start+1:]...)
			return appendJSONString(b[:start], e.tmp)
		}
	}
	return append(b, '"')
}

// appendInstruction appends word i of stream s (no separator before it).
func (e *jsonEncoder) appendInstruction(b []byte, s *inspect.ProgramStream, i int, word []byte) []byte {
	w := (*[isa.WordSize]byte)(word)
	op := w[0]
	plan := e.plans[op]
	if plan == nil {
		plan = newOpPlan(op)
		e.plans[op] = plan
	}
	partOf := s.ISA.PartOf(i)
	b = append(b, `{"index":`...)
	b = strconv.AppendInt(b, int64(i), 10)
	b = append(b, `,"offset":`...)
	b = strconv.AppendInt(b, int64(i)*isa.WordSize, 10)
	b = append(b, `,"opcode":`...)
	b = strconv.AppendUint(b, uint64(op), 10)
	b = append(b, plan.name...)

	// "fields": the fixed keys in order, the word's undocumented runs merged in. Their names,
	// "unknown 0xNN..0xMM", are in byte order as the runs are in offset order.
	e.runs = isa.AppendUndocumentedRuns(e.runs[:0], w)
	runs := e.runs
	first := true
	run := func(r isa.Run) {
		if !first {
			b = append(b, ',')
		}
		first = false
		b = append(appendJSONString(b, isa.RunName(r.Off, r.End)), ':', '"')
		b = append(isa.AppendHexBytes(b, w[r.Off:r.End]), '"')
	}
	n := 0
	for _, k := range plan.keys {
		for n < len(runs) && isa.RunName(runs[n].Off, runs[n].End) < k.name {
			run(runs[n])
			n++
		}
		if n < len(runs) && isa.RunName(runs[n].Off, runs[n].End) == k.name {
			run(runs[n]) // a run named like a fixed field comes later in the word: it wins
			n++
			continue
		}
		if !first {
			b = append(b, ',')
		}
		first = false
		b = append(b, k.key...)
		switch {
		case k.wordLength && partOf >= 0:
			// As Stream.Instruction: the +0x01 byte of a second word is no word length.
			b = e.appendText(b, func(b []byte) []byte { return isa.AppendSecondWordLength(b, partOf) })
		case k.byteOnly:
			t := &k.texts[w[k.off]]
			if *t == nil {
				*t = e.appendText(nil, func(b []byte) []byte { return isa.AppendFixedText(b, w, k.field) })
			}
			b = append(b, *t...)
		default:
			b = e.appendText(b, func(b []byte) []byte { return isa.AppendFixedText(b, w, k.field) })
		}
	}
	for ; n < len(runs); n++ {
		run(runs[n])
	}

	switch op {
	case 0x21, 0x23:
		res := e.p.Resolve(s, i, word)
		b = append(b, `},"activation":{"set":`...)
		b = appendJSONString(b, res.Set)
		if res.Function != "" {
			b = append(b, `,"function":`...)
			b = appendJSONString(b, res.Function)
		}
		b = append(b, '}')
		b = append(b, plan.layout[1:]...)
	case 0xC1, 0xD4:
		res := e.p.Resolve(s, i, word)
		b = append(b, `},"dma":{"queue":`...)
		b = appendJSONString(b, res.Queue)
		b = append(b, `,"block":`...)
		if op == 0xC1 {
			b = appendJSONString(b, res.Block)
		} else {
			b = append(b, `""`...)
			if res.Src != "" {
				b = append(b, `,"src":`...)
				b = appendJSONString(b, res.Src)
			}
			if res.Dst != "" {
				b = append(b, `,"dst":`...)
				b = appendJSONString(b, res.Dst)
			}
		}
		b = append(b, '}')
		b = append(b, plan.layout[1:]...)
	default:
		b = append(b, plan.layout...)
	}
	for k, r := range runs {
		b = appendLayoutEntry(b, k > 0 || plan.spans > 0, isa.RunName(r.Off, r.End), r.Off, r.End-r.Off)
	}
	b = append(b, ']')
	if partOf >= 0 {
		b = append(b, `,"part_of":`...)
		b = strconv.AppendInt(b, int64(partOf), 10)
	}
	if src := e.p.Source.Source(s.Member, i); src != nil {
		if src != e.lastSrc {
			e.lastSrc, e.srcJSON = src, appendSourceJSON(e.srcJSON[:0], src)
		}
		b = append(b, e.srcJSON...)
	}
	return append(b, '}')
}

// appendSourceJSON is sourceJSON as encoding/json wrote it.
func appendSourceJSON(b []byte, src *inspect.Source) []byte {
	b = append(b, `,"source":{"bir":`...)
	b = appendJSONString(b, src.BIR)
	b = append(b, `,"file":`...)
	if src.File != "" {
		b = appendJSONString(b, src.File)
	} else {
		b = append(b, "null"...)
	}
	b = append(b, `,"line":`...)
	if src.Line > 0 {
		b = strconv.AppendInt(b, int64(src.Line), 10)
	} else {
		b = append(b, "null"...)
	}
	if src.Kernel != "" {
		b = append(b, `,"kernel":`...)
		b = appendJSONString(b, src.Kernel)
	}
	if src.Via != "" {
		b = append(b, `,"via":`...)
		b = appendJSONString(b, src.Via)
	}
	return append(b, '}')
}

// plainJSON marks the bytes a string carries as they are: printable ASCII but for the ones
// encoding/json escapes (", \, and <, > and & as it escapes HTML). DEL is printable to
// encoding/json but not to termWriter.
var plainJSON = func() (t [256]bool) {
	for c := 0x20; c < 0x7F; c++ {
		t[c] = true
	}
	for _, c := range `"\<>&` {
		t[c] = false
	}
	return t
}()

// appendJSONString appends s quoted as encoding/json quotes a string (HTML-safe, invalid UTF-8
// as \ufffd, U+2028 and U+2029 escaped), then escaped as termWriter escapes text output:
// DEL as \x7f, and C1 controls and format characters (bidi overrides) as strconv quotes them.
func appendJSONString[S string | []byte](b []byte, s S) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if plainJSON[c] {
			i++
			continue
		}
		b = append(b, s[start:i]...)
		if c < utf8.RuneSelf {
			switch c {
			case '\\', '"':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			case 0x7F:
				b = append(b, '\\', 'x', '7', 'f')
			default:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(string(s[i:min(len(s), i+utf8.UTFMax)]))
		switch {
		case r == utf8.RuneError && size == 1:
			b = append(b, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			b = append(b, '\\', 'u', '2', '0', '2', hex[r&0xF])
		case termEscapes(r):
			q := strconv.QuoteRuneToASCII(r)
			b = append(b, q[1:len(q)-1]...)
		default:
			b = append(b, s[i:i+size]...)
		}
		i += size
		start = i
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// termEscapes is termWriter's test for a rune it escapes (safe.go).
func termEscapes(r rune) bool {
	return unicode.Is(unicode.Cc, r) || unicode.Is(unicode.Cf, r) && r != 0xFEFF && r != 0x200D
}

// writeDisasmJSON writes the disasmJSON contract incrementally. w receives bytes already
// escaped for a terminal (see appendJSONString): it is the CLI's stdout under its termWriter.
// archive is the file f was opened from (size f.Size): streams that are not held are read out
// of it again.
//
// Words are cut into jobs of up to jobWords instructions; encodeWorkers goroutines encode the
// jobs and this one writes them in order, with at most jobsInFlight jobs (their words and
// their JSON) alive at once.
func writeDisasmJSON(w io.Writer, f *inspect.File, archive io.ReaderAt, picked []*inspect.ProgramStream) error {
	feeds := startFeeds(f, archive, picked)
	defer feeds.stop()
	workers := min(max(runtime.GOMAXPROCS(0), 1), 4)
	pool := make(chan *job, jobsInFlight)
	for range jobsInFlight {
		pool <- &job{ready: make(chan struct{}, 1)}
	}
	work := make(chan *job, jobsInFlight)
	order := make(chan *job, jobsInFlight)
	var stopped atomic.Bool
	for range workers {
		go func() {
			e := &jsonEncoder{p: f.Program}
			for j := range work {
				j.encode(e)
				j.ready <- struct{}{}
			}
		}()
	}
	go func() {
		defer close(work)
		defer close(order)
		send := func(j *job) {
			order <- j
			work <- j
		}
		j := <-pool
		j.reset()
		j.head = append(j.head, "{\n \"streams\": ["...)
		for k, s := range picked {
			if stopped.Load() {
				break
			}
			if k > 0 {
				j.head = append(j.head, ',')
			}
			count := 0
			if s.ISA != nil {
				count = s.ISA.Len()
			}
			j.head = append(j.head, "\n  {\"subgraph\":"...)
			j.head = appendJSONString(j.head, s.Core.Name)
			j.head = append(j.head, `,"engine":`...)
			j.head = appendJSONString(j.head, s.Engine.Name)
			j.head = append(j.head, `,"member":`...)
			j.head = appendJSONString(j.head, s.Member)
			j.head = append(j.head, `,"count":`...)
			j.head = strconv.AppendInt(j.head, int64(count), 10)
			j.head = append(j.head, `,"instructions": [`...)
			feeds.each(k, func(first, n int, words []byte, release func()) bool {
				if stopped.Load() {
					release()
					return false
				}
				j.s, j.first, j.n, j.words, j.release = s, first, n, words, release
				send(j)
				j = <-pool
				j.reset()
				return true
			})
			j.head = append(j.head, "]}"...)
		}
		j.head = append(j.head, "\n ]\n}\n"...)
		send(j)
	}()
	var err error
	for j := range order {
		<-j.ready
		if err == nil {
			if _, err = w.Write(j.out); err != nil {
				stopped.Store(true)
			}
		}
		if j.release != nil {
			j.release()
		}
		pool <- j
	}
	return err
}

const (
	jobWords     = 2048
	jobsInFlight = 6
)

// job is a run of words of one stream and the JSON they make, after the bytes that go before
// it (the end of the stream before, the head of this one).
type job struct {
	s        *inspect.ProgramStream
	first, n int
	words    []byte // the n words; nil: read them from s.ISA (held in memory)
	release  func() // gives the words back to their feed
	head     []byte
	out      []byte
	ready    chan struct{}
}

func (j *job) reset() {
	j.s, j.first, j.n, j.words, j.release = nil, 0, 0, nil, nil
	j.head, j.out = j.head[:0], j.out[:0]
}

func (j *job) encode(e *jsonEncoder) {
	b := append(j.out[:0], j.head...)
	for k := range j.n {
		i := j.first + k
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, "\n   "...)
		var word []byte
		if j.words != nil {
			word = j.words[k*isa.WordSize : (k+1)*isa.WordSize : (k+1)*isa.WordSize]
		} else {
			word = j.s.ISA.Word(i)
		}
		b = e.appendInstruction(b, j.s, i, word)
	}
	j.out = b
}

// wordFeeds hands the words of the picked streams out in runs. A held stream is cut in
// place. A stream that is not held is read again out of the archive, and one walk of the
// archive serves a chain of such streams: each stream whose member comes later in the archive
// than the previous one of its chain (in output order), so a NEFF whose streams are listed
// in about archive order is read again once or twice, not once per stream (the 256 MB file's
// ten streams take two walks). A walk blocks when its stream's feedChunks chunks are out; a
// chain's walk starts when the listing reaches the stream before its first.
type wordFeeds struct {
	picked      []*inspect.ProgramStream
	archive     io.ReaderAt
	size        int64
	maxInflated int64
	feeds       []*feed // per picked stream; nil when it is held
	chains      [][]int // picked indexes, in output order
	chainOf     []int   // per picked stream: its chain, or -1
	started     []bool  // per chain
	done        chan struct{}
	stopOnce    sync.Once
	wg          sync.WaitGroup
}

const (
	feedWords  = jobWords // 128 KiB a chunk
	feedChunks = jobsInFlight + 2
)

type feed struct {
	started   bool // read on its own (not by a chain's walk): started
	path      string
	want      int // words
	got       int // bytes taken
	out, free chan *feedChunk
	cur       *feedChunk
}

type feedChunk struct {
	first, n int
	words    []byte
	used     int
}

func startFeeds(f *inspect.File, archive io.ReaderAt, picked []*inspect.ProgramStream) *wordFeeds {
	x := &wordFeeds{picked: picked, archive: archive, feeds: make([]*feed, len(picked)), chainOf: make([]int, len(picked)),
		done: make(chan struct{})}
	if f != nil {
		x.size, x.maxInflated = f.Size, f.Budget.Limit(budget.Inflate)
	}
	at := map[string]int{} // archive index of each path's first member, as neff.ReadMember finds it
	if f != nil && f.Archive != nil && archive != nil {
		for i, m := range f.Archive.Members {
			if _, ok := at[m.Path]; !ok {
				at[m.Path] = i
			}
		}
	}
	var last []int // archive index of each chain's last stream
	for k, s := range picked {
		x.chainOf[k] = -1
		if s.ISA == nil || s.ISA.Held() {
			continue
		}
		fd := &feed{path: s.Member, want: s.ISA.Len(), out: make(chan *feedChunk, feedChunks), free: make(chan *feedChunk, feedChunks)}
		for range feedChunks {
			fd.free <- &feedChunk{words: make([]byte, feedWords*isa.WordSize)}
		}
		x.feeds[k] = fd
		pos, ok := at[s.Member]
		if !ok {
			continue // read through the stream's own source
		}
		best := -1 // the chain ending latest before pos: chains stay few
		for c, l := range last {
			if l < pos && (best < 0 || l > last[best]) {
				best = c
			}
		}
		if best < 0 {
			best = len(x.chains)
			x.chains, last = append(x.chains, nil), append(last, 0)
		}
		x.chains[best], last[best] = append(x.chains[best], k), pos
		x.chainOf[k] = best
	}
	x.started = make([]bool, len(x.chains))
	return x
}

// start begins reading stream k's words, unless they are read already.
func (x *wordFeeds) start(k int) {
	fd := x.feeds[k]
	if fd == nil {
		return
	}
	c := x.chainOf[k]
	if c < 0 {
		if !fd.started {
			fd.started = true
			x.wg.Add(1)
			go x.alone(k)
		}
		return
	}
	if !x.started[c] {
		x.started[c] = true
		x.wg.Add(1)
		go x.walk(x.chains[c])
	}
}

// alone reads stream k through its own source (isa.Stream.Words: one pass of its member).
func (x *wordFeeds) alone(k int) {
	defer x.wg.Done()
	fd := x.feeds[k]
	for _, w := range x.picked[k].ISA.Words() {
		if !fd.put(w, x.done) {
			break
		}
	}
	fd.finish(x.done)
}

// walk reads the archive once for a chain of streams, stopping after the last.
func (x *wordFeeds) walk(chain []int) {
	defer x.wg.Done()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		select {
		case <-x.done:
			cancel()
		case <-ctx.Done():
		}
	}()
	next := 0
	for next < len(chain) && x.feeds[chain[next]].want == 0 {
		x.feeds[chain[next]].finish(x.done)
		next++
	}
	if next < len(chain) {
		neff.Open(x.archive, x.size, neff.Options{
			Keep:        func(string, int64) bool { return false },
			MaxInflated: x.maxInflated,
			Context:     ctx,
			Visit: func(m *neff.Member, off int64, chunk []byte) {
				if next >= len(chain) {
					return
				}
				fd := x.feeds[chain[next]]
				if m.Path != fd.path {
					return
				}
				if !fd.put(chunk, x.done) {
					next = len(chain)
					cancel()
					return
				}
				for next < len(chain) && x.feeds[chain[next]].complete() {
					x.feeds[chain[next]].finish(x.done)
					if next++; next == len(chain) {
						cancel() // the rest of the archive is not needed
					}
				}
			},
		})
	}
	for ; next < len(chain); next++ { // the archive ended first (truncated), or a stop
		x.feeds[chain[next]].finish(x.done)
	}
}

func (fd *feed) complete() bool { return fd.got == fd.want*isa.WordSize }

// put takes the next bytes of the stream (the words past want are not taken); false after a
// stop.
func (fd *feed) put(b []byte, done <-chan struct{}) bool {
	for len(b) > 0 && fd.got < fd.want*isa.WordSize {
		if fd.cur == nil {
			select {
			case fd.cur = <-fd.free:
			case <-done:
				return false
			}
			fd.cur.first, fd.cur.used = fd.got/isa.WordSize, 0
		}
		k := copy(fd.cur.words[fd.cur.used:], b[:min(len(b), fd.want*isa.WordSize-fd.got)])
		fd.cur.used += k
		fd.got += k
		b = b[k:]
		if fd.cur.used == len(fd.cur.words) || fd.complete() {
			if !fd.send(done) {
				return false
			}
		}
	}
	return true
}

func (fd *feed) send(done <-chan struct{}) bool {
	ch := fd.cur
	fd.cur = nil
	if ch.n = ch.used / isa.WordSize; ch.n == 0 {
		fd.free <- ch
		return true
	}
	select {
	case fd.out <- ch:
		return true
	case <-done:
		return false
	}
}

// finish hands over the last whole words taken and ends the stream.
func (fd *feed) finish(done <-chan struct{}) {
	if fd.cur != nil {
		fd.send(done)
	}
	close(fd.out)
}

// each calls fn with the runs of stream k's words in order (release gives a run back) until
// fn returns false; it starts the reads of stream k and of the next stream that is not held.
func (x *wordFeeds) each(k int, fn func(first, n int, words []byte, release func()) bool) {
	x.start(k)
	for next := k + 1; next < len(x.picked); next++ {
		if x.feeds[next] != nil {
			x.start(next)
			break
		}
	}
	s := x.picked[k]
	if s.ISA == nil {
		return
	}
	fd := x.feeds[k]
	if fd == nil {
		for first := 0; first < s.ISA.Len(); first += jobWords {
			if !fn(first, min(jobWords, s.ISA.Len()-first), nil, func() {}) {
				return
			}
		}
		return
	}
	for ch := range fd.out {
		if !fn(ch.first, ch.n, ch.words[:ch.n*isa.WordSize], func() { fd.free <- ch }) {
			return
		}
	}
}

// stop ends the reads still running and waits for them.
func (x *wordFeeds) stop() {
	x.stopOnce.Do(func() { close(x.done) })
	x.wg.Wait()
}

// rawStdout is the writer under the CLI's termWriter, for output that is escaped as it is
// encoded (disasm --json); any other writer is returned as is.
func rawStdout(w io.Writer) io.Writer {
	if tw, ok := w.(*termWriter); ok && len(tw.tail) == 0 {
		return tw.w
	}
	return w
}
