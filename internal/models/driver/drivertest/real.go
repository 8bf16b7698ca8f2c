package drivertest

import (
	"encoding/json"
	"fmt"
	"net"
	"net/url"
	"os"
	"path/filepath"
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
