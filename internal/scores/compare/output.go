package compare

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
)

func pts(x float64) string { return fmt.Sprintf("%.2f", 100*x) }

func signed(x float64) string { return fmt.Sprintf("%+.2f", 100*x) }

// WriteTable renders a two-run comparison for people: accuracies in %,
// delta = B - A in points, the paired bootstrap 95 % interval of the delta,
// the McNemar p-value and the discordant counts (the ids are in --json).
func WriteTable(w io.Writer, r *Result) error {
	fmt.Fprintf(w, "A: %s\nB: %s\n", r.A, r.B)
	if len(r.Skipped) > 0 {
		fmt.Fprintf(w, "not compared: %s\n", strings.Join(r.Skipped, ", "))
	}
	for _, n := range r.Notes {
		fmt.Fprintf(w, "note: %s\n", n)
	}
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "CATEGORY\tN\tA %%\tB %%\tDELTA\t95%% CI OF DELTA\tP (MCNEMAR)\tA ONLY\tB ONLY\tVERDICT\t\n")
	sep := false
	for _, row := range r.Rows {
		if row.Scope != "category" && !sep {
			fmt.Fprintf(tw, "\t\t\t\t\t\t\t\t\t\t\n")
			sep = true
		}
		p, aOnly, bOnly := "", "", ""
		if row.PValue != nil {
			p = formatP(*row.PValue)
		}
		if row.Scope == "category" {
			aOnly, bOnly = fmt.Sprint(len(row.AOnly)), fmt.Sprint(len(row.BOnly))
		}
		ci := ""
		if row.CI95 != nil {
			ci = fmt.Sprintf("[%s, %s]", signed(row.CI95[0]), signed(row.CI95[1]))
		}
		fmt.Fprintf(tw, "%s\t%d\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t\n", row.Category, row.N, pts(row.A), pts(row.B),
			signed(row.Delta), ci, p, aOnly, bOnly, row.Verdict)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	_, err := fmt.Fprintf(w, "\ndelta = B - A in points; categories: exact McNemar test on the entries only one side passes (p < %.2f);"+
		" groups and overall: paired stratified bootstrap, %d resamples, seed %d (interval excluding 0). Not corrected for multiple rows.\n",
		Alpha, r.Resamples, r.Seed)
	return err
}

func formatP(p float64) string {
	if p < 0.0001 {
		return fmt.Sprintf("%.1e", p)
	}
	return fmt.Sprintf("%.4f", p)
}

// WriteRanking renders a ranking for people.
func WriteRanking(w io.Writer, r *Ranking) error {
	if len(r.Skipped) > 0 {
		fmt.Fprintf(w, "not compared: %s\n", strings.Join(r.Skipped, ", "))
	}
	for _, n := range r.Notes {
		fmt.Fprintf(w, "note: %s\n", n)
	}
	if len(r.Skipped)+len(r.Notes) > 0 {
		fmt.Fprintln(w)
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "RANK\tRUN\tOVERALL %%\t95%% CI\tTIED WITH\n")
	for _, s := range r.Standings {
		tied := strings.Join(s.TiedWith, ", ")
		if tied == "" {
			tied = "-"
		}
		fmt.Fprintf(tw, "%d\t%s\t%s\t[%s, %s]\t%s\n", s.Rank, s.Label, pts(s.Overall), pts(s.CI95[0]), pts(s.CI95[1]), tied)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	_, err := fmt.Fprintf(w, "\noverall over the %d categories all runs evaluated; rank = 1 + runs significantly better"+
		" (paired stratified bootstrap of the difference, %d resamples, seed %d, 95 %% interval excluding 0).\n",
		len(r.Categories), r.Resamples, r.Seed)
	return err
}

// WriteRepeats renders a repeats summary for people (percentages and
// points).
func WriteRepeats(w io.Writer, s *RepeatSummary) error {
	fmt.Fprintf(w, "%d repeats: %s\n", s.K, strings.Join(s.Runs, ", "))
	if len(s.Skipped) > 0 {
		fmt.Fprintf(w, "not summarised (evaluated by some repeats only): %s\n", strings.Join(s.Skipped, ", "))
	}
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "CATEGORY\tN\tMEAN %%\tSTD\tPASS^%d %%\tPASS@%d %%\tFLIPPING\tNOISE FLOOR\t\n", s.K, s.K)
	for _, c := range s.Categories {
		fmt.Fprintf(tw, "%s\t%d\t%s\t%s\t%s\t%s\t%d\t%s\t\n", c.Category, c.N, pts(c.Mean), pts(c.Std), pts(c.PassHatK),
			pts(c.PassAtK), len(c.Flipping), pts(c.NoiseFloor))
	}
	fmt.Fprintf(tw, "\t\t\t\t\t\t\t\t\n")
	for _, g := range s.Groups {
		fmt.Fprintf(tw, "%s\t\t%s\t%s\t\t\t\t%s\t\n", g.Name, pts(g.Mean), pts(g.Std), pts(g.NoiseFloor))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	_, err := fmt.Fprintf(w, "\nSTD: sample standard deviation of the %d scores (points). NOISE FLOOR: two single runs closer than this"+
		" (points) are within run-to-run variation (95 %%; from the entries' pass rates across repeats). Flipping ids: --json.\n", s.K)
	return err
}
