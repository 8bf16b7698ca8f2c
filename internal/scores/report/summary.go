package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/bfcl-go/bfcl/internal/benchmark/category"
	"github.com/bfcl-go/bfcl/internal/store/jsonscan"
	"github.com/bfcl-go/bfcl/internal/store/results"
)

// OverallWeights are upstream's weights of the overall accuracy
// (eval_runner_helper.generate_leaderboard_csv, calculate_percentage_weighted_accuracy):
// non-live AST, live AST, irrelevance, multi-turn, agentic.
func OverallWeights() [5]float64 { return [5]float64{10, 10, 10, 30, 40} }

// Upstream's pricing constants for locally hosted models
// (constants/eval_config.py): 8x H100 per hour, and the divisor for the
// concurrent requests of the local server.
const (
	H100x8PricePerHour              = 23.92
	LocalServerMaxConcurrentRequest = 100
)

// ModelInfo is what upstream reads from MODEL_CONFIG_MAPPING for the
// leaderboard rows.
type ModelInfo struct {
	Name        string   // directory name under result/ and score/, e.g. "openai_gpt-oss-120b"
	DisplayName string   // e.g. "openai/gpt-oss-120b (FC) (vLLM)"
	URL         string   // "Model Link"
	Org         string   // "Organization"
	License     string   // "License"
	InputPrice  *float64 // USD per million input tokens; nil for locally hosted models
	OutputPrice *float64 // USD per million output tokens; nil for locally hosted models
	// Notes are facts about the run that the leaderboard CSVs have no column
	// for (e.g. which embedding model served memory_vector); they appear in
	// summary.json.
	Notes map[string]string
	// Corrections are the opt-in corrections of upstream defects the
	// results were made with (internal/config/corrections); none for the
	// official behaviour. Shown beside the scores in the table, summary.json
	// and the HTML report.
	Corrections []string
}

// Usage is the cost/latency/token data of the result entries evaluated in a
// run (upstream's record_cost_latency): only non-zero numbers are kept.
type Usage struct {
	InputTokens  []float64
	OutputTokens []float64
	Latencies    []float64 // seconds
}

// Add appends o's data.
func (u *Usage) Add(o Usage) {
	u.InputTokens = append(u.InputTokens, o.InputTokens...)
	u.OutputTokens = append(u.OutputTokens, o.OutputTokens...)
	u.Latencies = append(u.Latencies, o.Latencies...)
}

// AddResultLine records one result-file line as upstream's
// record_cost_latency does for "latency", "input_token_count" and
// "output_token_count": a list of lists (multi-turn: per turn, per step) is
// flattened and its non-zero numbers kept; a single non-zero number is kept;
// anything else (absent, a flat list, a string) adds nothing. true counts as
// 1, as Python's isinstance(True, int) does.
//
// Only those three members are decoded (the line is split with
// internal/store/jsonscan; the rest, inference logs included, is skipped).
func (u *Usage) AddResultLine(line []byte) error {
	var lat, in, out []byte
	err := jsonscan.ObjectMembers(line, func(key, val []byte) {
		switch string(key) {
		case `"latency"`:
			lat = val
		case `"input_token_count"`:
			in = val
		case `"output_token_count"`:
			out = val
		}
	})
	if err != nil {
		return fmt.Errorf("report: result line is not a JSON object: %w", err)
	}
	return u.addUsage(lat, in, out)
}

// AddRecord is AddResultLine of a record read with results.ReadAll, whose
// members are already split out (the line is not scanned again).
func (u *Usage) AddRecord(r results.Record) error {
	return u.addUsage(r.Latency, r.InputTokenCount, r.OutputTokenCount)
}

// addUsage decodes the raw "latency", "input_token_count" and
// "output_token_count" members (nil: absent) as AddResultLine does.
func (u *Usage) addUsage(lat, in, out []byte) error {
	for _, f := range []struct {
		raw []byte
		dst *[]float64
	}{{lat, &u.Latencies}, {in, &u.InputTokens}, {out, &u.OutputTokens}} {
		if f.raw == nil {
			continue
		}
		if x, ok := plainNumber(f.raw); ok {
			// the common case, one number: what decoding it as a
			// json.Number and usageNumber make of it
			if x != 0 {
				*f.dst = append(*f.dst, x)
			}
			continue
		}
		if xs, ok := plainNumberLists(f.raw); ok {
			// the multi-turn case, a list of per-turn lists of numbers
			for _, x := range xs {
				if x != 0 {
					*f.dst = append(*f.dst, x)
				}
			}
			continue
		}
		dec := json.NewDecoder(bytes.NewReader(f.raw))
		dec.UseNumber()
		var v any
		if err := dec.Decode(&v); err != nil {
			return fmt.Errorf("report: result line is not a JSON object: %w", err)
		}
		*f.dst = appendUsage(*f.dst, v)
	}
	return nil
}

