package main

import (
	"flag"

	"github.com/bfcl-go/bfcl/internal/config"
)

// verbOrder is the order verbs are named in the README's settings table.
var verbOrder = []string{"generate", "evaluate", "compare", "merge", "report", "turns", "scores", "repeats",
	"results", "models", "test-categories", "exec", "embed", "version"}

// verbSettings are the settings (flag and environment variable) each verb
// takes: the one list its flag set is built from, and the one the README's
// settings table is checked against (settings_test.go).
var verbSettings = map[string][]*config.Setting{
	"generate": {
		config.Model, config.TestCategory, config.IDs, config.RunIDs, config.ModelsFile, config.DataDir,
		config.ResultDir, config.ScoreDir, config.Rerun, config.Temperature, config.Concurrency,
		config.IncludeInputLog, config.ExcludeStateLog, config.RequestCache,
		config.Embedder, config.EmbedModelDir, config.EmbedURL, config.EmbedModel, config.WebSearch, config.WebSearchAllowPrivate, config.SkipUnavailable,
		config.Shard, config.Repeats, config.TurnIsolated, config.Mode, config.UnderscoreToDot, config.Correction,
		config.Backend, config.SkipServerSetup, config.LocalModelPath, config.LoraModules,
	},
	"evaluate": {
		config.Model, config.TestCategory, config.ResultDir, config.ScoreDir, config.DataDir, config.ModelsFile,
		config.Mode, config.UnderscoreToDot, config.PartialEval, config.StrictIrrelevance,
		config.Handler, config.UpstreamAlias, // cmd/bfcl/upstream.go
		config.Correction, // marks the folders: their results were made with these corrections
	},
	"compare": {
		config.ScoreDir, config.TestCategory, config.DataDir, config.ModelsFile, config.Mode, config.UnderscoreToDot,
	},
	"merge":           {config.TestCategory, config.IDs, config.RunIDs, config.DataDir},
	"report":          {config.ScoreDir, config.ResultDir, config.DataDir},
	"turns":           {config.ScoreDir, config.ResultDir, config.DataDir, config.Mode, config.UnderscoreToDot},
	"scores":          {config.ScoreDir, config.ModelsFile},
	"repeats":         {config.ScoreDir},
	"results":         {config.ResultDir},
	"models":          {config.ModelsFile},
	"test-categories": {config.DataDir},
	"exec":            {config.DataDir},
	"embed":           {config.EmbedModelDir},
	"version":         {config.Correction},
}

// newVerb is a verb's flag set with the settings it takes (verbSettings)
// registered; the verb adds flags of its own to fs before parsing.
func newVerb(verb string) (*flag.FlagSet, *config.Flags) {
	s, ok := verbSettings[verb]
	if !ok {
		panic("settings: no verb " + verb)
	}
	fs := flag.NewFlagSet(verb, flag.ContinueOnError)
	return fs, config.Register(fs, "", s...)
}
