package sim

// Port of upstream bfcl_eval/eval_checker/multi_turn_eval/func_source_code/
// memory_rec_sum.py (class MemoryAPI_rec_sum). Result and error strings and
// the size limit are protocol constants reproduced from that file.

import (
	"strconv"
	"strings"

	"github.com/bfcl-go/bfcl/generated/stubs"
	"github.com/bfcl-go/bfcl/internal/python/pyval"
)

// recSumMaxEntryLength is MAX_MEMORY_ENTRY_LENGTH (characters).
const recSumMaxEntryLength = 10000

// MemoryAPI_rec_sum is upstream's recursive-summarisation memory: one str
// of at most 10,000 characters, shown whole in the system prompt.
//
//nolint:revive // the Go type name is the upstream class name (generated stubs dispatch on it)
type MemoryAPI_rec_sum struct {
	memory string
	files  memoryFiles
}

// NewMemoryAPIRecSum returns an instance as upstream's constructor leaves it.
func NewMemoryAPIRecSum(*Env) *MemoryAPI_rec_sum { return &MemoryAPI_rec_sum{} }

// ClassName implements Instance.
func (*MemoryAPI_rec_sum) ClassName() string { return "MemoryAPI_rec_sum" }

// LoadScenario is _load_scenario (see MemoryAPI_kv.LoadScenario).
func (m *MemoryAPI_rec_sum) LoadScenario(config *pyval.Dict, _ bool) error {
	return m.files.loadScenario(config, m.Restore)
}

// State implements Instance.
func (m *MemoryAPI_rec_sum) State() *pyval.Dict {
	d := pyval.NewDict()
	d.SetStr("memory", pyval.Str(m.memory))
	return d
}

// Snapshot implements MemoryBackend: {"memory": ...}.
func (m *MemoryAPI_rec_sum) Snapshot() *pyval.Dict { return m.State() }

// Restore implements MemoryBackend. Upstream asserts the memory is a str.
func (m *MemoryAPI_rec_sum) Restore(snap *pyval.Dict) error {
	v, ok := snap.GetStr("memory")
	if !ok {
		return pyval.NewKeyError(pyval.Str("memory"))
	}
	s, ok := v.(pyval.Str)
	if !ok {
		return pyval.NewException("AssertionError", "Memory data should be a string, but got <class '"+v.TypeName()+"'> instead.")
	}
	m.memory = string(s)
	return nil
}

// Flush implements MemoryBackend.
func (m *MemoryAPI_rec_sum) Flush() error { return m.files.flush(m.Snapshot()) }

// SnapshotWarning implements MemoryBackend.
func (m *MemoryAPI_rec_sum) SnapshotWarning() string { return m.files.warning }

// CoreMemoryContext implements MemoryBackend: the memory text, or
// upstream's sentence when it is empty.
func (m *MemoryAPI_rec_sum) CoreMemoryContext() (string, error) {
	if m.memory == "" {
		return "There is no content in the memory at this point.", nil
	}
	return m.memory, nil
}

func recSumTooLong(what string) string {
	return "Entry will be too long after " + what + ". Please shorten the entry to less than " + strconv.Itoa(recSumMaxEntryLength) + " characters."
}

// MemoryAppend is memory_append(text).
func (m *MemoryAPI_rec_sum) MemoryAppend(args stubs.MemoryAPI_rec_sumMemoryAppendArgs) (pyval.Value, error) {
	text := args.Text.V
	t := pyval.StrOf(text)
	if pyval.StrLen(m.memory+t) > recSumMaxEntryLength {
		return errorDict(recSumTooLong("appending")), nil
	}
	m.memory += t
	return memStatus("status", "Memory appended."), nil
}

// MemoryUpdate is memory_update(text).
func (m *MemoryAPI_rec_sum) MemoryUpdate(args stubs.MemoryAPI_rec_sumMemoryUpdateArgs) (pyval.Value, error) {
	text := args.Text.V
	t := pyval.StrOf(text)
	if pyval.StrLen(t) > recSumMaxEntryLength {
		return errorDict(recSumTooLong("updating")), nil
	}
	m.memory = t
	return memStatus("status", "Memory updated."), nil
}

// MemoryClear is memory_clear().
func (m *MemoryAPI_rec_sum) MemoryClear() (pyval.Value, error) {
	m.memory = ""
	return memStatus("status", "Short term memory cleared."), nil
}

// MemoryReplace is memory_replace(old_text, new_text): every occurrence is
// replaced (str.replace; an empty old_text inserts new_text between all
// characters); only new_text's length is checked.
func (m *MemoryAPI_rec_sum) MemoryReplace(args stubs.MemoryAPI_rec_sumMemoryReplaceArgs) (pyval.Value, error) {
	oldText, newText := args.OldText.V, args.NewText.V
	o, n := pyval.StrOf(oldText), pyval.StrOf(newText)
	if !strings.Contains(m.memory, o) {
		return errorDict("Text '" + o + "' not found in memory."), nil
	}
	if pyval.StrLen(n) > recSumMaxEntryLength {
		return errorDict(recSumTooLong("replacing")), nil
	}
	m.memory = strings.ReplaceAll(m.memory, o, n)
	return memStatus("status", "Memory updated."), nil
}

// MemoryRetrieve is memory_retrieve().
func (m *MemoryAPI_rec_sum) MemoryRetrieve() (pyval.Value, error) {
	if m.memory == "" {
		return errorDict("Memory is empty."), nil
	}
	return memStatus("memory_content", m.memory), nil
}

// classMemoryAPIRecSum describes MemoryAPI_rec_sum for the registry.
func classMemoryAPIRecSum() Class {
	return Class{
		Name:    "MemoryAPI_rec_sum",
		Module:  "memory_rec_sum",
		New:     func(env *Env) Instance { return NewMemoryAPIRecSum(env) },
		Methods: stubs.MemoryAPI_rec_sumMethods,
	}
}
