package minilm_test

// A generator of random BERT models in the Hugging Face layout, and an
// independent, naive float64 forward pass to check them against. Neither
// shares code with the package.

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"math/rand"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"unicode"
)

// bertSpec describes a random BERT to generate.
type bertSpec struct {
	Hidden, Layers, Heads, Inter, MaxPos, TypeVocab int
	Vocab                                           []string
	Seed                                            int64
	// Prefix is put before every tensor name ("bert." as BertForX
	// checkpoints have it, or "").
	Prefix string
	// DType gives a tensor's dtype by name (default F32). Weights stored
	// as F16 or BF16 are drawn so that the format holds them exactly.
	DType func(name string) string
	// Config overrides config.json entries (nil values delete them).
	Config map[string]any
	// MaxSeqLength goes to sentence_bert_config.json (0: no such file).
	MaxSeqLength int
	// Shape overrides a tensor's shape in the file (a wrong-shape model).
	Shape map[string][]int
}

// bertWeights are a generated model's tensors (float64 values, exactly
// those stored), by name without prefix.
type bertWeights struct {
	spec bertSpec
	t    map[string][]float64
}

// wordsVocab is a small vocabulary of our own: the special tokens first
// (so their ids differ from BERT's 0/100/101/102/103), ASCII punctuation,
// letters and digits with their "##" forms, then the given words.
func wordsVocab(words ...string) []string {
	v := []string{"[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"}
	seen := map[string]bool{}
	add := func(s string) {
		if !seen[s] {
			seen[s] = true
			v = append(v, s)
		}
	}
	for r := rune('!'); r <= '~'; r++ {
		if !unicode.IsLetter(r) || unicode.IsLower(r) {
			add(string(r))
		}
	}
	for _, r := range "abcdefghijklmnopqrstuvwxyz0123456789" {
		add("##" + string(r))
	}
	for _, w := range words {
		add(w)
	}
	return v
}

// textWords lists the lower-cased words and punctuation of texts (for a
// vocabulary that covers them).
func textWords(texts ...string) []string {
	var out []string
	for _, t := range texts {
		for _, w := range strings.FieldsFunc(strings.ToLower(t), func(r rune) bool {
			return unicode.IsSpace(r) || unicode.IsPunct(r)
		}) {
			out = append(out, w)
		}
	}
	return out
}

