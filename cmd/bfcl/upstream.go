package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/bfcl-go/bfcl/internal/decode"
	"github.com/bfcl-go/bfcl/internal/evaluate"
	"github.com/bfcl-go/bfcl/internal/upstream"
)

// upstreamEvaluateFlags declares evaluate's --handler and --alias flags on
// fs; the function it returns applies them, and $BFCL_UPSTREAM_ALIASES, to
// the evaluation options.
func upstreamEvaluateFlags(fs *flag.FlagSet) func(o *evaluate.Options) error {
	handler := fs.String("handler", "", "upstream handler class whose decoders read the results (e.g. QwenFCHandler; see `bfcl models --upstream`); default: the model's registry entry, else the default decoders of --mode")
	var aliases listFlag
	fs.Var(&aliases, "alias", "folder=registry-name: score a result folder with the configuration of an upstream registry entry (repeatable or comma-separated; also $"+upstream.EnvAliases+")")
	return func(o *evaluate.Options) error {
		if err := decode.CheckHandler(*handler); err != nil {
			return fmt.Errorf("--handler: %w", err)
		}
		o.Handler = *handler
		m, err := upstream.AliasesFromEnv(aliases...)
		if err != nil {
			return err
		}
		o.Aliases = m
		return nil
	}
}

// upstreamModelsFlag declares the models verb's --upstream flag; the
// function it returns prints upstream's registry table and reports true
// when the flag was given.
func upstreamModelsFlag(fs *flag.FlagSet) func() (bool, error) {
	list := fs.Bool("upstream", false, "list upstream's model registry (name, handler, mode, underscore_to_dot, decoding family, prices) instead of models.yaml")
	return func() (bool, error) {
		if !*list {
			return false, nil
		}
		return true, upstream.WriteTable(os.Stdout, upstream.All())
	}
}
