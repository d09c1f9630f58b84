package main

import (
	"io"
	"runtime"
	"sort"
	"sync"
	"sync/atomic"

	"github.com/neffscope/neffscope/core/budget"
	"github.com/neffscope/neffscope/core/inspect"
	"github.com/neffscope/neffscope/core/isa"
	"github.com/neffscope/neffscope/core/neff"
)

// disasmFormat is the frame of a listing (text or JSON) around its instructions.
type disasmFormat interface {
	begin(b []byte) []byte
	streamHead(b []byte, k int, s *inspect.ProgramStream) []byte
	streamEnd(b []byte, s *inspect.ProgramStream) []byte
	end(b []byte) []byte
	// capped closes a listing stopped at the output cap: began says the listing's first
	// bytes were written, open that a stream's list is open; it names the cap.
	capped(b []byte, began, open bool, limit int64) []byte
	encoder(p *inspect.Program) wordEncoder // one per goroutine
}

// wordEncoder appends word i of a stream, with what separates it from the word before.
type wordEncoder interface {
	appendWord(b []byte, s *inspect.ProgramStream, i int, word []byte) []byte
}

// writeDisasm writes the listing of the picked streams of f in format. archive is the file f
// was opened from (size f.Size): the streams that are not held are read out of it again (nil:
// each through its own source, one archive pass per stream).
//
// The words are cut into jobs of up to jobWords instructions; one goroutine per core (at most
// four) encodes jobs and this one writes them in order, with at most jobsInFlight jobs (their
// words and their output: ~1 MiB each for real code, ~3 MiB for random words) alive at once.
func writeDisasm(w io.Writer, f *inspect.File, archive io.ReaderAt, picked []*inspect.ProgramStream, format disasmFormat) error {
	_, err := writeDisasmCapped(w, f, archive, picked, format, 0)
	return err
}

// writeDisasmCapped is writeDisasm stopping before the job that would take the output past
// maxOut bytes (0: no cap), closing the listing with format.capped; capped says it stopped.
func writeDisasmCapped(w io.Writer, f *inspect.File, archive io.ReaderAt, picked []*inspect.ProgramStream, format disasmFormat, maxOut int64) (capped bool, err error) {
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
			e := format.encoder(f.Program)
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
		j.head = format.begin(j.head)
		for k, s := range picked {
			if stopped.Load() {
				break
			}
			j.head = format.streamHead(j.head, k, s)
			feeds.each(k, func(first, n int, words []byte, release func()) bool {
				if stopped.Load() {
					release()
					return false
				}
				j.s, j.first, j.n, j.words, j.release = s, first, n, words, release
				j.open = true
				send(j)
				j = <-pool
				j.reset()
				return true
			})
			j.head = format.streamEnd(j.head, s)
		}
		j.head = format.end(j.head)
		send(j)
	}()
	var written int64
	began, open := false, false // what the bytes written so far leave open
	for j := range order {
		<-j.ready
		switch {
		case err != nil || capped:
		case maxOut > 0 && written+int64(len(j.out)) > maxOut:
			capped = true
			stopped.Store(true)
			// The job's words that fit, whole: after them its stream's list is open.
			var b []byte
			if k := sort.Search(len(j.ends), func(i int) bool { return written+int64(j.ends[i]) > maxOut }); k > 0 {
				b = append(b, j.out[:j.ends[k-1]]...)
				began, open = true, true
			}
			_, err = w.Write(format.capped(b, began, open, maxOut))
		default:
			if _, err = w.Write(j.out); err != nil {
				stopped.Store(true)
			}
			written += int64(len(j.out))
			began, open = true, j.open
		}
		if j.release != nil {
			j.release()
		}
		pool <- j
	}
	return capped, err
}

const (
	jobWords     = 1024
	jobsInFlight = 4
)

// job is a run of words of one stream and what they print as, after the bytes that go before
// it (the end of the stream before, the head of this one).
type job struct {
	s        *inspect.ProgramStream
	first, n int
	words    []byte // the n words; nil: read them from s.ISA (held whole)
	release  func() // gives the words back to their feed
	head     []byte
	out      []byte
	ready    chan struct{}
	open     bool  // a stream's list is open after out (a run of words; the last job closes all)
	ends     []int // where each word's text ends in out
}

func (j *job) reset() {
	j.s, j.first, j.n, j.words, j.release, j.open = nil, 0, 0, nil, nil, false
	j.head, j.out = j.head[:0], j.out[:0]
}

