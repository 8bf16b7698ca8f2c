package minilm

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"runtime"
	"sync"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas32"
)

// Config is the part of a Hugging Face BERT config.json the forward pass
// needs. Every dimension comes from here; none is hard-coded.
type Config struct {
	ModelType             string  `json:"model_type"`
	VocabSize             int     `json:"vocab_size"`
	HiddenSize            int     `json:"hidden_size"`
	NumHiddenLayers       int     `json:"num_hidden_layers"`
	NumAttentionHeads     int     `json:"num_attention_heads"`
	IntermediateSize      int     `json:"intermediate_size"`
	MaxPositionEmbeddings int     `json:"max_position_embeddings"`
	TypeVocabSize         int     `json:"type_vocab_size"`
	LayerNormEps          float64 `json:"layer_norm_eps"`
	HiddenAct             string  `json:"hidden_act"`
	PositionEmbeddingType string  `json:"position_embedding_type"`
}

// ReadConfig reads and checks a config.json. Missing max_position_embeddings,
// type_vocab_size and layer_norm_eps take transformers' BertConfig defaults
// (512, 2, 1e-12).
func ReadConfig(path string) (Config, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return Config{}, err
	}
	c := Config{MaxPositionEmbeddings: 512, TypeVocabSize: 2, LayerNormEps: 1e-12, HiddenAct: "gelu"}
	if err := json.Unmarshal(data, &c); err != nil {
		return Config{}, fmt.Errorf("%s: %w", path, err)
	}
	if err := c.Check(); err != nil {
		return Config{}, fmt.Errorf("%s: %w", path, err)
	}
	return c, nil
}

// Check reports a configuration this forward pass does not compute
// exactly as transformers' BertModel would.
func (c Config) Check() error {
	switch {
	case c.ModelType != "" && c.ModelType != "bert":
		return fmt.Errorf("model_type %q is not supported (want bert)", c.ModelType)
	case c.HiddenAct != "gelu":
		return fmt.Errorf("hidden_act %q is not supported (want gelu, the exact erf form)", c.HiddenAct)
	case c.PositionEmbeddingType != "" && c.PositionEmbeddingType != "absolute":
		return fmt.Errorf("position_embedding_type %q is not supported (want absolute)", c.PositionEmbeddingType)
	case c.VocabSize <= 0 || c.HiddenSize <= 0 || c.NumHiddenLayers <= 0 || c.NumAttentionHeads <= 0 ||
		c.IntermediateSize <= 0 || c.MaxPositionEmbeddings <= 0 || c.TypeVocabSize <= 0:
		return fmt.Errorf("vocab_size, hidden_size, num_hidden_layers, num_attention_heads, intermediate_size, max_position_embeddings and type_vocab_size must be positive")
	case c.HiddenSize%c.NumAttentionHeads != 0:
		return fmt.Errorf("hidden_size %d is not a multiple of num_attention_heads %d", c.HiddenSize, c.NumAttentionHeads)
	case !(c.LayerNormEps > 0):
		return fmt.Errorf("layer_norm_eps %g must be positive", c.LayerNormEps)
	}
	return nil
}

// linear is a PyTorch nn.Linear: y = x·Wᵀ + b with W stored [out][in].
type linear struct {
	w       []float32
	b       []float32
	in, out int
}

type layer struct {
	qkv        linear // query, key and value fused: [3H][H]
	attnOut    linear
	ln1w, ln1b []float32
	inter      linear
	out        linear
	ln2w, ln2b []float32
}

// Model is a BERT encoder with sentence-transformers' mean pooling and L2
// normalisation, and its tokenizer. It is immutable after Load and safe for
// concurrent use.
type Model struct {
	Config    Config
	Tokenizer *Tokenizer
	// Dir is the folder the model was loaded from.
	Dir string

	word, pos, typ []float32
	embLNw, embLNb []float32
	layers         []layer
	sha256         string
}

