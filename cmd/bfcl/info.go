package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"text/tabwriter"

	"github.com/bfcl-go/bfcl/internal/category"
	"github.com/bfcl-go/bfcl/internal/datafetch"
	"github.com/bfcl-go/bfcl/internal/dataset"
	"github.com/bfcl-go/bfcl/internal/models"
	"github.com/bfcl-go/bfcl/internal/prompt"
	"github.com/bfcl-go/bfcl/internal/report"
)

// cmdTestCategories lists categories and groups; with a data set at hand
// (BFCL_DATA_DIR or --data-dir) the entry counts are the loader's, checked
// against the pinned data set's.
func cmdTestCategories(args []string) error {
	fs := flag.NewFlagSet("test-categories", flag.ExitOnError)
	dataDir := fs.String("data-dir", "", "BFCL data directory (default $BFCL_DATA_DIR)")
	fs.Parse(args)
	src, srcErr := openData(*dataDir)
	tw := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "CATEGORY\tGROUP\tLANGUAGE\tENTRIES")
	total, mismatch := 0, 0
	for _, c := range category.All() {
		n := c.EntryCount()
		note := ""
		if srcErr == nil {
			entries, err := prompt.LoadCategory(src, string(c))
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

// loadRegistry reads --models-file, $BFCL_MODELS_FILE or ./models.yaml.
func loadRegistry(path string) (*models.Registry, error) {
	if path == "" {
		path = os.Getenv(models.EnvModelsFile)
	}
	if path == "" {
		path = "models.yaml"
	}
	return models.Load(path)
}

func cmdModels(args []string) error {
	fs := flag.NewFlagSet("models", flag.ExitOnError)
	file := fs.String("models-file", "", "registry file (default $BFCL_MODELS_FILE or ./models.yaml)")
	listUpstream := upstreamModelsFlag(fs) // --upstream (cmd/bfcl/upstream.go)
	fs.Parse(args)
	if done, err := listUpstream(); done {
		return err
	}
	reg, err := loadRegistry(*file)
	if err != nil {
		return err
	}
	tw := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tPROVIDER\tMODEL\tMODE\tBASE URL")
	for _, m := range reg.Models {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", m.Name, m.Provider, m.Model, m.Mode, m.BaseURL)
	}
	return tw.Flush()
}

func cmdData(args []string) error {
	fs := flag.NewFlagSet("data", flag.ExitOnError)
	def, _ := dataset.DefaultCacheDir()
	dir := fs.String("dir", def, "destination folder (holds data/ and long_context.py)")
	base := fs.String("base-url", datafetch.DefaultBaseURL, "where the upstream repository's files are served")
	verify := fs.Bool("verify", false, "only verify an existing copy")
	printDir := fs.Bool("print-dir", false, "print the default cache folder and exit")
	fs.Parse(args)
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
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := datafetch.Fetch(ctx, *dir, datafetch.Options{BaseURL: *base, Log: os.Stderr}); err != nil {
		return err
	}
	fmt.Printf("export %s=%s\n", dataset.EnvDataDir, *dir)
	return nil
}

func cmdScores(args []string) error {
	fs := flag.NewFlagSet("scores", flag.ExitOnError)
	scoreDir := fs.String("score-dir", "score", "score folder")
	fs.Parse(args)
	all, err := report.ReadScoreDir(*scoreDir)
	if err != nil {
		return err
	}
	if len(all) == 0 {
		return errors.New("no score files under " + *scoreDir)
	}
	rows, err := readRows(*scoreDir)
	if err != nil {
		return err
	}
	return report.WriteTable(os.Stdout, rows)
}
