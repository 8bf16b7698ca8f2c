package astcheck_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/bfcl-go/bfcl/internal/benchmark/category"
	"github.com/bfcl-go/bfcl/internal/check/astcheck"
	"github.com/bfcl-go/bfcl/internal/models/decode"
	"github.com/bfcl-go/bfcl/internal/testkit/testenv"
)

// The hand-made cases of fixtures/ast (see its README): each run folder
// holds result files and the verdicts upstream's own code gave on them.

type fixtureVerdict struct {
	ID        string            `json:"id"`
	Valid     bool              `json:"valid"`
	ErrorType *string           `json:"error_type"`
	Error     []json.RawMessage `json:"error"`
}

type fixtureRun struct {
	Mode            string `json:"mode"`
	UnderscoreToDot bool   `json:"underscore_to_dot"`
}

func fixturesDir() string { return filepath.Join(testenv.ModuleRoot(), "fixtures", "ast") }

// indexByID reads a JSON Lines file into id -> line.
func indexByID(path string) map[string]json.RawMessage {
	lines, err := readLines(path)
	Expect(err).NotTo(HaveOccurred())
	out := map[string]json.RawMessage{}
	for _, l := range lines {
		id, err := idOf(l)
		Expect(err).NotTo(HaveOccurred())
		out[id] = l
	}
	return out
}

// sameErrorItem compares one rendered error item with upstream's: strings
// exactly, dict items as JSON values.
func sameErrorItem(got string, want json.RawMessage) bool {
	var ws string
	if json.Unmarshal(want, &ws) == nil {
		return got == ws
	}
	var g, w any
	if json.Unmarshal([]byte(got), &g) != nil || json.Unmarshal(want, &w) != nil {
		return false
	}
	return reflect.DeepEqual(g, w)
}

// pythonSyntaxErrorText reports messages that embed CPython's SyntaxError
// text, whose wording our Python-expression parser does not reproduce.
func pythonSyntaxErrorText(s string) bool { return strings.Contains(s, "(<unknown>, line ") }

var _ = Describe("hand-made fixtures (PITFALLS single-turn rules)", func() {
	// Every named case of PITFALLS.md (single-turn) must be present.
	required := []string{
		"string_punct_kept", "string_quoted_inside", "string_punct_stripped", "string_case",
		"string_whitespace", "string_spaces_removed", "call_duplicated", "list_str_normalised",
		"null_option_variable", "int_options_for_float_array", "int_for_float", "float_for_int",
		"bool_for_int", "int_for_bool", "str_for_int", "ints_in_float_array", "any_maps_to_str",
		"optional_omitted", "optional_not_marked_omitted", "required_wins_over_empty",
		"extra_param_schema_only", "null_for_optional", "default_value_given",
		"dict_extra_key", "dict_key_dropped_with_empty", "dict_key_order_free",
		"precedence_type_first", "precedence_value_first", "func_name_dotted",
		"func_name_underscored", "simple_answer_key_not_read", "empty_output_wrong_count",
		"calls_reversed", "calls_permuted_greedy_miss", "list_reversed", "list_reversed_option",
		"list_of_dicts_reversed", "tuple_for_list", "list_for_tuple", "scalar_for_list",
		"java_bool_capital", "java_int_long_suffix", "java_long", "java_float", "java_double",
		"java_string_array_quoted", "java_string_array_unquoted", "java_arraylist_aslist",
		"java_arraylist_add_style", "java_arraylist_any_keeps_quotes", "java_hashmap_put",
		"java_hashmap_java_util", "java_map_of", "java_string_quoted_fc", "java_non_string_value",
		"js_string_single_quoted", "js_int_for_float", "js_number_quoted", "js_non_string_value",
		"js_bool_capital", "js_array", "js_dict",
		"fc_second_key_in_call_dict", "fc_bad_json", "fc_nonstring_args", "fc_text_answer",
		"fc_args_not_object", "positional_arg", "binop_for_int", "attribute_value",
		"irrelevance_bad_json", "irrelevance_empty_call_dict", "irrelevance_nonstring_args",
		"relevance_with_call", "relevance_empty_list",
	}

	It("reproduces upstream's verdict on every fixture case", func() {
		dir := fixturesDir()
		if _, err := os.Stat(dir); err != nil {
			Fail("fixtures folder missing: " + dir)
		}
		runs, err := filepath.Glob(filepath.Join(dir, "runs", "*", "options.json"))
		Expect(err).NotTo(HaveOccurred())
		Expect(runs).NotTo(BeEmpty())
		seen := map[string]bool{}
		checked := 0
		for _, optPath := range runs {
			runDir := filepath.Dir(optPath)
			raw, err := os.ReadFile(optPath)
			Expect(err).NotTo(HaveOccurred())
			var run fixtureRun
			Expect(json.Unmarshal(raw, &run)).To(Succeed())
			opts := decode.Options{Spec: decode.Spec{Mode: run.Mode, UnderscoreToDot: run.UnderscoreToDot}}
			resultFiles, _ := filepath.Glob(filepath.Join(runDir, "BFCL_v4_*_result.json"))
			sort.Strings(resultFiles)
			for _, rf := range resultFiles {
				cat := strings.TrimSuffix(strings.TrimPrefix(filepath.Base(rf), "BFCL_v4_"), "_result.json")
				entries := indexByID(filepath.Join(dir, "data", "BFCL_v4_"+cat+".json"))
				var answers map[string]json.RawMessage
				if !strings.Contains(cat, "relevance") {
					answers = indexByID(filepath.Join(dir, "data", "possible_answer", "BFCL_v4_"+cat+".json"))
				}
				wantLines, err := readLines(filepath.Join(runDir, "BFCL_v4_"+cat+"_verdicts.jsonl"))
				Expect(err).NotTo(HaveOccurred())
				want := map[string]fixtureVerdict{}
				for _, l := range wantLines {
					var v fixtureVerdict
					Expect(json.Unmarshal(l, &v)).To(Succeed())
					want[v.ID] = v
				}
				results, err := readLines(rf)
				Expect(err).NotTo(HaveOccurred())
				for _, line := range results {
					id, err := idOf(line)
					Expect(err).NotTo(HaveOccurred())
					w, found := want[id]
					Expect(found).To(BeTrue(), "no expected verdict for %s", id)
					where := filepath.Base(runDir) + "/" + id
					v, err := astcheck.ScoreEntry(category.Category(cat), entries[id], answers[id], line, opts)
					Expect(err).NotTo(HaveOccurred(), where)
					Expect(v.Valid).To(Equal(w.Valid), "%s: valid (errors %q)", where, v.Errors)
					wantType := ""
					if w.ErrorType != nil {
						wantType = *w.ErrorType
					}
					Expect(v.ErrorType).To(Equal(wantType), "%s: error type (errors %q)", where, v.Errors)
					Expect(v.Errors).To(HaveLen(len(w.Error)), "%s: error list", where)
					for i := range w.Error {
						if pythonSyntaxErrorText(string(w.Error[i])) {
							continue
						}
						Expect(sameErrorItem(v.Errors[i], w.Error[i])).To(BeTrue(),
							"%s: error %d\n got: %s\nwant: %s", where, i, v.Errors[i], w.Error[i])
					}
					seen[id] = true
					checked++
				}
			}
		}
		for _, id := range required {
			Expect(seen).To(HaveKey(id), "named fixture case %s is missing", id)
		}
		GinkgoWriter.Printf("checked %d fixture verdicts\n", checked)
	})
})
