package oss_test

import (
	"bufio"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/bfcl-go/bfcl/internal/benchmark/category"
	"github.com/bfcl-go/bfcl/internal/benchmark/dataset"
	"github.com/bfcl-go/bfcl/internal/models/oss"
	"github.com/bfcl-go/bfcl/internal/python/pyval"
	"github.com/bfcl-go/bfcl/internal/testkit/testenv"
)

// fixtures/minicpm (see its README) holds, for every function document of
// the data set and for the first prompts of every single-turn and
// multi-turn entry, the SHA-256 (first 32 hex digits) of what upstream's
// MiniCPMFCHandler code produced with datamodel-code-generator 0.25.7.

func h32(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])[:32]
}

func readGzipLines[T any](name string) []T {
	path := filepath.Join(testenv.ModuleRoot(), "fixtures", "minicpm", name)
	f, err := os.Open(path)
	Expect(err).NotTo(HaveOccurred())
	defer f.Close()
	zr, err := gzip.NewReader(f)
	Expect(err).NotTo(HaveOccurred())
	var out []T
	sc := bufio.NewScanner(zr)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		var v T
		Expect(json.Unmarshal(sc.Bytes(), &v)).To(Succeed())
		out = append(out, v)
	}
	Expect(sc.Err()).NotTo(HaveOccurred())
	return out
}

type docDigest struct {
	Key    string `json:"key"`    // h32(json.dumps(converted document))
	ID     string `json:"id"`     // where upstream's measurement first met it
	SHA256 string `json:"sha256"` // h32(transform_function(document))
	Error  string `json:"error"`  // the exception instead, if any
}

type promptDigest struct {
	Entry  string `json:"entry"`
	Turn   int    `json:"turn"`
	SHA256 string `json:"sha256"`
}

func openData() *dataset.Source {
	dir, ok := testenv.DataDir()
	needShared(ok, "BFCL data set", dir, dataset.EnvDataDir)
	dataOnce.Do(func() { dataSrc, dataErr = dataset.Open(dir) })
	Expect(dataErr).NotTo(HaveOccurred())
	return dataSrc
}

// dataSetDocs returns every function document a MiniCPM-FC run hands to
// the formatter, by where it was first met: each entry's documents as the
// model gets them (language hints), miss_func's held-out documents (no
// hint), and each backend class's documents with and without the hint.
func dataSetDocs(src *dataset.Source) (ids []string, docs map[string]json.RawMessage) {
	docs = map[string]json.RawMessage{}
	add := func(id string, d json.RawMessage) {
		if _, ok := docs[id]; !ok {
			ids = append(ids, id)
		}
		docs[id] = d
	}
	for _, c := range category.Scoring() {
		entries, err := src.Load(c)
		Expect(err).NotTo(HaveOccurred())
		for _, e := range entries {
			v, err := dataset.InferenceView(e)
			Expect(err).NotTo(HaveOccurred())
			for i, d := range v.Functions {
				add(fmt.Sprintf("%s/%s/%d", c, e.ID, i), d)
			}
			for t, ds := range e.MissedFuncDocs {
				for i, d := range ds {
					add(fmt.Sprintf("%s/%s/held-out %d/%d", c, e.ID, t, i), d)
				}
			}
		}
	}
	dir, _ := testenv.DataDir()
	files, err := filepath.Glob(filepath.Join(dir, "data", "multi_turn_func_doc", "*.json"))
	if len(files) == 0 {
		files, err = filepath.Glob(filepath.Join(dir, "berkeley-function-call-leaderboard", "bfcl_eval", "data", "multi_turn_func_doc", "*.json"))
	}
	Expect(err).NotTo(HaveOccurred())
	Expect(files).NotTo(BeEmpty())
	for _, path := range files {
		b, err := os.ReadFile(path)
		Expect(err).NotTo(HaveOccurred())
		var raw []json.RawMessage
		for _, line := range strings.Split(string(b), "\n") {
			if strings.TrimSpace(line) != "" {
				raw = append(raw, json.RawMessage(line))
			}
		}
		v, err := dataset.InferenceView(&dataset.Entry{ID: "multi_turn_base_0", Category: "multi_turn_base", Functions: raw})
		Expect(err).NotTo(HaveOccurred())
		for i := range raw {
			add(fmt.Sprintf("%s/%d", filepath.Base(path), i), raw[i])
			add(fmt.Sprintf("%s/%d (hint)", filepath.Base(path), i), v.Functions[i])
		}
	}
	return ids, docs
}