// writeRandomBERT writes config.json, model.safetensors, vocab.txt and
// (when asked) sentence_bert_config.json for spec into dir.
func writeRandomBERT(dir string, spec bertSpec) (*bertWeights, error) {
	rng := rand.New(rand.NewSource(spec.Seed))
	H, I := spec.Hidden, spec.Inter
	bw := &bertWeights{spec: spec, t: map[string][]float64{}}
	var names []string
	shapes := map[string][]int{}
	dtype := func(name string) string {
		if spec.DType == nil {
			return "F32"
		}
		return spec.DType(name)
	}
	draw := func(name string, shape []int, mean, std float64) {
		n := 1
		for _, d := range shape {
			n *= d
		}
		v := make([]float64, n)
		for i := range v {
			x := mean + std*rng.NormFloat64()
			switch dtype(name) {
			case "F16": // 11 significant bits, or a multiple of 2^-24 below 2^-14
				if math.Abs(x) < 1.0/(1<<14) {
					v[i] = math.Round(x*(1<<24)) / (1 << 24)
				} else {
					_, e := math.Frexp(x)
					q := math.Ldexp(1, e-11)
					v[i] = math.Round(x/q) * q
				}
			case "BF16": // 8 significant bits
				_, e := math.Frexp(x)
				q := math.Ldexp(1, e-8)
				v[i] = math.Round(x/q) * q
			default:
				v[i] = float64(float32(x))
			}
		}
		bw.t[name] = v
		names = append(names, name)
		shapes[name] = shape
	}
	ln := func(p string) {
		draw(p+".weight", []int{H}, 1, 0.1)
		draw(p+".bias", []int{H}, 0, 0.05)
	}
	dense := func(p string, out, in int, gain float64) {
		draw(p+".weight", []int{out, in}, 0, gain/math.Sqrt(float64(in)))
		draw(p+".bias", []int{out}, 0, 0.02)
	}
	draw("embeddings.word_embeddings.weight", []int{len(spec.Vocab), H}, 0, 0.02)
	draw("embeddings.position_embeddings.weight", []int{spec.MaxPos, H}, 0, 0.02)
	draw("embeddings.token_type_embeddings.weight", []int{spec.TypeVocab, H}, 0, 0.02)
	ln("embeddings.LayerNorm")
	for l := 0; l < spec.Layers; l++ {
		p := fmt.Sprintf("encoder.layer.%d.", l)
		dense(p+"attention.self.query", H, H, 1.2)
		dense(p+"attention.self.key", H, H, 1.2)
		dense(p+"attention.self.value", H, H, 0.8)
		dense(p+"attention.output.dense", H, H, 0.8)
		ln(p + "attention.output.LayerNorm")
		dense(p+"intermediate.dense", I, H, 1)
		dense(p+"output.dense", H, I, 1)
		ln(p + "output.LayerNorm")
	}
	dense("pooler.dense", H, H, 0.02) // unused by sentence-transformers

	// model.safetensors, plus an int64 buffer a reader must skip.
	header := map[string]any{"__metadata__": map[string]string{"format": "pt"}}
	var data []byte
	sort.Strings(names)
	for _, name := range names {
		shape := shapes[name]
		if s, ok := spec.Shape[name]; ok {
			shape = s
		}
		start := len(data)
		for _, x := range bw.t[name] {
			switch dtype(name) {
			case "F32":
				data = binary.LittleEndian.AppendUint32(data, math.Float32bits(float32(x)))
			case "F16":
				data = binary.LittleEndian.AppendUint16(data, exactHalf(x))
			case "BF16":
				data = binary.LittleEndian.AppendUint16(data, uint16(math.Float32bits(float32(x))>>16))
			case "I32":
				data = binary.LittleEndian.AppendUint32(data, uint32(int32(x)))
			}
		}
		header[spec.Prefix+name] = map[string]any{"dtype": dtype(name), "shape": shape, "data_offsets": []int{start, len(data)}}
	}
	start := len(data)
	for i := 0; i < spec.MaxPos; i++ {
		data = binary.LittleEndian.AppendUint64(data, uint64(i))
	}
	header[spec.Prefix+"embeddings.position_ids"] = map[string]any{"dtype": "I64", "shape": []int{1, spec.MaxPos}, "data_offsets": []int{start, len(data)}}
	hdr, err := json.Marshal(header)
	if err != nil {
		return nil, err
	}
	for len(hdr)%8 != 0 { // the format pads the header with spaces
		hdr = append(hdr, ' ')
	}
	file := binary.LittleEndian.AppendUint64(nil, uint64(len(hdr)))
	file = append(append(file, hdr...), data...)
	if err := os.WriteFile(filepath.Join(dir, "model.safetensors"), file, 0o644); err != nil {
		return nil, err
	}

	cfg := map[string]any{
		"architectures": []string{"BertModel"}, "model_type": "bert",
		"vocab_size": len(spec.Vocab), "hidden_size": H, "num_hidden_layers": spec.Layers,
		"num_attention_heads": spec.Heads, "intermediate_size": I, "hidden_act": "gelu",
		"max_position_embeddings": spec.MaxPos, "type_vocab_size": spec.TypeVocab,
		"layer_norm_eps": 1e-12, "position_embedding_type": "absolute", "pad_token_id": 0,
	}
	for k, v := range spec.Config {
		if v == nil {
			delete(cfg, k)
		} else {
			cfg[k] = v
		}
	}
	if err := writeJSON(filepath.Join(dir, "config.json"), cfg); err != nil {
		return nil, err
	}
	if spec.MaxSeqLength > 0 {
		if err := writeJSON(filepath.Join(dir, "sentence_bert_config.json"), map[string]any{"max_seq_length": spec.MaxSeqLength, "do_lower_case": false}); err != nil {
			return nil, err
		}
	}
	return bw, os.WriteFile(filepath.Join(dir, "vocab.txt"), []byte(strings.Join(spec.Vocab, "\n")+"\n"), 0o644)
}

// exactHalf encodes x, which the generator made representable, as IEEE
// binary16.
func exactHalf(x float64) uint16 {
	var sign uint16
	if math.Signbit(x) {
		sign = 0x8000
		x = -x
	}
	if x == 0 {
		return sign
	}
	frac, e := math.Frexp(x) // x = frac·2^e, frac in [0.5, 1)
	exp := e - 1 + 15
	if exp <= 0 { // subnormal: x = m·2^-24
		return sign | uint16(math.Round(x*(1<<24)))
	}
	return sign | uint16(exp)<<10 | uint16(math.Round((frac*2-1)*1024))
}

func writeJSON(path string, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, b, 0o644)
}

