package pyexpr_test

import (
	"encoding/json"
	"os"
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

func TestPyexpr(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "pyexpr Suite")
}

// recordedCases builds the specs of a JSON list of cases recorded from
// CPython in testdata: one that the file holds more than atLeast cases, and
// one per case, titled title(c), that runs check(c).
func recordedCases[T any](path string, atLeast int, title func(T) string, check func(T)) {
	cases := loadCases[T](path)
	It("has cases", func() { Expect(len(cases)).To(BeNumerically(">", atLeast)) })
	for _, c := range cases {
		It(title(c), func() { check(c) })
	}
}

// loadCases reads a JSON list of cases; it panics while the spec tree is
// built when the file cannot be read.
func loadCases[T any](path string) []T {
	data, err := os.ReadFile(path)
	if err != nil {
		panic(err)
	}
	var cases []T
	if err := json.Unmarshal(data, &cases); err != nil {
		panic(err)
	}
	return cases
}
