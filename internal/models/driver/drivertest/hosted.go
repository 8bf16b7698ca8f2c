package drivertest

import (
	"encoding/json"
	"strings"
	"time"

	"github.com/bfcl-go/bfcl/internal/benchmark/dataset"
	"github.com/bfcl-go/bfcl/internal/models/driver"
	"github.com/bfcl-go/bfcl/internal/models/driver/core"
	"github.com/onsi/gomega"
)

// The helpers below serve the tests of the drivers of upstream's hosted
// API handlers (mistral, cohere, bedrock, qwen): a fake server answering
// canned bodies in order (Serve of a Fixture built in code), and BFCL
// entries small enough to read in a test.

// Answers is a fixture that answers the given exchanges in order.
func Answers(exchanges ...Exchange) *Fixture { return &Fixture{Exchanges: exchanges} }

// JSON is an exchange answering status with a JSON body.
func JSON(status int, body string) Exchange {
	return Exchange{Status: status, ResponseText: &body, ResponseHeaders: map[string]string{"Content-Type": "application/json"}}
}

// SSE is an exchange answering 200 with a text/event-stream body made of
// one "data: <chunk>" event per chunk and the final "data: [DONE]".
func SSE(chunks ...string) Exchange {
	var b strings.Builder
	for _, c := range chunks {
		b.WriteString("data: ")
		b.WriteString(c)
		b.WriteString("\n\n")
	}
	b.WriteString("data: [DONE]\n\n")
	s := b.String()
	return Exchange{Status: 200, ResponseText: &s, ResponseHeaders: map[string]string{"Content-Type": "text/event-stream"}}
}

// SimplePython0 is BFCL's simple_python_0 (question and function document,
// as in BFCL_v4_simple_python.json).
func SimplePython0() *dataset.Entry {
	return &dataset.Entry{ID: "simple_python_0", Category: "simple_python",
		Question:  [][]dataset.Message{{{Role: "user", Content: "Find the area of a triangle with a base of 10 units and height of 5 units."}}},
		Functions: []json.RawMessage{json.RawMessage(`{"name": "calculate_triangle_area", "description": "Calculate the area of a triangle given its base and height.", "parameters": {"type": "dict", "properties": {"base": {"type": "integer", "description": "The base of the triangle."}, "height": {"type": "integer", "description": "The height of the triangle."}, "unit": {"type": "string", "description": "The unit of measure (defaults to 'units' if not specified)"}}, "required": ["base", "height"]}}`)}}
}

// DottedEntry is a single-turn entry whose function name holds a dot
// (BFCL's simple_python_1 has math.factorial).
func DottedEntry() *dataset.Entry {
	return &dataset.Entry{ID: "simple_python_1", Category: "simple_python",
		Question:  [][]dataset.Message{{{Role: "user", Content: "Calculate the factorial of 5 using math functions."}}},
		Functions: []json.RawMessage{json.RawMessage(`{"name": "math.factorial", "description": "Calculate the factorial of a given number.", "parameters": {"type": "dict", "properties": {"number": {"type": "integer", "description": "The number for which factorial needs to be calculated."}}, "required": ["number"]}}`)}}
}

// FileSystemEntry is a two-turn multi-turn entry over GorillaFileSystem's
// cd and ls (documents as in BFCL's multi_turn_func_doc/gorilla_file_system.json,
// descriptions shortened), with a system message in its first turn.
func FileSystemEntry() *dataset.Entry {
	return &dataset.Entry{ID: "multi_turn_base_999", Category: "multi_turn_base", InvolvedClasses: []string{"GorillaFileSystem"},
		Question: [][]dataset.Message{
			{{Role: "system", Content: "You are a file assistant."}, {Role: "user", Content: "Go to the documents folder and list it."}},
			{{Role: "user", Content: "Thanks."}},
		},
		Functions: []json.RawMessage{
			json.RawMessage(`{"name": "cd", "description": "This tool belongs to the Gorilla file system. Change the current working directory to the specified folder.", "parameters": {"type": "dict", "properties": {"folder": {"type": "string", "description": "The folder of the directory to change to."}}, "required": ["folder"]}, "response": {"type": "dict", "properties": {"current_working_directory": {"type": "string", "description": "The new current working directory path."}}}}`),
		}}
}

// CannedExecutor answers every call with the next of its results (the
// last one repeated), recording the calls.
type CannedExecutor struct {
	Results []string
	Calls   [][]string
}

// Execute implements infer.Executor.
func (c *CannedExecutor) Execute(calls []string) []string {
	c.Calls = append(c.Calls, calls)
	out := make([]string, len(calls))
	for i := range calls {
		n := len(c.Calls) - 1
		if n >= len(c.Results) {
			n = len(c.Results) - 1
		}
		out[i] = c.Results[n]
	}
	return out
}

// NewDriver is the driver of cfg.Provider for a test server: FC mode and
// millisecond retries unless cfg says otherwise, then mutate applied.
func NewDriver(cfg core.Config, mutate ...func(*core.Config)) core.Driver {
	if cfg.Mode == "" {
		cfg.Mode = core.ModeFC
	}
	if cfg.RetryBaseDelay == 0 {
		cfg.RetryBaseDelay, cfg.RetryMaxDelay = time.Millisecond, 2*time.Millisecond
	}
	for _, m := range mutate {
		m(&cfg)
	}
	d, err := driver.New(cfg)
	gomega.Expect(err).NotTo(gomega.HaveOccurred())
	return d
}

// MessagesOf is the "messages" array of a request body, as sent.
func MessagesOf(body []byte) string {
	var r struct {
		Messages json.RawMessage `json:"messages"`
	}
	gomega.Expect(json.Unmarshal(body, &r)).To(gomega.Succeed())
	return string(r.Messages)
}
