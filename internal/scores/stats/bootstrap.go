package stats

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"sort"
	"sync"
	"sync/atomic"
)

// Bootstrap defaults: 10,000 resamples and a fixed seed, so that the same
// outcomes give the same intervals on every run and machine.
const (
	DefaultResamples = 10000
	DefaultSeed      = 20251112
	// Method names the procedure in outputs.
	Method = "stratified bootstrap over entries (resampled within each category), percentile interval"
)

// Options of a bootstrap.
type Options struct {
	Resamples int    // 0: DefaultResamples
	Seed      uint64 // 0: DefaultSeed
	Workers   int    // goroutines; 0: GOMAXPROCS. The result does not depend on it.
}

func (o Options) resamples() int {
	if o.Resamples <= 0 {
		return DefaultResamples
	}
	return o.Resamples
}

// SeedOrDefault is the seed the bootstrap uses.
func (o Options) SeedOrDefault() uint64 {
	if o.Seed == 0 {
		return DefaultSeed
	}
	return o.Seed
}

// ResamplesOrDefault is the number of resamples the bootstrap draws.
func (o Options) ResamplesOrDefault() int { return o.resamples() }

// Stratum is one category's entries, described by their outcomes on one or
// more sides (models or runs scored on the same entries): Counts[i] entries
// have outcome pattern Patterns[i], where bit s is set when side s passed
// the entry. Entries with the same pattern are exchangeable, so a stratum
// of n entries is fully described by these counts; resampling draws n
// entries with replacement.
type Stratum struct {
	Patterns []uint64
	Counts   []int
}

// Binary is the stratum of one side with correct passing entries out of
// total.
func Binary(correct, total int) Stratum {
	return Stratum{Patterns: []uint64{1, 0}, Counts: []int{correct, total - correct}}
}

// Size is the number of entries of the stratum.
func (s Stratum) Size() int {
	n := 0
	for _, c := range s.Counts {
		n += c
	}
	return n
}

// Correct is the number of entries side passes.
func (s Stratum) Correct(side int) int {
	n := 0
	for i, p := range s.Patterns {
		if p>>uint(side)&1 == 1 {
			n += s.Counts[i]
		}
	}
	return n
}

// StatFunc maps the correct counts of one resample, correct[side][stratum],
// to the statistics of interest, written into out (len(out) statistics).
// It is called concurrently and must not keep correct or out.
type StatFunc func(correct [][]int, out []float64)

// Distribution is the bootstrap distribution of a vector of statistics.
type Distribution struct {
	// Samples[j][r] is statistic j in resample r.
	Samples   [][]float64
	Resamples int
	Seed      uint64
}

// Interval is the percentile interval of statistic j.
func (d *Distribution) Interval(j int, level float64) (lo, hi float64, err error) {
	if j < 0 || j >= len(d.Samples) {
		return 0, 0, fmt.Errorf("stats: no statistic %d", j)
	}
	return PercentileInterval(d.Samples[j], level)
}

