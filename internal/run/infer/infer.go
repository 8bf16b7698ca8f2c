// Package infer runs one data-set entry through a model the way upstream's
// handlers do (bfcl_eval/model_handler/base_handler.py): one request for a
// single-turn entry; for multi-turn and agentic entries, per turn, requests
// until the model returns no decodable call, executing every decoded call on
// the entry's own backend instances and feeding the results back, with
// held-out functions added at their turn and the 20-step cap that
// force-quits the entry. It produces the entry's result record in BFCL's
// result format, with upstream's inference log of the conversation (see
// log.go).
package infer

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/bfcl-go/bfcl/internal/benchmark/dataset"
	"github.com/bfcl-go/bfcl/internal/config/corrections"
	"github.com/bfcl-go/bfcl/internal/models/decode"
	"github.com/bfcl-go/bfcl/internal/models/driver"
	"github.com/bfcl-go/bfcl/internal/models/oss"
	"github.com/bfcl-go/bfcl/internal/models/prompt"
	"github.com/bfcl-go/bfcl/internal/python/pyval"
	"github.com/bfcl-go/bfcl/internal/run/cost"
	"github.com/bfcl-go/bfcl/internal/run/sched"
	"github.com/bfcl-go/bfcl/internal/store/results"
)

// MaximumStepLimit is upstream's MAXIMUM_STEP_LIMIT
// (bfcl_eval/constants/default_prompts.py): a turn that reaches more than
// this many executed steps force-quits the entry, so a turn makes at most
// MaximumStepLimit+1 model calls.
const MaximumStepLimit = 20

// UserPromptForAdditionalFunctionFC is upstream's
// DEFAULT_USER_PROMPT_FOR_ADDITIONAL_FUNCTION_FC
// (bfcl_eval/constants/default_prompts.py), sent as the user message of a
// miss_func turn whose held-out functions become available.
const UserPromptForAdditionalFunctionFC = "I have updated some more functions you can choose from. What about now?"

// Executor runs decoded call strings on one entry's model-side backend
// instances (which persist across the entry's turns) and returns one result
// string per call, exactly as upstream's execute_multi_turn_func_call.
type Executor interface {
	Execute(calls []string) []string
}

// Hooks is implemented by executors whose backends change the conversation
// (agentic entries): Prepare returns the questions as the model must see
// them (the memory system prompt, built from the loaded memory), Finish
// ends the conversation (a memory prerequisite saves its memory). Finish is
// called after the turns, also when the entry was force-quit.
type Hooks interface {
	Prepare(question [][]dataset.Message) ([][]dataset.Message, error)
	Finish() error
}

// Options shape the requests.
type Options struct {
	// Spec is the model's mode ("fc" or "prompt"), underscore_to_dot and
	// the upstream handler class whose decode_execute reads its answers
	// between steps.
	decode.Spec
	Temperature float64
	MaxTokens   int
	Seed        *int64
	// NewExecutor returns the model-side executor of a multi-turn or agentic
	// entry. Required for those entries.
	NewExecutor func(e *dataset.Entry) (Executor, error)
	// IncludeInputLog adds to the inference log, per step, the request the
	// driver sent (upstream's --include-input-log); single-turn records get
	// an inference log only with it.
	IncludeInputLog bool
	// ExcludeStateLog leaves the backends' state_info lists out of the
	// multi-turn inference log (upstream's --exclude-state-log).
	ExcludeStateLog bool
	// Local, when set, gives a fresh format of the upstream local-model
	// handler class the model runs under (internal/models/oss): the entry
	// is then run as upstream's OSSHandler runs it, every request a prompt
	// the class formats (see runLocal). Nil for chat and FC APIs.
	Local func() oss.Format
	// Corrections are the opt-in corrections of upstream defects that are
	// on; the loop applies empty-tool-calls (see fcResult).
	Corrections corrections.Set
	entryID     string // the entry Run is running (Request.EntryID)
	// Gate, when set, orders the CPU work of the entries in flight: an
	// entry runs holding a ticket of the gate (released while it waits for
	// the model), with the turns it has left as its priority, so the
	// longest entries are not held up (see internal/run/sched).
	Gate *sched.Gate
}

