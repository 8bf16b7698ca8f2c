package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/bfcl-go/bfcl/internal/testkit/testenv"
)

// Issue 26, item 4: `make specs GINKGO_FLAGS=...` passes a label expression
// with spaces or "&&" to ginkgo as one argument. A stub go command prints
// the arguments make gives it.
var _ = Describe("make specs", Label("e2e"), func() {
	argsOf := func(flags string) []string {
		if _, err := exec.LookPath("make"); err != nil {
			Skip("no make on PATH")
		}
		dir := GinkgoT().TempDir()
		stub := filepath.Join(dir, "go")
		Expect(os.WriteFile(stub, []byte("#!/bin/sh\n[ \"$1\" = tool ] || exit 0\nfor a in \"$@\"; do printf '%s\\n' \"$a\"; done\n"), 0o755)).To(Succeed())
		cmd := exec.Command("make", "-s", "specs", "GO="+stub, "BFCL_DATA_DIR="+dir, "GINKGO_FLAGS="+flags)
		cmd.Dir = testenv.ModuleRoot()
		out, err := cmd.Output()
		Expect(err).NotTo(HaveOccurred())
		var args []string
		for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
			if !strings.HasPrefix(l, "BFCL_MODEL=") { // the echoed command line
				args = append(args, l)
			}
		}
		return args
	}
	It("keeps each README label expression one argument", func() {
		Expect(argsOf("--label-filter=TravelAPI && multi_turn_base")).To(ContainElement("--label-filter=TravelAPI && multi_turn_base"))
		Expect(argsOf("--label-filter=group: containsAny irrelevance")).To(ContainElement("--label-filter=group: containsAny irrelevance"))
		got := argsOf("--label-filter=multi_turn -v --focus=multi_turn_base_42$$")
		Expect(got).To(ContainElements("--label-filter=multi_turn", "-v", "--focus=multi_turn_base_42$"))
		Expect(got[len(got)-1]).To(Equal("./suites/format_sensitivity"))
	})
})

// Issue 27: `make eval` builds the CLI once and runs the data check and
// the run with that binary (a `go run` costs a build check each).
var _ = Describe("make eval", Label("e2e"), func() {
	It("builds bin/bfcl once and runs the data check and generate with it", func() {
		if _, err := exec.LookPath("make"); err != nil {
			Skip("no make on PATH")
		}
		dir := GinkgoT().TempDir()
		cmd := exec.Command("make", "-n", "eval", "GO=go", "BFCL_DATA_DIR="+dir, "MODEL=gold", "CATEGORIES=simple_python")
		cmd.Dir = testenv.ModuleRoot()
		out, err := cmd.Output()
		Expect(err).NotTo(HaveOccurred())
		text := string(out)
		Expect(strings.Count(text, "go build -o bin/bfcl ./cmd/bfcl")).To(Equal(1), text)
		Expect(text).NotTo(ContainSubstring("go run"))
		Expect(text).To(ContainSubstring("bin/bfcl data --verify"))
		Expect(text).To(ContainSubstring("bin/bfcl generate --model gold --test-category simple_python"))
		Expect(strings.Index(text, "go build")).To(BeNumerically("<", strings.Index(text, "bin/bfcl generate")))
	})
})
