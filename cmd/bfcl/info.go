package main

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/bfcl-go/bfcl/internal/benchmark/category"
	"github.com/bfcl-go/bfcl/internal/benchmark/datafetch"
	"github.com/bfcl-go/bfcl/internal/benchmark/dataset"
	"github.com/bfcl-go/bfcl/internal/config"
	"github.com/bfcl-go/bfcl/internal/config/corrections"
	"github.com/bfcl-go/bfcl/internal/models/prompt"
	"github.com/bfcl-go/bfcl/internal/scores/evaluate"
	"github.com/bfcl-go/bfcl/internal/scores/report"
	"github.com/bfcl-go/bfcl/internal/store/results"
	"github.com/bfcl-go/bfcl/internal/store/runmeta"
)

// cmdTestCategories lists categories and groups; with a data set at hand
// (BFCL_DATA_DIR or --data-dir) the entry counts are the loader's, checked
// against the pinned data set's.
func cmdTestCategories(args []string) error {
	fs := flag.NewFlagSet("test-categories", flag.ContinueOnError)
	f := register(fs, "test-categories")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	rc, err := f.Resolve(config.WorkingDir)
	if err != nil {
		return err
	}
	src, srcErr := rc.Source()
	tw := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "CATEGORY\tGROUP\tLANGUAGE\tENTRIES")
	total, mismatch := 0, 0
	for _, c := range category.All() {
		n := c.EntryCount()
		note := ""
		if srcErr == nil {
			entries, err := prompt.LoadCategory(src, c)
			if err != nil {
				return err
			}
			if len(entries) != n {
				note = fmt.Sprintf("  (the pinned data set has %d)", n)
				mismatch++
			}
			n = len(entries)
		}
		if !c.IsFormatSensitivity() {
			total += n
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%d%s\n", c, c.SpecLabel(), c.Language(), n, note)
	}
	tw.Flush()
	if srcErr == nil {
		fmt.Printf("\n%d scored entries loaded from %s\n", total, src.DataDir)
	} else {
		fmt.Printf("\n%d scored entries in the pinned data set (no data set loaded: %v)\n", total, srcErr)
	}
	fmt.Println("\nGROUPS (accepted by --test-category, like categories; comma-separated lists mix both):")
	for _, g := range category.Collections() {
		ms, _ := category.Members(g)
		names := make([]string, len(ms))
		for i, m := range ms {
			names[i] = string(m)
		}
		fmt.Printf("  %-12s %s\n", g, strings.Join(names, ", "))
	}
	if mismatch > 0 {
		return fmt.Errorf("%d categories differ from the pinned data set", mismatch)
	}
	return nil
}

func cmdModels(args []string) error {
	fs := flag.NewFlagSet("models", flag.ContinueOnError)
	f := register(fs, "models")
	listUpstream := upstreamModelsFlag(fs) // --upstream (cmd/bfcl/upstream.go)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if done, err := listUpstream(); done {
		return err
	}
	rc, err := f.Resolve(config.WorkingDir)
	if err != nil {
		return err
	}
	tw := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tPROVIDER\tMODEL\tMODE\tBASE URL")
	for _, m := range rc.Registry.Models {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", m.Name, m.Provider, m.Model, m.Mode, m.BaseURL)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if rc.ModelsFile == "" {
		fmt.Fprintln(os.Stderr, "no models.yaml found (./models.yaml, the module root, $BFCL_MODELS_FILE): only the built-in gold model")
	} else {
		fmt.Fprintf(os.Stderr, "registry: %s\n", rc.ModelsFile)
	}
	return nil
}

// cmdResults lists the model folders of a result root, as upstream's
// `bfcl results` does, with their categories and entry counts.
func cmdResults(args []string) error {
	fs := flag.NewFlagSet("results", flag.ContinueOnError)
	f := register(fs, "results")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	rc, err := f.Resolve(config.WorkingDir)
	if err != nil {
		return err
	}
	folders, err := results.Folders(rc.ResultDir)
	if err != nil {
		return err
	}
	if len(folders) == 0 {
		return fmt.Errorf("no result folders under %s", rc.ResultDir)
	}
	tw := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "MODEL\tCATEGORIES\tENTRIES\tMODIFIED")
	for _, fo := range folders {
		fmt.Fprintf(tw, "%s\t%d\t%d\t%s\n", fo.Model, len(fo.Categories), fo.Entries, fo.Modified.UTC().Format("2006-01-02 15:04:05"))
	}
	return tw.Flush()
}

