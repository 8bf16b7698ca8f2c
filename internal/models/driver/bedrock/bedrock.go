// Package bedrock drives Amazon Nova models through the Bedrock runtime's
// Converse API (POST /model/{modelId}/converse), as upstream's NovaHandler
// does with boto3's bedrock-runtime converse
// (bfcl_eval/model_handler/api_inference/nova.py). The AWS SDK for Go v2
// resolves the credentials (its default chain; the profile of
// AWS_SSO_PROFILE_NAME when set, as upstream's boto3 session, else
// AWS_PROFILE, the AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY pair, SSO, the
// instance role) and signs each request with SigV4 (service "bedrock",
// region us-east-1 as upstream's session, unless AWS_REGION names
// another). The body is written here rather than through the SDK's
// bedrockruntime types: those carry tool inputs as untyped documents,
// which would lose the key order of the wire, and upstream echoes the
// model's output message back verbatim.
//
// The request is upstream's: messages (consecutive user texts joined with
// a blank line, the first system message moved to "system" as [{"text"}],
// an empty list without one), inferenceConfig {"temperature"}, toolConfig
// {"tools"} only when there are tools (each {"toolSpec":{name,
// description, inputSchema:{json}}}), and for nova-2-lite models
// additionalModelRequestFields with medium reasoning. The answer's
// output.message goes back into the history as it came; the results of
// one step's calls go back in one user message of toolResult blocks with
// text content. FC only (upstream forces is_fc_model).
//
// The stored answer (Response.Result) is upstream's model_responses: a
// list of {name: input object} when the model called tools, else the list
// of its text blocks; reasoningContent goes to the reasoning.
package bedrock

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	v4 "github.com/aws/aws-sdk-go-v2/aws/signer/v4"
	awsconfig "github.com/aws/aws-sdk-go-v2/config"
	"github.com/bfcl-go/bfcl/internal/models/driver/core"
	"github.com/bfcl-go/bfcl/internal/python/pyval"
)

// DefaultRegion is upstream's (nova.py's boto3 session).
const DefaultRegion = "us-east-1"

// ProfileEnv names the profile upstream's session uses.
const ProfileEnv = "AWS_SSO_PROFILE_NAME"

// credentialTimeout bounds the credential look-up of the probe, so a
// missing credential is named at once (the chain's last resort, the
// instance metadata service, may otherwise be waited for).
const credentialTimeout = time.Second

// Driver is the Bedrock Converse driver.
type Driver struct {
	cfg    core.Config
	region string
	base   string
	http   *http.Client
	signer *v4.Signer

	credOnce sync.Once
	creds    aws.CredentialsProvider
	credErr  error
}

// New returns a driver for cfg. BaseURL, when set, replaces the regional
// endpoint https://bedrock-runtime.<region>.amazonaws.com.
func New(cfg core.Config) (*Driver, error) {
	cfg = cfg.Normalize()
	if cfg.Model == "" {
		return nil, fmt.Errorf("bedrock driver: model id is empty")
	}
	if cfg.Mode != core.ModeFC {
		return nil, fmt.Errorf("bedrock driver: mode %q: upstream's NovaHandler runs every model in FC mode", cfg.Mode)
	}
	region := os.Getenv("AWS_REGION")
	if region == "" {
		region = DefaultRegion
	}
	base := strings.TrimRight(cfg.BaseURL, "/")
	if base == "" {
		base = "https://bedrock-runtime." + region + ".amazonaws.com"
	}
	if !strings.HasPrefix(base, "http://") && !strings.HasPrefix(base, "https://") {
		return nil, fmt.Errorf("bedrock driver: base URL %q must start with http:// or https://", base)
	}
	hc, err := core.NewHTTPClientFor(cfg)
	if err != nil {
		return nil, fmt.Errorf("bedrock driver: %w", err)
	}
	return &Driver{cfg: cfg, region: region, base: base, http: hc, signer: v4.NewSigner()}, nil
}

// Name is "bedrock:<model>".
func (d *Driver) Name() string { return core.ProviderBedrock + ":" + d.cfg.Model }

