// Package clitest builds the bfcl command and gives it a clean
// environment, for the tests that run the binary (cmd/bfcl's, its README
// test, the suites' end-to-end specs).
package clitest

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/bfcl-go/bfcl/internal/testkit/testenv"
)

// Build builds the module's ./cmd/bfcl into dir and returns the binary's
// path; a failed build's error carries the compiler's output.
func Build(dir string) (string, error) {
	bin := filepath.Join(dir, "bfcl")
	cmd := exec.Command("go", "build", "-o", bin, "./cmd/bfcl")
	cmd.Dir = testenv.ModuleRoot()
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("go build: %v\n%s", err, out)
	}
	return bin, nil
}

// Env is the caller's environment less every BFCL_* and SERPAPI_*
// variable, plus the data set (BFCL_DATA_DIR=data), no request cache and
// then extra.
func Env(data string, extra ...string) []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "BFCL_") && !strings.HasPrefix(kv, "SERPAPI_") {
			env = append(env, kv)
		}
	}
	env = append(env, "BFCL_DATA_DIR="+data, "BFCL_REQUEST_CACHE=off")
	return append(env, extra...)
}