// referenceEmbed is the naive float64 forward pass of BertModel plus
// sentence-transformers' mean pooling and two L2 normalisations, written
// independently of the package: plain loops over [][]float64, math.Erf,
// no blocking, no fusion.
func (bw *bertWeights) referenceEmbed(ids []int) []float64 {
	sp := bw.spec
	H, NH := sp.Hidden, sp.Heads
	dh := H / NH
	mat := func(name string, rows, cols int) [][]float64 {
		flat := bw.t[name]
		m := make([][]float64, rows)
		for r := range m {
			m[r] = flat[r*cols : (r+1)*cols]
		}
		return m
	}
	vec := func(name string) []float64 { return bw.t[name] }
	layerNorm := func(x []float64, p string) []float64 {
		mean, v := 0.0, 0.0
		for _, a := range x {
			mean += a
		}
		mean /= float64(len(x))
		for _, a := range x {
			v += (a - mean) * (a - mean)
		}
		v /= float64(len(x))
		g, b := vec(p+".weight"), vec(p+".bias")
		out := make([]float64, len(x))
		for j := range x {
			out[j] = (x[j]-mean)/math.Sqrt(v+1e-12)*g[j] + b[j]
		}
		return out
	}
	dense := func(x [][]float64, p string, out int) [][]float64 {
		in := len(x[0])
		w, b := mat(p+".weight", out, in), vec(p+".bias")
		y := make([][]float64, len(x))
		for s := range x {
			y[s] = make([]float64, out)
			for o := 0; o < out; o++ {
				acc := b[o]
				for i := 0; i < in; i++ {
					acc += x[s][i] * w[o][i]
				}
				y[s][o] = acc
			}
		}
		return y
	}
	S := len(ids)
	word := mat("embeddings.word_embeddings.weight", len(sp.Vocab), H)
	pos := mat("embeddings.position_embeddings.weight", sp.MaxPos, H)
	typ := mat("embeddings.token_type_embeddings.weight", sp.TypeVocab, H)
	x := make([][]float64, S)
	for s, id := range ids {
		e := make([]float64, H)
		for j := range e {
			e[j] = word[id][j] + pos[s][j] + typ[0][j]
		}
		x[s] = layerNorm(e, "embeddings.LayerNorm")
	}
	for l := 0; l < sp.Layers; l++ {
		p := fmt.Sprintf("encoder.layer.%d.", l)
		q := dense(x, p+"attention.self.query", H)
		k := dense(x, p+"attention.self.key", H)
		v := dense(x, p+"attention.self.value", H)
		ctx := make([][]float64, S)
		for i := range ctx {
			ctx[i] = make([]float64, H)
		}
		for h := 0; h < NH; h++ {
			for i := 0; i < S; i++ {
				sc := make([]float64, S)
				mx := math.Inf(-1)
				for j := 0; j < S; j++ {
					for d := 0; d < dh; d++ {
						sc[j] += q[i][h*dh+d] * k[j][h*dh+d]
					}
					sc[j] /= math.Sqrt(float64(dh))
					mx = math.Max(mx, sc[j])
				}
				z := 0.0
				for j := range sc {
					sc[j] = math.Exp(sc[j] - mx)
					z += sc[j]
				}
				for j := 0; j < S; j++ {
					for d := 0; d < dh; d++ {
						ctx[i][h*dh+d] += sc[j] / z * v[j][h*dh+d]
					}
				}
			}
		}
		a := dense(ctx, p+"attention.output.dense", H)
		for s := range x {
			for j := range a[s] {
				a[s][j] += x[s][j]
			}
			x[s] = layerNorm(a[s], p+"attention.output.LayerNorm")
		}
		inter := dense(x, p+"intermediate.dense", sp.Inter)
		for s := range inter {
			for j, u := range inter[s] {
				inter[s][j] = u * 0.5 * (1 + math.Erf(u/math.Sqrt2))
			}
		}
		o := dense(inter, p+"output.dense", H)
		for s := range x {
			for j := range o[s] {
				o[s][j] += x[s][j]
			}
			x[s] = layerNorm(o[s], p+"output.LayerNorm")
		}
	}
	e := make([]float64, H)
	for s := range x {
		for j := range e {
			e[j] += x[s][j] / float64(S)
		}
	}
	for n := 0; n < 2; n++ {
		norm := 0.0
		for _, a := range e {
			norm += a * a
		}
		norm = math.Max(math.Sqrt(norm), 1e-12)
		for j := range e {
			e[j] /= norm
		}
	}
	return e
}
