// Command bfcl runs and scores the Berkeley Function Calling Leaderboard
// (BFCL v4) in Go. Its verbs mirror upstream's CLI:
//
//	bfcl test-categories            list categories and groups
//	bfcl models                     list the models of models.yaml
//	bfcl data                       download the pinned data set (verified) into the cache
//	bfcl generate --model M[,M...] --test-category C [--ids ID,...|--run-ids[=FILE]]
//	bfcl evaluate --model M --result-dir D --score-dir S --test-category C
//	bfcl scores [--score-dir S]     print the score table
//	bfcl compare A B [C ...]        paired comparison of runs (McNemar, bootstrap), ranking
//	bfcl repeats [--score-dir S]    run-to-run variation over repeats (mean, std, pass^k, pass@k, noise floor)
//	bfcl turns [--score-dir S]      multi-turn turn-level diagnostics (not part of the official score)
//	bfcl results [--result-dir R]   list result folders
//	bfcl version                    version and pinned upstream commit
//	bfcl report --score-dir S [--result-dir R] [-o report.html]   write the HTML report
//	bfcl merge OUT DIR...           combine the result folders of a run's shards
//	bfcl exec                       execute call strings on the simulated backends (JSON Lines on stdin)
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"runtime/debug"
	"syscall"

	"github.com/bfcl-go/bfcl/internal/config"
)

var verbs = map[string]func(args []string) error{
	"test-categories": cmdTestCategories,
	"models":          cmdModels,
	"data":            cmdData,
	"generate":        cmdGenerate,
	"evaluate":        cmdEvaluate,
	"scores":          cmdScores,
	"compare":         cmdCompare,
	"repeats":         cmdRepeats,
	"turns":           cmdTurns,
	"results":         cmdResults,
	"version":         cmdVersion,
	"exec":            cmdExec,
	"report":          cmdReport,
	"merge":           cmdMerge,
	"embed":           cmdEmbed,
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
  compare           is A better than B? per-category McNemar tests, bootstrap intervals, ranking
  repeats           run-to-run variation of repeated runs: mean, std, pass^k, pass@k, flips, noise floor
  turns             multi-turn turn accuracy and first-failing-turn distribution (diagnostics only)
  results           list the model folders of a result folder
  version           print the version and the pinned upstream commit
  exec              execute call strings on the simulated backends (see README)
  report            write the HTML report of a score folder (one self-contained file)
  merge             combine the result folders of a run's shards (bfcl generate --shard K/N) into one
  embed             embed texts with the built-in all-MiniLM-L6-v2 (memory_vector's embedder): token ids and vectors

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
	if os.Args[1] == "--version" || os.Args[1] == "-version" || os.Args[1] == "-v" {
		os.Args[1] = "version"
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
	for _, k := range config.Unknown(os.Environ()) {
		fmt.Fprintf(os.Stderr, "bfcl: warning: %s is not a setting of bfcl (see README, \"Picking a model\"); ignored\n", k)
	}
	if err := f(os.Args[2:]); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return
		}
		fmt.Fprintln(os.Stderr, "bfcl:", err)
		if errors.Is(err, errUsage) {
			os.Exit(2)
		}
		os.Exit(1)
	}
}

// interruptible is the context of a command that stops cleanly on Ctrl-C
// and on SIGTERM (what Slurm, Kubernetes and CI runners send before they
// kill a job): work in flight is cancelled, what is done is kept.
func interruptible() (context.Context, context.CancelFunc) {
	return signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
}
