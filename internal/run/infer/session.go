package infer

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/bfcl-go/bfcl/internal/benchmark/dataset"
	"github.com/bfcl-go/bfcl/internal/models/driver"
	"github.com/bfcl-go/bfcl/internal/python/pyval"
	"github.com/bfcl-go/bfcl/internal/run/cost"
	"github.com/bfcl-go/bfcl/internal/run/sched"
	"github.com/bfcl-go/bfcl/internal/store/results"
)

// session is what every multi-turn run of an entry keeps, whatever writes
// its requests (chat messages or a local-model handler's prompts): the
// backends and their hooks, the cost, and what the record and its
// inference log collect turn by turn (upstream's
// inference_multi_turn_FC / _prompting around the handler's hooks).
type session struct {
	e      *dataset.Entry // with the agentic hooks' question, if any
	opts   Options
	exec   Executor
	hooks  Hooks       // agentic backends; nil for the others
	states StateSource // backends whose state is logged; nil for none
	ticket *sched.Ticket
	turns  []int // expected calls per turn (cost.Turns)
	st     Stats

	allResults                   []json.RawMessage
	inTokens, outTokens, latency [][]any
	reasoning                    [][]string
	anyReasoning                 bool
	log                          []any

	// the turn in progress
	turnResults              []json.RawMessage
	turnIn, turnOut, turnLat []any
	turnReasoning            []string
}

// newSession sets up the entry's backends (and the agentic hooks, which
// may rewrite the question).
func newSession(ctx context.Context, e *dataset.Entry, opts Options) (*session, error) {
	if opts.NewExecutor == nil {
		return nil, fmt.Errorf("infer: %s: no backend executor configured", e.ID)
	}
	exec, err := opts.NewExecutor(e)
	if err != nil {
		return nil, fmt.Errorf("infer: %s: %w", e.ID, err)
	}
	hooks, _ := exec.(Hooks)
	if hooks != nil {
		q, err := hooks.Prepare(e.Question)
		if err != nil {
			return nil, fmt.Errorf("infer: %s: %w", e.ID, err)
		}
		x := *e
		x.Question = q
		e = &x
	}
	states, _ := exec.(StateSource)
	return &session{e: e, opts: opts, exec: exec, hooks: hooks, states: states,
		ticket: sched.TicketOf(ctx), turns: cost.Turns(e)}, nil
}

// run runs the turns (turn runs one and says whether the entry was
// force-quit), logging the backends' state before the first turn and after
// each, ends the conversation and returns the record.
func (s *session) run(ctx context.Context, turns int, turn func(t int) (forceQuit bool, err error)) (results.Record, Stats, error) {
	if err := s.logState(); err != nil {
		return results.Record{}, s.st, err
	}
	for t := 0; t < turns; t++ {
		forceQuit, err := turn(t)
		if err != nil {
			return results.Record{}, s.st, err
		}
		if err := s.logState(); err != nil {
			return results.Record{}, s.st, err
		}
		if forceQuit {
			break
		}
	}
	if s.hooks != nil {
		if err := s.hooks.Finish(); err != nil {
			return results.Record{}, s.st, fmt.Errorf("infer: %s: %w", s.e.ID, err)
		}
	}
	rec, err := s.record()
	return rec, s.st, err
}

// logState appends a state_info list (upstream: before the first turn
// and after each turn, unless excluded; nothing when no backend is
// logged).
func (s *session) logState() error {
	if s.opts.ExcludeStateLog || s.states == nil {
		return nil
	}
	sl, err := stateLog(s.states)
	if err != nil {
		return fmt.Errorf("infer: %s: %w", s.e.ID, err)
	}
	if len(sl) > 0 {
		s.log = append(s.log, sl)
	}
	return nil
}

