// Package results reads and writes BFCL result files: JSON Lines, one record
// per entry, under <root>/<model>/<group>/BFCL_v4_<category>_result.json,
// the layout and fields of upstream's result files, so that upstream's
// evaluator can score our runs and ours can score upstream's.
//
// Appends are safe across goroutines and across processes (Ginkgo -p): each
// record is one write(2) of one line under an exclusive flock, so an
// interrupted run loses at most the entry being written and never corrupts
// earlier ones. A rerun resumes: entries already present are not redone.
package results

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"syscall"
	"unicode/utf8"

	"github.com/bfcl-go/bfcl/internal/benchmark/category"
	"github.com/bfcl-go/bfcl/internal/store/atomicfile"
	"github.com/bfcl-go/bfcl/internal/store/jsonscan"
)

// Record is one result line. Result holds what the model produced: for FC
// single-turn a list of {name: json-args}, for prompt mode a string, for
// multi-turn a list per turn of a list per step. Raw keeps the whole line as
// read (for upstream files carrying more fields).
//
// A record is written with upstream's keys in upstream's order (the
// metadata dicts of bfcl_eval/model_handler/base_handler.py after "id" and
// "result"): input_token_count, output_token_count, latency,
// inference_log, reasoning_content for multi-turn lines; a single-turn
// line's inference_log (the input log) comes first, before the token
// counts (LogFirst). Absent fields are left out.
type Record struct {
	ID               string
	Result           json.RawMessage
	InputTokenCount  json.RawMessage
	OutputTokenCount json.RawMessage
	Latency          json.RawMessage
	ReasoningContent json.RawMessage
	// InferenceLog is upstream's inference_log: for multi-turn the
	// conversation (state_info lists, per turn the query and the steps), for
	// single-turn the input log.
	InferenceLog json.RawMessage
	// LogFirst puts inference_log right after result, where upstream's
	// single-turn lines have it.
	LogFirst        bool
	ForceTerminated *bool
	Raw             json.RawMessage
	Line            int // 1-based line in the file it was read from
}

// MarshalJSON writes the record's fields in upstream's order.
func (r Record) MarshalJSON() ([]byte, error) {
	id, err := json.Marshal(r.ID)
	if err != nil {
		return nil, err
	}
	b := append([]byte(`{"id":`), id...)
	add := func(key string, v json.RawMessage) {
		if len(v) > 0 {
			b = append(b, `,"`+key+`":`...)
			b = append(b, v...)
		}
	}
	result := r.Result
	if len(result) == 0 {
		result = json.RawMessage("null")
	}
	add("result", result)
	if r.LogFirst {
		add("inference_log", r.InferenceLog)
	}
	add("input_token_count", r.InputTokenCount)
	add("output_token_count", r.OutputTokenCount)
	add("latency", r.Latency)
	if !r.LogFirst {
		add("inference_log", r.InferenceLog)
	}
	add("reasoning_content", r.ReasoningContent)
	return append(b, '}'), nil
}

// ModelDir is the folder name upstream uses for a model: "/" becomes "_".
func ModelDir(model string) string { return strings.ReplaceAll(model, "/", "_") }

// ModelDirs is the model folders a command reads below root: model's
// (ModelDir) when model is named, else every folder below root, by name.
// The error is os.ReadDir's.
func ModelDirs(root, model string) ([]string, error) {
	if model != "" {
		return []string{ModelDir(model)}, nil
	}
	ents, err := os.ReadDir(root)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, e := range ents {
		if e.IsDir() {
			out = append(out, e.Name())
		}
	}
	return out, nil // os.ReadDir sorts by name
}

// Path is the result file of one category of one model below root.
func Path(root, model string, c category.Category) string {
	return filepath.Join(root, ModelDir(model), filepath.FromSlash(c.ResultPath()))
}

// Read loads a result file. A malformed line is an error naming file, line
// and cause (every malformed line, up to MaxLineErrors); nothing is
// silently skipped, except a last line without its newline: that is a
// record still being written by another process, or cut short when a run
// was killed, and the entry counts as not done (ReadAll says so).
func Read(path string) ([]Record, error) {
	recs, _, err := ReadAll(path)
	return recs, err
}

// MaxLineErrors bounds the malformed lines one error lists.
const MaxLineErrors = 10

