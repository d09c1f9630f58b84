package fleet

import (
	"fmt"
	"path"
	"strings"
	"time"

	"github.com/neffscope/neffscope/core/doc"
	"github.com/neffscope/neffscope/core/inspect"
)

// ScanRecord is one NEFF of a scan: `neffscope scan --jsonl` prints one per line, and the
// page's cache table shows one per row. Field names are the JSON contract.
type ScanRecord struct {
	Path        string `json:"path"`
	Size        int64  `json:"size"`
	SHA256      string `json:"sha256"`
	UUID        string `json:"uuid"`
	NeffVersion string `json:"neff_version"`
	// Compiler is info.json tool_version; Target kelf-N.json target; Instance the device
	// family it runs on (Trn1/Inf2, Trn2; "" for an unknown target).
	Compiler  string `json:"compiler"`
	Target    string `json:"target"`
	Instance  string `json:"instance"`
	Subgraphs int    `json:"subgraphs"`
	// Instructions is 64-byte words per engine (PE, Activation, Pool, DVE, SP), summed over
	// subgraphs.
	Instructions map[string]int64 `json:"instructions"`
	Inputs       []ScanTensor     `json:"inputs"`
	Outputs      []ScanTensor     `json:"outputs"`
	// Findings counts findings by severity (error, warning, info), the scan's own included.
	Findings map[string]int `json:"findings"`
	// Problems are the scan's own findings and the NEFF's errors (the first few), and the first
	// finding of each limit its open reached (doc.IsLimit), so a record says what is wrong
	// without opening the file.
	Problems []ScanProblem `json:"problems"`
	Cache    *CacheInfo    `json:"cache"`
	// DuplicateOf is the first path, in scan order, of a byte-identical NEFF (set by the scanner).
	DuplicateOf *string `json:"duplicate_of"`
	// Graph is the digest of the entry's HLO module with its volatile and metadata values left
	// out (hlo.Module.GraphDigest): entries with one graph differ only in those, in their
	// flags or in their compiler. Null when the entry has no HLO module (or it was read in part).
	Graph *string `json:"graph"`
	// HLO is what the entry's HLO module says (null without one).
	HLO *ScanHLO `json:"hlo"`
	// Modified is when the entry's directory last changed (set by the scanner; zero when not
	// known): a terminal's table tells an entry still compiling from an abandoned one by it.
	Modified time.Time `json:"-"`
}

// ScanHLO is a scan record's "hlo" object: the entry's HLO module.
type ScanHLO struct {
	Path string `json:"path"`
	// Kernels are the kernels its custom calls name (NKI function names, else targets).
	Kernels []string `json:"kernels"`
	// TemporaryPaths: a custom call names its kernel's binary by a temporary path, so the
	// module's bytes, and its cache key, change on every trace.
	TemporaryPaths bool `json:"temporary_paths"`
	// Masked is the digest of the whole module with only its temporary paths masked: entries
	// of one graph with one Masked digest differ in nothing else.
	Masked string `json:"masked"`
	// Problems are the module's error findings (the first few).
	Problems []ScanProblem `json:"problems"`
}

// ScanTensor is one model input or output.
type ScanTensor struct {
	Name  string  `json:"name"`
	DType string  `json:"dtype"`
	Shape []int64 `json:"shape"`
}

// ScanProblem is one finding kept on a record. Code is set on the scanner's own problems
// (doc.Codes rows "scan.*").
type ScanProblem struct {
	Code     doc.Code `json:"code"`
	Severity string   `json:"severity"`
	Message  string   `json:"message"`
}

// The codes of the scanner's own records.
const (
	CodeScanNotRegular          = doc.CodeScanNotRegular
	CodeScanUnreadable          = doc.CodeScanUnreadable
	CodeScanSeen       doc.Code = "scan.seen"
	CodeScanSymlink    doc.Code = "scan.symlink"
)

// maxScanProblems bounds the messages one record carries (counts stay exact).
const maxScanProblems = 5

