package minilm

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// Tokenizer is the WordPiece tokenizer of a BERT model, with the semantics
// of Hugging Face's BertTokenizerFast (the Rust "tokenizers" pipeline that
// sentence-transformers runs):
//
//  1. Python str.strip() (sentence-transformers strips every text first);
//  2. the special tokens [PAD] [UNK] [CLS] [SEP] [MASK] are split out of
//     the raw text (exact, case-sensitive, leftmost-longest, anywhere);
//  3. every other piece is normalised like BertNormalizer: clean_text
//     (drop NUL, U+FFFD and Cc/Cf/Co except \t \n \r; White_Space becomes
//     a space), spaces around CJK ideographs, NFD with every Mn dropped,
//     per-rune lower case;
//  4. BertPreTokenizer: split on White_Space, isolate punctuation (ASCII
//     punctuation or Unicode P*);
//  5. WordPiece: greedy longest match with "##" continuations; a word with
//     any unmatched part, or longer than MaxInputCharsPerWord runes, is one
//     [UNK];
//  6. [CLS] + the first MaxLen-2 pieces + [SEP].
//
// A Tokenizer is immutable and safe for concurrent use.
type Tokenizer struct {
	vocab map[string]int
	// MaxLen is the longest sequence Encode returns, [CLS] and [SEP]
	// included (sentence-transformers' max_seq_length, 256 for
	// all-MiniLM-L6-v2).
	MaxLen int
	// MaxInputCharsPerWord: longer words become [UNK] (100).
	MaxInputCharsPerWord int
	prefix               string // continuing-subword prefix, "##"
	unk, cls, sep        int
	specials             []specialToken
}

type specialToken struct {
	text string
	id   int
}

// The special tokens of BERT's uncased vocabulary. tokenizer.json's
// added_tokens overrides their ids when present.
var bertSpecials = []string{"[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"}

// DefaultMaxSeqLength is all-MiniLM-L6-v2's max_seq_length
// (sentence_bert_config.json), used when the model folder does not say.
const DefaultMaxSeqLength = 256

// ReadVocabTxt reads a vocab.txt: line n (from 1) is the token of id n-1.
func ReadVocabTxt(path string) (map[string]int, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	vocab := make(map[string]int, 32768)
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 1024), 1<<20)
	id := 0
	for sc.Scan() {
		// bufio.ScanLines drops "\n" and a "\r" before it, as the Python
		// and Rust readers do.
		vocab[sc.Text()] = id
		id++
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("reading %s: %w", path, err)
	}
	if id == 0 {
		return nil, fmt.Errorf("%s is empty", path)
	}
	return vocab, nil
}

// tokenizerJSON is the part of a Hugging Face tokenizer.json this package
// reads. Its truncation and padding blocks are deliberately not read:
// sentence-transformers overrides them (truncation at max_seq_length,
// padding only to the longest text of a batch, which never changes a
// vector).
type tokenizerJSON struct {
	AddedTokens []struct {
		ID      int    `json:"id"`
		Content string `json:"content"`
		Special bool   `json:"special"`
	} `json:"added_tokens"`
	Normalizer *struct {
		Type               string `json:"type"`
		CleanText          *bool  `json:"clean_text"`
		HandleChineseChars *bool  `json:"handle_chinese_chars"`
		StripAccents       *bool  `json:"strip_accents"`
		Lowercase          *bool  `json:"lowercase"`
	} `json:"normalizer"`
	PreTokenizer *struct {
		Type string `json:"type"`
	} `json:"pre_tokenizer"`
	Model struct {
		Type                    string         `json:"type"`
		UnkToken                string         `json:"unk_token"`
		ContinuingSubwordPrefix string         `json:"continuing_subword_prefix"`
		MaxInputCharsPerWord    int            `json:"max_input_chars_per_word"`
		Vocab                   map[string]int `json:"vocab"`
	} `json:"model"`
}

// ReadTokenizerJSON reads a Hugging Face tokenizer.json of a BERT
// WordPiece tokenizer (BertNormalizer with clean_text, CJK spacing, lower
// case and accent stripping; BertPreTokenizer). Other configurations are
// refused rather than tokenised differently from upstream.
func ReadTokenizerJSON(path string, maxLen int) (*Tokenizer, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var tj tokenizerJSON
	if err := json.Unmarshal(data, &tj); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if tj.Model.Type != "WordPiece" || len(tj.Model.Vocab) == 0 {
		return nil, fmt.Errorf("%s: model is %q with %d vocabulary entries, want a WordPiece vocabulary", path, tj.Model.Type, len(tj.Model.Vocab))
	}
	if n := tj.Normalizer; n == nil || n.Type != "BertNormalizer" ||
		!isTrue(n.CleanText, true) || !isTrue(n.HandleChineseChars, true) ||
		!isTrue(n.Lowercase, true) || !isTrue(n.StripAccents, isTrue(n.Lowercase, true)) {
		return nil, fmt.Errorf("%s: unsupported normalizer (want BertNormalizer with clean_text, handle_chinese_chars, lowercase and accent stripping, as all-MiniLM-L6-v2 has)", path)
	}
	if tj.PreTokenizer == nil || tj.PreTokenizer.Type != "BertPreTokenizer" {
		return nil, fmt.Errorf("%s: unsupported pre_tokenizer (want BertPreTokenizer)", path)
	}
	t, err := newTokenizer(tj.Model.Vocab, maxLen)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if p := tj.Model.ContinuingSubwordPrefix; p != "" {
		t.prefix = p
	}
	if n := tj.Model.MaxInputCharsPerWord; n > 0 {
		t.MaxInputCharsPerWord = n
	}
	if u := tj.Model.UnkToken; u != "" {
		id, ok := t.vocab[u]
		if !ok {
			return nil, fmt.Errorf("%s: unk_token %q is not in the vocabulary", path, u)
		}
		t.unk = id
	}
	// The added special tokens are matched in the raw text. Their ids come
	// from added_tokens (equal to the vocabulary's for BERT).
	if len(tj.AddedTokens) > 0 {
		t.specials = t.specials[:0]
		for _, a := range tj.AddedTokens {
			if a.Content != "" {
				t.specials = append(t.specials, specialToken{a.Content, a.ID})
			}
		}
	}
	return t, nil
}

