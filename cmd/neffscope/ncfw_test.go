package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/neffscope/neffscope/core/doc"
	"github.com/neffscope/neffscope/core/ncfw"
)

func writeTemp(t *testing.T, name string, b []byte) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestNcfwEmit(t *testing.T) {
	ctx := ncfw.SampleContext(5, ncfw.SamplePatterned)
	p := writeTemp(t, "ctx.bin", ctx)
	var out, errb bytes.Buffer
	if rc := run([]string{"ncfw", "--arch", "5", "--model", "resnet", p}, &out, &errb); rc != 0 {
		t.Fatalf("rc %d: %s", rc, errb.String())
	}
	want, _ := ncfw.Emit(ctx, "resnet", 5)
	if !bytes.Equal(out.Bytes(), want) {
		t.Fatal("stdout is not the emulator's text")
	}

	out.Reset()
	if rc := run([]string{"ncfw", "--fields", "--arch", "12", p}, &out, &errb); rc != 0 {
		t.Fatalf("--fields rc %d", rc)
	}
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	res := ncfw.EmitMapped(ctx, "", 12)
	if len(lines) != len(res.Fields) {
		t.Fatalf("%d field lines, %d fields", len(lines), len(res.Fields))
	}
	a, _ := ncfw.ArchByID(12)
	wantLine := "ncfw_ctx_top_sp/configs/neff/barrier_configs/execute_device_barrier\tctx+0x" +
		strconv.FormatInt(a.CfgNeff+0x898+0x124, 16) + "\tbits 0..0\tline "
	if !strings.Contains(out.String(), wantLine) {
		t.Fatalf("no line starting %q", wantLine)
	}
}

func TestNcfwReturnCodes(t *testing.T) {
	p := writeTemp(t, "ctx.bin", make([]byte, 0x32C8))
	var out, errb bytes.Buffer
	if rc := run([]string{"ncfw", "--arch", "36", p}, &out, &errb); rc != 22 || out.Len() != 0 {
		t.Fatalf("arch 36: rc %d, %d bytes out", rc, out.Len())
	}
	out.Reset()
	model := strings.Repeat("x", 1<<20)
	if rc := run([]string{"ncfw", "--arch", "5", "--model", model, p}, &out, &errb); rc != 28 || out.Len() != 0xFFFFF {
		t.Fatalf("overflow: rc %d, %d bytes out", rc, out.Len())
	}
	errb.Reset()
	if rc := run([]string{"ncfw", p}, &out, &errb); rc != 2 || !strings.Contains(errb.String(), "5 (sunda)") {
		t.Fatalf("no --arch: rc %d, %s", rc, errb.String())
	}
	if rc := run([]string{"ncfw", "--arch", "5", "/no/such/file"}, &out, &errb); rc != 2 {
		t.Fatalf("missing file: rc %d", rc)
	}
	if rc := run([]string{"ncfw", "-h"}, &out, &errb); rc != 0 {
		t.Fatalf("-h: rc %d", rc)
	}
}

func TestNcfwRead(t *testing.T) {
	text, _ := ncfw.Emit(ncfw.SampleContext(12, ncfw.SamplePatterned), "bert", 12)
	p := writeTemp(t, "dump.txt", text)
	for _, args := range [][]string{{"ncfw", "--read", p}, {"ncfw", p}} {
		var out, errb bytes.Buffer
		if rc := run(args, &out, &errb); rc != 0 {
			t.Fatalf("%v: rc %d %s", args, rc, errb.String())
		}
		var root doc.Node
		if err := json.Unmarshal(out.Bytes(), &root); err != nil {
			t.Fatal(err)
		}
		n := root.Find("ncfw_ctx_top_sp", "configs", "neff", "barrier_configs", "execute_device_barrier")
		if n == nil || n.Value != "0x1" || n.Span == nil || !strings.Contains(n.Detail, "ctx+0x") {
			t.Fatalf("%v: node %+v", args, n)
		}
		if m := root.Find("model_name"); m == nil || m.Value != `"bert"` {
			t.Fatalf("model node %+v", m)
		}
		if !strings.Contains(errb.String(), "arch read off the text (108 mesh events)") {
			t.Fatalf("stderr %s", errb.String())
		}
	}
}
