package main

import (
	"os"
	"path/filepath"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

var _ = Describe("bfcl report", func() {
	It("writes report.html into the score folder, without the data set when asked", func() {
		dir := GinkgoT().TempDir()
		path := filepath.Join(dir, "m", "non_live", "BFCL_v4_simple_python_score.json")
		Expect(os.MkdirAll(filepath.Dir(path), 0o755)).To(Succeed())
		line := `{"id": "simple_python_1", "model_name": "m", "test_category": "simple_python", "valid": false, "error": ["Wrong number of functions."], "error_type": "simple_function_checker:wrong_count", "model_result_raw": "", "model_result_decoded": [], "possible_answer": []}`
		Expect(os.WriteFile(path, []byte(`{"accuracy": 0.5, "correct_count": 1, "total_count": 2}`+"\n"+line+"\n"), 0o644)).To(Succeed())
		Expect(cmdReport([]string{"--score-dir", dir, "--no-data"})).To(Succeed())
		b, err := os.ReadFile(filepath.Join(dir, "report.html"))
		Expect(err).NotTo(HaveOccurred())
		Expect(string(b)).To(HavePrefix("<!DOCTYPE html>"))
		Expect(strings.Count(string(b), "<script")).To(Equal(2))
	})
	It("rejects stray arguments and a missing score folder", func() {
		Expect(cmdReport([]string{"--no-data", "extra"})).To(MatchError(ContainSubstring("unexpected argument")))
		Expect(cmdReport([]string{"--no-data", "--score-dir", filepath.Join(GinkgoT().TempDir(), "none")})).To(MatchError(ContainSubstring("score folder")))
	})
})

var _ = Describe("the report of a run", func() {
	It("is written after generate and evaluate, skipped with --no-report, and the same page as `bfcl report` writes later", func() {
		data := needData()
		dir := GinkgoT().TempDir()
		env := cliEnv(data)
		ids := "simple_python_0,simple_python_1,multi_turn_base_1"
		r := bfcl(dir, env, "generate", "--model", "gold", "--ids", ids, "--no-report")
		Expect(r.exit).To(Equal(0), r.stderr)
		// The score files come from the loop's verdicts, not from scoring again.
		Expect(r.stderr).To(ContainSubstring("score files written from 3 verdicts of this run (0 stored results scored again)"))
		Expect(r.stdout).To(ContainSubstring("BFCL v4 scores"))
		Expect(filepath.Join(dir, "score", "summary.json")).To(BeAnExistingFile())
		Expect(filepath.Join(dir, "score", "report.html")).NotTo(BeAnExistingFile())

		r = bfcl(dir, env, "evaluate", "--partial-eval", "--no-report")
		Expect(r.exit).To(Equal(0), r.stderr)
		Expect(r.stderr).To(ContainSubstring("score files, CSVs and summary.json in"))
		Expect(filepath.Join(dir, "score", "report.html")).NotTo(BeAnExistingFile())

		r = bfcl(dir, env, "evaluate", "--partial-eval")
		Expect(r.exit).To(Equal(0), r.stderr)
		Expect(r.stderr).To(ContainSubstring("summary.json and report.html in"))
		fromRun, err := os.ReadFile(filepath.Join(dir, "score", "report.html"))
		Expect(err).NotTo(HaveOccurred())

		r = bfcl(dir, env, "report", "-o", "later.html")
		Expect(r.exit).To(Equal(0), r.stderr)
		later, err := os.ReadFile(filepath.Join(dir, "later.html"))
		Expect(err).NotTo(HaveOccurred())
		Expect(later).To(Equal(fromRun), "the report written from memory differs from the one `bfcl report` builds from the folders")

		Expect(os.Remove(filepath.Join(dir, "score", "report.html"))).To(Succeed())
		r = bfcl(dir, env, "generate", "--model", "gold", "--ids", "simple_python_0")
		Expect(r.exit).To(Equal(0), r.stderr)
		// Resumed in the loop (scored there too); the other stored results
		// of the file are scored again for the score file.
		Expect(r.stderr).To(ContainSubstring("score files written from 1 verdicts of this run (1 stored results scored again)"))
		Expect(filepath.Join(dir, "score", "report.html")).To(BeAnExistingFile())
	})
})