// credentials loads the SDK's credential chain once.
func (d *Driver) credentials(ctx context.Context) (aws.CredentialsProvider, error) {
	d.credOnce.Do(func() {
		opts := []func(*awsconfig.LoadOptions) error{awsconfig.WithRegion(d.region)}
		if p := os.Getenv(ProfileEnv); p != "" {
			opts = append(opts, awsconfig.WithSharedConfigProfile(p))
		}
		c, err := awsconfig.LoadDefaultConfig(ctx, opts...)
		if err != nil {
			d.credErr = fmt.Errorf("bedrock: AWS configuration: %w", err)
			return
		}
		d.creds = c.Credentials
	})
	return d.creds, d.credErr
}

// noCredentials is the one-line message of a missing credential.
func noCredentials(err error) string {
	return fmt.Sprintf("no AWS credentials (set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or %s / AWS_PROFILE to a configured profile): %v", ProfileEnv, err)
}

// Probe fails at once when no AWS credential can be found.
func (d *Driver) Probe(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, credentialTimeout)
	defer cancel()
	p, err := d.credentials(ctx)
	if err == nil {
		_, err = p.Retrieve(ctx)
	}
	if err != nil {
		return &core.ProbeError{Provider: core.ProviderBedrock, Base: d.base, Model: d.cfg.Model, Kind: "key", Cause: noCredentials(err)}
	}
	return nil
}

type textBlock struct {
	Text string `json:"text"`
}

type wireMessage struct {
	Role    string `json:"role"`
	Content []any  `json:"content"`
}

type toolResult struct {
	ToolResult struct {
		ToolUseID string      `json:"toolUseId"`
		Content   []textBlock `json:"content"`
	} `json:"toolResult"`
}

type toolUse struct {
	ToolUse struct {
		ToolUseID string          `json:"toolUseId"`
		Name      string          `json:"name"`
		Input     json.RawMessage `json:"input"`
	} `json:"toolUse"`
}

type wireRequest struct {
	Messages        []json.RawMessage `json:"messages"`
	System          []textBlock       `json:"system"`
	InferenceConfig struct {
		Temperature float64 `json:"temperature"`
	} `json:"inferenceConfig"`
	ToolConfig *struct {
		Tools []json.RawMessage `json:"tools"`
	} `json:"toolConfig,omitempty"`
	AdditionalModelRequestFields json.RawMessage `json:"additionalModelRequestFields,omitempty"`
}

// reasoningConfig is what upstream adds for nova-2-lite models.
var reasoningConfig = json.RawMessage(`{"reasoningConfig":{"type":"enabled","maxReasoningEffort":"medium"}}`)

// BuildRequest is the body Complete sends.
func (d *Driver) BuildRequest(req core.Request) ([]byte, error) {
	w := wireRequest{System: []textBlock{}}
	w.InferenceConfig.Temperature = req.Temperature
	if len(req.Functions) > 0 {
		tools, err := core.ConvertFunctions(req.Functions, core.ProviderBedrock, d.cfg.ToolNamesUnderscored())
		if err != nil {
			return nil, fmt.Errorf("bedrock driver: %w", err)
		}
		w.ToolConfig = &struct {
			Tools []json.RawMessage `json:"tools"`
		}{tools}
	}
	if strings.Contains(d.cfg.Model, "nova-2-lite") {
		w.AdditionalModelRequestFields = reasoningConfig
	}
	// combine_consecutive_user_prompts, then extract_system_prompt
	var msgs []core.Message
	for _, m := range req.Messages {
		if n := len(msgs); m.Role == core.RoleUser && n > 0 && msgs[n-1].Role == core.RoleUser {
			msgs[n-1].Content += "\n\n" + m.Content
			continue
		}
		msgs = append(msgs, m)
	}
	for i, m := range msgs {
		if m.Role == core.RoleSystem {
			w.System = []textBlock{{Text: m.Content}}
			msgs = append(append([]core.Message{}, msgs[:i]...), msgs[i+1:]...)
			break
		}
	}
	var pendingResults *wireMessage
	flush := func() error {
		if pendingResults == nil {
			return nil
		}
		raw, err := core.MarshalRequest("bedrock", pendingResults)
		if err != nil {
			return err
		}
		w.Messages = append(w.Messages, raw)
		pendingResults = nil
		return nil
	}
	for i, m := range msgs {
		if m.Role != core.RoleTool {
			if err := flush(); err != nil {
				return nil, err
			}
		}
		switch m.Role {
		case core.RoleUser, core.RoleSystem:
			raw, err := core.MarshalRequest("bedrock", wireMessage{Role: m.Role, Content: []any{textBlock{Text: m.Content}}})
			if err != nil {
				return nil, err
			}
			w.Messages = append(w.Messages, raw)
		case core.RoleAssistant:
			if len(m.Replay) > 0 {
				w.Messages = append(w.Messages, m.Replay)
				continue
			}
			wm := wireMessage{Role: core.RoleAssistant}
			if m.Content != "" {
				wm.Content = append(wm.Content, textBlock{Text: m.Content})
			}
			for _, tc := range m.ToolCalls {
				var tu toolUse
				tu.ToolUse.ToolUseID, tu.ToolUse.Name = tc.ID, tc.Name
				tu.ToolUse.Input = json.RawMessage(tc.Arguments)
				if !json.Valid(tu.ToolUse.Input) {
					return nil, fmt.Errorf("bedrock driver: message %d: tool call %s: arguments are not JSON", i, tc.Name)
				}
				wm.Content = append(wm.Content, tu)
			}
			raw, err := core.MarshalRequest("bedrock", wm)
			if err != nil {
				return nil, err
			}
			w.Messages = append(w.Messages, raw)
		case core.RoleTool:
			if pendingResults == nil {
				pendingResults = &wireMessage{Role: core.RoleUser} // Nova takes tool results in a user message
			}
			var tr toolResult
			tr.ToolResult.ToolUseID = m.ToolCallID
			tr.ToolResult.Content = []textBlock{{Text: m.Content}}
			pendingResults.Content = append(pendingResults.Content, tr)
		default:
			return nil, fmt.Errorf("bedrock driver: message %d has unknown role %q", i, m.Role)
		}
	}
	if err := flush(); err != nil {
		return nil, err
	}
	return core.MarshalRequest("bedrock", w)
}

