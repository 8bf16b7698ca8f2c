//go:build unix

package minilm_test

import "syscall"

// cpuSeconds is the process's user+system CPU time (benchmarks report
// texts per CPU-second too: the shared machines' wall clock is noisy).
func cpuSeconds() float64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e9
}
