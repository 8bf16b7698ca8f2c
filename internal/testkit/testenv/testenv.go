// Package testenv locates the shared test material (the BFCL data set and
// the upstream reference outputs) for tests. Both are outside the
// repository: BFCL_DATA_DIR and BFCL_REFERENCE_DIR name them, and by default
// they are looked for in ../shared/bfcl and ../shared/reference beside the
// module root (the layout CI uses).
package testenv

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"sync"

	"github.com/bfcl-go/bfcl/internal/benchmark/dataset"
	"github.com/bfcl-go/bfcl/internal/config"
	"github.com/bfcl-go/bfcl/internal/store/hfhub"
)

// ModuleRoot is the folder holding go.mod above the working directory ("" if
// none).
func ModuleRoot() string {
	dir, err := os.Getwd()
	if err != nil {
		return ""
	}
	root, _ := config.ModuleRoot(dir)
	return root
}

func locate(env, rel string) (string, bool) {
	if d := os.Getenv(env); d != "" {
		st, err := os.Stat(d)
		return d, err == nil && st.IsDir()
	}
	root := ModuleRoot()
	if root == "" {
		return "", false
	}
	d := filepath.Join(root, "..", rel)
	st, err := os.Stat(d)
	return d, err == nil && st.IsDir()
}

// DataDir returns the BFCL data set folder and whether it exists.
func DataDir() (string, bool) { return locate("BFCL_DATA_DIR", filepath.Join("shared", "bfcl")) }

// DataSet opens the BFCL data set of DataDir. When it is absent, skip is
// the message the test skips with (MissingMessage) and src is nil.
func DataSet() (src *dataset.Source, skip string, err error) {
	dir, ok := DataDir()
	if !ok {
		return nil, MissingMessage("BFCL data set", dir, dataset.EnvDataDir), nil
	}
	src, err = dataset.Open(dir)
	return src, "", err
}

// ReferenceDir returns the reference-output folder and whether it exists.
func ReferenceDir() (string, bool) {
	return locate("BFCL_REFERENCE_DIR", filepath.Join("shared", "reference"))
}

// MissingMessage is the text tests print when they skip for lack of data.
func MissingMessage(what, dir, env string) string {
	return "SKIPPED LOUDLY: " + what + " not found at " + dir + " (set " + env + "); this test checks nothing without it"
}

// TB is the part of a test the Need* helpers use: *testing.T, *testing.B
// and Ginkgo's GinkgoT() all have it.
type TB interface {
	Helper()
	Skip(args ...any)
	Fatalf(format string, args ...any)
}

// NeedDataDir returns the BFCL data set folder; when there is none it skips
// t loudly (MissingMessage), what naming the material the test reads.
func NeedDataDir(t TB, what string) string {
	t.Helper()
	dir, ok := DataDir()
	if !ok {
		t.Skip(MissingMessage(what, dir, dataset.EnvDataDir))
	}
	return dir
}

// NeedReferenceDir returns the reference-output folder; when there is none
// it skips t loudly (MissingMessage), what naming the material the test
// reads.
func NeedReferenceDir(t TB, what string) string {
	t.Helper()
	dir, ok := ReferenceDir()
	if !ok {
		t.Skip(MissingMessage(what, dir, "BFCL_REFERENCE_DIR"))
	}
	return dir
}

// OpenDataSet opens the BFCL data set (NeedDataDir: skipped loudly when
// there is none); a data set that is there but does not open fails t.
func OpenDataSet(t TB) *dataset.Source {
	t.Helper()
	src, skip, err := DataSet()
	if skip != "" {
		t.Skip(skip)
	}
	if err != nil {
		t.Fatalf("opening the BFCL data set: %v", err)
	}
	return src
}

// ReadJSONL decodes every line of the JSON Lines file at path (the
// reference's verdicts, traces, goldens) into a T; an undecodable line is
// an error naming the file and the line.
func ReadJSONL[T any](path string) ([]T, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []T
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 1<<20), 256<<20)
	for n := 1; sc.Scan(); n++ {
		var v T
		if err := json.Unmarshal(sc.Bytes(), &v); err != nil {
			return nil, fmt.Errorf("%s:%d: %w", path, n, err)
		}
		out = append(out, v)
	}
	return out, sc.Err()
}

// UpstreamRepo returns a git checkout (or bare repository) of upstream's
// ShishirPatil/gorilla named by BFCL_UPSTREAM_REPO, and whether it exists.
// Only development-time drift checks read it; CI has none.
func UpstreamRepo() (string, bool) {
	d := os.Getenv("BFCL_UPSTREAM_REPO")
	if d == "" {
		return "", false
	}
	st, err := os.Stat(d)
	return d, err == nil && st.IsDir()
}

// WriteTinyDataSet writes into dir a data set of our own with three
// simple_python entries (one function f without parameters; the ground
// truth calls it), for tests that need a loadable data set but not BFCL's.
func WriteTinyDataSet(dir string) error {
	data := filepath.Join(dir, "data")
	if err := os.MkdirAll(filepath.Join(data, "possible_answer"), 0o755); err != nil {
		return err
	}
	q, a := "", ""
	for i := 0; i < 3; i++ {
		id := "simple_python_" + strconv.Itoa(i)
		q += `{"id": "` + id + `", "question": [[{"role": "user", "content": "q` + strconv.Itoa(i) + `"}]], "function": [{"name": "f", "description": "d", "parameters": {"type": "dict", "properties": {}, "required": []}}]}` + "\n"
		a += `{"id": "` + id + `", "ground_truth": [{"f": {}}]}` + "\n"
	}
	if err := os.WriteFile(filepath.Join(data, "BFCL_v4_simple_python.json"), []byte(q), 0o644); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(data, "possible_answer", "BFCL_v4_simple_python.json"), []byte(a), 0o644); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "long_context.py"), nil, 0o644)
}

// HFSnapshot makes the Hugging Face cache layout of repo ("org/name") at
// revision under cache, refs/main naming it, and returns the snapshot
// folder for the caller to fill (as huggingface_hub leaves a download).
func HFSnapshot(cache, repo, revision string) (string, error) {
	dir := hfhub.RepoDir(cache, repo)
	snap := filepath.Join(dir, "snapshots", revision)
	if err := os.MkdirAll(snap, 0o755); err != nil {
		return "", err
	}
	if err := os.MkdirAll(filepath.Join(dir, "refs"), 0o755); err != nil {
		return "", err
	}
	return snap, os.WriteFile(filepath.Join(dir, "refs", "main"), []byte(revision), 0o644)
}

// Concurrently runs check(g) for g in [0, n) on n goroutines at once and
// returns each one's count of failures (for specs of shared caches: every
// count must be 0).
func Concurrently(n int, check func(g int) (bad int)) []int {
	bad := make([]int, n)
	var wg sync.WaitGroup
	for g := range bad {
		wg.Add(1)
		go func() {
			defer wg.Done()
			bad[g] = check(g)
		}()
	}
	wg.Wait()
	return bad
}
