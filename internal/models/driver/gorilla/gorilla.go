// Package gorilla drives the Gorilla OpenFunctions server the way
// upstream's GorillaHandler does
// (bfcl_eval/model_handler/api_inference/gorilla.py at the pin): one POST
// to <base>/chat/completions, base https://luigi.millennium.berkeley.edu:443/v1
// (fixed upstream: no variable moves it; a models.yaml entry's base_url
// does here), made with python-requests: the body is
// json.dumps({"model", "messages", "functions", "temperature"}) (Python's
// separators and ASCII escapes, reproduced byte for byte with pyval), the
// functions the entry's documents as they are (no conversion to tools),
// the headers Content-Type: application/json and Authorization: EMPTY
// (the server is free; no key).
//
// The answer is choices[0].message.content, stored as it is (a text of
// calls, or null), with the usage's prompt and completion tokens; it goes
// back into the history as {"role": "assistant", "content": <that>}, and
// tool results as {"role": "tool", "content"} without an id. (Upstream's
// GorillaHandler.decode_execute fails on every answer, so no multi-turn
// call of this model is executed and no tool result is ever sent; the
// encoding is there for completeness.)
//
// GorillaHandler has FC methods only (BaseHandler's prompting methods
// raise NotImplementedError): New refuses prompt mode.
package gorilla

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	"github.com/bfcl-go/bfcl/internal/models/driver/core"
	"github.com/bfcl-go/bfcl/internal/python/pyval"
)

// DefaultBaseURL is the server upstream's handler posts to (gorilla.py:
// https://luigi.millennium.berkeley.edu:443/v1/chat/completions).
const DefaultBaseURL = "https://luigi.millennium.berkeley.edu:443/v1"

// Authorization is the header value upstream sends (gorilla.py: "Hosted
// for free"); a key configured for the model replaces it.
const Authorization = "EMPTY"

// Driver is the Gorilla OpenFunctions driver.
type Driver struct {
	cfg      core.Config
	endpoint string
	auth     string
	http     *http.Client
}

// New returns a driver for cfg. BaseURL is the API root /chat/completions
// is appended to.
func New(cfg core.Config) (*Driver, error) {
	if cfg.Mode == core.ModePrompt {
		return nil, fmt.Errorf("gorilla driver: upstream's GorillaHandler has no prompt mode (BaseHandler's prompting methods raise NotImplementedError): use mode fc")
	}
	cfg, base, hc, err := core.Endpoint(cfg, core.ProviderGorilla, DefaultBaseURL)
	if err != nil {
		return nil, err
	}
	auth := Authorization
	if cfg.APIKey != "" {
		auth = cfg.APIKey
	}
	return &Driver{cfg: cfg, endpoint: base + "/chat/completions", auth: auth, http: hc}, nil
}

// Name is "gorilla:<model>".
func (d *Driver) Name() string { return core.ProviderGorilla + ":" + d.cfg.Model }

// BuildRequest is the body Complete sends: Python's json.dumps of
// upstream's requestData.
func (d *Driver) BuildRequest(req core.Request) ([]byte, error) {
	msgs := make([]pyval.Value, 0, len(req.Messages))
	for i, m := range req.Messages {
		wm := pyval.NewDictCap(2)
		wm.SetStr("role", pyval.Str(m.Role))
		switch m.Role {
		case core.RoleSystem, core.RoleUser, core.RoleTool:
			wm.SetStr("content", pyval.Str(m.Content))
		case core.RoleAssistant:
			// the answer's content as it came (Replay), else the text
			var content pyval.Value = pyval.Str(m.Content)
			if len(m.Replay) > 0 {
				v, err := pyval.FromJSON(m.Replay)
				if err != nil {
					return nil, fmt.Errorf("gorilla driver: message %d: %w", i, err)
				}
				content = v
			}
			wm.SetStr("content", content)
		default:
			return nil, fmt.Errorf("gorilla driver: message %d has unknown role %q", i, m.Role)
		}
		msgs = append(msgs, wm)
	}
	fns := make([]pyval.Value, 0, len(req.Functions))
	for i, f := range req.Functions {
		v, err := pyval.FromJSON(f)
		if err != nil {
			return nil, fmt.Errorf("gorilla driver: function doc %d is not JSON: %w", i, err)
		}
		fns = append(fns, v)
	}
	body := pyval.NewDictCap(4)
	body.SetStr("model", pyval.Str(d.cfg.Model))
	body.SetStr("messages", pyval.NewList(msgs...))
	body.SetStr("functions", pyval.NewList(fns...))
	body.SetStr("temperature", pyval.Float(req.Temperature))
	b, err := pyval.AppendJSON(nil, body)
	if err != nil {
		return nil, fmt.Errorf("gorilla driver: encode request: %w", err)
	}
	return b, nil
}

