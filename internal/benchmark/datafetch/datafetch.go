// Package datafetch downloads the BFCL v4 data set of the pinned upstream
// commit into a local folder and verifies every file against the SHA-256
// checksums kept in this repository (checksums.txt). A complete, verified
// copy makes it a no-op; a file that fails its checksum is an error, never
// silently kept.
package datafetch

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/bfcl-go/bfcl/internal/benchmark/dataset"
	"github.com/bfcl-go/bfcl/internal/services/netguard"
)

//go:embed checksums.txt
var checksums []byte

// DefaultBaseURL serves the files of the upstream repository at a commit.
const DefaultBaseURL = "https://raw.githubusercontent.com/ShishirPatil/gorilla"

// File is one file of the data set.
type File struct {
	Path   string // relative to the data folder root: data/... or long_context.py
	SHA256 string
}

// Files lists the data set's files with their checksums.
func Files() ([]File, error) {
	var out []File
	sc := bufio.NewScanner(bytes.NewReader(checksums))
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" {
			continue
		}
		sum, path, ok := strings.Cut(line, "  ")
		if !ok || len(sum) != 64 {
			return nil, fmt.Errorf("datafetch: checksums.txt:%d: malformed line", n)
		}
		out = append(out, File{Path: path, SHA256: sum})
	}
	return out, sc.Err()
}

// upstreamPath maps a local path to its path in the gorilla repository.
func upstreamPath(p string) string {
	const root = "berkeley-function-call-leaderboard/bfcl_eval/"
	if p == "long_context.py" {
		return root + "eval_checker/multi_turn_eval/func_source_code/long_context.py"
	}
	return root + p
}

// Verify checks the files under dir; it returns the files that are missing
// or differ.
func Verify(dir string) ([]File, error) {
	files, err := Files()
	if err != nil {
		return nil, err
	}
	var bad []File
	for _, f := range files {
		ok, err := matches(filepath.Join(dir, filepath.FromSlash(f.Path)), f.SHA256)
		if err != nil {
			return nil, err
		}
		if !ok {
			bad = append(bad, f)
		}
	}
	return bad, nil
}

func matches(path, sum string) (bool, error) {
	fh, err := os.Open(path)
	if os.IsNotExist(err) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	defer fh.Close()
	h := sha256.New()
	if _, err := io.Copy(h, fh); err != nil {
		return false, err
	}
	return hex.EncodeToString(h.Sum(nil)) == sum, nil
}

// Options tune Fetch.
type Options struct {
	BaseURL string       // default DefaultBaseURL
	Commit  string       // default dataset.UpstreamCommit
	Client  *http.Client // default: 60 s timeout
	Log     io.Writer    // progress lines; nil for none
	// MaxFile bounds one downloaded file; a longer body is an error (not
	// retried) and nothing is written. 0 means netguard.DefaultMaxBody.
	MaxFile int64
}

// Fetch makes dir a complete, verified copy of the data set, downloading
// only the files that are missing or differ. Each file is written to a
// temporary name, checked, then renamed into place.
func Fetch(ctx context.Context, dir string, o Options) error {
	if o.BaseURL == "" {
		o.BaseURL = DefaultBaseURL
	}
	if o.Commit == "" {
		o.Commit = dataset.UpstreamCommit
	}
	if o.Client == nil {
		o.Client = &http.Client{Timeout: 60 * time.Second}
	}
	todo, err := Verify(dir)
	if err != nil {
		return err
	}
	if len(todo) == 0 {
		logf(o.Log, "data set complete and verified in %s\n", dir)
		return nil
	}
	for i, f := range todo {
		url := strings.TrimRight(o.BaseURL, "/") + "/" + o.Commit + "/" + upstreamPath(f.Path)
		logf(o.Log, "[%d/%d] %s\n", i+1, len(todo), f.Path)
		if err := fetchOne(ctx, o.Client, url, filepath.Join(dir, filepath.FromSlash(f.Path)), f.SHA256, o.MaxFile); err != nil {
			return err
		}
	}
	logf(o.Log, "data set complete and verified in %s (%d files downloaded)\n", dir, len(todo))
	return nil
}

func fetchOne(ctx context.Context, c *http.Client, url, dest, sum string, maxFile int64) error {
	var lastErr error
	for attempt := 0; attempt < 3; attempt++ {
		if attempt > 0 {
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(time.Duration(attempt) * time.Second):
			}
		}
		lastErr = tryFetch(ctx, c, url, dest, sum, maxFile)
		if lastErr == nil {
			return nil
		}
		if _, checksum := lastErr.(checksumError); checksum || errors.Is(lastErr, netguard.ErrTooLarge) {
			return lastErr
		}
	}
	return lastErr
}

type checksumError struct{ msg string }

func (e checksumError) Error() string { return e.msg }

func tryFetch(ctx context.Context, c *http.Client, url, dest, sum string, maxFile int64) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return err
	}
	resp, err := c.Do(req)
	if err != nil {
		return fmt.Errorf("datafetch: %s: %w", url, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("datafetch: %s: HTTP %d", url, resp.StatusCode)
	}
	if err := os.MkdirAll(filepath.Dir(dest), 0o755); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(dest), ".part-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	h := sha256.New()
	if _, err := io.Copy(io.MultiWriter(tmp, h), netguard.LimitBody(resp.Body, maxFile)); err != nil {
		tmp.Close()
		return fmt.Errorf("datafetch: %s: %w", url, err)
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if got := hex.EncodeToString(h.Sum(nil)); got != sum {
		return checksumError{fmt.Sprintf("datafetch: %s: SHA-256 %s, expected %s (checksums.txt); refusing the file", url, got, sum)}
	}
	return os.Rename(tmp.Name(), dest)
}

func logf(w io.Writer, format string, args ...any) {
	if w != nil {
		fmt.Fprintf(w, format, args...)
	}
}