// Stats are what the run cost.
type Stats struct {
	Calls                     int
	InputTokens, OutputTokens int
	Latency                   time.Duration
}

// Run produces the result record of one entry. A driver failure (after the
// driver's own retries) is returned as an error and no record is produced,
// so a later run retries the entry instead of scoring an infrastructure
// failure.
func Run(ctx context.Context, d driver.Driver, e *dataset.Entry, opts Options) (results.Record, Stats, error) {
	opts.entryID = e.ID
	// Priority: the calls expected still ahead, so the gate and the request
	// limiter serve the entry on the critical path first.
	ctx, ticket := sched.With(ctx, opts.Gate, cost.Total(e))
	if err := ticket.Acquire(ctx); err != nil {
		return results.Record{}, Stats{}, err
	}
	defer ticket.Release()
	view, err := dataset.InferenceView(e)
	if err != nil {
		return results.Record{}, Stats{}, err
	}
	multi := len(view.InvolvedClasses) > 0 || len(view.Question) > 1
	if opts.Local != nil {
		return runLocal(ctx, d, view, opts, opts.Local(), multi)
	}
	switch opts.Mode {
	case "", "fc":
		if multi {
			return runMultiTurn(ctx, d, view, opts, fcStyle{objectArgs: objectArgs(opts.Handler)})
		}
		return runSingleTurnFC(ctx, d, view, opts)
	case "prompt":
		if multi {
			return runMultiTurn(ctx, d, view, opts, promptStyle{handler: opts.Handler})
		}
		return runSingleTurnPrompt(ctx, d, view, opts)
	}
	return results.Record{}, Stats{}, fmt.Errorf("infer: %s: unknown mode %q (fc or prompt)", e.ID, opts.Mode)
}

// style is what differs between FC and prompt mode in the multi-turn loop:
// how the conversation starts, how a step is stored, decoded and answered.
type style interface {
	first(e *dataset.Entry) ([]driver.Message, error)
	next(turnMsgs []dataset.Message) []driver.Message
	holdout(docs []json.RawMessage) ([]driver.Message, []json.RawMessage, error)
	functions(funcs []json.RawMessage) []json.RawMessage
	stored(resp driver.Response, opts Options) (json.RawMessage, error)
	kept(resp driver.Response) driver.Response
	assistant(resp driver.Response) driver.Message
	decode(stored json.RawMessage, opts Options) ([]string, error)
	results(resp driver.Response, calls, out []string) []driver.Message
}

// fcStyle: native tool calls, results as tool messages (upstream's
// OpenAI-style FC handlers).
type fcStyle struct{ objectArgs bool }

func (fcStyle) first(e *dataset.Entry) ([]driver.Message, error) {
	return userMessages(e.Question[0]), nil
}
func (fcStyle) next(ms []dataset.Message) []driver.Message { return userMessages(ms) }
func (fcStyle) holdout(docs []json.RawMessage) ([]driver.Message, []json.RawMessage, error) {
	return []driver.Message{{Role: "user", Content: UserPromptForAdditionalFunctionFC}}, docs, nil
}
func (fcStyle) functions(funcs []json.RawMessage) []json.RawMessage { return funcs }
func (s fcStyle) stored(r driver.Response, o Options) (json.RawMessage, error) {
	return fcResult(r, s.objectArgs, o)
}
func (fcStyle) kept(r driver.Response) driver.Response { return r }
func (fcStyle) assistant(r driver.Response) driver.Message {
	return driver.Message{Role: "assistant", Content: r.Text, ToolCalls: r.ToolCalls, Reasoning: r.Reasoning, Replay: r.Replay}
}
func (fcStyle) decode(res json.RawMessage, o Options) ([]string, error) {
	return decode.DecodeExecute(res, decode.Options{Spec: o.Spec.WithMode(decode.ModeFC)})
}
func (fcStyle) results(r driver.Response, _ []string, out []string) []driver.Message {
	var msgs []driver.Message
	for i, x := range out {
		if i >= len(r.ToolCalls) {
			break // upstream zips results with tool-call ids
		}
		msgs = append(msgs, driver.Message{Role: "tool", Content: x, ToolCallID: r.ToolCalls[i].ID, Name: r.ToolCalls[i].Name})
	}
	return msgs
}

