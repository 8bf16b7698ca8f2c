package main

import (
	"flag"
	"fmt"
	"os"
	"strings"

	"github.com/bfcl-go/bfcl/internal/benchmark/category"
	"github.com/bfcl-go/bfcl/internal/config"
	"github.com/bfcl-go/bfcl/internal/run/merge"
)

func cmdMerge(args []string) error {
	fs := flag.NewFlagSet("merge", flag.ContinueOnError)
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), `usage: bfcl merge [flags] OUT DIR...

Combines the result roots of the shards of one run (bfcl generate --shard K/N
--result-dir DIR) into the result root OUT, which bfcl evaluate then scores.
The same result for one entry in several folders is kept once (merging again
is a no-op); two different results for one entry are refused and nothing is
written. Entries of the data set that no folder has are listed; with --ids or
--run-ids (the run's selection) only those entries are expected.

flags:
`)
		fs.PrintDefaults()
	}
	f := register(fs, "merge")
	allowMissing := fs.Bool("allow-missing", false, "exit 0 even when entries are missing (a run of a subset)")
	if err := parseWithArgs(fs, args); err != nil {
		return err
	}
	if fs.NArg() < 2 {
		fs.Usage()
		return fmt.Errorf("%w: merge: want OUT and at least one shard folder", errUsage)
	}
	opts := merge.Options{Out: fs.Arg(0), Dirs: fs.Args()[1:]}
	if cats := f.List(config.TestCategory); len(cats) > 0 {
		cs, err := category.ExpandList(cats)
		if err != nil {
			return err
		}
		opts.Categories = cs
	}
	rc, err := f.Resolve(config.WorkingDir)
	if err != nil {
		return err
	}
	src, err := rc.Source()
	if err != nil {
		if rc.DataDir != "" {
			return err
		}
		fmt.Fprintf(os.Stderr, "bfcl merge: no data set (%v): missing entries are not listed\n", err)
	} else {
		opts.Source = src
		// a run of selected ids expects those entries only
		sp := f.Selection(config.WorkingDir, "all")
		if len(sp.IDs) > 0 || sp.RunIDs != "" {
			sel, err := sp.Resolve(src)
			if err != nil {
				return err
			}
			opts.Categories, opts.IDs = sel.Categories, sel.ByID
		}
	}
	rep, err := merge.Run(opts)
	if err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "merged %d folders into %s: %d files, %d result records\n", len(opts.Dirs), opts.Out, rep.Files, rep.Records)
	for _, u := range rep.Unknown {
		fmt.Fprintf(os.Stderr, "not in the data set: %s\n", u)
	}
	for _, m := range rep.Missing {
		ids := m.IDs
		more := ""
		if len(ids) > 10 {
			ids, more = ids[:10], fmt.Sprintf(" and %d more", len(m.IDs)-10)
		}
		fmt.Fprintf(os.Stderr, "missing %s/%s: %d of %d entries: %s%s\n", m.Model, m.Category, len(m.IDs), m.Want, strings.Join(ids, ", "), more)
	}
	if n := rep.MissingCount(); n > 0 && !*allowMissing {
		return fmt.Errorf("merge: %d entries are missing (listed above); %s is written: rerun the shards that lack them and merge again, or pass --allow-missing", n, opts.Out)
	}
	return nil
}
