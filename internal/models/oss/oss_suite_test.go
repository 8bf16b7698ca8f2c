package oss_test

import (
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/bfcl-go/bfcl/internal/benchmark/category"
	"github.com/bfcl-go/bfcl/internal/benchmark/dataset"
	"github.com/bfcl-go/bfcl/internal/models/oss"
	"github.com/bfcl-go/bfcl/internal/python/pyval"
	"github.com/bfcl-go/bfcl/internal/testkit/reqparity"
	"github.com/bfcl-go/bfcl/internal/testkit/testenv"
)

func TestOSS(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "models/oss")
}

// needShared skips a spec whose shared material is missing, loudly, and
// fails it in CI (CI=true), where the material must be present.
func needShared(ok bool, what, dir, env string) {
	if ok {
		return
	}
	msg := testenv.MissingMessage(what, dir, env)
	if os.Getenv("CI") == "true" {
		Fail("required in CI: " + msg)
	}
	Skip(msg)
}

// refRow is one completions row of upstream_requests.jsonl.gz.
type refRow struct{ reqparity.Row }

// refBody is the part of a completions body besides the prompt.
type refBody struct {
	Model             string  `json:"model"`
	Prompt            string  `json:"prompt"`
	Temperature       float64 `json:"temperature"`
	MaxTokens         int     `json:"max_tokens"`
	StopTokenIDs      []int   `json:"stop_token_ids"`
	SkipSpecialTokens *bool   `json:"skip_special_tokens"`
}

func (r refRow) answerText() string {
	var s string
	Expect(json.Unmarshal(r.Answer, &s)).To(Succeed(), "answer of a completions row is a string")
	return s
}

func (r refRow) messages() []oss.Message {
	v, err := pyval.FromJSON(r.OSSMessages)
	Expect(err).NotTo(HaveOccurred())
	msgs, err := oss.MessagesFromDicts(v)
	Expect(err).NotTo(HaveOccurred(), "%s %s", r.HandlerKey, r.EntryID)
	return msgs
}

func (r refRow) where() string {
	return fmt.Sprintf("%s %s turn %d step %d (call %d)", r.HandlerKey, r.EntryID, r.Turn, r.Step, r.Call)
}

var (
	refOnce sync.Once
	refRows []refRow
	refErr  error
)

// completionRows returns the completions rows of the reference, or skips.
func completionRows() []refRow {
	dir, ok := testenv.ReferenceDir()
	path := filepath.Join(dir, "requests", "upstream_requests.jsonl.gz")
	if ok {
		_, err := os.Stat(path)
		ok = err == nil
	}
	needShared(ok, "upstream request reference (requests/upstream_requests.jsonl.gz)", dir, "BFCL_REFERENCE_DIR")
	refOnce.Do(func() { refRows, refErr = readRows(dir) })
	Expect(refErr).NotTo(HaveOccurred())
	return refRows
}

func readRows(dir string) ([]refRow, error) {
	rows, err := reqparity.LoadAPI(dir, reqparity.APICompletions)
	out := make([]refRow, len(rows))
	for i, r := range rows {
		out[i] = refRow{r}
	}
	return out, err
}

var (
	dataOnce sync.Once
	dataSrc  *dataset.Source
	dataErr  error
	dataMu   sync.Mutex
	loaded   = map[string]map[string]*dataset.Entry{}
)

// entryOf returns the inference view of a data-set entry, or skips.
func entryOf(id string) *dataset.Entry {
	dir, ok := testenv.DataDir()
	needShared(ok, "BFCL data set", dir, dataset.EnvDataDir)
	dataOnce.Do(func() { dataSrc, dataErr = dataset.Open(dir) })
	Expect(dataErr).NotTo(HaveOccurred())
	cat := id[:strings.LastIndex(id, "_")]
	dataMu.Lock()
	defer dataMu.Unlock()
	byID, ok := loaded[cat]
	if !ok {
		entries, err := dataSrc.Load(category.Category(cat))
		Expect(err).NotTo(HaveOccurred())
		byID = map[string]*dataset.Entry{}
		for _, e := range entries {
			byID[e.ID] = e
		}
		loaded[cat] = byID
	}
	e, ok := byID[id]
	Expect(ok).To(BeTrue(), "entry %s in category %s", id, cat)
	v, err := dataset.InferenceView(e)
	Expect(err).NotTo(HaveOccurred())
	return v
}

// functionsOf returns fresh function documents of an entry, checked
// against the names the reference's formatter got.
func functionsOf(e *dataset.Entry, names []string) []pyval.Value {
	fns, err := oss.FunctionsFromJSON(e.Functions)
	Expect(err).NotTo(HaveOccurred())
	got := make([]string, len(fns))
	for i, f := range fns {
		n, _ := f.(*pyval.Dict).GetStr("name")
		got[i] = pyval.StrOf(n)
	}
	Expect(got).To(Equal(names), "function names of %s", e.ID)
	return fns
}

// questionTurns converts the entry's question to history messages.
func questionTurns(e *dataset.Entry) [][]oss.Message {
	out := make([][]oss.Message, len(e.Question))
	for i, t := range e.Question {
		out[i] = make([]oss.Message, len(t))
		for j, m := range t {
			out[i][j] = oss.Text(m.Role, m.Content)
		}
	}
	return out
}

// firstDiff describes where two strings first differ.
func firstDiff(got, want string) string {
	i := 0
	for i < len(got) && i < len(want) && got[i] == want[i] {
		i++
	}
	lo := max(0, i-120)
	clip := func(s string) string { return s[lo:min(len(s), i+120)] }
	return fmt.Sprintf("first difference at byte %d (len got %d, want %d)\n got: %q\nwant: %q", i, len(got), len(want), clip(got), clip(want))
}

// tally counts equal / total per handler and reports them.
type tally map[string][2]int

func (t tally) add(key string, ok bool) {
	c := t[key]
	c[1]++
	if ok {
		c[0]++
	}
	t[key] = c
}

func (t tally) report(what string) string {
	var b strings.Builder
	for _, k := range slices.Sorted(maps.Keys(t)) {
		fmt.Fprintf(&b, "%-40s %s %d/%d\n", k, what, t[k][0], t[k][1])
	}
	return b.String()
}

func (t tally) allEqual() bool {
	for _, c := range t {
		if c[0] != c[1] {
			return false
		}
	}
	return true
}