// plainNumberLists reads b when it is a JSON array of arrays whose every
// element plainNumber reads, and returns those numbers in order; ok is
// false for anything else, which the decoder then reads. It scans b once
// without allocating per element.
func plainNumberLists(b []byte) ([]float64, bool) {
	ws := func(i int) int {
		for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
			i++
		}
		return i
	}
	i := ws(0)
	if i >= len(b) || b[i] != '[' {
		return nil, false
	}
	var xs []float64
	i = ws(i + 1)
	if i < len(b) && b[i] == ']' {
		return xs, ws(i+1) == len(b)
	}
	for {
		if i >= len(b) || b[i] != '[' {
			return nil, false
		}
		i = ws(i + 1)
		if i < len(b) && b[i] == ']' {
			i++
		} else {
			for {
				j := i
				for j < len(b) && b[j] != ',' && b[j] != ']' && b[j] != ' ' && b[j] != '\t' && b[j] != '\n' && b[j] != '\r' {
					j++
				}
				x, ok := plainNumber(b[i:j])
				if !ok {
					return nil, false
				}
				xs = append(xs, x)
				i = ws(j)
				if i >= len(b) {
					return nil, false
				}
				if b[i] == ']' {
					i++
					break
				}
				if b[i] != ',' {
					return nil, false
				}
				i = ws(i + 1)
			}
		}
		i = ws(i)
		if i >= len(b) {
			return nil, false
		}
		if b[i] == ']' {
			return xs, ws(i+1) == len(b)
		}
		if b[i] != ',' {
			return nil, false
		}
		i = ws(i + 1)
	}
}

// plainNumber reads b when it is exactly one JSON number literal
// (-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?) that parses as a finite
// float64; ok is false for anything else, which the decoder then reads.
func plainNumber(b []byte) (float64, bool) {
	if end, ok := jsonscan.Number(b, 0); !ok || end != len(b) {
		return 0, false
	}
	f, err := strconv.ParseFloat(string(b), 64)
	if err != nil {
		return 0, false
	}
	return f, true
}

func usageNumber(v any) (float64, bool) {
	switch x := v.(type) {
	case json.Number:
		f, err := x.Float64()
		return f, err == nil && f != 0
	case float64:
		return x, x != 0
	case bool:
		return 1, x
	}
	return 0, false
}

func appendUsage(dst []float64, v any) []float64 {
	if list, ok := v.([]any); ok {
		for _, inner := range list {
			if _, ok := inner.([]any); !ok {
				return dst
			}
		}
		for _, inner := range list {
			for _, x := range inner.([]any) {
				if f, ok := usageNumber(x); ok {
					dst = append(dst, f)
				}
			}
		}
		return dst
	}
	if f, ok := usageNumber(v); ok {
		dst = append(dst, f)
	}
	return dst
}

// Num is a number cell that may be "N/A".
type Num struct {
	V  float64
	OK bool // false: N/A
}

func (n Num) String() string {
	if !n.OK {
		return "N/A"
	}
	return pyFloatRepr(n.V)
}

// CostLatency are the four cost/latency columns of data_overall.csv
// (eval_runner_helper.get_cost_latency_info), already rounded to 2 decimals.
type CostLatency struct {
	Cost        Num // USD
	LatencyMean Num // seconds
	LatencyStd  Num
	LatencyP95  Num
}

