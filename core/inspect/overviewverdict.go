package inspect

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/neffscope/neffscope/core/doc"
	"github.com/neffscope/neffscope/core/neff"
	"github.com/neffscope/neffscope/core/sched"
)

// The verdict is the overview's first answer, "is this file sound?": one node over five
// checks — the payload hash, the runtime's acceptance, the file's own error findings, the
// sync model's lints (deadlocks, waits nothing satisfies) and the memory model's (races,
// accesses out of bounds) — each passed, failed, undecided (looked at, but the model could
// not follow all of it, or a limit stopped the read) or pending (not worked out yet). The
// open's overview has the first three: the sync and memory models are built on demand
// (SyncOverview, whose card carries the verdict again with them), so an open never pays for
// the memory sweep and its verdict is at best open. `neffscope check` builds both and is the
// CI gate.

// Verdict states: attrs.verdict of the verdict node, attrs.state of each check.
const (
	VerdictPass      = "pass"      // every check passed
	VerdictFail      = "fail"      // a check failed: the file is not sound
	VerdictOpen      = "open"      // the node: nothing failed, but a check is undecided or pending
	VerdictUndecided = "undecided" // a check: looked at, but not all of it could be decided
	VerdictPending   = "pending"   // a check: not worked out yet (on demand)
)

// Check keys: the verdict's items, in order.
const (
	CheckHash    = "integrity" // the payload against the header's hash
	CheckRuntime = "runtime"   // libnrt 2.31's acceptance of the container
	CheckErrors  = "errors"    // the file's own error findings (and the limits that stopped a read)
	CheckSync    = "sync"      // the sync model's lints
	CheckMemory  = "memory"    // the memory model's lints
)

// Attr keys of the verdict.
const (
	AttrVerdict = "verdict" // the verdict node: VerdictPass, VerdictFail or VerdictOpen
	AttrState   = "state"   // a check: VerdictPass, VerdictFail, VerdictUndecided or VerdictPending
	AttrCodes   = "codes"   // a check that failed or is undecided: the codes behind it, comma separated
)

// verdictFacts is what the verdict is decided from.
type verdictFacts struct {
	a       *neff.Archive // nil: not a NEFF
	errors  []doc.Finding // the document's error findings
	limits  int           // findings of a limit that stopped a read (doc.IsLimit)
	cause   string        // the root cause (rootCause), "" when none
	why     string        // what the root cause tells the user
	m       *sched.Model  // nil: the models were not built
	memory  bool          // m has the memory model
	program bool          // the file has a program to model (without one, nothing is pending)
}

// Verdict is the verdict node of f, with the sync and memory checks decided from m (nil:
// pending), memory telling whether m has the memory part (File.Memmap) or not (File.Sched).
func Verdict(f *File, m *sched.Model, memory bool) *doc.Node {
	v := verdictFacts{m: m, memory: memory && m != nil}
	if f != nil {
		v.a = f.Archive
		v.program = f.Program != nil && f.Program.Model != nil
		v.cause, v.why = rootCause(f)
		if f.Doc != nil {
			v.addFindings(f.Doc.Findings())
		}
	}
	return v.node(func(*doc.Node) string { return "" }, func(...string) *doc.Node { return nil })
}

func (v *verdictFacts) addFindings(fs []doc.Finding) {
	for _, x := range fs {
		switch {
		case doc.IsLimit(x.Code):
			v.limits++
		case x.Severity == doc.Error:
			v.errors = append(v.errors, x)
		}
	}
}

