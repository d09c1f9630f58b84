package ntff

import (
	"os"
	"strings"
	"testing"

	"github.com/neffscope/neffscope/core/budget"
	"github.com/neffscope/neffscope/core/doc"
	"github.com/neffscope/neffscope/internal/realfiles"
)

// The four shared captures and what spec ntff.md §0, §4.2, §4.5 measured on each.
var captures = []struct {
	file       string
	header     int64
	module     string
	window     uint64   // ps
	records    [3]int64 // NC 4: TRACE, NOTIFY, TRACE_DMA
	compiler   [5]int   // sg00 NEFF instructions per engine (§4.5)
	preamble   [5]int   // sg00 (§4.2)
	dmaBytes   int64    // NC 4
	dmaGBps    string   // NC 4, over the union of every queue's busy time (§6.2)
	dmaPackets int64
}{
	{"nki-moe/profile_attn_v6_exec_2.ntff", 7259, "17825228117791364669", 359874021, [3]int64{4613, 2254, 40776}, [5]int{781, 149, 338, 667, 26}, [5]int{67, 67, 62, 82, 50}, 10016740, "36.1", 13592},
	{"nki-moe/profile_attn_v4_new_exec_2.ntff", 10620, "5587948502373595816", 446496385, [3]int64{6035, 3336, 50388}, [5]int{918, 235, 337, 1086, 66}, [5]int{67, 67, 62, 82, 50}, 10084836, "31.2", 0},
	{"nki-moe/profile_attn_v5_new_exec_2.ntff", 53224, "17352183890370148150", 335904892, [3]int64{8337, 4202, 50649}, [5]int{1490, 147, 487, 950, 503}, [5]int{67, 67, 75, 82, 63}, 10205364, "36.9", 0},
	{"nki-moe/profile_v2_new_exec_2.ntff", 57137, "281124352306488704", 433524947, [3]int64{10245, 6467, 64245}, [5]int{1735, 235, 566, 1391, 551}, [5]int{67, 67, 75, 82, 63}, 11587700, "33.8", 0},
}

func openReal(t *testing.T, rel string) (*Profile, *budget.Budget) {
	t.Helper()
	p, ok := realfiles.Find(rel)
	if !ok {
		t.Skip(realfiles.Missing(rel))
	}
	f, err := os.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	st, _ := f.Stat()
	b := budget.New(budget.Limits{})
	return Read(rel, f, st.Size(), b), b
}

func errorsOf(n *doc.Node) []doc.Finding {
	var out []doc.Finding
	n.Walk(func(_ []string, c *doc.Node) bool {
		for _, fd := range c.Findings {
			if fd.Severity != doc.Info {
				out = append(out, fd)
			}
		}
		return true
	})
	return out
}

// TestRealCaptures reads the four shared captures: the container, the header's fields and the
// layout of the blob, against spec ntff.md §0, §4.2 and §4.5.
func TestRealCaptures(t *testing.T) {
	for _, c := range captures {
		t.Run(c.file, func(t *testing.T) {
			p, _ := openReal(t, c.file)
			if !p.OK || p.Version != 6 || p.HeaderLen != c.header {
				t.Fatalf("ok %v version %d header %d, want version 6 header %d", p.OK, p.Version, p.HeaderLen, c.header)
			}
			if fs := errorsOf(p.Root); len(fs) > 0 {
				t.Errorf("findings on a real capture: %+v", fs)
			}
			if !strings.Contains(p.NEFFName, "model.MODULE_"+c.module+"+fad94d7c.neff") {
				t.Errorf("NEFF name %q", p.NEFFName)
			}
			if p.Runtime.String() != "2.30.51" || p.InstanceType != "trn2.3xlarge" || len(p.Cores) != 2 {
				t.Errorf("runtime %q instance %q cores %d", p.Runtime.String(), p.InstanceType, len(p.Cores))
			}
			if !p.HasWindow || p.Window[1]-p.Window[0] != c.window || p.Cores[0].ExecPS != c.window {
				t.Errorf("window %v (%d ps), sg00 exec %d; want %d", p.Window, p.Window[1]-p.Window[0], p.Cores[0].ExecPS, c.window)
			}
			sg00 := p.Cores[0]
			if sg00.Name != "sg00" || sg00.NC != 4 || p.Cores[1].NC != 5 {
				t.Errorf("cores %s/%d %s/%d", sg00.Name, sg00.NC, p.Cores[1].Name, p.Cores[1].NC)
			}
			for e, want := range c.compiler {
				im := sg00.Image(e)
				if im == nil {
					t.Fatalf("no %s image", EngineName(e))
				}
				l := im.Layout()
				if l.Problem != "" || l.Compiler != want || l.Preamble != c.preamble[e] {
					t.Errorf("sg00 %s: %+v, want %d NEFF instructions after a %d-word preamble", EngineName(e), l, want, c.preamble[e])
				}
			}
			var got [3]int64
			for _, s := range p.Sections {
				if s.NC == 4 && s.Kind != 2 {
					switch s.Type {
					case NQTrace:
						got[0] = s.Records()
					case NQNotify:
						got[1] = s.Records()
					case NQTraceDMA:
						got[2] = s.Records()
					}
				}
			}
			if got != c.records {
				t.Errorf("NC 4 records %v, want %v", got, c.records)
			}
		})
	}
}

