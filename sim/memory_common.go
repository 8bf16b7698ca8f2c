package sim

// Shared part of the memory backends: upstream's
// bfcl_eval/eval_checker/multi_turn_eval/func_source_code/memory_api_metaclass.py
// (class MemoryAPI: snapshot folders and loading) and the helpers of
// bfcl_eval/utils.py that name the snapshot folder.
//
// A memory entry's state lives in snapshot files below the model's result
// folder, exactly where upstream keeps them:
//
//	<model_result_dir>/agentic/memory/<backend>/memory_snapshot/<scenario>_final.json
//	<model_result_dir>/agentic/memory/<backend>/memory_snapshot/prereq_checkpoints/<prereq id>.json
//
// Each prerequisite conversation starts from <scenario>_final.json (the
// first one, id ending in "-0", starts empty) and writes both files when it
// ends (Flush); every question of the scenario starts from the last
// <scenario>_final.json. The files are written as upstream's
// json.dump(..., indent=4) writes them, so a run can resume from snapshots
// written by upstream and vice versa.
//
// The same state is also available without files: Snapshot returns what
// Flush would write and Restore loads it (see internal/run/agenticsetup).

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/bfcl-go/bfcl/internal/python/pyval"
	"github.com/bfcl-go/bfcl/internal/store/atomicfile"
)

// MemoryBackend is implemented by the three memory classes (MemoryAPI_kv,
// MemoryAPI_vector, MemoryAPI_rec_sum).
type MemoryBackend interface {
	Instance
	// CoreMemoryContext is upstream's _dump_core_memory_to_context: the text
	// put into the memory system prompt.
	CoreMemoryContext() (string, error)
	// Snapshot returns the memory as _flush_memory_to_local_file writes it
	// (a fresh value; the caller may keep it).
	Snapshot() *pyval.Dict
	// Restore replaces the memory by a snapshot, as _load_scenario does with
	// the snapshot file's content.
	Restore(snapshot *pyval.Dict) error
	// Flush is _flush_memory_to_local_file: it writes
	// <snapshot folder>/<test id>.json and <scenario>_final.json. It needs a
	// LoadScenario with a model_result_dir first.
	Flush() error
	// SnapshotWarning is upstream's console warning when a non-first entry
	// found no snapshot file (the memory then starts empty); "" otherwise.
	SnapshotWarning() string
}

// memoryFiles is MemoryAPI's snapshot bookkeeping (_prepare_snapshot).
type memoryFiles struct {
	testID         string
	scenario       string
	snapshotFolder string // "" until LoadScenario ran with a model_result_dir
	latestSnapshot string
	warning        string
}

// memConfigStr reads a required initial_config key as a str, with Python's
// KeyError when it is missing.
func memConfigStr(config *pyval.Dict, key string) (string, error) {
	v, ok := config.GetStr(key)
	if !ok {
		return "", pyval.NewKeyError(pyval.Str(key))
	}
	s, ok := v.(pyval.Str)
	if !ok {
		return "", pyval.NewTypeError("initial_config[%q] must be a str, got %s", key, v.TypeName())
	}
	return string(s), nil
}

// MemorySnapshotDir is upstream's snapshot folder of a memory entry:
// <modelResultDir>/<get_directory_structure_by_id(testID)>/memory_snapshot,
// i.e. <modelResultDir>/agentic/memory/<backend>/memory_snapshot.
func MemorySnapshotDir(modelResultDir, testID string) (string, error) {
	backend, err := memBackendOf(testID)
	if err != nil {
		return "", err
	}
	return filepath.Join(modelResultDir, "agentic", "memory", backend, "memory_snapshot"), nil
}

// memBackendOf is extract_memory_backend_type(extract_test_category_from_id(id, remove_prereq=True)).
func memBackendOf(testID string) (string, error) {
	id := strings.ReplaceAll(testID, "_prereq", "")
	if i := strings.IndexByte(id, ':'); i >= 0 {
		id = id[:i]
	}
	cat := id
	if i := strings.LastIndexByte(id, '_'); i >= 0 {
		cat = id[:i]
	}
	if !strings.Contains(cat, "memory") || !strings.HasPrefix(cat, "memory_") {
		return "", fmt.Errorf("Test category %s is not a memory category.", cat)
	}
	return cat[len("memory_"):], nil
}

