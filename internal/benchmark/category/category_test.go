package category_test

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/bfcl-go/bfcl/internal/benchmark/category"
	"github.com/bfcl-go/bfcl/internal/testkit/testenv"
)

func names(cs []category.Category) []string {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = string(c)
	}
	return out
}

var _ = Describe("category tables", func() {
	It("lists the scoring categories in upstream's ALL_SCORING_CATEGORIES order", func() {
		Expect(names(category.Scoring())).To(Equal([]string{
			"simple_python", "simple_java", "simple_javascript", "multiple", "parallel", "parallel_multiple", "irrelevance",
			"live_simple", "live_multiple", "live_parallel", "live_parallel_multiple", "live_irrelevance", "live_relevance",
			"multi_turn_base", "multi_turn_miss_func", "multi_turn_miss_param", "multi_turn_long_context",
			"memory_kv", "memory_vector", "memory_rec_sum", "web_search_base", "web_search_no_snippet",
		}))
		Expect(names(category.All())).To(Equal(append(names(category.Scoring()), "format_sensitivity")))
	})

	It("has upstream's collections with upstream's membership", func() {
		want := map[string][]string{
			"all":         names(category.All()),
			"all_scoring": names(category.Scoring()),
			"multi_turn":  {"multi_turn_base", "multi_turn_miss_func", "multi_turn_miss_param", "multi_turn_long_context"},
			"single_turn": append(names(category.NonLive()), names(category.Live())...),
			"live":        {"live_simple", "live_multiple", "live_parallel", "live_parallel_multiple", "live_irrelevance", "live_relevance"},
			"non_live":    {"simple_python", "simple_java", "simple_javascript", "multiple", "parallel", "parallel_multiple", "irrelevance"},
			"non_python":  {"simple_java", "simple_javascript"},
			"python": {"simple_python", "irrelevance", "parallel", "multiple", "parallel_multiple", "live_simple",
				"live_multiple", "live_parallel", "live_parallel_multiple", "live_irrelevance", "live_relevance"},
			"memory":     {"memory_kv", "memory_vector", "memory_rec_sum"},
			"web_search": {"web_search_base", "web_search_no_snippet"},
			"agentic":    {"memory_kv", "memory_vector", "memory_rec_sum", "web_search_base", "web_search_no_snippet"},
		}
		var got []string
		for _, g := range category.Collections() {
			got = append(got, string(g))
			m, ok := category.Members(g)
			Expect(ok).To(BeTrue())
			Expect(names(m)).To(Equal(want[string(g)]), string(g))
		}
		Expect(got).To(Equal([]string{"all", "all_scoring", "multi_turn", "single_turn", "live", "non_live",
			"non_python", "python", "memory", "web_search", "agentic"}))
		_, ok := category.Members("simple")
		Expect(ok).To(BeFalse())
	})

	It("returns fresh slices (tables cannot be mutated through them)", func() {
		a := category.Scoring()
		a[0] = "x"
		Expect(category.Scoring()[0]).To(Equal(category.SimplePython))
		m, _ := category.Members(category.CollPython)
		m[0] = "x"
		m2, _ := category.Members(category.CollPython)
		Expect(m2[0]).To(Equal(category.SimplePython))
	})

	It("has 26 format-sensitivity configurations in upstream order", func() {
		cfg := category.FormatSensitivityConfigs()
		Expect(cfg).To(HaveLen(26))
		Expect(cfg[0]).To(Equal("ret_fmt=python&tool_call_tag=True&func_doc_fmt=python&prompt_fmt=plaintext&style=classic"))
		Expect(cfg[5]).To(Equal("ret_fmt=python&tool_call_tag=False&func_doc_fmt=json&prompt_fmt=plaintext&style=classic"))
		Expect(cfg[23]).To(Equal("ret_fmt=concise_xml&tool_call_tag=False&func_doc_fmt=json&prompt_fmt=plaintext&style=classic"))
		Expect(cfg[24]).To(Equal("ret_fmt=python&tool_call_tag=False&func_doc_fmt=json&prompt_fmt=markdown&style=classic"))
		Expect(cfg[25]).To(Equal("ret_fmt=python&tool_call_tag=False&func_doc_fmt=json&prompt_fmt=plaintext&style=experimental"))
	})
})