// SHA256 is the hex SHA-256 of the model.safetensors the weights came from.
func (m *Model) SHA256() string { return m.sha256 }

// Dim is the embedding dimension (hidden_size).
func (m *Model) Dim() int { return m.Config.HiddenSize }

// weightsFrom reads every tensor the forward pass needs from st, checking
// names, shapes and dtypes against c. Other tensors (pooler.*, buffers)
// are ignored.
func weightsFrom(st *SafeTensors, c Config) (*Model, error) {
	H, I := c.HiddenSize, c.IntermediateSize
	m := &Model{Config: c, sha256: st.SHA256()}
	var err error
	get := func(name string, shape ...int) []float32 {
		if err != nil {
			return nil
		}
		var v []float32
		v, err = st.Float32s(name, shape...)
		return v
	}
	lin := func(prefix string, out, in int) linear {
		return linear{w: get(prefix+".weight", out, in), b: get(prefix+".bias", out), in: in, out: out}
	}
	m.word = get("embeddings.word_embeddings.weight", c.VocabSize, H)
	m.pos = get("embeddings.position_embeddings.weight", c.MaxPositionEmbeddings, H)
	m.typ = get("embeddings.token_type_embeddings.weight", c.TypeVocabSize, H)
	m.embLNw = get("embeddings.LayerNorm.weight", H)
	m.embLNb = get("embeddings.LayerNorm.bias", H)
	for l := 0; l < c.NumHiddenLayers; l++ {
		p := fmt.Sprintf("encoder.layer.%d.", l)
		q := lin(p+"attention.self.query", H, H)
		k := lin(p+"attention.self.key", H, H)
		v := lin(p+"attention.self.value", H, H)
		ly := layer{
			attnOut: lin(p+"attention.output.dense", H, H),
			ln1w:    get(p+"attention.output.LayerNorm.weight", H),
			ln1b:    get(p+"attention.output.LayerNorm.bias", H),
			inter:   lin(p+"intermediate.dense", I, H),
			out:     lin(p+"output.dense", H, I),
			ln2w:    get(p+"output.LayerNorm.weight", H),
			ln2b:    get(p+"output.LayerNorm.bias", H),
		}
		if err != nil {
			return nil, err
		}
		ly.qkv = linear{
			w:   append(append(append(make([]float32, 0, 3*H*H), q.w...), k.w...), v.w...),
			b:   append(append(append(make([]float32, 0, 3*H), q.b...), k.b...), v.b...),
			in:  H,
			out: 3 * H,
		}
		m.layers = append(m.layers, ly)
	}
	if err != nil {
		return nil, err
	}
	return m, nil
}

// CheckTensors checks (from the header alone) that a safetensors file has
// every tensor c needs, with the right shape and a float dtype.
func CheckTensors(path string, c Config) error {
	tensors, err := ReadSafeTensorsHeader(path)
	if err != nil {
		return err
	}
	for _, nt := range c.tensorShapes() {
		if _, _, err := checkTensor(path, tensors, nt.name, nt.shape...); err != nil {
			return err
		}
	}
	return nil
}

type namedShape struct {
	name  string
	shape []int
}

