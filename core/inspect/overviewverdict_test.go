package inspect

import (
	"bytes"
	"strconv"
	"strings"
	"testing"

	"github.com/neffscope/neffscope/core/doc"
	"github.com/neffscope/neffscope/core/neff"
	"github.com/neffscope/neffscope/core/neff/neffbuild"
	"github.com/neffscope/neffscope/internal/realfiles"
)

// states lists each check of a verdict node as key=state.
func states(v *doc.Node) map[string]string {
	out := map[string]string{}
	for _, c := range v.Children {
		out[c.Key] = c.Attrs[AttrState]
	}
	return out
}

// The overview's first answer is the verdict: on a sound file the open passes the hash, the
// runtime and the errors and leaves sync and memory pending (open, never "accepted" alone);
// the models' card carries the verdict with them decided.
func TestVerdictOfSoundFile(t *testing.T) {
	f := openRealBytes(t, "nkipy/matmul_small.neff")
	v := f.Doc.Root.Children[0].Children[0]
	if v.Key != OverviewVerdict || v.Attrs[AttrVerdict] != VerdictOpen {
		t.Fatalf("first answer %q, verdict %q", v.Key, v.Attrs[AttrVerdict])
	}
	want := map[string]string{CheckHash: VerdictPass, CheckRuntime: VerdictPass, CheckErrors: VerdictPass, CheckSync: VerdictPending, CheckMemory: VerdictPending}
	if got := states(v); !equalMaps(got, want) {
		t.Errorf("open's checks %v, want %v", got, want)
	}
	card := SyncOverview(f, f.Memmap())
	cv := card.Child(OverviewVerdict)
	if cv == nil {
		t.Fatal("the card has no verdict")
	}
	if got := states(cv); got[CheckSync] == VerdictPending || got[CheckMemory] == VerdictPending || got[CheckSync] == VerdictFail || got[CheckMemory] == VerdictFail {
		t.Errorf("card's checks %v", got)
	}
	// Sched alone decides sync and leaves memory pending.
	if got := states(SyncOverview(f, f.Sched()).Child(OverviewVerdict)); got[CheckMemory] != VerdictPending || got[CheckSync] == VerdictPending {
		t.Errorf("sched card's checks %v", got)
	}
}

