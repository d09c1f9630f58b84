package timeline

import (
	"encoding/binary"
	"math"
	"slices"
	"sort"

	"github.com/neffscope/neffscope/core/isa"
	"github.com/neffscope/neffscope/core/manifest"
	"github.com/neffscope/neffscope/core/sched"
)

// engineCosts is what the cost pass over one engine stream found beyond each word's cost:
// its DMA transfers, in program order.
type engineCosts struct {
	dma         []dmaTransfer
	uncosted    int // words costed by their engine's default row
	uncostedOps [256]int32
	unsized     int // triggers whose transfer could not be sized (costed as one small element)
	updates     []bool
}

// dmaTransfer is one DMA trigger's transfer.
type dmaTransfer struct {
	index     int32
	sem       int32 // the semaphore its completion updates (-1: not known)
	elements  int64 // contiguous runs, dealt to the DMA engines
	elemBytes int64
	trigger   int64 // ps from the trigger's end to its first element
	ramp      bool  // the trigger runs on a software DGE (DGEModel)
	done      int64 // ps: when the transfer completes (set by the simulator)
}

// dmaAt is the transfer triggered by instruction i, or nil.
func (c *engineCosts) dmaAt(i int32) *dmaTransfer {
	k := sort.Search(len(c.dma), func(k int) bool { return c.dma[k].index >= i })
	if k < len(c.dma) && c.dma[k].index == i {
		return &c.dma[k]
	}
	return nil
}

// prepare indexes Ops by engine and opcode, with the fallbacks resolved (once).
func (m *CostModel) prepare() {
	m.once.Do(func() {
		m.index = map[string]*[256]*OpCost{}
		for _, eng := range engineNames {
			var t [256]*OpCost
			var def *OpCost
			for i := range m.Ops {
				if r := &m.Ops[i]; r.Engine == eng && r.Opcode == 0 {
					def = r
				}
			}
			for op := range 256 {
				t[op] = def
			}
			for i := range m.Ops {
				if r := &m.Ops[i]; r.Engine == "" {
					t[r.Opcode] = r
				}
			}
			for i := range m.Ops {
				if r := &m.Ops[i]; r.Engine == eng && r.Opcode != 0 {
					t[r.Opcode] = r
				}
			}
			m.index[eng] = &t
		}
	})
}

// engineNames are the engines the cost rows name, as disasm names them.
var engineNames = []string{"PE", "Activation", "Pool", "DVE", "SP"}

// costOf is one word's issue interval and latency in ps, and whether a row of its own
// costed it.
func (m *CostModel) costOf(engine string, w []byte, ghz float64) (issue, lat int64, known bool) {
	t := m.index[engine]
	if t == nil {
		t = m.index["DVE"]
	}
	r := t[w[0]]
	if r == nil {
		return 0, 0, false
	}
	known = r.Opcode == w[0]
	add := m.shapeCycles(r, w)
	cyclesI, cyclesL := r.Issue+add, r.Latency+add
	return int64(math.Round(cyclesI / ghz * 1000)), int64(math.Round(cyclesL / ghz * 1000)), known
}

