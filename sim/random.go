package sim

import (
	"fmt"

	"github.com/bfcl-go/bfcl/internal/python/pyrandom"
	"github.com/bfcl-go/bfcl/internal/python/pyval"
)

// newRandom is Python's random.Random(seed) for the seed a scenario's
// initial configuration holds (an int in practice; no entry of the data set
// sets one, the classes' defaults are ints).
func newRandom(seed pyval.Value) (*pyrandom.Rand, error) {
	switch s := seed.(type) {
	case pyval.Int:
		return pyrandom.New(int64(s)), nil
	case pyval.Bool:
		if s {
			return pyrandom.New(1), nil
		}
		return pyrandom.New(0), nil
	case pyval.BigInt:
		return pyrandom.NewBig(s.V), nil
	case pyval.Str:
		return pyrandom.NewString(string(s)), nil
	case pyval.Float:
		return nil, fmt.Errorf("sim: a float random_seed (hashed by CPython) is not reproduced")
	}
	return nil, pyval.NewTypeError("The only supported seed types are: None,\nint, float, str, bytes, and bytearray.")
}
