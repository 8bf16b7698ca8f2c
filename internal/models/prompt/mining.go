package prompt

import (
	"encoding/json"
	"fmt"
	"regexp"

	"github.com/bfcl-go/bfcl/internal/benchmark/dataset"
	"github.com/bfcl-go/bfcl/internal/models/driver/core"
	"github.com/bfcl-go/bfcl/internal/python/pyval"
)

// The system prompt of MiningHandler's prompting methods (inherited by
// DMCitoHandler, whose registry entries DM-Cito-8B-v3 and DM-Cito-32B-v1
// are the prompt-mode ones): mining_system_prompt_pre_processing_chat_model
// in bfcl_eval/model_handler/api_inference/mining.py at the pinned commit.
// Its system_pre template is miningToolsBefore + str(functions) +
// miningToolsAfter, followed by its system_suffix (miningSuffix), byte for
// byte (the lines' trailing double spaces included).
const (
	miningToolsBefore = `You are a function calling AI model.  
You are provided with function signatures within <tools></tools> XML tags.  
You may call one or more functions to assist with the user query.  
Don't make assumptions about what values to plug into functions.


Here are the available tools:  
<tools>  
`
	miningToolsAfter = `  
</tools>
`
	miningSuffix = `Use the following pydantic model json schema for each tool call you will make:  
{"title": "FunctionCalls", "type": "array", "properties": {"arguments": {"title": "Arguments", "type": "object"}, "name": {"title": "Name", "type": "string"}}, "required": ["arguments", "name"]}

# Output Format & Constraints

At each turn, you should try your best to complete the user's request in the current turn.

**Reasoning:**  
You FIRST think about the reasoning process as an internal monologue, and then provide the final response. The reasoning MUST be enclosed within <think></think> tags.

**Function Calls:**  
- If you need to call any functions, output function calls within <tool_calls></tool_calls> tags.  
- The entire content inside <tool_calls></tool_calls> MUST be a valid JSON array, where each item is a JSON object with "name" and "arguments" as specified by the schema.  
- NEVER output <tool_calls> and <answer> tags at the same time; only one should appear per turn.  
- Do NOT call tools if the question can be answered directly.

**Final Answer:**  
- If the question can be fully answered based on current information (without tools), use <answer></answer> tags.  
- Inside <answer></answer>, provide only a short, precise answer to the question (not lengthy explanations).  
- Even if you do not know the answer, output your answer inside <answer></answer> as a JSON:  
  - {'answer': "I do not know", "context": "I do not know"}  
  - If you cannot answer the question at all, output: {"answer": "I cannot answer this question", "context": "A short reason explaining why this question cannot be answered"}  

**General Constraints:**  
- At each turn, output ONLY ONE of: <tool_calls></tool_calls> OR <answer></answer> (never both).  
- If you selected <answer></answer>, you MUST NOT propose another tool call even if the question is not answerable.  
- All outputs must strictly follow the above format.  
- Do not insert any additional explanation or commentary outside the specified tags.  
- When using <tool_calls></tool_calls>, the JSON array must not be empty and must strictly conform to the schema above.  
- Be careful not to misuse double quotes in the output json format.  
- Tool Invocation Priority: During intermediate steps, if the final answer cannot yet be derived, you must continue invoking tools until sufficient information is obtained.  

**Final Step Rule:**  
- For multi-step reasoning tasks (e.g., web-search), the FINAL step MUST always end with an <answer> block.  
- Once you output <answer>, you must never output <tool_calls> again.  
- Even if the answer is uncertain or incomplete, you must still provide <answer> in the required format.  

**Double-check Requirement:**  
- Before producing the final <answer>, the model must perform a Double-Check step: re-verify all calculations step-by-step, validate factual claims or flag uncertainty, ensure logical consistency and completeness, and confirm the output follows the required format, then provide the corrected and validated final answer.  

**Dynamic Plan Update:**  
- During double-check, if issues or inconsistencies are found, you must update the plan in <think> and continue invoking tools until the problem is resolved, only then output the final answer.

**Attention**
If no suitable function is found, just respond with XML tags as follows,output your answer inside <answer></answer> as a JSON, don't use <tool_calls></tool_calls>
At any time, make sure that the <think></think> tag contains enough thoughts.

**Example:**

<think>
{reasoning process here}
</think>
<tool_calls>
[{...}, {...}]
</tool_calls>

OR

<think>
{reasoning process here}
</think>
<answer>
{"answer": "...", "context": "..."}
</answer>
`
)

