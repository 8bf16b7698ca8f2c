package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/bfcl-go/bfcl/internal/benchmark/category"
	"github.com/bfcl-go/bfcl/internal/store/results"
	"github.com/bfcl-go/bfcl/internal/testkit/clitest"
	"github.com/bfcl-go/bfcl/internal/testkit/testenv"
)

var update = flag.Bool("update", false, "rewrite the golden stdout files of fixtures/cli")

// The reference run's result folder (upstream's layout).
const refRun = "results/results/2025-11-12-harmony-fixes-2/result"

// bfclBin is the bfcl command, built once for the suite.
var bfclBin string

var _ = BeforeSuite(func() {
	dir, err := os.MkdirTemp("", "bfcl-cli-")
	Expect(err).NotTo(HaveOccurred())
	DeferCleanup(os.RemoveAll, dir)
	bfclBin, err = clitest.Build(dir)
	Expect(err).NotTo(HaveOccurred())
})

// cliEnv is a clean environment for the binary (clitest.Env).
func cliEnv(data string, extra ...string) []string { return clitest.Env(data, extra...) }

type run struct {
	stdout, stderr string
	exit           int
}

func bfcl(dir string, env []string, args ...string) run {
	cmd := exec.Command(bfclBin, args...)
	cmd.Dir, cmd.Env = dir, env
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	r := run{stdout: out.String(), stderr: errb.String()}
	if ee, ok := err.(*exec.ExitError); ok {
		r.exit = ee.ExitCode()
	} else {
		Expect(err).NotTo(HaveOccurred())
	}
	return r
}

func needData() string {
	return testenv.NeedDataDir(GinkgoT(), "BFCL data set")
}

func needReference() string {
	return testenv.NeedReferenceDir(GinkgoT(), "reference results")
}

func readLines(p string) []string {
	b, err := os.ReadFile(p)
	if err != nil {
		return nil
	}
	var out []string
	for _, l := range strings.Split(strings.TrimRight(string(b), "\n"), "\n") {
		if l != "" {
			out = append(out, l)
		}
	}
	return out
}

func copyTree(src, dst string) {
	_ = filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		Expect(err).NotTo(HaveOccurred())
		rel, _ := filepath.Rel(src, p)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		b, err := os.ReadFile(p)
		Expect(err).NotTo(HaveOccurred())
		return os.WriteFile(filepath.Join(dst, rel), b, 0o644)
	})
}

// runCase runs one fixtures/cli case and returns its working directory.
func runCase(name string) string {
	data := needData()
	fix := filepath.Join(testenv.ModuleRoot(), "fixtures", "cli", name)
	ref := ""
	if needs := readLines(filepath.Join(fix, "needs")); len(needs) > 0 && needs[0] == "reference" {
		ref = needReference()
	}
	work := GinkgoT().TempDir()
	if _, err := os.Stat(filepath.Join(fix, "workdir")); err == nil {
		copyTree(filepath.Join(fix, "workdir"), work)
	}
	expand := strings.NewReplacer("${FIXTURE}", fix, "${WORK}", work, "${DATA}", data, "${REFRESULTS}", filepath.Join(ref, refRun)).Replace
	var extra []string
	for _, kv := range readLines(filepath.Join(fix, "env")) {
		extra = append(extra, expand(kv))
	}
	env := cliEnv(data, extra...)
	var cmds [][]string
	cur := []string{}
	for _, a := range readLines(filepath.Join(fix, "args")) {
		if a == "&&" {
			cmds, cur = append(cmds, cur), []string{}
			continue
		}
		cur = append(cur, expand(a))
	}
	cmds = append(cmds, cur)
	var last run
	for i, c := range cmds {
		last = bfcl(work, env, c...)
		if i < len(cmds)-1 {
			Expect(last.exit).To(Equal(0), "bfcl %s\n%s", strings.Join(c, " "), last.stderr)
		}
	}
	wantExit := 0
	if l := readLines(filepath.Join(fix, "exit")); len(l) > 0 {
		wantExit, _ = strconv.Atoi(l[0])
	}
	Expect(last.exit).To(Equal(wantExit), "exit status; stderr:\n%s", last.stderr)
	for _, s := range readLines(filepath.Join(fix, "stderr.contains")) {
		Expect(last.stderr).To(ContainSubstring(s))
	}
	stdout := strings.ReplaceAll(strings.ReplaceAll(last.stdout, work, "$WORK"), data, "$DATA")
	if want := readLines(filepath.Join(fix, "stdout.contains")); want != nil {
		for _, s := range want {
			Expect(stdout).To(ContainSubstring(s))
		}
	} else if wantExit == 0 {
		golden := filepath.Join(fix, "stdout")
		if *update {
			Expect(os.WriteFile(golden, []byte(stdout), 0o644)).To(Succeed())
		}
		b, err := os.ReadFile(golden)
		Expect(err).NotTo(HaveOccurred(), "no golden stdout; run go test ./cmd/bfcl -args -update")
		Expect(stdout).To(Equal(string(b)), "stdout differs from %s (go test ./cmd/bfcl -args -update rewrites it)", golden)
	}
	return work
}

