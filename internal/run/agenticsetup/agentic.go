// Package agenticsetup holds the inference-side hooks of the agentic categories
// (memory_kv, memory_vector, memory_rec_sum, web_search_base,
// web_search_no_snippet), as upstream's handlers apply them
// (bfcl_eval/model_handler/base_handler.py, model_handler/utils.py
// add_memory_instruction_system_prompt, utils.py
// populate_initial_settings_for_*):
//
//	cfg, _ := agentic.InitialConfig(entry, modelResultDir)  // engine.Config.InitialConfig
//	session.Init()                                           // creates the instance, loads the memory snapshot
//	inst, _ := session.Instance(entry.InvolvedClasses[0])
//	agentic.Configure(inst, opts)                            // embedder / search provider
//	q, _ := agentic.PrepareQuestion(view.Question, entry, inst) // memory system prompt
//	... the conversation ...
//	agentic.Finish(entry, inst)                              // prerequisite: flush the memory snapshot
//
// Memory entries of one scenario depend on each other: its prerequisite
// conversations (dataset.Source.MemoryPrereqs) must run one after the other,
// in order, each starting from the memory the previous one left; the
// scenario's questions start from the memory of the last prerequisite and
// do not change what later entries see (they may run in parallel). The
// memory travels through snapshot files below the model's result folder
// (upstream's layout, see sim.MemorySnapshotDir), or, without files,
// through a Snapshots value.
//
// Scoring needs none of this: the agentic checker reads only the final
// answer text (internal/check/agentic).
package agenticsetup

import (
	"fmt"
	"strings"
	"sync"

	"github.com/bfcl-go/bfcl/internal/benchmark/category"
	"github.com/bfcl-go/bfcl/internal/benchmark/dataset"
	"github.com/bfcl-go/bfcl/internal/python/pyval"
	"github.com/bfcl-go/bfcl/internal/services/embed"
	"github.com/bfcl-go/bfcl/internal/services/websearch"
	"github.com/bfcl-go/bfcl/sim"
)

// IsMemory is upstream's is_memory ("memory" in the id or category).
func IsMemory(idOrCategory string) bool { return strings.Contains(idOrCategory, "memory") }

// IsWebSearch is upstream's is_web_search.
func IsWebSearch(idOrCategory string) bool { return strings.Contains(idOrCategory, "web_search") }

// testCategoryOf is extract_test_category_from_id: the id up to its last
// "_" (after a format-sensitivity prefix is cut at ":").
func testCategoryOf(id string) string {
	if i := strings.IndexByte(id, ':'); i >= 0 {
		id = id[:i]
	}
	if i := strings.LastIndexByte(id, '_'); i >= 0 {
		return id[:i]
	}
	return id
}

// InitialConfig is the initial_config upstream gives an agentic entry at
// inference time: for memory entries (questions and prerequisites)
// {"MemoryAPI_<backend>": {"model_result_dir", "scenario", "test_id",
// "test_category"}}, for web-search entries {"WebSearchAPI":
// {"show_snippet": false for no_snippet, else true}}; nil for other
// entries. modelResultDir is the model's result folder
// (<result root>/<model dir>), where the memory snapshots live.
func InitialConfig(e *dataset.Entry, modelResultDir string) (*pyval.Dict, error) {
	switch {
	case IsMemory(e.ID):
		if len(e.InvolvedClasses) != 1 {
			return nil, fmt.Errorf("agentic: %s: memory entry must involve exactly one class, has %v", e.Where(), e.InvolvedClasses)
		}
		if modelResultDir == "" {
			return nil, fmt.Errorf("agentic: %s: memory entries need the model's result folder", e.Where())
		}
		c := pyval.NewDict()
		c.SetStr("model_result_dir", pyval.Str(modelResultDir))
		c.SetStr("scenario", pyval.Str(e.Scenario))
		c.SetStr("test_id", pyval.Str(e.ID))
		c.SetStr("test_category", pyval.Str(testCategoryOf(e.ID)))
		d := pyval.NewDict()
		d.SetStr(e.InvolvedClasses[0], c)
		return d, nil
	case IsWebSearch(e.ID):
		if len(e.InvolvedClasses) == 0 {
			return nil, fmt.Errorf("agentic: %s: web-search entry without involved_classes", e.Where())
		}
		c := pyval.NewDict()
		c.SetStr("show_snippet", pyval.Bool(!strings.Contains(e.ID, "no_snippet")))
		d := pyval.NewDict()
		d.SetStr(e.InvolvedClasses[0], c)
		return d, nil
	}
	return nil, nil
}

// Options are the external services of the agentic backends.
type Options struct {
	// Embedder is the vector memory's text embedder (required for
	// memory_vector; see internal/services/embed for the choices and how they relate
	// to upstream's all-MiniLM-L6-v2).
	Embedder embed.Embedder
	// Search is the web search engine and page fetcher (required for
	// web_search_*; see internal/services/websearch).
	Search websearch.Provider
	// Retry bounds the retries of rate-limited searches.
	Retry websearch.Retry
}

// Configure gives a freshly created backend instance its services. Call it
// after the engine created the instances and before the model's first
// call. Other classes are left alone. A vector memory or web-search
// instance without its service is an error.
func Configure(inst sim.Instance, o Options) error {
	switch x := inst.(type) {
	case *sim.MemoryAPI_vector:
		if o.Embedder == nil {
			return fmt.Errorf("agentic: MemoryAPI_vector needs an embedder (Options.Embedder)")
		}
		x.SetEmbedder(o.Embedder)
	case *sim.WebSearchAPI:
		if o.Search == nil {
			return fmt.Errorf("agentic: WebSearchAPI needs a search provider (Options.Search)")
		}
		x.SetProvider(o.Search)
		x.SetRetry(o.Retry)
	}
	return nil
}