var _ = Describe("MiniCPMFCHandler's function listing against upstream (datamodel-code-generator 0.25.7)", func() {
	It("renders every function document of the data set byte for byte", func() {
		src := openData()
		want := map[string]docDigest{}
		for _, d := range readGzipLines[docDigest]("function_docs.jsonl.gz") {
			want[d.Key] = d
		}
		Expect(want).To(HaveLen(3583))
		ids, docs := dataSetDocs(src)
		seen := map[string]bool{}
		var failures []string
		for _, id := range ids {
			doc, err := pyval.FromJSON(docs[id])
			Expect(err).NotTo(HaveOccurred())
			listing, converted, err := oss.MiniCPMFunctionListing(doc)
			key := h32(converted)
			if seen[key] {
				continue
			}
			seen[key] = true
			w, ok := want[key]
			switch {
			case !ok:
				failures = append(failures, fmt.Sprintf("%s: document not in the fixture (key %s):\n%s", id, key, converted))
			case w.Error != "":
				failures = append(failures, fmt.Sprintf("%s: upstream raised %s, bfcl-go: %v", id, w.Error, err))
			case err != nil:
				failures = append(failures, fmt.Sprintf("%s (upstream: %s): %v", id, w.ID, err))
			case h32(listing) != w.SHA256:
				failures = append(failures, fmt.Sprintf("%s (upstream: %s): listing differs from upstream's; document:\n%s\nbfcl-go's listing:\n%s", id, w.ID, converted, listing))
			}
		}
		var missing []string
		for k, w := range want {
			if !seen[k] {
				missing = append(missing, w.ID)
			}
		}
		sort.Strings(missing)
		AddReportEntry("MiniCPM-FC function listings", ReportEntryVisibilityAlways,
			fmt.Sprintf("%d distinct documents rendered, %d differ, %d of the fixture not met", len(seen), len(failures), len(missing)))
		if len(failures) > 3 {
			failures = append(failures[:3], fmt.Sprintf("... and %d more", len(failures)-3))
		}
		Expect(failures).To(BeEmpty())
		Expect(missing).To(BeEmpty(), "documents upstream's measurement met that the data set did not give")
	})

	It("builds the prompt of every single-turn entry and of every turn of every multi-turn entry (held-out functions included) byte for byte", func() {
		src := openData()
		digests := readGzipLines[promptDigest]("prompts.jsonl.gz")
		Expect(len(digests)).To(Equal(6977))
		byEntry := map[string][]promptDigest{}
		var order []string
		for _, d := range digests {
			if _, ok := byEntry[d.Entry]; !ok {
				order = append(order, d.Entry)
			}
			byEntry[d.Entry] = append(byEntry[d.Entry], d)
		}
		var failures []string
		checked := 0
		for _, id := range order {
			cat := id[:strings.LastIndex(id, "_")]
			if !strings.HasPrefix(id, "multi_turn") {
				cat = strings.SplitN(id, "_", 2)[0]
				for _, c := range category.SingleTurn() {
					if strings.HasPrefix(id, string(c)+"_") && len(string(c)) > len(cat) {
						cat = string(c)
					}
				}
			}
			e, err := src.Entry(category.Category(cat), id)
			Expect(err).NotTo(HaveOccurred(), id)
			v, err := dataset.InferenceView(e)
			Expect(err).NotTo(HaveOccurred())
			fns, err := oss.FunctionsFromJSON(v.Functions)
			Expect(err).NotTo(HaveOccurred())
			f, err := oss.ForRegistry("openbmb/MiniCPM3-4B-FC")
			Expect(err).NotTo(HaveOccurred())
			held := map[int][]json.RawMessage{}
			for t, ds := range v.MissedFuncDocs {
				held[t] = ds
			}
			conv, err := oss.NewConversation(f, id, fns, questionTurns(v), held)
			Expect(err).NotTo(HaveOccurred())
			for _, d := range byEntry[id] {
				if d.Turn > 0 {
					_, err := conv.AddReply("I have completed the request.")
					Expect(err).NotTo(HaveOccurred())
				}
				_, err := conv.StartTurn(d.Turn)
				Expect(err).NotTo(HaveOccurred())
				p, err := conv.Prompt()
				if err != nil || h32(p) != d.SHA256 {
					if len(failures) < 2 {
						failures = append(failures, fmt.Sprintf("%s turn %d: err %v; bfcl-go's prompt:\n%s", id, d.Turn, err, p))
					} else {
						failures = append(failures, fmt.Sprintf("%s turn %d", id, d.Turn))
					}
				}
				checked++
			}
		}
		AddReportEntry("MiniCPM-FC prompts", ReportEntryVisibilityAlways, fmt.Sprintf("%d prompts of %d entries checked, %d differ", checked, len(order), len(failures)))
		if len(failures) > 5 {
			failures = append(failures[:5], fmt.Sprintf("... and %d more", len(failures)-5))
		}
		Expect(failures).To(BeEmpty())
	})
})