// endpoint is the Converse URL of the model, its id escaped as the SDK
// escapes path labels (":" as %3A).
func (d *Driver) endpoint() (*url.URL, error) {
	u, err := url.Parse(d.base)
	if err != nil {
		return nil, err
	}
	esc := strings.ReplaceAll(url.PathEscape(d.cfg.Model), ":", "%3A")
	basePath, baseRaw := strings.TrimRight(u.Path, "/"), strings.TrimRight(u.EscapedPath(), "/")
	u.Path = basePath + "/model/" + d.cfg.Model + "/converse"
	u.RawPath = baseRaw + "/model/" + esc + "/converse"
	return u, nil
}

// Complete sends one Converse request, retrying retryable failures
// (throttling is HTTP 429, as the project's retry loop expects).
func (d *Driver) Complete(ctx context.Context, req core.Request) (core.Response, error) {
	body, err := d.BuildRequest(req)
	if err != nil {
		return core.Response{}, err
	}
	u, err := d.endpoint()
	if err != nil {
		return core.Response{}, fmt.Errorf("bedrock driver: %w", err)
	}
	sum := sha256.Sum256(body)
	payloadHash := hex.EncodeToString(sum[:])
	return core.Retry(ctx, d.cfg, core.ProviderBedrock, func(ctx context.Context) (core.Response, error) {
		p, err := d.credentials(ctx)
		if err != nil {
			return core.Response{}, &core.Error{Provider: core.ProviderBedrock, Err: err}
		}
		creds, err := p.Retrieve(ctx)
		if err != nil {
			return core.Response{}, &core.Error{Provider: core.ProviderBedrock, Body: noCredentials(err), Err: err}
		}
		hreq, err := http.NewRequestWithContext(ctx, http.MethodPost, u.String(), bytes.NewReader(body))
		if err != nil {
			return core.Response{}, fmt.Errorf("bedrock driver: %w", err)
		}
		hreq.URL = u
		hreq.Header.Set("Content-Type", "application/json")
		hreq.Header.Set("Accept", "application/json")
		hreq.Header.Set("X-Amz-Content-Sha256", payloadHash)
		if err := d.signer.SignHTTP(ctx, creds, hreq, payloadHash, "bedrock", d.region, time.Now()); err != nil {
			return core.Response{}, &core.Error{Provider: core.ProviderBedrock, Body: "signing the request: " + err.Error(), Err: err}
		}
		ctx, ex := core.WithExchange(ctx)
		ex.RequestBody = body
		start := time.Now()
		resp, err := d.http.Do(hreq.WithContext(ctx))
		if err != nil {
			return core.Response{}, core.TransportError(ctx, core.ProviderBedrock, err)
		}
		resp.Body.Close()
		latency := ex.Latency(start)
		if ex.Status < 200 || ex.Status > 299 {
			e := core.HTTPError(core.ProviderBedrock, ex.Status, ex.Header, ex.Body)
			if t := ex.Header.Get("X-Amzn-Errortype"); t != "" {
				e.Body = strings.SplitN(t, ":", 2)[0] + ": " + e.Body
			}
			if ex.Status == http.StatusForbidden || ex.Status == http.StatusUnauthorized {
				e.Body += " (AWS credentials from the SDK's default chain" + profileNote() + ")"
			}
			return core.Response{}, e
		}
		out, err := parseResponse(ex.Body, latency)
		out.Request = ex.RequestBody
		return out, err
	})
}

