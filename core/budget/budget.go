// Package budget is the one set of limits an open of a file runs under, shared by every decoder
// (archive walk, JSON parser, manifest trees, instruction rows): a hostile file can only spend
// what the budget grants, whatever the number of members it splits its cost over. Decoders ask
// before they allocate; past a limit they degrade to spans and hex for what remains, and the
// first refusal is kept so the front end can say which limit, where, and how to raise it.
package budget

import (
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/neffscope/neffscope/core/doc"
)

// Kind names one limit.
type Kind int

const (
	Inflate Kind = iota // decompressed bytes
	Memory              // bytes held: kept member bytes plus the estimated cost of decoded structure
	Values              // JSON values indexed, over every member
	Members             // archive members listed
	Rows                // instruction rows materialised
	nKinds
)

var names = [nKinds]string{"inflate", "memory", "values", "members", "rows"}
var what = [nKinds]string{"decompressed bytes", "bytes held in memory", "JSON values indexed", "archive members", "instruction rows"}

func (k Kind) String() string { return names[k] }

// Flag is the CLI option that raises the limit.
func (k Kind) Flag() string { return "--max-" + names[k] }

// Limits are the ceilings of one open; a zero field takes the default of Native.
type Limits struct {
	Inflate int64 `json:"inflate,omitempty"`
	Memory  int64 `json:"memory,omitempty"`
	Values  int64 `json:"values,omitempty"`
	Members int64 `json:"members,omitempty"`
	Rows    int64 `json:"rows,omitempty"`
}

// Native bounds a native open whatever the file. Memory is 256 MiB: a
// real-shaped NEFF with tens of MB of JSON manifests holds their bytes (the resolver and the
// lazy JSON trees read them) and its model (~100 B a def.json variable, VarCost); the 32 MB
// real-shaped NEFF charges 52 MiB of it (82 MiB at 320 B a variable) and opens with nothing
// left out (a 64 MiB limit refused its second def.json). RSS stays under
// about twice the limit (the garbage collector's headroom).
func Native() Limits {
	return Limits{Inflate: 8 << 30, Memory: 256 << 20, Values: 1_000_000, Members: 200_000, Rows: 2_000_000}
}

// Page suits the browser worker, whose wasm heap must also hold the page's copies; the page
// passes its own figures sized to the worker, these are the bridge's defaults. Inflate is the
// native figure: what is inflated is streamed, not held, so it bounds only time, and the page
// shows progress and Cancel (a 1 GB NEFF of engine streams inflates to ~7 GB of tar).
func Page() Limits {
	return Limits{Inflate: 8 << 30, Memory: 256 << 20, Values: 600_000, Members: 100_000, Rows: 1_000_000}
}

func (l Limits) get(k Kind) int64 {
	return [nKinds]int64{l.Inflate, l.Memory, l.Values, l.Members, l.Rows}[k]
}

// WithDefaults fills every zero (or negative) field from def.
func (l Limits) WithDefaults(def Limits) Limits {
	pick := func(v, d int64) int64 {
		if v > 0 {
			return v
		}
		return d
	}
	return Limits{pick(l.Inflate, def.Inflate), pick(l.Memory, def.Memory), pick(l.Values, def.Values), pick(l.Members, def.Members), pick(l.Rows, def.Rows)}
}

// ErrLimit marks a request refused because it would pass a limit (errors.Is), so a front end
// can say "limit" rather than "not found".
var ErrLimit = errors.New("past a limit")

