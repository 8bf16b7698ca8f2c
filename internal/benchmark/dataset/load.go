package dataset

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/bfcl-go/bfcl/internal/benchmark/category"
)

// MemoryScenarios are upstream's memory scenario names, in upstream order
// (bfcl_eval/constants/category_mapping.py, MEMORY_SCENARIO_NAME).
var memoryScenarios = [...]string{"student", "customer", "finance", "healthcare", "notetaker"}

// MemoryScenarios returns the memory scenario names in upstream order.
func MemoryScenarios() []string { return append([]string(nil), memoryScenarios[:]...) }

// funcDocFiles maps backend classes to their function-document files
// (bfcl_eval/constants/executable_backend_config.py, MULTI_TURN_FUNC_DOC_FILE_MAPPING).
var funcDocFiles = map[string]string{
	"GorillaFileSystem": "gorilla_file_system.json",
	"MathAPI":           "math_api.json",
	"MessageAPI":        "message_api.json",
	"TwitterAPI":        "posting_api.json",
	"TicketAPI":         "ticket_api.json",
	"TradingBot":        "trading_bot.json",
	"TravelAPI":         "travel_booking.json",
	"VehicleControlAPI": "vehicle_control.json",
	"WebSearchAPI":      "web_search.json",
	"MemoryAPI_kv":      "memory_kv.json",
	"MemoryAPI_vector":  "memory_vector.json",
	"MemoryAPI_rec_sum": "memory_rec_sum.json",
}

// FuncDocFile returns the multi_turn_func_doc file name of a backend class.
func FuncDocFile(class string) (string, bool) {
	f, ok := funcDocFiles[class]
	return f, ok
}

// BackendClasses lists every class that has a function-document file.
func BackendClasses() []string {
	out := make([]string, 0, len(funcDocFiles))
	for c := range funcDocFiles {
		out = append(out, c)
	}
	sortStrings(out)
	return out
}

// FuncDocs reads the function documents of one backend class, in file order.
func (s *Source) FuncDocs(class string) ([]json.RawMessage, error) {
	cd, err := s.classDocs(class)
	if err != nil {
		return nil, err
	}
	return append([]json.RawMessage(nil), cd.docs...), nil
}

// classDocs are the function documents of one backend class and their
// names, read once per Source.
func (s *Source) classDocs(class string) (classDocs, error) {
	s.c.mu.Lock()
	if s.c.docs == nil {
		s.c.docs = map[string]*onceDocs{}
	}
	o, ok := s.c.docs[class]
	if !ok {
		o = &onceDocs{}
		s.c.docs[class] = o
	}
	s.c.mu.Unlock()
	o.once.Do(func() { o.cd, o.err = s.readClassDocs(class) })
	return o.cd, o.err
}

func (s *Source) readClassDocs(class string) (classDocs, error) {
	file, ok := funcDocFiles[class]
	if !ok {
		return classDocs{}, fmt.Errorf("dataset: unknown backend class %q", class)
	}
	p := s.Path("multi_turn_func_doc", file)
	name := s.relName(p)
	var cd classDocs
	err := s.jsonLines(p, name, func(line int, b []byte) error {
		if !json.Valid(b) {
			return fmt.Errorf("dataset: %s:%d: malformed function document", name, line)
		}
		fn, err := docName(b)
		if err != nil {
			return fmt.Errorf("dataset: %s:%d: %v", name, line, err)
		}
		cd.docs = append(cd.docs, json.RawMessage(b))
		cd.names = append(cd.names, fn)
		return nil
	})
	return cd, err
}

// questionFile returns the question file of a scoring category and how ids
// are rewritten (upstream's process_memory_test_case / process_web_search_test_case).
func questionFile(c category.Category) (file, answerFile, idFrom string, hasAnswers bool) {
	switch {
	case strings.HasPrefix(string(c), "memory_"):
		return "BFCL_v4_memory.json", "BFCL_v4_memory.json", "memory", true
	case strings.HasPrefix(string(c), "web_search_"):
		return "BFCL_v4_web_search.json", "BFCL_v4_web_search.json", "web_search", true
	case c == category.Irrelevance || c == category.LiveIrrelevance || c == category.LiveRelevance:
		return "BFCL_v4_" + string(c) + ".json", "", "", false
	default:
		return "BFCL_v4_" + string(c) + ".json", "BFCL_v4_" + string(c) + ".json", "", true
	}
}

