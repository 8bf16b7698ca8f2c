package report_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/bfcl-go/bfcl/internal/benchmark/category"
	"github.com/bfcl-go/bfcl/internal/check/verdict"
	"github.com/bfcl-go/bfcl/internal/scores/report"
	"github.com/bfcl-go/bfcl/internal/testkit/testenv"
)

func referenceDir() string {
	dir, ok := testenv.ReferenceDir()
	if !ok {
		Skip(testenv.MissingMessage("reference outputs (/work/shared/reference)", dir, "BFCL_REFERENCE_DIR"))
	}
	return dir
}

type csvTable struct {
	header []string
	rows   [][]string
}

func (t csvTable) col(name string) int {
	for i, h := range t.header {
		if h == name {
			return i
		}
	}
	Fail("column " + name + " not found")
	return -1
}

// rowOf returns the row of the model with that display name.
func (t csvTable) rowOf(model string) []string {
	c := t.col("Model")
	for _, r := range t.rows {
		if r[c] == model {
			return r
		}
	}
	Fail("model " + model + " not found")
	return nil
}

func readCSV(path string) csvTable {
	raw, err := os.ReadFile(path)
	Expect(err).NotTo(HaveOccurred())
	lines := strings.Split(string(raw), "\n")
	t := csvTable{header: strings.Split(lines[0], ",")}
	for _, l := range lines[1:] {
		cells := strings.Split(l, ",")
		Expect(cells).To(HaveLen(len(t.header)), path+": "+l)
		t.rows = append(t.rows, cells)
	}
	return t
}

// leafColumns maps each per-category CSV column to its category.
var leafColumns = []struct {
	file, column string
	cat          category.Category
}{
	{report.FileNonLive, "Python Simple AST", category.SimplePython},
	{report.FileNonLive, "Java Simple AST", category.SimpleJava},
	{report.FileNonLive, "JavaScript Simple AST", category.SimpleJavaScript},
	{report.FileNonLive, "Multiple AST", category.Multiple},
	{report.FileNonLive, "Parallel AST", category.Parallel},
	{report.FileNonLive, "Parallel Multiple AST", category.ParallelMultiple},
	{report.FileNonLive, "Irrelevance Detection", category.Irrelevance},
	{report.FileLive, "Python Simple AST", category.LiveSimple},
	{report.FileLive, "Python Multiple AST", category.LiveMultiple},
	{report.FileLive, "Python Parallel AST", category.LiveParallel},
	{report.FileLive, "Python Parallel Multiple AST", category.LiveParallelMultiple},
	{report.FileLive, "Irrelevance Detection", category.LiveIrrelevance},
	{report.FileLive, "Relevance Detection", category.LiveRelevance},
	{report.FileMultiTurn, "Base", category.MultiTurnBase},
	{report.FileMultiTurn, "Miss Func", category.MultiTurnMissFunc},
	{report.FileMultiTurn, "Miss Param", category.MultiTurnMissParam},
	{report.FileMultiTurn, "Long Context", category.MultiTurnLongContext},
	{report.FileAgentic, "Web Search Base", category.WebSearchBase},
	{report.FileAgentic, "Web Search No Snippet", category.WebSearchNoSnippet},
	{report.FileAgentic, "Memory KV", category.MemoryKV},
	{report.FileAgentic, "Memory Vector", category.MemoryVector},
	{report.FileAgentic, "Memory Recursive Summarization", category.MemoryRecSum},
}

// recoverCount turns a displayed percentage back into the exact correct
// count over total entries; with total < 10000 the 0.01% resolution makes
// it unique. The recovered accuracy must display as the cell does.
func recoverCount(cell string, total int, what string) int {
	p, err := strconv.ParseFloat(strings.TrimSuffix(cell, "%"), 64)
	Expect(err).NotTo(HaveOccurred(), what+": "+cell)
	correct := int(math.Round(p / 100 * float64(total)))
	Expect(report.Acc{Accuracy: float64(correct) / float64(total)}.Display()).To(Equal(cell),
		"%s: %s cannot be recovered as a count over %d entries", what, cell, total)
	return correct
}

func parseNum(cell string) report.Num {
	if cell == "N/A" {
		return report.Num{}
	}
	f, err := strconv.ParseFloat(cell, 64)
	Expect(err).NotTo(HaveOccurred(), cell)
	return report.Num{V: f, OK: true}
}

