package oss

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/bfcl-go/bfcl/internal/models/chattemplate"
	"github.com/bfcl-go/bfcl/internal/store/hfhub"
)

// UsesChatTemplate reports whether an upstream class renders its prompts
// with the model's own Hugging Face chat template (Falcon3FCHandler,
// QuickTestingOSSHandler).
func UsesChatTemplate(class string) bool {
	f, ok := ForClass(class, "")
	if !ok {
		return false
	}
	_, ok = f.(*chatTemplate)
	return ok
}

// ForModel is ForClass for a model as it is run: a class that renders
// with the model's chat template gets the template of the tokenizer that
// upstream's OSSHandler loads (AutoTokenizer.from_pretrained of
// model_path_or_id): served, when it is a folder (--local-model-path,
// which bfcl-go serves under its path), else the Hugging Face cache's
// snapshot of model (model_name_huggingface). No template found is an
// error that names the model, the places tried and the settings to use.
// ok is false when class is not a local-model class.
func ForModel(class, model, served string) (f Format, ok bool, err error) {
	f, ok = ForClass(class, model)
	if !ok {
		return nil, false, nil
	}
	ct, isCT := f.(*chatTemplate)
	if !isCT {
		return f, true, nil
	}
	tok, err := findTokenizer(class, model, served)
	if err != nil {
		return nil, true, err
	}
	ct.tok = tok
	return ct, true, nil
}

// tokenizers caches the loaded tokenizers by folder: every entry of a run
// gets a fresh Format, and all share one compiled template.
var tokenizers sync.Map // dir -> *chattemplate.Tokenizer

// TokenizerDirs are the folders upstream's AutoTokenizer would read the
// tokenizer of model from, in order: served when it is a folder (the
// local model path), else the Hugging Face cache's snapshots of model.
func TokenizerDirs(model, served string) []string {
	if served != "" {
		if st, err := os.Stat(served); err == nil && st.IsDir() {
			return []string{served}
		}
	}
	cache := hfhub.CacheDir()
	if cache == "" || model == "" {
		return nil
	}
	return hfhub.Snapshots(cache, model, "")
}

func findTokenizer(class, model, served string) (*chattemplate.Tokenizer, error) {
	dirs := TokenizerDirs(model, served)
	var tried []string
	for _, dir := range dirs {
		if t, ok := tokenizers.Load(dir); ok {
			return t.(*chattemplate.Tokenizer), nil
		}
		tok, err := chattemplate.Load(dir)
		if errors.Is(err, fs.ErrNotExist) {
			tried = append(tried, filepath.Join(dir, chattemplate.ConfigFile))
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("%s (model %s) renders its prompts with the model's Hugging Face chat template: %w", class, model, err)
		}
		t, _ := tokenizers.LoadOrStore(dir, tok)
		return t.(*chattemplate.Tokenizer), nil
	}
	where := "nowhere (no Hugging Face cache folder: set HF_HOME or HF_HUB_CACHE)"
	if len(tried) > 0 {
		where = strings.Join(tried, ", ")
	} else if cache := hfhub.CacheDir(); cache != "" {
		where = hfhub.RepoDir(cache, model) + " (not in the Hugging Face cache: no refs/main)"
	}
	return nil, &noTemplateError{fmt.Sprintf("%s (model %s) renders its prompts with the model's own chat template, and no tokenizer_config.json was found; looked in %s. "+
		"Give the model's folder with --local-model-path DIR (BFCL_LOCAL_MODEL_PATH; it must hold config.json and tokenizer_config.json), "+
		"or download the model's tokenizer files into the Hugging Face cache (HF_HOME / HF_HUB_CACHE), e.g. `huggingface-cli download %s tokenizer_config.json config.json`",
		class, model, where, model)}
}

// noTemplateError is ForModel's error when no tokenizer_config.json was
// found: it says where it looked, and is ErrNeedsChatTemplate.
type noTemplateError struct{ msg string }

func (e *noTemplateError) Error() string { return e.msg }
func (e *noTemplateError) Unwrap() error { return ErrNeedsChatTemplate }