// Estimated costs of decoded structure, charged to Memory (measured on the Go heap): a JSON
// value built (166 B per value on a klir tree, a def.json and attn_v6's def.json: the Value,
// its slot in its parent, its key), a JSON tree node held (271–273 B per node on the same
// files, plus its entry in the value→node index), a member with its document nodes, one row.
// Lazy JSON containers (jsonspan.Options.LazyOver) cost neither: their values are not built.
const (
	ValueCost = 170
	NodeCost  = 330
	// VarCost is one def.json variable in the model: its 64-byte manifest.Var, its name's
	// bytes, its slots in the name and id indexes (manifest/varindex.go). Measured on the 32 MB
	// real-shaped NEFF's 145,438 vars: 14.6 MB live after `info` (NEFFSCOPE_MEMPROFILE with
	// GODEBUG=memprofilerate=1, (*resolver).vars cumulative), 103 B a var. A var whose
	// attributes no other shares (a file, a list, its own shape) costs ~150 B more.
	VarCost    = 104
	MemberCost = 2048
	RowCost    = 400
	// CoreCost is one core of the model with what an open builds for it (its overview
	// node, engines, memory figure rows, the info JSON's share): an estimate from the peak
	// RSS of NEFFs of tens of thousands of one-line def.json cores (neffbuild's many-cores).
	CoreCost = 32 << 10
)

// Budget counts what one open has spent. A nil *Budget grants everything, so decoders used
// outside an open (tests, tools) need no budget. It is safe for concurrent use: the .dbg scans
// of an open charge it from their own goroutine while the archive walk charges the members.
type Budget struct {
	mu     sync.Mutex
	limits Limits
	used   [nKinds]int64
	first  *Exceeded
	hit    [nKinds]bool
	// parent is the budget of the command this one is part of (Within): what it takes of the
	// shared kinds is taken from the parent too.
	parent *Budget
}

// shared says which kinds a budget Within another also takes from it: all but Inflate, which
// bounds time, not what is held.
func shared(k Kind) bool { return k != Inflate }

// Within returns a budget with l's limits whose every Take of a shared kind also takes from b:
// a command over N files gives each open its own limits and refusals, and holds one budget
// for them all. Done gives back to b what the budget still holds.
func (b *Budget) Within(l Limits) *Budget {
	c := New(l)
	if b != nil {
		c.parent = b
	}
	return c
}

// Parent is the budget this one is Within (nil: none); a nil budget's Within is a budget of
// its own.
func (b *Budget) Parent() *Budget {
	if b == nil {
		return nil
	}
	return b.parent
}

// Done gives back to the budget's parent (Within) everything it still holds, when what it
// was charged for is let go (an open a scan has finished with); it holds nothing after.
func (b *Budget) Done() {
	if b == nil {
		return
	}
	b.mu.Lock()
	used := b.used
	b.used = [nKinds]int64{}
	b.mu.Unlock()
	if b.parent != nil {
		for k := range nKinds {
			if shared(k) && used[k] > 0 {
				b.parent.Release(k, used[k])
			}
		}
	}
}

// Exceeded records a refusal: which limit, at what, and where.
type Exceeded struct {
	Kind  Kind
	Limit int64
	Where string
}

// New returns a budget with l's limits (zero fields: Native's).
func New(l Limits) *Budget { return &Budget{limits: l.WithDefaults(Native())} }

// Limits returns the limits in force.
func (b *Budget) Limits() Limits {
	if b == nil {
		return Limits{}
	}
	return b.limits
}

// Limit is k's ceiling (0 for a nil budget: unlimited).
func (b *Budget) Limit(k Kind) int64 {
	if b == nil {
		return 0
	}
	return b.limits.get(k)
}