// rowsFromOfficialCSVs rebuilds each model's category scores from the leaf
// columns of the official CSVs (the model metadata and the cost/latency
// cells, which depend on data not kept in the reference, are taken as
// they stand).
func rowsFromOfficialCSVs(dir string, override func(model string) map[category.Category]report.CategoryScore) []report.Row {
	tables := map[string]csvTable{}
	for _, f := range []string{report.FileOverall, report.FileNonLive, report.FileLive, report.FileMultiTurn, report.FileAgentic} {
		tables[f] = readCSV(filepath.Join(dir, f))
	}
	var fs *csvTable
	if _, err := os.Stat(filepath.Join(dir, report.FileFormatSensitivity)); err == nil {
		t := readCSV(filepath.Join(dir, report.FileFormatSensitivity))
		fs = &t
	}
	ov := tables[report.FileOverall]
	Expect(ov.header).To(Equal(report.ColumnsOverall()))
	Expect(tables[report.FileNonLive].header).To(Equal(report.ColumnsNonLive()))
	Expect(tables[report.FileLive].header).To(Equal(report.ColumnsLive()))
	Expect(tables[report.FileMultiTurn].header).To(Equal(report.ColumnsMultiTurn()))
	Expect(tables[report.FileAgentic].header).To(Equal(report.ColumnsAgentic()))
	var rows []report.Row
	for _, r := range ov.rows {
		model := r[ov.col("Model")]
		info := report.ModelInfo{Name: model, DisplayName: model, URL: r[ov.col("Model Link")],
			Org: r[ov.col("Organization")], License: r[ov.col("License")]}
		var given map[category.Category]report.CategoryScore
		if override != nil {
			given = override(model)
		}
		var scores []report.CategoryScore
		for _, lc := range leafColumns {
			if s, ok := given[lc.cat]; ok {
				scores = append(scores, s)
				continue
			}
			t := tables[lc.file]
			cell := t.rowOf(model)[t.col(lc.column)]
			if cell == "N/A" {
				continue
			}
			n := lc.cat.EntryCount()
			c := recoverCount(cell, n, fmt.Sprintf("%s %s/%s", model, lc.file, lc.column))
			scores = append(scores, report.CategoryScore{Category: lc.cat, Correct: c, Total: n, Accuracy: float64(c) / float64(n)})
		}
		if fs != nil {
			Expect(fs.header).To(Equal(report.ColumnsFormatSensitivity()))
			fr := fs.rowOf(model)
			if md := parseNum(fr[2]); md.OK {
				st := &report.FormatSensitivityStats{MaxDelta: md.V, Std: parseNum(fr[3]).V}
				sum := 0
				for i, cfg := range category.FormatSensitivityConfigs() {
					cell := fr[4+i]
					if cell == "N/A" {
						continue
					}
					c := recoverCount(cell, 200, model+" "+cfg)
					sum += c
					st.Configs = append(st.Configs, report.ConfigScore{Config: cfg, Correct: c, Total: 200, Accuracy: float64(c) / 200})
				}
				scores = append(scores, report.CategoryScore{Category: category.FormatSensitivity, Correct: sum,
					Total: 200 * len(st.Configs), Accuracy: float64(sum) / float64(200*len(st.Configs)), FormatSensitivity: st})
			}
		}
		row, err := report.Summarize(info, scores, report.Usage{})
		Expect(err).NotTo(HaveOccurred())
		row.Cost = report.CostLatency{Cost: parseNum(r[4]), LatencyMean: parseNum(r[5]), LatencyStd: parseNum(r[6]), LatencyP95: parseNum(r[7])}
		rows = append(rows, row)
	}
	return rows
}

func officialScoreDirs(ref string) []string {
	var dirs []string
	Expect(filepath.Walk(ref, func(p string, fi os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		if !fi.IsDir() && fi.Name() == report.FileOverall {
			dirs = append(dirs, filepath.Dir(p))
		}
		return nil
	})).To(Succeed())
	Expect(dirs).NotTo(BeEmpty(), "no data_overall.csv under "+ref)
	return dirs
}

func compareCSVs(dir string, rows []report.Row, files ...string) {
	got := report.CSVFiles(rows)
	for _, f := range files {
		want, err := os.ReadFile(filepath.Join(dir, f))
		if os.IsNotExist(err) && f == report.FileFormatSensitivity {
			continue
		}
		Expect(err).NotTo(HaveOccurred())
		Expect(strings.Split(string(got[f]), "\n")).To(Equal(strings.Split(string(want), "\n")), filepath.Join(dir, f))
	}
}