// ids lists the ids of a result file in file order.
func ids(path string) []string {
	recs, err := results.Read(path)
	Expect(err).NotTo(HaveOccurred())
	out := make([]string, len(recs))
	for i, r := range recs {
		out[i] = r.ID
	}
	return out
}

var _ = Describe("the bfcl binary", Label("e2e"), func() {
	It("runs every case of fixtures/cli", func() {
		ents, err := os.ReadDir(filepath.Join(testenv.ModuleRoot(), "fixtures", "cli"))
		Expect(err).NotTo(HaveOccurred())
		n := 0
		for _, e := range ents {
			if e.IsDir() {
				n++
			}
		}
		Expect(n).To(BeNumerically(">=", 15), "the cases below cover every folder")
	})

	It("generate --ids runs exactly those entries", func() {
		w := runCase("generate-ids")
		Expect(ids(results.Path(filepath.Join(w, "result"), "gold", category.SimplePython))).To(Equal([]string{"simple_python_0"}))
		Expect(ids(results.Path(filepath.Join(w, "result"), "gold", category.MultiTurnBase))).To(Equal([]string{"multi_turn_base_1"}))
		folders, err := results.Folders(filepath.Join(w, "result"))
		Expect(err).NotTo(HaveOccurred())
		Expect(folders).To(HaveLen(1))
		Expect(folders[0].Entries).To(Equal(2))
	})

	It("generate reads its settings from the environment", func() {
		w := runCase("generate-env")
		root := filepath.Join(w, "out", "results")
		Expect(ids(results.Path(root, "gold-alias", category.SimpleJava))).To(Equal([]string{"simple_java_3"}))
		Expect(ids(results.Path(root, "gold-alias", category.LiveSimple))).To(Equal([]string{"live_simple_0-0-0"}))
		Expect(filepath.Join(w, "out", "scores", "gold-alias", "non_live", "BFCL_v4_simple_java_score.json")).To(BeAnExistingFile())
		Expect(filepath.Join(w, "result")).NotTo(BeADirectory(), "the flag defaults must not override the environment")
	})

	It("generate --model a,b runs both and scores them in one pass", func() {
		data, ref := needData(), needReference()
		w := GinkgoT().TempDir()
		reg := ""
		for _, m := range []string{"replay-a", "replay-b"} {
			reg += "  - {name: " + m + ", provider: replay, model: openai_gpt-oss-120b, mode: fc, underscore_to_dot: true, replay_dir: " + filepath.Join(ref, refRun) + "}\n"
		}
		Expect(os.WriteFile(filepath.Join(w, "models.yaml"), []byte("models:\n"+reg), 0o644)).To(Succeed())
		r := bfcl(w, cliEnv(data), "generate", "--model", "replay-a,replay-b", "--ids", "simple_python_0,simple_python_1", "--num-threads", "2")
		Expect(r.exit).To(Equal(0), r.stderr)
		for _, m := range []string{"replay-a", "replay-b"} {
			Expect(ids(results.Path(filepath.Join(w, "result"), m, category.SimplePython))).To(Equal([]string{"simple_python_0", "simple_python_1"}))
		}
		b, err := os.ReadFile(filepath.Join(w, "score", "data_overall.csv"))
		Expect(err).NotTo(HaveOccurred())
		lines := strings.Split(string(b), "\n")
		Expect(lines).To(HaveLen(3))
		for _, l := range lines[1:] {
			cols := strings.Split(l, ",")
			Expect(cols[4:8]).NotTo(ContainElement("N/A"), "both models have this run's cost and latency columns: "+l)
		}
	})

	It("generate --run-ids reads upstream's id file and ignores --test-category", func() {
		w := runCase("generate-run-ids")
		r := filepath.Join(w, "result")
		Expect(ids(results.Path(r, "gold", category.SimpleJavaScript))).To(Equal([]string{"simple_javascript_1", "simple_javascript_2"}))
		Expect(ids(results.Path(r, "gold", category.MultiTurnMissFunc))).To(Equal([]string{"multi_turn_miss_func_4"}))
		Expect(results.Path(r, "gold", category.SimplePython)).NotTo(BeAnExistingFile())
	})

	It("generate names unknown ids, bad environment values, stray arguments and unknown models", func() {
		for _, c := range []string{"generate-unknown-id", "generate-bad-env", "generate-positional", "generate-unknown-model"} {
			w := runCase(c)
			Expect(filepath.Join(w, "result")).NotTo(BeADirectory(), c+" must fail before running anything")
		}
		// the unknown id is named, the known one is not
		w := GinkgoT().TempDir()
		r := bfcl(w, cliEnv(needData()), "generate", "--ids", "simple_python_0,simple_python_100000")
		Expect(r.exit).To(Equal(1))
		Expect(r.stderr).To(ContainSubstring("no such entries in simple_python: simple_python_100000\n"))
	})

	It("--correction marks the run: table, summary.json and version; an unknown name is an error naming the setting", func() {
		summaryCorrections := func(w string) []string {
			b, err := os.ReadFile(filepath.Join(w, "score", "summary.json"))
			Expect(err).NotTo(HaveOccurred())
			var s struct {
				Models []struct {
					Model       string   `json:"model"`
					Corrections []string `json:"corrections"`
				} `json:"models"`
			}
			Expect(json.Unmarshal(b, &s)).To(Succeed())
			Expect(s.Models).To(HaveLen(1))
			return s.Models[0].Corrections
		}
		w := runCase("generate-correction")
		Expect(summaryCorrections(w)).To(Equal([]string{"empty-tool-calls", "memory-kv-key-pattern"}))
		w = runCase("evaluate-correction")
		Expect(summaryCorrections(w)).To(Equal([]string{"empty-memory-search"}))
		runCase("scores-correction") // bfcl scores reads the mark back from summary.json
		w = runCase("generate-bad-correction")
		Expect(filepath.Join(w, "result")).NotTo(BeADirectory())
		runCase("version-correction")
		// the official run says nothing of corrections
		w = runCase("generate-ids")
		b, err := os.ReadFile(filepath.Join(w, "score", "summary.json"))
		Expect(err).NotTo(HaveOccurred())
		Expect(string(b)).NotTo(ContainSubstring("corrections"))
	})

	It("evaluate scores what generate wrote, format sensitivity included", func() {
		w := runCase("evaluate-ours")
		fs := filepath.Join(w, "s2", "gold", "format_sensitivity", "BFCL_v4_format_sensitivity_score.json")
		Expect(fs).To(BeAnExistingFile())
		Expect(filepath.Join(w, "s2", "data_format_sensitivity.csv")).To(BeAnExistingFile())
		sameTrees(filepath.Join(w, "s1"), filepath.Join(w, "s2"))
	})

	It("evaluate without --partial-eval names the missing entries' count", func() {
		runCase("evaluate-missing-entries")
	})

	It("evaluate, scores and results read upstream's reference folder", func() {
		runCase("evaluate-reference")
		runCase("scores-reference")
		runCase("results-reference")
	})

	It("test-categories, models (ours and upstream's) and version print their tables", func() {
		runCase("test-categories")
		runCase("models")
		runCase("models-upstream")
		runCase("version")
	})

	It("report writes one HTML file, and names a missing score folder", func() {
		w := runCase("report")
		b, err := os.ReadFile(filepath.Join(w, "out", "r.html"))
		Expect(err).NotTo(HaveOccurred())
		Expect(string(b)).To(HavePrefix("<!DOCTYPE html>"))
		Expect(filepath.Join(w, "score", "report.html")).To(BeAnExistingFile(), "generate writes it next to the CSVs too")
		runCase("report-missing")
	})

	It("repeats, turns, turns --isolated and compare summarise what generate wrote", func() {
		w := runCase("repeats")
		Expect(filepath.Join(w, "result_repeat_2", "gold", "non_live", "BFCL_v4_simple_javascript_result.json")).To(BeAnExistingFile())
		runCase("turns")
		w = runCase("turns-isolated")
		Expect(ids(results.Path(filepath.Join(w, "result_turn_isolated"), "gold", category.MultiTurnBase))).To(HaveLen(4), "one record per turn")
		Expect(filepath.Join(w, "score")).NotTo(BeADirectory(), "the turn-isolated mode writes no official score")
		runCase("compare")
	})

	It("generate --shard K/N in separate processes, merged, scores as one unsharded run", func() {
		data := needData()
		w := GinkgoT().TempDir()
		env := cliEnv(data)
		cats := "simple_javascript,multi_turn_base,memory_kv"
		r := bfcl(w, env, "generate", "--test-category", cats, "--result-dir", "whole/result", "--score-dir", "whole/score")
		Expect(r.exit).To(Equal(0), r.stderr)
		var dirs []string
		for k := 0; k < 4; k++ {
			dir := filepath.Join("shard"+strconv.Itoa(k), "result")
			args := []string{"generate", "--test-category", cats, "--result-dir", dir, "--score-dir", filepath.Join("shard"+strconv.Itoa(k), "score")}
			e := env
			if k%2 == 0 {
				args = append(args, "--shard", strconv.Itoa(k)+"/4")
			} else { // as a Kubernetes Indexed Job starts it
				e = append(append([]string{}, env...), "JOB_COMPLETION_INDEX="+strconv.Itoa(k), "BFCL_SHARD_COUNT=4")
			}
			r := bfcl(w, e, args...)
			Expect(r.exit).To(Equal(0), r.stderr)
			Expect(r.stderr).To(ContainSubstring("shard " + strconv.Itoa(k) + "/4"))
			dirs = append(dirs, dir)
		}
		r = bfcl(w, env, append([]string{"merge", "merged"}, dirs...)...)
		Expect(r.exit).To(Equal(0), r.stderr)
		r = bfcl(w, env, append([]string{"merge", "merged"}, dirs...)...)
		Expect(r.exit).To(Equal(0), "merging again is a no-op: "+r.stderr)
		r = bfcl(w, env, "evaluate", "--result-dir", "merged", "--score-dir", "merged-score", "--test-category", cats)
		Expect(r.exit).To(Equal(0), r.stderr)
		sameTrees(filepath.Join(w, "whole", "score"), filepath.Join(w, "merged-score"))
		// every memory chain (a scenario's prerequisites and questions) ran
		// whole in one shard, its prerequisites in order
		owner := map[string]int{}
		for k, d := range dirs {
			pre := filepath.Join(w, d, "gold", "agentic", "memory", "kv", "BFCL_v4_memory_kv_prereq_result.json")
			if _, err := os.Stat(pre); err != nil {
				continue
			}
			last := map[string]string{}
			for _, id := range ids(pre) { // memory_kv_prereq_<n>-<scenario>-<m>
				parts := strings.SplitN(id, "-", 2)
				scen := strings.Split(parts[1], "-")[0]
				if o, ok := owner[scen]; ok && o != k {
					Fail("scenario " + scen + " has prerequisites in two shards")
				}
				owner[scen] = k
				if prev, ok := last[scen]; ok {
					Expect(category.CompareIDs(prev, id)).To(BeNumerically("<", 0), "prerequisites of "+scen+" in order")
				}
				last[scen] = id
			}
			q := ids(filepath.Join(w, d, "gold", "agentic", "memory", "kv", "BFCL_v4_memory_kv_result.json"))
			for _, id := range q { // memory_kv_<n>-<scenario>-<m>
				scen := strings.Split(strings.SplitN(id, "-", 2)[1], "-")[0]
				Expect(owner).To(HaveKeyWithValue(scen, k), "question "+id+" runs in the shard of its prerequisites")
			}
		}
		Expect(owner).To(HaveLen(5), "memory_kv's five scenarios")
	})

	It("exec prints results and states for call strings", func() {
		runCase("exec")
	})

	It("does not link Ginkgo into the command", func() {
		out, err := exec.Command("go", "list", "-deps", ".").Output()
		Expect(err).NotTo(HaveOccurred())
		Expect(string(out)).NotTo(ContainSubstring("github.com/onsi/ginkgo"))
	})
})

