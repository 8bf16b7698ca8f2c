package infer

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/bfcl-go/bfcl/internal/benchmark/dataset"
	"github.com/bfcl-go/bfcl/internal/models/decode"
	"github.com/bfcl-go/bfcl/internal/models/driver"
	"github.com/bfcl-go/bfcl/internal/models/oss"
	"github.com/bfcl-go/bfcl/internal/python/pyval"
	"github.com/bfcl-go/bfcl/internal/store/results"
)

// runLocal runs an entry the way upstream's local-model handlers do
// (base_handler.py inference_single_turn_prompting and
// inference_multi_turn_prompting with an OSSHandler subclass): the class's
// format keeps upstream's history and function documents and writes every
// prompt (oss.Conversation); the driver sends the prompt as it is
// (driver.Request.Prompt); the reply is parsed by the class, decoded with
// the class's decode_execute, executed, and the results go back as the
// class adds them.
func runLocal(ctx context.Context, d driver.Driver, e *dataset.Entry, opts Options, f oss.Format, multi bool) (results.Record, Stats, error) {
	var s *session
	if multi {
		var err error
		if s, err = newSession(ctx, e, opts); err != nil {
			return results.Record{}, Stats{}, err
		}
		e = s.e // the agentic hooks' question
	}
	fns, err := oss.FunctionsFromJSON(e.Functions)
	if err != nil {
		return results.Record{}, Stats{}, fmt.Errorf("infer: %s: function documents: %w", e.ID, err)
	}
	turns := make([][]oss.Message, len(e.Question))
	for i, t := range e.Question {
		for _, m := range t {
			turns[i] = append(turns[i], oss.Text(m.Role, m.Content))
		}
	}
	conv, err := oss.NewConversation(f, e.ID, fns, turns, e.MissedFuncDocs)
	if err != nil {
		return results.Record{}, Stats{}, fmt.Errorf("infer: %s: %w", e.ID, err)
	}
	l := localRun{ctx: ctx, d: d, e: e, opts: opts, conv: conv}
	if !multi {
		return l.singleTurn()
	}
	return s.run(ctx, conv.Turns(), func(turn int) (bool, error) {
		current, err := conv.StartTurn(turn)
		if err != nil {
			return false, fmt.Errorf("infer: %s: %w", e.ID, err)
		}
		return s.runTurn(ctx, turn, oss.DictList(current), func(step int) ([]any, bool, error) {
			resp, r, p, err := l.query()
			if err != nil {
				return nil, false, fmt.Errorf("infer: %s turn %d step %d: %w", e.ID, turn, step, err)
			}
			res, err := responsesJSON(r.ModelResponses)
			if err != nil {
				return nil, false, fmt.Errorf("infer: %s: %w", e.ID, err)
			}
			stepLog := s.answered(resp, res, r.Reasoning, promptLog(p))
			calls, decodeErr := decode.DecodeExecuteValue(r.ModelResponses, decode.Options{Spec: opts.Spec})
			out, stepLog, more, err := s.act(ctx, stepLog, calls, decodeErr)
			if err == nil && more {
				conv.AddResults(out, calls, r)
			}
			return stepLog, more, err
		})
	})
}

// localRun is a single-turn entry's run through a local-model handler, and
// the query of every step of a multi-turn one.
type localRun struct {
	ctx  context.Context
	d    driver.Driver
	e    *dataset.Entry
	opts Options
	conv *oss.Conversation
}

// query formats the history, sends the prompt and parses the reply (one
// _query_prompting + _parse_query_response_prompting +
// _add_assistant_message_prompting).
func (l *localRun) query() (driver.Response, oss.Reply, string, error) {
	p, err := l.conv.Prompt()
	if err != nil {
		return driver.Response{}, oss.Reply{}, "", fmt.Errorf("infer: %s: %w", l.e.ID, err)
	}
	resp, err := l.d.Complete(l.ctx, driver.Request{Prompt: p, Temperature: l.opts.Temperature, MaxTokens: l.opts.MaxTokens, Seed: l.opts.Seed})
	if err != nil {
		return driver.Response{}, oss.Reply{}, "", err
	}
	r, err := l.conv.AddReply(resp.Text)
	if err != nil {
		return driver.Response{}, oss.Reply{}, "", fmt.Errorf("infer: %s: parsing the reply as %s: %w", l.e.ID, l.conv.Format().Class(), err)
	}
	return resp, r, p, nil
}

// promptLog is upstream's inference_input item of a local model: its
// inference_input_log {"formatted_prompt": prompt}.
func promptLog(prompt string) pyval.OrderedObject {
	return pyval.OrderedObject{{Key: "role", Value: "inference_input"},
		{Key: "content", Value: pyval.OrderedObject{{Key: "formatted_prompt", Value: prompt}}}}
}

// responsesJSON is model_responses as the result file holds it.
func responsesJSON(v pyval.Value) (json.RawMessage, error) {
	return pyval.AppendAny(nil, v)
}

func (l *localRun) singleTurn() (results.Record, Stats, error) {
	if _, err := l.conv.StartTurn(0); err != nil {
		return results.Record{}, Stats{}, err
	}
	resp, r, p, err := l.query()
	if err != nil {
		return results.Record{}, Stats{}, fmt.Errorf("infer: %s: %w", l.e.ID, err)
	}
	res, err := responsesJSON(r.ModelResponses)
	if err != nil {
		return results.Record{}, Stats{}, fmt.Errorf("infer: %s: %w", l.e.ID, err)
	}
	rec := results.Record{
		ID:               l.e.ID,
		Result:           res,
		InputTokenCount:  mustJSON(resp.InputTokens),
		OutputTokenCount: mustJSON(resp.OutputTokens),
		Latency:          mustJSON(resp.Latency.Seconds()),
	}
	if l.opts.IncludeInputLog {
		if rec.InferenceLog, err = marshalLog([]any{promptLog(p)}); err != nil {
			return results.Record{}, Stats{}, fmt.Errorf("infer: %s: %w", l.e.ID, err)
		}
		rec.LogFirst = true
	}
	if r.Reasoning != "" {
		rec.ReasoningContent = mustJSON(r.Reasoning)
	}
	st := Stats{Calls: 1, InputTokens: resp.InputTokens, OutputTokens: resp.OutputTokens, Latency: resp.Latency}
	return rec, st, nil
}
