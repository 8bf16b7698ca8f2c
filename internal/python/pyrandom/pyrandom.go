// Package pyrandom reproduces CPython's random.Random bit for bit: the
// MT19937 generator of Modules/_randommodule.c, its seeding from an int
// (random.seed(int) / random.Random(int)), and the pure-Python methods of
// Lib/random.py that BFCL's simulated backends use (randint, randrange,
// uniform, choice, shuffle, sample), as they behave in CPython 3.12.
//
// A *Rand is not safe for concurrent use; each backend instance owns one,
// as each upstream instance owns its random.Random.
package pyrandom

import (
	"crypto/sha512"
	"fmt"
	"math"
	"math/big"
	"math/bits"
	"sync"
	"sync/atomic"
)

// Mersenne Twister parameters (Matsumoto & Nishimura, MT19937).
const (
	mtN       = 624
	mtM       = 397
	matrixA   = 0x9908b0df
	upperMask = 0x80000000
	lowerMask = 0x7fffffff
)

// Rand is the state of one random.Random object.
type Rand struct {
	mt  [mtN]uint32
	mti int
}

// Error is a Python exception raised by a method of random.Random, with
// Python's exception type name and exact str(e) text.
type Error struct {
	Type string // "ValueError", "IndexError", ...
	Msg  string
}

func (e *Error) Error() string { return e.Type + ": " + e.Msg }

// New returns a generator seeded as random.Random(seed) with an int seed.
func New(seed int64) *Rand {
	r := &Rand{}
	r.Seed(seed)
	return r
}

// NewBig returns a generator seeded as random.Random(seed) for an int seed of
// any size.
func NewBig(seed *big.Int) *Rand {
	r := &Rand{}
	r.SeedBig(seed)
	return r
}

// Seed re-seeds the generator as random.seed(seed) does for an int.
// Seeding runs init_by_array over the whole state; the simulated backends
// seed every instance with one of a few constants, so the states of the
// first seeds met are kept (already twisted once, which is what the first
// draw would do) and copied.
func (r *Rand) Seed(seed int64) {
	if c, ok := seededStates.Load(seed); ok {
		*r = *c.(*Rand)
		return
	}
	r.seed(seed)
	if seededCount.Add(1) <= maxSeededStates {
		c := *r
		c.twist()
		seededStates.Store(seed, &c)
	}
}

// seededStates maps an int seed to the state Seed leaves (never modified
// once stored); at most maxSeededStates seeds are kept.
var (
	seededStates sync.Map
	seededCount  atomic.Int64
)

const maxSeededStates = 64

// seed is Seed without the cache.
func (r *Rand) seed(seed int64) {
	// abs(seed) split into 32-bit words, least significant first.
	u := uint64(seed)
	if seed < 0 {
		u = -u // two's complement negation gives |seed| also for MinInt64
	}
	if u>>32 == 0 {
		r.initByArray([]uint32{uint32(u)})
		return
	}
	r.initByArray([]uint32{uint32(u), uint32(u >> 32)})
}

// SeedBig re-seeds the generator as random.seed(seed) does for an int of any
// size.
func (r *Rand) SeedBig(seed *big.Int) {
	n := new(big.Int).Abs(seed)
	nbits := n.BitLen()
	if nbits == 0 {
		r.initByArray([]uint32{0})
		return
	}
	key := make([]uint32, (nbits-1)/32+1)
	mask := big.NewInt(0xffffffff)
	w := new(big.Int)
	for i := range key {
		w.Rsh(n, uint(32*i))
		w.And(w, mask)
		key[i] = uint32(w.Uint64())
	}
	r.initByArray(key)
}

// initGenrand fills the state from one 32-bit value.
func (r *Rand) initGenrand(s uint32) {
	r.mt[0] = s
	for i := 1; i < mtN; i++ {
		prev := r.mt[i-1]
		r.mt[i] = 1812433253*(prev^(prev>>30)) + uint32(i)
	}
	r.mti = mtN
}

