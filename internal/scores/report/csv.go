package report

import (
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/bfcl-go/bfcl/internal/benchmark/category"
)

// Column headers, exactly as upstream's constants/column_headers.py.

// ColumnsNonLive is COLUMNS_NON_LIVE.
func ColumnsNonLive() []string {
	return []string{"Rank", "Model", "Non-Live Overall Acc", "AST Summary", "Simple AST", "Python Simple AST",
		"Java Simple AST", "JavaScript Simple AST", "Multiple AST", "Parallel AST", "Parallel Multiple AST",
		"Irrelevance Detection"}
}

// ColumnsLive is COLUMNS_LIVE.
func ColumnsLive() []string {
	return []string{"Rank", "Model", "Live Overall Acc", "AST Summary", "Python Simple AST", "Python Multiple AST",
		"Python Parallel AST", "Python Parallel Multiple AST", "Irrelevance Detection", "Relevance Detection"}
}

// ColumnsMultiTurn is COLUMNS_MULTI_TURN.
func ColumnsMultiTurn() []string {
	return []string{"Rank", "Model", "Multi Turn Overall Acc", "Base", "Miss Func", "Miss Param", "Long Context"}
}

// ColumnsAgentic is COLUMNS_AGENTIC.
func ColumnsAgentic() []string {
	return []string{"Rank", "Model", "Agentic Overall Acc", "Web Search Summary", "Web Search Base",
		"Web Search No Snippet", "Memory Summary", "Memory KV", "Memory Vector", "Memory Recursive Summarization"}
}

// ColumnsFormatSensitivity is COLUMNS_FORMAT_SENS_PREFIX followed by
// "Config <cfg>" for every format-sensitivity configuration.
func ColumnsFormatSensitivity() []string {
	out := []string{"Rank", "Model", "Format Sensitivity Max Delta", "Format Sensitivity Standard Deviation"}
	for _, cfg := range category.FormatSensitivityConfigs() {
		out = append(out, "Config "+cfg)
	}
	return out
}

// ColumnsOverall is COLUMNS_OVERALL.
func ColumnsOverall() []string {
	return []string{"Rank", "Overall Acc", "Model", "Model Link", "Total Cost ($)", "Latency Mean (s)",
		"Latency Standard Deviation (s)", "Latency 95th Percentile (s)", "Non-Live AST Acc", "Non-Live Simple AST",
		"Non-Live Multiple AST", "Non-Live Parallel AST", "Non-Live Parallel Multiple AST", "Live Acc",
		"Live Simple AST", "Live Multiple AST", "Live Parallel AST", "Live Parallel Multiple AST", "Multi Turn Acc",
		"Multi Turn Base", "Multi Turn Miss Func", "Multi Turn Miss Param", "Multi Turn Long Context",
		"Web Search Acc", "Web Search Base", "Web Search No Snippet", "Memory Acc", "Memory KV", "Memory Vector",
		"Memory Recursive Summarization", "Relevance Detection", "Irrelevance Detection",
		"Format Sensitivity Max Delta", "Format Sensitivity Standard Deviation", "Organization", "License"}
}

// cell is one value of upstream's row lists before write_score_csv_file
// formats it: a string, a number shown as a percentage, or a number shown
// with str().
type cell struct {
	text  string
	num   float64
	isNum bool
	plain bool // str() instead of percentage
}

func textCell(s string) cell { return cell{text: s} }

func accCell(a Acc) cell {
	if a.NA {
		return textCell("N/A")
	}
	return cell{num: a.Accuracy, isNum: true}
}

func numCell(n Num) cell {
	if !n.OK {
		return textCell("N/A")
	}
	return cell{num: n.V, isNum: true, plain: true}
}

func (c cell) sortKey() float64 {
	if c.isNum {
		return c.num
	}
	return -1 // "N/A" (upstream maps it to -1 so it sorts last)
}

func (c cell) format() string {
	switch {
	case !c.isNum:
		return c.text
	case c.plain:
		return pyFloatRepr(c.num)
	}
	return pyPercent(c.num)
}

// renderCSV is upstream's write_score_csv_file: rows sorted descending by
// the sort column (stable; N/A last), rank from 1, cells formatted, lines
// joined with "," (no quoting) and "\n", no newline after the last line.
func renderCSV(header []string, rows [][]cell, sortCol int) []byte {
	rows = append([][]cell(nil), rows...)
	sort.SliceStable(rows, func(i, j int) bool { return rows[i][sortCol].sortKey() > rows[j][sortCol].sortKey() })
	lines := []string{strings.Join(header, ",")}
	for i, r := range rows {
		out := make([]string, len(r))
		out[0] = strconv.Itoa(i + 1)
		for j := 1; j < len(r); j++ {
			out[j] = r[j].format()
		}
		lines = append(lines, strings.Join(out, ","))
	}
	return []byte(strings.Join(lines, "\n"))
}

func nonLiveCells(r Row) []cell {
	c := r.Cat
	return []cell{textCell("N/A"), textCell(r.Model.DisplayName),
		accCell(r.NonLiveOverall), accCell(r.NonLiveAST), accCell(r.NonLiveSimple),
		accCell(c[category.SimplePython]), accCell(c[category.SimpleJava]), accCell(c[category.SimpleJavaScript]),
		accCell(c[category.Multiple]), accCell(c[category.Parallel]), accCell(c[category.ParallelMultiple]),
		accCell(c[category.Irrelevance])}
}