func (c Config) tensorShapes() []namedShape {
	H, I := c.HiddenSize, c.IntermediateSize
	out := []namedShape{
		{"embeddings.word_embeddings.weight", []int{c.VocabSize, H}},
		{"embeddings.position_embeddings.weight", []int{c.MaxPositionEmbeddings, H}},
		{"embeddings.token_type_embeddings.weight", []int{c.TypeVocabSize, H}},
		{"embeddings.LayerNorm.weight", []int{H}},
		{"embeddings.LayerNorm.bias", []int{H}},
	}
	for l := 0; l < c.NumHiddenLayers; l++ {
		p := fmt.Sprintf("encoder.layer.%d.", l)
		for _, s := range []string{"attention.self.query", "attention.self.key", "attention.self.value", "attention.output.dense"} {
			out = append(out, namedShape{p + s + ".weight", []int{H, H}}, namedShape{p + s + ".bias", []int{H}})
		}
		out = append(out,
			namedShape{p + "attention.output.LayerNorm.weight", []int{H}},
			namedShape{p + "attention.output.LayerNorm.bias", []int{H}},
			namedShape{p + "intermediate.dense.weight", []int{I, H}},
			namedShape{p + "intermediate.dense.bias", []int{I}},
			namedShape{p + "output.dense.weight", []int{H, I}},
			namedShape{p + "output.dense.bias", []int{H}},
			namedShape{p + "output.LayerNorm.weight", []int{H}},
			namedShape{p + "output.LayerNorm.bias", []int{H}},
		)
	}
	return out
}

// gemmChunk is the widest block of output columns handed to one
// blas32.Gemm call. Below 256 rows and 256 columns gonum's Sgemm runs
// serially, so the only goroutines are this package's own.
const gemmChunk = 128

// apply computes y[s] = x[s]·Wᵀ + b for the S rows of x (row-major,
// contiguous), splitting the output columns among par goroutines.
func (l *linear) apply(y, x []float32, S, par int) {
	chunks := (l.out + gemmChunk - 1) / gemmChunk
	do := func(c int) {
		lo := c * gemmChunk
		hi := min(lo+gemmChunk, l.out)
		for s := 0; s < S; s++ {
			copy(y[s*l.out+lo:s*l.out+hi], l.b[lo:hi])
		}
		// y = 1·x·Wᵀ + 1·y: each dot product is summed, then added to the
		// bias, as torch's addmm does.
		blas32.Gemm(blas.NoTrans, blas.Trans, 1,
			blas32.General{Rows: S, Cols: l.in, Stride: l.in, Data: x[:S*l.in]},
			blas32.General{Rows: hi - lo, Cols: l.in, Stride: l.in, Data: l.w[lo*l.in : hi*l.in]},
			1, blas32.General{Rows: S, Cols: hi - lo, Stride: l.out, Data: y[lo : (S-1)*l.out+hi]})
	}
	parallel(chunks, par, do)
}

// parallel runs do(0..n-1) on up to par goroutines (the caller's included).
func parallel(n, par int, do func(int)) {
	if par > n {
		par = n
	}
	if par <= 1 {
		for i := 0; i < n; i++ {
			do(i)
		}
		return
	}
	var wg sync.WaitGroup
	var mu sync.Mutex
	next := 0
	take := func() int {
		mu.Lock()
		defer mu.Unlock()
		i := next
		next++
		return i
	}
	work := func() {
		for i := take(); i < n; i = take() {
			do(i)
		}
	}
	for g := 1; g < par; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			work()
		}()
	}
	work()
	wg.Wait()
}

// workspace holds one forward pass's buffers.
type workspace struct {
	x, qkv, ctx, tmp, inter, scores []float32
}

var workspaces = sync.Pool{New: func() any { return new(workspace) }}

func grow(b []float32, n int) []float32 {
	if cap(b) < n {
		return make([]float32, n)
	}
	return b[:n]
}

// Trace receives the intermediate values of a forward pass (for debugging
// and tests); nil fields are not filled.
type Trace struct {
	// EmbeddingsLN is LayerNorm(word + position + token_type), [S][H].
	EmbeddingsLN [][]float32
	// Layer0AttentionProbs is layer 0's softmax, [head][query][key].
	Layer0AttentionProbs [][][]float32
	// AttentionLN and Output are each layer's two LayerNorm outputs,
	// [layer][S][H].
	AttentionLN, Output [][][]float32
	// MeanPooled is the mean over tokens before normalisation.
	MeanPooled []float32
}

