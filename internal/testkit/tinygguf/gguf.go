// Package tinygguf writes a tiny llama-architecture GGUF model whose
// weights make decoding scripted, so a real Ollama server (or llama.cpp)
// returns fixed, deterministic answers, including real tool calls produced
// by Ollama's own tool-call parser.
//
// How the script works: every attention and feed-forward output projection
// is zero, so the residual stream at the last position is the embedding of
// the last prompt token. Embeddings are one-hot: ordinary tokens share
// dimension 0, each marker token and each scripted-answer token owns a
// dimension. The output matrix is a bigram table: after RMS normalisation
// the one-hot becomes sqrt(n_embd) on its dimension, and output.weight puts a
// weight of 5 on the successor token, a logit margin of 40 over every other
// token (deterministic even at temperature 1.5). The successor of a marker
// is the whole scripted answer as one user-defined token; the successor of
// that answer, and of every ordinary token, is the end-of-turn token.
//
// The chat template (fixtures/ollama/template.gotmpl) ends every prompt
// with exactly one marker chosen from the conversation:
//
//	<|mock_call1|>      tools offered, last message from the user, no tool result yet
//	<|mock_call2|>      tools offered, last message from the user, after a tool result
//	<|mock_after_tool|> last message is a tool result
//	<|mock_text|>       anything else (no tools)
//
// Only the standard library is used.
package tinygguf

import (
	"bufio"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strings"
)

// Call is one scripted tool call.
type Call struct {
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
}

// Script is what the model answers after each marker.
type Script struct {
	// Call1 answers <|mock_call1|>, Call2 answers <|mock_call2|>. Ollama
	// turns them into tool_calls only when the request offers tools with
	// these names.
	Call1, Call2 []Call
	// AfterTool answers <|mock_after_tool|>, Text answers <|mock_text|>.
	AfterTool, Text string
}

// DefaultScript is the script of the CI model. Its calls use tools of
// BFCL's GorillaFileSystem (multi_turn_func_doc/gorilla_file_system.json),
// so a multi-turn entry offering that class runs two real turns:
//
//	turn 1: cd(folder="document"), then the text AfterTool
//	turn 2: ls(a=true),            then the text AfterTool
const (
	DefaultAfterTool = "The tool call finished."
	DefaultText      = "Hello from the scripted test model."
)

// DefaultScript returns the script described above.
func DefaultScript() Script {
	return Script{
		Call1:     []Call{{Name: "cd", Arguments: json.RawMessage(`{"folder": "document"}`)}},
		Call2:     []Call{{Name: "ls", Arguments: json.RawMessage(`{"a": true}`)}},
		AfterTool: DefaultAfterTool,
		Text:      DefaultText,
	}
}

// Special token texts. They must match fixtures/ollama/template.gotmpl.
const (
	TokenBOS       = "<|endoftext|>"
	TokenIMStart   = "<|im_start|>"
	TokenIMEnd     = "<|im_end|>"
	MarkerCall1    = "<|mock_call1|>"
	MarkerCall2    = "<|mock_call2|>"
	MarkerAfter    = "<|mock_after_tool|>"
	MarkerText     = "<|mock_text|>"
	toolCallOpen   = "<tool_call>"
	toolCallClose  = "</tool_call>"
	scriptedWeight = 5
)

// CallsText renders calls the way the template renders an assistant's
// tool calls (and Ollama's parser expects them).
func CallsText(calls []Call) (string, error) {
	var b strings.Builder
	for i, c := range calls {
		if c.Name == "" {
			return "", fmt.Errorf("tinygguf: call %d has no name", i)
		}
		args := c.Arguments
		if len(args) == 0 {
			args = json.RawMessage("{}")
		}
		var obj map[string]any
		if err := json.Unmarshal(args, &obj); err != nil {
			return "", fmt.Errorf("tinygguf: call %d (%s) arguments are not a JSON object: %w", i, c.Name, err)
		}
		name, _ := json.Marshal(c.Name)
		if i > 0 {
			b.WriteString("\n")
		}
		fmt.Fprintf(&b, "%s\n{\"name\": %s, \"arguments\": %s}\n%s", toolCallOpen, name, args, toolCallClose)
	}
	return b.String(), nil
}

