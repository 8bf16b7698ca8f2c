package verdict_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/bfcl-go/bfcl/internal/check/verdict"
)

var _ = Describe("ScoreLineTurns", func() {
	// Three ground-truth turns; the second has none (a held-out function).
	const gt = `"possible_answer": [["a()"], [], ["b()", "c()"]]`
	DescribeTable("finds where the checker stopped from the line's structured fields",
		func(line string, want verdict.TurnOutcome, typ string) {
			got, gotType, err := verdict.ScoreLineTurns([]byte(line))
			Expect(err).NotTo(HaveOccurred())
			Expect(got).To(Equal(want))
			Expect(gotType).To(Equal(typ))
		},
		Entry("state mismatch: the last turn of the execution log",
			`{"id": "multi_turn_base_1", "error": {"error_message": ["?"], "error_type": "multi_turn:instance_state_mismatch", "details": {"differences": {}, "execution_result": [{}, {}, {}]}}, `+gt+`}`,
			verdict.TurnOutcome{Turns: 3, Checked: true, Passed: 2}, verdict.ErrStateMismatch),
		Entry("empty turn: the last turn of the execution log",
			`{"id": "multi_turn_base_1", "error": {"error_message": ["?"], "error_type": "multi_turn:empty_turn_model_response", "details": {"execution_result": [{}]}}, `+gt+`}`,
			verdict.TurnOutcome{Turns: 3, Checked: true, Passed: 0}, verdict.ErrEmptyTurn),
		Entry("response mismatch: the turn whose results complete the model's responses",
			`{"id": "multi_turn_base_1", "error": {"error_message": ["?"], "error_type": "multi_turn:execution_response_mismatch", "details": {"missing_items": ["x"], "model_response (including all previous turns)": ["1", "2", "3"], "ground_truth_response (only the current turn)": ["x"]}}, "model_result_decoded": [[["a()"]], [], [["b()"], ["c()"]]], `+gt+`}`,
			verdict.TurnOutcome{Turns: 3, Checked: true, Passed: 2}, verdict.ErrResponseMismatch),
		Entry("response mismatch at the first turn, calls made later too",
			`{"id": "multi_turn_base_1", "error": {"error_message": ["?"], "error_type": "multi_turn:execution_response_mismatch", "details": {"missing_items": ["x"], "model_response (including all previous turns)": ["1", "2"], "ground_truth_response (only the current turn)": ["x"]}}, "model_result_decoded": [[["a()", "z()"]], [], [["b()"]]], `+gt+`}`,
			verdict.TurnOutcome{Turns: 3, Checked: true, Passed: 0}, verdict.ErrResponseMismatch),
		Entry("the irrelevance rule: the first turn without ground truth that got calls",
			`{"id": "multi_turn_miss_func_1", "error": {"error_message": ["?"], "error_type": "multi_turn:irrelevance_error:decoder_success", "details": {"model response decoded": [["z()"]]}}, "model_result_decoded": [[["a()"]], [["z()"]], []], `+gt+`}`,
			verdict.TurnOutcome{Turns: 3, Checked: true, Passed: 1}, verdict.ErrIrrelevance),
		Entry("inference error: no turn checked",
			`{"id": "multi_turn_base_1", "error": {"error_message": ["Error during inference phase."], "error_type": "multi_turn:inference_error"}, `+gt+`}`,
			verdict.TurnOutcome{Turns: 3}, verdict.ErrInferenceError),
	)
	DescribeTable("rejects lines whose fields do not name a turn",
		func(line, msg string) {
			_, _, err := verdict.ScoreLineTurns([]byte(line))
			Expect(err).To(MatchError(ContainSubstring(msg)))
		},
		Entry("no possible answer", `{"id": "multi_turn_base_1", "error": {"error_type": "multi_turn:inference_error"}}`, "multi_turn_base_1: score line without possible_answer"),
		Entry("unknown error type", `{"id": "multi_turn_base_1", "error": {"error_type": "multi_turn:other"}, `+gt+`}`, `"multi_turn:other" is not a multi-turn error type`),
		Entry("state mismatch without a log", `{"id": "multi_turn_base_1", "error": {"error_type": "multi_turn:instance_state_mismatch", "details": {}}, `+gt+`}`, "without an execution log"),
		Entry("responses the decoded calls never add up to",
			`{"id": "multi_turn_base_1", "error": {"error_type": "multi_turn:execution_response_mismatch", "details": {"model_response (including all previous turns)": ["1", "2", "3", "4"]}}, "model_result_decoded": [[["a()"]], [], [["b()"]]], `+gt+`}`,
			"at no turn of 3"),
	)
})
