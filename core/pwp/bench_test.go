package pwp

import (
	"math/rand/v2"
	"testing"
)

var sinkY float32

func benchInputs() []float32 {
	r := rand.New(rand.NewPCG(3, 3))
	xs := make([]float32, 4096)
	for i := range xs {
		xs[i] = float32(-87 + 175.7*r.Float64())
	}
	return xs
}

func benchFn(b *testing.B, f *Function, o Options) {
	xs := benchInputs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		y, _ := f.EvaluateWith(xs[i&4095], o)
		sinkY += y
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds()/1e6, "Meval/s")
}

// BenchmarkEvaluateExp: the goal is ≥ 20 M evaluations/s of exp on one core.
func BenchmarkEvaluateExp(b *testing.B) {
	benchFn(b, realFn(b, "exp_and_others", "exp"), Options{})
}

func BenchmarkEvaluateExpHorner(b *testing.B) {
	benchFn(b, realFn(b, "exp_and_others", "exp"), Options{Mode: ModeHorner})
}

func BenchmarkEvaluateGeneratedExp(b *testing.B) {
	res := genSet(b, 32)
	benchFn(b, setFrom(res, res.Profile, res.Bkt, res.Ctrl).Function("exp"), Options{})
}

func BenchmarkDecodeRealSet(b *testing.B) {
	for i := 0; i < b.N; i++ {
		loadRealSet(b, "natural_log_exp_and_others")
	}
}

func BenchmarkSample4096(b *testing.B) {
	f := realFn(b, "exp_and_others", "exp")
	for i := 0; i < b.N; i++ {
		f.Sample(-10, 10, 4096, Options{})
	}
}