// initByArray is MT19937's init_by_array, which CPython uses for every seed.
func (r *Rand) initByArray(key []uint32) {
	r.initGenrand(19650218)
	i, j := 1, 0
	k := mtN
	if len(key) > k {
		k = len(key)
	}
	for ; k > 0; k-- {
		prev := r.mt[i-1]
		r.mt[i] = (r.mt[i] ^ ((prev ^ (prev >> 30)) * 1664525)) + key[j] + uint32(j)
		i++
		j++
		if i >= mtN {
			r.mt[0] = r.mt[mtN-1]
			i = 1
		}
		if j >= len(key) {
			j = 0
		}
	}
	for k = mtN - 1; k > 0; k-- {
		prev := r.mt[i-1]
		r.mt[i] = (r.mt[i] ^ ((prev ^ (prev >> 30)) * 1566083941)) - uint32(i)
		i++
		if i >= mtN {
			r.mt[0] = r.mt[mtN-1]
			i = 1
		}
	}
	r.mt[0] = 0x80000000
	r.mti = mtN
}

// Uint32 returns the next 32-bit output of the generator (genrand_uint32).
func (r *Rand) Uint32() uint32 {
	if r.mti >= mtN {
		r.twist()
	}
	y := r.mt[r.mti]
	r.mti++
	y ^= y >> 11
	y ^= (y << 7) & 0x9d2c5680
	y ^= (y << 15) & 0xefc60000
	y ^= y >> 18
	return y
}

func (r *Rand) twist() {
	mag := func(y uint32) uint32 { return (y & 1) * matrixA }
	kk := 0
	for ; kk < mtN-mtM; kk++ {
		y := (r.mt[kk] & upperMask) | (r.mt[kk+1] & lowerMask)
		r.mt[kk] = r.mt[kk+mtM] ^ (y >> 1) ^ mag(y)
	}
	for ; kk < mtN-1; kk++ {
		y := (r.mt[kk] & upperMask) | (r.mt[kk+1] & lowerMask)
		r.mt[kk] = r.mt[kk+(mtM-mtN)] ^ (y >> 1) ^ mag(y)
	}
	y := (r.mt[mtN-1] & upperMask) | (r.mt[0] & lowerMask)
	r.mt[mtN-1] = r.mt[mtM-1] ^ (y >> 1) ^ mag(y)
	r.mti = 0
}

// Random is random.random(): a float in [0, 1) with 53 random bits.
func (r *Rand) Random() float64 {
	a := r.Uint32() >> 5
	b := r.Uint32() >> 6
	return (float64(a)*67108864.0 + float64(b)) * (1.0 / 9007199254740992.0)
}

// GetRandBits is random.getrandbits(k) for 0 <= k <= 64. It panics for k
// outside that range (use GetRandBitsBig for larger k).
func (r *Rand) GetRandBits(k int) uint64 {
	switch {
	case k < 0 || k > 64:
		panic(fmt.Sprintf("pyrandom: GetRandBits(%d): k must be in [0, 64]", k))
	case k == 0:
		return 0
	case k <= 32:
		return uint64(r.Uint32() >> (32 - k))
	}
	// Words are produced least significant first; the last one is truncated
	// to its top bits.
	lo := uint64(r.Uint32())
	hi := r.Uint32() >> (64 - k)
	return lo | uint64(hi)<<32
}

// GetRandBitsBig is random.getrandbits(k) for any k. A negative k is
// Python's ValueError.
func (r *Rand) GetRandBitsBig(k int) (*big.Int, error) {
	if k < 0 {
		return nil, &Error{"ValueError", "number of bits must be non-negative"}
	}
	if k <= 64 {
		return new(big.Int).SetUint64(r.GetRandBits(k)), nil
	}
	words := (k-1)/32 + 1
	buf := make([]byte, 4*words) // big-endian for big.Int.SetBytes
	for i := 0; i < words; i++ {
		w := r.Uint32()
		if k < 32 {
			w >>= 32 - k
		}
		k -= 32
		off := 4 * (words - 1 - i)
		buf[off] = byte(w >> 24)
		buf[off+1] = byte(w >> 16)
		buf[off+2] = byte(w >> 8)
		buf[off+3] = byte(w)
	}
	return new(big.Int).SetBytes(buf), nil
}

