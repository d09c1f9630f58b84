package timeline

import (
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/neffscope/neffscope/core/doc"
	"github.com/neffscope/neffscope/core/inspect"
	"github.com/neffscope/neffscope/core/ntff"
	"github.com/neffscope/neffscope/core/ntff/ntffbuild"
	"github.com/neffscope/neffscope/internal/realfiles"
)

const (
	attnNEFF    = "nki-moe/attn_v6.neff"
	attnProfile = "nki-moe/profile_attn_v6_exec_2.ntff"
)

func openFile(t *testing.T, rel string) *inspect.File {
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
	return inspect.Open(rel, f, st.Size(), inspect.Options{})
}

func micros(ps uint64) string { return ntff.Micros(ps) }

// TestJoinAttnV6 joins attn_v6's profile to its NEFF and holds every figure spec ntff.md §4.3
// and §5 measured: 1,961 of 1,971 instructions timed (the 10 PseudoBranchLabels dropped), the
// busy times of the words from NEFF instructions, the first PE instructions' times, and the
// consistency checks (688 waits in order, 1 met inside, 0 violated; 311/369/0 DMA waits;
// 44 of 52 semaphore totals; the three program queues' bytes exact; 10/10 images equal).
func TestJoinAttnV6(t *testing.T) {
	pf, nf := openFile(t, attnProfile), openFile(t, attnNEFF)
	r := Measure(pf.NTFF, nf, pf.Budget)
	m := r.Measured
	if !m.Joined || len(m.Cores) != 2 {
		t.Fatalf("joined %v, %d cores", m.Joined, len(m.Cores))
	}
	for _, fd := range m.Findings {
		if fd.Severity != doc.Info {
			t.Errorf("finding %s: %s", fd.Code, fd.Message)
		}
	}
	want := []struct {
		engine        string
		instr, timed  int
		busy          string
		pre, post, in int
	}{{"PE", 781, 780, "40.236 µs", 67, 11, 0}, {"Activation", 149, 148, "51.452 µs", 67, 11, 0}, {"Pool", 338, 337, "105.342 µs", 62, 11, 0}, {"DVE", 667, 666, "76.734 µs", 82, 14, 20}, {"SP", 26, 25, "10.516 µs", 50, 9, 0}}
	var instr, timed int
	for ci, c := range m.Cores {
		for k, e := range c.Engines {
			instr += e.Instructions
			timed += e.Timed
			if len(e.Untimed) != 1 || e.Untimed[0].Index != 1 || e.Untimed[0].Reason != UntimedDropped {
				t.Errorf("%s %s untimed %+v, want the PseudoBranchLabel at index 1, dropped", c.Core, e.Engine, e.Untimed)
			}
			if ci > 0 {
				continue
			}
			w := want[k]
			if e.Engine != w.engine || e.Instructions != w.instr || e.Timed != w.timed || micros(e.BusyPS) != w.busy {
				t.Errorf("sg00 %s: %d instructions, %d timed, busy %s; want %s %d %d %s", e.Engine, e.Instructions, e.Timed, micros(e.BusyPS), w.engine, w.instr, w.timed, w.busy)
			}
			if rc := e.Runtime; rc.PreambleWords != w.pre || rc.PostambleWords != w.post || rc.InsertedWords != w.in {
				t.Errorf("sg00 %s runtime %+v, want preamble %d postamble %d inserted %d", e.Engine, rc, w.pre, w.post, w.in)
			}
		}
	}
	if instr != 1971 || timed != 1961 {
		t.Errorf("%d of %d instructions timed, want 1,961 of 1,971", timed, instr)
	}
	// §4.3: the first PE instructions, from the capture's first TRACE record.
	var first uint64
	pf.NTFF.Scan(pf.NTFF.Sections[0], 0, func(_ int64, rec ntff.Record) bool { first = rec.T; return false })
	pe := r.Stream("sg00/PE.bin")
	for _, x := range []struct {
		i          int
		start, dur string
	}{{0, "17.874", "44.2"}, {2, "21.502", "52.5"}, {3, "21.579", "101.7"}, {4, "21.610", "163.3"}} {
		s, d := fixed(float64(pe.Start[x.i]-first)/1e6, 3), fixed(float64(pe.End[x.i]-pe.Start[x.i])/1e3, 1)
		if s != x.start || d != x.dur {
			t.Errorf("PE #%d starts at %s µs and lasts %s ns, want %s and %s", x.i, s, d, x.start, x.dur)
		}
	}
	ck := m.Checks
	if ck.WaitsInOrder != 688 || ck.WaitsMetInside != 1 || ck.WaitsViolated != 0 || ck.WaitsUntimed != 0 {
		t.Errorf("waits %d in order, %d met inside, %d violated, %d untimed; want 688, 1, 0, 0", ck.WaitsInOrder, ck.WaitsMetInside, ck.WaitsViolated, ck.WaitsUntimed)
	}
	if mi := ck.MetInside; len(mi) != 1 || mi[0].Waiter != (Ref{"PE", 166}) || mi[0].Producer != (Ref{"DVE", 82}) || fixed(float64(mi[0].ProducerEndPS-mi[0].WaiterStartPS)/1e3, 1) != "6132.1" {
		t.Errorf("met inside %+v, want PE #166 waiting for DVE #82, which ends 6,132.1 ns after its start", mi)
	}
	if d := ck.DMAWaits; d != (DMAWaitsCheck{680, 311, 369, 0}) {
		t.Errorf("DMA waits %+v, want 680: 311 confirmed, 369 undecidable, 0 contradicted", d)
	}
	if s := ck.Semaphores; s.Checked != 52 || s.Exact != 44 {
		t.Errorf("semaphores %d of %d exact, want 44 of 52", s.Exact, s.Checked)
	}
	for _, miss := range ck.Semaphores.Misses {
		if !miss.DMA || uint64(miss.Peak) >= miss.Static || uint64(miss.MaxWait) != miss.Static {
			t.Errorf("semaphore miss %+v: every miss is DMA-produced, short, and its total the largest wait", miss)
		}
	}
	if len(ck.DMABytes) != 3 {
		t.Errorf("DMA bytes checked on %d queues, want the 3 program queues", len(ck.DMABytes))
	}
	for _, d := range ck.DMABytes {
		if !d.Exact {
			t.Errorf("DMA bytes %+v", d)
		}
	}
	if ck.Image != (ImageCheck{10, 10, 1981, 0}) {
		t.Errorf("image check %+v", ck.Image)
	}
	if w := ck.Window; !w.Equal || w.WindowPS != 359874021 || len(w.Cores) != 2 || fixed(float64(w.Cores[0].FromPS)/1e6, 3) != "13.095" || fixed(float64(w.Cores[0].ToPS)/1e6, 3) != "358.047" || !w.Cores[0].Inside || !w.Cores[1].Inside {
		t.Errorf("window %+v, want sg00's program from +13.095 to +358.047 µs", w)
	}
	for _, q := range ck.Quanta {
		if q.Core != "sg00" {
			continue
		}
		want := map[string][2]int{"PE": {817, 820}, "Activation": {176, 178}, "Pool": {367, 367}, "DVE": {718, 719}, "SP": {49, 50}}[q.Engine]
		if q.OnQuantum != want[0] || q.Words != want[1] {
			t.Errorf("%s: %d of %d durations on the quantum, want %d of %d", q.Engine, q.OnQuantum, q.Words, want[0], want[1])
		}
	}
	if len(m.Lines) == 0 || m.Lines[0].Name() != "v6_ultimate.py:273" || m.Lines[0].PerEngine["Pool"] != m.Lines[0].TimePS {
		t.Errorf("hottest line %+v, want v6_ultimate.py:273, all on Pool", m.Lines[:1])
	}
	if _, err := json.Marshal(r.Measured); err != nil {
		t.Fatal(err)
	}
}

