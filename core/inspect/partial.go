package inspect

import (
	"fmt"
	"path"
	"sort"
	"strconv"
	"strings"

	"github.com/neffscope/neffscope/core/doc"
	"github.com/neffscope/neffscope/core/isa"
	"github.com/neffscope/neffscope/core/manifest"
	"github.com/neffscope/neffscope/core/neff"
)

// The partial overview: what the overview can say while the archive is still being
// read, so the page shows the answers within a few hundred ms of the pick on a file that takes
// seconds to open. It is built from the 1024-byte header and the members listed so far: the
// chip and compiler from kelf-*.json and info.json (small members near the start of the
// archive), the cores × engines grid with each stream's instruction count from its size (a
// stream's tar header gives its size before its bytes are read), the inputs and outputs once
// neff.json is read (near the end of the archive: members are in alphabetical order). What
// needs the whole file (the integrity verdict, the findings, the activation functions, DMA,
// memory, source lines, the opcode mix) is marked pending. The sections it shares with the
// overview are built by the same functions (overviewModel, overviewIO, enginesSection), so the
// two agree (TestPartialOverviewAgrees).

// OverviewReading is the partial overview's section saying how far the read is.
const OverviewReading = "reading"

// Attr keys of the partial overview.
const (
	AttrPartial = "partial" // overview node: "true" while the archive is read (absent on the overview)
	AttrPending = "pending" // a section or item not known yet: what it waits for, in words
	AttrMembers = "members" // reading section: members listed so far
	AttrDone    = "done"    // reading section: payload bytes read (compressed)
	AttrTotal   = "total"   // reading section: payload bytes in all
	AttrPhase   = "phase"   // reading section: the read's phase (header, payload, padding, done)
)

// partialJSONMax bounds the manifests the partial overview parses (neff.json, kelf-*.json,
// info.json): a few KB in real files; a big one waits for the open. partialManifests bounds
// how many (a real NEFF has one kelf per node), and partialCellsMax the streams its grid lists:
// a hostile archive of many members costs each partial overview no more than a real one.
const (
	partialJSONMax   = 4 << 20
	partialManifests = 16
	partialCellsMax  = 1024
)

// PartialOverview builds the partial overview of a NEFF from its archive as read so far (the
// header, a.Members) and where the read is. Built from a complete archive, it shows what the
// overview shows on every fact they share.
func PartialOverview(a *neff.Archive, p Progress) *doc.Node {
	return (&partialBuilder{a: a}).build(p)
}

// partialBuilder builds partial overviews of one open, resolving the small manifests again
// only when another of them has been read.
type partialBuilder struct {
	a     *neff.Archive
	key   string // the manifests model was resolved from
	model *manifest.Model
	read  map[string]bool // which of them: "kelf", "info", "neff.json"
}

// partialManifest says which manifest kind the partial overview reads p as ("" none).
func partialManifest(p string) string {
	switch {
	case p == "neff.json" || p == "kelp.json":
		return "neff.json"
	case p == "info.json":
		return "info"
	case strings.HasPrefix(p, "kelf-") && strings.HasSuffix(p, ".json") && !strings.Contains(p, "/"):
		return "kelf"
	}
	return ""
}