// Load reads the entries of one scoring category (not a group), in file
// order, with their ground truth attached. Memory entries carry their
// prerequisite ids; the prerequisite conversations themselves come from
// MemoryPrereqs.
func (s *Source) Load(c category.Category) ([]*Entry, error) {
	return s.entriesOnce(&s.c.cats, string(c), func() ([]*Entry, error) { return s.load(c) })
}

func (s *Source) load(c category.Category) ([]*Entry, error) {
	if c == "" || strings.ContainsAny(string(c), "/\\ ,") || c == category.FormatSensitivity {
		return nil, fmt.Errorf("dataset: %q is not a loadable category", c)
	}
	file, answerFile, idFrom, hasAnswers := questionFile(c)
	if !isFile(s.Path(file)) {
		return nil, fmt.Errorf("dataset: category %q: question file %s is missing", c, s.relName(s.Path(file)))
	}
	raws, lines, err := s.readEntries(file)
	if err != nil {
		return nil, err
	}
	var answers map[string]json.RawMessage
	if hasAnswers {
		if answers, err = s.readAnswers(answerFile); err != nil {
			return nil, err
		}
	}
	name := s.relName(s.Path(file))
	var prereqIDs map[string][]string
	if idFrom == "memory" {
		prereqIDs = map[string][]string{}
		for _, sc := range memoryScenarios {
			pre, err := s.MemoryPrereqs(c, sc)
			if err != nil {
				return nil, err
			}
			for _, p := range pre {
				prereqIDs[sc] = append(prereqIDs[sc], p.ID)
			}
		}
	}
	out := make([]*Entry, 0, len(raws))
	for i, r := range raws {
		origID := r.ID
		if idFrom != "" {
			r.ID = strings.ReplaceAll(r.ID, idFrom, string(c))
		}
		e, err := toEntry(r, c, name, lines[i])
		if err != nil {
			return nil, err
		}
		if hasAnswers {
			a, ok := answers[origID]
			if !ok {
				return nil, fmt.Errorf("dataset: %s: no ground truth in possible_answer/%s", e.Where(), answerFile)
			}
			e.Answer = a
		}
		switch {
		case idFrom == "memory":
			if e.Scenario == "" {
				return nil, fmt.Errorf("dataset: %s: memory entry without scenario", e.Where())
			}
			ids, ok := prereqIDs[e.Scenario]
			if !ok {
				return nil, fmt.Errorf("dataset: %s: unknown memory scenario %q", e.Where(), e.Scenario)
			}
			e.DependsOn = append([]string(nil), ids...)
			e.InvolvedClasses = []string{"MemoryAPI_" + strings.TrimPrefix(string(c), "memory_")}
		}
		if strings.HasPrefix(string(c), "multi_turn") || idFrom != "" {
			if err := s.attachFuncDocs(e); err != nil {
				return nil, err
			}
		}
		if strings.HasPrefix(string(c), "multi_turn") {
			if len(e.InitialConfig) == 0 || len(e.InvolvedClasses) == 0 {
				return nil, fmt.Errorf("dataset: %s: multi-turn entry needs initial_config and involved_classes", e.Where())
			}
		} else if idFrom == "" && len(e.Functions) == 0 && c != category.LiveIrrelevance {
			return nil, fmt.Errorf("dataset: %s: entry has no function documents", e.Where())
		}
		out = append(out, e)
	}
	if hasAnswers && len(answers) != len(raws) {
		seen := map[string]bool{}
		for _, r := range raws {
			seen[r.ID] = true
		}
		for id := range answers {
			if !seen[id] {
				return nil, fmt.Errorf("dataset: possible_answer/%s: ground truth for %s has no question in %s", answerFile, id, name)
			}
		}
	}
	return out, nil
}