// NewScanRecord builds the record of an opened file. p is the slash-separated path the record
// names; siblings are the names of the files in the same directory (for the cache state; nil
// outside a cache).
func NewScanRecord(f *inspect.File, p string, siblings []string) *ScanRecord {
	r := &ScanRecord{Path: p, Size: f.Size, Instructions: map[string]int64{}, Inputs: []ScanTensor{}, Outputs: []ScanTensor{},
		Findings: map[string]int{doc.Error: 0, doc.Warning: 0, doc.Info: 0}, Problems: []ScanProblem{}}
	// The one fact that explains the rest (a file cut short) comes before what it caused.
	if code, why := inspect.RootCause(f); code != "" {
		r.addProblem(code, doc.Error, why)
	}
	if f.Doc != nil {
		r.SHA256 = f.Doc.SHA256
		for _, fd := range f.Doc.Findings() {
			r.Findings[fd.Severity]++
			if fd.Severity == doc.Error {
				r.addProblem(fd.Code, fd.Severity, fd.Message)
			}
		}
		for _, fd := range f.Doc.Findings() {
			if doc.IsLimit(fd.Code) {
				r.addLimit(fd)
			}
		}
		if f.Doc.Kind != "neff" {
			r.Report(doc.CodeScanNotNEFF, doc.Error, fmt.Sprintf("%s is not a NEFF (it reads as %s)", p, f.Doc.Kind))
		}
	}
	if a := f.Archive; a != nil {
		h := &a.Header
		r.UUID = h.UUIDString()
		r.NeffVersion = fmt.Sprintf("%d.%d", h.NeffVersionMajor, h.NeffVersionMinor)
	}
	if f.Program != nil {
		m := f.Program.Model
		r.Target, r.Instance = m.Target, m.Instance
		r.Subgraphs = len(m.Cores)
		if m.Info != nil {
			r.Compiler = m.Info.ToolVersion
		}
		for _, c := range m.Cores {
			for _, e := range c.Engines {
				if e.StreamSize >= 0 && e.StreamPath != "" {
					r.Instructions[e.Name] += e.Instructions
				}
			}
		}
		for _, t := range m.Inputs {
			r.Inputs = append(r.Inputs, ScanTensor{t.Name, t.DType, nonNil(t.Shape)})
		}
		for _, t := range m.Outputs {
			r.Outputs = append(r.Outputs, ScanTensor{t.Name, t.DType, nonNil(t.Shape)})
		}
	}
	if k, ok := ParseCachePath(p); ok {
		r.Cache = &CacheInfo{Module: k.Module, FlagsHash: k.FlagsHash, Compiler: k.Compiler, Flags: FlagsName(k.FlagsHash)}
		r.Cache.State = CacheState(siblings, r.Findings[doc.Error] > 0)
		r.checkKey(f, k)
	}
	return r
}

// checkKey reports an entry whose directory disagrees with the module key the NEFF was compiled
// for (info.json name), or whose compiler directory disagrees with info.json tool_version.
func (r *ScanRecord) checkKey(f *inspect.File, dir CacheKey) {
	if f.Program == nil || f.Program.Model.Info == nil {
		return
	}
	info := f.Program.Model.Info
	if k, ok := ParseModuleKey(path.Base(info.Name)); ok && (k.Module != dir.Module || k.FlagsHash != dir.FlagsHash) {
		r.Report(doc.CodeScanCacheMismatch, doc.Warning, fmt.Sprintf("the cache directory says %s+%s but info.json name says this NEFF was compiled as %s+%s (%s): the entry holds another entry's NEFF (copied or renamed); the cache will hand it out for the wrong graph or flags",
			dir.Module, dir.FlagsHash, k.Module, k.FlagsHash, info.Name))
	}
	if dir.Compiler != "" && info.ToolVersion != "" && !sameCompiler(dir.Compiler, info.ToolVersion) {
		r.Report(doc.CodeScanCacheMismatch, doc.Warning, fmt.Sprintf("the cache directory is neuronxcc-%s but info.json tool_version is %s: the NEFF was made by another compiler than its directory says", dir.Compiler, info.ToolVersion))
	}
}

