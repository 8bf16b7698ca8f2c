//go:build cgo && linux

package bm25

// #cgo LDFLAGS: -lm
// #include <math.h>
import "C"

// platformLog calls the C library's log, as CPython's math.log does.
func platformLog(x float64) float64 { return float64(C.log(C.double(x))) }

// UsesLibm reports whether Log calls the C library (true in this build).
const UsesLibm = true