// Dimensions of the model.
const (
	nEmbd   = 64
	nHead   = 4
	nHeadKV = 2
	nFF     = 128
	nBlock  = 2
	nCtx    = 8192
)

// gguf value types
const (
	tUint32  = 4
	tInt32   = 5
	tFloat32 = 6
	tBool    = 7
	tString  = 8
	tArray   = 9
)

// token types of tokenizer.ggml.token_type
const (
	ttNormal      = 1
	ttControl     = 3
	ttUserDefined = 4
)

const alignment = 32

type kv struct {
	key string
	typ uint32
	val any
}

type tensor struct {
	name string
	dims []uint64
	data []float32
}

// byteToUnicode is GPT-2's reversible byte <-> printable rune mapping.
func byteToUnicode() [256]rune {
	var out [256]rune
	n := 0
	for b := 0; b < 256; b++ {
		if (b >= '!' && b <= '~') || (b >= 0xA1 && b <= 0xAC) || (b >= 0xAE && b <= 0xFF) {
			out[b] = rune(b)
		} else {
			out[b] = rune(256 + n)
			n++
		}
	}
	return out
}

// Model is the vocabulary and weights of a scripted model.
type Model struct {
	Tokens []string
	Types  []int32
	// Successor maps a token id to the token the model emits after it.
	Successor map[int]int
	EOS, BOS  int
}

// Build lays out the vocabulary and the bigram script.
func Build(s Script) (*Model, error) {
	m := &Model{Successor: map[int]int{}}
	for _, r := range byteToUnicode() {
		m.Tokens = append(m.Tokens, string(r))
		m.Types = append(m.Types, ttNormal)
	}
	add := func(text string, typ int32) int {
		m.Tokens = append(m.Tokens, text)
		m.Types = append(m.Types, typ)
		return len(m.Tokens) - 1
	}
	m.BOS = add(TokenBOS, ttControl)
	add(TokenIMStart, ttControl)
	m.EOS = add(TokenIMEnd, ttControl)
	call1, err := CallsText(s.Call1)
	if err != nil {
		return nil, err
	}
	call2, err := CallsText(s.Call2)
	if err != nil {
		return nil, err
	}
	answers := []struct{ marker, text string }{
		{MarkerCall1, call1}, {MarkerCall2, call2}, {MarkerAfter, s.AfterTool}, {MarkerText, s.Text},
	}
	seen := map[string]int{}
	for _, a := range answers {
		if a.text == "" {
			return nil, fmt.Errorf("tinygguf: the answer to %s is empty", a.marker)
		}
		mk := add(a.marker, ttControl)
		ans, ok := seen[a.text]
		if !ok {
			ans = add(a.text, ttUserDefined)
			seen[a.text] = ans
		}
		m.Successor[mk] = ans
		m.Successor[ans] = m.EOS
	}
	if len(m.Successor) >= nEmbd {
		return nil, fmt.Errorf("tinygguf: %d scripted tokens do not fit %d embedding dimensions", len(m.Successor), nEmbd)
	}
	return m, nil
}

// dims gives every scripted token its own embedding dimension (1, 2, ...);
// all other tokens share dimension 0.
func (m *Model) dims() map[int]int {
	d := map[int]int{}
	next := 1
	for id := range m.Tokens {
		if _, ok := m.Successor[id]; ok {
			d[id] = next
			next++
		}
	}
	return d
}