// TestRealMeasure measures the four captures: DMA packets, bytes and the achieved rate over the
// union of every queue's busy time (spec ntff.md §0, §6.2), and attn_v6's traced words and busy
// times per engine (§4.3) and semaphore peaks (§4.4).
func TestRealMeasure(t *testing.T) {
	for _, c := range captures {
		t.Run(c.file, func(t *testing.T) {
			p, b := openReal(t, c.file)
			m := Measure(p, b)
			for _, fd := range m.Findings {
				if fd.Severity != doc.Info {
					t.Errorf("finding %s: %s", fd.Code, fd.Message)
				}
			}
			nc4 := m.Cores[0]
			if nc4.Trace != c.records[0] || nc4.Notify != c.records[1] || nc4.DMA != c.records[2] {
				t.Errorf("records %d %d %d, want %v", nc4.Trace, nc4.Notify, nc4.DMA, c.records)
			}
			all := NewUnion(nil, "")
			var bytes, packets int64
			for _, q := range nc4.Queues {
				bytes += q.Bytes
				packets += q.Packets
				for _, s := range q.Busy.Segments() {
					all.Add(s.Start, s.End)
				}
			}
			rate := float64(bytes) / float64(all.Length()) * 1000
			if bytes != c.dmaBytes || strconvF(rate) != c.dmaGBps || packets*3 != c.records[2] {
				t.Errorf("DMA %d B in %d packets over %d ps = %.2f GB/s, want %d B at %s GB/s, 3 records a packet", bytes, packets, all.Length(), rate, c.dmaBytes, c.dmaGBps)
			}
			if c.dmaPackets > 0 && packets != c.dmaPackets {
				t.Errorf("%d packets, want %d", packets, c.dmaPackets)
			}
		})
	}
	p, b := openReal(t, captures[0].file)
	m := Measure(p, b)
	want := []struct {
		traced int
		busy   string
	}{{820, "68.757 µs"}, {178, "76.224 µs"}, {367, "112.700 µs"}, {719, "100.431 µs"}, {50, "37.522 µs"}}
	for k, e := range m.Cores[0].Engines {
		n := 0
		for i := range e.End {
			if e.Traced(i) {
				n++
			}
		}
		if busy := Micros(e.Busy(nil, nil).Length()); n != want[k].traced || busy != want[k].busy {
			t.Errorf("sg00 %s: %d traced words busy %s, want %d and %s", EngineName(e.Image.Engine), n, busy, want[k].traced, want[k].busy)
		}
	}
	if g, w := m.Cores[0].Engines[2].DGE+m.Cores[0].Engines[4].DGE, int64(324+20); g != w {
		t.Errorf("DGE records %d, want %d (one per Pool 0xB8, one per SP dynamic DMA)", g, w)
	}
	// §4.4: peaks exact, increment records fewer than increments.
	for _, s := range []struct {
		id, peak, incs int
	}{{4, 136, 85}, {5, 372, 304}, {6, 612, 454}, {8, 336, 46}, {28, 7, 2}} {
		se := semaphore(m.Cores[0], s.id)
		if se == nil {
			t.Fatalf("no S[%d]", s.id)
		}
		incs := 0
		for _, pt := range se.Points {
			if pt.Op == NotifyIncrement {
				incs++
			}
		}
		if int(se.Peak) != s.peak || incs != s.incs {
			t.Errorf("S[%d] peak %d with %d increment records, want %d and %d", s.id, se.Peak, incs, s.peak, s.incs)
		}
	}
}

func semaphore(ct *CoreTimes, id int) *Series {
	for _, s := range ct.Semaphores {
		if s.ID == id {
			return s
		}
	}
	return nil
}

func strconvF(x float64) string {
	s := make([]byte, 0, 8)
	v := int64(x*10 + 0.5)
	s = append(s, []byte(itoa(v/10))...)
	return string(s) + "." + itoa(v%10)
}

// TestFirstTraceRecord decodes the record spec ntff.md §3.2 gives as its example.
func TestFirstTraceRecord(t *testing.T) {
	p, _ := openReal(t, captures[0].file)
	var first Record
	p.Scan(p.Sections[0], 0, func(k int64, r Record) bool { first = r; return false })
	pe := p.Cores[0].Image(0)
	if first.A != 0x8401041B || first.B != 0x8BF90000 || first.T != 0x05271CA9C6F8A4B2 {
		t.Fatalf("first record %#x %#x %#x", first.A, first.B, first.T)
	}
	if TraceEngine(first.A) != 0 || TraceKind(first.A) != TraceStart || TracePC(first.A) != 0x1041B || pe.Position(TracePC(first.A)) != 27 {
		t.Errorf("engine %d kind %d pc %#x position %d; want PE start 0x1041B at position 27", TraceEngine(first.A), TraceKind(first.A), TracePC(first.A), pe.Position(TracePC(first.A)))
	}
	if pe.Base() != 0x10400 {
		t.Errorf("PE base %#x, want 0x10400", pe.Base())
	}
}