// HasMiningPrompt reports whether the prompting methods of handler class
// are MiningHandler's (its own system prompt and <tool_calls> parser):
// MiningHandler's and DMCitoHandler's, its subclass.
func HasMiningPrompt(handler string) bool {
	return handler == "MiningHandler" || handler == "DMCitoHandler"
}

// MiningSystemPrompt is the system prompt of MiningHandler's
// _pre_query_processing_prompting: the entry's function documents as
// Python prints the list (str() of the list of dicts, as str.format fills
// "{}"), between the tools tags, then the output rules. functions are the
// documents the handler gets (dataset.InferenceView's, with their language
// hint); no prompt configuration applies.
func MiningSystemPrompt(functions []json.RawMessage) (string, error) {
	docs := make([]pyval.Value, len(functions))
	for i, raw := range functions {
		v, err := pyval.FromJSON(raw)
		if err != nil {
			return "", fmt.Errorf("prompt: function document %d is not valid JSON: %w", i, err)
		}
		docs[i] = v
	}
	return miningToolsBefore + pyval.StrOf(pyval.NewList(docs...)) + miningToolsAfter + miningSuffix, nil
}

// FirstTurnOf is an entry's first turn as the prompting methods of handler
// class build it: for MiningHandler and DMCitoHandler their own system
// prompt (MiningSystemPrompt) put in front of the first turn's messages as
// system_prompt_pre_processing_chat_model does (WithSystemPrompt), whatever
// prompt configuration the entry id names; for every other class FirstTurn.
func FirstTurnOf(handler, entryID string, functions []json.RawMessage, first []dataset.Message) ([]core.Message, error) {
	if !HasMiningPrompt(handler) {
		return FirstTurn(entryID, functions, first)
	}
	sp, err := MiningSystemPrompt(functions)
	if err != nil {
		return nil, fmt.Errorf("prompt: entry %s (%s): %w", entryID, handler, err)
	}
	msgs, err := WithSystemPrompt(Messages(first), sp)
	if err != nil {
		return nil, fmt.Errorf("prompt: entry %s (%s): %w", entryID, handler, err)
	}
	return msgs, nil
}

// miningToolCalls is the pattern of MiningHandler's
// _parse_query_response_prompting: the first <tool_calls> block, its
// content between the newlines after the opening and before the closing
// tag (non-greedy, "." matching newlines too).
var miningToolCalls = regexp.MustCompile(`(?s)<tool_calls>\n(.*?)\n</tool_calls>`)

// MiningAnswer is what MiningHandler's _parse_query_response_prompting
// (DMCitoHandler's) stores of an answer text, as JSON: the content of its
// first <tool_calls> block, stripped, or the whole text when there is
// none; parsed with json.loads when that succeeds (a list of {"name",
// "arguments"} objects, which the FamilyNameArgs decoders read, or
// whatever other value it is), else kept as the text. A parsed value
// holding NaN or an infinity, which json.dumps writes but a JSON result
// line cannot hold, is an error.
func MiningAnswer(text string) (json.RawMessage, error) {
	calls := text
	if m := miningToolCalls.FindStringSubmatch(text); m != nil {
		calls = pyval.Strip(m[1])
	}
	v, err := pyval.FromJSONString(calls)
	if err != nil {
		return pyval.AppendJSON(nil, pyval.Str(calls))
	}
	b, err := pyval.AppendJSON(nil, v)
	if err != nil {
		return nil, fmt.Errorf("prompt: MiningHandler answer: %w", err)
	}
	if !json.Valid(b) {
		return nil, fmt.Errorf("prompt: MiningHandler answer %.200q parses to a value with NaN or Infinity, which a result line cannot hold", calls)
	}
	return b, nil
}