// RandBelow is random._randbelow(n) (the getrandbits rejection sampler):
// an int in [0, n). It panics if n <= 0, which Python leaves undefined.
func (r *Rand) RandBelow(n int) int {
	if n <= 0 {
		panic(fmt.Sprintf("pyrandom: RandBelow(%d): n must be positive", n))
	}
	k := bits.Len64(uint64(n))
	v := r.GetRandBits(k)
	for v >= uint64(n) {
		v = r.GetRandBits(k)
	}
	return int(v)
}

// RandBelowBig is random._randbelow(n) for an int of any size; n must be
// positive.
func (r *Rand) RandBelowBig(n *big.Int) *big.Int {
	if n.Sign() <= 0 {
		panic(fmt.Sprintf("pyrandom: RandBelowBig(%s): n must be positive", n))
	}
	if n.IsInt64() {
		return big.NewInt(int64(r.RandBelow(int(n.Int64()))))
	}
	k := n.BitLen()
	for {
		v, _ := r.GetRandBitsBig(k)
		if v.Cmp(n) < 0 {
			return v
		}
	}
}

// RandInt is random.randint(a, b): an int in [a, b]. It panics if b < a
// (Python's ValueError); use RandRange for a checked call.
func (r *Rand) RandInt(a, b int) int {
	if b == math.MaxInt {
		v, err := r.RandRangeBig(big.NewInt(int64(a)), new(big.Int).Add(big.NewInt(int64(b)), big.NewInt(1)), big.NewInt(1))
		if err != nil {
			panic("pyrandom: RandInt: " + err.Error())
		}
		return int(v.Int64())
	}
	v, err := r.RandRange(a, b+1, 1)
	if err != nil {
		panic("pyrandom: RandInt: " + err.Error())
	}
	return v
}

// RandRange is random.randrange(start, stop, step), with Python's ValueError
// texts (CPython 3.12) for empty ranges and a zero step. (The one-argument
// form randrange(stop) is RandRange(0, stop, 1) except for its error text;
// see RandRangeStop.)
func (r *Rand) RandRange(start, stop, step int) (int, error) {
	width, ok := subNoOverflow(stop, start)
	if step == 1 && ok {
		if width > 0 {
			return start + r.RandBelow(width), nil
		}
		return 0, &Error{"ValueError", fmt.Sprintf("empty range in randrange(%d, %d)", start, stop)}
	}
	v, err := r.RandRangeBig(big.NewInt(int64(start)), big.NewInt(int64(stop)), big.NewInt(int64(step)))
	if err != nil {
		return 0, err
	}
	return int(v.Int64()), nil
}

// RandRangeStop is random.randrange(stop).
func (r *Rand) RandRangeStop(stop int) (int, error) {
	if stop > 0 {
		return r.RandBelow(stop), nil
	}
	return 0, &Error{"ValueError", "empty range for randrange()"}
}

// RandRangeBig is random.randrange(start, stop, step) for ints of any size.
func (r *Rand) RandRangeBig(start, stop, step *big.Int) (*big.Int, error) {
	width := new(big.Int).Sub(stop, start)
	one := big.NewInt(1)
	if step.Cmp(one) == 0 {
		if width.Sign() > 0 {
			return new(big.Int).Add(start, r.RandBelowBig(width)), nil
		}
		return nil, &Error{"ValueError", fmt.Sprintf("empty range in randrange(%s, %s)", start, stop)}
	}
	n := new(big.Int)
	switch step.Sign() {
	case 1:
		n.Add(width, step)
		n.Sub(n, one)
	case -1:
		n.Add(width, step)
		n.Add(n, one)
	default:
		return nil, &Error{"ValueError", "zero step for randrange()"}
	}
	floorDiv(n, n, step)
	if n.Sign() <= 0 {
		return nil, &Error{"ValueError", fmt.Sprintf("empty range in randrange(%s, %s, %s)", start, stop, step)}
	}
	v := r.RandBelowBig(n)
	v.Mul(v, step)
	return v.Add(v, start), nil
}

