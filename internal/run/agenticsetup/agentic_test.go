package agenticsetup_test

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/bfcl-go/bfcl/generated/stubs"
	"github.com/bfcl-go/bfcl/internal/benchmark/category"
	"github.com/bfcl-go/bfcl/internal/benchmark/dataset"
	"github.com/bfcl-go/bfcl/internal/python/pyval"
	"github.com/bfcl-go/bfcl/internal/run/agenticsetup"
	"github.com/bfcl-go/bfcl/internal/services/embed"
	"github.com/bfcl-go/bfcl/internal/services/websearch"
	"github.com/bfcl-go/bfcl/internal/testkit/testenv"
	"github.com/bfcl-go/bfcl/sim"
)

func sha(s string) string {
	h := sha256.Sum256([]byte(s))
	return hex.EncodeToString(h[:])
}

// the scenario sentence is the text before the first blank line of the prompt
func setting(prompt string) string { return strings.SplitN(prompt, "\n\n", 2)[0] }

var _ = Describe("memory prompt texts", func() {
	It("are byte-identical to upstream's default_prompts.py (SHA-256 of the CPython strings)", func() {
		Expect(sha(agenticsetup.MemoryBackendInstructionCoreArchival)).To(Equal("a623a0c85dfc4c3479cf5e366692a0212ca43e50dec8454d07b32cae71894556"))
		Expect(sha(agenticsetup.MemoryBackendInstructionUnified)).To(Equal("1b0cce5a0920575333e9ac76c8a633e5fcad6f1074b5e15b7e66994e6e1be28d"))
		want := map[string]string{
			"student":    "73ab228605774d27085c37d4371572c65ca9371c9123b4690d5d8225b5d21026",
			"customer":   "8c7b328f837f8438c40349c365599a4de180c4eab9781204b7dd76e1df7c7355",
			"finance":    "24c9a58534c07ac448cb7ce15ff28232ce6d83c6b63fe9fc10d31c0270e796c2",
			"healthcare": "6dd7c98f8c2b4bb5b1aeafd741e5d25c268e363ba5b46bd908cad95ca81fb998",
			"notetaker":  "1195ba3a79244217ab1954bac5f667e63248efb28ede88109a04bd0904e50e61",
		}
		for sc, h := range want {
			p, err := agenticsetup.MemorySystemPrompt("memory_rec_sum", sc, sim.NewMemoryAPIRecSum(&sim.Env{}))
			Expect(err).NotTo(HaveOccurred())
			Expect(sha(setting(p))).To(Equal(h), sc)
		}
	})
})

var _ = Describe("MemorySystemPrompt", func() {
	It("fills the core/archival template with the backend's core memory dump", func() {
		kv := sim.NewMemoryAPIKV(&sim.Env{})
		p, err := agenticsetup.MemorySystemPrompt("memory_kv", "customer", kv)
		Expect(err).NotTo(HaveOccurred())
		Expect(p).To(HaveSuffix("Here is the content of your Core Memory from previous interactions:\nThere is no content in the core memory at this point.\n"))
		_, _ = stubs.Call(kv, "core_memory_add", []pyval.Value{pyval.Str("braces"), pyval.Str("{memory_content} {{x}}")}, nil)
		p, err = agenticsetup.MemorySystemPrompt("memory_kv", "customer", kv)
		Expect(err).NotTo(HaveOccurred())
		// substituted text is not formatted again
		Expect(p).To(HaveSuffix("interactions:\n{\n    \"braces\": \"{memory_content} {{x}}\"\n}\n"))
		vec := sim.NewMemoryAPIVector(&sim.Env{})
		p, err = agenticsetup.MemorySystemPrompt("memory_vector", "student", vec)
		Expect(err).NotTo(HaveOccurred())
		Expect(p).To(HaveSuffix("interactions:\n{}\n"))
	})

	It("uses the unified template for rec_sum", func() {
		rs := sim.NewMemoryAPIRecSum(&sim.Env{})
		_, _ = stubs.Call(rs, "memory_append", []pyval.Value{pyval.Str("User is Michael.")}, nil)
		p, err := agenticsetup.MemorySystemPrompt("memory_rec_sum", "finance", rs)
		Expect(err).NotTo(HaveOccurred())
		Expect(p).To(HaveSuffix("Here is the content of your memory system from previous interactions:\nUser is Michael.\n"))
		Expect(p).NotTo(ContainSubstring("Core Memory"))
	})

	It("fails on an unknown scenario as upstream's dict lookup", func() {
		_, err := agenticsetup.MemorySystemPrompt("memory_kv", "pirate", sim.NewMemoryAPIKV(&sim.Env{}))
		Expect(err).To(MatchError("'pirate'"))
	})
})