func isTrue(b *bool, def bool) bool {
	if b == nil {
		return def
	}
	return *b
}

// NewTokenizer makes a tokenizer from a vocabulary (token → id) with BERT's
// special tokens, which must all be in it. maxLen <= 0 means
// DefaultMaxSeqLength.
func NewTokenizer(vocab map[string]int, maxLen int) (*Tokenizer, error) {
	return newTokenizer(vocab, maxLen)
}

func newTokenizer(vocab map[string]int, maxLen int) (*Tokenizer, error) {
	if maxLen <= 0 {
		maxLen = DefaultMaxSeqLength
	}
	if maxLen < 2 {
		return nil, fmt.Errorf("max sequence length %d leaves no room for [CLS] and [SEP]", maxLen)
	}
	t := &Tokenizer{vocab: vocab, MaxLen: maxLen, MaxInputCharsPerWord: 100, prefix: "##"}
	for _, s := range bertSpecials {
		id, ok := vocab[s]
		if !ok {
			return nil, fmt.Errorf("the vocabulary has no %s token", s)
		}
		t.specials = append(t.specials, specialToken{s, id})
		switch s {
		case "[UNK]":
			t.unk = id
		case "[CLS]":
			t.cls = id
		case "[SEP]":
			t.sep = id
		}
	}
	return t, nil
}

// VocabSize is the number of vocabulary entries.
func (t *Tokenizer) VocabSize() int { return len(t.vocab) }

// Encode returns the ids of text: [CLS], its pieces (truncated so that the
// whole is at most MaxLen), [SEP].
func (t *Tokenizer) Encode(text string) []int {
	ids := make([]int, 0, 32)
	ids = append(ids, t.cls)
	ids = t.appendPieces(ids, text, t.MaxLen-1)
	return append(ids, t.sep)
}

// EncodeUntruncated is Encode without the length limit.
func (t *Tokenizer) EncodeUntruncated(text string) []int {
	ids := []int{t.cls}
	ids = t.appendPieces(ids, text, -1)
	return append(ids, t.sep)
}

// appendPieces appends the ids of text's pieces to ids while len(ids) <
// limit (no limit if limit < 0).
func (t *Tokenizer) appendPieces(ids []int, text string, limit int) []int {
	text = pyStrip(text)
	full := func() bool { return limit >= 0 && len(ids) >= limit }
	for len(text) > 0 && !full() {
		pos, sp := t.nextSpecial(text)
		plain := text
		if pos >= 0 {
			plain = text[:pos]
		}
		if plain != "" {
			for _, word := range preTokenize(normalize(plain)) {
				if full() {
					return ids
				}
				ids = t.appendWordPiece(ids, word, limit)
			}
		}
		if pos < 0 {
			break
		}
		if full() {
			return ids
		}
		ids = append(ids, sp.id)
		text = text[pos+len(sp.text):]
	}
	return ids
}

// nextSpecial finds the leftmost special token in s (the longest of those
// starting there): its byte offset, or -1.
func (t *Tokenizer) nextSpecial(s string) (int, specialToken) {
	best, bestTok := -1, specialToken{}
	for _, sp := range t.specials {
		i := strings.Index(s, sp.text)
		if i < 0 {
			continue
		}
		if best < 0 || i < best || (i == best && len(sp.text) > len(bestTok.text)) {
			best, bestTok = i, sp
		}
	}
	return best, bestTok
}

