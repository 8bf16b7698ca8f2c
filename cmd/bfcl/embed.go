package main

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/bfcl-go/bfcl/internal/config"
	"github.com/bfcl-go/bfcl/internal/services/embed/minilm"
)

// embedOutput is one output line of `bfcl embed`.
type embedOutput struct {
	Text      string          `json:"text"`
	IDs       []int           `json:"ids"`
	Embedding json.RawMessage `json:"embedding"`
}

// cmdEmbed embeds texts with the built-in all-MiniLM-L6-v2 embedder, the
// one memory_vector uses: one input per line of standard input (a JSON
// object {"text": ...}, or the line itself as plain text), one JSON line
// out per input with the token ids and the vector (float32 values,
// shortest round-trip decimals), so that a user can hold them against
// sentence-transformers.
func cmdEmbed(args []string) error {
	fs := flag.NewFlagSet("embed", flag.ContinueOnError)
	f := register(fs, "embed")
	noDownload := fs.Bool("no-download", false, "never download the model; fail when it is not found locally")
	in := fs.String("in", "-", "input file; - for standard input")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	ctx := context.Background()
	dir := f.Path(config.EmbedModelDir, config.WorkingDir)
	emb, err := minilm.Open(ctx, minilm.LocateOptions{Dir: dir, Download: !*noDownload,
		Log: func(msg string) { fmt.Fprintln(os.Stderr, "bfcl embed:", msg) }})
	if err != nil {
		return err
	}
	var r io.Reader = os.Stdin
	if *in != "-" {
		fh, err := os.Open(*in)
		if err != nil {
			return err
		}
		defer fh.Close()
		r = fh
	}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 1<<20), 64<<20)
	w := bufio.NewWriter(os.Stdout)
	defer w.Flush()
	for n := 1; sc.Scan(); n++ {
		text, err := embedInput(sc.Text())
		if err != nil {
			return fmt.Errorf("line %d: %w", n, err)
		}
		vecs, err := emb.Embed(ctx, []string{text})
		if err != nil {
			return fmt.Errorf("line %d: %w", n, err)
		}
		b := []byte{'['}
		for i, x := range vecs[0] {
			if i > 0 {
				b = append(b, ',')
			}
			b = strconv.AppendFloat(b, float64(x), 'g', -1, 32)
		}
		line, err := json.Marshal(embedOutput{Text: text, IDs: emb.Tokenize(text), Embedding: append(b, ']')})
		if err != nil {
			return err
		}
		w.Write(line)
		w.WriteByte('\n')
	}
	return sc.Err()
}

// embedInput is the text of one input line: a JSON object's "text", or the
// line as it is.
func embedInput(line string) (string, error) {
	if !strings.HasPrefix(strings.TrimSpace(line), "{") {
		return line, nil
	}
	var v struct {
		Text *string `json:"text"`
	}
	if err := json.Unmarshal([]byte(line), &v); err != nil {
		return "", fmt.Errorf("a line starting with { must be a JSON object {\"text\": ...}: %w", err)
	}
	if v.Text == nil {
		return "", fmt.Errorf("the JSON object has no \"text\"")
	}
	return *v.Text, nil
}