var _ = Describe("Expand", func() {
	It("mixes groups and categories, de-duplicates and sorts like upstream", func() {
		got, err := category.Expand(" multi_turn , simple_java,non_python,,memory_kv ")
		Expect(err).NotTo(HaveOccurred())
		Expect(names(got)).To(Equal([]string{"memory_kv", "multi_turn_base", "multi_turn_long_context",
			"multi_turn_miss_func", "multi_turn_miss_param", "simple_java", "simple_javascript"}))
	})
	It("expands all to every category including format_sensitivity", func() {
		got, err := category.Expand("all")
		Expect(err).NotTo(HaveOccurred())
		Expect(got).To(HaveLen(23))
		Expect(got).To(ContainElement(category.FormatSensitivity))
		got, err = category.Expand("all_scoring,live")
		Expect(err).NotTo(HaveOccurred())
		Expect(got).To(HaveLen(22))
		Expect(got).NotTo(ContainElement(category.FormatSensitivity))
	})
	It("joins repeated flags", func() {
		got, err := category.ExpandList([]string{"web_search", "irrelevance,live_irrelevance"})
		Expect(err).NotTo(HaveOccurred())
		Expect(names(got)).To(Equal([]string{"irrelevance", "live_irrelevance", "web_search_base", "web_search_no_snippet"}))
	})
	It("rejects unknown names and lists the valid ones", func() {
		_, err := category.Expand("simple_python,simple")
		Expect(err).To(HaveOccurred())
		Expect(err.Error()).To(ContainSubstring(`"simple"`))
		Expect(err.Error()).To(ContainSubstring("live_parallel_multiple"))
		Expect(err.Error()).To(ContainSubstring("valid groups: all, all_scoring"))
		_, err = category.Expand("exec_simple")
		Expect(err).To(HaveOccurred())
	})
	It("gives nothing for an empty value", func() {
		got, err := category.Expand(" , ")
		Expect(err).NotTo(HaveOccurred())
		Expect(got).To(BeEmpty())
	})
	It("sorts canonically on request", func() {
		got := category.SortCanonical([]category.Category{"web_search_base", "zzz", "irrelevance", "simple_python"})
		Expect(names(got)).To(Equal([]string{"simple_python", "irrelevance", "web_search_base", "zzz"}))
	})
})

