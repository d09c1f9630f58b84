package main

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/neffscope/neffscope/core/doc"
	"github.com/neffscope/neffscope/internal/realfiles"
)

// TestEveryCommandNamesTheLimit runs each command of the hostile sweep (scripts/hostilesweep)
// on each hostile class that reaches a limit, scaled down (with a smaller --max-memory where
// the class's limit is the budget's): each run names the limit's code, JSON in its findings
// (any "code" member), text and CSV by "[code]" on stderr (or, for scan's CSV, in the
// problems cell); a text run names each limit once.
func TestEveryCommandNamesTheLimit(t *testing.T) {
	real, ok := realfiles.Find("nkipy/matmul_small.neff")
	if !ok {
		t.Skip("no nkipy/matmul_small.neff")
	}
	classes := []struct {
		name  string
		scale float64
		flags []string // limits that make the scaled-down class reach its limit
		code  doc.Code
	}{
		{"deep-longname", 1, nil, doc.CodeTarPathDepth},
		{"deep-pax", 0.2, nil, doc.CodeTarPathDepth},
		{"many-members", 0.02, []string{"--max-memory", "4000000"}, doc.CodeBudgetMemory},
		{"def-missing", 0.02, []string{"--max-memory", "4000000"}, doc.CodeManifestTooManyCores},
		{"many-cores", 0.05, []string{"--max-memory", "4000000"}, doc.CodeManifestTooManyCores},
		{"table-loads", 0.26, nil, doc.CodeISALoadsLimit},
		{"dbg-kernel-paths", 0.07, nil, doc.CodeDbgNamesLimit},
		{"dbg-attrs", 0.035, nil, doc.CodeDbgAttrsLimit},
	}
	// The sweep's command lines (F the class, R a real NEFF, D a folder holding F), but
	// extract-neff, which copies the NEFF out of a zip without decoding it.
	commands := []struct {
		args []string
		out  string // json, jsonl, csv or text
	}{
		{[]string{"info", "F"}, "text"}, {[]string{"info", "--json", "F"}, "json"},
		{[]string{"inspect", "F"}, "text"}, {[]string{"inspect", "--json", "F"}, "json"},
		{[]string{"disasm", "--engine", "PE", "F"}, "text"}, {[]string{"disasm", "--json", "--engine", "PE", "F"}, "json"}, // PE: a few words
		{[]string{"coverage", "F"}, "text"}, {[]string{"coverage", "--json", "F"}, "json"},
		{[]string{"profile", "F"}, "text"}, {[]string{"profile", "--json", "F"}, "json"},
		{[]string{"profile", "--by-line", "--csv", "F"}, "csv"},
		{[]string{"memory", "F"}, "text"}, {[]string{"memory", "--json", "F"}, "json"},
		{[]string{"sync", "F"}, "text"}, {[]string{"sync", "--json", "F"}, "json"},
		{[]string{"memmap", "F"}, "text"}, {[]string{"memmap", "--json", "F"}, "json"},
		{[]string{"diff", "--json", "F", "R"}, "json"}, {[]string{"diff", "R", "F"}, "text"},
		{[]string{"compare", "--json", "F", "R"}, "json"},
		{[]string{"scan", "--jsonl", "-q", "D"}, "jsonl"}, {[]string{"scan", "--csv", "-q", "D"}, "csv"},
	}
	// info, sync and memmap leave the .dbg members out of their open (DeferSource): they never
	// reach the .dbg decoder's limits.
	noDbg := map[string]bool{"info": true, "sync": true, "memmap": true}
	dir := t.TempDir()
	// -short: one class for each kind of limit (7.4 CPU-s → about 2 for all eight).
	short := map[string]bool{"deep-longname": true, "many-cores": true, "table-loads": true, "dbg-kernel-paths": true}
	for _, c := range classes {
		if testing.Short() && !short[c.name] {
			continue
		}
		scanDir := filepath.Join(dir, c.name)
		if err := os.Mkdir(scanDir, 0o755); err != nil {
			t.Fatal(err)
		}
		f := writeClass(t, scanDir, c.name, c.scale)
		for _, cmd := range commands {
			if noDbg[cmd.args[0]] && strings.HasPrefix(string(c.code), "dbg.") {
				continue
			}
			args := append([]string{cmd.args[0]}, c.flags...)
			for _, a := range cmd.args[1:] {
				switch a {
				case "F":
					a = f
				case "R":
					a = real
				case "D":
					a = scanDir
				}
				args = append(args, a)
			}
			name := c.name + " " + strings.Join(cmd.args, " ")
			out, errs, _ := runCLI(t, args...)
			if cmd.out == "text" {
				namedOnce(t, name, out, errs)
			}
			if named(t, name, cmd.out, out, errs, c.code) {
				continue
			}
			t.Errorf("%s: no %s (stderr %.300q)", name, c.code, errs)
		}
	}
}

// namedOnce checks that a text run names each limit once: the message of every relayed
// "neffscope: FILE: [code] message" line on stderr appears nowhere else in stdout or stderr
// (a command's own list of findings leaves the limits to the relay).
func namedOnce(t *testing.T, name, out, errs string) {
	t.Helper()
	for _, line := range strings.Split(errs, "\n") {
		_, rest, ok := strings.Cut(line, "] ")
		if !ok || !strings.HasPrefix(line, "neffscope: ") || !strings.Contains(line, ": [") {
			continue
		}
		if n := strings.Count(out, rest) + strings.Count(errs, rest); n != 1 {
			t.Errorf("%s: a limit is named %d times: %q", name, n, line)
		}
	}
}

// named reports whether a run's output names code: JSON (or each JSONL line) by a "code"
// member anywhere, text by "[code]" on stderr, CSV by either that or the code in a cell.
func named(t *testing.T, name, format, out, errs string, code doc.Code) bool {
	t.Helper()
	if strings.Contains(errs, "["+string(code)+"]") {
		return true
	}
	switch format {
	case "csv":
		return strings.Contains(out, string(code))
	case "json", "jsonl":
		docs := []string{out}
		if format == "jsonl" {
			docs = nil
			sc := bufio.NewScanner(strings.NewReader(out))
			sc.Buffer(nil, 1<<26)
			for sc.Scan() {
				docs = append(docs, sc.Text())
			}
		}
		found := false
		for _, d := range docs {
			var v any
			if err := json.Unmarshal([]byte(d), &v); err != nil {
				t.Errorf("%s: the JSON does not parse: %v", name, err)
				return true
			}
			found = found || hasCode(v, code)
		}
		return found
	}
	return false
}

func hasCode(v any, code doc.Code) bool {
	switch x := v.(type) {
	case map[string]any:
		if c, ok := x["code"].(string); ok && c == string(code) {
			return true
		}
		for _, y := range x {
			if hasCode(y, code) {
				return true
			}
		}
	case []any:
		for _, y := range x {
			if hasCode(y, code) {
				return true
			}
		}
	}
	return false
}
