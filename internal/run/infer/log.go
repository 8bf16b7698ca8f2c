package infer

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"

	"github.com/bfcl-go/bfcl/internal/models/driver"
	"github.com/bfcl-go/bfcl/internal/python/pyval"
	"github.com/bfcl-go/bfcl/sim"
)

// The inference log is upstream's `inference_log` (the multi-turn loops of
// bfcl_eval/model_handler/base_handler.py): a list holding a state_info list
// before the first turn, then per turn an object {"begin_of_turn_query":
// [...], "step_0": [...], ...} followed by the turn's state_info list. Its
// texts are facts of the result format, reproduced from base_handler.py.
const (
	logDecoded   = "Successfully decoded model response."
	logEmpty     = "Empty response from the model. Proceed to next turn."
	logDecodeErr = "Error decoding the model response. Proceed to next turn."
)

// logForceQuit is the handler_log line of a force-quit step
// (base_handler.py, with MAXIMUM_STEP_LIMIT filled in).
var logForceQuit = "Model has been forced to quit after " + strconv.Itoa(MaximumStepLimit) + " steps."

// Classes whose state upstream never logs (bfcl_eval/constants/
// executable_backend_config.py): STATELESS_CLASSES and
// OMIT_STATE_INFO_CLASSES.
var (
	statelessClasses     = []string{"MathAPI"}
	omitStateInfoClasses = []string{"MemoryAPI_kv", "MemoryAPI_vector", "MemoryAPI_rec_sum", "WebSearchAPI"}
)

// StateSource is implemented by executors whose backends have state to log
// (engine.Session): the involved classes in creation order and their
// instances.
type StateSource interface {
	Classes() []string
	Instance(class string) (sim.Instance, bool)
}

// stateLog is one state_info list: per logged backend {"role":
// "state_info", "class_name", "content"}, content being the instance's
// public attributes as upstream writes them (make_json_serializable, then
// json.dumps). It is nil when no backend is logged (upstream then appends
// nothing).
func stateLog(src StateSource) ([]any, error) {
	var out []any
	for _, cl := range src.Classes() {
		if slices.Contains(statelessClasses, cl) || slices.Contains(omitStateInfoClasses, cl) {
			continue
		}
		inst, ok := src.Instance(cl)
		if !ok {
			return nil, fmt.Errorf("backend %s was not created", cl)
		}
		content, err := pyval.AppendJSONSerializable(nil, inst.State(), pyval.JSONOptions{ASCII: true, Compact: true})
		if err != nil {
			return nil, fmt.Errorf("state of %s cannot be written as JSON: %w", cl, err)
		}
		out = append(out, pyval.OrderedObject{
			{Key: "role", Value: "state_info"},
			{Key: "class_name", Value: cl},
			{Key: "content", Value: pyval.CompactJSON(content)},
		})
	}
	return out, nil
}

// messagesLog is a list of chat messages as upstream logs a turn's query:
// role and content.
func messagesLog(ms []driver.Message) []any {
	out := make([]any, len(ms))
	for i, m := range ms {
		out[i] = pyval.OrderedObject{{Key: "role", Value: m.Role}, {Key: "content", Value: m.Content}}
	}
	return out
}

// inputLog is the inference_input item of a step: the request body the
// driver sent (upstream logs its handler's inference_input_log, "" when the
// handler sets none; a driver that sends no HTTP request logs "").
func inputLog(resp driver.Response) pyval.OrderedObject {
	var content any = ""
	if len(resp.Request) > 0 {
		if json.Valid(resp.Request) {
			content = json.RawMessage(resp.Request)
		} else {
			content = string(resp.Request)
		}
	}
	return pyval.OrderedObject{{Key: "role", Value: "inference_input"}, {Key: "content", Value: content}}
}

// assistantLog is the assistant item of a step: what the model returned,
// as stored in the result, and its reasoning when there was any.
func assistantLog(stored json.RawMessage, reasoning string) pyval.OrderedObject {
	o := pyval.OrderedObject{{Key: "role", Value: "assistant"}, {Key: "content", Value: stored}}
	if reasoning != "" {
		o = append(o, pyval.Field{Key: "reasoning_content", Value: reasoning})
	}
	return o
}

func handlerLog(content string, decoded []string) pyval.OrderedObject {
	if decoded == nil {
		decoded = []string{}
	}
	return pyval.OrderedObject{{Key: "role", Value: "handler_log"}, {Key: "content", Value: content}, {Key: "model_response_decoded", Value: decoded}}
}

func decodeErrorLog(err error) pyval.OrderedObject {
	return pyval.OrderedObject{{Key: "role", Value: "handler_log"}, {Key: "content", Value: logDecodeErr}, {Key: "error", Value: err.Error()}}
}

func toolLog(result string) pyval.OrderedObject {
	return pyval.OrderedObject{{Key: "role", Value: "tool"}, {Key: "content", Value: result}}
}

func forceQuitLog() pyval.OrderedObject {
	return pyval.OrderedObject{{Key: "role", Value: "handler_log"}, {Key: "content", Value: logForceQuit}}
}
