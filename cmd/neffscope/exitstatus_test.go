package main

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/neffscope/neffscope/core/neff/neffbuild"
)

// Every command exits as its help says: 2 for trouble (bad usage, a FILE that cannot be read
// or is not of a kind the command reads, an output refused), 1 when an error finding was
// printed, 0 for help asked for.
func TestExitStatus(t *testing.T) {
	dir := t.TempDir()
	missing, text, good, damaged := filepath.Join(dir, "missing.neff"), filepath.Join(dir, "notes.txt"), filepath.Join(dir, "good.neff"), filepath.Join(dir, "damaged.neff")
	b := neffbuild.Bytes(neffbuild.Sample(), neffbuild.Options{})
	os.WriteFile(text, []byte("hello\n"), 0o644)
	os.WriteFile(good, b, 0o644)
	bad := append([]byte(nil), b...)
	bad[len(bad)-1] ^= 1 // the payload no longer matches the header's hash
	os.WriteFile(damaged, bad, 0o644)
	out := func(name string) string { return filepath.Join(t.TempDir(), name) }

	// FILE stands for the file each row is run on.
	reads := map[string][]string{
		"info":         {"info", "FILE"},
		"inspect":      {"inspect", "FILE"},
		"memory":       {"memory", "FILE"},
		"disasm":       {"disasm", "FILE"},
		"coverage":     {"coverage", "FILE"},
		"extract":      {"extract", "FILE", "sg00/def.json"},
		"diff":         {"diff", "FILE", good},
		"compare":      {"compare", "FILE", good},
		"profile":      {"profile", "FILE"},
		"sync":         {"sync", "FILE"},
		"memmap":       {"memmap", "FILE"},
		"timeline":     {"timeline", "FILE"},
		"export":       {"export", "--parquet", "OUT", "FILE"},
		"check":        {"check", "FILE"},
		"scan":         {"scan", "-q", "FILE"},
		"extract-neff": {"extract-neff", "FILE"},
		"eval":         {"eval", "--func", "exp", "FILE", "0.5"},
		"ncfw":         {"ncfw", "--read", "FILE"},
	}
	// The commands that read only NEFFs (or, timeline, NEFFs and device profiles).
	neffOnly := []string{"memory", "disasm", "coverage", "extract", "diff", "profile", "sync", "memmap", "timeline", "export"}
	args := func(row []string, file string) []string {
		var a []string
		for _, s := range row {
			switch s {
			case "FILE":
				s = file
			case "OUT":
				s = out("tables")
			}
			a = append(a, s)
		}
		return a
	}
	names := make([]string, 0, len(reads))
	for n := range reads {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		if _, errs, rc := runCmd(t, args(reads[n], missing)...); rc != 2 {
			t.Errorf("%s of a missing file: rc %d, want 2: %s", n, rc, errs)
		}
		if _, errs, rc := runCmd(t, args(reads[n], dir)...); rc != 2 && n != "scan" { // scan walks a directory
			t.Errorf("%s of a directory: rc %d, want 2: %s", n, rc, errs)
		}
	}
	for _, n := range neffOnly {
		if _, errs, rc := runCmd(t, args(reads[n], text)...); rc != 2 {
			t.Errorf("%s of a text file: rc %d, want 2: %s", n, rc, errs)
		}
	}
	for n := range commands {
		if _, errs, rc := runCmd(t, n, "-h"); rc != 0 {
			t.Errorf("%s -h: rc %d, want 0: %s", n, rc, errs)
		}
		if _, _, rc := runCmd(t, n, "--no-such-flag"); rc != 2 {
			t.Errorf("%s --no-such-flag: rc %d, want 2", n, rc)
		}
	}
	// Asking for what the file does not hold is bad usage.
	for _, a := range [][]string{{"disasm", "--sg", "sg99", good}, {"extract", good, "no/such/member"}} {
		if _, errs, rc := runCmd(t, a...); rc != 2 {
			t.Errorf("%v: rc %d, want 2: %s", a, rc, errs)
		}
	}
	// An output that exists is refused without --force.
	exists := out("exists")
	os.WriteFile(exists, nil, 0o644)
	tables := out("tables")
	os.MkdirAll(tables, 0o755)
	os.WriteFile(filepath.Join(tables, exportInstructions), nil, 0o644)
	for _, a := range [][]string{{"sync", "--trace", exists, good}, {"export", "--parquet", tables, good}, {"scan", "-q", "--parquet", exists, good}} {
		if _, errs, rc := runCmd(t, a...); rc != 2 || !strings.Contains(errs, "output.exists") {
			t.Errorf("%v: rc %d, want 2 and output.exists: %s", a, rc, errs)
		}
	}
	// A file whose payload does not match its hash: an error finding, exit 1.
	for _, n := range []string{"info", "inspect", "disasm", "memory", "sync"} {
		if _, errs, rc := runCmd(t, args(reads[n], damaged)...); rc != 1 {
			t.Errorf("%s of a damaged NEFF: rc %d, want 1: %s", n, rc, errs)
		}
	}
	// And of a good one, 0.
	for _, n := range []string{"info", "inspect", "disasm", "memory", "coverage", "profile", "sync", "memmap", "timeline"} {
		if _, errs, rc := runCmd(t, args(reads[n], good)...); rc != 0 {
			t.Errorf("%s of a good NEFF: rc %d, want 0: %s", n, rc, errs)
		}
	}
}
