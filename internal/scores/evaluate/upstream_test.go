package evaluate_test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/bfcl-go/bfcl/internal/benchmark/category"
	"github.com/bfcl-go/bfcl/internal/benchmark/dataset"
	"github.com/bfcl-go/bfcl/internal/models/decode"
	"github.com/bfcl-go/bfcl/internal/models/registry"
	"github.com/bfcl-go/bfcl/internal/models/upstream"
	"github.com/bfcl-go/bfcl/internal/scores/evaluate"
	"github.com/bfcl-go/bfcl/internal/scores/report"
	"github.com/bfcl-go/bfcl/internal/store/results"
	"github.com/bfcl-go/bfcl/internal/testkit/testenv"
)

var _ = Describe("the configuration of a result folder", func() {
	It("is the upstream registry entry the folder is named after", func() {
		c, err := evaluate.Options{}.ConfigurationOf("Qwen_Qwen3-8B-FC")
		Expect(err).NotTo(HaveOccurred())
		Expect(c).To(Equal(evaluate.Configuration{Spec: decode.Spec{Mode: "fc", Handler: "QwenFCHandler"}, Source: "upstream registry entry Qwen/Qwen3-8B-FC"}))
		c, err = evaluate.Options{}.ConfigurationOf("gpt-4o-2024-11-20")
		Expect(err).NotTo(HaveOccurred())
		Expect(c.Mode).To(Equal("prompt"))
		Expect(c.Handler).To(Equal("OpenAIResponsesHandler"))
	})

	It("keeps the registry's mistakes (qwen3-235b-a22b-instruct-2507-FC has no underscore_to_dot upstream)", func() {
		c, err := evaluate.Options{}.ConfigurationOf("qwen3-235b-a22b-instruct-2507-FC")
		Expect(err).NotTo(HaveOccurred())
		Expect(c.UnderscoreToDot).To(BeFalse())
	})

	It("is refused for a folder nobody knows, naming it and the ways to tie it (issue 26)", func() {
		_, err := evaluate.Options{ResultRoot: "result"}.ConfigurationOf("my-model")
		Expect(err).To(MatchError(And(ContainSubstring("result folder result/my-model: unknown origin"),
			ContainSubstring("--alias my-model=<registry name>"), ContainSubstring("--handler"), ContainSubstring("models.yaml entry named \"my-model\""))))
	})

	It("is the command line's for a folder nobody knows when --mode or --handler is given", func() {
		c, err := evaluate.Options{Mode: "prompt"}.ConfigurationOf("my-model")
		Expect(err).NotTo(HaveOccurred())
		Expect(c).To(Equal(evaluate.Configuration{Spec: decode.Spec{Mode: "prompt"}, Source: "the command line"}))
	})

	It("comes from models.yaml first: its handler key, or the upstream entry its upstream key names", func() {
		reg, err := registry.Parse([]byte(`models:
  - name: org/local-qwen
    provider: replay
    replay_dir: somewhere
    handler: QwenFCHandler
  - name: openai/gpt-oss-120b
    provider: replay
    replay_dir: somewhere
    upstream: openbmb/MiniCPM-SALA-FC
  - name: Qwen/Qwen3-8B-FC
    provider: replay
    replay_dir: somewhere
    mode: prompt
`))
		Expect(err).NotTo(HaveOccurred())
		o := evaluate.Options{Registry: reg}
		c, err := o.ConfigurationOf("org_local-qwen")
		Expect(err).NotTo(HaveOccurred())
		Expect(c).To(Equal(evaluate.Configuration{Spec: decode.Spec{Mode: "fc", Handler: "QwenFCHandler"}, Source: "models.yaml entry org/local-qwen"}))
		c, err = o.ConfigurationOf("openai_gpt-oss-120b")
		Expect(err).NotTo(HaveOccurred())
		Expect(c).To(Equal(evaluate.Configuration{Spec: decode.Spec{Mode: "fc", UnderscoreToDot: true, Handler: "OpenAICompletionsHandler"}, Source: "models.yaml entry openai/gpt-oss-120b (upstream registry entry openbmb/MiniCPM-SALA-FC)"}))
		c, err = o.ConfigurationOf("Qwen_Qwen3-8B-FC")
		Expect(err).NotTo(HaveOccurred())
		Expect(c.Mode).To(Equal("prompt"))
		Expect(c.Handler).To(BeEmpty())
	})

	It("rejects unknown handler and upstream keys in models.yaml", func() {
		_, err := registry.Parse([]byte("models:\n  - name: x\n    provider: gold\n    handler: NoSuchHandler\n"))
		Expect(err).To(MatchError(ContainSubstring(`unknown upstream handler class "NoSuchHandler"`)))
		_, err = registry.Parse([]byte("models:\n  - name: x\n    provider: gold\n    upstream: no/such-model\n"))
		Expect(err).To(MatchError(ContainSubstring(`upstream "no/such-model" is not a model of upstream's registry`)))
		_, err = registry.Parse([]byte("models:\n  - name: x\n    provider: gold\n    mode: prompt\n    upstream: Qwen/Qwen3-8B-FC\n"))
		Expect(err).To(MatchError(ContainSubstring("mode prompt contradicts upstream entry Qwen/Qwen3-8B-FC (fc)")))
		reg, err := registry.Parse([]byte("models:\n  - name: x\n    provider: gold\n    upstream: Qwen/Qwen3-8B-FC\n"))
		Expect(err).NotTo(HaveOccurred())
		Expect(reg.Models[0].Handler).To(Equal("QwenFCHandler"), "the entry's keys are filled from upstream's registry")
	})

	It("lets --mode, --underscore-to-dot and --handler override", func() {
		t := true
		c, err := evaluate.Options{Mode: "prompt", UnderscoreToDot: &t, Handler: "GeminiHandler"}.ConfigurationOf("Qwen_Qwen3-8B-FC")
		Expect(err).NotTo(HaveOccurred())
		Expect(c).To(Equal(evaluate.Configuration{Spec: decode.Spec{Mode: "prompt", UnderscoreToDot: true, Handler: "GeminiHandler"}, Source: "upstream registry entry Qwen/Qwen3-8B-FC"}))
		_, err = evaluate.Options{Handler: "Nope"}.ConfigurationOf("x")
		Expect(err).To(MatchError(ContainSubstring(`unknown upstream handler class "Nope"`)))
	})

	It("refuses a model whose handler upstream's evaluator cannot construct", func() {
		_, err := evaluate.Options{}.ConfigurationOf("qwen3-4b-nothink-FC")
		Expect(err).To(MatchError(ContainSubstring("cannot construct")))
	})
})