// EmbedIDs runs the encoder on one sequence of token ids (with [CLS] and
// [SEP]; batch of one, so no padding) and returns the mean-pooled, twice
// L2-normalised embedding. par bounds the goroutines of the matrix
// products (<= 0: GOMAXPROCS).
func (m *Model) EmbedIDs(ids []int, par int) ([]float32, error) {
	return m.forward(ids, par, nil)
}

// EmbedIDsTrace is EmbedIDs recording the intermediate values in tr.
func (m *Model) EmbedIDsTrace(ids []int, tr *Trace) ([]float32, error) {
	return m.forward(ids, 1, tr)
}

func (m *Model) forward(ids []int, par int, tr *Trace) ([]float32, error) {
	c := m.Config
	H, NH, I := c.HiddenSize, c.NumAttentionHeads, c.IntermediateSize
	S := len(ids)
	if S == 0 {
		return nil, fmt.Errorf("no token ids")
	}
	if S > c.MaxPositionEmbeddings {
		return nil, fmt.Errorf("%d tokens exceed max_position_embeddings %d", S, c.MaxPositionEmbeddings)
	}
	for _, id := range ids {
		if id < 0 || id >= c.VocabSize {
			return nil, fmt.Errorf("token id %d outside the vocabulary (%d)", id, c.VocabSize)
		}
	}
	if par <= 0 {
		par = runtime.GOMAXPROCS(0)
	}
	ws := workspaces.Get().(*workspace)
	defer workspaces.Put(ws)
	x := grow(ws.x, S*H)
	qkv := grow(ws.qkv, S*3*H)
	ctx := grow(ws.ctx, S*H)
	tmp := grow(ws.tmp, S*H)
	inter := grow(ws.inter, S*I)
	scores := grow(ws.scores, S*S)
	ws.x, ws.qkv, ws.ctx, ws.tmp, ws.inter, ws.scores = x, qkv, ctx, tmp, inter, scores
	eps := c.LayerNormEps

	// Embeddings: (word + token_type[0]) + position, as BertEmbeddings adds
	// them, then LayerNorm.
	for s, id := range ids {
		row := x[s*H : s*H+H]
		w := m.word[id*H : id*H+H]
		p := m.pos[s*H : s*H+H]
		t := m.typ[:H]
		for j := range row {
			row[j] = (w[j] + t[j]) + p[j]
		}
		layerNorm(row, row, m.embLNw, m.embLNb, eps)
	}
	if tr != nil {
		tr.EmbeddingsLN = rows(x, S, H)
	}

	dh := H / NH
	scale := float32(math.Sqrt(float64(dh)))
	for l := range m.layers {
		ly := &m.layers[l]
		ly.qkv.apply(qkv, x, S, par)
		var probs [][][]float32
		for h := 0; h < NH; h++ {
			q := blas32.General{Rows: S, Cols: dh, Stride: 3 * H, Data: qkv[h*dh:]}
			k := blas32.General{Rows: S, Cols: dh, Stride: 3 * H, Data: qkv[H+h*dh:]}
			v := blas32.General{Rows: S, Cols: dh, Stride: 3 * H, Data: qkv[2*H+h*dh:]}
			sc := blas32.General{Rows: S, Cols: S, Stride: S, Data: scores}
			blas32.Gemm(blas.NoTrans, blas.Trans, 1, q, k, 0, sc)
			for i := 0; i < S; i++ {
				softmaxScaled(scores[i*S:i*S+S], scale)
			}
			if tr != nil && l == 0 {
				probs = append(probs, rows(scores, S, S))
			}
			out := blas32.General{Rows: S, Cols: dh, Stride: H, Data: ctx[h*dh:]}
			blas32.Gemm(blas.NoTrans, blas.NoTrans, 1, sc, v, 0, out)
		}
		if tr != nil && l == 0 {
			tr.Layer0AttentionProbs = probs
		}
		ly.attnOut.apply(tmp, ctx, S, par)
		addNorm(x, tmp, ly.ln1w, ly.ln1b, S, H, eps)
		if tr != nil {
			tr.AttentionLN = append(tr.AttentionLN, rows(x, S, H))
		}
		ly.inter.apply(inter, x, S, par)
		parallel(S, par, func(s int) { gelu(inter[s*I : s*I+I]) })
		ly.out.apply(tmp, inter, S, par)
		addNorm(x, tmp, ly.ln2w, ly.ln2b, S, H, eps)
		if tr != nil {
			tr.Output = append(tr.Output, rows(x, S, H))
		}
	}

	// sentence-transformers Pooling(mean): every token has attention mask 1
	// (a batch of one), [CLS] and [SEP] included.
	emb := make([]float32, H)
	sum := make([]float64, H)
	for s := 0; s < S; s++ {
		for j, v := range x[s*H : s*H+H] {
			sum[j] += float64(v)
		}
	}
	for j := range emb {
		emb[j] = float32(sum[j] / float64(S))
	}
	if tr != nil {
		tr.MeanPooled = append([]float32(nil), emb...)
	}
	// The model's Normalize module, then encode(normalize_embeddings=True).
	l2Normalize(emb)
	l2Normalize(emb)
	return emb, nil
}

