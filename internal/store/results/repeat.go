package results

import (
	"fmt"
	"path/filepath"
)

// RepeatRoot is the root (result or score) of repeat k (1-based) of a run
// whose ordinary root is root. Repeat 1 is the ordinary root itself, so an
// existing single run counts as the first repeat; repeat k >= 2 is the
// sibling folder "<root>_repeat_<k>" (e.g. result, result_repeat_2,
// result_repeat_3). Every repeat is a complete ordinary root with the usual
// <model>/<group>/ layout, so resuming, evaluating and scoring work on each
// unchanged, and no repeat's files are ever seen by another's evaluation.
func RepeatRoot(root string, k int) (string, error) {
	if k < 1 {
		return "", fmt.Errorf("results: repeat %d: repeats are numbered from 1", k)
	}
	if k == 1 {
		return root, nil
	}
	return filepath.Clean(root) + fmt.Sprintf("_repeat_%d", k), nil
}

// RepeatRoots are the result and score roots of repeat k (1-based): what
// `bfcl generate --repeats K` runs repeat k into (RepeatRoot of each).
func RepeatRoots(resultRoot, scoreRoot string, k int) (resultDir, scoreDir string, err error) {
	if resultDir, err = RepeatRoot(resultRoot, k); err != nil {
		return "", "", err
	}
	scoreDir, err = RepeatRoot(scoreRoot, k)
	return resultDir, scoreDir, err
}