var allCSVs = []string{report.FileOverall, report.FileNonLive, report.FileLive, report.FileMultiTurn,
	report.FileAgentic, report.FileFormatSensitivity}

var _ = Describe("the official leaderboard CSVs (reference)", func() {
	It("recomputes every summary, group and overall column from the per-category columns", func() {
		ref := referenceDir()
		for _, dir := range officialScoreDirs(ref) {
			By(dir)
			rows := rowsFromOfficialCSVs(dir, nil)
			Expect(rows).NotTo(BeEmpty())
			compareCSVs(dir, rows, allCSVs...)
		}
	})
})

type refVerdict struct {
	ID        string  `json:"id"`
	Valid     bool    `json:"valid"`
	ErrorType *string `json:"error_type"`
	Error     *string `json:"error"`
	Message   *string `json:"error_message"`
}

func readVerdicts(path string, cat category.Category) []verdict.Verdict {
	f, err := os.Open(path)
	Expect(err).NotTo(HaveOccurred())
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<26)
	var out []verdict.Verdict
	for sc.Scan() {
		var rv refVerdict
		Expect(json.Unmarshal(sc.Bytes(), &rv)).To(Succeed(), path)
		v := verdict.Verdict{ID: rv.ID, Category: cat, Valid: rv.Valid}
		if rv.ErrorType != nil {
			v.ErrorType = *rv.ErrorType
		}
		for _, m := range []*string{rv.Error, rv.Message} {
			if m != nil {
				v.Errors = append(v.Errors, *m)
			}
		}
		out = append(out, v)
	}
	Expect(sc.Err()).NotTo(HaveOccurred())
	return out
}

type officialDigest struct {
	Accuracy     float64           `json:"accuracy"`
	CorrectCount int               `json:"correct_count"`
	TotalCount   int               `json:"total_count"`
	Failed       map[string]string `json:"failed"`
	ResultFile   string            `json:"result_file"`
	ScoreFile    string            `json:"score_file"`
}

// astScores scores the 13 single-turn verdict files and checks each against
// the official score digest; it returns the scores by category.
func astScores(ref string) map[category.Category]report.CategoryScore {
	f, err := os.Open(filepath.Join(ref, "ast_verdicts", "official_scores.jsonl"))
	Expect(err).NotTo(HaveOccurred())
	defer f.Close()
	out := map[category.Category]report.CategoryScore{}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<26)
	for sc.Scan() {
		var d officialDigest
		Expect(json.Unmarshal(sc.Bytes(), &d)).To(Succeed())
		name := strings.TrimSuffix(strings.TrimPrefix(filepath.Base(d.ScoreFile), "BFCL_v4_"), "_score.json")
		cat, err := category.Parse(name)
		Expect(err).NotTo(HaveOccurred())
		// The score file sits where our layout puts it.
		Expect(filepath.ToSlash(d.ScoreFile)).To(HaveSuffix("/openai_gpt-oss-120b/" + cat.ScorePath()))
		vpath := filepath.Join(ref, "ast_verdicts", strings.TrimSuffix(d.ResultFile, "_result.json")+"_verdicts.jsonl")
		vs := readVerdicts(vpath, cat)

		var buf bytes.Buffer
		s, err := report.WriteScoreFile(&buf, "openai_gpt-oss-120b", cat, vs)
		Expect(err).NotTo(HaveOccurred())
		Expect(s.Accuracy).To(Equal(d.Accuracy), name)
		Expect(s.Correct).To(Equal(d.CorrectCount), name)
		Expect(s.Total).To(Equal(d.TotalCount), name)

		lines := strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
		head, err := report.ParseScoreHeader(cat, []byte(lines[0]))
		Expect(err).NotTo(HaveOccurred())
		Expect(head).To(Equal(s))
		failed := map[string]string{}
		for _, l := range lines[1:] {
			var e struct {
				ID        string   `json:"id"`
				Model     string   `json:"model_name"`
				Category  string   `json:"test_category"`
				Valid     *bool    `json:"valid"`
				Error     []string `json:"error"`
				ErrorType string   `json:"error_type"`
			}
			Expect(json.Unmarshal([]byte(l), &e)).To(Succeed(), l)
			Expect(e.Model).To(Equal("openai_gpt-oss-120b"))
			Expect(e.Category).To(Equal(name))
			Expect(*e.Valid).To(BeFalse())
			Expect(e.Error).To(HaveLen(1))
			failed[e.ID] = e.ErrorType
		}
		Expect(failed).To(Equal(d.Failed), name)
		out[cat] = s
	}
	Expect(sc.Err()).NotTo(HaveOccurred())
	Expect(out).To(HaveLen(13))
	return out
}

