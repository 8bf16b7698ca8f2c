package oss

import (
	"strings"

	"github.com/bfcl-go/bfcl/internal/python/pyval"
)

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

func newNanbeige(model string) Format { return &nanbeige{newBase("NanbeigeFCHandler", model)} }

func (n *nanbeige) Setup(_ string, _ []pyval.Value, turns [][]Message) ([][]Message, error) {
	return ownSystemPrompt(turns), nil
}

func (n *nanbeige) Prompt(msgs []Message, functions []pyval.Value) (string, error) {
	if len(msgs) == 0 {
		return "", errNoMessages
	}
	var b strings.Builder
	if len(functions) > 0 {
		b.WriteString("<|im_start|>system\n")
		if msgs[0].Role == RoleSystem {
			s, err := strConcat(msgs[0].Content, pyval.Str("\n\n"))
			if err != nil {
				return "", err
			}
			b.WriteString(string(s.(pyval.Str)))
		} else {
			b.WriteString(nanbeigeToolsSystem)
		}
		b.WriteString(qwenToolsHeader)
		for _, f := range functions {
			js, err := dumps(f)
			if err != nil {
				return "", err
			}
			b.WriteString("\n" + js)
		}
		b.WriteString(qwenToolsFooter)
	} else if msgs[0].Role == RoleSystem {
		b.WriteString("<|im_start|>system\n" + fstr(msgs[0].Content) + "<|im_end|>\n")
	} else {
		b.WriteString(nanbeigeDefaultSystem)
	}
	if err := qwenHistory(&b, msgs, true); err != nil {
		return "", err
	}
	b.WriteString("<|im_start|>assistant\n")
	return b.String(), nil
}

// ParseReply is QwenFCHandler's: reasoning split off, <tool_call> blocks
// kept as tool_calls, reasoning_content always in the history message.
func (n *nanbeige) ParseReply(text string) (Reply, error) {
	reasoning, cleaned, _ := splitThink(text)
	h := toolCallHistory(text, cleaned)
	h.ReasoningContent = strPtr(reasoning)
	return Reply{Text: text, ModelResponses: pyval.Str(cleaned), Reasoning: reasoning, History: h}, nil
}
