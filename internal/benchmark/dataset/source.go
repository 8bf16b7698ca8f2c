// Package dataset reads the BFCL v4 data set of the pinned upstream commit:
// question files, possible answers, the multi-turn function documents, the
// memory prerequisite conversations, the format-sensitivity id list and the
// long-context distractor data. It never writes and never downloads (see
// internal/benchmark/datafetch for that).
package dataset

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// UpstreamCommit is the gorilla commit whose data this project targets.
const UpstreamCommit = "6ea57973c7a6097fd7c5915698c54c17c5b1b6c8"

// EnvDataDir names the environment variable that points at the data set.
const EnvDataDir = "BFCL_DATA_DIR"

// Source is a located copy of the data set. It reads each file at most
// once per process and keeps what it parsed: every category's entries
// (format sensitivity's expansion included), the function documents, the
// memory prerequisites, an id index per category and the long-context
// module. Every caller of one data folder shares one Source (Open returns
// the same value for the same folder), so a command that touches a
// category from several places (selection, sharding, the runner, scoring,
// the report) reads its files once.
//
// Entries handed out are shared: callers treat them as read-only and copy
// an entry before changing it (as InferenceView and the expansion of
// format_sensitivity do). The slices returned are the caller's own.
type Source struct {
	// DataDir holds the BFCL_v4_*.json files and the sub-folders
	// possible_answer/, multi_turn_func_doc/, memory_prereq_conversation/.
	DataDir string
	// LongContextFile is upstream's long_context.py.
	LongContextFile string

	c cache // what was read and parsed (cache.go)
}

// Open locates the data set below dir; every Open of one folder in a
// process returns the same Source, so its files are read once. It accepts, in this order:
//   - a folder holding data/ and long_context.py (the layout `make data` writes);
//   - a checkout of the gorilla repository;
//   - its berkeley-function-call-leaderboard/ or bfcl_eval/ folder.
func Open(dir string) (*Source, error) {
	if dir == "" {
		return nil, errors.New("dataset: no data directory given (set " + EnvDataDir + " or run `make data`)")
	}
	type layout struct{ data, lc string }
	const fsc = "eval_checker/multi_turn_eval/func_source_code/long_context.py"
	candidates := []layout{
		{"data", "long_context.py"},
		{"berkeley-function-call-leaderboard/bfcl_eval/data", "berkeley-function-call-leaderboard/bfcl_eval/" + fsc},
		{"bfcl_eval/data", "bfcl_eval/" + fsc},
		{"data", fsc},
	}
	for _, c := range candidates {
		d := filepath.Join(dir, filepath.FromSlash(c.data))
		lc := filepath.Join(dir, filepath.FromSlash(c.lc))
		if isDir(d) && isFile(filepath.Join(d, "BFCL_v4_simple_python.json")) {
			if !isFile(lc) {
				return nil, fmt.Errorf("dataset: %s has the question files but no long_context.py at %s", dir, lc)
			}
			return shared(d, lc), nil
		}
	}
	return nil, fmt.Errorf("dataset: %s does not hold the BFCL v4 data set (expected %s and %s, or a gorilla checkout); run `make data` or set %s",
		dir, filepath.Join(dir, "data", "BFCL_v4_simple_python.json"), filepath.Join(dir, "long_context.py"), EnvDataDir)
}

// FromEnv opens the data set named by BFCL_DATA_DIR, falling back to the
// user cache folder that `bfcl data` fills.
func FromEnv() (*Source, error) {
	if d := os.Getenv(EnvDataDir); d != "" {
		return Open(d)
	}
	if d, err := DefaultCacheDir(); err == nil && isDir(d) {
		return Open(d)
	}
	return nil, errors.New("dataset: " + EnvDataDir + " is not set and no downloaded copy was found; run `make data` (or `bfcl data`) or point " + EnvDataDir + " at a copy")
}

// DefaultCacheDir is where `bfcl data` stores the data set of UpstreamCommit.
func DefaultCacheDir() (string, error) {
	c, err := os.UserCacheDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(c, "bfcl-go", "data-"+UpstreamCommit[:12]), nil
}

// Path joins elem below the data folder.
func (s *Source) Path(elem ...string) string {
	return filepath.Join(append([]string{s.DataDir}, elem...)...)
}

// ReadLongContext returns the bytes of long_context.py.
func (s *Source) ReadLongContext() ([]byte, error) {
	return s.readFile(s.LongContextFile)
}

func isDir(p string) bool  { st, err := os.Stat(p); return err == nil && st.IsDir() }
func isFile(p string) bool { st, err := os.Stat(p); return err == nil && st.Mode().IsRegular() }

// relName is a short name of p for error messages.
func (s *Source) relName(p string) string {
	if r, err := filepath.Rel(filepath.Dir(s.DataDir), p); err == nil && !strings.HasPrefix(r, "..") {
		return r
	}
	return p
}
