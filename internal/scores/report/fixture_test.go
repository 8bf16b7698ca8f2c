package report_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/bfcl-go/bfcl/internal/benchmark/category"
	"github.com/bfcl-go/bfcl/internal/check/verdict"
	"github.com/bfcl-go/bfcl/internal/scores/report"
	"github.com/bfcl-go/bfcl/internal/testkit/testenv"
)

// fixtureModel is one model of fixtures/report/input.json (hand-made
// verdicts and usage numbers; golden/ holds what upstream's own scoring code
// writes for them, see gen_golden.py).
type fixtureModel struct {
	Name        string   `json:"name"`
	DisplayName string   `json:"display_name"`
	URL         string   `json:"url"`
	Org         string   `json:"org"`
	License     string   `json:"license"`
	InputPrice  *float64 `json:"input_price"`
	OutputPrice *float64 `json:"output_price"`
	// category -> raw entries, in file order
	Categories orderedCategories `json:"categories"`
}

type orderedCategories struct {
	names   []string
	entries map[string][]json.RawMessage
}

func (o *orderedCategories) UnmarshalJSON(b []byte) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	if _, err := dec.Token(); err != nil {
		return err
	}
	o.entries = map[string][]json.RawMessage{}
	for dec.More() {
		k, err := dec.Token()
		if err != nil {
			return err
		}
		var list []json.RawMessage
		if err := dec.Decode(&list); err != nil {
			return err
		}
		o.names = append(o.names, k.(string))
		o.entries[k.(string)] = list
	}
	return nil
}

type fixtureEntry struct {
	ID        string              `json:"id"`
	Valid     bool                `json:"valid"`
	ErrorType string              `json:"error_type"`
	Error     json.RawMessage     `json:"error"`
	Detail    [][]json.RawMessage `json:"detail"`
}

func moduleRoot() string {
	root := testenv.ModuleRoot()
	Expect(root).NotTo(BeEmpty(), "module root (go.mod) not found")
	return root
}

func fixtureDir() string { return filepath.Join(moduleRoot(), "fixtures", "report") }

func loadFixture() []fixtureModel {
	raw, err := os.ReadFile(filepath.Join(fixtureDir(), "input.json"))
	Expect(err).NotTo(HaveOccurred())
	var in struct {
		Models []fixtureModel `json:"models"`
	}
	Expect(json.Unmarshal(raw, &in)).To(Succeed())
	Expect(in.Models).To(HaveLen(3))
	return in.Models
}

func toVerdict(cat string, raw json.RawMessage) verdict.Verdict {
	var e fixtureEntry
	Expect(json.Unmarshal(raw, &e)).To(Succeed())
	v := verdict.Verdict{ID: e.ID, Category: category.Category(cat), Valid: e.Valid, ErrorType: e.ErrorType}
	if len(e.Error) > 0 {
		var one string
		if json.Unmarshal(e.Error, &one) == nil {
			v.Errors = []string{one}
		} else {
			Expect(json.Unmarshal(e.Error, &v.Errors)).To(Succeed())
		}
	}
	for _, kv := range e.Detail {
		var key string
		Expect(json.Unmarshal(kv[0], &key)).To(Succeed())
		v.Detail = append(v.Detail, verdict.Field{Key: key, Value: kv[1]})
	}
	return v
}

func info(m fixtureModel) report.ModelInfo {
	return report.ModelInfo{Name: m.Name, DisplayName: m.DisplayName, URL: m.URL, Org: m.Org, License: m.License,
		InputPrice: m.InputPrice, OutputPrice: m.OutputPrice}
}

func listFiles(root string) []string {
	var out []string
	Expect(filepath.Walk(root, func(p string, fi os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		if !fi.IsDir() {
			rel, _ := filepath.Rel(root, p)
			out = append(out, filepath.ToSlash(rel))
		}
		return nil
	})).To(Succeed())
	sort.Strings(out)
	return out
}