func (m *Model) tensors() []tensor {
	nVocab := len(m.Tokens)
	dim := m.dims()
	embd := make([]float32, nEmbd*nVocab)
	for id := 0; id < nVocab; id++ {
		embd[id*nEmbd+dim[id]] = 1
	}
	out := make([]float32, nEmbd*nVocab)
	out[m.EOS*nEmbd+0] = scriptedWeight // ordinary tokens end the turn
	for from, to := range m.Successor {
		out[to*nEmbd+dim[from]] = scriptedWeight
	}
	ones := func(n int) []float32 {
		v := make([]float32, n)
		for i := range v {
			v[i] = 1
		}
		return v
	}
	headDim := nEmbd / nHead
	kvDim := headDim * nHeadKV
	ts := []tensor{
		{"token_embd.weight", []uint64{nEmbd, uint64(nVocab)}, embd},
		{"output_norm.weight", []uint64{nEmbd}, ones(nEmbd)},
		{"output.weight", []uint64{nEmbd, uint64(nVocab)}, out},
	}
	for b := 0; b < nBlock; b++ {
		p := fmt.Sprintf("blk.%d.", b)
		ts = append(ts,
			tensor{p + "attn_norm.weight", []uint64{nEmbd}, ones(nEmbd)},
			tensor{p + "attn_q.weight", []uint64{nEmbd, nEmbd}, make([]float32, nEmbd*nEmbd)},
			tensor{p + "attn_k.weight", []uint64{nEmbd, uint64(kvDim)}, make([]float32, nEmbd*kvDim)},
			tensor{p + "attn_v.weight", []uint64{nEmbd, uint64(kvDim)}, make([]float32, nEmbd*kvDim)},
			tensor{p + "attn_output.weight", []uint64{nEmbd, nEmbd}, make([]float32, nEmbd*nEmbd)},
			tensor{p + "ffn_norm.weight", []uint64{nEmbd}, ones(nEmbd)},
			tensor{p + "ffn_gate.weight", []uint64{nEmbd, nFF}, make([]float32, nEmbd*nFF)},
			tensor{p + "ffn_up.weight", []uint64{nEmbd, nFF}, make([]float32, nEmbd*nFF)},
			tensor{p + "ffn_down.weight", []uint64{nFF, nEmbd}, make([]float32, nFF*nEmbd)},
		)
	}
	return ts
}

func (m *Model) metadata() []kv {
	return []kv{
		{"general.architecture", tString, "llama"},
		{"general.name", tString, "bfcl-tiny-scripted"},
		{"general.file_type", tUint32, uint32(0)}, // all F32
		{"general.alignment", tUint32, uint32(alignment)},
		{"llama.context_length", tUint32, uint32(nCtx)},
		{"llama.embedding_length", tUint32, uint32(nEmbd)},
		{"llama.block_count", tUint32, uint32(nBlock)},
		{"llama.feed_forward_length", tUint32, uint32(nFF)},
		{"llama.attention.head_count", tUint32, uint32(nHead)},
		{"llama.attention.head_count_kv", tUint32, uint32(nHeadKV)},
		{"llama.rope.dimension_count", tUint32, uint32(nEmbd / nHead)},
		{"llama.rope.freq_base", tFloat32, float32(10000)},
		{"llama.attention.layer_norm_rms_epsilon", tFloat32, float32(1e-5)},
		{"llama.vocab_size", tUint32, uint32(len(m.Tokens))},
		{"tokenizer.ggml.model", tString, "gpt2"},
		{"tokenizer.ggml.pre", tString, "default"},
		{"tokenizer.ggml.tokens", tArray, m.Tokens},
		{"tokenizer.ggml.token_type", tArray, m.Types},
		{"tokenizer.ggml.merges", tArray, []string{}},
		{"tokenizer.ggml.bos_token_id", tUint32, uint32(m.BOS)},
		{"tokenizer.ggml.eos_token_id", tUint32, uint32(m.EOS)},
		{"tokenizer.ggml.add_bos_token", tBool, false},
		{"tokenizer.ggml.add_eos_token", tBool, false},
	}
}

type writer struct {
	w   *bufio.Writer
	n   int64
	err error
}

func (w *writer) raw(b []byte) {
	if w.err != nil {
		return
	}
	k, err := w.w.Write(b)
	w.n += int64(k)
	w.err = err
}