// sameCompiler compares a cache directory's version with tool_version. Directories carry the
// version's leading fields: all of them ("2.15.128.0+56dc5a86") or only major.minor
// ("neuronxcc-2.21" for tool_version 2.21.18209.0), so the directory's dotted fields must be
// the leading fields of tool_version's; a build suffix after '+' is ignored.
func sameCompiler(dir, tool string) bool {
	fields := func(s string) []string {
		if i := strings.IndexByte(s, '+'); i >= 0 {
			s = s[:i]
		}
		return strings.Split(s, ".")
	}
	d, t := fields(dir), fields(tool)
	if len(d) > len(t) {
		return false
	}
	for i := range d {
		if d[i] != t[i] {
			return false
		}
	}
	return true
}

// Report adds the scan's own finding to a record (counted with the file's).
func (r *ScanRecord) Report(code doc.Code, severity, message string) {
	r.Findings[severity]++
	r.addProblem(code, severity, message)
}

// addLimit keeps the first finding of a limit's code, past maxScanProblems if need be (the
// limit codes are few): a record computed from a file a limit cut says which.
func (r *ScanRecord) addLimit(fd doc.Finding) {
	for _, p := range r.Problems {
		if p.Code == fd.Code {
			return
		}
	}
	r.Problems = append(r.Problems, ScanProblem{fd.Code, fd.Severity, fd.Message})
}

func (r *ScanRecord) addProblem(code doc.Code, severity, message string) {
	if len(r.Problems) < maxScanProblems {
		r.Problems = append(r.Problems, ScanProblem{code, severity, message})
	}
}

// UnreadableRecord is the record of a path the scanner could not open or read.
func UnreadableRecord(p string, size int64, siblings []string, code doc.Code, message string) *ScanRecord {
	return CodedRecord(p, size, siblings, code, doc.Error, message)
}

// CodedRecord is the record of a path the scanner did not read, with its reason's code.
func CodedRecord(p string, size int64, siblings []string, code doc.Code, severity, message string) *ScanRecord {
	r := &ScanRecord{Path: p, Size: size, Instructions: map[string]int64{}, Inputs: []ScanTensor{}, Outputs: []ScanTensor{},
		Findings: map[string]int{doc.Error: 0, doc.Warning: 0, doc.Info: 0}, Problems: []ScanProblem{}}
	r.Report(code, severity, message)
	if k, ok := ParseCachePath(p); ok {
		r.Cache = &CacheInfo{Module: k.Module, FlagsHash: k.FlagsHash, Compiler: k.Compiler, Flags: FlagsName(k.FlagsHash), State: CacheState(siblings, severity == doc.Error)}
	}
	return r
}

// MissingNEFFRecord is the record of a cache entry directory that holds no model.neff (a compile
// that is running, was killed, or failed before writing it). p is the entry's model.neff path.
func MissingNEFFRecord(p string, siblings []string) *ScanRecord {
	r := &ScanRecord{Path: p, Size: 0, Instructions: map[string]int64{}, Inputs: []ScanTensor{}, Outputs: []ScanTensor{},
		Findings: map[string]int{doc.Error: 0, doc.Warning: 0, doc.Info: 0}, Problems: []ScanProblem{}}
	k, _ := ParseCachePath(p)
	r.Cache = &CacheInfo{Module: k.Module, FlagsHash: k.FlagsHash, Compiler: k.Compiler, Flags: FlagsName(k.FlagsHash), State: CacheState(siblings, false)}
	sev := doc.Warning
	if r.Cache.State == CacheDone {
		r.Cache.State = CacheFailed // done without a NEFF: the cache will fail to load it
		sev = doc.Error
	}
	dir := p[:max(0, strings.LastIndexByte(p, '/'))] // not path.Dir: p may be a URL (s3://…)
	r.Report(doc.CodeScanNoModel, sev, fmt.Sprintf("cache entry %s has no model.neff (beside it: %s); state %s", dir, strings.Join(siblings, ", "), r.Cache.State))
	return r
}

// HasError says whether the record counts an error finding.
func (r *ScanRecord) HasError() bool { return r.Findings[doc.Error] > 0 }

func nonNil(s []int64) []int64 {
	if s == nil {
		return []int64{}
	}
	return s
}
