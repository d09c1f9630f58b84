package timeline

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// Each instruction with both times gets its signed start error (each side from its core's
// first start) and duration error; each engine the median and p90 of their magnitudes; the
// JSON rows carry them, streamed as encoding/json writes them.
func TestCompareRows(t *testing.T) {
	f := crafted(t, map[string][]byte{"DVE": stream(op(0xB1), op(0xCC), op(0x46), op(0x46), op(0x46))}, "")
	in := inputOf(f)
	in.Costs = testCosts()
	s := Estimate(in, nil)
	cs := s.Cores[0]
	// Estimated (TestEstimateInOrderPipelined): #0 [0,50), #2 [10,110), #3 [40,140), #4 [70,170) ns.
	const t0 = 5_000_000 // ps
	ns := func(v int64) uint64 { return uint64(t0 + v*1000) }
	m := &Measured{Joined: true, Cores: []MeasuredCore{{Core: "sg00", Engines: []MeasuredEngine{{Engine: "DVE", Rows: []MeasuredRow{
		{Index: 0, StartPS: ns(0), EndPS: ns(60)}, {Index: 2, StartPS: ns(20), EndPS: ns(130)},
		{Index: 3, StartPS: ns(50), EndPS: ns(140)}, {Index: 4, StartPS: ns(90), EndPS: ns(200)},
	}}}}}}
	if !s.Against(m) {
		t.Fatal("refused")
	}
	k := -1
	for j := range cs.Engines {
		if cs.Engines[j].Name == "DVE" {
			k = j
		}
	}
	want := map[int]RowError{0: {0, -10_000}, 2: {-10_000, -10_000}, 3: {-10_000, 10_000}, 4: {-20_000, -10_000}}
	for i := range cs.Engines[k].Start {
		got := cs.rowError(k, i)
		if w, ok := want[i]; ok != (got != nil) || ok && *got != w {
			t.Errorf("DVE #%d error %+v, want %+v (%v)", i, got, w, ok)
		}
	}
	// |start| 0, 10, 10, 20 ns; |duration| 10 ns each.
	if got := *cs.engineRowErrors(k); got != (EngineRowErrors{Rows: 4, StartMedianPS: 10_000, StartP90PS: 20_000, DurationMedianPS: 10_000, DurationP90PS: 10_000}) {
		t.Errorf("DVE distribution %+v", got)
	}
	var streamed bytes.Buffer
	if err := WriteEstimatedJSON(&streamed, s); err != nil {
		t.Fatal(err)
	}
	var got, wantJSON any
	if err := json.Unmarshal(streamed.Bytes(), &got); err != nil {
		t.Fatalf("streamed JSON does not parse: %v", err)
	}
	b, _ := json.Marshal(s.Estimated())
	json.Unmarshal(b, &wantJSON)
	if g, w := mustJSON(got), mustJSON(wantJSON); g != w {
		t.Errorf("streamed:\n%s\nencoding/json:\n%s", g, w)
	}
	for _, want := range []string{`"error":{"start_ps":-20000,"duration_ps":-10000}`, `"row_errors":{"rows":4,"start_median_ps":10000,"start_p90_ps":20000`} {
		if !strings.Contains(streamed.String(), want) {
			t.Errorf("the JSON lacks %s", want)
		}
	}
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