var _ = Describe("AddMemorySystemPrompt", func() {
	It("prefixes an existing system message and inserts one otherwise, without touching its input", func() {
		kv := sim.NewMemoryAPIKV(&sim.Env{})
		prompt, _ := agenticsetup.MemorySystemPrompt("memory_kv", "customer", kv)
		q := [][]dataset.Message{{{Role: "system", Content: dataset.AgenticResponseFormatPrompt}, {Role: "user", Content: "What is my name?"}}}
		got, err := agenticsetup.AddMemorySystemPrompt(q, "memory_kv", "customer", kv)
		Expect(err).NotTo(HaveOccurred())
		Expect(got[0]).To(HaveLen(2))
		Expect(got[0][0].Content).To(Equal(prompt + "\n\n" + dataset.AgenticResponseFormatPrompt))
		Expect(q[0][0].Content).To(Equal(dataset.AgenticResponseFormatPrompt))
		pre := [][]dataset.Message{{{Role: "user", Content: "Hi"}}, {{Role: "user", Content: "Bye"}}}
		got, err = agenticsetup.AddMemorySystemPrompt(pre, "memory_kv", "customer", kv)
		Expect(err).NotTo(HaveOccurred())
		Expect(got[0]).To(Equal([]dataset.Message{{Role: "system", Content: prompt}, {Role: "user", Content: "Hi"}}))
		Expect(got[1]).To(Equal(pre[1]))
		Expect(pre[0]).To(HaveLen(1))
	})
})

var _ = Describe("InitialConfig and Configure", func() {
	It("builds upstream's initial_config for memory and web-search entries", func() {
		e := &dataset.Entry{ID: "memory_kv_prereq_0-customer-0", Category: "memory_kv", Scenario: "customer", InvolvedClasses: []string{"MemoryAPI_kv"}}
		c, err := agenticsetup.InitialConfig(e, "/r/m")
		Expect(err).NotTo(HaveOccurred())
		s, _ := pyval.JSONDumps(c)
		Expect(s).To(Equal(`{"MemoryAPI_kv": {"model_result_dir": "/r/m", "scenario": "customer", "test_id": "memory_kv_prereq_0-customer-0", "test_category": "memory_kv_prereq"}}`))
		w := &dataset.Entry{ID: "web_search_no_snippet_3", Category: "web_search_no_snippet", InvolvedClasses: []string{"WebSearchAPI"}}
		c, err = agenticsetup.InitialConfig(w, "")
		Expect(err).NotTo(HaveOccurred())
		s, _ = pyval.JSONDumps(c)
		Expect(s).To(Equal(`{"WebSearchAPI": {"show_snippet": false}}`))
		w.ID = "web_search_base_3"
		c, _ = agenticsetup.InitialConfig(w, "")
		s, _ = pyval.JSONDumps(c)
		Expect(s).To(Equal(`{"WebSearchAPI": {"show_snippet": true}}`))
		c, err = agenticsetup.InitialConfig(&dataset.Entry{ID: "simple_python_1"}, "")
		Expect(err).NotTo(HaveOccurred())
		Expect(c).To(BeNil())
	})

	It("attaches the embedder and the search provider, and insists on them", func() {
		vec := sim.NewMemoryAPIVector(&sim.Env{})
		Expect(agenticsetup.Configure(vec, agenticsetup.Options{})).To(MatchError(ContainSubstring("needs an embedder")))
		Expect(agenticsetup.Configure(vec, agenticsetup.Options{Embedder: embed.Hashed{}})).To(Succeed())
		Expect(vec.Embedder()).NotTo(BeNil())
		ws := sim.NewWebSearchAPI(&sim.Env{})
		Expect(agenticsetup.Configure(ws, agenticsetup.Options{})).To(MatchError(ContainSubstring("needs a search provider")))
		o, err := websearch.NewOffline(filepath.Join(testenv.ModuleRoot(), "fixtures", "agentic", "websearch"))
		Expect(err).NotTo(HaveOccurred())
		Expect(agenticsetup.Configure(ws, agenticsetup.Options{Search: o})).To(Succeed())
		Expect(agenticsetup.Configure(sim.NewMemoryAPIKV(&sim.Env{}), agenticsetup.Options{})).To(Succeed())
	})
})