var _ = Describe("per-category properties", func() {
	type row struct {
		dir, general, scoring, spec, lang, dataset string
		scoringOK                                  bool
	}
	want := map[category.Category]row{
		"simple_python":           {"non_live", "non_live", "non_live", "non_live", "python", "BFCL_v4_simple_python.json", true},
		"simple_java":             {"non_live", "non_live", "non_live", "non_live", "java", "BFCL_v4_simple_java.json", true},
		"simple_javascript":       {"non_live", "non_live", "non_live", "non_live", "javascript", "BFCL_v4_simple_javascript.json", true},
		"irrelevance":             {"non_live", "non_live", "irrelevance", "irrelevance", "python", "BFCL_v4_irrelevance.json", true},
		"live_parallel_multiple":  {"live", "live", "live", "live", "python", "BFCL_v4_live_parallel_multiple.json", true},
		"live_irrelevance":        {"live", "live", "irrelevance", "irrelevance", "python", "BFCL_v4_live_irrelevance.json", true},
		"live_relevance":          {"live", "live", "", "irrelevance", "python", "BFCL_v4_live_relevance.json", false},
		"multi_turn_long_context": {"multi_turn", "multi_turn", "multi_turn", "multi_turn", "python", "BFCL_v4_multi_turn_long_context.json", true},
		"memory_rec_sum":          {"agentic/memory/rec_sum", "agentic", "agentic", "agentic", "python", "BFCL_v4_memory.json", true},
		"web_search_no_snippet":   {"agentic", "agentic", "agentic", "agentic", "python", "BFCL_v4_web_search.json", true},
		"format_sensitivity":      {"format_sensitivity", "format_sensitivity", "", "format_sensitivity", "python", "BFCL_v4_format_sensitivity.json", false},
	}
	It("maps folders, groups, languages and dataset files", func() {
		for c, w := range want {
			Expect(c.Dir()).To(Equal(w.dir), string(c))
			Expect(string(c.GeneralGroup())).To(Equal(w.general), string(c))
			g, ok := c.ScoringGroup()
			Expect(string(g)).To(Equal(w.scoring), string(c))
			Expect(ok).To(Equal(w.scoringOK), string(c))
			Expect(string(c.SpecLabel())).To(Equal(w.spec), string(c))
			Expect(string(c.Language())).To(Equal(w.lang), string(c))
			Expect(c.DatasetFile()).To(Equal(w.dataset), string(c))
		}
	})
	It("names result and score files like upstream", func() {
		Expect(category.MemoryKV.ResultPath()).To(Equal("agentic/memory/kv/BFCL_v4_memory_kv_result.json"))
		Expect(category.MemoryKV.ScorePath()).To(Equal("agentic/memory/kv/BFCL_v4_memory_kv_score.json"))
		p, ok := category.MemoryVector.PrereqResultFileName()
		Expect(ok).To(BeTrue())
		Expect(p).To(Equal("BFCL_v4_memory_vector_prereq_result.json"))
		_, ok = category.LiveSimple.PrereqResultFileName()
		Expect(ok).To(BeFalse())
		Expect(category.WebSearchBase.ResultPath()).To(Equal("agentic/BFCL_v4_web_search_base_result.json"))
		Expect(category.Irrelevance.ScorePath()).To(Equal("non_live/BFCL_v4_irrelevance_score.json"))
		_, ok = category.LiveRelevance.PossibleAnswerFile()
		Expect(ok).To(BeFalse())
		f, ok := category.WebSearchNoSnippet.PossibleAnswerFile()
		Expect(ok).To(BeTrue())
		Expect(f).To(Equal("BFCL_v4_web_search.json"))
	})
	It("answers the predicates like upstream's substring tests", func() {
		Expect(category.SimpleJava.IsJava()).To(BeTrue())
		Expect(category.SimpleJavaScript.IsJava()).To(BeFalse())
		Expect(category.SimpleJavaScript.IsJS()).To(BeTrue())
		Expect(category.LiveRelevance.IsRelevanceOrIrrelevance()).To(BeTrue())
		Expect(category.LiveRelevance.IsIrrelevance()).To(BeFalse())
		Expect(category.Irrelevance.IsRelevanceOrIrrelevance()).To(BeTrue())
		Expect(category.LiveIrrelevance.IsRelevanceOrIrrelevance()).To(BeTrue())
		Expect(category.LiveMultiple.IsRelevanceOrIrrelevance()).To(BeFalse())
		Expect(category.Irrelevance.IsNonLive()).To(BeTrue())
		Expect(category.MemoryKV.IsAgentic()).To(BeTrue())
		Expect(category.MemoryKV.IsMultiTurn()).To(BeFalse())
		Expect(category.WebSearchBase.IsWebSearch()).To(BeTrue())
		Expect(category.MultiTurnMissParam.ContainsMultiTurnIrrelevance()).To(BeTrue())
		Expect(category.MultiTurnLongContext.IsLongContext()).To(BeTrue())
		Expect(category.MultiTurnBase.IsLongContext()).To(BeFalse())
		Expect(category.FormatSensitivity.IsNonLive()).To(BeFalse())
		Expect(category.Category("memory_kv_prereq").IsMemoryPrereq()).To(BeTrue())
		b, _ := category.Category("memory_kv_prereq").MemoryBackend()
		Expect(b).To(Equal("kv"))
	})
	It("tells the AST checker's parallel and multiple categories apart", func() {
		var parallel, multiple []category.Category
		for _, c := range category.All() {
			if c.IsParallel() {
				parallel = append(parallel, c)
			}
			if c.IsMultiple() {
				multiple = append(multiple, c)
			}
		}
		Expect(parallel).To(Equal([]category.Category{category.Parallel, category.ParallelMultiple,
			category.LiveParallel, category.LiveParallelMultiple}))
		Expect(multiple).To(Equal([]category.Category{category.Multiple, category.ParallelMultiple,
			category.LiveMultiple, category.LiveParallelMultiple}))
	})
})

var _ = Describe("entry ids", func() {
	It("extracts the category like upstream", func() {
		for id, want := range map[string]category.Category{
			"live_multiple_329-132-19":      "live_multiple",
			"simple_python_0":               "simple_python",
			"parallel_multiple_12":          "parallel_multiple",
			"live_relevance_4-4-0":          "live_relevance",
			"multi_turn_miss_param_47":      "multi_turn_miss_param",
			"memory_rec_sum_12-student-3":   "memory_rec_sum",
			"memory_kv_prereq_0-customer-0": "memory_kv",
			"web_search_no_snippet_7":       "web_search_no_snippet",
			"format_sensitivity_12:ret_fmt=python&tool_call_tag=True&func_doc_fmt=xml&prompt_fmt=plaintext&style=classic:live_simple_23-5-1": "format_sensitivity",
		} {
			got, err := category.FromEntryID(id)
			Expect(err).NotTo(HaveOccurred(), id)
			Expect(got).To(Equal(want), id)
		}
		Expect(category.RawFromEntryID("memory_kv_prereq_0-customer-0")).To(Equal("memory_kv_prereq"))
		Expect(category.IsMemoryPrereqID("memory_kv_prereq_0-customer-0")).To(BeTrue())
	})
	It("rejects ids that name no single category", func() {
		for _, id := range []string{"web_search_3", "memory_0-customer-0", "simple_3", "nounderscore", "exec_simple_1"} {
			_, err := category.FromEntryID(id)
			Expect(err).To(HaveOccurred(), id)
			Expect(err.Error()).To(ContainSubstring(id))
		}
	})
	It("orders ids by upstream's sort_key", func() {
		ids := []string{"multi_turn_base_10", "simple_python_10", "simple_python_9", "memory_kv_1-customer-1",
			"web_search_base_3", "memory_kv_prereq_2-student-0", "live_simple_2-1-0", "live_simple_10-3-1"}
		for i := range ids {
			for j := range ids {
				_ = category.CompareIDs(ids[i], ids[j])
			}
		}
		sorted := append([]string(nil), ids...)
		for i := 1; i < len(sorted); i++ {
			for j := i; j > 0 && category.CompareIDs(sorted[j], sorted[j-1]) < 0; j-- {
				sorted[j], sorted[j-1] = sorted[j-1], sorted[j]
			}
		}
		Expect(sorted).To(Equal([]string{"memory_kv_prereq_2-student-0", "web_search_base_3", "live_simple_2-1-0",
			"live_simple_10-3-1", "simple_python_9", "simple_python_10", "multi_turn_base_10", "memory_kv_1-customer-1"}))
		_, err := category.SortKeyOf("live_simple_1-2")
		Expect(err).To(HaveOccurred())
	})
})

