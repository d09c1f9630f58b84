package inspect

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"sync/atomic"
	"testing"

	"github.com/tinylib/msgp/msgp"

	"github.com/neffscope/neffscope/core/budget"
	"github.com/neffscope/neffscope/core/neff"
	"github.com/neffscope/neffscope/core/pool"
	"github.com/neffscope/neffscope/internal/bigneff"
	"github.com/neffscope/neffscope/internal/realfiles"
)

// countingPool counts the jobs a pool ran; fail makes every job fail (the caller then does
// the work itself).
type countingPool struct {
	pool.Pool
	jobs atomic.Int32
	fail bool
}

func (c *countingPool) Run(ctx context.Context, j pool.Job) ([]byte, error) {
	c.jobs.Add(1)
	if c.fail {
		return nil, errors.New("the worker died")
	}
	return c.Pool.Run(ctx, j)
}

// aheadPool is a countingPool over goroutines that start jobs ahead (pool.Ahead); hits counts
// the jobs claimed that had begun ahead.
type aheadPool struct {
	*countingPool
	a    pool.Ahead
	hits atomic.Int32
}

func newAheadPool(n int, b []byte) *aheadPool {
	g := pool.Goroutines(n, bytes.NewReader(b))
	return &aheadPool{countingPool: &countingPool{Pool: g}, a: g.(pool.Ahead)}
}

func (p *aheadPool) Ahead(ctx context.Context, jobs []pool.Job) { p.a.Ahead(ctx, jobs) }
func (p *aheadPool) Claim(j pool.Job) bool {
	if p.a.Claim(j) {
		p.hits.Add(1)
		return true
	}
	return false
}
func (p *aheadPool) Forget() { p.a.Forget() }

// Run claims the job first, as pool.With does.
func (p *aheadPool) Run(ctx context.Context, j pool.Job) ([]byte, error) {
	p.Claim(j)
	return p.countingPool.Run(ctx, j)
}

// deferredDocument opens b as the page does (source lines and members' sha-256 left out),
// then maps the lines and hashes the members, in p when not nil; it returns the Document's
// msgpack and the budget's memory charge after.
func deferredDocument(t *testing.T, name string, b []byte, p pool.Pool) ([]byte, int64) {
	t.Helper()
	enc, held, _ := deferredWithin(t, name, b, p, budget.Page())
	return enc, held
}

// deferredWithin is deferredDocument within the limits lim; it also returns whether a limit
// refused anything. A p that starts jobs ahead (pool.Ahead) is the open's SourceAhead too, as
// in the page.
func deferredWithin(t *testing.T, name string, b []byte, p pool.Pool, lim budget.Limits) ([]byte, int64, bool) {
	t.Helper()
	opt := Options{DeferSource: true, DeferMemberHashes: true, Limits: lim}
	if _, ok := p.(pool.Ahead); ok {
		opt.SourceAhead = p
	}
	f := Open(name, bytes.NewReader(b), int64(len(b)), opt)
	ctx := context.Background()
	if f.SourcePending() {
		m, err := f.IndexSourceIn(ctx, nil, nil, p, nil)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		f.ApplySource(m)
	}
	if f.MemberHashesPending() {
		list, err := f.HashMembersIn(f.r, p, neff.HashOptions{Context: ctx}, nil)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		f.ApplyMemberHashes(list)
	}
	enc, err := f.Doc.MarshalMsg(nil)
	if err != nil {
		t.Fatal(err)
	}
	return enc, f.Budget.Used(budget.Memory), f.Budget.First() != nil
}