// sameTrees compares two score folders file by file, byte for byte.
func sameTrees(a, b string) {
	list := func(root string) []string {
		var out []string
		_ = filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
			Expect(err).NotTo(HaveOccurred())
			// report.html is a view of the tree (its title names the folder)
			if !d.IsDir() && d.Name() != "report.html" {
				rel, _ := filepath.Rel(root, p)
				out = append(out, rel)
			}
			return nil
		})
		sort.Strings(out)
		return out
	}
	fa, fb := list(a), list(b)
	Expect(fb).To(Equal(fa), "the same files")
	Expect(fa).NotTo(BeEmpty())
	for _, f := range fa {
		x, err := os.ReadFile(filepath.Join(a, f))
		Expect(err).NotTo(HaveOccurred())
		y, err := os.ReadFile(filepath.Join(b, f))
		Expect(err).NotTo(HaveOccurred())
		Expect(string(y)).To(Equal(string(x)), f)
	}
}

var _ = Describe("one writer", Label("e2e", "reference"), func() {
	// Replaying real model outputs (with failures) through generate must
	// write the same score tree as evaluate on the same result folder.
	It("gives byte-identical score trees through generate and evaluate", func() {
		data := needData()
		ref := needReference()
		w := GinkgoT().TempDir()
		reg := filepath.Join(w, "models.yaml")
		Expect(os.WriteFile(reg, []byte(`models:
  - name: gpt-oss-replay
    provider: replay
    model: openai_gpt-oss-120b
    replay_dir: `+filepath.Join(ref, refRun)+`
    mode: fc
    underscore_to_dot: true
  - name: glyphh-replay
    provider: replay
    model: glyphh-ada-1.1
    replay_dir: `+filepath.Join(ref, "agentic", "results")+`
    mode: fc
`), 0o644)).To(Succeed())
		env := cliEnv(data)
		gen := func(model, cats string) {
			r := bfcl(w, env, "generate", "--model", model, "--test-category", cats, "--score-dir", "gen")
			Expect(r.exit).To(Equal(0), r.stderr)
		}
		eval := func(model string) {
			r := bfcl(w, env, "evaluate", "--model", model, "--score-dir", "eval", "--partial-eval")
			Expect(r.exit).To(Equal(0), r.stderr)
		}
		// the same verbs in the same order: the cost columns are those of the
		// last evaluated model, as upstream's record_cost_latency
		gen("gpt-oss-replay", "simple_python,live_multiple,irrelevance,multi_turn_base,multi_turn_miss_param")
		gen("glyphh-replay", "web_search")
		eval("gpt-oss-replay")
		eval("glyphh-replay")
		sameTrees(filepath.Join(w, "gen"), filepath.Join(w, "eval"))
		Expect(filepath.Join(w, "gen", "report.html")).To(BeAnExistingFile(), "generate writes the report")
		Expect(filepath.Join(w, "eval", "report.html")).To(BeAnExistingFile(), "evaluate writes the report")
		// and the trees hold failures with upstream's details
		b, err := os.ReadFile(filepath.Join(w, "eval", "gpt-oss-replay", "multi_turn", "BFCL_v4_multi_turn_base_score.json"))
		Expect(err).NotTo(HaveOccurred())
		Expect(string(b)).To(ContainSubstring(`"error_type": "multi_turn:`))
		Expect(string(b)).NotTo(ContainSubstring(`"Key"`))
	})
})