// MemorySystemPrompt is the system prompt add_memory_instruction_system_prompt
// builds: MEMORY_BACKEND_INSTRUCTION_UNIFIED for rec_sum categories, else
// MEMORY_BACKEND_INSTRUCTION_CORE_ARCHIVAL, filled with the scenario's
// MEMORY_AGENT_SETTINGS sentence and the backend's
// _dump_core_memory_to_context.
func MemorySystemPrompt(c category.Category, scenario string, mem sim.MemoryBackend) (string, error) {
	setting, ok := memoryAgentSettings()[scenario]
	if !ok {
		return "", pyval.NewKeyError(pyval.Str(scenario))
	}
	content, err := mem.CoreMemoryContext()
	if err != nil {
		return "", err
	}
	tmpl := MemoryBackendInstructionCoreArchival
	if strings.Contains(string(c), "rec_sum") {
		tmpl = MemoryBackendInstructionUnified
	}
	return pyval.FormatFields(tmpl, map[string]pyval.Value{"scenario_setting": pyval.Str(setting), "memory_content": pyval.Str(content)})
}

// AddMemorySystemPrompt returns a copy of question with the memory system
// prompt in place, as add_memory_instruction_system_prompt does: when the
// first message of the first turn is a system message (the agentic
// response-format prompt of a memory question), the memory prompt is put
// before its content, separated by a blank line; otherwise (prerequisite
// conversations) it becomes a new first system message. question is not
// modified.
func AddMemorySystemPrompt(question [][]dataset.Message, c category.Category, scenario string, mem sim.MemoryBackend) ([][]dataset.Message, error) {
	if len(question) == 0 {
		return nil, fmt.Errorf("agentic: memory entry without turns")
	}
	prompt, err := MemorySystemPrompt(c, scenario, mem)
	if err != nil {
		return nil, err
	}
	out := make([][]dataset.Message, len(question))
	for i, t := range question {
		out[i] = append([]dataset.Message(nil), t...)
	}
	first := out[0]
	if len(first) > 0 && first[0].Role == "system" {
		first[0].Content = prompt + "\n\n" + first[0].Content
	} else {
		out[0] = append([]dataset.Message{{Role: "system", Content: prompt}}, first...)
	}
	return out, nil
}

// PrepareQuestion applies the inference-time additions that depend on the
// backend instance: for memory entries the memory system prompt (from the
// instance's loaded memory); other entries are returned unchanged. question
// should already carry dataset.InferenceView's additions.
func PrepareQuestion(question [][]dataset.Message, e *dataset.Entry, inst sim.Instance) ([][]dataset.Message, error) {
	if !IsMemory(e.ID) {
		return question, nil
	}
	mem, ok := inst.(sim.MemoryBackend)
	if !ok {
		return nil, fmt.Errorf("agentic: %s: %T is not a memory backend", e.Where(), inst)
	}
	return AddMemorySystemPrompt(question, e.Category, e.Scenario, mem)
}

// Finish ends an entry's conversation: a memory prerequisite flushes its
// memory to the snapshot files (_flush_memory_to_local_file); nothing else
// happens for other entries. Call it also when the conversation was
// force-terminated, as upstream does (it flushes after the turn loop).
func Finish(e *dataset.Entry, inst sim.Instance) error {
	if !IsMemory(e.ID) || !sim.IsMemoryPrereq(e.ID) {
		return nil
	}
	mem, ok := inst.(sim.MemoryBackend)
	if !ok {
		return fmt.Errorf("agentic: %s: %T is not a memory backend", e.Where(), inst)
	}
	if err := mem.Flush(); err != nil {
		return fmt.Errorf("agentic: %s: flushing memory: %w", e.Where(), err)
	}
	return nil
}

// Snapshots carries memory between the entries of a run without files:
// per category and scenario, the memory the last prerequisite left. Safe
// for concurrent use (entries of one scenario must still run in order).
type Snapshots struct {
	mu sync.Mutex
	m  map[snapKey]*pyval.Dict
}

// NewSnapshots returns an empty store.
func NewSnapshots() *Snapshots { return &Snapshots{m: map[snapKey]*pyval.Dict{}} }

// snapKey names a memory snapshot: the category and the scenario.
type snapKey struct {
	c        category.Category
	scenario string
}

func snapKeyOf(e *dataset.Entry) snapKey { return snapKey{e.Category, e.Scenario} }

// Load gives mem the memory e starts from: empty for the first
// prerequisite of a scenario (id ending in "-0"), else the latest saved
// snapshot. ok is false when a later entry finds nothing saved (upstream
// then warns and starts empty; so does Load).
func (s *Snapshots) Load(e *dataset.Entry, mem sim.MemoryBackend) (ok bool, err error) {
	if sim.IsFirstMemoryPrereq(e.ID) {
		return true, nil
	}
	s.mu.Lock()
	snap, found := s.m[snapKeyOf(e)]
	s.mu.Unlock()
	if !found {
		return false, nil
	}
	return true, mem.Restore(pyval.DeepCopy(snap).(*pyval.Dict))
}

// Save records mem as the latest memory of e's scenario (call it when a
// prerequisite conversation ends).
func (s *Snapshots) Save(e *dataset.Entry, mem sim.MemoryBackend) {
	snap := mem.Snapshot()
	s.mu.Lock()
	s.m[snapKeyOf(e)] = snap
	s.mu.Unlock()
}
