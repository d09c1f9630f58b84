package inspect

import (
	"sync"

	"github.com/neffscope/neffscope/core/isa"
	"github.com/neffscope/neffscope/core/manifest"
)

// The open walks every held stream's words once (Program.walked): one opcode table picks the
// collectors a word feeds, and each collector keeps, per stream, what one reader of the open
// needs — the join problems (streamNode), the activation uses (overviewActivation), the
// PseudoDmaDirect2d queues and loads (the overview's DMA) and the vars they name (linkVars).
// A stream not held is not walked (see streamNode).

// collectors is the set of collectors one word feeds.
type collectors uint8

const (
	collectJoin       collectors = 1 << iota // every joined word: Resolve, its problem and its activation use
	collectActivation                        // an activation join's set and function
	collectDirect2d                          // a PseudoDmaDirect2d: its queue, the var it loads, the vars it names
)

// collectorsOf is the open walk's one opcode filter: isa.JoinOf's joins, and 0xD4.
var collectorsOf = func() (t [256]collectors) {
	for op := range t {
		switch isa.JoinOf(uint8(op)) {
		case isa.JoinActivation:
			t[op] |= collectJoin | collectActivation
		case isa.JoinDMA:
			t[op] |= collectJoin
		}
	}
	t[0xD4] |= collectDirect2d
	return t
}()

// openWalk is what the one walk collected, per stream.
type openWalk struct {
	streams map[*ProgramStream]*streamWalk
	// varUses is each core's VarUses for the cores whose var nodes the open builds (linkVars
	// takes them, so they are not held past it).
	varUses map[*manifest.Core]map[int64][]VarUse
}

// streamWalk is one stream's share of the walk.
type streamWalk struct {
	problems []*joinProblem
	// act counts the stream's table loads per set and its calls per set and function
	// (set+"\x00"+function); used says a word joined a set at all.
	loads, calls map[string]int
	used         bool
	d2           direct2dUses
}

// joinProblem is one kind of join problem of a stream: its first word and how many share it.
type joinProblem struct {
	first, count int
	text         string
}

// direct2dUses is what a stream's 0xD4 words issue: per dynamic queue (in the order first
// seen) and per var loaded into the state buffer (likewise), as dmaProfile counts them.
type direct2dUses struct {
	queues  []direct2dQueue
	loads   []direct2dLoad
	queueAt map[string]int
	loadAt  map[*manifest.Var]int
}

type direct2dQueue struct {
	name  string
	count int64
}

type direct2dLoad struct {
	v            *manifest.Var
	count, bytes int64
}

// add counts 0xD4 word w of ps.
func (d *direct2dUses) add(ps *ProgramStream, w []byte) {
	src, dst, _ := isa.Direct2dAddrs(w)
	sem, _ := isa.Direct2dSemaphore(w)
	name := "(no dynamic queue)"
	if q := dynamicQueue(ps.Core, ps.Engine, int64(sem)); q != nil {
		name = q.Name
	}
	if d.queueAt == nil {
		d.queueAt, d.loadAt = map[string]int{}, map[*manifest.Var]int{}
	}
	if k, ok := d.queueAt[name]; ok {
		d.queues[k].count++
	} else {
		d.queueAt[name] = len(d.queues)
		d.queues = append(d.queues, direct2dQueue{name, 1})
	}
	if dv := addrVar(ps.Core, dst); dv != nil && dv.Type == "state-buffer" {
		if sv := addrVar(ps.Core, src); sv != nil && sv.Type != "state-buffer" {
			n, _ := isa.Direct2dSrcBytes(w)
			if k, ok := d.loadAt[sv]; ok {
				d.loads[k].count++
				d.loads[k].bytes += n
			} else {
				d.loadAt[sv] = len(d.loads)
				d.loads = append(d.loads, direct2dLoad{sv, 1, n})
			}
		}
	}
}

// addVarUses adds 0xD4 word i of ps (w) to the uses of the vars it names (VarUses).
func addVarUses(out map[int64][]VarUse, ps *ProgramStream, i int, w []byte) {
	src, dst, ok := isa.Direct2dAddrs(w)
	if !ok {
		return
	}
	if id, ok := dmaVarID(ps.Core, src); ok {
		out[id] = append(out[id], VarUse{Stream: ps, Index: int32(i)})
	}
	if id, ok := dmaVarID(ps.Core, dst); ok {
		out[id] = append(out[id], VarUse{Stream: ps, Index: int32(i), Dst: true})
	}
}

// walkOnce guards the one walk (streamNode may be asked for from several goroutines).
type walkOnce struct {
	once sync.Once
	w    *openWalk
	mu   sync.Mutex // guards w.varUses
}

// walked is the open's one walk over every held stream's words, done when first asked for.
func (p *Program) walked() *openWalk {
	p.walk.once.Do(func() { p.walk.w = p.walkStreams() })
	return p.walk.w
}

func (p *Program) walkStreams() *openWalk {
	ow := &openWalk{streams: map[*ProgramStream]*streamWalk{}, varUses: map[*manifest.Core]map[int64][]VarUse{}}
	for _, c := range p.Model.Cores {
		if len(c.Vars) <= varNodesHeld {
			ow.varUses[c] = map[int64][]VarUse{}
		}
	}
	for _, ps := range p.Streams {
		if ps.ISA == nil || !ps.ISA.Held() {
			continue
		}
		sw := &streamWalk{loads: map[string]int{}, calls: map[string]int{}}
		ow.streams[ps] = sw
		byText := map[string]*joinProblem{}
		uses := ow.varUses[ps.Core]
		for i, w := range ps.ISA.Words() {
			c := collectorsOf[w[0]]
			if c == 0 {
				continue
			}
			if c&collectJoin != 0 {
				r := p.Resolve(ps, i, w)
				if r.Problem != "" {
					if pr := byText[r.Problem]; pr != nil {
						pr.count++
					} else {
						pr := &joinProblem{first: i, count: 1, text: r.Problem}
						byText[r.Problem] = pr
						sw.problems = append(sw.problems, pr)
					}
				}
				if c&collectActivation != 0 && r.Set != "" {
					sw.used = true
					if _, load := isa.SetIndexOf(w); load {
						sw.loads[r.Set]++
					} else if r.Function != "" {
						sw.calls[r.Set+"\x00"+r.Function]++
					}
				}
			}
			if c&collectDirect2d != 0 {
				sw.d2.add(ps, w)
				if uses != nil {
					addVarUses(uses, ps, i, w)
				}
			}
		}
	}
	return ow
}

// takeVarUses hands over core c's VarUses from the walk (once; later asks walk again).
func (p *Program) takeVarUses(c *manifest.Core) map[int64][]VarUse {
	ow := p.walked()
	p.walk.mu.Lock()
	u, ok := ow.varUses[c]
	delete(ow.varUses, c)
	p.walk.mu.Unlock()
	if !ok {
		return p.VarUses(c)
	}
	return u
}
