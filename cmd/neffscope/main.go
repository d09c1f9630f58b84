// Command neffscope is the native front end of the neffscope core: it prints the same
// Documents the page shows, as text or JSON, and runs the emulators from the shell.
//
// Each subcommand lives in its own file and registers itself in commands from init, so
// adding a capability is one file.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/pprof"
	"sort"
)

// command is one subcommand: run gets the arguments after the subcommand's name and returns
// the process exit code.
type command struct {
	summary string
	run     func(args []string, stdout, stderr io.Writer) int
}

var commands = map[string]command{}

// exitHelp is the exit status every command shares, said at the end of its help. diff,
// compare, check, scan, extract-neff, eval and ncfw say what else their codes mean.
const exitHelp = "exit status: 0 done; 1 an error finding was printed (the file's own error, a limit that\n" +
	"stopped the read, a lint); 2 trouble (bad usage, a FILE that cannot be read or is not of a kind\n" +
	"the command reads, an output refused or not written)"

func main() {
	tuneCollector()
	// NEFFSCOPE_CPUPROFILE=FILE profiles the command (where docs/performance.md's figures come from).
	if p := os.Getenv("NEFFSCOPE_CPUPROFILE"); p != "" {
		if f, err := createOutput(p, outputRules{force: true}); err == nil && pprof.StartCPUProfile(f) == nil {
			rc := run(os.Args[1:], os.Stdout, os.Stderr)
			pprof.StopCPUProfile()
			f.commit()
			os.Exit(rc)
		}
	}
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// tuneCollector sets how the collector runs for the CLI (the tests' subprocesses too).
func tuneCollector() {
	// The open's budget bounds what decoders keep; a soft memory limit that follows what is
	// live makes the collector work harder as the heap nears it, so garbage does not double
	// the RSS (the goals: ≤ 256 MiB whatever the file, ≤ 64 MiB on the real-shaped NEFFs).
	tuneMemoryLimit()
	// A collection when the heap has grown by half what is live, not all of it: on the
	// real-shaped 32 MB NEFF info's peak RSS 200 → 175 MiB and disasm --json's 268 → 206 MiB
	// for the same wall time on 2 cores (the collector runs beside the work; ~5% more CPU).
	// GOGC, when set, still decides.
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(50)
	}
}

// heapProfileAfterOpen writes, when NEFFSCOPE_MEMPROFILE=FILE is set, what an open left live
// (after a collection): where docs/performance.md's memory figures come from.
func heapProfileAfterOpen() {
	p := os.Getenv("NEFFSCOPE_MEMPROFILE")
	if p == "" {
		return
	}
	runtime.GC()
	if f, err := createOutput(p, outputRules{force: true}); err == nil {
		pprof.WriteHeapProfile(f)
		f.commit()
	}
}

func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		usage(stderr)
		if len(args) == 0 {
			return 2
		}
		return 0
	}
	c, ok := commands[args[0]]
	if !ok {
		fmt.Fprintf(stderr, "neffscope: unknown command %q\n\n", args[0])
		usage(stderr)
		return 2
	}
	if !rawOutput[args[0]] {
		tw := &termWriter{w: stdout}
		defer tw.Flush()
		stdout = tw
	}
	ew := &termWriter{w: stderr}
	defer ew.Flush()
	stderr = ew
	return c.run(args[1:], stdout, stderr)
}

// parseExit is the exit code of a command whose flags did not parse (the flag package has
// printed why): 0 when help was asked for (-h, --help), 2 for bad usage.
func parseExit(err error) int {
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	return 2
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "neffscope — see inside AWS Neuron compiler artifacts (NEFF, activation tables, libncfw dumps)")
	fmt.Fprintln(w, "\nusage: neffscope COMMAND [options] FILE...\n\ncommands:")
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-9s %s\n", n, commands[n].summary)
	}
	fmt.Fprintln(w, "\nRun 'neffscope COMMAND -h' for a command's options and what its exit status means.")
	fmt.Fprintln(w, "\nEvery command's "+exitHelp+".")
}
