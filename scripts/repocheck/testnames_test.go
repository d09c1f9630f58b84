package repocheck

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
)

// testFunc finds the test, benchmark and fuzz functions a _test.go file defines.
var testFunc = regexp.MustCompile(`(?m)^func ((?:Test|Benchmark|Fuzz)[A-Za-z0-9_]*)\(`)

// namedInText finds a test, benchmark or fuzz target named in prose: `TestX`, `BenchmarkX*` (a
// trailing * names every one that starts so).
var namedInText = regexp.MustCompile(`\b((?:Test|Benchmark|Fuzz)[A-Z][A-Za-z0-9_]*)(\*?)`)

// makeRegex finds the patterns the Makefile hands go test (-run, -skip, -bench, quoted).
var makeRegex = regexp.MustCompile(`-(?:run|skip|bench) '([^']*)'`)

// makeRef is a reference to a Makefile variable.
var makeRef = regexp.MustCompile(`\$\(([A-Z0-9_]+)\)`)

// makeVar finds a Makefile variable's assignment.
var makeVar = regexp.MustCompile(`(?m)^([A-Z0-9_]+)\s*[:?]?=\s*(.*)$`)

// definedTests is every test, benchmark and fuzz function of the tracked _test.go files.
func definedTests(t *testing.T, root string) map[string]bool {
	t.Helper()
	names := map[string]bool{}
	for _, f := range gitFiles(t, root, "*_test.go") {
		b, err := os.ReadFile(filepath.Join(root, f))
		if err != nil {
			continue // deleted in the working tree
		}
		for _, m := range testFunc.FindAllSubmatch(b, -1) {
			names[string(m[1])] = true
		}
	}
	return names
}

// anyHas reports whether a defined name is want, or starts with it when prefix is set.
func anyHas(names map[string]bool, want string, prefix bool) bool {
	if !prefix {
		return names[want]
	}
	for n := range names {
		if strings.HasPrefix(n, want) {
			return true
		}
	}
	return false
}

// TestNamedTestsExist: every test, benchmark or fuzz target the docs, the Makefile and CI name
// exists, and every literal alternative of a pattern the Makefile passes to go test matches
// one. A test renamed or removed must not leave a doc pointing at nothing, nor a Makefile lane
// that silently runs nothing.
func TestNamedTestsExist(t *testing.T) {
	root := gitRoot(t)
	names := definedTests(t, root)
	if len(names) == 0 {
		t.Fatal("no test functions found")
	}
	var missing []string
	texts := append(gitFiles(t, root, "*.md"), "Makefile", ".ci/run")
	for _, f := range texts {
		b, err := os.ReadFile(filepath.Join(root, f))
		if err != nil {
			continue
		}
		for _, m := range namedInText.FindAllSubmatch(b, -1) {
			if !anyHas(names, string(m[1]), len(m[2]) > 0) {
				missing = append(missing, f+": "+string(m[1])+string(m[2]))
			}
		}
	}
	mk, err := os.ReadFile(filepath.Join(root, "Makefile"))
	if err != nil {
		t.Fatal(err)
	}
	vars := map[string]string{}
	for _, m := range makeVar.FindAllSubmatch(mk, -1) {
		vars[string(m[1])] = string(m[2])
	}
	for _, m := range makeRegex.FindAllSubmatch(mk, -1) {
		pat := expandMake(string(m[1]), vars)
		if strings.Contains(pat, "$(") {
			missing = append(missing, "Makefile: "+string(m[1])+": a variable the test cannot expand")
			continue
		}
		for _, lit := range alternatives(pat) {
			if lit.skip {
				continue
			}
			if !anyHas(names, lit.text, !lit.end) {
				missing = append(missing, "Makefile: "+string(m[1])+": "+lit.text)
			}
		}
	}
	sort.Strings(missing)
	missing = slices.Compact(missing)
	if len(missing) > 0 {
		t.Errorf("named but defined in no _test.go (renamed or removed? correct the name):\n  %s", strings.Join(missing, "\n  "))
	}
}

// expandMake replaces $(VAR) by the Makefile's value and $$ by $.
func expandMake(s string, vars map[string]string) string {
	for range 4 {
		s = makeRef.ReplaceAllStringFunc(s, func(v string) string {
			return vars[v[2:len(v)-1]]
		})
	}
	return strings.ReplaceAll(s, "$$", "$")
}

// literal is one alternative of a pattern: a name or a name's start (end unset).
type literal struct {
	text string
	end  bool // anchored with $: the whole name
	skip bool // not a plain name (other regexp syntax, or empty): not checked
}

// alternatives expands a pattern of names, groups and | (^ and $ at its ends) into every
// literal it matches, as go test matches a top-level name: "^Test(A|B(C|D))$" gives TestA,
// TestBC, TestBD. Anything else is left unchecked.
func alternatives(pat string) []literal {
	end := strings.HasSuffix(pat, "$")
	pat = strings.TrimSuffix(strings.TrimPrefix(pat, "^"), "$")
	if strings.ContainsAny(pat, `.*+?[]\{}^$`) || pat == "" {
		return []literal{{text: pat, skip: true}}
	}
	var out []literal
	for _, s := range expand(pat) {
		if !strings.HasPrefix(s, "Test") && !strings.HasPrefix(s, "Benchmark") && !strings.HasPrefix(s, "Fuzz") {
			// Not the start of a test function's name (go test matches a pattern anywhere in
			// the name): not checked.
			out = append(out, literal{text: s, skip: true})
			continue
		}
		out = append(out, literal{text: s, end: end})
	}
	return out
}

// expand lists the strings a pattern of literals, groups and | matches.
func expand(p string) []string {
	var alts []string
	depth, start := 0, 0
	for i, c := range p {
		switch c {
		case '(':
			depth++
		case ')':
			depth--
		case '|':
			if depth == 0 {
				alts = append(alts, p[start:i])
				start = i + 1
			}
		}
	}
	if len(alts) > 0 {
		var out []string
		for _, a := range append(alts, p[start:]) {
			out = append(out, expand(a)...)
		}
		return out
	}
	i := strings.IndexByte(p, '(')
	if i < 0 {
		return []string{p}
	}
	depth = 0
	j := i
	for ; j < len(p); j++ {
		if p[j] == '(' {
			depth++
		} else if p[j] == ')' {
			depth--
			if depth == 0 {
				break
			}
		}
	}
	if j >= len(p) {
		return []string{p} // unbalanced: left as it is
	}
	var out []string
	for _, mid := range expand(p[i+1 : j]) {
		for _, rest := range expand(p[j+1:]) {
			out = append(out, p[:i]+mid+rest)
		}
	}
	return out
}
