//go:build !(cgo && linux)

package bm25

func platformLog(x float64) float64 { return CorrectlyRoundedLog(x) }

// UsesLibm reports whether Log calls the C library (false in this build:
// no cgo, so Log is CorrectlyRoundedLog).
const UsesLibm = false
