package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/bfcl-go/bfcl/internal/config"
	"github.com/bfcl-go/bfcl/internal/models/decode"
	"github.com/bfcl-go/bfcl/internal/models/upstream"
	"github.com/bfcl-go/bfcl/internal/scores/evaluate"
)

// applyUpstream hands evaluate's --handler and --alias settings (flags or
// $BFCL_HANDLER, $BFCL_UPSTREAM_ALIASES) to the evaluation options.
func applyUpstream(f *config.Flags, o *evaluate.Options) error {
	if v, src, ok := f.Lookup(config.Handler); ok {
		if err := decode.CheckHandler(v); err != nil {
			return fmt.Errorf("%w: %s: %v", errUsage, src, err)
		}
		o.Handler = v
	}
	if _, src, ok := f.Lookup(config.UpstreamAlias); ok {
		m, err := upstream.ParseAliases(f.List(config.UpstreamAlias)...)
		if err != nil {
			return fmt.Errorf("%w: %s: %v", errUsage, src, err)
		}
		o.Aliases = m
	}
	return nil
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
