package openai_test

import (
	"github.com/bfcl-go/bfcl/internal/models/decode"
	"github.com/bfcl-go/bfcl/internal/models/driver/core"
	"github.com/bfcl-go/bfcl/internal/models/driver/drivertest"
	. "github.com/onsi/ginkgo/v2"
)

// The OpenAI-compatible subclasses whose FC methods change the request and
// the history (api_inference/fireworks.py, nanbeige.py, nemotron.py:
// multi_turn_miss_func_100's system prompt keeps the entry's first
// functions after the held-out one is added) and DMCitoHandler's prompting
// methods (dm_cito.py, MiningHandler's in mining.py), against what
// upstream's classes sent on real entries.
var _ = Describe("OpenAI-compatible subclasses", func() {
	for _, c := range []struct{ class, base, model, mode string }{
		{"FireworksHandler", "https://api.fireworks.ai/inference/v1", "accounts/fireworks/models/firefunction-v2", "fc"},
		{"NanbeigeAPIHandler", "https://nanbeige.zhipin.com/api/gpt/open/chat/openai/v1", "Nanbeige3.5-Pro-Thinking", "fc"},
		{"NemotronHandler", "https://integrate.api.nvidia.com/v1", "nvidia/llama-3.1-nemotron-ultra-253b-v1", "fc"},
		// MINING_BASE_URL=https://mining.example/v1; FC: the base class's methods
		{"MiningHandler", "https://mining.example/v1", "xiaoming-14B", "fc"},
		// DMCITO_BASE_URL=https://dmcito.example/v1; prompt mode:
		// MiningHandler's system prompt and <tool_calls> parser (answers
		// with and without the block, a dict, a number; a miss_func entry)
		{"DMCitoHandler", "https://dmcito.example/v1", "DM-Cito-8B-v3", "prompt"},
	} {
		drivertest.DescribeUpstreamRun(c.class, c.base, decode.Spec{Mode: c.mode, Handler: c.class}, func(url string) core.Driver {
			key := map[string]string{"FireworksHandler": "fk", "NanbeigeAPIHandler": "nk", "NemotronHandler": "vk", "MiningHandler": "mk", "DMCitoHandler": "dk"}[c.class]
			return drivertest.NewDriver(core.Config{Provider: core.ProviderOpenAI, Handler: c.class, Model: c.model, BaseURL: url, APIKey: key, Mode: c.mode})
		})
	}
})