var _ = Describe("against the shared dataset", func() {
	It("has the entry counts and files of the pinned dataset", func() {
		dir, ok := testenv.DataDir()
		if !ok {
			Skip(testenv.MissingMessage("BFCL dataset", dir, "BFCL_DATA_DIR"))
		}
		for _, c := range category.All() {
			file := filepath.Join(dir, "data", c.DatasetFile())
			if c == category.FormatSensitivity {
				raw, err := os.ReadFile(file)
				Expect(err).NotTo(HaveOccurred())
				var ids map[string][]string
				Expect(json.Unmarshal(raw, &ids)).To(Succeed())
				n := 0
				for src, l := range ids {
					_, err := category.Parse(src)
					Expect(err).NotTo(HaveOccurred())
					n += len(l)
				}
				Expect(n * len(category.FormatSensitivityConfigs())).To(Equal(c.EntryCount()))
				continue
			}
			ids := readIDs(file)
			Expect(len(ids)).To(Equal(c.EntryCount()), string(c))
			if pa, ok := c.PossibleAnswerFile(); ok {
				Expect(readIDs(filepath.Join(dir, "data", "possible_answer", pa))).To(HaveLen(c.EntryCount()), string(c))
			} else {
				_, err := os.Stat(filepath.Join(dir, "data", "possible_answer", c.DatasetFile()))
				Expect(os.IsNotExist(err)).To(BeTrue(), string(c))
			}
			// Ids of categories with their own file name the category.
			if !c.IsAgentic() {
				for _, id := range ids {
					got, err := category.FromEntryID(id)
					Expect(err).NotTo(HaveOccurred())
					Expect(got).To(Equal(c))
				}
			}
		}
	})
})

var _ = Describe("against the reference result layout", func() {
	It("places every reference result file where upstream's layout puts it", func() {
		ref, ok := testenv.ReferenceDir()
		if !ok {
			Skip(testenv.MissingMessage("reference outputs", ref, "BFCL_REFERENCE_DIR"))
		}
		roots := []string{
			filepath.Join(ref, "results", "results", "2025-11-12-harmony-fixes-2", "result", "openai_gpt-oss-120b"),
			filepath.Join(ref, "agentic", "results", "glyphh-ada-1.1"),
		}
		seen := 0
		for _, root := range roots {
			Expect(filepath.Walk(root, func(p string, info os.FileInfo, err error) error {
				if err != nil || info.IsDir() || !strings.HasSuffix(p, "_result.json") {
					return err
				}
				rel, _ := filepath.Rel(root, p)
				name := strings.TrimSuffix(strings.TrimPrefix(filepath.Base(p), "BFCL_v4_"), "_result.json")
				c, err := category.Parse(name)
				Expect(err).NotTo(HaveOccurred())
				Expect(filepath.ToSlash(rel)).To(Equal(c.ResultPath()))
				for _, id := range readIDs(p) {
					got, err := category.FromEntryID(id)
					Expect(err).NotTo(HaveOccurred())
					Expect(got).To(Equal(c), id)
				}
				seen++
				return nil
			})).To(Succeed())
		}
		Expect(seen).To(BeNumerically(">=", 21)) // 16 single/multi-turn + 5 agentic files today
	})
})

func readIDs(file string) []string {
	f, err := os.Open(file)
	Expect(err).NotTo(HaveOccurred())
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<28)
	var ids []string
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" {
			continue
		}
		var e struct {
			ID string `json:"id"`
		}
		Expect(json.Unmarshal([]byte(line), &e)).To(Succeed(), file)
		ids = append(ids, e.ID)
	}
	Expect(sc.Err()).NotTo(HaveOccurred())
	return ids
}
