// Package bm25 reproduces rank_bm25 0.2.2's BM25Plus (the scorer upstream's
// MemoryAPI_kv key search uses) with bit-identical scores:
//
//   - idf(w) = math.log((N + 1) / df(w)), with CPython's math.log, which is
//     glibc's correctly rounded log; Go's math.Log is off by one ulp for
//     about 8% of these arguments, so Log here is computed correctly rounded;
//   - score(d) = Σ_q idf(q) * (delta + tf*(k1+1) / (k1*(1 - b + b*|d|/avgdl) + tf)),
//     accumulated per query token in numpy's float64 order of operations
//     (no fused multiply-add);
//   - an empty corpus raises ZeroDivisionError("division by zero") when the
//     index is built (avgdl = 0 / 0), as upstream does;
//   - Rank orders like Python's sorted(zip(scores, docs), key=score,
//     reverse=True): descending, ties in corpus order.
package bm25

import (
	"errors"
	"sort"
)

// ErrEmptyCorpus is rank_bm25's failure on an empty corpus: Python raises
// ZeroDivisionError with this text while computing the average length.
var ErrEmptyCorpus = errors.New("division by zero")

// Default parameters of rank_bm25's BM25Plus.
const (
	DefaultK1    = 1.5
	DefaultB     = 0.75
	DefaultDelta = 1.0
)

// Plus is a BM25+ index over a tokenized corpus.
type Plus struct {
	K1, B, Delta float64

	docFreqs []map[string]int
	docLen   []int
	idf      map[string]float64
	avgdl    float64
}

// NewPlus indexes corpus (one token list per document) with the default
// parameters. An empty corpus is ErrEmptyCorpus.
func NewPlus(corpus [][]string) (*Plus, error) {
	return NewPlusParams(corpus, DefaultK1, DefaultB, DefaultDelta)
}

// NewPlusParams is NewPlus with explicit k1, b and delta.
func NewPlusParams(corpus [][]string, k1, b, delta float64) (*Plus, error) {
	p := &Plus{K1: k1, B: b, Delta: delta, idf: map[string]float64{}}
	nd := map[string]int{}
	total := 0
	for _, doc := range corpus {
		p.docLen = append(p.docLen, len(doc))
		total += len(doc)
		freq := map[string]int{}
		for _, w := range doc {
			freq[w]++
		}
		p.docFreqs = append(p.docFreqs, freq)
		for w := range freq {
			nd[w]++
		}
	}
	n := len(corpus)
	if n == 0 {
		return nil, ErrEmptyCorpus
	}
	p.avgdl = float64(total) / float64(n)
	for w, df := range nd {
		p.idf[w] = Log(float64(n+1) / float64(df))
	}
	return p, nil
}

// Len is the number of documents.
func (p *Plus) Len() int { return len(p.docLen) }

// AvgDL is the average document length.
func (p *Plus) AvgDL() float64 { return p.avgdl }

// IDF returns the idf of a token (0 when unknown, as rank_bm25's
// `self.idf.get(q) or 0`).
func (p *Plus) IDF(w string) float64 { return p.idf[w] }

// Scores is get_scores(query): one score per document, in corpus order.
func (p *Plus) Scores(query []string) []float64 {
	scores := make([]float64, len(p.docLen))
	k1p1 := p.K1 + 1
	oneMinusB := 1 - p.B
	for _, q := range query {
		idf := p.idf[q]
		for i, dl := range p.docLen {
			tf := float64(p.docFreqs[i][q])
			// numpy evaluates element-wise, each operation rounded:
			// b*dl, /avgdl, (1-b)+., k1*., +tf, tf*(k1+1), /, delta+., idf*., score+.
			norm := float64(oneMinusB + float64(float64(p.B*float64(dl))/p.avgdl))
			denom := float64(float64(p.K1*norm) + tf)
			term := float64(p.Delta + float64(float64(tf*k1p1)/denom))
			scores[i] = float64(scores[i] + float64(idf*term))
		}
	}
	return scores
}

// Ranked is one ranked document.
type Ranked struct {
	Score float64
	Index int // position in the corpus
}

// Rank orders documents by descending score; equal scores keep corpus
// order (Python's stable sort with reverse=True). NaN scores are placed as
// CPython's sort would not define; they do not occur for non-empty
// documents.
func Rank(scores []float64) []Ranked {
	out := make([]Ranked, len(scores))
	for i, s := range scores {
		out[i] = Ranked{Score: s, Index: i}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Score > out[j].Score })
	return out
}