// costEngine fills one engine's issue intervals and latencies from its words, and lists its
// DMA transfers.
func (m *CostModel) costEngine(es *EngineSchedule, in sched.StreamInput, target string) engineCosts {
	var ec engineCosts
	if in.ISA == nil {
		return ec
	}
	ghz := m.clock(target, es.Name)
	if ghz == 0 {
		ghz = m.clock(target, "DVE")
	}
	ramp := slices.Contains(m.DGE.Engines, es.Name)
	ec.dma = make([]dmaTransfer, 0, in.ISA.Count(0xD4)+in.ISA.Count(0xC1))
	for i, w := range in.ISA.Words() {
		if i >= len(es.Lat) {
			break
		}
		if in.ISA.PartOf(i) >= 0 {
			continue // a 0xDA second word: costed with its 0xD4
		}
		if es.Retire != nil {
			if ec.updates == nil {
				ec.updates = make([]bool, len(es.Lat))
			}
			ec.updates[i] = w[6] == 0x13
		}
		issue, lat, known := m.costOf(es.Name, w, ghz)
		if !known {
			ec.uncosted++
			ec.uncostedOps[w[0]]++
		}
		es.Issue[i], es.Lat[i] = clampU32(issue), clampU32(lat)
		switch w[0] {
		case 0xD4:
			ec.dma = append(ec.dma, m.direct2dTransfer(int32(i), w, ramp))
		case 0xC1:
			d, sized := m.blockTransfer(int32(i), w, in.Engine)
			if !sized {
				ec.unsized++
			}
			ec.dma = append(ec.dma, d)
		}
	}
	return ec
}

func clampU32(v int64) uint32 {
	return uint32(min(max(v, 0), math.MaxUint32))
}

// direct2dTransfer sizes a PseudoDmaDirect2d (0xD4): num_elem[0] × num_elem[1] rows of
// src_elem_size bytes (+0x20, +0x22, +0x24), completing into the semaphore at +0x0D.
func (m *CostModel) direct2dTransfer(i int32, w []byte, ramp bool) dmaTransfer {
	u16 := func(o int) int64 { return int64(binary.LittleEndian.Uint16(w[o:])) }
	sem, _ := isa.Direct2dSemaphore(w)
	return dmaTransfer{index: i, sem: int32(sem), elements: max(u16(0x20)*u16(0x22), 1), elemBytes: u16(0x24), trigger: ps(m.DMA.TriggerDynamicNS), ramp: ramp}
}

// blockTransfer sizes a PseudoDMATrigger's (0xC1) block from the engine JSON: each
// descriptor moves the product of its from_sizes bytes (neff.md §3.5) in runs of its
// innermost size on the side with fewer runs. A block the JSON does not hold is one small
// element.
func (m *CostModel) blockTransfer(i int32, w []byte, e *manifest.Engine) (dmaTransfer, bool) {
	d := dmaTransfer{index: i, sem: -1, elements: 1, elemBytes: 4, trigger: ps(m.DMA.TriggerStaticNS)}
	blk := triggerBlock(w, e)
	if blk == nil {
		return d, false
	}
	if blk.Semaphore >= 0 && blk.Semaphore < 1<<20 {
		d.sem = int32(blk.Semaphore)
	}
	var runs, bytes int64
	for _, desc := range blk.Descs {
		b := product(desc.FromSizes)
		r := min(runsOf(desc.FromSizes), runsOf(desc.ToSizes))
		if b <= 0 || r <= 0 {
			continue
		}
		runs += r
		bytes += b
	}
	if runs == 0 {
		return d, false
	}
	d.elements, d.elemBytes = runs, max(bytes/runs, 1)
	return d, true
}

// triggerBlock finds a 0xC1's engine-JSON block by queue and block id, as core/sched does.
func triggerBlock(w []byte, e *manifest.Engine) *manifest.DMABlock {
	if e == nil {
		return nil
	}
	id, _ := isa.BlockIDOf(w)
	q, _ := isa.QueueOf(w)
	if q != "" {
		if b := e.Block(q, int64(id)); b != nil {
			return b
		}
	}
	if bs := e.BlocksWithID(int64(id)); len(bs) == 1 {
		return bs[0]
	}
	return nil
}

func product(v []int64) int64 {
	if len(v) == 0 {
		return 0
	}
	p := int64(1)
	for _, x := range v {
		if x <= 0 || p > math.MaxInt64/x {
			return 0
		}
		p *= x
	}
	return p
}

// runsOf is how many contiguous runs a sizes list (innermost first) makes.
func runsOf(sizes []int64) int64 {
	if len(sizes) < 2 {
		return 1
	}
	return product(sizes[1:])
}
