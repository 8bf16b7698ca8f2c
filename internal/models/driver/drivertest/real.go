package drivertest

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/url"
	"os"
	"path/filepath"

	"github.com/onsi/gomega"

	"github.com/bfcl-go/bfcl/internal/models/driver/core"
	"github.com/bfcl-go/bfcl/internal/testkit/tinygguf"
)

// Environment of the real-server specs (labelled "real-ollama"): the base
// URL printed by `.ci/ollama.sh start` and the scripted model's name.
const (
	EnvOllamaURL   = "BFCL_OLLAMA_URL"
	EnvOllamaModel = "BFCL_OLLAMA_MODEL"
	// DefaultOllamaModel is the model `.ci/ollama.sh start` creates.
	DefaultOllamaModel = "bfcl-tiny-scripted"
)

// RealOllama returns the server URL and model of the real-server specs, or
// a reason to skip. A URL that is not a loopback address is refused: the
// tests never talk to anything but a local server.
func RealOllama() (base, model, skip string, err error) {
	base = os.Getenv(EnvOllamaURL)
	if base == "" {
		return "", "", "REAL OLLAMA NOT CONFIGURED: set " + EnvOllamaURL + " (see .ci/ollama.sh start); real-server specs skipped", nil
	}
	u, err := url.Parse(base)
	if err != nil || u.Hostname() == "" {
		return "", "", "", fmt.Errorf("%s=%q is not a URL", EnvOllamaURL, base)
	}
	host := u.Hostname()
	ip := net.ParseIP(host)
	if !(host == "localhost" || (ip != nil && ip.IsLoopback())) {
		return "", "", "", fmt.Errorf("%s=%q is not a loopback address; the real-server specs only talk to a local server", EnvOllamaURL, base)
	}
	model = os.Getenv(EnvOllamaModel)
	if model == "" {
		model = DefaultOllamaModel
	}
	return base, model, "", nil
}

// FileSystemFunctions are the BFCL GorillaFileSystem function docs recorded
// in fixtures/drivers/ollama/03_multi_turn_history.json (cd, ls, mv, grep):
// the tools the scripted CI model calls.
func FileSystemFunctions() ([]json.RawMessage, error) {
	b, err := os.ReadFile(filepath.Join(FixtureDir("ollama"), "03_multi_turn_history.json"))
	if err != nil {
		return nil, err
	}
	var f Fixture
	if err := json.Unmarshal(b, &f); err != nil {
		return nil, err
	}
	if len(f.Request.Functions) == 0 {
		return nil, fmt.Errorf("no functions in the fixture")
	}
	return f.Request.Functions, nil
}

// ScriptedConversation runs the scripted model's file-system conversation
// on d (the real-server specs): history ends with a request to go to the
// document folder, which the model must answer with one call cd(folder=
// "document"); the tool result is answered with tinygguf.DefaultAfterTool;
// next (the user's following message) must bring one call ls(a=True). It
// returns the first answer for the driver's own checks.
func ScriptedConversation(ctx context.Context, d core.Driver, history []core.Message, next string) core.Response {
	first, err := d.Complete(ctx, core.Request{Messages: history, Functions: fileSystemFunctions()})
	gomega.ExpectWithOffset(1, err).NotTo(gomega.HaveOccurred())
	expectOneCall(first, "cd", `{"folder": "document"}`)
	gomega.ExpectWithOffset(1, first.ToolCalls[0].ID).NotTo(gomega.BeEmpty())
	gomega.ExpectWithOffset(1, first.InputTokens).To(gomega.BeNumerically(">", 0))

	history = append(history,
		core.Message{Role: "assistant", Content: first.Text, ToolCalls: first.ToolCalls},
		core.Message{Role: "tool", Content: "{'current_working_directory': 'document'}", ToolCallID: first.ToolCalls[0].ID})
	r, err := d.Complete(ctx, core.Request{Messages: history, Functions: fileSystemFunctions()})
	gomega.ExpectWithOffset(1, err).NotTo(gomega.HaveOccurred())
	gomega.ExpectWithOffset(1, r.ToolCalls).To(gomega.BeEmpty())
	gomega.ExpectWithOffset(1, r.Text).To(gomega.Equal(tinygguf.DefaultAfterTool))

	history = append(history, core.Message{Role: "assistant", Content: r.Text}, core.Message{Role: "user", Content: next})
	r, err = d.Complete(ctx, core.Request{Messages: history, Functions: fileSystemFunctions()})
	gomega.ExpectWithOffset(1, err).NotTo(gomega.HaveOccurred())
	expectOneCall(r, "ls", `{"a": true}`)
	return first
}

func fileSystemFunctions() []json.RawMessage {
	fns, err := FileSystemFunctions()
	gomega.ExpectWithOffset(2, err).NotTo(gomega.HaveOccurred())
	return fns
}

// expectOneCall expects r to ask for exactly one call, of name with
// arguments args (as JSON).
func expectOneCall(r core.Response, name, args string) {
	gomega.ExpectWithOffset(2, r.ToolCalls).To(gomega.HaveLen(1))
	gomega.ExpectWithOffset(2, r.ToolCalls[0].Name).To(gomega.Equal(name))
	gomega.ExpectWithOffset(2, r.ToolCalls[0].Arguments).To(gomega.MatchJSON(args))
}
