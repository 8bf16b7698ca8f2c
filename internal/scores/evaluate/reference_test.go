package evaluate_test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/bfcl-go/bfcl/internal/benchmark/category"
	"github.com/bfcl-go/bfcl/internal/benchmark/dataset"
	"github.com/bfcl-go/bfcl/internal/models/decode"
	"github.com/bfcl-go/bfcl/internal/models/upstream"
	"github.com/bfcl-go/bfcl/internal/scores/evaluate"
	"github.com/bfcl-go/bfcl/internal/testkit/testenv"
)

// gptOSSAlias is the upstream registry entry the reference gpt-oss folder
// is scored as: an OpenAI-compatible FC model with underscore_to_dot, as
// the reference run was (vLLM's chat completions, OpenAICompletionsHandler).
const gptOSSAlias = "openbmb/MiniCPM-SALA-FC"

// verdictsOf reads a reference verdict file: id -> error type ("" = valid).
func verdictsOf(path string) map[string]string {
	f, err := os.Open(path)
	Expect(err).NotTo(HaveOccurred())
	defer f.Close()
	out := map[string]string{}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 1<<20), 64<<20)
	for sc.Scan() {
		var v struct {
			ID        string  `json:"id"`
			Valid     bool    `json:"valid"`
			ErrorType *string `json:"error_type"`
		}
		Expect(json.Unmarshal(sc.Bytes(), &v)).To(Succeed())
		out[v.ID] = ""
		if !v.Valid {
			out[v.ID] = "invalid"
			if v.ErrorType != nil {
				out[v.ID] = *v.ErrorType
			}
		}
	}
	return out
}

// scoreFile reads one of our score files: header and id -> error type of
// the failed entries.
func scoreFile(path string) (correct, total int, failed map[string]string) {
	f, err := os.Open(path)
	Expect(err).NotTo(HaveOccurred(), path)
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 1<<20), 256<<20)
	Expect(sc.Scan()).To(BeTrue())
	var h struct {
		Correct int `json:"correct_count"`
		Total   int `json:"total_count"`
	}
	Expect(json.Unmarshal(sc.Bytes(), &h)).To(Succeed())
	failed = map[string]string{}
	for sc.Scan() {
		var l struct {
			ID        string          `json:"id"`
			ErrorType string          `json:"error_type"`
			Error     json.RawMessage `json:"error"`
		}
		Expect(json.Unmarshal(sc.Bytes(), &l)).To(Succeed())
		t := l.ErrorType
		if t == "" {
			var nested struct {
				ErrorType string `json:"error_type"`
			}
			_ = json.Unmarshal(l.Error, &nested)
			t = nested.ErrorType
		}
		failed[l.ID] = t
	}
	return h.Correct, h.Total, failed
}

func diffVerdicts(want, got map[string]string, total int) []string {
	var d []string
	for id, w := range want {
		g, failed := got[id]
		switch {
		case w == "" && failed:
			d = append(d, fmt.Sprintf("%s: upstream valid, ours %s", id, g))
		case w != "" && !failed:
			d = append(d, fmt.Sprintf("%s: upstream %s, ours valid", id, w))
		case w != "" && w != "invalid" && w != g:
			d = append(d, fmt.Sprintf("%s: upstream %s, ours %s", id, w, g))
		}
	}
	if len(want) != total {
		d = append(d, fmt.Sprintf("scored %d entries, upstream %d", total, len(want)))
	}
	sort.Strings(d)
	return d
}