// callsOf reads the calls of a ground truth: for each call its name and
// the first accepted value of each parameter ("" = omitted is skipped).
type gtCall struct {
	name string
	args map[string]json.RawMessage
}

func callsOf(answer json.RawMessage) []gtCall {
	var gt []map[string]map[string][]json.RawMessage
	Expect(json.Unmarshal(answer, &gt)).To(Succeed())
	var out []gtCall
	for _, c := range gt {
		for name, params := range c {
			args := map[string]json.RawMessage{}
			for p, vals := range params {
				if len(vals) == 0 || string(vals[0]) == `""` {
					continue
				}
				args[p] = vals[0]
			}
			out = append(out, gtCall{name, args})
		}
	}
	return out
}

func mustJSON(v any) string {
	b, err := json.Marshal(v)
	Expect(err).NotTo(HaveOccurred())
	return string(b)
}

// Each encoding writes the calls as one upstream handler family stores them.
var encodings = map[string]func([]gtCall) any{
	// FC with JSON-string arguments (the control, scored with --mode fc).
	"control": func(cs []gtCall) any {
		out := []map[string]string{}
		for _, c := range cs {
			out = append(out, map[string]string{c.name: mustJSON(c.args)})
		}
		return out
	},
	"Qwen_Qwen3-8B-FC": func(cs []gtCall) any {
		var blocks []string
		for _, c := range cs {
			blocks = append(blocks, "<tool_call>\n"+mustJSON(map[string]any{"name": c.name, "arguments": c.args})+"\n</tool_call>")
		}
		return strings.Join(blocks, "\n")
	},
	"Salesforce_xLAM-2-1b-fc-r": func(cs []gtCall) any { return mustJSON(nameArguments(cs)) },
	"MadeAgents_Hammer2.1-7b":   func(cs []gtCall) any { return "```\n" + mustJSON(nameArguments(cs)) + "\n```" },
	"tiiuae_Falcon3-7B-Instruct-FC": func(cs []gtCall) any {
		return "<tool_call>\n" + mustJSON(nameArguments(cs)) + "\n</tool_call>"
	},
	"katanemo_Arch-Agent-3B": func(cs []gtCall) any {
		out := []map[string]any{}
		for _, c := range cs {
			out = append(out, map[string]any{c.name: c.args})
		}
		return out
	},
}

