//go:build !unix

package minilm_test

func cpuSeconds() float64 { return 0 }