// Complete sends one request, retrying retryable failures.
func (d *Driver) Complete(ctx context.Context, req core.Request) (core.Response, error) {
	body, err := d.BuildRequest(req)
	if err != nil {
		return core.Response{}, err
	}
	return core.Retry(ctx, d.cfg, core.ProviderGorilla, func(ctx context.Context) (core.Response, error) {
		// python-requests sends Accept: */*
		ex, latency, err := core.PostAuth(ctx, d.http, core.ProviderGorilla, d.endpoint, "*/*", d.auth, body)
		if err != nil {
			return core.Response{}, err
		}
		if !ex.OK() {
			return core.Response{}, core.HTTPError(core.ProviderGorilla, ex.Status, ex.Header, ex.Body)
		}
		out, err := Parse(ex.Body)
		out.Latency, out.Request = latency, ex.RequestBody
		return out, err
	})
}

// Probe checks, before a run, that the server answers at all (GET
// <base>/models; upstream's server is an OpenAI-compatible one, and any
// HTTP answer passes: the handler asks nothing else of it), so an
// unreachable address is named at once instead of after every entry's
// retries. There is no key to check.
func (d *Driver) Probe(ctx context.Context) error {
	base := strings.TrimSuffix(d.endpoint, "/chat/completions")
	hreq, err := http.NewRequestWithContext(ctx, http.MethodGet, base+"/models", nil)
	if err != nil {
		return fmt.Errorf("gorilla driver: %w", err)
	}
	ctx, ex := core.WithExchange(ctx)
	resp, err := d.http.Do(hreq.WithContext(ctx))
	if err == nil {
		resp.Body.Close()
		return nil
	}
	return core.ClassifyProbe(ctx, core.ProviderGorilla, base, d.cfg.Model, "GET "+base+"/models", ex, err)
}

// Parse reads an answer as GorillaHandler._parse_query_response_FC does:
// the content of the first choice's message (Result: as it is, also null;
// Replay: the same, for the history) and the usage's token counts, all
// required.
func Parse(body []byte) (core.Response, error) {
	var w struct {
		Choices []struct {
			Message *struct {
				Content json.RawMessage `json:"content"`
			} `json:"message"`
		} `json:"choices"`
		Usage *struct {
			PromptTokens     *int `json:"prompt_tokens"`
			CompletionTokens *int `json:"completion_tokens"`
		} `json:"usage"`
	}
	if err := json.Unmarshal(body, &w); err != nil {
		return core.Response{}, core.DecodeError(core.ProviderGorilla, body, err)
	}
	switch {
	case len(w.Choices) == 0 || w.Choices[0].Message == nil:
		return core.Response{}, core.DecodeError(core.ProviderGorilla, body, fmt.Errorf("no choices[0].message"))
	case len(w.Choices[0].Message.Content) == 0:
		return core.Response{}, core.DecodeError(core.ProviderGorilla, body, fmt.Errorf("no choices[0].message.content"))
	case w.Usage == nil || w.Usage.PromptTokens == nil || w.Usage.CompletionTokens == nil:
		return core.Response{}, core.DecodeError(core.ProviderGorilla, body, fmt.Errorf("no usage.prompt_tokens and usage.completion_tokens"))
	}
	var content bytes.Buffer
	if err := json.Compact(&content, w.Choices[0].Message.Content); err != nil {
		return core.Response{}, core.DecodeError(core.ProviderGorilla, body, err)
	}
	out := core.Response{Raw: json.RawMessage(body), Result: content.Bytes(), Replay: content.Bytes(),
		InputTokens: *w.Usage.PromptTokens, OutputTokens: *w.Usage.CompletionTokens}
	var text *string
	if json.Unmarshal(content.Bytes(), &text) == nil && text != nil {
		out.Text = *text
	}
	return out, nil
}