func nameArguments(cs []gtCall) []map[string]any {
	out := []map[string]any{}
	for _, c := range cs {
		out = append(out, map[string]any{"name": c.name, "arguments": c.args})
	}
	return out
}

var _ = Describe("`bfcl evaluate` on folders named after upstream registry entries, without flags", Label("reference"), func() {
	It("decodes each handler family's stored answers as the same calls", func() {
		src := testenv.OpenDataSet(GinkgoT())
		cats := []category.Category{"simple_python", "parallel"}
		root, scoreRoot := GinkgoT().TempDir(), GinkgoT().TempDir()
		for _, c := range cats {
			entries, err := src.Load(c)
			Expect(err).NotTo(HaveOccurred())
			for folder, enc := range encodings {
				p := results.Path(root, folder, c)
				Expect(os.MkdirAll(filepath.Dir(p), 0o755)).To(Succeed())
				var b strings.Builder
				for _, e := range entries {
					b.WriteString(mustJSON(map[string]any{"id": e.ID, "result": enc(callsOf(e.Answer))}) + "\n")
				}
				Expect(os.WriteFile(p, []byte(b.String()), 0o644)).To(Succeed())
			}
			// A family's answers under a name nobody knows would decode with
			// the default decoders and fail: such a folder is refused.
			p := results.Path(root, "unknown-qwen", c)
			Expect(os.MkdirAll(filepath.Dir(p), 0o755)).To(Succeed())
			b, err := os.ReadFile(results.Path(root, "Qwen_Qwen3-8B-FC", c))
			Expect(err).NotTo(HaveOccurred())
			Expect(os.WriteFile(p, b, 0o644)).To(Succeed())
		}
		var folders []string
		for f := range encodings {
			if f != "control" {
				folders = append(folders, f)
			}
		}
		_, err := evaluate.Run(evaluate.Options{Source: src, ResultRoot: root, ScoreRoot: scoreRoot, Categories: cats,
			Models: folders})
		Expect(err).NotTo(HaveOccurred())
		_, err = evaluate.Run(evaluate.Options{Source: src, ResultRoot: root, ScoreRoot: scoreRoot, Categories: cats,
			Models: []string{"unknown-qwen"}})
		Expect(err).To(MatchError(ContainSubstring("unknown-qwen: unknown origin")))
		_, err = evaluate.Run(evaluate.Options{Source: src, ResultRoot: root, ScoreRoot: scoreRoot, Categories: cats,
			Models: []string{"unknown-qwen"}, Mode: "fc"})
		Expect(err).NotTo(HaveOccurred())
		rows, err := evaluate.Run(evaluate.Options{Source: src, ResultRoot: root, ScoreRoot: scoreRoot, Categories: cats,
			Models: []string{"control"}, Mode: "fc"})
		Expect(err).NotTo(HaveOccurred())
		// The leaderboard rows name a registry folder as upstream's leaderboard does.
		infos := map[string]report.ModelInfo{}
		for _, r := range rows {
			infos[r.Model.Name] = r.Model
		}
		Expect(infos["Qwen_Qwen3-8B-FC"].DisplayName).To(Equal("Qwen3-8B (FC)"))
		Expect(infos["Qwen_Qwen3-8B-FC"].Org).To(Equal("Qwen"))
		Expect(infos["Qwen_Qwen3-8B-FC"].URL).To(HavePrefix("https://"))
		for _, c := range cats {
			wantCorrect, wantTotal, wantFailed := scoreFile(filepath.Join(scoreRoot, "control", filepath.FromSlash(c.ScorePath())))
			Expect(wantCorrect).To(BeNumerically(">", wantTotal/2), "control %s", c)
			fmt.Fprintf(GinkgoWriter, "%s: control %d/%d correct; %d folders of other handler families agree entry by entry\n", c, wantCorrect, wantTotal, len(folders))
			for _, f := range folders {
				correct, total, failed := scoreFile(filepath.Join(scoreRoot, f, filepath.FromSlash(c.ScorePath())))
				Expect(total).To(Equal(wantTotal), "%s %s", f, c)
				Expect(correct).To(Equal(wantCorrect), "%s %s", f, c)
				Expect(slices.Sorted(maps.Keys(failed))).To(Equal(slices.Sorted(maps.Keys(wantFailed))), "%s %s", f, c)
			}
			correct, _, _ := scoreFile(filepath.Join(scoreRoot, "unknown-qwen", filepath.FromSlash(c.ScorePath())))
			Expect(correct).To(BeZero(), "tool-call answers under an unknown folder name, decoded with --mode fc's default decoders")
		}
	})
})

