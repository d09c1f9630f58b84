//go:build !unix

package isa

// processCPUSeconds is unavailable here; the benchmark then reports wall-clock MB/s only.
func processCPUSeconds() float64 { return 0 }
