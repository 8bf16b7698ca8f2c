package astcheck_test

import (
	"encoding/json"
	"errors"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/bfcl-go/bfcl/internal/check/astcheck"
	"github.com/bfcl-go/bfcl/internal/models/decode"
	"github.com/bfcl-go/bfcl/internal/python/pyval"
)

func calls(raw string) []decode.Call {
	c, err := decode.DecodeCalls(json.RawMessage(raw), decode.Options{})
	Expect(err).NotTo(HaveOccurred())
	return c
}

var _ = Describe("Check on raw JSON inputs", func() {
	doc := json.RawMessage(`{"name": "math.hypot", "parameters": {"type": "dict", "properties": {"x": {"type": "integer"}, "y": {"type": "integer"}}, "required": ["x"]}}`)

	It("judges decoded calls against the docs and the possible answer", func() {
		v, err := astcheck.Check(astcheck.Input{
			ID: "t1", Category: "simple_python", Functions: []json.RawMessage{doc},
			PossibleAnswer:  json.RawMessage(`[{"math.hypot": {"x": [3], "y": ["", 4]}}]`),
			Decoded:         calls(`[{"math_hypot": "{\"x\": 3}"}]`),
			UnderscoreToDot: true,
		})
		Expect(err).NotTo(HaveOccurred())
		Expect(v.Valid).To(BeTrue())

		v, err = astcheck.Check(astcheck.Input{
			ID: "t2", Category: "simple_python", Functions: []json.RawMessage{doc},
			PossibleAnswer: json.RawMessage(`[{"math.hypot": {"x": [3], "y": ["", 4]}}]`),
			Decoded:        calls(`[{"math.hypot": "{\"x\": 3, \"y\": 5}"}]`),
		})
		Expect(err).NotTo(HaveOccurred())
		Expect(v.Valid).To(BeFalse())
		Expect(v.ErrorType).To(Equal("value_error:others"))
		Expect(v.Errors).To(Equal([]string{"Invalid value for parameter 'y': 5. Expected one of ['', 4]."}))
	})

	It("renders the sub-errors of a parallel mismatch as JSON objects", func() {
		v, err := astcheck.Check(astcheck.Input{
			ID: "t3", Category: "parallel", Functions: []json.RawMessage{doc},
			PossibleAnswer: json.RawMessage(`[{"math.hypot": {"x": [1], "y": [""]}}, {"math.hypot": {"x": [2], "y": [""]}}]`),
			Decoded:        calls(`[{"math.hypot": "{\"x\": 2}"}, {"math.hypot": "{\"x\": 3}"}]`),
		})
		Expect(err).NotTo(HaveOccurred())
		Expect(v.ErrorType).To(Equal("parallel_function_checker_no_order:cannot_find_match"))
		Expect(v.Errors[0]).To(Equal("Could not find a matching function among index [0, 1] of model output for index 0 of possible answers."))
		Expect(v.Errors).To(HaveLen(3))
		var sub map[string]map[string]any
		Expect(json.Unmarshal([]byte(v.Errors[1]), &sub)).To(Succeed())
		Expect(sub["Model Result Index 0"]["sub_error_type"]).To(Equal("value_error:others"))
		Expect(sub["Model Result Index 0"]["model_output_item"]).To(Equal(map[string]any{"math.hypot": map[string]any{"x": 2.0}}))
	})

	It("reports inputs on which upstream itself raises", func() {
		javaDoc := json.RawMessage(`{"name": "f", "parameters": {"type": "dict", "properties": {"s": {"type": "Set"}}, "required": []}}`)
		_, err := astcheck.Check(astcheck.Input{
			ID: "t4", Category: "simple_java", Functions: []json.RawMessage{javaDoc},
			PossibleAnswer: json.RawMessage(`[{"f": {"s": ["x"]}}]`),
			Decoded:        calls(`[{"f": "{\"s\": \"new HashSet<>()\"}"}]`),
		})
		var ue *astcheck.UpstreamError
		Expect(errors.As(err, &ue)).To(BeTrue())
		Expect(ue.Exc.Type).To(Equal("NotImplementedError"))
		Expect(ue.Exc.Msg).To(Equal("Set conversion is not implemented"))

		noRequired := json.RawMessage(`{"name": "f", "parameters": {"type": "dict", "properties": {}}}`)
		_, err = astcheck.Check(astcheck.Input{
			ID: "t5", Category: "simple_python", Functions: []json.RawMessage{noRequired},
			PossibleAnswer: json.RawMessage(`[{"f": {}}]`), Decoded: calls(`[{"f": "{}"}]`),
		})
		Expect(errors.As(err, &ue)).To(BeTrue())
		Expect(ue.Exc).To(Equal(pyval.NewKeyError(pyval.Str("required"))))
	})
})