// ComputeCostLatency follows get_cost_latency_info: for a priced (API) model
// the token cost when both token lists are non-empty; for an unpriced (local)
// model the GPU cost sum(latency)/3600 * 23.92 / 100; for every model the
// latency mean, sample standard deviation and numpy 95th percentile. Sums
// use CPython 3.12's compensated float sum, mean and stdev are exact then
// correctly rounded (statistics module), p95 is numpy's linear percentile
// rounded with numpy's rounding. With a single latency upstream's stdev
// raises; here the standard deviation is then N/A.
func ComputeCostLatency(m ModelInfo, u Usage) CostLatency {
	var cl CostLatency
	if m.InputPrice != nil && m.OutputPrice != nil {
		if len(u.InputTokens) > 0 && len(u.OutputTokens) > 0 {
			in := pySum(u.InputTokens)
			out := pySum(u.OutputTokens)
			cost := float64(float64(float64(in**m.InputPrice)/1000000) + float64(float64(out**m.OutputPrice)/1000000))
			cl.Cost = Num{pyRound(cost, 2), true}
		}
	} else if len(u.Latencies) > 0 {
		hours := float64(pySum(u.Latencies) / 3600)
		cost := float64(float64(hours*H100x8PricePerHour) / LocalServerMaxConcurrentRequest)
		cl.Cost = Num{pyRound(cost, 2), true}
	}
	if len(u.Latencies) > 0 {
		if mean, err := pyMean(u.Latencies); err == nil {
			cl.LatencyMean = Num{pyRound(mean, 2), true}
		}
		if std, err := pyStdev(u.Latencies); err == nil {
			cl.LatencyStd = Num{pyRound(std, 2), true}
		}
		cl.LatencyP95 = Num{npRound(npPercentile(u.Latencies, 95), 2), true}
	}
	return cl
}

// Acc is one accuracy cell of the leaderboard: the value used in
// computations, the entry count behind it and whether it is displayed as
// "N/A" (a category that was not evaluated counts as accuracy 0 with its
// dataset size, but shows N/A).
type Acc struct {
	Accuracy float64
	Total    int
	NA       bool
}

// Display is the CSV text: "N/A" or "{:.2f}%" of the accuracy.
func (a Acc) Display() string {
	if a.NA {
		return "N/A"
	}
	return pyPercent(a.Accuracy)
}

// weightedAcc is calculate_weighted_accuracy: sum(acc*count)/sum(count).
func weightedAcc(list []Acc, naIfMissing bool) Acc {
	total, sum, na := 0, 0.0, false
	for _, a := range list {
		na = na || a.NA
		total += a.Total
		sum += float64(a.Accuracy * float64(a.Total))
	}
	return Acc{Accuracy: sum / float64(total), Total: total, NA: na && naIfMissing}
}

// unweightedAcc is calculate_unweighted_accuracy: the plain mean.
func unweightedAcc(list []Acc, naIfMissing bool) Acc {
	total, sum, na := 0, 0.0, false
	for _, a := range list {
		na = na || a.NA
		total += a.Total
		sum += a.Accuracy
	}
	return Acc{Accuracy: sum / float64(len(list)), Total: total, NA: na && naIfMissing}
}

// percentageWeightedAcc is calculate_percentage_weighted_accuracy: weights
// normalised by their sum, then sum(acc*w).
func percentageWeightedAcc(list []Acc, weights []float64, naIfMissing bool) Acc {
	wsum := 0.0
	for _, w := range weights {
		wsum += w
	}
	total, sum, na := 0, 0.0, false
	for i, a := range list {
		na = na || a.NA
		total += a.Total
		sum += float64(a.Accuracy * float64(weights[i]/wsum))
	}
	return Acc{Accuracy: sum, Total: total, NA: na && naIfMissing}
}

// Row is one model's leaderboard line: every category cell and every group
// score of upstream's generate_leaderboard_csv.
type Row struct {
	Model  ModelInfo
	Cost   CostLatency
	Scores map[category.Category]CategoryScore // the evaluated categories
	Cat    map[category.Category]Acc           // every scoring category (missing ones: 0, dataset size, N/A)

	Groups

	FormatSensitivity *FormatSensitivityStats // nil when not evaluated

	// Intervals are our 95 % intervals of the accuracies (not upstream's);
	// nil unless AddIntervals computed them.
	Intervals *Intervals
}