// ReadAll is Read that also returns the number of a torn last line (one
// without its newline, not read; 0 when there is none).
func ReadAll(path string) (recs []Record, tornLine int, err error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, 0, err
	}
	var out []Record
	var bad []string
	badCount := 0
	n := 0
	for len(data) > 0 {
		n++
		i := bytes.IndexByte(data, '\n')
		if i < 0 {
			if len(bytes.TrimSpace(data)) > 0 {
				tornLine = n
			}
			break // incomplete last line
		}
		b := bytes.TrimSpace(data[:i])
		data = data[i+1:]
		if len(b) == 0 {
			continue
		}
		r, err := decodeRecord(b)
		if err == nil && r.ID == "" {
			err = errors.New("result line without id")
		}
		if err != nil {
			badCount++
			if len(bad) < MaxLineErrors {
				bad = append(bad, fmt.Sprintf("%s:%d: %v", path, n, err))
			}
			continue
		}
		r.Raw = b
		r.Line = n
		out = append(out, r)
	}
	switch {
	case badCount == 1:
		return nil, tornLine, fmt.Errorf("results: %s", strings.Replace(bad[0], ": ", ": malformed result line: ", 1))
	case badCount > 1:
		more := ""
		if badCount > len(bad) {
			more = fmt.Sprintf("\n  ... and %d more", badCount-len(bad))
		}
		return nil, tornLine, fmt.Errorf("results: %s: %d malformed result lines:\n  %s%s", path, badCount, strings.Join(bad, "\n  "), more)
	}
	return out, tornLine, nil
}

// Store appends records of one model's run below Root, resumable.
type Store struct {
	Root  string // result root, e.g. "result"
	Model string // model name (folder is ModelDir(Model))

	mu   sync.Mutex
	done map[category.Category]map[string]Record
}

// NewStore returns a store for one model below root.
func NewStore(root, model string) *Store {
	return &Store{Root: root, Model: model, done: map[category.Category]map[string]Record{}}
}

// Path of a category's file in this store.
func (s *Store) Path(c category.Category) string { return Path(s.Root, s.Model, c) }

// Lookup returns the stored record of id, if a previous run wrote it. The
// category's file is read once; records appended since come from this
// store (an entry runs in one process only, so other processes of the same
// run never write the entries this one looks up).
func (s *Store) Lookup(c category.Category, id string) (Record, bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if m, ok := s.done[c]; ok {
		r, ok := m[id]
		return r, ok, nil
	}
	recs, err := Read(s.Path(c))
	if errors.Is(err, os.ErrNotExist) {
		s.done[c] = map[string]Record{}
		return Record{}, false, nil
	}
	if err != nil {
		return Record{}, false, err
	}
	m := map[string]Record{}
	for _, r := range recs {
		m[r.ID] = r // a duplicate (never written by us) keeps the last
	}
	s.done[c] = m
	r, ok := m[id]
	return r, ok, nil
}

// Append writes one record as one line of the category's file (see
// AppendFile) and remembers it for Lookup.
func (s *Store) Append(c category.Category, r Record) error {
	line, err := AppendFile(s.Path(c), r)
	if err != nil {
		return err
	}
	s.mu.Lock()
	if s.done[c] == nil {
		s.done[c] = map[string]Record{}
	}
	r.Raw = line
	s.done[c][r.ID] = r
	s.mu.Unlock()
	return nil
}

// AppendFile writes one record as one line of the file at path, atomically
// with respect to other writers of the same file (flock + single write),
// and returns the line. Once it returns, the line is in the file: a killed
// or interrupted run keeps it. (No fsync: a per-entry fsync costs more than
// a gold entry's whole evaluation, and surviving a power cut is not worth
// that.)
func AppendFile(path string, r Record) (json.RawMessage, error) {
	line, err := encodeLine(r)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR|os.O_APPEND, 0o644)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		return nil, fmt.Errorf("results: lock %s: %w", path, err)
	}
	defer syscall.Flock(int(f.Fd()), syscall.LOCK_UN) //nolint:errcheck
	if err := dropPartialTail(f); err != nil {
		return nil, fmt.Errorf("results: %s: %w", path, err)
	}
	if _, err := f.Write(line); err != nil {
		return nil, fmt.Errorf("results: append %s to %s: %w", r.ID, path, err)
	}
	return line[:len(line)-1], nil
}

// encodeLine is the record's line as encoding/json's Encoder (HTML not
// escaped) writes it, newline included. Records are compact as built (their
// raw members come from encoders), so the Encoder's validating re-compaction
// of MarshalJSON's output is skipped when jsonscan.Compact finds nothing to
// change; anything else goes through the Encoder, which compacts it or
// reports the error.
func encodeLine(r Record) ([]byte, error) {
	if b, err := r.MarshalJSON(); err == nil && jsonscan.Compact(b) {
		return append(b, '\n'), nil
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false) // the logs are full of "<Directory: ...>"
	if err := enc.Encode(r); err != nil {
		return nil, fmt.Errorf("results: encode %s: %w", r.ID, err)
	}
	return buf.Bytes(), nil // Encode ends it with the newline
}