// toolCallSteps rewrites an FC multi-turn result (steps of {name: "<JSON
// arguments>"}) as QwenFCHandler stores the same answers: <tool_call>
// blocks of {"name", "arguments"}; arguments that are not JSON stay the
// string they were, text steps stay text.
func toolCallSteps(result json.RawMessage) any {
	var turns [][]json.RawMessage
	if json.Unmarshal(result, &turns) != nil {
		return result // not a list of turns: stored as it was
	}
	out := [][]any{}
	for _, t := range turns {
		steps := []any{}
		for _, st := range t {
			var calls []map[string]json.RawMessage
			if json.Unmarshal(st, &calls) != nil {
				steps = append(steps, st)
				continue
			}
			var blocks []string
			for _, c := range calls {
				for name, args := range c {
					var s string
					Expect(json.Unmarshal(args, &s)).To(Succeed())
					var a any = s
					var parsed json.RawMessage
					if json.Unmarshal([]byte(s), &parsed) == nil {
						a = parsed
					}
					blocks = append(blocks, "<tool_call>\n"+mustJSON(map[string]any{"name": name, "arguments": a})+"\n</tool_call>")
				}
			}
			steps = append(steps, strings.Join(blocks, "\n"))
		}
		out = append(out, steps)
	}
	return out
}