func (b *partialBuilder) build(p Progress) *doc.Node {
	a := b.a
	members := a.Members
	ov := &doc.Node{Kind: doc.KindOverview, Key: "overview", Label: "overview",
		Detail: "filling in while the archive is read: the answers that need the whole file follow when the open ends"}
	ov.SetAttr(AttrPartial, "true")

	// The small manifests read whole so far.
	ms := manifest.NewMemberSet()
	var key []string
	read := map[string]bool{}
	for _, m := range members {
		kind := partialManifest(m.Path)
		if kind == "" || m.Size > partialJSONMax || m.Truncated || m.Data == nil || int64(len(m.Data)) != m.Size {
			continue
		}
		if len(key) == partialManifests {
			break
		}
		ms.Add(m.Path, m.Size, m.Data)
		key = append(key, m.Path)
		read[kind] = true
	}
	switch k := strings.Join(key, "\x00"); {
	case len(key) == 0:
		// Nothing to resolve yet (the header's partial overview): no resolver run, which
		// costs more than the rest of the partial overview in wasm.
		b.model, b.key, b.read = &manifest.Model{Arch: -1}, "", read
	case b.model == nil || k != b.key:
		b.model, b.key, b.read = manifest.Resolve(ms, headerFacts(&a.Header)), k, read
	}
	m := b.model
	noFind := func(...string) *doc.Node { return nil }
	noLink := func(*doc.Node) string { return "" }

	// Model: the chip from kelf-*.json, the compiler from info.json, the cores from kelf.
	words := overviewModel(ov, m, noFind, noLink)
	model := ov.Child(OverviewModel)
	pending := func(n *doc.Node, member, value string) {
		n.Value = value
		n.Detail = "from " + member + ", not read yet"
		n.Attrs = map[string]string{AttrPending: member} // the target's chip attrs are not known either
	}
	if !b.read["kelf"] {
		pending(model.Child("target"), "kelf-0.json", "…")
		pending(model.Child("cores"), "kelf-0.json", "…")
		model.Value = "…"
		words = []string{"…"}
	}
	if !b.read["info"] {
		pending(model.Child("compiler"), "info.json", "…")
	}

	// Inputs and outputs: neff.json, near the end of the archive.
	if b.read["neff.json"] {
		overviewIO(ov, m, "", noFind, noLink)
	} else {
		s := section(ov, OverviewIO, "inputs and outputs")
		s.Value = "read from neff.json at the end of the archive"
		s.Detail = "the archive holds its members in alphabetical order, so neff.json comes after the cores' directories"
		s.SetAttr(AttrPending, "neff.json")
	}

	// The grid: each stream's count from its size, the mix when the open ends.
	cells, more := partialCells(members, m)
	words = append(words, enginesSection(ov, cells)...)
	eng := ov.Child(OverviewEngines)
	if more {
		eng.SetAttr(doc.AttrViewLimit, fmt.Sprintf("the partial overview lists the first %d streams; the overview lists them all", partialCellsMax))
	}
	if p.Phase != "done" {
		eng.SetAttr(AttrPending, "more streams may follow")
		eng.Detail = "each count is the stream's size in 64-byte words; the opcode mix follows when the open ends"
	}

	for _, x := range []struct{ key, label, value string }{
		{OverviewActivation, "activation functions", "read when the open ends"},
		{OverviewDMA, "DMA", "read when the open ends"},
		{OverviewMemory, "device memory", "estimated when the open ends"},
	} {
		s := section(ov, x.key, x.label)
		s.Value = x.value
		s.SetAttr(AttrPending, "the open")
	}
	v := section(ov, OverviewVerdict, "integrity and runtime")
	v.Value = "checked when the payload is read"
	v.SetAttr(AttrPending, "the payload")
	for _, it := range []struct{ key, label, detail string }{
		{"integrity", "hash", "The payload's hash is checked once every byte is read."},
		{"runtime", "runtime", "Whether libnrt 2.31 would load this container is known once the payload is read."},
	} {
		n := v.Add(&doc.Node{Kind: doc.KindField, Key: it.key, Label: it.label, Value: "pending", Detail: it.detail})
		n.SetAttr(AttrPending, "the payload")
	}
	fs := section(ov, OverviewFindings, "findings")
	fs.Value = "known when the open ends"
	fs.SetAttr(AttrPending, "the open")

	// How far the read is.
	var bytes int64
	for _, x := range members {
		bytes += x.Size
	}
	r := section(ov, OverviewReading, "reading")
	r.SetAttr(AttrMembers, strconv.Itoa(len(members))).SetAttr(AttrBytes, strconv.FormatInt(bytes, 10)).
		SetAttr(AttrDone, strconv.FormatInt(p.Done, 10)).SetAttr(AttrTotal, strconv.FormatInt(p.Total, 10)).SetAttr(AttrPhase, p.Phase)
	r.Value = fmt.Sprintf("%s, %s, listed so far", plural(len(members), "member"), neff.HumanSize(bytes))
	if p.Phase == "done" || p.Phase == "padding" {
		r.Value = fmt.Sprintf("%s, %s: the archive is read; decoding", plural(len(members), "member"), neff.HumanSize(bytes))
	}
	ov.Value = strings.Join(words, " · ")
	return ov
}

// partialCells is the grid of the streams listed so far, named by the members' paths the way
// real NEFFs name them (sgNN/<Engine>.bin; the manifests confirm it when the open ends), in the
// overview's order: by core (the kelf's order when read), then by engine in libnrt's order.
// more says that streams past partialCellsMax were left out.
func partialCells(members []*neff.Member, m *manifest.Model) (cells []engineCell, more bool) {
	coreOf := map[string]string{} // directory → core name
	rank := map[string]int{}
	if m != nil {
		for i, c := range m.Cores {
			coreOf[c.Dir] = c.Name
			rank[c.Name] = i
		}
	}
	engRank := map[string]int{}
	for i, e := range manifest.EngineKeys {
		engRank[e.Name] = i
	}
	seen := map[string]bool{}
	for _, x := range members {
		dir, base := path.Split(x.Path)
		dir = strings.TrimSuffix(dir, "/")
		eng := strings.TrimSuffix(base, ".bin")
		if _, ok := engRank[eng]; !ok || dir == "" || strings.Contains(dir, "/") || !maybeStream(x.Path) || seen[x.Path] {
			continue
		}
		if len(cells) == partialCellsMax {
			more = true
			break
		}
		seen[x.Path] = true
		core := coreOf[dir]
		if core == "" {
			core = dir
		}
		if _, ok := rank[core]; !ok {
			rank[core] = len(rank) + 1000 // after the kelf's, in archive order
		}
		cells = append(cells, engineCell{core: core, engine: eng, member: x.Path, size: x.Size, count: x.Size / isa.WordSize})
	}
	sort.SliceStable(cells, func(i, j int) bool {
		if rank[cells[i].core] != rank[cells[j].core] {
			return rank[cells[i].core] < rank[cells[j].core]
		}
		return engRank[cells[i].engine] < engRank[cells[j].engine]
	})
	return cells, more
}