// node builds the verdict: its checks in order, and the whole in attrs.verdict and Value.
func (v *verdictFacts) node(link func(*doc.Node) string, find func(...string) *doc.Node) *doc.Node {
	s := &doc.Node{Kind: doc.KindAnswer, Key: OverviewVerdict, Label: "verdict"}
	add := func(key, label, state, value, detail string, codes []string) *doc.Node {
		n := s.Add(&doc.Node{Kind: doc.KindField, Key: key, Label: label, Value: value, Detail: detail})
		n.SetAttr(AttrState, state)
		if state == VerdictPass || state == VerdictFail {
			n.SetAttr(AttrOK, strconv.FormatBool(state == VerdictPass)) // the page's older read
		}
		if state == VerdictPending {
			n.SetAttr(AttrPending, "on demand")
		}
		if len(codes) > 0 {
			n.SetAttr(AttrCodes, strings.Join(codes, ","))
		}
		return n
	}
	if v.a == nil {
		add(CheckHash, "container", VerdictFail, "not a NEFF", "The file has no NEFF header: there is no container to check.", []string{string(doc.CodeFileNotNEFF)})
	} else {
		h := v.hash(add)
		h.Link = link(find("payload", "integrity"))
		r := v.runtime(add)
		r.Link = link(find("runtime"))
	}
	v.findings(add)
	v.syncCheck(add)
	v.memoryCheck(add)
	worst, failed, open := VerdictPass, []string{}, []string{}
	for _, c := range s.Children {
		switch c.Attrs[AttrState] {
		case VerdictFail:
			worst = VerdictFail
			failed = append(failed, c.Label)
		case VerdictUndecided, VerdictPending:
			if worst == VerdictPass {
				worst = VerdictOpen
			}
			open = append(open, c.Label)
		}
	}
	s.SetAttr(AttrVerdict, worst)
	switch worst {
	case VerdictPass:
		s.Value = "sound: every check passed"
	case VerdictFail:
		s.Value = "not sound: " + strings.Join(failed, ", ") + " failed"
	default:
		s.Value = "nothing failed; not decided: " + strings.Join(open, ", ")
	}
	s.Detail = "the hash, the runtime's acceptance, the file's own errors, and the sync and memory models' lints; " +
		"an undecided check was looked at but not all of it could be followed, a pending one is worked out on demand (neffscope check works out all of them)"
	return s
}

type addCheck func(key, label, state, value, detail string, codes []string) *doc.Node

func (v *verdictFacts) hash(add addCheck) *doc.Node {
	a := v.a
	switch a.Payload.Integrity {
	case doc.IntegrityOK:
		return add(CheckHash, "hash", VerdictPass, "ok", "The payload matches the header's "+strings.ToUpper(a.Payload.HashAlgo)+" hash: the file is as the compiler wrote it.", nil).
			SetAttr(doc.AttrIntegrity, a.Payload.Integrity)
	case doc.IntegrityMismatch:
		return add(CheckHash, "hash", VerdictFail, "mismatch", "The payload does not match the header's hash: the file was changed or damaged after it was written.", []string{string(doc.CodeNeffHashMismatch)}).
			SetAttr(doc.AttrIntegrity, a.Payload.Integrity)
	}
	if v.cause == CauseTruncated {
		return add(CheckHash, "hash", VerdictFail, "cannot match", "The hash cannot match: the file is cut short (the payload is not all there).", []string{string(doc.CodeNeffTruncated)}).
			SetAttr(doc.AttrIntegrity, a.Payload.Integrity)
	}
	return add(CheckHash, "hash", VerdictUndecided, "not checked", "The hash was not checked: the package version has no known hash.", nil).SetAttr(doc.AttrIntegrity, a.Payload.Integrity)
}

func (v *verdictFacts) runtime(add addCheck) *doc.Node {
	a := v.a
	switch {
	case a.Verdict.Unchecked != "":
		return add(CheckRuntime, "runtime", VerdictUndecided, "not checked", "Not known: "+a.Verdict.Unchecked+".", nil)
	case !a.Verdict.Accepts:
		return add(CheckRuntime, "runtime", VerdictFail, "refused", "libnrt 2.31 would refuse it: "+a.Verdict.Message, []string{string(doc.CodeNeffRuntimeRefuses)})
	}
	return add(CheckRuntime, "runtime", VerdictPass, "accepted", "libnrt 2.31 would load this container (its header and manifests; whether it then runs right is what the sync and memory checks ask).", nil)
}

func (v *verdictFacts) findings(add addCheck) {
	codes := distinctCodes(v.errors, 8)
	switch {
	case len(v.errors) > 0:
		detail := "The file has errors of its own (the findings list them)."
		if v.cause != "" {
			detail = v.why
		}
		add(CheckErrors, "errors", VerdictFail, plural(len(v.errors), "error"), detail, codes)
	case v.limits > 0:
		add(CheckErrors, "errors", VerdictUndecided, "none found; "+plural(v.limits, "limit")+" reached",
			"No error in what was read, but a limit stopped part of the read (the findings name it and how to raise it): what was not read was not checked.", nil)
	default:
		add(CheckErrors, "errors", VerdictPass, "none", "No error finding in the whole file.", nil)
	}
}