// samePooled checks that mapping the source lines and hashing the members in pools of 1 and 3
// goroutines (and in a pool whose jobs all fail, and in one that starts the scans while the open
// resolves the model) gives the Document one thread gives, byte for byte, with the same memory
// charged; it returns the jobs the 3-goroutine pool ran.
func samePooled(t *testing.T, name string, b []byte) int32 {
	t.Helper()
	want, wantHeld := deferredDocument(t, name, b, nil)
	var ran int32
	for _, c := range []struct {
		n    int
		fail bool
	}{{1, false}, {3, false}, {2, true}} {
		p := &countingPool{Pool: pool.Goroutines(c.n, bytes.NewReader(b)), fail: c.fail}
		got, held := deferredDocument(t, name, b, p)
		if !bytes.Equal(got, want) {
			t.Errorf("%s: in a pool of %d (jobs failing: %v), the Document differs from one thread's: %s", name, c.n, c.fail, firstDifference(t, got, want))
		}
		if held != wantHeld {
			t.Errorf("%s: in a pool of %d (jobs failing: %v), %d bytes charged; one thread %d", name, c.n, c.fail, held, wantHeld)
		}
		if c.n == 3 {
			ran = p.jobs.Load()
		}
	}
	p := newAheadPool(2, b)
	got, held := deferredDocument(t, name, b, p)
	if !bytes.Equal(got, want) {
		t.Errorf("%s: with the scans started ahead, the Document differs from one thread's: %s", name, firstDifference(t, got, want))
	}
	if held != wantHeld {
		t.Errorf("%s: with the scans started ahead, %d bytes charged; one thread %d", name, held, wantHeld)
	}
	if p.jobs.Load() > 0 && p.hits.Load() == 0 {
		t.Errorf("%s: the pool ran %d jobs, none of them started ahead", name, p.jobs.Load())
	}
	return ran
}

// firstDifference names the first field at which two Documents' msgpack differ (their JSON
// forms walked side by side), so a failure says where the pool's answer went astray.
func firstDifference(t *testing.T, got, want []byte) string {
	t.Helper()
	decode := func(b []byte) any {
		var buf bytes.Buffer
		if _, err := msgp.UnmarshalAsJSON(&buf, b); err != nil {
			t.Fatal(err)
		}
		var v any
		if err := json.Unmarshal(buf.Bytes(), &v); err != nil {
			t.Fatal(err)
		}
		return v
	}
	var walk func(at string, g, w any) string
	walk = func(at string, g, w any) string {
		switch w := w.(type) {
		case map[string]any:
			g, ok := g.(map[string]any)
			if !ok {
				return at + ": not an object"
			}
			keys := map[string]bool{}
			for k := range w {
				keys[k] = true
			}
			for k := range g {
				keys[k] = true
			}
			for _, k := range slices.Sorted(maps.Keys(keys)) {
				if d := walk(at+"."+k, g[k], w[k]); d != "" {
					return d
				}
			}
			return ""
		case []any:
			g, ok := g.([]any)
			if !ok || len(g) != len(w) {
				return fmt.Sprintf("%s: %d elements, one thread %d", at, len(g), len(w))
			}
			for i := range w {
				if d := walk(fmt.Sprintf("%s[%d]", at, i), g[i], w[i]); d != "" {
					return d
				}
			}
			return ""
		}
		if !reflect.DeepEqual(g, w) {
			return fmt.Sprintf("%s: %v, one thread %v", at, g, w)
		}
		return ""
	}
	return walk("document", decode(got), decode(want))
}

// The real NEFFs, with every .dbg member read back (as a big NEFF's are, which the page's pool
// scans): the pool's Document is one thread's, and the pool ran jobs.
func TestPoolSameAsOneThreadOnReal(t *testing.T) {
	old := dbgHoldMax
	dbgHoldMax = 0
	defer func() { dbgHoldMax = old }()
	for _, p := range realfiles.NEFFs(t) {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if n := samePooled(t, filepath.Base(p), b); n == 0 {
			t.Errorf("%s: the pool ran no job", filepath.Base(p))
		}
	}
}

// The 32 MiB real-shaped NEFF the benchmarks open (matmul_small's streams and debug info
// repeated: members of MBs, past the seek index's checkpoints): the same.
func TestPoolSameAsOneThreadRealShaped(t *testing.T) {
	if !realfiles.Has(bigneff.Source) {
		t.Skip(realfiles.Missing(bigneff.Source))
	}
	if testing.Short() {
		t.Skip("opens the 32 MiB real-shaped NEFF four times")
	}
	p, err := bigneff.Cached("", 32, false)
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if n := samePooled(t, "big.neff", b); n < 2 {
		t.Errorf("the pool ran %d jobs", n)
	}
}