// attachFuncDocs fills Functions from the involved classes' documents and
// moves held-out (miss_func) documents to MissedFuncDocs, as upstream's
// populate_test_cases_with_predefined_functions does.
func (s *Source) attachFuncDocs(e *Entry) error {
	e.Functions = nil
	var names []string // of e.Functions
	for _, c := range e.InvolvedClasses {
		cd, err := s.classDocs(c)
		if err != nil {
			return fmt.Errorf("%v (entry %s)", err, e.Where())
		}
		e.Functions = append(e.Functions, cd.docs...)
		names = append(names, cd.names...)
	}
	if len(e.MissedFunction) == 0 {
		return nil
	}
	e.MissedFuncDocs = map[int][]json.RawMessage{}
	for _, turn := range sortedTurns(e.MissedFunction) {
		for _, fn := range e.MissedFunction[turn] {
			i := slices.Index(names, fn)
			if i < 0 {
				return fmt.Errorf("dataset: %s: missed_function %q (turn %d) is not a function of %v", e.Where(), fn, turn, e.InvolvedClasses)
			}
			e.MissedFuncDocs[turn] = append(e.MissedFuncDocs[turn], e.Functions[i])
			e.Functions = append(e.Functions[:i:i], e.Functions[i+1:]...)
			names = append(names[:i:i], names[i+1:]...)
		}
	}
	return nil
}

// classDocs are one class's function documents and their names.
type classDocs struct {
	docs  []json.RawMessage
	names []string
}

// MemoryPrereqs reads the prerequisite conversations of one memory scenario
// for one memory category, ids rewritten as upstream does
// ("memory_prereq_0-customer-0" -> "memory_kv_prereq_0-customer-0"), each
// depending on all earlier ones.
func (s *Source) MemoryPrereqs(c category.Category, scenario string) ([]*Entry, error) {
	return s.entriesOnce(&s.c.pre, string(c)+"/"+scenario, func() ([]*Entry, error) { return s.memoryPrereqs(c, scenario) })
}

func (s *Source) memoryPrereqs(c category.Category, scenario string) ([]*Entry, error) {
	if !strings.HasPrefix(string(c), "memory_") {
		return nil, fmt.Errorf("dataset: %q is not a memory category", c)
	}
	file := "memory_" + scenario + ".json"
	p := s.Path("memory_prereq_conversation", file)
	name := s.relName(p)
	var out []*Entry
	var ids []string
	err := s.jsonLines(p, name, func(line int, b []byte) error {
		var r rawEntry
		if err := json.Unmarshal(b, &r); err != nil {
			return fmt.Errorf("dataset: %s:%d (%s): malformed prerequisite conversation: %v", name, line, idOf(b), err)
		}
		if r.ID == "" || len(r.Question) == 0 {
			return fmt.Errorf("dataset: %s:%d (%s): prerequisite needs id and question", name, line, idOf(b))
		}
		e, err := toEntry(r, c, name, line)
		if err != nil {
			return err
		}
		e.ID = strings.ReplaceAll(r.ID, "memory", string(c))
		e.Scenario = scenario
		e.DependsOn = append([]string(nil), ids...)
		e.InvolvedClasses = []string{"MemoryAPI_" + strings.TrimPrefix(string(c), "memory_")}
		ids = append(ids, e.ID)
		out = append(out, e)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// FormatSensitivityIDs reads BFCL_v4_format_sensitivity.json: category ->
// entry ids re-run under every prompt configuration.
func (s *Source) FormatSensitivityIDs() (map[category.Category][]string, []category.Category, error) {
	p := s.Path("BFCL_v4_format_sensitivity.json")
	b, err := s.readFile(p)
	if err != nil {
		return nil, nil, err
	}
	var m map[category.Category][]string
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, nil, fmt.Errorf("dataset: %s: %v", s.relName(p), err)
	}
	keys, err := objectKeyOrder(b)
	if err != nil {
		return nil, nil, fmt.Errorf("dataset: %s: %v", s.relName(p), err)
	}
	order := make([]category.Category, len(keys))
	for i, k := range keys {
		order[i] = category.Category(k)
	}
	return m, order, nil
}

// objectKeyOrder returns the keys of a JSON object in document order.
func objectKeyOrder(b []byte) ([]string, error) {
	dec := json.NewDecoder(strings.NewReader(string(b)))
	t, err := dec.Token()
	if err != nil {
		return nil, err
	}
	if d, ok := t.(json.Delim); !ok || d != '{' {
		return nil, fmt.Errorf("not a JSON object")
	}
	var keys []string
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return nil, err
		}
		keys = append(keys, t.(string))
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			return nil, err
		}
	}
	return keys, nil
}