func (j *job) encode(e wordEncoder) {
	b := append(j.out[:0], j.head...)
	j.ends = j.ends[:0]
	for k := range j.n {
		i := j.first + k
		var word []byte
		if j.words != nil {
			word = j.words[k*isa.WordSize : (k+1)*isa.WordSize : (k+1)*isa.WordSize]
		} else {
			word = j.s.ISA.Word(i)
		}
		b = e.appendWord(b, j.s, i, word)
		j.ends = append(j.ends, len(b))
	}
	j.out = b
}

// wordFeeds hands the words of the picked streams out in runs. A stream held whole is cut in
// place, one held compressed decoded by a feed of its own. A stream that is not held is read
// again out of the archive through a neff.Feed: one walk of the archive serves a chain of such
// streams, each stream whose member comes later in the archive than the previous one of its
// chain (in output order), so a NEFF whose streams are listed in about archive order is read
// again once or twice, not once per stream (the 256 MB file's ten streams take two walks). A
// walk blocks when its stream's feedChunks chunks are out; a chain's walk starts when the
// listing reaches the stream before its first.
type wordFeeds struct {
	picked   []*inspect.ProgramStream
	feeds    []*feed    // per picked stream; nil when it is held whole
	archive  *neff.Feed // the streams read again out of the archive (nil: none)
	entry    []int      // per picked stream: its entry in the archive feed's order, or -1
	stream   []int      // per entry of the archive feed's order: its picked stream
	done     chan struct{}
	stopOnce sync.Once
	wg       sync.WaitGroup
}

const (
	feedWords  = jobWords // 64 KiB a chunk
	feedChunks = jobsInFlight + 2
)

type feed struct {
	started   bool // read on its own (not by a chain's walk): started
	want      int  // words
	got       int  // bytes taken
	out, free chan *feedChunk
	cur       *feedChunk
}

type feedChunk struct {
	first, n int
	words    []byte
	used     int
}

// seekAlone: read each stream alone where the archive can seek (a var so the tests also drive
// the chained walks a payload without a seek index takes).
var seekAlone = true

func startFeeds(f *inspect.File, archive io.ReaderAt, picked []*inspect.ProgramStream) *wordFeeds {
	x := &wordFeeds{picked: picked, feeds: make([]*feed, len(picked)), entry: make([]int, len(picked)), done: make(chan struct{})}
	first := map[string]*neff.Member{} // each path's first member, as neff.ReadMember finds it
	// With the open's seek index each stream is read from the checkpoint before it (alone):
	// chains of streams sharing one walk from the archive's start are for payloads without one.
	if f != nil && f.Archive != nil && archive != nil && !(seekAlone && f.Archive.CanSeek()) {
		for _, m := range f.Archive.Members {
			if _, ok := first[m.Path]; !ok {
				first[m.Path] = m
			}
		}
	}
	var order []*neff.Member
	for k, s := range picked {
		x.entry[k] = -1
		if s.ISA == nil || s.ISA.InPlace() {
			continue
		}
		fd := &feed{want: s.ISA.Len(), out: make(chan *feedChunk, feedChunks), free: make(chan *feedChunk, feedChunks)}
		for range feedChunks {
			fd.free <- &feedChunk{words: make([]byte, feedWords*isa.WordSize)}
		}
		x.feeds[k] = fd
		m, ok := first[s.Member]
		if !ok || s.ISA.Held() {
			continue // read through the stream's own source (held compressed: from memory)
		}
		x.entry[k] = len(order)
		x.stream = append(x.stream, k)
		order = append(order, m)
	}
	if len(order) > 0 {
		x.archive = f.Archive.Feed(archive, order, neff.FeedOptions{MaxInflated: f.Budget.Limit(budget.Inflate)}, x)
	}
	return x
}

// walks is how many walks of the archive the feeds take.
func (x *wordFeeds) walks() int {
	if x.archive == nil {
		return 0
	}
	return x.archive.Chains()
}

// start begins reading stream k's words, unless they are read already.
func (x *wordFeeds) start(k int) {
	fd := x.feeds[k]
	if fd == nil {
		return
	}
	if x.entry[k] >= 0 {
		x.archive.Start(x.entry[k])
		return
	}
	if !fd.started {
		fd.started = true
		x.wg.Add(1)
		go x.alone(k)
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

// Chunk takes the next bytes of the archive feed's entry e (neff.FeedSink).
func (x *wordFeeds) Chunk(e int, _ int64, b []byte) bool {
	return x.feeds[x.stream[e]].put(b, x.done)
}

// End ends the stream of entry e: whatever the walk read of it is all there is.
func (x *wordFeeds) End(e int, _ bool) {
	x.feeds[x.stream[e]].finish(x.done)
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
// fn returns false; it starts the reads of stream k and of the next stream not held whole.
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
	if x.archive != nil {
		x.archive.Stop()
	}
	x.wg.Wait()
}
