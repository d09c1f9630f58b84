package e2e

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/neffscope/neffscope/core/doc"
	"github.com/neffscope/neffscope/core/inspect"
)

// hashView is what a front end shows of a NEFF's hashes: the runtime verdict, the payload's
// integrity field, and every member's detail (with its sha-256) by ref.
type hashView struct {
	Verdict   string            `json:"verdict"`
	Integrity string            `json:"integrity"`
	Members   map[string]string `json:"members"`
	Rows      []string          `json:"rows"`
}

const pageHashView = `(() => {
	const root = neffscope.state.doc.root, out = {verdict: '', integrity: '', members: {}, rows: []};
	const v = root.kids.find((k) => k.kind === 'verdict');
	out.verdict = v.value + ' | ' + (v.detail || '');
	const pay = root.kids.find((k) => k.kind === 'payload');
	const i = (pay.kids || []).find((k) => k.label === 'integrity');
	out.integrity = i.value + ' | ' + (i.detail || '');
	const walk = (n) => {
		if (n.kind === 'member') { out.members[n.ref] = n.detail || ''; return; }
		if (n.kind === 'archive' && n.table && !out.rows.length) out.rows = n.table.rows.map((r) => r[2]);
		(n.kids || []).forEach((c) => c && walk(c));
	};
	walk(root);
	return JSON.stringify(out);
})()`

func nativeHashView(t *testing.T, name string, data []byte) hashView {
	f := inspect.Open(name, bytes.NewReader(data), int64(len(data)), inspect.Options{})
	out := hashView{Members: map[string]string{}}
	for _, k := range f.Doc.Root.Children {
		switch k.Kind {
		case doc.KindVerdict:
			out.Verdict = k.Value + " | " + k.Detail
		case doc.KindPayload:
			if i := k.Child("integrity"); i != nil {
				out.Integrity = i.Value + " | " + i.Detail
			}
		}
	}
	f.Doc.Root.Walk(func(_ []string, n *doc.Node) bool {
		if n.Kind == doc.KindMember {
			out.Members[n.Ref] = n.Detail
			return false
		}
		if n.Kind == doc.KindArchive && n.Table != nil && out.Rows == nil {
			for _, r := range n.Table.Rows {
				out.Rows = append(out.Rows, r[2])
			}
		}
		return true
	})
	return out
}

// The page's open leaves the payload MD5 to the hash worker and the members' sha-256 to a
// pass after the open: the verdict, the integrity check and every member's sha-256 then read
// exactly as the CLI's core gives them, for a sound file and one whose padding was changed.
func TestPageHashesMatchTheCore(t *testing.T) {
	real := readReal(t)
	damaged := bytes.Clone(real)
	damaged[len(damaged)-1] ^= 0x55 // a byte of the zero padding: covered by the MD5
	dir := t.TempDir()
	for _, c := range []struct {
		name string
		data []byte
		want string
	}{{"matmul_small.neff", real, "ok"}, {"damaged.neff", damaged, "mismatch"}} {
		path := filepath.Join(dir, c.name)
		if err := os.WriteFile(path, c.data, 0o644); err != nil {
			t.Fatal(err)
		}
		want := nativeHashView(t, c.name, c.data)
		if !strings.HasPrefix(want.Integrity, c.want) {
			t.Fatalf("%s: the native integrity is %q, want %s", c.name, want.Integrity, c.want)
		}
		p := newPage(t, siteURL)
		p.openWithPicker(path)
		p.waitFor(`neffscope.state && !neffscope.state.memberHashes && neffscope.lastOpen.memberHashMs > 0`, "the members' sha-256")
		var got hashView
		if err := json.Unmarshal([]byte(eval[string](p, pageHashView)), &got); err != nil {
			t.Fatal(err)
		}
		if got.Verdict != want.Verdict || got.Integrity != want.Integrity {
			t.Errorf("%s: the page says\n  %q\n  %q\nthe core\n  %q\n  %q", c.name, got.Verdict, got.Integrity, want.Verdict, want.Integrity)
		}
		if len(got.Members) != len(want.Members) || strings.Join(got.Rows, ",") != strings.Join(want.Rows, ",") {
			t.Errorf("%s: %d members, table sha-256 %q; the core: %d, %q", c.name, len(got.Members), got.Rows, len(want.Members), want.Rows)
		}
		for ref, d := range want.Members {
			if !strings.Contains(d, " · sha256 ") || got.Members[ref] != d {
				t.Errorf("%s: %s reads %q in the page, %q in the core", c.name, ref, got.Members[ref], d)
			}
		}
		// A member's detail pane shows its sha-256.
		p.expand(`#tree [data-path="members"]`)
		p.expand(`#tree [data-path="members/sg00/"]`)
		p.clickRow(`#tree [data-ref="member:sg00/def.json"]`)
		if d := eval[string](p, `document.getElementById('detail').textContent`); !strings.Contains(d, want.Members["member:sg00/def.json"]) {
			t.Errorf("%s: def.json's detail pane reads %q", c.name, d)
		}
	}
}

// While the members' sha-256 are being computed, a member's detail says so (never an empty
// hash), and shows the hash once it is known.
func TestMemberHashComputingThenShown(t *testing.T) {
	path := bigNEFF(t, 48<<20)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	want := nativeHashView(t, "big.neff", data).Members["member:weights/w0.bin"]
	p := newPage(t, siteURL)
	p.openWithPicker(path)
	p.expand(`#tree [data-path="members"]`)
	p.expand(`#tree [data-path="members/weights/"]`)
	p.clickRow(`#tree [data-ref="member:weights/w0.bin"]`)
	first := eval[string](p, `document.getElementById('detail').textContent`)
	if !strings.Contains(first, "sha-256: computing") && !strings.Contains(first, want) {
		t.Errorf("the member's detail during the hashing reads %q: neither computing nor its sha-256", first)
	}
	t.Logf("the detail at first: computing %v", strings.Contains(first, "sha-256: computing"))
	p.waitFor(`!neffscope.state.memberHashes`, "the members' sha-256")
	p.waitFor(`document.getElementById('detail').textContent.includes(`+jsString(want)+`)`, "the member's sha-256 in its detail")
	if strings.Contains(eval[string](p, `document.getElementById('detail').textContent`), "computing") {
		t.Errorf("the detail still says computing")
	}
}

// A gzip stream damaged inside its deflate data: the page's error findings are the CLI's, every
// one (the open there takes its MD5 from the hash worker and leaves the members' hashes out).
func TestCorruptGzipInThePage(t *testing.T) {
	data := bytes.Clone(readReal(t))
	data[1024+2000] ^= 0xff // inside the deflate data
	want := inspect.Open("corrupt.neff", bytes.NewReader(data), int64(len(data)), inspect.Options{})
	var msgs []string
	want.Doc.Root.Walk(func(_ []string, n *doc.Node) bool {
		for _, f := range n.Findings {
			if f.Severity == doc.Error {
				msgs = append(msgs, string(f.Code))
			}
		}
		return true
	})
	path := filepath.Join(t.TempDir(), "corrupt.neff")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	p := newPage(t, siteURL)
	p.openWithPicker(path)
	errs := eval[[]string](p, `Array.from(document.querySelectorAll('#findings-list .finding[data-sev="error"]')).map(f => f.dataset.code)`)
	sort.Strings(errs)
	sort.Strings(msgs)
	if strings.Join(errs, "\n") != strings.Join(msgs, "\n") {
		t.Errorf("the page's error findings\n  %q\nthe core's\n  %q", errs, msgs)
	}
}
