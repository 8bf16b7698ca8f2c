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
	"github.com/bfcl-go/bfcl/internal/run/cost"
	"github.com/bfcl-go/bfcl/internal/run/sched"
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
	var (
		exec  Executor
		hooks Hooks
		err   error
	)
	if multi {
		if opts.NewExecutor == nil {
			return results.Record{}, Stats{}, fmt.Errorf("infer: %s: no backend executor configured", e.ID)
		}
		if exec, err = opts.NewExecutor(e); err != nil {
			return results.Record{}, Stats{}, fmt.Errorf("infer: %s: %w", e.ID, err)
		}
		hooks, _ = exec.(Hooks)
	}
	question := e.Question
	if hooks != nil {
		if question, err = hooks.Prepare(e.Question); err != nil {
			return results.Record{}, Stats{}, fmt.Errorf("infer: %s: %w", e.ID, err)
		}
	}
	fns, err := oss.FunctionsFromJSON(e.Functions)
	if err != nil {
		return results.Record{}, Stats{}, fmt.Errorf("infer: %s: function documents: %w", e.ID, err)
	}
	turns := make([][]oss.Message, len(question))
	for i, t := range question {
		for _, m := range t {
			turns[i] = append(turns[i], oss.Text(m.Role, m.Content))
		}
	}
	conv, err := oss.NewConversation(f, e.ID, fns, turns, e.MissedFuncDocs)
	if err != nil {
		return results.Record{}, Stats{}, fmt.Errorf("infer: %s: %w", e.ID, err)
	}
	l := localRun{ctx: ctx, d: d, e: e, opts: opts, conv: conv, exec: exec}
	if !multi {
		return l.singleTurn()
	}
	rec, st, err := l.multiTurn()
	if err == nil && hooks != nil {
		if err = hooks.Finish(); err != nil {
			err = fmt.Errorf("infer: %s: %w", e.ID, err)
		}
	}
	return rec, st, err
}

// localRun is one entry's run through a local-model handler.
type localRun struct {
	ctx  context.Context
	d    driver.Driver
	e    *dataset.Entry
	opts Options
	conv *oss.Conversation
	exec Executor
	st   Stats
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
	l.st.Calls++
	l.st.InputTokens += resp.InputTokens
	l.st.OutputTokens += resp.OutputTokens
	l.st.Latency += resp.Latency
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
	return rec, l.st, nil
}

func (l *localRun) multiTurn() (results.Record, Stats, error) {
	e, opts := l.e, l.opts
	var (
		allResults                   []json.RawMessage
		inTokens, outTokens, latency [][]any
		reasoning                    [][]string
		anyReasoning                 bool
		log                          []any
	)
	states, _ := l.exec.(StateSource)
	logState := func() error {
		if opts.ExcludeStateLog || states == nil {
			return nil
		}
		sl, err := stateLog(states)
		if err != nil {
			return fmt.Errorf("infer: %s: %w", e.ID, err)
		}
		if len(sl) > 0 {
			log = append(log, sl)
		}
		return nil
	}
	if err := logState(); err != nil {
		return results.Record{}, l.st, err
	}
	ticket := sched.TicketOf(l.ctx)
	expected := cost.Turns(e)
	for turn := 0; turn < l.conv.Turns(); turn++ {
		current, err := l.conv.StartTurn(turn)
		if err != nil {
			return results.Record{}, l.st, fmt.Errorf("infer: %s: %w", e.ID, err)
		}
		var (
			turnResults              []json.RawMessage
			turnIn, turnOut, turnLat []any
			turnReasoning            []string
			forceQuit                bool
		)
		turnLog := pyval.OrderedObject{{Key: "begin_of_turn_query", Value: oss.DictList(current)}}
		for step := 0; ; {
			if err := l.ctx.Err(); err != nil {
				return results.Record{}, l.st, err
			}
			ticket.SetPriority(cost.Ahead(expected, turn, step))
			resp, r, p, err := l.query()
			if err != nil {
				return results.Record{}, l.st, fmt.Errorf("infer: %s turn %d step %d: %w", e.ID, turn, step, err)
			}
			res, err := responsesJSON(r.ModelResponses)
			if err != nil {
				return results.Record{}, l.st, fmt.Errorf("infer: %s: %w", e.ID, err)
			}
			var stepLog []any
			if opts.IncludeInputLog {
				stepLog = append(stepLog, promptLog(p))
			}
			stepLog = append(stepLog, assistantLog(res, r.Reasoning))
			turnResults = append(turnResults, res)
			turnIn = append(turnIn, resp.InputTokens)
			turnOut = append(turnOut, resp.OutputTokens)
			turnLat = append(turnLat, resp.Latency.Seconds())
			turnReasoning = append(turnReasoning, r.Reasoning)
			anyReasoning = anyReasoning || r.Reasoning != ""
			calls, err := decode.DecodeExecuteValue(r.ModelResponses, decode.Options{Spec: opts.Spec})
			if err != nil {
				stepLog = append(stepLog, decodeErrorLog(err))
				turnLog = append(turnLog, stepField(step, stepLog))
				break
			}
			stepLog = append(stepLog, handlerLog(logDecoded, calls))
			if isEmptyExecute(calls) {
				stepLog = append(stepLog, handlerLog(logEmpty, calls))
				turnLog = append(turnLog, stepField(step, stepLog))
				break
			}
			resume := sched.Pause(l.ctx) // agentic backends wait on the network
			out := l.exec.Execute(calls)
			if err := resume(); err != nil {
				return results.Record{}, l.st, err
			}
			l.conv.AddResults(out, calls, r)
			for _, x := range out {
				stepLog = append(stepLog, toolLog(x))
			}
			if step+1 > MaximumStepLimit {
				forceQuit = true
				stepLog = append(stepLog, forceQuitLog())
			}
			turnLog = append(turnLog, stepField(step, stepLog))
			step++
			if forceQuit {
				break
			}
		}
		allResults = append(allResults, mustJSON(turnResults))
		inTokens = append(inTokens, turnIn)
		outTokens = append(outTokens, turnOut)
		latency = append(latency, turnLat)
		reasoning = append(reasoning, turnReasoning)
		log = append(log, turnLog)
		if err := logState(); err != nil {
			return results.Record{}, l.st, err
		}
		if forceQuit {
			break
		}
	}
	inferenceLog, err := marshalLog(log)
	if err != nil {
		return results.Record{}, l.st, fmt.Errorf("infer: %s: %w", e.ID, err)
	}
	rec := results.Record{
		ID:               e.ID,
		Result:           mustJSON(allResults),
		InputTokenCount:  mustJSON(inTokens),
		OutputTokenCount: mustJSON(outTokens),
		Latency:          mustJSON(latency),
		InferenceLog:     inferenceLog,
	}
	if anyReasoning {
		rec.ReasoningContent = mustJSON(reasoning)
	}
	return rec, l.st, nil
}