// TestAloneCaptures opens each capture without its NEFF: its rows are image words, and the
// NEFF instruction count per engine is what spec ntff.md §4.5 lists.
func TestAloneCaptures(t *testing.T) {
	for _, c := range []struct {
		file  string
		count [5]int
	}{
		{attnProfile, [5]int{781, 149, 338, 667, 26}},
		{"nki-moe/profile_attn_v4_new_exec_2.ntff", [5]int{918, 235, 337, 1086, 66}},
		{"nki-moe/profile_attn_v5_new_exec_2.ntff", [5]int{1490, 147, 487, 950, 503}},
		{"nki-moe/profile_v2_new_exec_2.ntff", [5]int{1735, 235, 566, 1391, 551}},
	} {
		t.Run(c.file, func(t *testing.T) {
			pf := openFile(t, c.file)
			m := Measure(pf.NTFF, nil, pf.Budget).Measured
			if m.Joined || len(m.Cores) != 2 {
				t.Fatalf("joined %v, %d cores", m.Joined, len(m.Cores))
			}
			for k, e := range m.Cores[0].Engines {
				if e.NEFFInstructions != c.count[k] || e.Timed == 0 || e.Timed > e.Instructions || e.BusyPS == 0 {
					t.Errorf("sg00 %s: %d NEFF instructions (want %d), %d of %d words timed, busy %d", e.Engine, e.NEFFInstructions, c.count[k], e.Timed, e.Instructions, e.BusyPS)
				}
			}
			if len(m.Cores[0].Queues) == 0 || len(m.Cores[0].Semaphores) == 0 {
				t.Error("no DMA queues or semaphores measured")
			}
		})
	}
	// §4.3: all traced words' busy time, the profile's own figure.
	pf := openFile(t, attnProfile)
	m := Measure(pf.NTFF, nil, pf.Budget).Measured
	for k, want := range []string{"68.757 µs", "76.224 µs", "112.700 µs", "100.431 µs", "37.522 µs"} {
		if e := m.Cores[0].Engines[k]; micros(e.BusyPS) != want {
			t.Errorf("sg00 %s busy over all traced words %s, want %s", e.Engine, micros(e.BusyPS), want)
		}
	}
}

