package fleet

import (
	"encoding/hex"
	"fmt"
	"path"
	"sort"
	"strings"

	"crypto/md5"
	"github.com/neffscope/neffscope/core/doc"
	"github.com/neffscope/neffscope/core/inspect"
)

// A neuronx-cc compile cache (torch-neuronx / libneuronxla, optimum-neuron) keeps one directory
// per compiled graph:
//
//	<cache>/neuronxcc-<compiler version>/MODULE_<graph hash>+<flags hash>/model.neff
//
// with model.done written beside model.neff once the entry is finished, and model.log kept
// instead when the compile failed. The functions here read what a path, its siblings and the
// NEFF's info.json `name` say about an entry; they touch no file system, so the page's worker
// and the CLI's scan use the same rules.

// Cache states of an entry.
const (
	// CacheDone: model.done is present and the NEFF reads without an error.
	CacheDone = "done"
	// CacheIncomplete: neither model.done nor model.log is present (a compile still running, or
	// one killed before it finished).
	CacheIncomplete = "incomplete"
	// CacheFailed: model.log without model.done (libneuronxla keeps the compiler's log for a
	// failed compile), or a NEFF that does not read without an error finding.
	CacheFailed = "failed"
)

// CacheKey is what a cache path (or a NEFF's info.json name) says about an entry.
type CacheKey struct {
	// Compiler is the version of the neuronxcc-<version> directory ("" when the entry is not
	// under one).
	Compiler string `json:"compiler,omitempty"`
	// Module is "MODULE_<graph hash>"; FlagsHash the 8 hex digits after the '+'.
	Module    string `json:"module"`
	FlagsHash string `json:"flags_hash"`
}

// CacheInfo is a scan record's "cache" object.
type CacheInfo struct {
	Module    string `json:"module"`
	FlagsHash string `json:"flags_hash"`
	State     string `json:"state"`
	// Compiler is the neuronxcc-<version> directory's version.
	Compiler string `json:"compiler_dir,omitempty"`
	// Flags names a known flag set ("no flags"), "" when the hash is not in KnownFlagSets.
	Flags string `json:"flags,omitempty"`
}

// ParseModuleKey reads "MODULE_<hash>+<8 hex>" (also inside "model.MODULE_<hash>+<8 hex>.neff").
// The graph hash is decimal in older caches and hex in newer ones; both are accepted.
func ParseModuleKey(s string) (CacheKey, bool) {
	i := strings.Index(s, "MODULE_")
	if i < 0 {
		return CacheKey{}, false
	}
	s = s[i:]
	plus := strings.IndexByte(s, '+')
	if plus <= len("MODULE_") || len(s) < plus+9 {
		return CacheKey{}, false
	}
	mod, flags := s[:plus], s[plus+1:plus+9]
	if !isHex(mod[len("MODULE_"):]) || !isHex(flags) {
		return CacheKey{}, false
	}
	// What follows the flags hash must end the key: nothing, or ".neff" / ".hlo…" in a file name.
	if rest := s[plus+9:]; rest != "" && rest[0] != '.' && rest[0] != '/' {
		return CacheKey{}, false
	}
	return CacheKey{Module: mod, FlagsHash: strings.ToLower(flags)}, true
}

func isHex(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
			return false
		}
	}
	return true
}

// ParseCachePath reads a NEFF's slash-separated path: its directory must be a MODULE_ key; the
// directory above it, when named neuronxcc-<version>, gives the compiler version.
func ParseCachePath(p string) (CacheKey, bool) {
	dir := path.Dir(p)
	k, ok := ParseModuleKey(path.Base(dir))
	if !ok || !strings.HasPrefix(path.Base(dir), "MODULE_") {
		return CacheKey{}, false
	}
	if v, ok := strings.CutPrefix(path.Base(path.Dir(dir)), "neuronxcc-"); ok {
		k.Compiler = v
	}
	return k, true
}

// CacheState decides an entry's state from the names of the files beside its NEFF and whether
// the NEFF read with an error finding.
func CacheState(siblings []string, neffError bool) string {
	has := map[string]bool{}
	for _, s := range siblings {
		has[s] = true
	}
	switch {
	case neffError:
		return CacheFailed
	case has["model.done"]:
		return CacheDone
	case has["model.log"]:
		return CacheFailed
	}
	return CacheIncomplete
}

// FlagsHash is the suffix the cache puts after a module hash: the first 8 hex digits of the MD5
// of the compiler flags joined by single spaces (unknowns inspect.cache-flags-hash).
func FlagsHash(flags []string) string {
	h := md5.New()
	h.Write([]byte(strings.Join(flags, " ")))
	return hex.EncodeToString(h.Sum(nil))[:8]
}

// FlagSet is one known flag set and its hash.
type FlagSet struct {
	Hash    string
	Flags   []string
	Meaning string
}

