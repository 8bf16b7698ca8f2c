// Package writer drives Writer's chat API (POST <base>/v1/chat) over
// net/http, the way upstream's WriterHandler does
// (bfcl_eval/model_handler/api_inference/writer.py at the pin): the handler
// calls the Writer Python SDK's client.chat.chat (package writer-sdk,
// module writerai; 2.4.0 was current at the pinned commit), which posts
// messages, model and temperature, and with tools tool_choice "auto" and
// the tools, as JSON with a bearer key. No official Go SDK exists, so the
// REST call is made here.
//
// The SDK's client reads WRITER_BASE_URL (default https://api.writer.com)
// and the handler passes WRITER_API_KEY, without which the SDK refuses to
// build the client: a run without the key fails at once, naming it.
//
// Tools are convert_to_tool's ModelStyle.WRITER: function names keep their
// dots, unsupported schema fields and every enum are folded into the
// descriptions, the response schema too (core.ConvertFunctions, provider
// writer). Everything else is OpenAICompletionsHandler's, which
// WriterHandler extends: the answer is read as a chat completion, the
// assistant message goes back into the history as the server returned it,
// tool results carry tool_call_id (openai.ParseChat, openai.AppendMessages).
//
// WriterHandler has FC methods only: its prompt mode would call
// client.chat.completions, which the Writer SDK has not, so upstream cannot
// run it, and New refuses it.
package writer

import (
	"context"
	"fmt"
	"time"

	"github.com/bfcl-go/bfcl/internal/models/driver/core"
	"github.com/bfcl-go/bfcl/internal/models/driver/openai"
)

// DefaultBaseURL is the Writer SDK's address when WRITER_BASE_URL is unset
// (writerai/_client.py).
const DefaultBaseURL = "https://api.writer.com"

// KeyEnv is the variable upstream's handler reads the key from.
const KeyEnv = "WRITER_API_KEY"

// BaseURLEnv is the variable the Writer SDK reads its address from.
const BaseURLEnv = "WRITER_BASE_URL"

// Driver is the Writer chat driver.
type Driver struct{ core.KeyedAPI }

// New returns a driver for cfg. BaseURL is the API root /v1/chat is
// appended to (the SDK's base_url).
func New(cfg core.Config) (*Driver, error) {
	if cfg.Mode == core.ModePrompt {
		return nil, fmt.Errorf("writer driver: upstream's WriterHandler has no prompt mode (its _query_prompting calls client.chat.completions, which the Writer SDK lacks): use mode fc")
	}
	api, err := core.NewKeyedAPI(cfg, core.ProviderWriter, KeyEnv, DefaultBaseURL, "/v1/chat")
	if err != nil {
		return nil, err
	}
	return &Driver{api}, nil
}

// BuildRequest is the body Complete sends: the keys in the order the SDK's
// chat method writes them.
func (d *Driver) BuildRequest(req core.Request) ([]byte, error) {
	b := append(make([]byte, 0, 1024), `{"messages":`...)
	b, err := openai.AppendMessages(b, req.Messages)
	if err != nil {
		return nil, fmt.Errorf("writer driver: %w", err)
	}
	b = append(b, `,"model":`...)
	if b, err = core.AppendJSON(b, d.Cfg.Model); err != nil {
		return nil, fmt.Errorf("writer driver: encode request: %w", err)
	}
	b = append(b, `,"temperature":`...)
	if b, err = core.AppendJSON(b, req.Temperature); err != nil {
		return nil, fmt.Errorf("writer driver: encode request: %w", err)
	}
	if len(req.Functions) > 0 {
		// WriterHandler._query_FC: tool_choice="auto" with the tools, neither
		// without; ModelStyle.WRITER keeps the dots of function names.
		b = append(b, `,"tool_choice":"auto","tools":`...)
		if b, err = core.AppendToolsJSON(b, req.Functions, core.ProviderWriter, false); err != nil {
			return nil, fmt.Errorf("writer driver: %w", err)
		}
	}
	return append(b, '}'), nil
}

// Complete sends one chat request, retrying retryable failures.
func (d *Driver) Complete(ctx context.Context, req core.Request) (core.Response, error) {
	body, err := d.BuildRequest(req)
	if err != nil {
		return core.Response{}, err
	}
	return d.Call(ctx, "application/json", body, func(b []byte, latency time.Duration) (core.Response, error) {
		return openai.ParseChat(core.ProviderWriter, b, latency)
	})
}