// Under memory limits from too tight for any source line to roomy, the pool's Document is
// one thread's: where every job's share does not fit the pool is not used, so it never has a
// member refused that one thread would have mapped. Some limit refuses members, and at some
// the pool runs.
func TestPoolSameAsOneThreadUnderTightMemory(t *testing.T) {
	old := dbgHoldMax
	dbgHoldMax = 0
	defer func() { dbgHoldMax = old }()
	b := realfiles.Read(t, "nki-moe/attn_v6.neff")
	lim := budget.Page()
	f := Open("attn_v6.neff", bytes.NewReader(b), int64(len(b)), Options{DeferSource: true, DeferMemberHashes: true, Limits: lim})
	opened := f.Budget.Used(budget.Memory)
	if _, err := f.IndexSource(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	mapping := f.Budget.Used(budget.Memory) - opened
	var refused, ran, hit bool
	for _, part := range []int64{1, 4, 8, 12, 16, 24, 32, 48, 64, 128, 1024} {
		lim.Memory = opened + mapping*part/8
		want, wantHeld, r := deferredWithin(t, "attn_v6.neff", b, nil, lim)
		p := &countingPool{Pool: pool.Goroutines(3, bytes.NewReader(b))}
		got, held, _ := deferredWithin(t, "attn_v6.neff", b, p, lim)
		if !bytes.Equal(got, want) {
			t.Errorf("memory limit %d: the pool's Document differs from one thread's: %s", lim.Memory, firstDifference(t, got, want))
		}
		if held != wantHeld {
			t.Errorf("memory limit %d: %d bytes charged in the pool; one thread %d", lim.Memory, held, wantHeld)
		}
		ap := newAheadPool(3, b)
		got, held, _ = deferredWithin(t, "attn_v6.neff", b, ap, lim)
		if !bytes.Equal(got, want) {
			t.Errorf("memory limit %d: with the scans started ahead, the Document differs from one thread's: %s", lim.Memory, firstDifference(t, got, want))
		}
		if held != wantHeld {
			t.Errorf("memory limit %d: with the scans started ahead, %d bytes charged; one thread %d", lim.Memory, held, wantHeld)
		}
		refused = refused || r
		ran = ran || p.jobs.Load() > 0
		hit = hit || ap.hits.Load() > 0
	}
	if !refused || !ran || !hit {
		t.Errorf("no limit refused a member (%v), or the pool never ran (%v), or no job started ahead was asked for (%v): the limits tried miss the case", !refused, !ran, !hit)
	}
}

// A pool's job cancelled midway ends the mapping with the context's error, the budget given
// back as one thread's cancel gives it.
func TestPoolCancelled(t *testing.T) {
	old := dbgHoldMax
	dbgHoldMax = 0
	defer func() { dbgHoldMax = old }()
	path, ok := realfiles.Find("nkipy/matmul_small.neff")
	if !ok {
		t.Skip(realfiles.Missing("nkipy/matmul_small.neff"))
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	f := Open("m.neff", bytes.NewReader(b), int64(len(b)), Options{DeferSource: true, DeferMemberHashes: true})
	before := f.Budget.Used(budget.Memory)
	ctx, cancel := context.WithCancel(context.Background())
	p := &cancelling{Pool: pool.Goroutines(2, bytes.NewReader(b)), cancel: cancel}
	if _, err := f.IndexSourceIn(ctx, nil, nil, p, nil); !errors.Is(err, context.Canceled) {
		t.Fatalf("the mapping cancelled gives %v", err)
	}
	if after := f.Budget.Used(budget.Memory); after != before {
		t.Errorf("%d bytes charged after a cancelled mapping; %d before", after, before)
	}
	if _, err := f.HashMembersIn(f.r, p, neff.HashOptions{Context: ctx}, nil); !errors.Is(err, context.Canceled) {
		t.Fatalf("the hashes cancelled give %v", err)
	}
}

// cancelling cancels the context as its first job starts.
type cancelling struct {
	pool.Pool
	cancel func()
}

func (c *cancelling) Run(ctx context.Context, j pool.Job) ([]byte, error) {
	c.cancel()
	return c.Pool.Run(ctx, j)
}

// The stretches a pool's jobs read: every member once, in archive order; a member over the
// share alone.
func TestPoolStretches(t *testing.T) {
	var ms []*neff.Member
	var off int64
	for _, size := range []int64{100, 200, 5 << 20, 300, 400, 10, 3 << 20, 1} {
		ms = append(ms, &neff.Member{Path: "m", DataOffset: off, Size: size})
		off += size + 512
	}
	runs := pool.Stretches(ms, 2)
	var flat []*neff.Member
	for _, r := range runs {
		flat = append(flat, r...)
		if len(r) > 1 {
			for _, m := range r {
				if m.Size >= 3<<20 {
					t.Errorf("a member of %d bytes shares a run of %d", m.Size, len(r))
				}
			}
		}
	}
	if !reflect.DeepEqual(flat, ms) {
		t.Errorf("the runs do not list every member once in order")
	}
}
