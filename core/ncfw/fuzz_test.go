package ncfw

import (
	"bytes"
	"strings"
	"testing"
)

// FuzzEmit: any context, model and arch gives rc 0, 22 or 28 with the buffer invariants of
// spec §1, a field map inside the text, and (when not cut) text that keeps the §3 rules.
// The fuzzer's context is stretched to the arch's size by repeating it, so counts vary.
func FuzzEmit(f *testing.F) {
	f.Add([]byte{0}, "m", uint32(5))
	f.Add([]byte{3, 0xFF, 0, 1}, "model", uint32(12))
	f.Add([]byte{0xFF}, strings.Repeat("x", 2000), uint32(28))
	f.Add([]byte{1, 2, 3}, "m", uint32(36))
	f.Add(SampleContext(5, SamplePatterned)[:64], "p", uint32(20))
	f.Fuzz(func(t *testing.T, seed []byte, model string, arch uint32) {
		// Long models only repeat one code path (the 1 MiB cut has its own tests); bounding
		// them keeps each exec to one ~20 KB Emit, so the fuzzer runs thousands per second.
		if len(model) > 4096 {
			model = model[:4096]
		}
		var ctx []byte
		if a, ok := ArchByID(arch); ok && len(seed) > 0 {
			ctx = bytes.Repeat(seed, int(a.Padded)/len(seed)+1)[:a.Padded]
		} else {
			ctx = seed
		}
		// Emit alone is ~30× cheaper than EmitMapped (the field map); the map, the text rules
		// and the round trip run on one input in 8 so the fuzzer keeps exploring.
		deep := len(seed)%8 == 1
		text, rc := Emit(ctx, model, arch)
		res := &Result{Text: text, RC: rc}
		if deep {
			res = EmitMapped(ctx, model, arch)
			if res.RC != rc || !bytes.Equal(res.Text, text) {
				t.Fatalf("EmitMapped (rc %d, %d bytes) differs from Emit (rc %d, %d bytes)", res.RC, len(res.Text), rc, len(text))
			}
		}
		switch res.RC {
		case RCInvalid:
			if res.Text != nil {
				t.Fatal("rc 22 with text")
			}
			return
		case RCOK:
			if len(res.Text) > MaxText {
				t.Fatalf("%d bytes with rc 0", len(res.Text))
			}
		case RCBufferFull:
			if len(res.Text) != MaxText {
				t.Fatalf("%d bytes with rc 28", len(res.Text))
			}
		default:
			t.Fatalf("rc %d", res.RC)
		}
		if bytes.IndexByte(res.Text, 0) >= 0 {
			t.Fatal("a NUL inside the text")
		}
		prev := int64(0)
		for _, f := range res.Fields {
			if f.TextStart < prev || f.TextEnd < f.TextStart || f.TextEnd > int64(len(res.Text)) {
				t.Fatalf("field %s text %d..%d", f.Path, f.TextStart, f.TextEnd)
			}
			prev = f.TextEnd
		}
		if res.RC == RCOK && deep && !strings.ContainsAny(model, "\n\x00\"\\") {
			if bad := checkTextRules(res.Text, false); len(bad) > 0 {
				t.Fatalf("text rules:\n%s", strings.Join(bad, "\n"))
			}
			if d := Read(res.Text, arch); d.Deviation != -1 {
				t.Fatalf("round trip deviates at %d: %+v", d.Deviation, d.Findings)
			}
		}
	})
}

// FuzzRead: any input gives a Dump with a tree, a bounded rebuilt context and spans inside
// the input, never a panic.
func FuzzRead(f *testing.F) {
	zero, _ := Emit(SampleContext(5, SampleZero), "m", 5)
	pat, _ := Emit(SampleContext(12, SamplePatterned), "m", 12)
	f.Add(zero[:3000], uint32(0))
	f.Add(pat[:5000], uint32(12))
	f.Add(pat[len(pat)-3000:], uint32(5))
	f.Add([]byte(`{"ncfw_ctx_top_sp": {"configs": {"algo": {"ring": {"channels": [{"next_neigh": {"fold_n": 255, "type": (nil), "net_idx_addrs": ["0x1", 0x2]}}]}}}}}`), uint32(5))
	f.Add([]byte("{\n  \"model_name\": \"\x00"), uint32(0))
	f.Add([]byte(`[[[[[[[[[[{"a":`), uint32(28))
	f.Fuzz(func(t *testing.T, in []byte, arch uint32) {
		d := Read(in, arch)
		if d.Tree == nil {
			t.Fatal("no tree")
		}
		if len(d.Context) > maxRebuilt || len(d.Context) != len(d.Known) {
			t.Fatalf("rebuilt context %d bytes", len(d.Context))
		}
		if d.Start < 0 || d.End > int64(len(in)) || d.Start > d.End {
			t.Fatalf("dump bounds %d..%d of %d", d.Start, d.End, len(in))
		}
		for _, f := range d.Fields {
			if f.TextStart < d.Start || f.TextEnd > d.End {
				t.Fatalf("field %s at %d..%d outside the dump", f.Path, f.TextStart, f.TextEnd)
			}
		}
		_ = Sniff(in)
	})
}