var _ = Describe("memory across a scenario's entries (real data set)", func() {
	for _, cat := range []string{"memory_kv", "memory_vector", "memory_rec_sum"} {
		cat := cat
		It("carries "+cat+" memory from prerequisite to prerequisite to question, with files and without", func() {
			dataDir, ok := testenv.DataDir()
			if !ok {
				Skip(testenv.MissingMessage("BFCL data set", dataDir, dataset.EnvDataDir))
			}
			src, err := dataset.Open(dataDir)
			Expect(err).NotTo(HaveOccurred())
			pre, err := src.MemoryPrereqs(category.Category(cat), "notetaker")
			Expect(err).NotTo(HaveOccurred())
			Expect(len(pre)).To(BeNumerically(">=", 2))
			entries, err := src.Load(category.Category(cat))
			Expect(err).NotTo(HaveOccurred())
			var question *dataset.Entry
			for _, e := range entries {
				if e.Scenario == "notetaker" {
					question = e
					break
				}
			}
			Expect(question).NotTo(BeNil())
			class := pre[0].InvolvedClasses[0]
			resultDir := GinkgoT().TempDir()
			snaps := agenticsetup.NewSnapshots()
			opts := agenticsetup.Options{Embedder: embed.Hashed{}}
			newInst := func(e *dataset.Entry) sim.MemoryBackend {
				cfg, err := agenticsetup.InitialConfig(e, resultDir)
				Expect(err).NotTo(HaveOccurred())
				var inst sim.MemoryBackend
				switch class {
				case "MemoryAPI_kv":
					inst = sim.NewMemoryAPIKV(&sim.Env{})
				case "MemoryAPI_vector":
					inst = sim.NewMemoryAPIVector(&sim.Env{})
				default:
					inst = sim.NewMemoryAPIRecSum(&sim.Env{})
				}
				c, _ := cfg.GetStr(class)
				Expect(inst.LoadScenario(c.(*pyval.Dict), false)).To(Succeed())
				Expect(agenticsetup.Configure(inst, opts)).To(Succeed())
				return inst
			}
			// each prerequisite "remembers" one fact (as a model would with the tools)
			for i, p := range pre {
				inst := newInst(p)
				mirror := newInst(&dataset.Entry{ID: "memory_x_scratch", Category: category.Category(cat), Scenario: "scratch", InvolvedClasses: p.InvolvedClasses})
				_, err := snaps.Load(p, mirror)
				Expect(err).NotTo(HaveOccurred())
				Expect(pyval.JSONDumps(mirror.Snapshot())).To(Equal(mustDumps(inst.Snapshot())), "file and in-memory chains agree before %s", p.ID)
				q, err := agenticsetup.PrepareQuestion(p.Question, p, inst)
				Expect(err).NotTo(HaveOccurred())
				Expect(q[0][0].Role).To(Equal("system"))
				for _, m := range []sim.MemoryBackend{inst, mirror} {
					remember(m, i)
				}
				Expect(agenticsetup.Finish(p, inst)).To(Succeed())
				snaps.Save(p, mirror)
				_, err = os.Stat(filepath.Join(resultDir, "agentic", "memory", strings.TrimPrefix(cat, "memory_"), "memory_snapshot", "prereq_checkpoints", p.ID+".json"))
				Expect(err).NotTo(HaveOccurred())
			}
			inst := newInst(question)
			Expect(inst.SnapshotWarning()).To(BeEmpty())
			view, err := dataset.InferenceView(question)
			Expect(err).NotTo(HaveOccurred())
			q, err := agenticsetup.PrepareQuestion(view.Question, question, inst)
			Expect(err).NotTo(HaveOccurred())
			Expect(q[0][0].Role).To(Equal("system"))
			Expect(q[0][0].Content).To(HaveSuffix("\n\n" + dataset.AgenticResponseFormatPrompt))
			last := len(pre) - 1
			if class != "MemoryAPI_vector" || last < 7 {
				Expect(q[0][0].Content).To(ContainSubstring(fact(last)))
			}
			mirror := newInst(&dataset.Entry{ID: "memory_x_scratch2", Category: category.Category(cat), Scenario: "scratch", InvolvedClasses: question.InvolvedClasses})
			_, err = snaps.Load(question, mirror)
			Expect(err).NotTo(HaveOccurred())
			Expect(mustDumps(mirror.Snapshot())).To(Equal(mustDumps(inst.Snapshot())))
			// a question does not write snapshots
			Expect(agenticsetup.Finish(question, inst)).To(Succeed())
		})
	}
})

func fact(i int) string { return "fact number " + pyval.Repr(pyval.Int(int64(i))) }

func remember(m sim.MemoryBackend, i int) {
	var err error
	switch m.(type) {
	case *sim.MemoryAPI_kv:
		_, err = stubs.Call(m, "core_memory_add", []pyval.Value{pyval.Str("fact_" + pyval.Repr(pyval.Int(int64(i)))), pyval.Str(fact(i))}, nil)
	case *sim.MemoryAPI_vector:
		_, err = stubs.Call(m, "core_memory_add", []pyval.Value{pyval.Str(fact(i))}, nil)
	case *sim.MemoryAPI_rec_sum:
		_, err = stubs.Call(m, "memory_append", []pyval.Value{pyval.Str(fact(i) + ". ")}, nil)
	}
	Expect(err).NotTo(HaveOccurred())
}

func mustDumps(v pyval.Value) string {
	s, err := pyval.JSONDumps(v)
	Expect(err).NotTo(HaveOccurred())
	return s
}