// promptStyle: upstream's system prompt with the functions in it, answers
// as text in the entry's return format, results returned as a user message.
// handler is the upstream class, whose own prompting methods
// (MiningHandler's, DMCitoHandler's) replace the system prompt and the
// stored form of an answer.
type promptStyle struct{ handler string }

func (s promptStyle) first(e *dataset.Entry) ([]driver.Message, error) {
	return prompt.FirstTurnOf(s.handler, e.ID, e.Functions, e.Question[0])
}
func (promptStyle) next(ms []dataset.Message) []driver.Message { return prompt.Messages(ms) }
func (promptStyle) holdout(docs []json.RawMessage) ([]driver.Message, []json.RawMessage, error) {
	m, err := prompt.HoldoutMessage(docs)
	return []driver.Message{m}, nil, err
}
func (promptStyle) functions([]json.RawMessage) []json.RawMessage { return nil }
func (s promptStyle) stored(r driver.Response, _ Options) (json.RawMessage, error) {
	return promptResult(r, s.handler)
}
func (s promptStyle) kept(r driver.Response) driver.Response { return promptKept(r, s.handler) }

// promptResult is the stored form of a prompt-mode answer: its text, or
// for MiningHandler's and DMCitoHandler's _parse_query_response_prompting
// the <tool_calls> content parsed (prompt.MiningAnswer).
func promptResult(r driver.Response, handler string) (json.RawMessage, error) {
	if prompt.HasMiningPrompt(handler) {
		return prompt.MiningAnswer(r.Text)
	}
	return json.Marshal(r.Text)
}

// promptKept is the answer as the loop records it: MiningHandler's parser
// keeps no reasoning (no reasoning_content in the result line or the
// inference log); the message still goes back into the history as the
// server returned it.
func promptKept(r driver.Response, handler string) driver.Response {
	if prompt.HasMiningPrompt(handler) {
		r.Reasoning = ""
	}
	return r
}
func (promptStyle) assistant(r driver.Response) driver.Message {
	m := prompt.AssistantMessage(r.Text)
	m.Reasoning, m.Replay = r.Reasoning, r.Replay
	return m
}
func (promptStyle) decode(res json.RawMessage, o Options) ([]string, error) {
	// Upstream decodes execution in the Python format without the tag, for
	// every prompt configuration.
	return decode.DecodeExecute(res, decode.Options{Spec: decode.Spec{Mode: decode.ModePrompt, Handler: o.Handler}})
}
func (promptStyle) results(_ driver.Response, calls, out []string) []driver.Message {
	return []driver.Message{prompt.ExecutionResultsMessage(out, calls)}
}

func (o Options) request(msgs []driver.Message, funcs []json.RawMessage) driver.Request {
	return driver.Request{
		Messages:    append([]driver.Message(nil), msgs...),
		Functions:   funcs,
		Temperature: o.Temperature,
		MaxTokens:   o.MaxTokens,
		Seed:        o.Seed,
		EntryID:     o.entryID,
	}
}

func userMessages(ms []dataset.Message) []driver.Message {
	out := make([]driver.Message, 0, len(ms))
	for _, m := range ms {
		out = append(out, driver.Message{Role: m.Role, Content: m.Content})
	}
	return out
}

// objectArgs reports whether the handler class stores a call's arguments
// as an object ({name: {args}}, the fc_dict family: GeminiHandler's FC
// mode and the like) rather than as the JSON text the server sent.
func objectArgs(handler string) bool {
	h, ok := decode.LookupHandler(handler)
	return ok && h.Family(true) == decode.FamilyFCDict
}

