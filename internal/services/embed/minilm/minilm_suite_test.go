package minilm_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/bfcl-go/bfcl/internal/testkit/testenv"
)

func TestMiniLM(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "minilm")
}

// embedRef returns the folder of the embedder's reference data
// (BFCL_REFERENCE_DIR/embed). Without it a spec skips loudly, or fails when
// CI=true.
func embedRef() string {
	ref, _ := testenv.ReferenceDir()
	dir := filepath.Join(ref, "embed")
	if _, err := os.Stat(filepath.Join(dir, "tokens.jsonl")); err != nil {
		msg := testenv.MissingMessage("the all-MiniLM-L6-v2 reference data (reference/embed)", dir, "BFCL_REFERENCE_DIR")
		if os.Getenv("CI") == "true" {
			Fail(msg + " (CI=true: the reference is required)")
		}
		fmt.Fprintln(os.Stderr, msg)
		Skip(msg)
	}
	return dir
}

func ctx() context.Context { return context.Background() }