func rows(a []float32, r, c int) [][]float32 {
	out := make([][]float32, r)
	for i := range out {
		out[i] = append([]float32(nil), a[i*c:i*c+c]...)
	}
	return out
}

// addNorm is BERT's residual step on S rows of width H: x = LayerNorm(x +
// tmp) with weight w and bias b (tmp is overwritten with the sum).
func addNorm(x, tmp, w, b []float32, S, H int, eps float64) {
	for s := 0; s < S; s++ {
		row := x[s*H : s*H+H]
		t := tmp[s*H : s*H+H]
		for j := range row {
			t[j] += row[j]
		}
		layerNorm(row, t, w, b, eps)
	}
}

// layerNorm writes LayerNorm(in) (biased variance, eps inside the square
// root) to out; statistics in float64.
func layerNorm(out, in, w, b []float32, eps float64) {
	var mean float64
	for _, v := range in {
		mean += float64(v)
	}
	mean /= float64(len(in))
	var varsum float64
	for _, v := range in {
		d := float64(v) - mean
		varsum += d * d
	}
	rstd := 1 / math.Sqrt(varsum/float64(len(in))+eps)
	w = w[:len(in)]
	b = b[:len(in)]
	out = out[:len(in)]
	for j, v := range in {
		out[j] = float32((float64(v)-mean)*rstd*float64(w[j]) + float64(b[j]))
	}
}

// softmaxScaled replaces row by softmax(row / scale).
func softmaxScaled(row []float32, scale float32) {
	mx := float32(math.Inf(-1))
	for j := range row {
		row[j] /= scale
		if row[j] > mx {
			mx = row[j]
		}
	}
	var sum float64
	for j, v := range row {
		e := math.Exp(float64(v - mx))
		row[j] = float32(e)
		sum += e
	}
	inv := 1 / sum
	for j, v := range row {
		row[j] = float32(float64(v) * inv)
	}
}

// gelu applies transformers' "gelu": x·Φ(x) = x/2·(1 + erf(x/√2)), the exact
// form (not the tanh approximation).
func gelu(a []float32) {
	for j, v := range a {
		x := float64(v)
		a[j] = float32(0.5 * x * (1 + math.Erf(x/math.Sqrt2)))
	}
}

// l2Normalize is torch.nn.functional.normalize(p=2): v / max(‖v‖, 1e-12).
func l2Normalize(v []float32) {
	var ss float64
	for _, x := range v {
		ss += float64(x) * float64(x)
	}
	n := float32(math.Sqrt(ss))
	if n < 1e-12 {
		n = 1e-12
	}
	for i := range v {
		v[i] /= n
	}
}