// Groups are the group scores and the overall of upstream's
// generate_leaderboard_csv, computed from the category cells by GroupsOf.
type Groups struct {
	NonLiveSimple  Acc // unweighted mean of simple_python, simple_java, simple_javascript
	NonLiveAST     Acc // "AST Summary" / "Non-Live AST Acc": unweighted mean of simple, multiple, parallel, parallel_multiple
	NonLiveOverall Acc // the same value, never N/A ("Non-Live Overall Acc"; the overall's first component)
	LiveAST        Acc // "AST Summary" of data_live: entry-weighted mean of the four live AST categories
	LiveOverall    Acc // the same value, never N/A ("Live Overall Acc", "Live Acc")
	MultiTurn      Acc // unweighted mean of the four multi-turn categories, never N/A
	WebSearch      Acc // unweighted mean of web_search_base, web_search_no_snippet
	Memory         Acc // unweighted mean of memory_kv, memory_vector, memory_rec_sum
	Agentic        Acc // unweighted mean of WebSearch and Memory, never N/A
	Irrelevance    Acc // unweighted mean of irrelevance and live_irrelevance
	Relevance      Acc // live_relevance
	Overall        Acc // 10% non-live + 10% live + 10% irrelevance + 30% multi-turn + 40% agentic, never N/A
}

// Summarize builds a model's leaderboard row from its category scores (at
// most one per category; format_sensitivity included when evaluated) and the
// usage data of this run.
func Summarize(m ModelInfo, scores []CategoryScore, usage Usage) (Row, error) {
	r := Row{Model: m, Cost: ComputeCostLatency(m, usage),
		Scores: map[category.Category]CategoryScore{}, Cat: map[category.Category]Acc{}}
	for _, s := range scores {
		if !s.Category.Valid() {
			return Row{}, fmt.Errorf("report: model %s: unknown category %q", m.Name, s.Category)
		}
		if _, dup := r.Scores[s.Category]; dup {
			return Row{}, fmt.Errorf("report: model %s: two scores for category %s", m.Name, s.Category)
		}
		if s.Total <= 0 {
			return Row{}, fmt.Errorf("report: model %s: category %s has no entries", m.Name, s.Category)
		}
		r.Scores[s.Category] = s
	}
	// get_category_score
	for _, c := range category.Scoring() {
		if s, ok := r.Scores[c]; ok {
			r.Cat[c] = Acc{Accuracy: s.Accuracy, Total: s.Total}
		} else {
			r.Cat[c] = Acc{Accuracy: 0, Total: c.EntryCount(), NA: true}
		}
	}
	if s, ok := r.Scores[category.FormatSensitivity]; ok {
		r.FormatSensitivity = s.FormatSensitivity
	}
	r.Groups = GroupsOf(r.Cat)
	return r, nil
}

// GroupsOf computes upstream's group scores and overall from the cell of
// every scoring category (a category that was not evaluated: accuracy 0,
// its data-set size, N/A). It is the one home of these formulas: Summarize
// uses it for the official numbers and the bootstrap for resampled ones.
func GroupsOf(c map[category.Category]Acc) Groups {
	var g Groups
	g.NonLiveSimple = unweightedAcc([]Acc{c[category.SimplePython], c[category.SimpleJava], c[category.SimpleJavaScript]}, true)
	nl := []Acc{g.NonLiveSimple, c[category.Multiple], c[category.Parallel], c[category.ParallelMultiple]}
	g.NonLiveAST = unweightedAcc(nl, true)
	g.NonLiveOverall = unweightedAcc(nl, false)
	live := []Acc{c[category.LiveSimple], c[category.LiveMultiple], c[category.LiveParallel], c[category.LiveParallelMultiple]}
	g.LiveAST = weightedAcc(live, true)
	g.LiveOverall = weightedAcc(live, false)
	g.MultiTurn = unweightedAcc([]Acc{c[category.MultiTurnBase], c[category.MultiTurnMissFunc],
		c[category.MultiTurnMissParam], c[category.MultiTurnLongContext]}, false)
	g.WebSearch = unweightedAcc([]Acc{c[category.WebSearchBase], c[category.WebSearchNoSnippet]}, true)
	g.Memory = unweightedAcc([]Acc{c[category.MemoryKV], c[category.MemoryVector], c[category.MemoryRecSum]}, true)
	g.Agentic = unweightedAcc([]Acc{g.WebSearch, g.Memory}, false)
	g.Irrelevance = unweightedAcc([]Acc{c[category.Irrelevance], c[category.LiveIrrelevance]}, true)
	g.Relevance = c[category.LiveRelevance]
	w := OverallWeights()
	g.Overall = percentageWeightedAcc([]Acc{g.NonLiveOverall, g.LiveOverall, g.Irrelevance, g.MultiTurn, g.Agentic}, w[:], false)
	return g
}