// modelWords is what a model check says in each state: the one text per model.
type modelWords struct {
	key, label, unmodelled, pending, command, blind, cut, pass string
}

var (
	syncWords = modelWords{CheckSync, "sync",
		"The file has no program to model (no manifests resolve): its waits are not checked.",
		"the sync model (every wait tied to its producer: deadlocks, waits nothing satisfies) is built on demand: the schedule, or neffscope check",
		"neffscope sync", "the model could not follow %s (%s): a deadlock through them would not be seen",
		"The file is cut short: the streams and cores past the cut are not modelled.",
		"Every wait has its producer and nothing deadlocks."}
	memoryWords = modelWords{CheckMemory, "memory",
		"The file has no program to model: its SBUF/PSUM accesses are not checked.",
		"the memory model (every SBUF/PSUM access placed: races, accesses out of bounds) is built on demand, as it can take longer than the open: the memory view, or neffscope check",
		"neffscope memmap", "the model could not place the accesses of %s (%s): a race through them would not be seen",
		"The file is cut short: the accesses past the cut are not modelled.",
		"Every SBUF/PSUM access placed; no race, nothing out of bounds."}
)

func (v *verdictFacts) syncCheck(add addCheck) {
	var t modelTally
	if v.m != nil {
		for _, c := range v.m.Cores {
			t.waits += len(c.Waits)
			for _, w := range c.Lints() {
				t.lint(w.Code.String())
			}
			for _, u := range c.Undecided {
				t.undecide(u.Code.String(), u.Count)
			}
		}
	}
	v.modelCheck(add, syncWords, v.m != nil, t, plural(t.waits, "wait")+", no lint")
}

func (v *verdictFacts) memoryCheck(add addCheck) {
	var t modelTally
	if v.memory {
		for _, c := range v.m.Cores {
			for _, l := range c.MemLints {
				t.lint(l.Code.String())
			}
			for _, u := range c.MemIssues {
				t.undecide(u.Code.String(), u.Count)
			}
		}
	}
	v.modelCheck(add, memoryWords, v.memory, t, "no lint")
}

// modelTally counts a model's lints and undecided instructions, with their codes.
type modelTally struct {
	waits, lints, undecided int
	lintCodes, undCodes     []string
}

func (t *modelTally) lint(code string) {
	t.lints++
	t.lintCodes = appendCode(t.lintCodes, code)
}

func (t *modelTally) undecide(code string, n int) {
	t.undecided += n
	t.undCodes = appendCode(t.undCodes, code)
}

// modelCheck adds a model's check: built says the model was built.
func (v *verdictFacts) modelCheck(add addCheck, w modelWords, built bool, t modelTally, passValue string) {
	switch {
	case v.a == nil:
	case !v.program:
		add(w.key, w.label, VerdictUndecided, "no program", w.unmodelled, nil)
	case !built:
		add(w.key, w.label, VerdictPending, "not worked out", w.pending, nil)
	case t.lints > 0:
		add(w.key, w.label, VerdictFail, plural(t.lints, "lint"), "The "+w.label+" model finds "+plural(t.lints, "lint")+" ("+strings.Join(t.lintCodes, ", ")+"): "+w.command+" lists them.", t.lintCodes)
	case t.undecided > 0:
		add(w.key, w.label, VerdictUndecided, "no lint; "+strconv.Itoa(t.undecided)+" undecided",
			"No lint, but "+fmt.Sprintf(w.blind, plural(t.undecided, "instruction"), strings.Join(t.undCodes, ", "))+".", t.undCodes)
	case v.cause == CauseTruncated:
		add(w.key, w.label, VerdictUndecided, "no lint in what was read", w.cut, nil)
	default:
		add(w.key, w.label, VerdictPass, passValue, w.pass, nil)
	}
}

func appendCode(codes []string, c string) []string {
	for _, x := range codes {
		if x == c {
			return codes
		}
	}
	return append(codes, c)
}

// distinctCodes lists the findings' codes once each, at most max.
func distinctCodes(fs []doc.Finding, max int) []string {
	var out []string
	for _, f := range fs {
		if len(out) == max {
			break
		}
		out = appendCode(out, string(f.Code))
	}
	return out
}