// Compact rewrites a result file sorted by id in upstream's order, keeping
// the last record of any duplicated id. It replaces the file atomically
// (write to a temporary file, rename) under the same lock appends take.
func Compact(path string) error {
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	defer f.Close()
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		return err
	}
	defer syscall.Flock(int(f.Fd()), syscall.LOCK_UN) //nolint:errcheck
	recs, err := Read(path)
	if err != nil {
		return err
	}
	last := map[string]int{}
	for i, r := range recs {
		last[r.ID] = i
	}
	kept := make([]Record, 0, len(last))
	for i, r := range recs {
		if last[r.ID] == i {
			kept = append(kept, r)
		}
	}
	return writeSorted(path, kept)
}

// WriteFile replaces the file at path with recs, one line each (a record's
// Raw line when it has one, else its encoding), sorted by id in upstream's
// order, atomically (temporary file, rename) and under the lock appends
// take. Ids must be unique.
func WriteFile(path string, recs []Record) error {
	seen := make(map[string]bool, len(recs))
	for _, r := range recs {
		if seen[r.ID] {
			return fmt.Errorf("results: %s: id %s twice", path, r.ID)
		}
		seen[r.ID] = true
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return err
	}
	defer f.Close()
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		return fmt.Errorf("results: lock %s: %w", path, err)
	}
	defer syscall.Flock(int(f.Fd()), syscall.LOCK_UN) //nolint:errcheck
	return writeSorted(path, append([]Record(nil), recs...))
}

func writeSorted(path string, recs []Record) error {
	sort.SliceStable(recs, func(i, j int) bool { return category.CompareIDs(recs[i].ID, recs[j].ID) < 0 })
	var buf bytes.Buffer
	for _, r := range recs {
		line := r.Raw
		if line == nil {
			var err error
			if line, err = json.Marshal(r); err != nil {
				return fmt.Errorf("results: encode %s: %w", r.ID, err)
			}
		}
		buf.Write(line)
		buf.WriteByte('\n')
	}
	return atomicfile.Write(path, buf.Bytes())
}

// decodeRecord reads the fields of a result line (values stay raw; "id"
// is decoded).
func decodeRecord(b []byte) (Record, error) {
	var r Record
	if !utf8.Valid(b) {
		// upstream reads result files as UTF-8 and stops on such a byte;
		// replacing it would score a changed answer
		off := 0
		for off < len(b) {
			ru, size := utf8.DecodeRune(b[off:])
			if ru == utf8.RuneError && size <= 1 {
				break
			}
			off += size
		}
		return r, fmt.Errorf("not valid UTF-8 (byte 0x%02x at offset %d)", b[off], off)
	}
	var idErr error
	sawCounts := false
	err := jsonscan.ObjectMembers(b, func(key, v []byte) {
		switch string(key) {
		case `"id"`:
			idErr = json.Unmarshal(v, &r.ID)
		case `"result"`:
			r.Result = v
		case `"input_token_count"`:
			r.InputTokenCount = v
			sawCounts = true
		case `"output_token_count"`:
			r.OutputTokenCount = v
		case `"latency"`:
			r.Latency = v
		case `"reasoning_content"`:
			r.ReasoningContent = v
		case `"inference_log"`:
			r.InferenceLog = v
			r.LogFirst = !sawCounts
		}
	})
	if err != nil {
		return r, err
	}
	if idErr != nil {
		return r, fmt.Errorf("id: %w", idErr)
	}
	return r, nil
}

// dropPartialTail removes an incomplete last line (a writer killed in the
// middle of its write; live writers hold the lock while writing) so that
// the next record starts on a line of its own.
func dropPartialTail(f *os.File) error {
	st, err := f.Stat()
	if err != nil || st.Size() == 0 {
		return err
	}
	size := st.Size()
	const chunk = 64 << 10
	buf := make([]byte, chunk)
	end := size
	for end > 0 {
		start := end - chunk
		if start < 0 {
			start = 0
		}
		n, err := f.ReadAt(buf[:end-start], start)
		if err != nil && n < int(end-start) {
			return err
		}
		if i := bytes.LastIndexByte(buf[:n], '\n'); i >= 0 {
			keep := start + int64(i) + 1
			if keep == size {
				return nil
			}
			return f.Truncate(keep)
		}
		end = start
	}
	return f.Truncate(0)
}
