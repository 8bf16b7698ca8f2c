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