func profileNote() string {
	if p := os.Getenv(ProfileEnv); p != "" {
		return ", profile " + p + " of " + ProfileEnv
	}
	return "; " + ProfileEnv + " is not set"
}

type wireResponse struct {
	Output *struct {
		Message json.RawMessage `json:"message"`
	} `json:"output"`
	Usage *struct {
		InputTokens  int `json:"inputTokens"`
		OutputTokens int `json:"outputTokens"`
	} `json:"usage"`
}

type wireBlock struct {
	Text             *string `json:"text"`
	ReasoningContent *struct {
		ReasoningText *struct {
			Text string `json:"text"`
		} `json:"reasoningText"`
	} `json:"reasoningContent"`
	ToolUse *struct {
		ToolUseID string          `json:"toolUseId"`
		Name      string          `json:"name"`
		Input     json.RawMessage `json:"input"`
	} `json:"toolUse"`
}

var errNoOutput = errors.New("no output.message")

func parseResponse(body []byte, latency time.Duration) (core.Response, error) {
	fail := func(err error) (core.Response, error) {
		return core.Response{}, core.DecodeError(core.ProviderBedrock, body, err)
	}
	var w wireResponse
	if err := json.Unmarshal(body, &w); err != nil {
		return fail(err)
	}
	if w.Output == nil || len(w.Output.Message) == 0 {
		return fail(errNoOutput)
	}
	if w.Usage == nil {
		return fail(fmt.Errorf("no usage"))
	}
	var msg struct {
		Content []wireBlock `json:"content"`
	}
	if err := json.Unmarshal(w.Output.Message, &msg); err != nil {
		return fail(err)
	}
	out := core.Response{Latency: latency, Raw: json.RawMessage(body), Replay: w.Output.Message,
		InputTokens: w.Usage.InputTokens, OutputTokens: w.Usage.OutputTokens}
	var reasoning strings.Builder
	var texts []string
	tools := []byte{'['}
	for i, b := range msg.Content {
		switch {
		case b.ReasoningContent != nil:
			if b.ReasoningContent.ReasoningText != nil {
				reasoning.WriteString(b.ReasoningContent.ReasoningText.Text)
			}
		case b.Text != nil:
			texts = append(texts, *b.Text)
		case b.ToolUse != nil:
			input := bytes.TrimSpace(b.ToolUse.Input)
			if len(input) == 0 {
				input = []byte("{}")
			}
			var buf bytes.Buffer
			if err := json.Compact(&buf, input); err != nil {
				return fail(fmt.Errorf("toolUse %d input: %w", i, err))
			}
			args, err := pyval.FromJSON(buf.Bytes())
			if err != nil {
				return fail(fmt.Errorf("toolUse %d input: %w", i, err))
			}
			item := pyval.NewDict()
			item.SetStr(b.ToolUse.Name, args)
			js, err := pyval.JSONDumps(item)
			if err != nil {
				return fail(err)
			}
			if len(out.ToolCalls) > 0 {
				tools = append(tools, ", "...)
			}
			tools = append(tools, js...)
			out.ToolCalls = append(out.ToolCalls, core.ToolCall{ID: b.ToolUse.ToolUseID, Name: b.ToolUse.Name, Arguments: buf.String()})
		}
	}
	out.Reasoning = reasoning.String()
	out.Text = strings.Join(texts, "")
	if len(out.ToolCalls) > 0 {
		out.Result = append(tools, ']')
	} else {
		r, err := json.Marshal(append([]string{}, texts...))
		if err != nil {
			return fail(err)
		}
		out.Result = r
	}
	return out, nil
}