var _ = Describe("`bfcl evaluate` on upstream's result files", Label("reference"), Ordered, func() {
	var ref string
	var src *dataset.Source
	BeforeAll(func() {
		var ok bool
		ref, ok = testenv.ReferenceDir()
		if !ok {
			Skip(testenv.MissingMessage("reference results", ref, "BFCL_REFERENCE_DIR"))
		}
		dir, ok := testenv.DataDir()
		if !ok {
			Skip(testenv.MissingMessage("BFCL data set", dir, dataset.EnvDataDir))
		}
		var err error
		src, err = dataset.Open(dir)
		Expect(err).NotTo(HaveOccurred())
	})

	It("reproduces every single-turn and multi-turn verdict of gpt-oss-120b, flag-free: its folder aliased to an upstream registry entry (OpenAICompletionsHandler, FC, underscore_to_dot)", func() {
		run := "2025-11-12-harmony-fixes-2"
		scoreRoot := GinkgoT().TempDir()
		all, err := category.Expand("all_scoring")
		Expect(err).NotTo(HaveOccurred())
		aliases, err := upstream.ParseAliases("openai_gpt-oss-120b=" + gptOSSAlias)
		Expect(err).NotTo(HaveOccurred())
		o := evaluate.Options{Source: src, ResultRoot: filepath.Join(ref, "results", "results", run, "result"),
			ScoreRoot: scoreRoot, Models: []string{"openai_gpt-oss-120b"}, Categories: all, Aliases: aliases}
		cfg, err := o.ConfigurationOf("openai_gpt-oss-120b")
		Expect(err).NotTo(HaveOccurred())
		Expect(cfg).To(Equal(evaluate.Configuration{Spec: decode.Spec{Mode: "fc", UnderscoreToDot: true, Handler: "OpenAICompletionsHandler"}, Source: "alias to upstream registry entry " + gptOSSAlias}))
		rows, err := evaluate.Run(o)
		Expect(err).NotTo(HaveOccurred())
		Expect(rows).To(HaveLen(1))
		checked := 0
		var problems []string
		for _, c := range category.Scoring() {
			var want map[string]string
			switch {
			case c.IsMultiTurn():
				p := filepath.Join(ref, "multi_turn_verdicts", run, "openai_gpt-oss-120b", "BFCL_v4_"+string(c)+"_verdicts.jsonl")
				if _, err := os.Stat(p); err != nil {
					continue // long_context: no result file upstream either
				}
				want = verdictsOf(p)
			case c.IsAgentic():
				continue
			default:
				want = verdictsOf(filepath.Join(ref, "ast_verdicts", "results", run, "result", "openai_gpt-oss-120b", string(c.GeneralGroup()), "BFCL_v4_"+string(c)+"_verdicts.jsonl"))
			}
			correct, total, failed := scoreFile(filepath.Join(scoreRoot, "openai_gpt-oss-120b", filepath.FromSlash(c.ScorePath())))
			Expect(correct+len(failed)).To(Equal(total), string(c))
			problems = append(problems, diffVerdicts(want, failed, total)...)
			checked += total
		}
		fmt.Fprintf(GinkgoWriter, "verdicts compared: %d, differences: %d\n", checked, len(problems))
		Expect(checked).To(Equal(3641 + 600))
		Expect(problems).To(BeEmpty())
	})

	It("reproduces every agentic verdict of glyphh-ada-1.1 (memory and web search, FC)", func() {
		scoreRoot := GinkgoT().TempDir()
		cats := category.Agentic()
		_, err := evaluate.Run(evaluate.Options{Source: src, ResultRoot: filepath.Join(ref, "agentic", "results"),
			ScoreRoot: scoreRoot, Models: []string{"glyphh-ada-1.1"}, Categories: cats, Mode: "fc"})
		Expect(err).NotTo(HaveOccurred())
		checked := 0
		var problems []string
		for _, c := range cats {
			rel := "BFCL_v4_" + string(c) + "_verdicts.jsonl"
			if b, ok := c.MemoryBackend(); ok {
				rel = filepath.Join("memory", b, rel)
			}
			want := verdictsOf(filepath.Join(ref, "agentic", "verdicts", rel))
			correct, total, failed := scoreFile(filepath.Join(scoreRoot, "glyphh-ada-1.1", filepath.FromSlash(c.ScorePath())))
			Expect(correct + len(failed)).To(Equal(total))
			problems = append(problems, diffVerdicts(want, failed, total)...)
			checked += total
		}
		fmt.Fprintf(GinkgoWriter, "agentic verdicts compared: %d, differences: %d\n", checked, len(problems))
		Expect(checked).To(Equal(665))
		Expect(problems).To(BeEmpty(), strings.Join(problems, "\n"))
	})
})