// IsMemoryPrereq is upstream's is_memory_prereq.
func IsMemoryPrereq(testID string) bool { return strings.Contains(testID, "prereq") }

// IsFirstMemoryPrereq is upstream's is_first_memory_prereq_entry.
func IsFirstMemoryPrereq(testID string) bool {
	return strings.Contains(testID, "prereq") && strings.HasSuffix(testID, "-0")
}

// prepare is _prepare_snapshot: it records the paths, creates the snapshot
// folder and returns the snapshot to start from (nil for an empty start).
func (m *memoryFiles) prepare(config *pyval.Dict) (*pyval.Dict, error) {
	dir, err := memConfigStr(config, "model_result_dir")
	if err != nil {
		return nil, err
	}
	if m.testID, err = memConfigStr(config, "test_id"); err != nil {
		return nil, err
	}
	if m.scenario, err = memConfigStr(config, "scenario"); err != nil {
		return nil, err
	}
	snapDir, err := MemorySnapshotDir(dir, m.testID)
	if err != nil {
		return nil, err
	}
	m.snapshotFolder = snapDir
	if IsMemoryPrereq(m.testID) {
		m.snapshotFolder = filepath.Join(snapDir, "prereq_checkpoints")
	}
	if err := os.MkdirAll(m.snapshotFolder, 0o755); err != nil {
		return nil, err
	}
	m.latestSnapshot = filepath.Join(snapDir, m.scenario+"_final.json")
	if IsFirstMemoryPrereq(m.testID) {
		return nil, nil
	}
	b, err := os.ReadFile(m.latestSnapshot)
	if errors.Is(err, os.ErrNotExist) {
		m.warning = fmt.Sprintf("Warning: Not first memory entry, but no snapshot file found in this path: %s. The memory will start empty for %s.", m.latestSnapshot, m.testID)
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	v, err := pyval.FromJSON(b)
	if err != nil {
		return nil, fmt.Errorf("memory snapshot %s: %w", m.latestSnapshot, err)
	}
	d, ok := v.(*pyval.Dict)
	if !ok {
		return nil, fmt.Errorf("memory snapshot %s is not a JSON object", m.latestSnapshot)
	}
	return d, nil
}

// loadScenario is the _load_scenario of the three memory classes: prepare,
// then restore the starting snapshot when it holds anything.
func (m *memoryFiles) loadScenario(config *pyval.Dict, restore func(*pyval.Dict) error) error {
	snap, err := m.prepare(config)
	if err != nil {
		return err
	}
	if snap != nil && snap.Len() > 0 {
		return restore(snap)
	}
	return nil
}

// flush writes snapshot to <snapshot folder>/<test id>.json and to the
// scenario's latest file, as json.dump(indent=4) does.
func (m *memoryFiles) flush(snapshot *pyval.Dict) error {
	if m.snapshotFolder == "" {
		return fmt.Errorf("memory flush: no snapshot folder (LoadScenario was not given a model_result_dir)")
	}
	text, err := MemoryJSONIndent(snapshot, 4)
	if err != nil {
		return err
	}
	for _, p := range []string{filepath.Join(m.snapshotFolder, m.testID+".json"), m.latestSnapshot} {
		if err := atomicfile.Write(p, []byte(text)); err != nil {
			return err
		}
	}
	return nil
}

// MemoryJSONIndent is Python's json.dumps(v, indent=n) with the other
// arguments at their defaults (ensure_ascii, item separator "," and key
// separator ": " once indent is set, empty containers as {} and []).
func MemoryJSONIndent(v pyval.Value, n int) (string, error) {
	b, err := pyval.AppendJSONWith(nil, v, pyval.JSONOptions{ASCII: true, Indent: n})
	return string(b), err
}

// status returns {"<key>": msg}.
func memStatus(key, msg string) *pyval.Dict { return oneKey(key, pyval.Str(msg)) }