// KnownFlagSets are the flag sets recognised by hash. Only the empty set is listed: it is the
// one whose hash is seen in public logs with the flags it stands for (optimum-neuron #407: a
// compile with no user flags, cache key +d41d8cd9). Others need a log showing both.
var KnownFlagSets = []FlagSet{
	{Hash: "d41d8cd9", Flags: nil, Meaning: "no flags"},
}

// FlagsName names a known flags hash ("no flags"), or "".
func FlagsName(hash string) string {
	for _, f := range KnownFlagSets {
		if f.Hash == strings.ToLower(hash) {
			return f.Meaning
		}
	}
	return ""
}

// Unknowns are this file's assumptions (inspect.Unknowns(fleet.Unknowns) joins them with the
// core's).
var Unknowns = []doc.Unknown{
	{ID: "inspect.cache-flags-hash", Spec: "issue 14 (compile caches)",
		Question: "What the 8 hex digits after MODULE_<hash>+ are.",
		Assumption: "The first 8 hex digits of MD5 of the compiler flags joined by single spaces, so no flags gives d41d8cd9 = MD5(\"\"). " +
			"Evidence: public neuronx-cc logs (optimum-neuron #407) show compiles with no user flags keyed +d41d8cd9; a log with flags " +
			"(optimum-neuron #698, +39f12043 beside '--model-type=transformer --auto-cast=none --execute-repetition=1') does not reproduce " +
			"with those flags alone, so which flags enter the hash (user NEURON_CC_FLAGS only, in which order) is not verified. " +
			"Of the real NEFFs here only attn_v6 carries a module key (info.json name …MODULE_17825228117791364669+fad94d7c.neff) and none carries its flags.",
		Confidence: "medium"},
	{ID: "inspect.cache-state", Spec: "issue 14 (compile caches)",
		Question: "Which files mark a cache entry finished or failed.",
		Assumption: "model.done marks a finished entry; model.log without model.done a failed compile (optimum-neuron's hub cache looks up " +
			"MODULE_…/model.log besides model.done, #698); neither is incomplete. A NEFF with an error finding is failed whatever the markers say.",
		Confidence: "medium"},
}

// CacheExplanation compares the cache keys of two entries: why the second is a different
// compile of (maybe) the same graph. It returns one line per reason, most telling first, and
// nil when neither is a cache entry.
func CacheExplanation(a, b CacheKey, haveA, haveB bool, compilerA, compilerB string) []string {
	return cacheExplanation(a, b, haveA, haveB, compilerA, compilerB, "graph")
}

// cacheExplanation is CacheExplanation with the word for what the module hash stands for:
// "graph", or "module hash" where the HLO shows that the graph did not change.
func cacheExplanation(a, b CacheKey, haveA, haveB bool, compilerA, compilerB, module string) []string {
	var out []string
	if compilerA != compilerB && compilerA != "" && compilerB != "" {
		out = append(out, fmt.Sprintf("compiler version differs: %s → %s (a cache is keyed per neuronxcc version, so any graph recompiles)", compilerA, compilerB))
	}
	if !haveA || !haveB {
		return out
	}
	flags := func(h string) string {
		if n := FlagsName(h); n != "" {
			return h + " (" + n + ")"
		}
		return h
	}
	switch {
	case a.Module == b.Module && a.FlagsHash != b.FlagsHash:
		out = append(out, fmt.Sprintf("same graph (%s), flags changed: flags hash %s → %s", a.Module, flags(a.FlagsHash), flags(b.FlagsHash)))
	case a.Module != b.Module && a.FlagsHash == b.FlagsHash:
		out = append(out, fmt.Sprintf("same flags (%s), %s changed: %s → %s", flags(a.FlagsHash), module, a.Module, b.Module))
	case a.Module != b.Module:
		out = append(out, fmt.Sprintf("%s and flags changed: %s+%s → %s+%s", module, a.Module, a.FlagsHash, b.Module, b.FlagsHash))
	default:
		out = append(out, fmt.Sprintf("same cache key %s+%s", a.Module, a.FlagsHash))
	}
	return out
}

// CacheKeyOf finds a file's cache key: from its path when it sits in a cache entry, else from
// the NEFF's info.json name (the key it was compiled for).
func CacheKeyOf(f *inspect.File) (CacheKey, string, bool) {
	if k, ok := ParseCachePath(strings.ReplaceAll(f.Name, "\\", "/")); ok {
		return k, "path", true
	}
	if f.Program != nil && f.Program.Model.Info != nil {
		if k, ok := ParseModuleKey(path.Base(f.Program.Model.Info.Name)); ok {
			return k, "info.json name", true
		}
	}
	return CacheKey{}, "", false
}

// sortedKeys lists a map's keys in order.
func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