// floorDiv sets z = x // y (Python floor division) and returns z.
func floorDiv(z, x, y *big.Int) *big.Int {
	m := new(big.Int)
	z.QuoRem(x, y, m)
	if m.Sign() != 0 && (m.Sign() < 0) != (y.Sign() < 0) {
		z.Sub(z, big.NewInt(1))
	}
	return z
}

func subNoOverflow(a, b int) (int, bool) {
	d := a - b
	// Overflow iff a and b have different signs and d's sign differs from a's.
	if (a >= 0) != (b >= 0) && (d >= 0) != (a >= 0) {
		return 0, false
	}
	return d, true
}

// Choice is random.choice(seq) for a sequence of length n: it returns the
// chosen index. It panics for an empty sequence; ChoiceChecked returns
// Python's IndexError instead.
func (r *Rand) Choice(n int) int {
	i, err := r.ChoiceChecked(n)
	if err != nil {
		panic("pyrandom: Choice: " + err.Error())
	}
	return i
}

// ChoiceChecked is random.choice(seq) for a sequence of length n: the chosen
// index, or Python's IndexError ("Cannot choose from an empty sequence").
func (r *Rand) ChoiceChecked(n int) (int, error) {
	if n <= 0 {
		return 0, &Error{"IndexError", "Cannot choose from an empty sequence"}
	}
	return r.RandBelow(n), nil
}

// Uniform is random.uniform(a, b) = a + (b-a) * random().
func (r *Rand) Uniform(a, b float64) float64 {
	return a + (b-a)*r.Random()
}

// Shuffle is random.shuffle(x) for a sequence of length n; swap(i, j)
// exchanges x[i] and x[j].
func (r *Rand) Shuffle(n int, swap func(i, j int)) {
	for i := n - 1; i >= 1; i-- {
		j := r.RandBelow(i + 1)
		swap(i, j)
	}
}

// Sample is random.sample(population, k) for a population of length n (no
// counts): it returns the chosen indices into the population, in selection
// order, or Python's ValueError when k is negative or larger than n.
func (r *Rand) Sample(n, k int) ([]int, error) {
	if k < 0 || k > n {
		return nil, &Error{"ValueError", "Sample larger than population or is negative"}
	}
	result := make([]int, k)
	setsize := 21
	if k > 5 {
		// 4 ** ceil(log(k*3, 4)); math.log(x, base) is log(x)/log(base).
		setsize += int(math.Pow(4, math.Ceil(math.Log(float64(k*3))/math.Log(4))))
	}
	if n <= setsize {
		pool := make([]int, n)
		for i := range pool {
			pool[i] = i
		}
		for i := 0; i < k; i++ {
			j := r.RandBelow(n - i)
			result[i] = pool[j]
			pool[j] = pool[n-i-1]
		}
		return result, nil
	}
	selected := make(map[int]struct{}, k)
	for i := 0; i < k; i++ {
		j := r.RandBelow(n)
		for {
			if _, dup := selected[j]; !dup {
				break
			}
			j = r.RandBelow(n)
		}
		selected[j] = struct{}{}
		result[i] = j
	}
	return result, nil
}

// NewString returns a generator seeded as random.Random(seed) with a str
// seed (version 2 seeding: the UTF-8 bytes followed by their SHA-512 digest,
// read as one big-endian int).
func NewString(seed string) *Rand {
	b := []byte(seed)
	sum := sha512.Sum512(b)
	return NewBig(new(big.Int).SetBytes(append(b, sum[:]...)))
}