// cmdVersion prints this build's version and the pinned upstream commit
// whose behaviour it reproduces.
func cmdVersion(args []string) error {
	fs := flag.NewFlagSet("version", flag.ContinueOnError)
	f := register(fs, "version")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	corr, err := f.Corrections()
	if err != nil {
		return err
	}
	v := runmeta.Version()
	fmt.Printf("bfcl-go %s\nBFCL v4, upstream gorilla@%s (the behaviour scores are checked against)\n", v, dataset.UpstreamCommit)
	if corr.Empty() {
		fmt.Println("corrections on: none (upstream's pinned behaviour, the official scores)")
	} else {
		fmt.Printf("corrections on: %s (NOT the official scores)\n", strings.Join(corr.List(), ", "))
	}
	fmt.Println("opt-in corrections (--correction NAME[,NAME], BFCL_CORRECTIONS):")
	for _, c := range corrections.All {
		prs := make([]string, len(c.PRs))
		for i, n := range c.PRs {
			prs[i] = "#" + strconv.Itoa(n)
		}
		fmt.Printf("  %-24s %s (gorilla %s)\n", c.ID, c.Summary, strings.Join(prs, ", "))
	}
	return nil
}

func cmdData(args []string) error {
	fs := flag.NewFlagSet("data", flag.ContinueOnError)
	def, _ := dataset.DefaultCacheDir()
	dir := fs.String("dir", def, "destination folder (holds data/ and long_context.py)")
	base := fs.String("base-url", datafetch.DefaultBaseURL, "where the upstream repository's files are served")
	verify := fs.Bool("verify", false, "only verify an existing copy")
	printDir := fs.Bool("print-dir", false, "print the default cache folder and exit")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *printDir {
		fmt.Println(def)
		return nil
	}
	if *verify {
		bad, err := datafetch.Verify(*dir)
		if err != nil {
			return err
		}
		if len(bad) > 0 {
			names := make([]string, len(bad))
			for i, f := range bad {
				names[i] = f.Path
			}
			return fmt.Errorf("%d files missing or different in %s: %s", len(bad), *dir, strings.Join(names, ", "))
		}
		fmt.Printf("%s: complete and verified\n", *dir)
		return nil
	}
	ctx, stop := interruptible()
	defer stop()
	if err := datafetch.Fetch(ctx, *dir, datafetch.Options{BaseURL: *base, Log: os.Stderr}); err != nil {
		return err
	}
	fmt.Printf("export %s=%s\n", dataset.EnvDataDir, *dir)
	return nil
}

func cmdScores(args []string) error {
	fs := flag.NewFlagSet("scores", flag.ContinueOnError)
	f := register(fs, "scores")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	rc, err := f.Resolve(config.WorkingDir)
	if err != nil {
		return err
	}
	all, err := report.ReadScoreDir(rc.ScoreDir)
	if err != nil {
		return err
	}
	if len(all) == 0 {
		return errors.New("no score files under " + rc.ScoreDir)
	}
	rows, err := evaluate.Rows(rc.ScoreDir, nil, rc.Registry)
	if err != nil {
		return err
	}
	if err := report.WriteTable(os.Stdout, rows); err != nil {
		return err
	}
	return printRepeats(rc.ScoreDir)
}

// printRepeats prints the run-to-run summary (bfcl repeats) when the score
// root has repeats beside it (<score-dir>_repeat_2, ...).
func printRepeats(scoreDir string) error {
	r2, err := results.RepeatRoot(scoreDir, 2)
	if err != nil {
		return err
	}
	if st, err := os.Stat(r2); err != nil || !st.IsDir() {
		return nil
	}
	fmt.Println()
	return cmdRepeats([]string{"--score-dir", scoreDir})
}
