package minilm_test

import (
	"context"
	"os"
	"sync"
	"testing"

	"github.com/bfcl-go/bfcl/internal/services/embed/minilm"
)

// benchTexts are BFCL-like memory entries and questions, 20 to 60 tokens
// each with the benchmark's vocabulary.
var benchTexts = []string{
	"I just moved to a new apartment in Seattle, and my landlord says the rent is due on the first of every month.",
	"Please remember that my daughter Emma has a peanut allergy and a piano recital next Friday at six in the evening.",
	"What did I tell you about my favorite coffee order? I think it was an oat milk latte with an extra shot of espresso.",
	"My manager asked me to prepare the quarterly revenue report for the finance team before the board meeting on Tuesday.",
	"I'm training for a half marathon in October, running four times a week and doing strength training on the other days.",
	"The customer said that their order number 48213 arrived damaged, so they want a replacement rather than a refund.",
	"Note for later: the patient reported mild headaches after starting the new blood pressure medication two weeks ago.",
	"Can you recall which university I graduated from and what I studied? I mentioned it when we talked about my career goals.",
	"I prefer aisle seats on flights longer than three hours, and I always book vegetarian meals when the airline offers them.",
	"My savings goal this year is twelve thousand dollars, and I have already put aside about four thousand in a high yield account.",
	"The study group meets every Wednesday in the library on the third floor; bring the chemistry notes from chapter seven.",
	"Remind me that the kitchen counter is 42 square feet and that I wanted granite instead of quartz for the renovation.",
	"My brother lives in Denver with his wife and two kids, and we usually visit them for Thanksgiving every other year.",
	"I told you my car needs an oil change soon; the dealership near my office on Main Street is open until seven on weekdays.",
	"Which programming languages did I say I was learning? I believe it was Python for data analysis and Go for backend services.",
	"For the notes app: the meeting with the design team was moved from Monday morning to Thursday afternoon at two thirty.",
	"Where do I live?",
	"What is my first name and how old is my dog?",
	"I've been keeping track of my expenses: groceries came to 380 dollars last month, utilities were 145, my phone bill was 60, and I spent about 220 on eating out with friends, which is more than I planned, so I want to cut that in half next month.",
	"Last semester I took organic chemistry, linear algebra, and an introduction to psychology; I got an A in psychology, a B plus in linear algebra, and a C in organic chemistry, so my advisor suggested a tutor for the second part of the chemistry sequence.",
	"The client from Boston, Ms. Alvarez, prefers email over phone calls, wants weekly status updates every Friday before noon, and asked us to send the signed contract, the project timeline, and the invoice for the first milestone by the end of this month.",
	"My doctor changed my prescription from 20 to 40 milligrams, told me to take it every morning with food, and scheduled a follow up appointment in six weeks to check my blood work and see whether the side effects have gone away.",
}

var (
	benchOnce  sync.Once
	benchModel *minilm.Model
	benchErr   error
)

// realShapeModel is a random BERT with all-MiniLM-L6-v2's architecture
// (hidden 384, 6 layers, 12 heads, intermediate 1536, 512 positions), made
// once per test binary.
func realShapeModel(b *testing.B) *minilm.Model {
	benchOnce.Do(func() {
		dir, err := os.MkdirTemp("", "minilm-bench")
		if err != nil {
			benchErr = err
			return
		}
		defer os.RemoveAll(dir)
		if _, err := writeRandomBERT(dir, bertSpec{
			Hidden: 384, Layers: 6, Heads: 12, Inter: 1536, MaxPos: 512, TypeVocab: 2,
			Vocab: wordsVocab(textWords(benchTexts...)...), Seed: 1, MaxSeqLength: 256,
		}); err != nil {
			benchErr = err
			return
		}
		benchModel, benchErr = minilm.Load(dir)
	})
	if benchErr != nil {
		b.Fatal(benchErr)
	}
	return benchModel
}

// reportRates reports texts per wall-clock second and per CPU-second of
// the process since cpu0.
func reportRates(b *testing.B, cpu0 float64) {
	n := float64(b.N * len(benchTexts))
	b.ReportMetric(n/b.Elapsed().Seconds(), "texts/s")
	if cpu := cpuSeconds() - cpu0; cpu > 0 {
		b.ReportMetric(n/cpu, "texts/cpu-s")
	}
}

func meanTokens(m *minilm.Model) float64 {
	n := 0
	for _, t := range benchTexts {
		n += len(m.Tokenizer.Encode(t))
	}
	return float64(n) / float64(len(benchTexts))
}

// BenchmarkEmbedBatch embeds the 16 texts in one call with an empty cache:
// texts run in parallel, GOMAXPROCS at once.
func BenchmarkEmbedBatch(b *testing.B) {
	m := realShapeModel(b)
	b.ResetTimer()
	cpu0 := cpuSeconds()
	for i := 0; i < b.N; i++ {
		if _, err := minilm.NewEmbedder(m).Embed(context.Background(), benchTexts); err != nil {
			b.Fatal(err)
		}
	}
	reportRates(b, cpu0)
	b.ReportMetric(meanTokens(m), "tokens/text")
}

// BenchmarkEmbedOneByOne embeds the texts one call each (as the vector
// memory adds entries): one text at a time, its matrix products on
// GOMAXPROCS goroutines.
func BenchmarkEmbedOneByOne(b *testing.B) {
	m := realShapeModel(b)
	b.ResetTimer()
	cpu0 := cpuSeconds()
	for i := 0; i < b.N; i++ {
		e := minilm.NewEmbedder(m)
		for _, t := range benchTexts {
			if _, err := e.Embed(context.Background(), []string{t}); err != nil {
				b.Fatal(err)
			}
		}
	}
	reportRates(b, cpu0)
}

// BenchmarkEmbedSingleCore is one goroutine doing everything (the per-core
// figure).
func BenchmarkEmbedSingleCore(b *testing.B) {
	m := realShapeModel(b)
	ids := make([][]int, len(benchTexts))
	for i, t := range benchTexts {
		ids[i] = m.Tokenizer.Encode(t)
	}
	b.ResetTimer()
	cpu0 := cpuSeconds()
	for i := 0; i < b.N; i++ {
		for _, x := range ids {
			if _, err := m.EmbedIDs(x, 1); err != nil {
				b.Fatal(err)
			}
		}
	}
	reportRates(b, cpu0)
}

// BenchmarkTokenize is the tokenizer alone, on the real vocabulary when the
// reference data is there.
func BenchmarkTokenize(b *testing.B) {
	m := realShapeModel(b)
	tok := m.Tokenizer
	if ref := os.Getenv("BFCL_REFERENCE_DIR"); ref != "" {
		if t, err := minilm.ReadTokenizerJSON(ref+"/embed/tokenizer.json", 256); err == nil {
			tok = t
		}
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, t := range benchTexts {
			tok.Encode(t)
		}
	}
	b.ReportMetric(float64(b.N*len(benchTexts))/b.Elapsed().Seconds(), "texts/s")
}