// TestWrongNEFF joins a profile to a NEFF it was not captured from: one coded error, nothing
// joined.
func TestWrongNEFF(t *testing.T) {
	pf, nf := openFile(t, "nki-moe/profile_v2_new_exec_2.ntff"), openFile(t, attnNEFF)
	m := Measure(pf.NTFF, nf, pf.Budget).Measured
	var codes []doc.Code
	for _, fd := range m.Findings {
		codes = append(codes, fd.Code)
	}
	if m.Joined || len(m.Cores) != 0 || len(codes) != 1 || codes[0] != doc.CodeNTFFUUIDMismatch || m.Findings[0].Severity != doc.Error {
		t.Fatalf("joined %v, %d cores, findings %v; want one %s error and nothing joined", m.Joined, len(m.Cores), codes, doc.CodeNTFFUUIDMismatch)
	}
	if !strings.Contains(m.Findings[0].Message, "281124352306488704") {
		t.Errorf("the finding does not name the NEFF the profile was captured from: %s", m.Findings[0].Message)
	}
}

// fixed prints x with n decimals, rounded half away from zero.
func fixed(x float64, n int) string {
	p := 1.0
	for range n {
		p *= 10
	}
	v := int64(x*p + 0.5)
	s := itoa(v / int64(p))
	frac := itoa(v % int64(p))
	for len(frac) < n {
		frac = "0" + frac
	}
	return s + "." + frac
}

// TestForgedProfile: a profile that names attn_v6's UUID but holds other images is caught by
// the word-for-word check (spec ntff.md §5 check 4): ntff.image-mismatch, nothing timed from there.
func TestForgedProfile(t *testing.T) {
	nf := openFile(t, attnNEFF)
	s := ntffbuild.Sample()
	s.UUID = nf.Archive.Header.UUID[:]
	b := ntffbuild.Bytes(s)
	pf := inspect.Open("forged.ntff", bytes.NewReader(b), int64(len(b)), inspect.Options{})
	m := Measure(pf.NTFF, nf, pf.Budget).Measured
	found := false
	for _, fd := range m.Findings {
		found = found || fd.Code == doc.CodeNTFFImageMismatch && fd.Severity == doc.Error
	}
	if !m.Joined || !found || m.Cores[0].Engines[0].Timed != 0 || m.Checks.Image.Mismatched != 1 {
		t.Errorf("joined %v, image check %+v, PE timed %d, findings %v", m.Joined, m.Checks.Image, m.Cores[0].Engines[0].Timed, m.Findings)
	}
}