var _ = Describe("multi-turn answers stored the QwenFCHandler way", Label("reference"), func() {
	It("score as upstream scored the same answers stored the OpenAI FC way", func() {
		ref := testenv.NeedReferenceDir(GinkgoT(), "reference results")
		src := testenv.OpenDataSet(GinkgoT())
		run := "2025-11-12-harmony-fixes-2"
		root, scoreRoot := GinkgoT().TempDir(), GinkgoT().TempDir()
		const folder = "Qwen_Qwen3-8B-FC"
		var cats []category.Category
		for _, c := range category.MultiTurn() {
			in := results.Path(filepath.Join(ref, "results", "results", run, "result"), "openai_gpt-oss-120b", c)
			recs, err := results.Read(in)
			if os.IsNotExist(err) {
				continue
			}
			Expect(err).NotTo(HaveOccurred())
			var b strings.Builder
			for _, r := range recs {
				b.WriteString(mustJSON(map[string]any{"id": r.ID, "result": toolCallSteps(r.Result)}) + "\n")
			}
			p := results.Path(root, folder, c)
			Expect(os.MkdirAll(filepath.Dir(p), 0o755)).To(Succeed())
			Expect(os.WriteFile(p, []byte(b.String()), 0o644)).To(Succeed())
			cats = append(cats, c)
		}
		Expect(cats).NotTo(BeEmpty())
		_, err := evaluate.Run(evaluate.Options{Source: src, ResultRoot: root, ScoreRoot: scoreRoot, Categories: cats})
		Expect(err).NotTo(HaveOccurred())
		var tally verdictTally
		for _, c := range cats {
			tally.add(verdictsOf(filepath.Join(ref, "multi_turn_verdicts", run, "openai_gpt-oss-120b", "BFCL_v4_"+string(c)+"_verdicts.jsonl")),
				filepath.Join(scoreRoot, folder, filepath.FromSlash(c.ScorePath())))
		}
		tally.expect("multi-turn verdicts (QwenFCHandler storage)", 600)
	})
})

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

// verdictTally gathers, score file by score file, how our verdicts differ
// from upstream's.
type verdictTally struct {
	checked  int
	problems []string
}

// add compares the score file at scorePath with upstream's verdicts want
// (verdictsOf).
func (t *verdictTally) add(want map[string]string, scorePath string) {
	correct, total, failed := scoreFile(scorePath)
	ExpectWithOffset(1, correct+len(failed)).To(Equal(total), scorePath)
	t.problems = append(t.problems, diffVerdicts(want, failed, total)...)
	t.checked += total
}

// expect requires n verdicts compared (what names them in the log) and no
// difference.
func (t *verdictTally) expect(what string, n int) {
	fmt.Fprintf(GinkgoWriter, "%s compared: %d, differences: %d\n", what, t.checked, len(t.problems))
	ExpectWithOffset(1, t.checked).To(Equal(n), what)
	ExpectWithOffset(1, t.problems).To(BeEmpty(), strings.Join(t.problems, "\n"))
}

var _ = Describe("`bfcl evaluate` on upstream's result files", Label("reference"), Ordered, func() {
	var ref string
	var src *dataset.Source
	BeforeAll(func() {
		ref = testenv.NeedReferenceDir(GinkgoT(), "reference results")
		src = testenv.OpenDataSet(GinkgoT())
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
		var tally verdictTally
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
			tally.add(want, filepath.Join(scoreRoot, "openai_gpt-oss-120b", filepath.FromSlash(c.ScorePath())))
		}
		tally.expect("verdicts", 3641+600)
	})

	It("reproduces every agentic verdict of glyphh-ada-1.1 (memory and web search, FC)", func() {
		scoreRoot := GinkgoT().TempDir()
		cats := category.Agentic()
		_, err := evaluate.Run(evaluate.Options{Source: src, ResultRoot: filepath.Join(ref, "agentic", "results"),
			ScoreRoot: scoreRoot, Models: []string{"glyphh-ada-1.1"}, Categories: cats, Mode: "fc"})
		Expect(err).NotTo(HaveOccurred())
		var tally verdictTally
		for _, c := range cats {
			rel := "BFCL_v4_" + string(c) + "_verdicts.jsonl"
			if b, ok := c.MemoryBackend(); ok {
				rel = filepath.Join("memory", b, rel)
			}
			tally.add(verdictsOf(filepath.Join(ref, "agentic", "verdicts", rel)),
				filepath.Join(scoreRoot, "glyphh-ada-1.1", filepath.FromSlash(c.ScorePath())))
		}
		tally.expect("agentic verdicts", 665)
	})
})
