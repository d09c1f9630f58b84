package ncfw

import (
	"strings"
	"testing"
)

// nearFullInput is the cayman context with every count at its maximum plus a model name that
// brings the text to 1,040,000 bytes (MaxText is 1,048,575).
func nearFullInput(b *testing.B) ([]byte, string) {
	ctx := SampleContext(12, SampleLarge)
	base, _ := Emit(ctx, "", 12)
	model := strings.Repeat("m", 1_040_000-len(base))
	text, rc := Emit(ctx, model, 12)
	if rc != RCOK || len(text) != 1_040_000 {
		b.Fatalf("rc %d, %d bytes", rc, len(text))
	}
	return ctx, model
}

// BenchmarkEmitNear1MiB is the goal: Emit for a text near 1 MiB in ≤ 20 ms native.
func BenchmarkEmitNear1MiB(b *testing.B) {
	ctx, model := nearFullInput(b)
	b.SetBytes(1_040_000)
	for b.Loop() {
		Emit(ctx, model, 12)
	}
}

// BenchmarkEmitLargeCounts prints the large context with a short model: ~938 KB of text that
// is all structure (≈20,000 values), the worst case for the tree walk itself.
func BenchmarkEmitLargeCounts(b *testing.B) {
	ctx := SampleContext(12, SampleLarge)
	text, _ := Emit(ctx, "m", 12)
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		Emit(ctx, "m", 12)
	}
}

func BenchmarkEmitMappedLargeCounts(b *testing.B) {
	ctx := SampleContext(12, SampleLarge)
	text, _ := Emit(ctx, "m", 12)
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		EmitMapped(ctx, "m", 12)
	}
}

func BenchmarkDocumentLargeCounts(b *testing.B) {
	ctx := SampleContext(12, SampleLarge)
	text, _ := Emit(ctx, "m", 12)
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		EmitTree(ctx, "m", 12)
	}
}

func BenchmarkReadLargeCounts(b *testing.B) {
	text, _ := Emit(SampleContext(12, SampleLarge), "m", 12)
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		Read(text, 12)
	}
}

// BenchmarkEmitZero and BenchmarkReadZero are the small end of the linearity check: their
// MB/s should match the large-count benchmarks (the original's strlen per fragment was O(n²)).
func BenchmarkEmitZero(b *testing.B) {
	ctx := SampleContext(12, SampleZero)
	text, _ := Emit(ctx, "m", 12)
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		Emit(ctx, "m", 12)
	}
}

func BenchmarkReadZero(b *testing.B) {
	text, _ := Emit(SampleContext(12, SampleZero), "m", 12)
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		Read(text, 12)
	}
}