func (w *writer) u32(v uint32) { w.raw(binary.LittleEndian.AppendUint32(nil, v)) }
func (w *writer) u64(v uint64) { w.raw(binary.LittleEndian.AppendUint64(nil, v)) }
func (w *writer) str(s string) { w.u64(uint64(len(s))); w.raw([]byte(s)) }

func (w *writer) pad() {
	if r := w.n % alignment; r != 0 {
		w.raw(make([]byte, alignment-r))
	}
}

func (w *writer) value(typ uint32, v any) error {
	switch typ {
	case tUint32:
		w.u32(v.(uint32))
	case tFloat32:
		w.u32(math.Float32bits(v.(float32)))
	case tBool:
		if v.(bool) {
			w.raw([]byte{1})
		} else {
			w.raw([]byte{0})
		}
	case tString:
		w.str(v.(string))
	case tArray:
		switch a := v.(type) {
		case []string:
			w.u32(tString)
			w.u64(uint64(len(a)))
			for _, s := range a {
				w.str(s)
			}
		case []int32:
			w.u32(tInt32)
			w.u64(uint64(len(a)))
			for _, x := range a {
				w.u32(uint32(x))
			}
		default:
			return fmt.Errorf("tinygguf: unsupported array %T", v)
		}
	default:
		return fmt.Errorf("tinygguf: unsupported value type %d", typ)
	}
	return nil
}

// Write writes the GGUF (version 3, all tensors F32) of script s.
func Write(out io.Writer, s Script) error {
	m, err := Build(s)
	if err != nil {
		return err
	}
	return m.Write(out)
}

// Write writes the model as GGUF.
func (m *Model) Write(out io.Writer) error {
	w := &writer{w: bufio.NewWriterSize(out, 1<<20)}
	meta := m.metadata()
	ts := m.tensors()
	w.raw([]byte("GGUF"))
	w.u32(3)
	w.u64(uint64(len(ts)))
	w.u64(uint64(len(meta)))
	for _, e := range meta {
		w.str(e.key)
		w.u32(e.typ)
		if err := w.value(e.typ, e.val); err != nil {
			return err
		}
	}
	var offset uint64
	for _, t := range ts {
		w.str(t.name)
		w.u32(uint32(len(t.dims)))
		for _, d := range t.dims {
			w.u64(d)
		}
		w.u32(0) // GGML_TYPE_F32
		w.u64(offset)
		size := uint64(len(t.data) * 4)
		offset += (size + alignment - 1) / alignment * alignment
	}
	w.pad()
	for _, t := range ts {
		buf := make([]byte, 4*len(t.data))
		for i, f := range t.data {
			binary.LittleEndian.PutUint32(buf[4*i:], math.Float32bits(f))
		}
		w.raw(buf)
		w.pad()
	}
	if w.err != nil {
		return fmt.Errorf("tinygguf: write: %w", w.err)
	}
	if err := w.w.Flush(); err != nil {
		return fmt.Errorf("tinygguf: write: %w", err)
	}
	return nil
}

// NextToken runs the model's decoding rule on the last prompt token: the
// arg-max of output.weight · rmsnorm(embedding). Tests use it to check the
// weights implement the script.
func (m *Model) NextToken(last int) int {
	nVocab := len(m.Tokens)
	ts := m.tensors()
	embd, out := ts[0].data, ts[2].data
	x := embd[last*nEmbd : (last+1)*nEmbd]
	var ss float64
	for _, v := range x {
		ss += float64(v) * float64(v)
	}
	scale := 1 / math.Sqrt(ss/nEmbd+1e-5)
	best, bestLogit := -1, math.Inf(-1)
	for j := 0; j < nVocab; j++ {
		var l float64
		for i := 0; i < nEmbd; i++ {
			l += float64(out[j*nEmbd+i]) * float64(x[i]) * scale
		}
		if l > bestLogit {
			best, bestLogit = j, l
		}
	}
	return best
}

// TokenID returns the id of a token text, or -1.
func (m *Model) TokenID(text string) int {
	for i, t := range m.Tokens {
		if t == text {
			return i
		}
	}
	return -1
}
