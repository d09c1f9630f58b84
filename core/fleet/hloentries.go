package fleet

import (
	"bytes"
	"encoding/json"
	"path"

	"github.com/neffscope/neffscope/core/doc"
	"github.com/neffscope/neffscope/core/hlo"
	"github.com/neffscope/neffscope/core/inspect"
)

// HLOEntry is one side of a graph comparison: an HLO module alone, or a compile-cache entry's
// module with the NEFF beside it. The CLI's diff and the page's hloDiff call make the same
// comparison from it.
type HLOEntry struct {
	Module *hlo.Module
	// Name is the module's slash path; a cache entry's key is read from its directory
	// (…/neuronxcc-<version>/MODULE_<hash>+<flags>/model.hlo_module.pb) or, failing that,
	// from its own name.
	Name string
	// Entry: a cache entry (a folder), not a module alone; its NEFF is compared, and a
	// missing one said.
	Entry bool
	// NEFF is the entry's NEFF (nil: none, or not read); NEFFName its path.
	NEFF     *inspect.File
	NEFFName string
}

// key is the entry's cache key, when its path or name holds one.
func (e HLOEntry) key() (CacheKey, bool) {
	if k, ok := ParseCachePath(path.Dir(e.Name) + "/model.neff"); ok {
		return k, true
	}
	return ParseModuleKey(path.Base(e.Name))
}

// DiffHLOEntries compares two modules (DiffHLO) and says what their cache keys and, for
// entries, their NEFFs add: the same program compiled twice, or a changed kernel.
func DiffHLOEntries(a, b HLOEntry) *HLODiff {
	d := DiffHLO(a.Module, b.Module, a.Name, b.Name)
	ka, haveA := a.key()
	kb, haveB := b.key()
	if haveA || haveB {
		graphSame := d.Verdict != doc.CodeHLOGraphChanged && d.Verdict != doc.CodeHLOKernelChanged
		word := "graph"
		if graphSame && haveA && haveB && ka.Module != kb.Module {
			word = "module hash"
		}
		d.Cache = cacheExplanation(ka, kb, haveA, haveB, ka.Compiler, kb.Compiler, word)
		if word == "module hash" {
			d.Cache = append(d.Cache, "the module hash differs although the graph and its kernel calls do not: the hash is taken over the module's bytes, volatile values and metadata included")
		}
	}
	if a.NEFF != nil || b.NEFF != nil || a.Entry || b.Entry {
		d.WithNEFF(CompareEntryNEFFs(a.NEFF, b.NEFF))
	}
	for _, e := range []HLOEntry{a, b} {
		if e.NEFF == nil || e.NEFF.Doc == nil {
			continue
		}
		for _, f := range e.NEFF.Doc.Findings() {
			if f.Severity == doc.Error {
				d.Findings = append(d.Findings, doc.Finding{Code: f.Code, Severity: f.Severity, Message: e.NEFFName + ": " + f.Message})
			}
		}
	}
	return d
}

// HLODiffExit is the exit status `neffscope diff` gives a graph comparison, as diff(1): 0 the
// same graph (and, for entries, the same program), 1 different.
func HLODiffExit(d *HLODiff) int {
	if d.Verdict == doc.CodeHLOSame && len(d.Findings) == 0 && (d.NEFF == nil || d.NEFF.Code == doc.CodeHLONEFFSame) {
		return 0
	}
	return 1
}

// JSON is the comparison as `neffscope diff --json` prints it (two-space indent, a final
// newline, no HTML escaping), which the page's hloDiff call hands over byte for byte.
func (d *HLODiff) JSON() ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(d); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