// fcResult is the stored form of one FC response: the driver's own
// stored form when it has one (Response.Result: Cohere's and Nova's
// handlers store their own shapes), else a list of {name: args} when the
// model called tools (also an empty list, as upstream stores a server's
// `tool_calls: []`), its text otherwise. args is the arguments' JSON text,
// or with objectArgs the object itself (when it is one). With the
// empty-tool-calls correction on, an empty call list is the text turn it
// is (gorilla PRs #1316, #1328, #1348, #1351).
func fcResult(r driver.Response, objectArgs bool, o Options) (json.RawMessage, error) {
	if r.Result != nil {
		return r.Result, nil
	}
	if r.ToolCalls == nil || (len(r.ToolCalls) == 0 && o.Corrections.Has(corrections.EmptyToolCalls)) {
		return json.Marshal(r.Text)
	}
	buf := []byte{'['}
	for i, tc := range r.ToolCalls {
		if i > 0 {
			buf = append(buf, ", "...)
		}
		k, err := json.Marshal(tc.Name)
		if err != nil {
			return nil, err
		}
		v, err := json.Marshal(tc.Arguments)
		if err != nil {
			return nil, err
		}
		if a := strings.TrimSpace(tc.Arguments); objectArgs && strings.HasPrefix(a, "{") && json.Valid([]byte(a)) {
			v = []byte(a)
		}
		buf = append(buf, '{')
		buf = append(buf, k...)
		buf = append(buf, ": "...)
		buf = append(buf, v...)
		buf = append(buf, '}')
	}
	return append(buf, ']'), nil
}

func runSingleTurnFC(ctx context.Context, d driver.Driver, e *dataset.Entry, opts Options) (results.Record, Stats, error) {
	resp, err := d.Complete(ctx, opts.request(userMessages(e.Question[0]), e.Functions))
	if err != nil {
		return results.Record{}, Stats{}, fmt.Errorf("infer: %s: %w", e.ID, err)
	}
	res, err := fcResult(resp, objectArgs(opts.Handler), opts)
	if err != nil {
		return results.Record{}, Stats{}, err
	}
	return singleTurnRecord(e, res, resp, opts)
}

// singleTurnRecord is a single-turn result line: upstream's keys in its
// order, the inference log (the request sent) only with IncludeInputLog.
func singleTurnRecord(e *dataset.Entry, res json.RawMessage, resp driver.Response, opts Options) (results.Record, Stats, error) {
	rec := results.Record{
		ID:               e.ID,
		Result:           res,
		InputTokenCount:  mustJSON(resp.InputTokens),
		OutputTokenCount: mustJSON(resp.OutputTokens),
		Latency:          mustJSON(resp.Latency.Seconds()),
	}
	if opts.IncludeInputLog {
		log, err := marshalLog([]any{inputLog(resp)})
		if err != nil {
			return results.Record{}, Stats{}, fmt.Errorf("infer: %s: %w", e.ID, err)
		}
		rec.InferenceLog, rec.LogFirst = log, true
	}
	if resp.Reasoning != "" {
		rec.ReasoningContent = mustJSON(resp.Reasoning)
	}
	return rec, Stats{Calls: 1, InputTokens: resp.InputTokens, OutputTokens: resp.OutputTokens, Latency: resp.Latency}, nil
}

func runSingleTurnPrompt(ctx context.Context, d driver.Driver, e *dataset.Entry, opts Options) (results.Record, Stats, error) {
	msgs, err := prompt.FirstTurnOf(opts.Handler, e.ID, e.Functions, e.Question[0])
	if err != nil {
		return results.Record{}, Stats{}, fmt.Errorf("infer: %s: %w", e.ID, err)
	}
	resp, err := d.Complete(ctx, opts.request(msgs, nil))
	if err != nil {
		return results.Record{}, Stats{}, fmt.Errorf("infer: %s: %w", e.ID, err)
	}
	resp = promptKept(resp, opts.Handler)
	res, err := promptResult(resp, opts.Handler)
	if err != nil {
		return results.Record{}, Stats{}, fmt.Errorf("infer: %s: %w", e.ID, err)
	}
	return singleTurnRecord(e, res, resp, opts)
}