var _ = Describe("hand-made fixtures against upstream's output (fixtures/report)", func() {
	var (
		models  []fixtureModel
		tmp     string
		rows    []report.Row
		golden  string
		written map[string]report.CategoryScore
	)
	BeforeEach(func() {
		models = loadFixture()
		golden = filepath.Join(fixtureDir(), "golden")
		tmp = GinkgoT().TempDir()
		rows = nil
		written = map[string]report.CategoryScore{}
		for _, m := range models {
			var scores []report.CategoryScore
			var usage report.Usage
			for _, name := range m.Categories.names {
				cat, err := category.Parse(name)
				Expect(err).NotTo(HaveOccurred())
				var vs []verdict.Verdict
				for _, raw := range m.Categories.entries[name] {
					vs = append(vs, toVerdict(name, raw))
					Expect(usage.AddResultLine(raw)).To(Succeed())
				}
				s, err := report.WriteScoreDirFile(tmp, m.Name, cat, vs)
				Expect(err).NotTo(HaveOccurred())
				scores = append(scores, s)
				written[m.Name+"/"+name] = s
			}
			r, err := report.Summarize(info(m), scores, usage)
			Expect(err).NotTo(HaveOccurred())
			rows = append(rows, r)
		}
		Expect(report.WriteScoreRoot(tmp, rows)).To(Succeed())
	})

	It("writes every score file and CSV byte for byte as upstream", func() {
		want := listFiles(golden)
		Expect(want).To(HaveLen(30))
		got := listFiles(tmp)
		Expect(got).To(ConsistOf(append(append([]string(nil), want...), "summary.json")))
		for _, f := range want {
			w, err := os.ReadFile(filepath.Join(golden, f))
			Expect(err).NotTo(HaveOccurred())
			g, err := os.ReadFile(filepath.Join(tmp, f))
			Expect(err).NotTo(HaveOccurred())
			Expect(strings.Split(string(g), "\n")).To(Equal(strings.Split(string(w), "\n")), f)
		}
	})

	It("reads score headers back like update_leaderboard_table_with_local_score_file", func() {
		back, err := report.ReadScoreDir(tmp)
		Expect(err).NotTo(HaveOccurred())
		Expect(back).To(HaveLen(3))
		var again []report.Row
		for i, m := range models {
			for _, s := range back[m.Name] {
				Expect(s).To(Equal(written[m.Name+"/"+string(s.Category)]))
			}
			Expect(back[m.Name]).To(HaveLen(len(m.Categories.names)))
			r, err := report.Summarize(info(m), back[m.Name], report.Usage{})
			Expect(err).NotTo(HaveOccurred())
			r.Cost = rows[i].Cost
			again = append(again, r)
		}
		Expect(report.CSVFiles(again)).To(Equal(report.CSVFiles(rows)))
	})

	It("pins the group formulas on the fixture (hand-checked values)", func() {
		a := rows[0] // Acme: see input.json
		// Runtime float64 values (Go constant arithmetic would be exact).
		var zero, half, one, twoThirds, threeQ = 0.0, 0.5, 1.0, 2.0 / 3.0, 0.75
		tw := twoThirds
		// simple: (3/4 + 1/2 + N/A->0) / 3; non-live AST: (simple + 1 + 0(parallel N/A) + 0) / 4
		Expect(a.NonLiveSimple.NA).To(BeTrue())
		Expect(a.NonLiveSimple.Accuracy).To(Equal((threeQ + half + zero) / 3))
		Expect(a.NonLiveOverall.Accuracy).To(Equal((a.NonLiveSimple.Accuracy + one + zero + zero) / 4))
		Expect(a.NonLiveOverall.NA).To(BeFalse())
		// live: weighted by entry counts; missing categories weigh their dataset size
		Expect(a.LiveOverall.Total).To(Equal(4 + 3 + 16 + 24))
		Expect(a.LiveOverall.Accuracy).To(Equal((threeQ*4 + tw*3 + zero*16 + zero*24) / 47))
		Expect(a.Irrelevance.Accuracy).To(Equal((tw + one) / 2))
		Expect(a.Relevance.Accuracy).To(Equal(half))
		Expect(a.MultiTurn.Accuracy).To(Equal((half + zero + zero + zero) / 4))
		Expect(a.WebSearch.NA).To(BeTrue())
		Expect(a.Agentic.Accuracy).To(Equal(((one+zero)/2 + (half+zero+zero)/3) / 2))
		w1, w3, w4 := 10.0/100, 30.0/100, 40.0/100
		Expect(a.Overall.Accuracy).To(Equal(zero + a.NonLiveOverall.Accuracy*w1 + a.LiveOverall.Accuracy*w1 +
			a.Irrelevance.Accuracy*w1 + a.MultiTurn.Accuracy*w3 + a.Agentic.Accuracy*w4))
		Expect(a.FormatSensitivity).NotTo(BeNil())
		Expect(a.FormatSensitivity.Configs).To(HaveLen(26))
		z := rows[2]
		Expect(z.Cost.Cost.OK).To(BeFalse()) // priced model without token data
		Expect(z.Cost.LatencyMean.OK).To(BeFalse())
	})

	It("writes a JSON summary and a readable table", func() {
		raw, err := os.ReadFile(filepath.Join(tmp, "summary.json"))
		Expect(err).NotTo(HaveOccurred())
		var s report.JSONSummary
		Expect(json.Unmarshal(raw, &s)).To(Succeed())
		Expect(s.Models).To(HaveLen(3))
		Expect(s.Models[0].Overall.Display).To(Equal("30.02%"))
		Expect(s.Models[0].Categories).To(HaveLen(23))
		Expect(*s.Models[0].Categories[0].Correct).To(Equal(3))
		var buf bytes.Buffer
		Expect(report.WriteTable(&buf, rows)).To(Succeed())
		out := buf.String()
		Expect(out).To(ContainSubstring("Model: Acme API Model v1 (FC)"))
		Expect(out).To(MatchRegexp(`simple_python\s+non_live\s+3\s+4\s+75\.00%`))
		Expect(out).To(MatchRegexp(`Overall\s+30\.02%`))
		Expect(out).To(MatchRegexp(`zeta_tiny\s+7\.50%`))
		// issue 26: the cost line does not widen the group table's columns
		for _, r := range rows {
			if !r.Cost.Cost.OK {
				continue
			}
			var one bytes.Buffer
			Expect(report.WriteTable(&one, []report.Row{r})).To(Succeed())
			Expect(one.String()).To(ContainSubstring("Cost $"))
			for _, l := range strings.Split(one.String(), "\n") {
				if strings.Contains(l, "Non-Live AST") {
					Expect(strings.Index(l, "Non-Live AST")).To(BeNumerically("<", 30), "the group column starts where the category column does: %q", l)
				}
			}
		}
	})
})