func equalMaps(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

// rebuilt is matmul_small with edit applied to its members, written again (a valid hash).
func rebuilt(t *testing.T, edit func(path string, b []byte)) []byte {
	t.Helper()
	src := realfiles.Read(t, "nkipy/matmul_small.neff")
	members, err := neff.ReadMembers(bytes.NewReader(src), int64(len(src)), nil)
	if err != nil {
		t.Fatal(err)
	}
	a := neff.Open(bytes.NewReader(src), int64(len(src)), neff.Options{})
	var ms []neffbuild.Member
	for _, m := range a.Members {
		b := append([]byte(nil), members[m.Path]...)
		edit(m.Path, b)
		ms = append(ms, neffbuild.Member{Path: m.Path, Data: b})
	}
	return neffbuild.Bytes(ms, neffbuild.Options{FeatureBits: a.Header.FeatureBits, LNCSize: a.Header.LNCSize, Name: a.Header.Name})
}

// A deadlocked file (Activation #3 waits for PE #9, after PE #8 waits for Activation #3)
// whose hash and runtime acceptance are fine: the verdict with the model fails on sync and
// names the lint's code; "runtime accepted" is not the verdict.
func TestVerdictDeadlockFails(t *testing.T) {
	b := rebuilt(t, func(p string, b []byte) {
		if p == "sg00/Activation.bin" {
			b[3*64+8] = 3
		}
	})
	f := openBytes("deadlock.neff", b)
	v := SyncOverview(f, f.Memmap()).Child(OverviewVerdict)
	st := states(v)
	if v.Attrs[AttrVerdict] != VerdictFail || st[CheckSync] != VerdictFail || st[CheckRuntime] != VerdictPass || st[CheckHash] != VerdictPass {
		t.Fatalf("verdict %q, checks %v", v.Attrs[AttrVerdict], st)
	}
	if c := v.Child(CheckSync); c.Attrs[AttrCodes] != "sync.cycle" {
		t.Errorf("sync check codes %q", c.Attrs[AttrCodes])
	}
	// The instructions held by the deadlock never run, so they take part in no race: the
	// memory check has nothing to fail on, and the verdict fails on sync alone.
	if st[CheckMemory] == VerdictFail || v.Child(CheckMemory).Attrs[AttrCodes] == "mem.unsync" {
		t.Errorf("memory check %v %q: the deadlock's held instructions never run, so they cannot race", st[CheckMemory], v.Child(CheckMemory).Attrs[AttrCodes])
	}
}

// A file cut short: the verdict fails (the hash cannot match), no zero stands for what was
// not read ("0 in, 0 out"), and every consequence carries the root cause's code.
func TestVerdictAndCausesOfCutFile(t *testing.T) {
	src := realfiles.Read(t, "nkipy/matmul_small.neff")
	f := openBytes("cut.neff", src[:len(src)*2/3])
	ov := f.Doc.Root.Children[0]
	v := ov.Children[0]
	if v.Key != OverviewVerdict || v.Attrs[AttrVerdict] != VerdictFail || states(v)[CheckHash] != VerdictFail {
		t.Errorf("verdict %q %v", v.Attrs[AttrVerdict], states(v))
	}
	if io := ov.Child(OverviewIO); io != nil && (io.Value == "0 in, 0 out" || io.Attrs[AttrInputs] == "0") {
		t.Errorf("io %q %v", io.Value, io.Attrs)
	}
	var root doc.Finding
	roots, caused, other := 0, 0, 0
	for _, x := range f.Doc.Findings() {
		switch {
		case x.Code == doc.CodeNeffTruncated:
			root = x
			roots++
		case x.Cause == doc.CodeNeffTruncated:
			caused++
		default:
			other++
		}
	}
	if root.Code == "" || root.Cause != "" || caused == 0 {
		t.Errorf("root %+v, %d consequences, %d others", root, caused, other)
	}
	// The header's hash not checked because the payload is cut follows from the cut too.
	for _, x := range f.Doc.Findings() {
		if x.Code == doc.CodeNeffHashUnchecked && x.Cause != doc.CodeNeffTruncated {
			t.Errorf("%s has cause %q, want %s", x.Code, x.Cause, doc.CodeNeffTruncated)
		}
	}
	if g := ov.Child(OverviewFindings).Child(CauseTruncated); g == nil || g.Attrs[AttrCode] != string(doc.CodeNeffTruncated) || len(g.Table.Rows) != caused+roots {
		t.Errorf("cause group %+v (want %d rows: every finding of the cut's code and every one it causes)", g, caused+roots)
	}
	if o := ov.Child(OverviewFindings).Child(CauseOther); o != nil {
		t.Errorf("a cut file with nothing else wrong has other findings: %v", o.Table.Rows)
	}
}

// The overview's labels count what they name: one output listed once per core is one output;
// the activation answer counts every ActivationTableLoad word that runs, not the sets; the
// DMA table's queue-count column is the file's num_queues, not "rings".
func TestOverviewLabelsCountWhatTheyName(t *testing.T) {
	f := openRealBytes(t, "nkipy/matmul_small.neff")
	ov := f.Doc.Root.Children[0]
	io := ov.Child(OverviewIO)
	if io.Attrs[AttrOutputs] != "1" || io.Attrs[AttrInputs] != "2" || io.Value != "2 in, 1 out (listed 2 times)" {
		t.Errorf("io %q %v", io.Value, io.Attrs)
	}
	loads := 0
	for _, ps := range f.Program.Streams {
		for _, c := range ps.ISA.Counts() {
			if c.Name == "ActivationTableLoad" {
				loads += c.Count
			}
		}
	}
	act := ov.Child(OverviewActivation)
	if act.Attrs[AttrCount] != strconv.Itoa(loads) || loads == 0 || !strings.HasPrefix(act.Value, plural(loads, "table load")+" of 1 set") {
		t.Errorf("activation %q %v, %d ActivationTableLoad words", act.Value, act.Attrs, loads)
	}
	dma := ov.Child(OverviewDMA)
	if dma.Table == nil || col(dma.Table, "num_queues") < 0 || col(dma.Table, "rings") >= 0 {
		t.Errorf("dma columns %v", dma.Table)
	}
	if q := f.Doc.Root.Find("model", "cores", "sg00", "dma_queues"); q == nil || q.Table == nil || col(q.Table, "num_queues") < 0 {
		t.Errorf("dma_queues table %+v", q)
	}
}
