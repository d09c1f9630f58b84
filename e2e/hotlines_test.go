package e2e

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os/exec"
	"path"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/neffscope/neffscope/core/inspect"
	"github.com/neffscope/neffscope/core/timeline"
	"github.com/neffscope/neffscope/internal/realfiles"
)

// The overview's hottest source lines rank by time when the page has it, and say by what:
// with the device profile joined, by measured time (the figures of `neffscope timeline
// --ntff`); with the NEFF alone, by estimated time once the estimate is in (with the model's
// error); else by instruction count.

// hotRow is a row of the overview's hottest lines as the page shows it.
type hotRow struct {
	Line, PS, File, Count, Engines string
}

// hotLines waits for the hottest lines ranked on basis and returns the summary and the rows.
func (p *page) hotLines(basis string) (string, []hotRow) {
	p.t.Helper()
	p.waitFor(`(document.querySelector('#overview-view .ov-card[data-section="hot_lines"]') || {dataset: {}}).dataset.basis === '`+basis+`'`, "the hottest lines by "+basis)
	sum := eval[string](p, `document.querySelector('#overview-view .ov-card[data-section="hot_lines"] .ov-hot-basis').textContent`)
	rows := eval[[]hotRow](p, `Array.from(document.querySelectorAll('#overview-view .ov-hot tbody tr')).map((r) => ({
		Line: r.dataset.line, PS: r.dataset.ps, File: r.querySelector('.ov-hot-line button').title,
		Count: r.children[r.children.length - 2].textContent, Engines: r.lastElementChild.title}))`)
	return sum, rows
}

func TestHotLinesByMeasuredTime(t *testing.T) {
	neff, prof := attnFiles(t)
	np, pp := realfiles.Path(t, attnNEFF), realfiles.Path(t, attnProfile)
	// The CLI's ranking, as `neffscope timeline --ntff PROFILE NEFF` prints it.
	bin := cli(t)
	out, err := exec.Command(bin, "timeline", "--json", "--ntff", pp, np).Output()
	if err != nil {
		t.Fatalf("timeline --json: %v", err)
	}
	var j struct {
		Measured struct {
			Lines []timeline.LineTime `json:"lines"`
		} `json:"measured"`
	}
	if err := json.Unmarshal(out, &j); err != nil || len(j.Measured.Lines) < 5 {
		t.Fatalf("timeline --json: %v (%d lines)", err, len(j.Measured.Lines))
	}
	// What the CLI's text says of attn_v6 with profile_attn_v6_exec_2: the two hottest lines.
	if l := j.Measured.Lines; l[0].Name() != "v6_ultimate.py:273" || l[0].TimePS/1000 != 81202 || l[1].Name() != "v6_ultimate.py:278" || l[1].TimePS/1000 != 35919 {
		t.Fatalf("the CLI's hottest lines are %s %d ps, %s %d ps", l[0].Name(), l[0].TimePS, l[1].Name(), l[1].TimePS)
	}
	p := newPageWith(t, siteURL, closedDrawers, "ready")
	p.dropFiles(map[string][]byte{"attn_v6.neff": neff, "profile_attn_v6_exec_2.ntff": prof}, []string{"attn_v6.neff", "profile_attn_v6_exec_2.ntff"})
	p.waitFor(`neffscope.lanes.joined && neffscope.lanes.phase === 'done'`, "the profile joined")
	p.clickRow(`#tree [data-path="overview"]`)
	sum, rows := p.hotLines("measured")
	if !strings.Contains(sum, "by measured time") {
		t.Errorf("the hottest lines say %q, not by measured time", sum)
	}
	if len(rows) != 5 {
		t.Fatalf("%d hottest lines by measured time, want 5", len(rows))
	}
	for i, r := range rows {
		l := j.Measured.Lines[i]
		if r.Line != l.Name() || r.PS != strconv.FormatUint(l.TimePS, 10) || !strings.HasPrefix(r.File, l.File+":"+strconv.Itoa(l.Line)) || r.Count != strconv.Itoa(l.Instructions) {
			t.Errorf("hot line %d is %+v; timeline --json's %s (%s) %d ps, %d instructions", i, r, l.Name(), l.File, l.TimePS, l.Instructions)
		}
		for e := range l.PerEngine {
			if !strings.Contains(r.Engines, e+" ") {
				t.Errorf("hot line %d's engines say %q; timeline --json's %v", i, r.Engines, l.PerEngine)
			}
		}
	}
	shotThemes(p, t, "hotlines-measured")
}

// With the NEFF alone, the lines rank by the estimate: each line's estimated time the sum of
// its instructions' estimated durations (core/timeline's Estimate, joined to the lines here as
// the measured ranking joins them), the model's error beside it.
func TestHotLinesByEstimatedTime(t *testing.T) {
	neff, _ := attnFiles(t)
	f := inspect.Open("attn_v6.neff", bytes.NewReader(neff), int64(len(neff)), inspect.Options{})
	est := timeline.Estimate(*timeline.InputOf(f), nil)
	type line struct {
		name string
		ps   int64
	}
	by := map[string]*line{}
	for _, c := range est.Cores {
		for k, e := range c.Engines {
			member := c.Model.Engines[k].Member
			for i := range e.Start {
				src := f.Program.Source.Source(member, i)
				if src == nil || src.Line == 0 || e.Start[i] < 0 {
					continue
				}
				name := path.Base(src.File) + ":" + strconv.Itoa(src.Line)
				if by[name] == nil {
					by[name] = &line{name: name}
				}
				by[name].ps += e.End(i) - e.Start[i]
			}
		}
	}
	var want []*line
	for _, l := range by {
		want = append(want, l)
	}
	sort.Slice(want, func(a, b int) bool {
		if want[a].ps != want[b].ps {
			return want[a].ps > want[b].ps
		}
		return want[a].name < want[b].name
	})
	mi := est.Estimated().Model
	p := newPageWith(t, siteURL, closedDrawers, "ready")
	p.openByDrop("attn_v6.neff", neff)
	p.waitDashboard()
	sum, rows := p.hotLines("estimated")
	if span := fmt.Sprintf("±%d %% span, leave-one-out", int(100*mi.Error.Span+0.5)); !strings.Contains(sum, "by estimated time") || !strings.Contains(sum, span) {
		t.Errorf("the hottest lines say %q; want by estimated time, with %q", sum, span)
	}
	if len(rows) != 5 || len(want) < 5 {
		t.Fatalf("%d hottest lines by estimated time on the page, %d lines natively", len(rows), len(want))
	}
	for i, r := range rows {
		if r.Line != want[i].name || r.PS != strconv.FormatInt(want[i].ps, 10) {
			t.Errorf("hot line %d is %s %s ps; natively %s %d ps", i, r.Line, r.PS, want[i].name, want[i].ps)
		}
	}
	shotThemes(p, t, "hotlines-estimated")
}