func liveCells(r Row) []cell {
	c := r.Cat
	return []cell{textCell("N/A"), textCell(r.Model.DisplayName),
		accCell(r.LiveOverall), accCell(r.LiveAST),
		accCell(c[category.LiveSimple]), accCell(c[category.LiveMultiple]), accCell(c[category.LiveParallel]),
		accCell(c[category.LiveParallelMultiple]), accCell(c[category.LiveIrrelevance]), accCell(c[category.LiveRelevance])}
}

func multiTurnCells(r Row) []cell {
	c := r.Cat
	return []cell{textCell("N/A"), textCell(r.Model.DisplayName), accCell(r.MultiTurn),
		accCell(c[category.MultiTurnBase]), accCell(c[category.MultiTurnMissFunc]),
		accCell(c[category.MultiTurnMissParam]), accCell(c[category.MultiTurnLongContext])}
}

func agenticCells(r Row) []cell {
	c := r.Cat
	return []cell{textCell("N/A"), textCell(r.Model.DisplayName), accCell(r.Agentic),
		accCell(r.WebSearch), accCell(c[category.WebSearchBase]), accCell(c[category.WebSearchNoSnippet]),
		accCell(r.Memory), accCell(c[category.MemoryKV]), accCell(c[category.MemoryVector]), accCell(c[category.MemoryRecSum])}
}

func fsNums(r Row) (maxDelta, std Num) {
	if r.FormatSensitivity == nil {
		return Num{}, Num{}
	}
	return Num{r.FormatSensitivity.MaxDelta, true}, Num{r.FormatSensitivity.Std, true}
}

func formatSensitivityCells(r Row) []cell {
	md, sd := fsNums(r)
	out := []cell{textCell("N/A"), textCell(r.Model.DisplayName), numCell(md), numCell(sd)}
	for _, cfg := range category.FormatSensitivityConfigs() {
		if cs, ok := r.FormatSensitivity.Config(cfg); ok {
			out = append(out, cell{num: cs.Accuracy, isNum: true})
		} else {
			out = append(out, textCell("N/A"))
		}
	}
	return out
}

func overallCells(r Row) []cell {
	c := r.Cat
	md, sd := fsNums(r)
	return []cell{textCell("N/A"), accCell(r.Overall), textCell(r.Model.DisplayName), textCell(r.Model.URL),
		numCell(r.Cost.Cost), numCell(r.Cost.LatencyMean), numCell(r.Cost.LatencyStd), numCell(r.Cost.LatencyP95),
		accCell(r.NonLiveAST), accCell(r.NonLiveSimple), accCell(c[category.Multiple]), accCell(c[category.Parallel]),
		accCell(c[category.ParallelMultiple]),
		accCell(r.LiveOverall), accCell(c[category.LiveSimple]), accCell(c[category.LiveMultiple]),
		accCell(c[category.LiveParallel]), accCell(c[category.LiveParallelMultiple]),
		accCell(r.MultiTurn), accCell(c[category.MultiTurnBase]), accCell(c[category.MultiTurnMissFunc]),
		accCell(c[category.MultiTurnMissParam]), accCell(c[category.MultiTurnLongContext]),
		accCell(r.WebSearch), accCell(c[category.WebSearchBase]), accCell(c[category.WebSearchNoSnippet]),
		accCell(r.Memory), accCell(c[category.MemoryKV]), accCell(c[category.MemoryVector]), accCell(c[category.MemoryRecSum]),
		accCell(r.Relevance), accCell(r.Irrelevance),
		numCell(md), numCell(sd), textCell(r.Model.Org), textCell(r.Model.License)}
}

// CSV file names at the score root.
const (
	FileOverall           = "data_overall.csv"
	FileLive              = "data_live.csv"
	FileNonLive           = "data_non_live.csv"
	FileMultiTurn         = "data_multi_turn.csv"
	FileAgentic           = "data_agentic.csv"
	FileFormatSensitivity = "data_format_sensitivity.csv"
	FileSummaryJSON       = "summary.json"
)

// CSVFiles renders upstream's six leaderboard CSVs for the rows (in the
// order upstream would meet the models; ties keep that order), keyed by
// file name, byte for byte as write_score_csv_file writes them.
func CSVFiles(rows []Row) map[string][]byte {
	build := func(f func(Row) []cell) [][]cell {
		out := make([][]cell, len(rows))
		for i, r := range rows {
			out[i] = f(r)
		}
		return out
	}
	return map[string][]byte{
		FileNonLive:           renderCSV(ColumnsNonLive(), build(nonLiveCells), 2),
		FileLive:              renderCSV(ColumnsLive(), build(liveCells), 2),
		FileMultiTurn:         renderCSV(ColumnsMultiTurn(), build(multiTurnCells), 2),
		FileAgentic:           renderCSV(ColumnsAgentic(), build(agenticCells), 2),
		FileFormatSensitivity: renderCSV(ColumnsFormatSensitivity(), build(formatSensitivityCells), 2),
		FileOverall:           renderCSV(ColumnsOverall(), build(overallCells), 1),
	}
}

// WriteCSVs writes the six CSVs into scoreRoot (atomically, file by file).
func WriteCSVs(scoreRoot string, rows []Row) error {
	files := CSVFiles(rows)
	for _, name := range []string{FileNonLive, FileLive, FileMultiTurn, FileAgentic, FileFormatSensitivity, FileOverall} {
		if err := WriteFileAtomic(filepath.Join(scoreRoot, name), files[name]); err != nil {
			return err
		}
	}
	return nil
}