// appendWordPiece appends the WordPiece ids of one pre-tokenised word.
func (t *Tokenizer) appendWordPiece(ids []int, word string, limit int) []int {
	if utf8.RuneCountInString(word) > t.MaxInputCharsPerWord {
		return append(ids, t.unk)
	}
	start := len(ids)
	var buf []byte
	for rest, first := word, true; rest != ""; first = false {
		found := false
		// Longest prefix of rest (on rune boundaries) in the vocabulary.
		for end := len(rest); end > 0; {
			var id int
			var ok bool
			if first {
				id, ok = t.vocab[rest[:end]]
			} else {
				buf = append(append(buf[:0], t.prefix...), rest[:end]...)
				id, ok = t.vocab[string(buf)] // no allocation for a map index
			}
			if ok {
				ids = append(ids, id)
				rest = rest[end:]
				found = true
				break
			}
			_, size := utf8.DecodeLastRuneInString(rest[:end])
			end -= size
		}
		if !found {
			return append(ids[:start], t.unk)
		}
	}
	if limit >= 0 && len(ids) > limit {
		ids = ids[:limit]
	}
	return ids
}

// Tokens returns the vocabulary strings of ids (for debugging output).
func (t *Tokenizer) Tokens(ids []int) []string {
	inv := make(map[int]string, len(ids))
	for _, id := range ids {
		inv[id] = ""
	}
	for tok, id := range t.vocab {
		if _, ok := inv[id]; ok {
			inv[id] = tok
		}
	}
	for _, sp := range t.specials {
		inv[sp.id] = sp.text
	}
	out := make([]string, len(ids))
	for i, id := range ids {
		out[i] = inv[id]
	}
	return out
}

// pyStrip is Python's str.strip(): it removes leading and trailing
// characters for which str.isspace() is true.
func pyStrip(s string) string {
	return strings.TrimFunc(s, pyIsSpace)
}

// pyIsSpace is Python 3's str.isspace() for one character: bidirectional
// class WS, B or S, or general category Zs.
func pyIsSpace(r rune) bool {
	switch r {
	case '\t', '\n', '\v', '\f', '\r', 0x1c, 0x1d, 0x1e, 0x1f, ' ', 0x85, 0xa0,
		0x1680, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000:
		return true
	}
	return r >= 0x2000 && r <= 0x200a
}

// isControl is clean_text's removal test: Cc, Cf or Co except \t \n \r
// (NUL and U+FFFD are removed too).
func isControl(r rune) bool {
	switch r {
	case '\t', '\n', '\r':
		return false
	case 0, 0xfffd:
		return true
	}
	return unicode.In(r, unicode.Cc, unicode.Cf, unicode.Co)
}

// isWhitespace is Rust's char::is_whitespace (the White_Space property).
func isWhitespace(r rune) bool {
	return unicode.Is(unicode.White_Space, r)
}

// isCJK is the CJK test of HF tokenizers' BertNormalizer (code points; the
// Extension E range starts at U+2B920 there).
func isCJK(r rune) bool {
	return (r >= 0x4E00 && r <= 0x9FFF) ||
		(r >= 0x3400 && r <= 0x4DBF) ||
		(r >= 0x20000 && r <= 0x2A6DF) ||
		(r >= 0x2A700 && r <= 0x2B73F) ||
		(r >= 0x2B740 && r <= 0x2B81F) ||
		(r >= 0x2B920 && r <= 0x2CEAF) ||
		(r >= 0xF900 && r <= 0xFAFF) ||
		(r >= 0x2F800 && r <= 0x2FA1F)
}

// isPunct is BertPreTokenizer's punctuation: ASCII punctuation (which
// includes $ + < = > ^ ` | ~) or a Unicode P* character.
func isPunct(r rune) bool {
	if r < 0x80 {
		return (r >= '!' && r <= '/') || (r >= ':' && r <= '@') || (r >= '[' && r <= '`') || (r >= '{' && r <= '~')
	}
	return unicode.IsPunct(r)
}

// normalize is BertNormalizer(clean_text, handle_chinese_chars,
// strip_accents, lowercase), in that order.
func normalize(s string) string {
	var b strings.Builder
	b.Grow(len(s) + 8)
	ascii := true
	for _, r := range s {
		switch {
		case isControl(r):
			continue
		case isWhitespace(r):
			r = ' '
		}
		if isCJK(r) {
			ascii = false
			b.WriteByte(' ')
			b.WriteRune(r)
			b.WriteByte(' ')
			continue
		}
		if r >= utf8.RuneSelf {
			ascii = false
		}
		b.WriteRune(r)
	}
	s = b.String()
	if !ascii {
		s = norm.NFD.String(s)
	}
	b.Reset()
	b.Grow(len(s))
	for _, r := range s {
		if r >= utf8.RuneSelf && unicode.Is(unicode.Mn, r) {
			continue
		}
		b.WriteRune(unicode.ToLower(r))
	}
	return b.String()
}

// preTokenize is BertPreTokenizer: words split on White_Space, with every
// punctuation character a word of its own.
func preTokenize(s string) []string {
	var words []string
	start := -1
	for i, r := range s {
		switch {
		case isWhitespace(r):
			if start >= 0 {
				words = append(words, s[start:i])
				start = -1
			}
		case isPunct(r):
			if start >= 0 {
				words = append(words, s[start:i])
				start = -1
			}
			words = append(words, s[i:i+utf8.RuneLen(r)])
		default:
			if start < 0 {
				start = i
			}
		}
	}
	if start >= 0 {
		words = append(words, s[start:])
	}
	return words
}