// Used is how much of k was spent.
func (b *Budget) Used(k Kind) int64 {
	if b == nil {
		return 0
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.used[k]
}

// Left is what remains of k (a huge number for a nil budget).
func (b *Budget) Left(k Kind) int64 {
	if b == nil {
		return 1 << 62
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	left := max(0, b.limits.get(k)-b.used[k])
	if b.parent != nil && shared(k) {
		left = min(left, b.parent.Left(k))
	}
	return left
}

// Take spends n of k if the limit allows it; otherwise it spends nothing, records the refusal
// (where says what was being decoded) and returns false. Call it before allocating.
func (b *Budget) Take(k Kind, n int64, where string) bool {
	if b == nil {
		return true
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if n < 0 || b.used[k]+n > b.limits.get(k) || b.used[k]+n < b.used[k] {
		b.refuse(k, where)
		return false
	}
	if b.parent != nil && shared(k) && !b.parent.Take(k, n, where) {
		b.refuse(k, where)
		return false
	}
	b.used[k] += n
	return true
}

// Can says whether n of k would fit, spending nothing.
func (b *Budget) Can(k Kind, n int64) bool {
	if b == nil {
		return true
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	return n >= 0 && b.used[k]+n <= b.limits.get(k) && (b.parent == nil || !shared(k) || b.parent.Can(k, n))
}

// Refuse records that k ran out at where (for decoders that count on their own, like a
// limited reader).
func (b *Budget) Refuse(k Kind, where string) {
	if b != nil {
		b.mu.Lock()
		defer b.mu.Unlock()
		b.refuse(k, where)
	}
}

// refuse is called with b.mu held.
func (b *Budget) refuse(k Kind, where string) {
	if !b.hit[k] {
		b.hit[k] = true
		if b.first == nil {
			b.first = &Exceeded{Kind: k, Limit: b.limits.get(k), Where: where}
		}
	}
}

// Release gives back n of k (memory freed when a member's bytes are dropped).
func (b *Budget) Release(k Kind, n int64) {
	if b != nil {
		b.mu.Lock()
		defer b.mu.Unlock()
		n = max(0, min(n, b.used[k]))
		b.used[k] -= n
		if b.parent != nil && shared(k) && n > 0 {
			b.parent.Release(k, n)
		}
	}
}

// First is the first refusal, nil if every request fitted.
func (b *Budget) First() *Exceeded {
	if b == nil {
		return nil
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.first
}

// Hit lists every limit that refused something, first refusal first.
func (b *Budget) Hit() []Kind {
	if b == nil {
		return nil
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.first == nil {
		return nil
	}
	out := []Kind{b.first.Kind}
	for k := range nKinds {
		if b.hit[k] && k != b.first.Kind {
			out = append(out, k)
		}
	}
	return out
}

// Message is the one finding text for a budget that refused something: which limit, where,
// and how to raise it (the CLI flag and the page setting); "" when nothing was refused.
func (b *Budget) Message() string {
	e := b.First()
	if e == nil {
		return ""
	}
	var s strings.Builder
	fmt.Fprintf(&s, "this file needs more than the %s limit allows (%s %s, reached at %s); ", e.Kind, Human(e.Kind, e.Limit), what[e.Kind], e.Where)
	if others := b.Hit()[1:]; len(others) > 0 {
		var o []string
		for _, k := range others {
			o = append(o, k.String())
		}
		fmt.Fprintf(&s, "the %s limit%s also reached; ", strings.Join(o, ", "), map[bool]string{true: "s were", false: " was"}[len(o) > 1])
	}
	fmt.Fprintf(&s, "what remains is shown as bytes (spans and hex) only. If the file is trusted, raise it: neffscope %s N (the page keeps its own limits, sized to a browser tab: open such a file with the CLI).", e.Kind.Flag())
	return s.String()
}

// Human prints a limit in its unit.
func Human(k Kind, n int64) string {
	if k == Inflate || k == Memory {
		switch {
		case n >= 1<<30 && n%(1<<30) == 0:
			return fmt.Sprintf("%d GiB of", n>>30)
		case n >= 1<<20 && n%(1<<20) == 0:
			return fmt.Sprintf("%d MiB of", n>>20)
		}
		return fmt.Sprintf("%d", n)
	}
	return fmt.Sprintf("%d", n)
}

// codes are the finding codes of a limit that refused something, by kind.
var codes = [nKinds]doc.Code{doc.CodeBudgetInflate, doc.CodeBudgetMemory, doc.CodeBudgetValues, doc.CodeBudgetMembers, doc.CodeBudgetRows}

// Code is the finding code of this limit's refusal ("budget.memory", …).
func (k Kind) Code() doc.Code { return codes[k] }