// Function documents written for these specs, with upstream's
// transform_function output for each (datamodel-code-generator 0.25.7,
// black 26.3.1).
var _ = Describe("MiniCPMFCHandler's function listing", func() {
	listing := func(doc string) (string, error) {
		v, err := pyval.FromJSON([]byte(doc))
		Expect(err).NotTo(HaveOccurred())
		l, _, err := oss.MiniCPMFunctionListing(v)
		return l, err
	}

	It("writes enums, nested models, aliases, defaults, constraints and black's wrapping as upstream", func() {
		got, err := listing(`{"name": "travel.plan_trip", "description": "Plan a trip.", "parameters": {"type": "dict", "properties": {
			"destination": {"type": "string", "description": "Where to go."},
			"travel-mode": {"type": "string", "enum": ["car", "public transit", "2-wheeler"], "default": "car", "description": "How to travel."},
			"_class": {"type": "string"},
			"stops": {"type": "array", "items": {"type": "dict", "properties": {"name": {"type": "string", "description": "Stop name."}, "nights": {"type": "integer"}}, "required": ["name"]}, "description": "Stops on the way, in order, each with the number of nights spent there."},
			"budget": {"type": "float", "description": "The budget in euros for the whole trip, transport and lodging included.", "default": 1500.5},
			"preferences": {"type": "dict", "description": "Lodging preferences.", "properties": {"quiet": {"type": "boolean", "description": "A quiet room."}}, "default": {"quiet": true}},
			"rating": {"type": "integer", "description": "Minimum rating.", "maximum": 5},
			"schema": {"type": "dict", "description": "Free-form extra data."}},
			"required": ["destination", "stops"]}}`)
		Expect(err).NotTo(HaveOccurred())
		Expect(got).To(Equal(`class TravelMode(Enum):
    car = 'car'
    public_transit = 'public transit'
    field_2_wheeler = '2-wheeler'


class Stop(BaseModel):
    name: str = Field(..., description='Stop name.')
    nights: Optional[int] = None


class Preferences(BaseModel):
    quiet: Optional[bool] = Field(None, description='A quiet room.')


def travel_plan_trip(destination, stops, travel-mode='car', _class=None, budget=1500.5, preferences={'quiet': True}, rating=None, schema=None):
    """
    Plan a trip.
    Args:

    destination: str = Field(..., description='Where to go.')
    travel_mode: Optional[TravelMode] = Field(
        'car', alias='travel-mode', description='How to travel.'
    )
    field_class: Optional[str] = Field(None, alias='_class')
    stops: List[Stop] = Field(
        ...,
        description='Stops on the way, in order, each with the number of nights spent there.',
    )
    budget: Optional[float] = Field(
        1500.5,
        description='The budget in euros for the whole trip, transport and lodging included. This is a float type value.',
    )
    preferences: Optional[Preferences] = Field(
        default_factory=lambda: Preferences.parse_obj({'quiet': True}),
        description='Lodging preferences.',
    )
    rating: Optional[int] = Field(None, description='Minimum rating.', le=5)
    schema_: Optional[Dict[str, Any]] = Field(
        None, alias='schema', description='Free-form extra data.'
    )

    """
`))
	})

	It("writes long defaults, comprehension defaults, reserved names, enum names, wide characters, escapes, YAML-read floats and long annotations as upstream", func() {
		Expect(minicpmEdgeCases).To(HaveLen(23))
		for _, c := range minicpmEdgeCases {
			got, err := listing(c.doc)
			Expect(err).NotTo(HaveOccurred(), c.name)
			Expect(got).To(Equal(c.want), c.name)
		}
	})

	It("writes 700 random documents as upstream or says which construct it does not reproduce, never a different listing", func() {
		type randomDoc struct {
			Doc    json.RawMessage `json:"doc"`
			SHA256 string          `json:"sha256"`
		}
		docs := readGzipLines[randomDoc]("random_docs.jsonl.gz")
		Expect(docs).To(HaveLen(700))
		equal, refused := 0, 0
		var differ []string
		for _, d := range docs {
			v, err := pyval.FromJSON(d.Doc)
			Expect(err).NotTo(HaveOccurred())
			got, err := oss.MiniCPMTransformFunction(v)
			switch {
			case err != nil:
				Expect(err).To(MatchError(oss.ErrMiniCPMSchema))
				refused++
			case h32(got) == d.SHA256:
				equal++
			default:
				differ = append(differ, string(d.Doc)+"\n"+got)
			}
		}
		AddReportEntry("MiniCPM-FC random documents", ReportEntryVisibilityAlways, fmt.Sprintf("%d equal, %d refused (ErrMiniCPMSchema), %d differ", equal, refused, len(differ)))
		Expect(differ).To(BeEmpty())
		Expect(equal).To(BeNumerically(">=", 650))
	})

	It("writes an empty parameter model as pass, as upstream", func() {
		got, err := listing(`{"name": "ping", "description": "Ping.", "parameters": {"type": "dict", "properties": {}}}`)
		Expect(err).NotTo(HaveOccurred())
		Expect(got).To(Equal("def ping():\n    \"\"\"\n    Ping.\n    Args:\n\n    pass\n\n    \"\"\"\n"))
	})

	It("names the function and the construct it does not reproduce instead of writing a different listing", func() {
		_, err := listing(`{"name": "when", "description": "d", "parameters": {"type": "dict", "properties": {"at": {"type": "string", "format": "date-time"}}}}`)
		Expect(err).To(MatchError(oss.ErrMiniCPMSchema))
		Expect(err).To(MatchError(ContainSubstring(`function "when": parameters.at: format 'date-time' on a string`)))
		_, err = listing(`{"name": "either", "description": "d", "parameters": {"type": "dict", "properties": {"x": {"type": "string", "anyOf": [{"type": "string"}, {"type": "integer"}]}}}}`)
		Expect(err).To(MatchError(ContainSubstring(`function "either": parameters.x: schema key 'anyOf'`)))

		f, _ := oss.ForClass("MiniCPMFCHandler", "openbmb/MiniCPM3-4B")
		doc, _ := pyval.FromJSON([]byte(`{"name": "when", "description": "d", "parameters": {"type": "dict", "properties": {"at": {"type": "string", "format": "date-time"}}}}`))
		_, err = f.Prompt([]oss.Message{oss.Text(oss.RoleUser, "hi")}, []pyval.Value{doc})
		Expect(err).To(MatchError(oss.ErrMiniCPMSchema))
	})

	It("lists the documents after the import header, in the tools template of the system message", func() {
		f, _ := oss.ForClass("MiniCPMFCHandler", "openbmb/MiniCPM3-4B")
		ping, _ := pyval.FromJSON([]byte(`{"name": "ping", "description": "Ping.", "parameters": {"type": "dict", "properties": {}}}`))
		p, err := f.Prompt([]oss.Message{oss.Text(oss.RoleUser, "  hi ")}, []pyval.Value{ping})
		Expect(err).NotTo(HaveOccurred())
		Expect(p).To(HavePrefix("<|im_start|>system\n# Functions\nHere is a list of functions that you can invoke:\n```python\nfrom enum import Enum\nfrom typing import List, Dict, Optional\nfrom pydantic import BaseModel, Field\n\n\n\ndef ping():\n"))
		Expect(p).To(ContainSubstring("\n- Use default parameters unless the user has specified otherwise.\n"))
		Expect(p).To(HaveSuffix("{answer the user's question directly or ask the user for more information}<|im_end|>\n<|im_start|>user\nhi<|im_end|>\n<|im_start|>assistant\n"))
	})

	It("formats a conversation without functions as before: an empty system message, contents stripped", func() {
		f, _ := oss.ForClass("MiniCPMFCHandler", "openbmb/MiniCPM3-4B")
		p, err := f.Prompt([]oss.Message{oss.Text(oss.RoleUser, "  hi ")}, nil)
		Expect(err).NotTo(HaveOccurred())
		Expect(p).To(Equal("<|im_start|>system\n<|im_end|>\n<|im_start|>user\nhi<|im_end|>\n<|im_start|>assistant\n"))
	})

	It("singularizes as inflect 5.6.2 does every word of inflect's own lists and their variants", func() {
		cases := readGzipLines[[2]string]("inflect_singular.jsonl.gz")
		Expect(len(cases)).To(Equal(8101))
		var differ []string
		for _, c := range cases {
			got, err := oss.InflectSingular(c[0])
			if err != nil || got != c[1] {
				differ = append(differ, fmt.Sprintf("%s: inflect %q, bfcl-go %q (%v)", c[0], c[1], got, err))
			}
		}
		Expect(differ).To(BeEmpty())
	})

	It("singularizes array item class names as inflect 5.6.2 does", func() {
		for word, want := range map[string]string{
			"Categories": "Category", "Classes": "Class", "Data": "Datum", "Deck": "", "Information": "Information",
			"Wolves": "Wolf", "Children": "Child", "UserResponses": "UserResponse", "Criteria": "Criterion",
			"Statuses": "Status", "Status": "", "Movies": "Movie", "Boxes": "Box", "Heroes": "Hero",
			"Analyses": "Analyse", "Women": "Woman", "Knives": "Knife", "Days": "Day", "Series": "Series", "Matrices": "Matrice",
		} {
			got, err := oss.InflectSingular(word)
			Expect(err).NotTo(HaveOccurred())
			Expect(got).To(Equal(want), word)
		}
	})
})

