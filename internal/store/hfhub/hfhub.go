// Package hfhub finds model files in the Hugging Face hub cache, laid out
// as huggingface_hub writes it: <cache>/models--<org>--<name>/snapshots/
// <revision>/<file>, with refs/main naming the revision last downloaded.
// It reads; it never downloads.
package hfhub

import (
	"os"
	"path/filepath"
	"strings"
)

// CacheDir is the hub cache as huggingface_hub resolves it: $HF_HUB_CACHE
// (or the older $HUGGINGFACE_HUB_CACHE), else $HF_HOME/hub, else
// $XDG_CACHE_HOME/huggingface/hub, else ~/.cache/huggingface/hub ("" when
// there is no home folder).
func CacheDir() string {
	for _, env := range []string{"HF_HUB_CACHE", "HUGGINGFACE_HUB_CACHE"} {
		if d := os.Getenv(env); d != "" {
			return d
		}
	}
	if d := os.Getenv("HF_HOME"); d != "" {
		return filepath.Join(d, "hub")
	}
	if d := os.Getenv("XDG_CACHE_HOME"); d != "" {
		return filepath.Join(d, "huggingface", "hub")
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return ""
	}
	return filepath.Join(home, ".cache", "huggingface", "hub")
}

// RepoDir is the cache folder of a model repository ("org/name").
func RepoDir(cache, repo string) string {
	return filepath.Join(cache, "models--"+strings.ReplaceAll(repo, "/", "--"))
}

// Snapshots lists the snapshot folders to look in for repo, in order: the
// given revision's ("" for none), then the one refs/main names. Folders
// that do not exist are listed too; the caller checks for its files.
func Snapshots(cache, repo, revision string) []string {
	dir := RepoDir(cache, repo)
	var out []string
	if revision != "" && safe(revision) {
		out = append(out, filepath.Join(dir, "snapshots", revision))
	}
	if ref, err := os.ReadFile(filepath.Join(dir, "refs", "main")); err == nil {
		if r := strings.TrimSpace(string(ref)); r != "" && r != revision && safe(r) {
			out = append(out, filepath.Join(dir, "snapshots", r))
		}
	}
	return out
}

// safe reports whether a revision names one folder.
func safe(rev string) bool {
	return rev != "." && rev != ".." && !strings.ContainsAny(rev, `/\`)
}
