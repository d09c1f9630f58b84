package ncfw

import (
	"bytes"
	"hash/fnv"
	"strings"
	"testing"
)

// fuzzFamilies are the names EmitFamily accepts, in Families order.
var fuzzFamilies = func() (names []string) {
	for _, f := range Families() {
		names = append(names, f.Name)
	}
	return
}()

// FuzzEmit: any context, model and arch gives rc 0, 22 or 28 with the buffer invariants of
// spec §1, a field map inside the text, and (when not cut) text that keeps the §3 rules.
//
// A whole context prints 157 KB to 1 MiB whatever its bytes, milliseconds a call under the
// fuzzer's instrumentation, so most execs print less, cut at a limit the input picks (64 B to
// 64 KiB: the emitter stops once the buffer is full, so the cost follows the limit):
//   - pick % 41 < 37: one family over the fuzzer's bytes as its struct (the same emitter code:
//     objects, arrays, counts, scalars, hex, closes, the cut), reaching families that sit far
//     into the whole text;
//   - otherwise the whole context stretched from seed, cut at the limit; one such input in 8
//     prints it whole (limit MaxText, the library's buffer), and one in 64 also checks
//     EmitMapped against Emit, the text rules and the round trip through Read.
//
// The one-in-8 and one-in-64 choices hash the whole input, so a mutation does not inherit them
// from its parent: chosen by the seed's length, they filled the corpus with inputs that took
// the costly path, and the rate fell from 2,800 to 200 execs/s within 20 s.
func FuzzEmit(f *testing.F) {
	for opts := range 255 { // a whole, deep seed, so the round trip is covered from the start
		if h := fuzzHash([]byte{0}, "m", uint8(opts)); h%64 == 0 {
			f.Add([]byte{0}, "m", uint32(12), uint8(40), uint8(opts))
			break
		}
	}
	f.Add([]byte{0}, "m", uint32(5), uint8(37), uint8(0))
	f.Add([]byte{3, 0xFF, 0, 1}, "model", uint32(12), uint8(38), uint8(1))
	f.Add([]byte{0xFF}, strings.Repeat("x", 2000), uint32(28), uint8(39), uint8(0))
	f.Add([]byte{1, 2, 3}, "m", uint32(36), uint8(40), uint8(0))
	f.Add(SampleContext(5, SamplePatterned)[:64], "p", uint32(20), uint8(37), uint8(32))
	for i := range fuzzFamilies { // every family once, over zeros and over a pattern
		f.Add(make([]byte, 64), "k", uint32(12), uint8(i), uint8(i))
		f.Add(SampleContext(12, SamplePatterned)[i*97:i*97+256], "", uint32(5), uint8(i), uint8(0xF0|i))
	}
	f.Fuzz(func(t *testing.T, seed []byte, model string, arch uint32, pick, opts uint8) {
		// Long models only repeat one code path (the 1 MiB cut has its own tests).
		if len(model) > 4096 {
			model = model[:4096]
		}
		h := fuzzHash(seed, model, opts)
		limit := 64 << (opts & 7) // 64 B .. 8 KiB: the cut at every point
		if opts&8 != 0 {
			limit = 64 << 10
		}
		var res *Result
		if whole := int(pick)%(len(fuzzFamilies)+4) >= len(fuzzFamilies); whole {
			var ctx []byte
			if a, ok := ArchByID(arch); ok && len(seed) > 0 {
				ctx = bytes.Repeat(seed, int(a.Padded)/len(seed)+1)[:a.Padded]
			} else {
				ctx = seed
			}
			if h%8 != 0 {
				res = emitPrefix(defaultSchema, ctx, model, arch, opts&16 != 0, false, limit)
			} else {
				limit = MaxText
				text, rc := Emit(ctx, model, arch)
				res = &Result{Text: text, RC: rc}
				if h%64 == 0 {
					res = EmitMapped(ctx, model, arch)
					if res.RC != rc || !bytes.Equal(res.Text, text) {
						t.Fatalf("EmitMapped (rc %d, %d bytes) differs from Emit (rc %d, %d bytes)", res.RC, len(res.Text), rc, len(text))
					}
					defer func() {
						if res.RC == RCOK && !strings.ContainsAny(model, "\n\x00\"\\") {
							if bad := checkTextRules(res.Text, false); len(bad) > 0 {
								t.Fatalf("text rules:\n%s", strings.Join(bad, "\n"))
							}
							if d := Read(res.Text, arch); d.Deviation != -1 {
								t.Fatalf("round trip deviates at %d: %+v", d.Deviation, d.Findings)
							}
						}
					}()
				}
			}
		} else {
			key, _, _ := strings.Cut(model, "\x00")
			opt := FamilyOptions{Key: key[:min(len(key), 64)], Indent: int(opts >> 4), Last: opts&16 != 0, Trail: opts&32 != 0,
				Count: int(opts >> 6), Index: int(opts)}
			res = emitFamily(fuzzFamilies[int(pick)%len(fuzzFamilies)], seed, arch, opt, limit)
			if _, ok := ArchByID(arch); ok && seed != nil && res.RC == RCInvalid {
				t.Fatalf("rc 22 for a known family and arch")
			}
		}
		switch res.RC {
		case RCInvalid:
			if res.Text != nil {
				t.Fatal("rc 22 with text")
			}
			return
		case RCOK:
			if len(res.Text) > limit {
				t.Fatalf("%d bytes with rc 0 (limit %d)", len(res.Text), limit)
			}
		case RCBufferFull:
			if len(res.Text) != limit {
				t.Fatalf("%d bytes with rc 28 (limit %d)", len(res.Text), limit)
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
			if f.Path == "" || (f.Source == "field" && (f.Offset < 0 || f.Width <= 0)) {
				t.Fatalf("field %+v", f)
			}
			prev = f.TextEnd
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

// fuzzHash picks FuzzEmit's costly paths by the whole input (FNV-1a).
func fuzzHash(seed []byte, model string, opts uint8) uint32 {
	h := fnv.New32a()
	h.Write(seed)
	h.Write([]byte(model))
	h.Write([]byte{opts})
	return h.Sum32()
}