// Bootstrap resamples the entries of every stratum with replacement
// (stratified: each stratum keeps its size), independently per stratum, and
// evaluates stat on the correct counts of each resample for sides sides
// (1..64). The same entries are drawn for every side, so differences between
// sides are paired. Resample r draws from its own generator, PCG seeded with
// (seed, r), so the result depends only on the inputs, the seed and the
// number of resamples, not on scheduling or the number of workers.
func Bootstrap(strata []Stratum, sides, nstats int, stat StatFunc, o Options) (*Distribution, error) {
	if sides < 1 || sides > 64 {
		return nil, fmt.Errorf("stats: bootstrap of %d sides (1..64)", sides)
	}
	if nstats < 1 {
		return nil, errors.New("stats: bootstrap of no statistic")
	}
	type table struct {
		cum      []int // cumulative counts
		patterns []uint64
		n        int
		cdf      []float64 // two patterns: see binomialCDF
		only     int       // index of the one pattern with entries, or -1
	}
	tables := make([]table, len(strata))
	for i, s := range strata {
		if len(s.Patterns) != len(s.Counts) {
			return nil, fmt.Errorf("stats: stratum %d: %d patterns but %d counts", i, len(s.Patterns), len(s.Counts))
		}
		t := table{patterns: s.Patterns, only: -1}
		for _, c := range s.Counts {
			if c < 0 {
				return nil, fmt.Errorf("stats: stratum %d: negative count %d", i, c)
			}
			t.n += c
			t.cum = append(t.cum, t.n)
		}
		nonzero := 0
		for j, c := range s.Counts {
			if c > 0 {
				nonzero++
				t.only = j
			}
		}
		if nonzero != 1 {
			t.only = -1
		}
		if len(s.Counts) == 2 && s.Counts[0] > 0 && s.Counts[1] > 0 {
			t.cdf = binomialCDF(t.n, s.Counts[0])
		}
		tables[i] = t
	}
	R := o.resamples()
	seed := o.SeedOrDefault()
	d := &Distribution{Samples: make([][]float64, nstats), Resamples: R, Seed: seed}
	for j := range d.Samples {
		d.Samples[j] = make([]float64, R)
	}
	workers := o.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	workers = min(workers, R)
	// Workers take resamples in blocks from one counter (a channel send
	// per resample cost more scheduling than some resamples themselves).
	var wg sync.WaitGroup
	var taken atomic.Int64
	const block = 64
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			correct := make([][]int, sides)
			for s := range correct {
				correct[s] = make([]int, len(strata))
			}
			out := make([]float64, nstats)
			pcg := rand.NewPCG(0, 0)
			rng := rand.New(pcg)
			resample := func(r int) {
				pcg.Seed(seed, uint64(r))
				for s := range correct {
					clear(correct[s])
				}
				for i, t := range tables {
					if t.only >= 0 {
						// Every entry has the same outcome: so has every resample.
						bits := t.patterns[t.only]
						for s := range correct {
							if bits>>uint(s)&1 == 1 {
								correct[s][i] += t.n
							}
						}
						continue
					}
					if t.cdf != nil {
						// Two patterns: the number of the n draws that hit
						// the first is Binomial(n, c0/n); drawn by inversion.
						u := rng.Float64()
						x := sort.Search(len(t.cdf), func(j int) bool { return t.cdf[j] > u })
						addHits(correct, i, t.patterns, []int{x, t.n - x})
						continue
					}
					resampleStratum(rng, t.cum, t.patterns, t.n, correct, i)
				}
				for j := range out {
					out[j] = 0
				}
				stat(correct, out)
				for j, v := range out {
					d.Samples[j][r] = v
				}
			}
			for {
				lo := int(taken.Add(block)) - block
				if lo >= R {
					return
				}
				for r := lo; r < min(lo+block, R); r++ {
					resample(r)
				}
			}
		}()
	}
	wg.Wait()
	return d, nil
}

// resampleStratum draws n entries of one stratum with replacement and adds
// each drawn entry's passes to correct[side][i].
func resampleStratum(rng *rand.Rand, cum []int, patterns []uint64, n int, correct [][]int, i int) {
	if n == 0 {
		return
	}
	// Tally draws per pattern first: a draw is an index into the entries,
	// ordered pattern by pattern.
	var small [8]int
	hits := small[:0]
	if len(cum) <= len(small) {
		hits = small[:len(cum)]
	} else {
		hits = make([]int, len(cum))
	}
	if len(cum) <= len(small) {
		for k := 0; k < n; k++ {
			x := rng.IntN(n)
			p := 0
			for cum[p] <= x {
				p++
			}
			hits[p]++
		}
	} else {
		for k := 0; k < n; k++ {
			hits[sort.SearchInts(cum, rng.IntN(n)+1)]++
		}
	}
	addHits(correct, i, patterns, hits)
}

// addHits adds hits[p] draws of pattern p to the passes of every side set in
// the pattern.
func addHits(correct [][]int, i int, patterns []uint64, hits []int) {
	for p, h := range hits {
		if h == 0 {
			continue
		}
		bits := patterns[p]
		for s := range correct {
			if bits>>uint(s)&1 == 1 {
				correct[s][i] += h
			}
		}
	}
}

// binomialCDF is the distribution function of Binomial(n, k/n), 0 < k < n:
// cdf[x] = P(X <= x) for x = 0..n, cdf[n] = 1. Drawing n entries with
// replacement from a stratum of two outcome patterns, k entries of the
// first, hits the first pattern X ~ Binomial(n, k/n) times, so inversion of
// this table (one uniform per stratum) samples the same distribution as n
// explicit draws, far faster. The probabilities come from log-gamma in
// float64 (relative error about 1e-12).
func binomialCDF(n, k int) []float64 {
	p := float64(k) / float64(n)
	lp, lq := math.Log(p), math.Log1p(-p)
	ln1, _ := math.Lgamma(float64(n + 1))
	logs := make([]float64, n+1)
	top := math.Inf(-1)
	for x := 0; x <= n; x++ {
		a, _ := math.Lgamma(float64(x + 1))
		b, _ := math.Lgamma(float64(n - x + 1))
		logs[x] = ln1 - a - b + float64(x)*lp + float64(n-x)*lq
		top = math.Max(top, logs[x])
	}
	cdf := make([]float64, n+1)
	sum := 0.0
	for x, l := range logs {
		sum += math.Exp(l - top)
		cdf[x] = sum
	}
	for x := range cdf {
		cdf[x] /= sum
	}
	cdf[n] = 1
	return cdf
}
