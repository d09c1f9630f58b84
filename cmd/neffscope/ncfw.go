package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"

	"github.com/neffscope/neffscope/core/ncfw"
)

func init() {
	commands["ncfw"] = command{
		summary: "run the libncfw ctx_log serializer on a raw CC context, or read one of its dumps",
		run:     runNcfw,
	}
}

// runNcfw: the exit code is libncfw's return code (0, 22, 28) when emulating, 0 after a
// read, 2 on trouble (bad usage, a file that cannot be read, an output not written).
func runNcfw(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("ncfw", flag.ContinueOnError)
	fs.SetOutput(stderr)
	arch := fs.Uint("arch", 0, "arch_id: 5 sunda, 12 cayman, 20 mariana, 28 mariana_plus (any other value returns 22, as libncfw does)")
	model := fs.String("model", "", "the model_name argument, printed raw")
	fields := fs.Bool("fields", false, "print the field map (path, struct offset, width, line, value) instead of the text")
	read := fs.Bool("read", false, "read FILE as a ctx_log dump and print its tree as JSON (--arch optional: inferred from the text)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: neffscope ncfw --arch N [--model NAME] [--fields] CONTEXT.bin")
		fmt.Fprintln(stderr, "       neffscope ncfw --read [--arch N] DUMP.txt")
		fmt.Fprintln(stderr, "\nWrites exactly the text libncfw_ctx_log would leave in its 1 MiB buffer and exits with its")
		fmt.Fprintln(stderr, "return code: 0, 22 (unknown arch: nothing written) or 28 (buffer full: text cut at 1048575 bytes);")
		fmt.Fprintln(stderr, "--read exits 0. Either exits 2 on trouble (bad usage, a FILE that cannot be read, an output not written).")
		fmt.Fprintln(stderr, "\noptions:")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return parseExit(err)
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return 2
	}
	path := fs.Arg(0)
	data, more, err := readBounded(path, maxNcfwInput)
	if err != nil {
		fmt.Fprintf(stderr, "neffscope ncfw: %v\n", err)
		return 2
	}
	if more {
		fmt.Fprintf(stderr, "neffscope ncfw: %s is larger than %d bytes; only its first %d bytes are read (a context is at most %d bytes, a libncfw dump at most 1 MiB)\n", safe(path), maxNcfwInput, maxNcfwInput, 0x44E6)
	}
	archSet := false
	fs.Visit(func(f *flag.Flag) { archSet = archSet || f.Name == "arch" })
	if *arch > 0xFFFFFFFF {
		*arch = 0 // does not fit arch_id's u32: as invalid as any unknown id
	}

	if *read || (!archSet && ncfw.Sniff(data)) {
		d := ncfw.Read(data, uint32(*arch))
		if *fields {
			stdout.Write(ncfw.FormatFields(data, d.Fields))
		} else {
			enc := json.NewEncoder(jsonStdout(stdout))
			enc.SetIndent("", "  ")
			if err := enc.Encode(d.Tree); err != nil {
				fmt.Fprintf(stderr, "neffscope ncfw: %v\n", err)
				return 2
			}
		}
		for _, f := range d.Findings {
			fmt.Fprintf(stderr, "%s: %s\n", f.Severity, f.Message)
		}
		return 0
	}
	if !archSet {
		fmt.Fprintf(stderr, "neffscope ncfw: --arch is required for a raw context (%d bytes).", len(data))
		if fit := ncfw.FittingArches(int64(len(data))); len(fit) > 0 {
			fmt.Fprint(stderr, " Its size fits:")
			for _, a := range fit {
				fmt.Fprintf(stderr, " %d (%s)", a.ID, a.Name)
			}
		} else {
			fmt.Fprint(stderr, " It is smaller than every arch's context; missing bytes would read as zero.")
		}
		fmt.Fprintln(stderr)
		return 2
	}
	res := ncfw.EmitMapped(data, *model, uint32(*arch))
	if res.RC == ncfw.RCInvalid {
		fmt.Fprintf(stderr, "neffscope ncfw: libncfw returns 22 for arch %d (accepted: 5, 12, 20, 28); nothing written\n", *arch)
		return res.RC
	}
	if *fields {
		stdout.Write(ncfw.FormatFields(res.Text, res.Fields))
	} else {
		stdout.Write(res.Text)
	}
	for _, f := range res.Findings {
		fmt.Fprintf(stderr, "%s: %s\n", f.Severity, f.Message)
	}
	return res.RC
}