var _ = Describe("score computation errors", func() {
	It("rejects verdicts of another category, duplicates and empty sets", func() {
		_, err := report.Score(category.SimplePython, nil)
		Expect(err).To(MatchError(ContainSubstring("no verdicts")))
		_, err = report.Score(category.SimplePython, []verdict.Verdict{{ID: "simple_java_1", Valid: true}})
		Expect(err).To(MatchError(ContainSubstring("simple_java_1")))
		_, err = report.Score(category.SimplePython, []verdict.Verdict{{ID: "simple_python_1"}, {ID: "simple_python_1"}})
		Expect(err).To(MatchError(ContainSubstring("duplicate")))
		_, err = report.Score(category.SimplePython, []verdict.Verdict{{ID: "simple_python_1", Category: "multiple"}})
		Expect(err).To(MatchError(ContainSubstring(`"multiple"`)))
		s, err := report.Score(category.LiveMultiple, []verdict.Verdict{{ID: "live_multiple_329-132-19", Valid: true}, {ID: "live_multiple_1-0-1"}})
		Expect(err).NotTo(HaveOccurred())
		Expect(s.Accuracy).To(Equal(0.5))
	})
	It("rejects Detail keys that collide with fixed keys", func() {
		var buf bytes.Buffer
		_, err := report.WriteScoreFile(&buf, "m", category.SimplePython, []verdict.Verdict{{ID: "simple_python_1",
			Detail: verdict.Fields{{Key: "error_type", Value: "x"}}}})
		Expect(err).To(MatchError(ContainSubstring("collides")))
	})
	It("uses a Detail \"error\" field verbatim for multi-turn", func() {
		var buf bytes.Buffer
		_, err := report.WriteScoreFile(&buf, "m", category.MultiTurnBase, []verdict.Verdict{{ID: "multi_turn_base_1",
			ErrorType: "multi_turn:x", Errors: []string{"ignored"},
			Detail: verdict.Fields{{Key: "error", Value: verdict.Fields{{Key: "error_message", Value: "m"}, {Key: "error_type", Value: "t"}}},
				{Key: "prompt", Value: 1}}}})
		Expect(err).NotTo(HaveOccurred())
		Expect(buf.String()).To(Equal("{\"accuracy\": 0.0, \"correct_count\": 0, \"total_count\": 1}\n" +
			"{\"id\": \"multi_turn_base_1\", \"model_name\": \"m\", \"test_category\": \"multi_turn_base\", \"valid\": false, " +
			"\"error\": {\"error_message\": \"m\", \"error_type\": \"t\"}, \"prompt\": 1}\n"))
	})
})
