// Command bfcl runs and scores the Berkeley Function Calling Leaderboard
// (BFCL v4) in Go. Its verbs mirror upstream's CLI:
//
//	bfcl test-categories            list categories and groups
//	bfcl models                     list the models of models.yaml
//	bfcl data                       download the pinned data set (verified) into the cache
//	bfcl generate --model M --test-category C [--ids ID,...|--run-ids FILE]
//	bfcl evaluate --model M --result-dir D --score-dir S --test-category C
//	bfcl scores [--score-dir S]     print the score table
//	bfcl merge OUT DIR...           combine the result folders of a run's shards
//	bfcl exec                       execute call strings on the simulated backends (JSON Lines on stdin)
package main

import (
	"fmt"
	"os"
	"runtime/debug"
)

var verbs = map[string]func(args []string) error{
	"test-categories": cmdTestCategories,
	"models":          cmdModels,
	"data":            cmdData,
	"generate":        cmdGenerate,
	"evaluate":        cmdEvaluate,
	"scores":          cmdScores,
	"exec":            cmdExec,
	"merge":           cmdMerge,
}

func usage() {
	fmt.Fprint(os.Stderr, `usage: bfcl <verb> [flags]

verbs:
  test-categories   list test categories and groups (names accepted by --test-category)
  models            list the models of the registry (models.yaml or $BFCL_MODELS_FILE)
  data              download the BFCL v4 data set of the pinned commit, verified by SHA-256
  generate          run a model on test categories and store its results (resumable)
  evaluate          score result files (ours or upstream's) without calling any model
  scores            print the score table of a score folder
  exec              execute call strings on the simulated backends (see README)
  merge             combine the result folders of a run's shards (bfcl generate --shard K/N) into one

Run "bfcl <verb> -h" for the flags of a verb.
`)
}

func main() {
	if len(os.Args) < 2 || os.Args[1] == "-h" || os.Args[1] == "--help" || os.Args[1] == "help" {
		usage()
		if len(os.Args) < 2 {
			os.Exit(2)
		}
		return
	}
	f, ok := verbs[os.Args[1]]
	if !ok {
		fmt.Fprintf(os.Stderr, "bfcl: unknown verb %q\n\n", os.Args[1])
		usage()
		os.Exit(2)
	}
	// Scoring allocates many short-lived values; trading memory for fewer
	// collections makes `evaluate` markedly faster.
	debug.SetGCPercent(400)
	if err := f(os.Args[2:]); err != nil {
		fmt.Fprintln(os.Stderr, "bfcl:", err)
		os.Exit(1)
	}
}
