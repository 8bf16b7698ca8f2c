package oss

import "github.com/bfcl-go/bfcl/internal/python/pyval"

// NanbeigeFCHandler (local_inference/nanbeige_fc.py): Qwen3's template
// with Nanbeige's own default system texts; replies parsed like
// QwenFCHandler's.

// Protocol texts of nanbeige_fc.py's _format_prompt: the system text put
// before the tools when the conversation has no system message, and the
// whole default system turn when there are no functions.
const (
	nanbeigeToolsSystem   = "你是一位工具函数调用专家，你会得到一个问题和一组可能的工具函数。根据问题，你需要进行一个或多个函数/工具调用以实现目的，请尽量尝试探索通过工具解决问题。 如果没有一个函数可以使用，请直接使用自然语言回复用户。 如果给定的问题缺少函数所需的参数，请使用自然语言进行提问，向用户询问必要信息。 如果调用结果已经足够回答用户问题，请对历史结果进行总结，使用自然语言回复用户。"
	nanbeigeDefaultSystem = "<|im_start|>system\n 你是一个名为\"南北阁\"的人工智能助手，正在与人类用户进行交谈。你的目标是以最有帮助和最逻辑的方式回答问题，同时确保内容的安全性。你的回答中不应包含任何有害、政治化、宗教化、不道德、种族主义、非法的内容。请确保你的回答不带有社会偏见，符合社会主义价值观。如果遇到的问题无意义或事实上不连贯，请不要回答错误的内容，而是解释问题为何无效或不连贯。如果你不知道问题的答案，也请勿提供错误的信息。<|im_end|>\n"
)

type nanbeige struct{ base }

func newNanbeige(model string) Format {
	return &nanbeige{newBase("NanbeigeFCHandler", model).ownSystemPrompt()}
}

func (n *nanbeige) Prompt(msgs []Message, functions []pyval.Value) (string, error) {
	return qwen3Prompt(msgs, functions, true, nanbeigeToolsSystem, nanbeigeDefaultSystem)
}

// ParseReply is QwenFCHandler's: reasoning split off, <tool_call> blocks
// kept as tool_calls, reasoning_content always in the history message.
func (n *nanbeige) ParseReply(text string) (Reply, error) {
	reasoning, cleaned, _ := splitThink(text)
	h := toolCallHistory(text, cleaned)
	h.ReasoningContent = strPtr(reasoning)
	return Reply{Text: text, ModelResponses: pyval.Str(cleaned), Reasoning: reasoning, History: h}, nil
}