func runMultiTurn(ctx context.Context, d driver.Driver, e *dataset.Entry, opts Options, sty style) (results.Record, Stats, error) {
	s, err := newSession(ctx, e, opts)
	if err != nil {
		return results.Record{}, Stats{}, err
	}
	c := &conversation{session: s, d: d, sty: sty, funcs: sty.functions(append([]json.RawMessage(nil), s.e.Functions...))}
	return s.run(ctx, len(s.e.Question), func(turn int) (bool, error) {
		current, err := c.turnMessages(turn, s.e.Question[turn])
		if err != nil {
			return false, err
		}
		c.msgs = append(c.msgs, current...)
		return s.runTurn(ctx, turn, messagesLog(current), func(step int) ([]any, bool, error) { return c.step(ctx, turn, step) })
	})
}

// conversation is one multi-turn entry in progress through a chat or FC
// driver: the session, and the messages and functions sent so far.
type conversation struct {
	*session
	d     driver.Driver
	sty   style
	funcs []json.RawMessage
	msgs  []driver.Message
}

// turnMessages are the messages a turn adds: the first turn's prompt, a
// later turn's user messages, or a held-out turn's functions (which are
// offered from then on).
func (c *conversation) turnMessages(turn int, turnMsgs []dataset.Message) ([]driver.Message, error) {
	var current []driver.Message
	var err error
	if turn == 0 {
		if current, err = c.sty.first(c.e); err != nil {
			return nil, fmt.Errorf("infer: %s: %w", c.e.ID, err)
		}
	} else {
		current = c.sty.next(turnMsgs)
	}
	if held, ok := c.e.MissedFuncDocs[turn]; ok {
		if len(turnMsgs) != 0 {
			return nil, fmt.Errorf("infer: %s: held-out turn %d has a user message", c.e.ID, turn)
		}
		msgs, more, err := c.sty.holdout(held)
		if err != nil {
			return nil, fmt.Errorf("infer: %s: %w", c.e.ID, err)
		}
		c.funcs = append(c.funcs, more...)
		current = msgs
	}
	return current, nil
}

// step asks the model once and handles its answer: it is added to the
// messages, decoded and, when it decodes to calls, executed, the results
// added to the messages (see session.act).
func (c *conversation) step(ctx context.Context, turn, step int) (stepLog []any, more bool, err error) {
	resp, err := c.d.Complete(ctx, c.opts.request(c.msgs, c.funcs))
	if err != nil {
		return nil, false, fmt.Errorf("infer: %s turn %d step %d: %w", c.e.ID, turn, step, err)
	}
	resp = c.sty.kept(resp)
	res, err := c.sty.stored(resp, c.opts)
	if err != nil {
		return nil, false, fmt.Errorf("infer: %s turn %d step %d: %w", c.e.ID, turn, step, err)
	}
	stepLog = c.answered(resp, res, resp.Reasoning, inputLog(resp))
	c.msgs = append(c.msgs, c.sty.assistant(resp))
	calls, decodeErr := c.sty.decode(res, c.opts)
	out, stepLog, more, err := c.act(ctx, stepLog, calls, decodeErr)
	if err != nil || !more {
		return stepLog, false, err
	}
	c.msgs = append(c.msgs, c.sty.results(resp, calls, out)...)
	return stepLog, true, nil
}

func stepField(step int, items []any) pyval.Field {
	return pyval.Field{Key: "step_" + strconv.Itoa(step), Value: items}
}

// marshalLog encodes an inference log ([] when empty, as upstream writes a
// log without turns).
func marshalLog(log []any) (json.RawMessage, error) {
	if log == nil {
		log = []any{}
	}
	// pyval.AppendAny, not encoding/json: the log is OrderedObjects all the
	// way down, and encoding/json would validate and compact each nested
	// one again (the state holds "<Directory: ...>" reprs, never
	// HTML-escaped either way).
	b, err := pyval.AppendAny(make([]byte, 0, 4096), log)
	if err != nil {
		return nil, fmt.Errorf("inference log: %w", err)
	}
	return b, nil
}

// isEmptyExecute is upstream's is_empty_execute_response.
func isEmptyExecute(calls []string) bool {
	return len(calls) == 0 || (len(calls) == 1 && len(calls[0]) == 0)
}

func mustJSON(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		panic(errors.New("infer: unencodable value: " + err.Error()))
	}
	return b
}
