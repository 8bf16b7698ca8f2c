package bm25_test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/bfcl-go/bfcl/internal/services/bm25"
)

type fixture struct {
	Corpus []string `json:"corpus"`
	Query  string   `json:"query"`
	K      int      `json:"k"`
	Scores []string `json:"scores"`
	Result string   `json:"result"`
}

func tokenize(s string) []string {
	return strings.Fields(strings.ToLower(strings.ReplaceAll(s, "_", " ")))
}

func readFixtures() []fixture {
	f, err := os.Open("testdata/bm25plus.jsonl")
	Expect(err).NotTo(HaveOccurred())
	defer f.Close()
	var out []fixture
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var c fixture
		Expect(json.Unmarshal(sc.Bytes(), &c)).To(Succeed())
		out = append(out, c)
	}
	Expect(out).NotTo(BeEmpty())
	return out
}

var _ = Describe("Log", func() {
	It("equals CPython's math.log on every idf argument of the fixture", func() {
		f, err := os.Open("testdata/pylog.txt")
		Expect(err).NotTo(HaveOccurred())
		defer f.Close()
		sc := bufio.NewScanner(f)
		checked, hard, crMismatch := 0, 0, 0
		for sc.Scan() {
			line := sc.Text()
			if strings.HasPrefix(line, "#") {
				continue
			}
			var n, df int
			var h string
			_, err := fmt.Sscan(line, &n, &df, &h)
			Expect(err).NotTo(HaveOccurred())
			want, err := strconv.ParseFloat(h, 64)
			Expect(err).NotTo(HaveOccurred())
			x := float64(n+1) / float64(df)
			if bm25.UsesLibm {
				Expect(bm25.Log(x)).To(Equal(want), "log(%d/%d)", n+1, df)
			}
			cr := bm25.CorrectlyRoundedLog(x)
			if cr != want {
				crMismatch++
				// glibc's rare misrounding: one ulp apart, never more
				Expect(math.Abs(cr-want)).To(BeNumerically("<=", math.Nextafter(want, math.Inf(1))-want), "log(%d/%d)", n+1, df)
			}
			if math.Log(x) != want {
				hard++
			}
			checked++
		}
		Expect(checked).To(BeNumerically(">", 1800))
		AddReportEntry("log", fmt.Sprintf("%d arguments; Go math.Log differs from CPython on %d; correctly rounded log on %d; libm used: %v", checked, hard, crMismatch, bm25.UsesLibm))
	})
})

var _ = Describe("BM25Plus", func() {
	It("fails on an empty corpus with Python's ZeroDivisionError text", func() {
		_, err := bm25.NewPlus(nil)
		Expect(err).To(MatchError("division by zero"))
	})

	It("reproduces rank_bm25's scores bit for bit and upstream's ranking", func() {
		for i, c := range readFixtures() {
			corpus := make([][]string, len(c.Corpus))
			for j, d := range c.Corpus {
				corpus[j] = tokenize(d)
			}
			p, err := bm25.NewPlus(corpus)
			Expect(err).NotTo(HaveOccurred())
			got := p.Scores(tokenize(c.Query))
			Expect(got).To(HaveLen(len(c.Scores)))
			for j, h := range c.Scores {
				want, _ := strconv.ParseFloat(h, 64)
				Expect(got[j]).To(Equal(want), "case %d doc %d (%q, query %q)", i, j, c.Corpus[j], c.Query)
			}
			var want struct {
				Ranked [][2]json.RawMessage `json:"ranked_results"`
			}
			Expect(json.Unmarshal([]byte(c.Result), &want)).To(Succeed())
			ranked := bm25.Rank(got)
			if len(ranked) > c.K {
				ranked = ranked[:c.K]
			}
			Expect(ranked).To(HaveLen(len(want.Ranked)))
			for j, r := range ranked {
				var doc string
				Expect(json.Unmarshal(want.Ranked[j][1], &doc)).To(Succeed())
				Expect(c.Corpus[r.Index]).To(Equal(doc), "case %d rank %d", i, j)
			}
		}
	})

	It("keeps corpus order among equal scores", func() {
		r := bm25.Rank([]float64{1, 2, 1, 2, 0})
		Expect([]int{r[0].Index, r[1].Index, r[2].Index, r[3].Index, r[4].Index}).To(Equal([]int{1, 3, 0, 2, 4}))
	})
})

func benchCorpus(n int) ([][]string, []string) {
	words := []string{"customer", "name", "age", "city", "order", "espresso", "machine", "warranty", "discount", "shipping", "date", "preferred"}
	corpus := make([][]string, n)
	for i := range corpus {
		corpus[i] = []string{words[i%len(words)], words[(i*7+3)%len(words)], words[(i*5+1)%len(words)]}
	}
	return corpus, []string{"customer", "shipping", "date"}
}

// BenchmarkKeySearch50 is one archival_memory_key_search over a full
// archival memory (50 keys): index build plus scoring.
func BenchmarkKeySearch50(b *testing.B) { benchKeySearch(b, 50) }

// BenchmarkKeySearch7 is one core_memory_key_search over a full core
// memory (7 keys).
func BenchmarkKeySearch7(b *testing.B) { benchKeySearch(b, 7) }

// benchKeySearch builds the index of an n-key memory and scores one query
// per iteration.
func benchKeySearch(b *testing.B, n int) {
	corpus, q := benchCorpus(n)
	b.ReportAllocs()
	for b.Loop() {
		p, err := bm25.NewPlus(corpus)
		if err != nil {
			b.Fatal(err)
		}
		bm25.Rank(p.Scores(q))
	}
}
