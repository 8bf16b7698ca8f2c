package core_test

import (
	"os"
	"path/filepath"
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

func TestCore(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "driver/core")
}

// moduleRoot walks up from the working directory to the directory holding go.mod.
func moduleRoot() string {
	dir, err := os.Getwd()
	Expect(err).NotTo(HaveOccurred())
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		Expect(parent).NotTo(Equal(dir), "go.mod not found above the test directory")
		dir = parent
	}
}

// dataDir is BFCL_DATA_DIR, else ../shared/bfcl relative to the module root.
func dataDir() string {
	if d := os.Getenv("BFCL_DATA_DIR"); d != "" {
		return d
	}
	return filepath.Join(moduleRoot(), "..", "shared", "bfcl")
}