// More function documents written for these specs, with upstream's
// transform_function output (same versions as above).
var minicpmEdgeCases = []struct{ name, doc, want string }{
	{"listdefault", `{"name": "listdefault", "description": "Test listdefault.", "parameters": {"type": "object", "properties": {"stops": {"type": "array", "items": {"type": "object", "properties": {"name": {"type": "string"}}}, "default": [{"name": "a"}, {"name": "b"}], "description": "Stops."}}, "required": []}}`, `class Stop(BaseModel):
    name: Optional[str] = None


def listdefault(stops=[{'name': 'a'}, {'name': 'b'}]):
    """
    Test listdefault.
    Args:

    stops: Optional[List[Stop]] = Field(
        default_factory=lambda: [
            Stop.parse_obj(v) for v in [{'name': 'a'}, {'name': 'b'}]
        ],
        description='Stops.',
    )

    """
`},
	{"longenum", `{"name": "longenum", "description": "Test longenum.", "parameters": {"type": "object", "properties": {"kind": {"type": "string", "enum": ["xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx", "yyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyy", "short"]}}, "required": []}}`, `class Kind(Enum):
    xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx = (
        'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx'
    )
    yyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyy = 'yyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyy'
    short = 'short'


def longenum(kind=None):
    """
    Test longenum.
    Args:

    kind: Optional[Kind] = None

    """
`},
	{"longlistdefault", `{"name": "longlistdefault", "description": "Test longlistdefault.", "parameters": {"type": "object", "properties": {"tags": {"type": "array", "items": {"type": "string"}, "default": ["alpha-alpha-alpha-", "beta-beta-beta-beta-", "gamma-gamma-gamma-gamma-gamma-", "delta-delta-delta-"]}}, "required": []}}`, `def longlistdefault(tags=['alpha-alpha-alpha-', 'beta-beta-beta-beta-', 'gamma-gamma-gamma-gamma-gamma-', 'delta-delta-delta-']):
    """
    Test longlistdefault.
    Args:

    tags: Optional[List[str]] = [
        'alpha-alpha-alpha-',
        'beta-beta-beta-beta-',
        'gamma-gamma-gamma-gamma-gamma-',
        'delta-delta-delta-',
    ]

    """
`},
	{"longstrdefault", `{"name": "longstrdefault", "description": "Test longstrdefault.", "parameters": {"type": "object", "properties": {"note": {"type": "string", "default": "nnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnn"}}, "required": []}}`, `def longstrdefault(note='nnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnn'):
    """
    Test longstrdefault.
    Args:

    note: Optional[str] = (
        'nnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnn'
    )

    """
`},
	{"longstrdefault2", `{"name": "longstrdefault2", "description": "Test longstrdefault2.", "parameters": {"type": "object", "properties": {"note": {"type": "string", "default": "nnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnn"}}, "required": []}}`, `def longstrdefault2(note='nnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnn'):
    """
    Test longstrdefault2.
    Args:

    note: Optional[str] = (
        'nnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnn'
    )

    """
`},
	{"names", `{"name": "names", "description": "Test names.", "parameters": {"type": "object", "properties": {"model": {"type": "object", "properties": {"a": {"type": "string"}}}, "Config": {"type": "string"}, "model_config": {"type": "string"}, "fields": {"type": "string"}, "json": {"type": "string"}, "copy": {"type": "integer"}, "class": {"type": "string"}, "1st": {"type": "string"}}, "required": []}}`, `class Model1(BaseModel):
    a: Optional[str] = None


def names(model=None, Config=None, model_config=None, fields=None, json=None, copy=None, class=None, 1st=None):
    """
    Test names.
    Args:

    model: Optional[Model1] = None
    Config: Optional[str] = None
    model_config_: Optional[str] = Field(None, alias='model_config')
    fields: Optional[str] = None
    json_: Optional[str] = Field(None, alias='json')
    copy_: Optional[int] = Field(None, alias='copy')
    class_: Optional[str] = Field(None, alias='class')
    field_1st: Optional[str] = Field(None, alias='1st')

    """
`},
	{"enums", `{"name": "enums", "description": "Test enums.", "parameters": {"type": "object", "properties": {"a": {"type": "string", "enum": [1, 2]}, "b": {"type": "integer", "enum": ["x", "x"]}, "c": {"type": "string", "enum": ["mro", "it's", "a\\b"]}}, "required": []}}`, `class A(Enum):
    field_1 = 1
    field_2 = 2


class B(Enum):
    x = 'x'
    x_1 = 'x'


class C(Enum):
    mro_ = 'mro'
    it_s = 'it\'s'
    a_b = 'a\\b'


def enums(a=None, b=None, c=None):
    """
    Test enums.
    Args:

    a: Optional[A] = None
    b: Optional[B] = None
    c: Optional[C] = None

    """
`},
	{"wide", `{"name": "wide", "description": "Test wide.", "parameters": {"type": "object", "properties": {"q": {"type": "string", "description": "\u67e5\u8be2\u5929\u6c14\u7684\u57ce\u5e02\u540d\u79f0\uff0c\u4f8b\u5982\u5317\u4eac\u6216\u8005\u4e0a\u6d77\uff0c\u5fc5\u987b\u662f\u4e2d\u6587\u540d\u79f0"}, "r": {"type": "string", "description": "\u57ce\u5e02\u57ce\u5e02\u57ce\u5e02\u57ce\u5e02\u57ce\u5e02\u57ce\u5e02\u57ce\u5e02\u57ce\u5e02\u57ce\u5e02\u57ce\u5e02\u57ce\u5e02\u57ce\u5e02\u57ce\u5e02\u57ce\u5e02\u57ce\u5e02\u57ce\u5e02\u57ce\u5e02\u57ce\u5e02\u57ce\u5e02\u57ce\u5e02"}}, "required": []}}`, `def wide(q=None, r=None):
    """
    Test wide.
    Args:

    q: Optional[str] = Field(
        None, description='查询天气的城市名称，例如北京或者上海，必须是中文名称'
    )
    r: Optional[str] = Field(
        None,
        description='城市城市城市城市城市城市城市城市城市城市城市城市城市城市城市城市城市城市城市城市',
    )

    """
`},
	{"repr", `{"name": "repr", "description": "Test repr.", "parameters": {"type": "object", "properties": {"q": {"type": "string", "description": "Line one\nLine 'two' and \"three\"\ttab"}, "r": {"type": "string", "description": "It's"}}, "required": []}}`, `def repr(q=None, r=None):
    """
    Test repr.
    Args:

    q: Optional[str] = Field(
        None, description='Line one\nLine \'two\' and "three"\ttab'
    )
    r: Optional[str] = Field(None, description="It's")

    """
`},
	{"nested", `{"name": "nested", "description": "Test nested.", "parameters": {"type": "object", "properties": {"outer": {"type": "object", "properties": {"inner": {"type": "object", "properties": {"leaf": {"type": "integer", "description": "A leaf."}}, "required": ["leaf"]}, "items": {"type": "array", "items": {"type": "object", "properties": {"v": {"type": "number", "description": "V. This is a float type value.", "format": "float"}}}}}}}, "required": ["outer"]}}`, `class Inner(BaseModel):
    leaf: int = Field(..., description='A leaf.')


class Item(BaseModel):
    v: Optional[float] = Field(None, description='V. This is a float type value.')


class Outer(BaseModel):
    inner: Optional[Inner] = None
    items: Optional[List[Item]] = None


def nested(outer):
    """
    Test nested.
    Args:

    outer: Outer

    """
`},
	{"ranges", `{"name": "ranges", "description": "Test ranges.", "parameters": {"type": "object", "properties": {"f": {"type": "number", "minimum": 0, "maximum": 10.5, "description": "F. This is a float type value.", "format": "float"}, "i": {"type": "integer", "maximum": 5.0}, "l": {"type": "array", "items": {"type": "integer"}, "minItems": 1, "maxItems": 3}}, "required": []}}`, `def ranges(f=None, i=None, l=None):
    """
    Test ranges.
    Args:

    f: Optional[float] = Field(
        None, description='F. This is a float type value.', ge=0.0, le=10.5
    )
    i: Optional[int] = Field(None, le=5)
    l: Optional[List[int]] = Field(None, max_items=3, min_items=1)

    """
`},
	{"dates", `{"name": "dates", "description": "Test dates.", "parameters": {"type": "object", "properties": {"d": {"type": "string", "format": "date", "default": "2024-01-01", "description": "D."}}, "required": []}}`, `def dates(d='2024-01-01'):
    """
    Test dates.
    Args:

    d: Optional[date] = Field('2024-01-01', description='D.')

    """
`},
	{"itemsenum", `{"name": "itemsenum", "description": "Test itemsenum.", "parameters": {"type": "object", "properties": {"avoid": {"type": "array", "items": {"type": "string", "enum": ["tolls", "highways"]}}, "categories": {"type": "array", "items": {"type": "string", "enum": ["a", "b"]}}}, "required": []}}`, `class AvoidEnum(Enum):
    tolls = 'tolls'
    highways = 'highways'


class Category(Enum):
    a = 'a'
    b = 'b'


def itemsenum(avoid=None, categories=None):
    """
    Test itemsenum.
    Args:

    avoid: Optional[List[AvoidEnum]] = None
    categories: Optional[List[Category]] = None

    """
`},
	{"arrarr", `{"name": "arrarr", "description": "Test arrarr.", "parameters": {"type": "object", "properties": {"grid": {"type": "array", "items": {"type": "array", "items": {"type": "integer"}}, "description": "Grid."}}, "required": []}}`, `def arrarr(grid=None):
    """
    Test arrarr.
    Args:

    grid: Optional[List[List[int]]] = Field(None, description='Grid.')

    """
`},
	{"longname", `{"name": "longname", "description": "Test longname.", "parameters": {"type": "object", "properties": {"a_really_really_long_parameter_name_that_goes_on": {"type": "array", "items": {"type": "string"}, "description": "Something fairly long to describe here ok."}}, "required": []}}`, `def longname(a_really_really_long_parameter_name_that_goes_on=None):
    """
    Test longname.
    Args:

    a_really_really_long_parameter_name_that_goes_on: Optional[List[str]] = Field(
        None, description='Something fairly long to describe here ok.'
    )

    """
`},
	{"dictdefault_long", `{"name": "dictdefault_long", "description": "Test dictdefault_long.", "parameters": {"type": "object", "properties": {"opts": {"type": "object", "default": {"alpha": "one", "beta": "two", "gamma": "three", "delta": "four", "eps": "five"}}}, "required": []}}`, `def dictdefault_long(opts={'alpha': 'one', 'beta': 'two', 'gamma': 'three', 'delta': 'four', 'eps': 'five'}):
    """
    Test dictdefault_long.
    Args:

    opts: Optional[Dict[str, Any]] = {
        'alpha': 'one',
        'beta': 'two',
        'gamma': 'three',
        'delta': 'four',
        'eps': 'five',
    }

    """
`},
	{"modeldefault_long", `{"name": "modeldefault_long", "description": "Test modeldefault_long.", "parameters": {"type": "object", "properties": {"prefs": {"type": "object", "properties": {"alpha": {"type": "string"}, "beta": {"type": "string"}}, "default": {"alpha": "oneoneoneoneoneoneoneoneoneone", "beta": "twotwotwotwotwotwotwotwotwotwo"}, "description": "Prefs."}}, "required": []}}`, `class Prefs(BaseModel):
    alpha: Optional[str] = None
    beta: Optional[str] = None


def modeldefault_long(prefs={'alpha': 'oneoneoneoneoneoneoneoneoneone', 'beta': 'twotwotwotwotwotwotwotwotwotwo'}):
    """
    Test modeldefault_long.
    Args:

    prefs: Optional[Prefs] = Field(
        default_factory=lambda: Prefs.parse_obj(
            {
                'alpha': 'oneoneoneoneoneoneoneoneoneone',
                'beta': 'twotwotwotwotwotwotwotwotwotwo',
            }
        ),
        description='Prefs.',
    )

    """
`},
	{"yamlfloats", `{"name": "yamlfloats", "description": "Test yamlfloats.", "parameters": {"type": "object", "properties": {"tiny": {"type": "number", "description": "Tiny. This is a float type value.", "default": 1e-07, "format": "float"}, "huge": {"type": "number", "description": "Huge. This is a float type value.", "default": 2.5e+20, "format": "float"}, "big": {"type": "number", "description": "Big. This is a float type value.", "default": 1e+20, "format": "float"}}, "required": []}}`, `def yamlfloats(tiny=1e-07, huge=2.5e+20, big=1e+20):
    """
    Test yamlfloats.
    Args:

    tiny: Optional[float] = Field(
        '1e-07', description='Tiny. This is a float type value.'
    )
    huge: Optional[float] = Field(
        2.5e20, description='Huge. This is a float type value.'
    )
    big: Optional[float] = Field(
        '1e+20', description='Big. This is a float type value.'
    )

    """
`},
	{"enumconstraint", `{"name": "enumconstraint", "description": "Test enumconstraint.", "parameters": {"type": "object", "properties": {"level": {"type": "integer", "enum": [1, 2, 3], "maximum": 3, "description": "Level."}, "opts": {"type": "object", "maximum": 3, "description": "Options."}}, "required": []}}`, `class Level(Enum):
    integer_1 = 1
    integer_2 = 2
    integer_3 = 3


def enumconstraint(level=None, opts=None):
    """
    Test enumconstraint.
    Args:

    level: Optional[Level] = Field(None, description='Level.')
    opts: Optional[Dict[str, Any]] = Field(None, description='Options.')

    """
`},
	{"reserved", `{"name": "reserved", "description": "Test reserved.", "parameters": {"type": "object", "properties": {"mro": {"type": "string", "description": "M."}, "register": {"type": "string"}, "model_dump": {"type": "integer", "description": "D."}}, "required": []}}`, `def reserved(mro=None, register=None, model_dump=None):
    """
    Test reserved.
    Args:

    mro_: Optional[str] = Field(None, alias='mro', description='M.')
    register_: Optional[str] = Field(None, alias='register')
    model_dump_: Optional[int] = Field(None, alias='model_dump', description='D.')

    """
`},
	{"longcomp", `{"name": "longcomp", "description": "Test longcomp.", "parameters": {"type": "object", "properties": {"mid_length_parameter_name_here": {"type": "array", "items": {"type": "object", "properties": {"k": {"type": "string"}}}, "default": [{"k": "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"}, {"k": "yyyyyyyyyyyyyyyyyyyyyyyyyyyyyy"}], "description": "Items."}}, "required": []}}`, `class MidLengthParameterNameHereItem(BaseModel):
    k: Optional[str] = None


def longcomp(mid_length_parameter_name_here=[{'k': 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxx'}, {'k': 'yyyyyyyyyyyyyyyyyyyyyyyyyyyyyy'}]):
    """
    Test longcomp.
    Args:

    mid_length_parameter_name_here: Optional[List[MidLengthParameterNameHereItem]] = (
        Field(
            default_factory=lambda: [
                MidLengthParameterNameHereItem.parse_obj(v)
                for v in [
                    {'k': 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxx'},
                    {'k': 'yyyyyyyyyyyyyyyyyyyyyyyyyyyyyy'},
                ]
            ],
            description='Items.',
        )
    )

    """
`},
	{"longhead", `{"name": "longhead", "description": "Test longhead.", "parameters": {"type": "object", "properties": {"another_parameter_name_of_forty_chars_x_plus": {"type": "array", "items": {"type": "array", "items": {"type": "integer"}}, "description": "Grid."}}, "required": ["another_parameter_name_of_forty_chars_x_plus"]}}`, `def longhead(another_parameter_name_of_forty_chars_x_plus):
    """
    Test longhead.
    Args:

    another_parameter_name_of_forty_chars_x_plus: List[List[int]] = Field(
        ..., description='Grid.'
    )

    """
`},
	{"longannotation", `{"name": "longannotation", "description": "Test longannotation.", "parameters": {"type": "object", "properties": {"a_really_long_parameter_name_for_testing_the_wrapping_rules": {"type": "object", "properties": {"v": {"type": "string"}}}}, "required": ["a_really_long_parameter_name_for_testing_the_wrapping_rules"]}}`, `class AReallyLongParameterNameForTestingTheWrappingRules(BaseModel):
    v: Optional[str] = None


def longannotation(a_really_long_parameter_name_for_testing_the_wrapping_rules):
    """
    Test longannotation.
    Args:

    a_really_long_parameter_name_for_testing_the_wrapping_rules: (
        AReallyLongParameterNameForTestingTheWrappingRules
    )

    """
`},
}
