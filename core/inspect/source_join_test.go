package inspect

import (
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/neffscope/neffscope/core/dbg"
	"github.com/neffscope/neffscope/core/doc"
	"github.com/neffscope/neffscope/internal/realfiles"
)

// TestCompactJoinEqualsFullDecode: on every real NEFF, every word's source through the compact
// join (dbg.Scan, joined when asked) equals the join over the full decode (dbg.Decode's typed
// records, as the source index read them before the .dbg scan): BIR name, backend id and span, file,
// line, kernel, penguin fallback; and the asm record's span.
func TestCompactJoinEqualsFullDecode(t *testing.T) {
	words, with := 0, 0
	for _, p := range realfiles.NEFFs(t) {
		f := openPath(t, p)
		x := f.Program.Source
		full := map[string]*dbg.File{}
		var paths []string
		for _, m := range f.Archive.Members {
			if _, _, ok := dbg.Match(m.Path); ok {
				full[m.Path] = fullDecode(t, f, m.Path)
				paths = append(paths, m.Path)
			}
		}
		sort.Strings(paths)
		var penguins []*dbg.File
		for _, mp := range paths {
			if full[mp].Kind == dbg.KindPenguin {
				penguins = append(penguins, full[mp])
			}
		}
		attrs := func(d *dbg.File, r *dbg.Record) (string, int, string) {
			line := 0
			if v, ok := r.Attr("kernel_line"); ok {
				line, _ = strconv.Atoi(v)
			}
			idx := func(key string, list []string) string {
				v, ok := r.Attr(key)
				if !ok {
					return ""
				}
				if i, err := strconv.Atoi(v); err == nil && i >= 0 && i < len(list) {
					return list[i]
				}
				return v
			}
			return idx("kernel_file", d.KernelFiles), line, idx("kernel_name", d.KernelNames)
		}
		for _, s := range f.Program.Streams {
			dir := path.Dir(s.Member)
			asm := full[dir+"/debug_info_asm_"+s.Engine.Name+".dbg"]
			if asm == nil {
				continue
			}
			var penguin *dbg.File
			if len(penguins) == 1 {
				penguin = penguins[0]
			} else {
				n := strings.TrimLeft(strings.TrimPrefix(s.Core.Name, "sg"), "0")
				for _, pg := range penguins {
					_, suffix, _ := strings.Cut(path.Base(pg.Member), ".dbg_sg")
					if strings.TrimLeft(suffix, "0") == n {
						penguin = pg
					}
				}
			}
			for i := range int(s.Size / 64) {
				words++
				got := x.Source(s.Member, i)
				node := x.WordNode(s.Member, i)
				var want *Source
				var bir *doc.Span // the backend record's bytes
				if i < len(asm.Records) && len(asm.Records[i].Parents) > 0 {
					id := asm.Records[i].Parents[0]
					for _, mp := range paths {
						b := full[mp]
						if b.Kind != dbg.KindBackend || path.Dir(mp) != dir {
							continue
						}
						if r := b.ByID(id); r != nil {
							file, line, kernel := attrs(b, r)
							via := ""
							if line == 0 && penguin != nil && len(r.Parents) > 0 {
								if pr := penguin.ByID(r.Parents[0]); pr != nil {
									if pf, pl, _ := attrs(penguin, pr); pl > 0 {
										file, line, via = pf, pl, "penguin"
									}
								}
							}
							want = &Source{BIR: r.Name, Backend: r.ID, File: file, Line: line, Kernel: kernel, Via: via}
							bir = &doc.Span{Source: mp, Offset: r.Off, Length: r.Len}
							break
						}
					}
				}
				if got != nil {
					with++
				}
				if (got == nil) != (want == nil) || got != nil && (got.BIR != want.BIR || got.Backend != want.Backend || got.File != want.File || got.Line != want.Line || got.Kernel != want.Kernel || got.Via != want.Via) {
					t.Fatalf("%s %s #%d: compact %+v, full decode %+v", filepath.Base(p), s.Member, i, got, want)
				}
				if (node == nil) != (want == nil) {
					t.Fatalf("%s %s #%d: source node %v for source %+v", filepath.Base(p), s.Member, i, node, want)
				}
				if node != nil {
					// The node's span is the asm record's bytes, its "bir" field's the backend record's.
					if sp := node.Span; sp == nil || i >= len(asm.Records) || sp.Offset != asm.Records[i].Off || sp.Length != asm.Records[i].Len {
						t.Fatalf("%s %s #%d: asm span %+v, full decode %+v", filepath.Base(p), s.Member, i, sp, asm.Records[min(i, len(asm.Records)-1)])
					}
					if c := node.Child("bir"); c == nil || c.Span == nil || *c.Span != *bir {
						t.Fatalf("%s %s #%d: backend span %+v, full decode %+v", filepath.Base(p), s.Member, i, c, bir)
					}
				}
			}
		}
	}
	t.Logf("%d words, %d with a source: the compact join equals the full decode's", words, with)
}