// runTurn asks step by step (ask handles one step and says whether the
// turn goes on) until a step ends the turn or the step limit force-quits
// the entry, and adds the turn to the record and the log; begin is the
// turn's begin_of_turn_query.
func (s *session) runTurn(ctx context.Context, turn int, begin any, ask func(step int) (stepLog []any, more bool, err error)) (forceQuit bool, err error) {
	turnLog := pyval.OrderedObject{{Key: "begin_of_turn_query", Value: begin}}
	for step := 0; ; step++ {
		if err := ctx.Err(); err != nil {
			return false, err
		}
		s.ticket.SetPriority(cost.Ahead(s.turns, turn, step))
		stepLog, more, err := ask(step)
		if err != nil {
			return false, err
		}
		if more && step+1 > MaximumStepLimit {
			forceQuit = true
			stepLog = append(stepLog, forceQuitLog())
		}
		turnLog = append(turnLog, stepField(step, stepLog))
		if !more || forceQuit {
			break
		}
	}
	s.allResults = append(s.allResults, mustJSON(s.turnResults))
	s.inTokens = append(s.inTokens, s.turnIn)
	s.outTokens = append(s.outTokens, s.turnOut)
	s.latency = append(s.latency, s.turnLat)
	s.reasoning = append(s.reasoning, s.turnReasoning)
	s.log = append(s.log, turnLog)
	s.turnResults, s.turnIn, s.turnOut, s.turnLat, s.turnReasoning = nil, nil, nil, nil, nil
	return forceQuit, nil
}

// answered counts one answer of the model (stored as res) in the stats and
// the turn's record fields, and returns the start of its step log: the
// request (with IncludeInputLog) and the assistant item.
func (s *session) answered(resp driver.Response, res json.RawMessage, reasoning string, input any) []any {
	s.st.Calls++
	s.st.InputTokens += resp.InputTokens
	s.st.OutputTokens += resp.OutputTokens
	s.st.Latency += resp.Latency
	s.turnResults = append(s.turnResults, res)
	s.turnIn = append(s.turnIn, resp.InputTokens)
	s.turnOut = append(s.turnOut, resp.OutputTokens)
	s.turnLat = append(s.turnLat, resp.Latency.Seconds())
	s.turnReasoning = append(s.turnReasoning, reasoning)
	s.anyReasoning = s.anyReasoning || reasoning != ""
	var stepLog []any
	if s.opts.IncludeInputLog {
		stepLog = append(stepLog, input)
	}
	return append(stepLog, assistantLog(res, reasoning))
}

// act is what follows the decoding of a step (calls, or the decoding's
// error): a step that does not decode, or decodes to nothing, ends the
// turn (more false); otherwise the calls run on the entry's backends and
// their results are returned and logged.
func (s *session) act(ctx context.Context, stepLog []any, calls []string, decodeErr error) (out []string, log []any, more bool, err error) {
	if decodeErr != nil {
		return nil, append(stepLog, decodeErrorLog(decodeErr)), false, nil
	}
	stepLog = append(stepLog, handlerLog(logDecoded, calls))
	if isEmptyExecute(calls) {
		return nil, append(stepLog, handlerLog(logEmpty, calls)), false, nil
	}
	if s.hooks != nil {
		// Agentic backends search the web and embed text: waits, not work.
		resume := sched.Pause(ctx)
		out = s.exec.Execute(calls)
		if err := resume(); err != nil {
			return nil, nil, false, err
		}
	} else {
		out = s.exec.Execute(calls)
	}
	for _, x := range out {
		stepLog = append(stepLog, toolLog(x))
	}
	return out, stepLog, true, nil
}

// record is the result line of the conversation.
func (s *session) record() (results.Record, error) {
	inferenceLog, err := marshalLog(s.log)
	if err != nil {
		return results.Record{}, fmt.Errorf("infer: %s: %w", s.e.ID, err)
	}
	rec := results.Record{
		ID:               s.e.ID,
		Result:           mustJSON(s.allResults),
		InputTokenCount:  mustJSON(s.inTokens),
		OutputTokenCount: mustJSON(s.outTokens),
		Latency:          mustJSON(s.latency),
		InferenceLog:     inferenceLog,
	}
	if s.anyReasoning {
		rec.ReasoningContent = mustJSON(s.reasoning)
	}
	return rec, nil
}