var _ = Describe("reference verdicts against the official scores", func() {
	It("reproduces the official accuracy, counts and failed entries of the 13 single-turn categories", func() {
		astScores(referenceDir())
	})

	It("turns the verdicts into the official CSVs (single-turn and multi-turn verdicts, long_context from the CSV)", func() {
		ref := referenceDir()
		given := astScores(ref)
		mtDir := filepath.Join(ref, "multi_turn_verdicts", "2025-11-12-harmony-fixes-2", "openai_gpt-oss-120b")
		for _, c := range []category.Category{category.MultiTurnBase, category.MultiTurnMissFunc, category.MultiTurnMissParam} {
			vs := readVerdicts(filepath.Join(mtDir, "BFCL_v4_"+string(c)+"_verdicts.jsonl"), c)
			var buf bytes.Buffer
			s, err := report.WriteScoreFile(&buf, "openai_gpt-oss-120b", c, vs)
			Expect(err).NotTo(HaveOccurred())
			var cmp struct {
				Official struct {
					Accuracy     float64 `json:"accuracy"`
					CorrectCount int     `json:"correct_count"`
					TotalCount   int     `json:"total_count"`
				} `json:"official"`
			}
			raw, err := os.ReadFile(filepath.Join(mtDir, "BFCL_v4_"+string(c)+"_vs_official.json"))
			Expect(err).NotTo(HaveOccurred())
			Expect(json.Unmarshal(raw, &cmp)).To(Succeed())
			Expect(s.Accuracy).To(Equal(cmp.Official.Accuracy), string(c))
			Expect(s.Correct).To(Equal(cmp.Official.CorrectCount), string(c))
			Expect(s.Total).To(Equal(cmp.Official.TotalCount), string(c))
			given[c] = s
		}
		dir := filepath.Join(ref, "results", "results", "2025-11-12-harmony-fixes-2", "score")
		if _, err := os.Stat(filepath.Join(dir, report.FileOverall)); err != nil {
			Fail("official CSVs of run 2025-11-12-harmony-fixes-2 missing under " + dir)
		}
		rows := rowsFromOfficialCSVs(dir, func(string) map[category.Category]report.CategoryScore { return given })
		Expect(rows).To(HaveLen(1))
		Expect(rows[0].Scores).To(HaveLen(17))
		compareCSVs(dir, rows, allCSVs...)
		Expect(rows[0].Overall.Display()).To(Equal("35.50%"))
	})

	It("writes the agentic verdicts' score files with the nested error object", func() {
		ref := referenceDir()
		base := filepath.Join(ref, "agentic", "verdicts")
		n := 0
		for _, c := range category.Agentic() {
			p := filepath.Join(base, filepath.FromSlash(strings.TrimPrefix(c.Dir(), "agentic")), "BFCL_v4_"+string(c)+"_verdicts.jsonl")
			vs := readVerdicts(p, c)
			var buf bytes.Buffer
			s, err := report.WriteScoreFile(&buf, "glyphh-ada-1.1", c, vs)
			Expect(err).NotTo(HaveOccurred())
			Expect(s.Total).To(Equal(c.EntryCount()))
			lines := strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
			Expect(lines).To(HaveLen(1 + s.Total - s.Correct))
			for _, l := range lines[1:] {
				var e struct {
					Error struct {
						Message json.RawMessage `json:"error_message"`
						Type    string          `json:"error_type"`
					} `json:"error"`
				}
				Expect(json.Unmarshal([]byte(l), &e)).To(Succeed())
				Expect(e.Error.Type).To(HavePrefix("agentic:"))
				if e.Error.Type == "agentic:answer_not_found" {
					Expect(string(e.Error.Message)).To(Equal(`"None of the expected answers were found in the model response."`))
				}
				n++
			}
		}
		Expect(n).To(BeNumerically(">", 0))
	})
})
