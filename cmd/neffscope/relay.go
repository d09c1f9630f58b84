package main

import (
	"fmt"
	"io"
	"strconv"

	"github.com/neffscope/neffscope/core/doc"
	"github.com/neffscope/neffscope/core/inspect"
)

// Every command that opens a file relays the open's limit findings (doc.IsLimit: a budget, a
// decoder's own bound, the tar path depth…): whatever it prints was computed from a file read
// or decoded only in part, and must say so. Text output gets them on stderr, one
// `neffscope: FILE: [code] message` line each; JSON output carries them in a top-level
// "findings" array of fileFinding, left out when there are none (the schema is unchanged for
// a file no limit cut). Other findings stay where each command printed them before; a text
// output's own list leaves the limit findings out (unrelayed), so each is named once.

// fileFinding is a finding with the file it is about: the element of a command's JSON
// "findings" (coverage --json's own findings have the same shape).
type fileFinding struct {
	File string `json:"file"`
	doc.Finding
}

// limitsShown is how many findings of one code are relayed before the rest are counted.
const limitsShown = 3

// openLimits is f's open's limit findings, the first limitsShown of each code, then one of
// that code counting the rest.
func openLimits(f *inspect.File) []fileFinding {
	if f == nil || f.Doc == nil || f.Doc.Root == nil {
		return nil
	}
	var order []doc.Code
	kept := map[doc.Code][]doc.Finding{}
	count := map[doc.Code]int{}
	for _, fd := range f.Doc.Findings() {
		if !doc.IsLimit(fd.Code) {
			continue
		}
		if count[fd.Code]++; count[fd.Code] == 1 {
			order = append(order, fd.Code)
		}
		if len(kept[fd.Code]) < limitsShown {
			kept[fd.Code] = append(kept[fd.Code], fd)
		}
	}
	var out []fileFinding
	for _, c := range order {
		for _, fd := range kept[c] {
			out = append(out, fileFinding{f.Name, fd})
		}
		if n := count[c] - len(kept[c]); n > 0 {
			out = append(out, fileFinding{f.Name, doc.Finding{Code: c, Severity: kept[c][0].Severity,
				Message: fmt.Sprintf("%d more findings coded %s (neffscope inspect --json %s holds them all)", n, c, f.Name)}})
		}
	}
	return out
}

// relayLimits relays f's open's limit findings: on stderr when the output is text (asJSON
// false), else only returned, for the caller to put in its JSON's "findings". rc is what
// inspect exits with for them: 1 when one is an error, else 0.
func relayLimits(stderr io.Writer, f *inspect.File, asJSON bool) (fs []fileFinding, rc int) {
	fs = openLimits(f)
	for _, fd := range fs {
		if fd.Severity == doc.Error {
			rc = 1
		}
		if !asJSON {
			fmt.Fprintf(stderr, "neffscope: %s: [%s] %s\n", safe(fd.File), fd.Code, safeMsg(fd.Message))
		}
	}
	return fs, rc
}

// appendFindingsMember appends `"findings": [...],` (each as encoding/json writes a
// fileFinding, escaped as doc.AppendJSONString escapes with JSONSafe) for a JSON object written by hand, or
// nothing when fs is empty.
func appendFindingsMember(b []byte, fs []fileFinding, indent string) []byte {
	if len(fs) == 0 {
		return b
	}
	b = append(b, `"findings": [`...)
	for i, fd := range fs {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, "\n"+indent+` {"file":`...)
		b = doc.AppendJSONString(b, fd.File, doc.JSONSafe)
		b = append(b, `,"code":`...)
		b = doc.AppendJSONString(b, string(fd.Code), doc.JSONSafe)
		b = append(b, `,"severity":`...)
		b = doc.AppendJSONString(b, fd.Severity, doc.JSONSafe)
		b = append(b, `,"message":`...)
		b = doc.AppendJSONString(b, fd.Message, doc.JSONSafe)
		if s := fd.Span; s != nil {
			b = append(b, `,"span":{`...)
			if s.Source != "" {
				b = append(b, `"source":`...)
				b = doc.AppendJSONString(b, s.Source, doc.JSONSafe)
				b = append(b, ',')
			}
			b = append(b, `"offset":`...)
			b = strconv.AppendInt(b, s.Offset, 10)
			b = append(b, `,"length":`...)
			b = strconv.AppendInt(b, s.Length, 10)
			b = append(b, '}')
		}
		b = append(b, '}')
	}
	return append(b, "],\n"+indent...)
}

// unrelayed is the findings of fs that the relay does not name: a command's text output lists
// these, and leaves the limit findings to the relay's stderr lines, which carry their codes,
// so that each limit is named once.
func unrelayed(fs []doc.Finding) []doc.Finding {
	var out []doc.Finding
	for _, fd := range fs {
		if !doc.IsLimit(fd.Code) {
			out = append(out, fd)
		}
	}
	return out
}

// relayOnto relays the files' limit findings for diff, compare and profile, whose JSON is the
// node n they print: as text, on stderr; as JSON, on n, naming the file, beside the errors
// addFileErrors put there (limit findings that are errors are among them already). rc is 1
// when one of the limits relayed is an error.
func relayOnto(n *doc.Node, files []*inspect.File, stderr io.Writer, asJSON bool) (rc int) {
	for _, f := range files {
		fs, frc := relayLimits(stderr, f, asJSON)
		rc = max(rc, frc)
		if !asJSON {
			continue
		}
		for _, fd := range fs {
			if fd.Severity != doc.Error {
				n.Findings = append(n.Findings, doc.Finding{Code: fd.Code, Severity: fd.Severity, Message: f.Name + ": " + fd.Message})
			}
		}
	}
	return rc
}
