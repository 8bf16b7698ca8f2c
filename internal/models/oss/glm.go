package oss

import (
	"strings"

	"github.com/bfcl-go/bfcl/internal/python/pyval"
)

// GLMHandler (local_inference/glm.py): GLM-4's Chinese system turn listing
// each tool (OpenAI-converted, json.dumps(indent=4)), then every message
// as <|role|>\ncontent. Requests carry GLM-4's stop token ids.

// Protocol texts of glm.py's _format_prompt.
const (
	glmToolsHeader = "[gMASK]<sop><|system|>\n你是一个名为 ChatGLM 的人工智能助手。你是基于智谱AI训练的语言模型 GLM-4 模型开发的，你的任务是针对用户的问题和要求提供适当的答复和支持。\n\n# 可用工具"
	glmToolNote    = "\n在调用上述函数时，请使用 Json 格式表示调用的参数。"
)

// glmStopTokenIDs is GLMHandler.stop_token_ids.
var glmStopTokenIDs = []int{151329, 151336, 151338}

type glm struct{ base }

func newGLM(model string) Format { return &glm{newBase("GLMHandler", model).ownSystemPrompt()} }

func (g *glm) Extras() Extras { return Extras{StopTokenIDs: append([]int(nil), glmStopTokenIDs...)} }

func (g *glm) Prompt(msgs []Message, functions []pyval.Value) (string, error) {
	tools, err := convertToTool(functions, true)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	if len(tools) > 0 {
		b.WriteString(glmToolsHeader)
		for _, t := range tools {
			fn, err := item(t, "function")
			if err != nil {
				return "", err
			}
			name, err := item(fn, "name")
			if err != nil {
				return "", err
			}
			js, err := dumpsIndent4(fn)
			if err != nil {
				return "", err
			}
			b.WriteString("\n\n## " + fstr(name) + "\n\n" + js + glmToolNote)
		}
	}
	for _, m := range msgs {
		b.WriteString("<|" + m.Role + "|>\n" + fstr(m.Content))
	}
	b.WriteString("<|assistant|>")
	return b.String(), nil
}
