package main

import (
	"bufio"
	"encoding/json"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/bfcl-go/bfcl/internal/python/pyval"
	"github.com/bfcl-go/bfcl/internal/testkit/testenv"
)

// Falcon3FCHandler renders its prompts with the model's own Hugging Face
// chat template. These runs give it the Falcon3-style template of
// fixtures/chattemplate (written for the tests) in a model folder
// (--local-model-path) or in the Hugging Face cache.
var _ = Describe("bfcl generate with a handler that renders the model's chat template", Label("e2e"), func() {
	// modelDir writes a model folder: config.json (the context window)
	// and tokenizer_config.json with the template and an AddedToken
	// eos_token.
	modelDir := func(dir string) string {
		src, err := os.ReadFile(filepath.Join(testenv.ModuleRoot(), "fixtures", "chattemplate", "templates", "falcon3_style.jinja"))
		Expect(err).NotTo(HaveOccurred())
		cfg, err := json.Marshal(map[string]any{"chat_template": string(src), "eos_token": map[string]any{"__type": "AddedToken", "content": "<|endoftext|>"}})
		Expect(err).NotTo(HaveOccurred())
		Expect(os.MkdirAll(dir, 0o755)).To(Succeed())
		Expect(os.WriteFile(filepath.Join(dir, "tokenizer_config.json"), cfg, 0o644)).To(Succeed())
		Expect(os.WriteFile(filepath.Join(dir, "config.json"), []byte(`{"max_position_embeddings": 32768}`), 0o644)).To(Succeed())
		return dir
	}
	// wantPrompt is the template's rendering of simple_python_0 written
	// out by hand: the functions (with upstream's Python hint) as
	// json.dumps(indent=2) in the system block, the question as it is (no
	// BFCL system prompt), the generation prompt.
	wantPrompt := func(data string) string {
		f, err := os.Open(filepath.Join(data, "data", "BFCL_v4_simple_python.json"))
		Expect(err).NotTo(HaveOccurred())
		defer f.Close()
		sc := bufio.NewScanner(f)
		sc.Buffer(make([]byte, 1<<20), 1<<24)
		for sc.Scan() {
			if !strings.HasPrefix(sc.Text(), `{"id": "simple_python_0",`) {
				continue
			}
			var entry struct {
				Question [][]struct{ Content string }
				Function json.RawMessage
			}
			Expect(json.Unmarshal(sc.Bytes(), &entry)).To(Succeed())
			fns, err := pyval.FromJSON(entry.Function)
			Expect(err).NotTo(HaveOccurred())
			// upstream's add_language_specific_hint_to_function_doc, done
			// when the data set is loaded
			for _, fn := range fns.(*pyval.List).Items {
				d := fn.(*pyval.Dict)
				desc, _ := d.GetStr("description")
				d.SetStr("description", desc.(pyval.Str)+" Note that the provided function is in Python 3 syntax.")
			}
			tools, err := pyval.AppendJSONWith(nil, fns, pyval.JSONOptions{Indent: 2})
			Expect(err).NotTo(HaveOccurred())
			return "<|system|>\nYou can call functions. Each call goes in <tool_call></tool_call> tags as a JSON list of {\"name\": ..., \"arguments\": ...} objects.\n\n<tools>\n" +
				string(tools) + "\n</tools>\n<|user|>\n" + entry.Question[0][0].Content + "\n<|assistant|>\n"
		}
		Fail("simple_python_0 is not in the data set")
		return ""
	}
	// sent are the bodies of the requests the run made (not the probe's).
	sent := func(f *fakeCompletions) []map[string]any {
		var out []map[string]any
		for _, b := range f.bodies {
			if b["max_tokens"] != 1.0 {
				out = append(out, b)
			}
		}
		return out
	}
	const call = `<tool_call>[{"name": "calculate_triangle_area", "arguments": {"base": 10, "height": 5}}]</tool_call>`

	It("sends the prompt the template renders, with --local-model-path", func() {
		data := needData()
		work := GinkgoT().TempDir()
		ckpt := modelDir(filepath.Join(work, "Falcon3-7B-Instruct"))
		want := wantPrompt(data)
		fake := &fakeCompletions{answers: map[string]string{want: call}}
		srv := httptest.NewServer(fake)
		defer srv.Close()
		r := bfcl(work, cliEnv(data, "BFCL_PROJECT_ROOT="+work, "REMOTE_OPENAI_BASE_URL="+srv.URL+"/v1", "HF_HUB_CACHE="+filepath.Join(work, "empty-cache")),
			"generate", "--model", "tiiuae/Falcon3-7B-Instruct-FC", "--local-model-path", ckpt, "--ids", "simple_python_0",
			"--result-dir", filepath.Join(work, "result"), "--score-dir", filepath.Join(work, "score"))
		Expect(r.exit).To(Equal(0), r.stdout+r.stderr)
		Expect(sent(fake)).To(HaveLen(1))
		body := sent(fake)[0]
		Expect(body["prompt"]).To(Equal(want))
		Expect(body).To(HaveKeyWithValue("model", ckpt), "upstream's model_path_or_id: the local folder")
		Expect(body).To(HaveKeyWithValue("max_tokens", 4096.0))
		Expect(body).To(HaveKeyWithValue("temperature", 0.001))
		Expect(body).NotTo(HaveKey("stop_token_ids"), "OSSHandler sends no stop tokens")
		Expect(body).NotTo(HaveKey("skip_special_tokens"))
		Expect(r.stdout).To(ContainSubstring("100.00"), "the call decoded from the reply is right")
	})

	It("finds the template in the Hugging Face cache, as upstream's AutoTokenizer", func() {
		data := needData()
		work := GinkgoT().TempDir()
		cache := filepath.Join(work, "hub")
		snap, err := testenv.HFSnapshot(cache, "tiiuae/Falcon3-7B-Instruct", "0123abcd")
		Expect(err).NotTo(HaveOccurred())
		modelDir(snap)
		want := wantPrompt(data)
		fake := &fakeCompletions{answers: map[string]string{want: call}}
		srv := httptest.NewServer(fake)
		defer srv.Close()
		r := bfcl(work, cliEnv(data, "BFCL_PROJECT_ROOT="+work, "REMOTE_OPENAI_BASE_URL="+srv.URL+"/v1", "HF_HUB_CACHE="+cache),
			"generate", "--model", "tiiuae/Falcon3-7B-Instruct-FC", "--ids", "simple_python_0",
			"--result-dir", filepath.Join(work, "result"), "--score-dir", filepath.Join(work, "score"))
		Expect(r.exit).To(Equal(0), r.stdout+r.stderr)
		Expect(sent(fake)).To(HaveLen(1))
		Expect(sent(fake)[0]["prompt"]).To(Equal(want))
		Expect(sent(fake)[0]).To(HaveKeyWithValue("model", "tiiuae/Falcon3-7B-Instruct"))
		Expect(sent(fake)[0]).To(HaveKeyWithValue("max_tokens", 4096.0), "the cache's config.json gives the window")
	})

	It("runs QuickTestingOSSHandler from models.yaml: BFCL's prompt-mode system prompt, the template's branch without tools", func() {
		data := needData()
		work := GinkgoT().TempDir()
		ckpt := modelDir(filepath.Join(work, "my-model"))
		fake := &fakeCompletions{answers: map[string]string{}}
		srv := httptest.NewServer(fake)
		defer srv.Close()
		yaml := "models:\n  - {name: quick, provider: completions, handler: QuickTestingOSSHandler, mode: prompt, model: " + ckpt + ", base_url: " + srv.URL + "/v1}\n"
		Expect(os.WriteFile(filepath.Join(work, "models.yaml"), []byte(yaml), 0o644)).To(Succeed())
		r := bfcl(work, cliEnv(data, "BFCL_PROJECT_ROOT="+work, "BFCL_MODELS_FILE="+filepath.Join(work, "models.yaml"), "HF_HUB_CACHE="+filepath.Join(work, "empty-cache")),
			"generate", "--model", "quick", "--ids", "simple_python_0",
			"--result-dir", filepath.Join(work, "result"), "--score-dir", filepath.Join(work, "score"))
		Expect(r.exit).To(Equal(0), r.stdout+r.stderr)
		Expect(sent(fake)).To(HaveLen(1))
		p := sent(fake)[0]["prompt"].(string)
		Expect(p).To(HavePrefix("<|system|>\nYou are an expert in composing functions."))
		Expect(p).To(ContainSubstring("calculate_triangle_area"), "the functions are in BFCL's system prompt")
		Expect(p).NotTo(ContainSubstring("<tools>"), "no tools= for QuickTestingOSSHandler")
		Expect(p).To(HaveSuffix("\n<|user|>\nFind the area of a triangle with a base of 10 units and height of 5 units.\n<|assistant|>\n"))
		Expect(sent(fake)[0]).To(HaveKeyWithValue("model", ckpt))
	})

	It("stops before the run, naming the model, the places tried and the settings, when there is no template", func() {
		data := needData()
		work := GinkgoT().TempDir()
		cache := filepath.Join(work, "hub")
		fake := &fakeCompletions{answers: map[string]string{}}
		srv := httptest.NewServer(fake)
		defer srv.Close()
		r := bfcl(work, cliEnv(data, "BFCL_PROJECT_ROOT="+work, "REMOTE_OPENAI_BASE_URL="+srv.URL+"/v1", "HF_HUB_CACHE="+cache),
			"generate", "--model", "tiiuae/Falcon3-7B-Instruct-FC", "--ids", "simple_python_0",
			"--result-dir", filepath.Join(work, "result"), "--score-dir", filepath.Join(work, "score"))
		Expect(r.exit).NotTo(Equal(0), r.stdout+r.stderr)
		for _, s := range []string{"Falcon3FCHandler", "tiiuae/Falcon3-7B-Instruct", "no tokenizer_config.json was found",
			filepath.Join(cache, "models--tiiuae--Falcon3-7B-Instruct"), "--local-model-path", "HF_HUB_CACHE"} {
			Expect(r.stderr).To(ContainSubstring(s))
		}
		Expect(fake.bodies).To(BeEmpty(), "no request is sent")

		// a model folder whose tokenizer has no chat template
		ckpt := filepath.Join(work, "ckpt")
		Expect(os.MkdirAll(ckpt, 0o755)).To(Succeed())
		Expect(os.WriteFile(filepath.Join(ckpt, "config.json"), []byte(`{"max_position_embeddings": 32768}`), 0o644)).To(Succeed())
		Expect(os.WriteFile(filepath.Join(ckpt, "tokenizer_config.json"), []byte(`{"eos_token": "</s>"}`), 0o644)).To(Succeed())
		r = bfcl(work, cliEnv(data, "BFCL_PROJECT_ROOT="+work, "REMOTE_OPENAI_BASE_URL="+srv.URL+"/v1", "HF_HUB_CACHE="+cache),
			"generate", "--model", "tiiuae/Falcon3-7B-Instruct-FC", "--local-model-path", ckpt, "--ids", "simple_python_0",
			"--result-dir", filepath.Join(work, "result"), "--score-dir", filepath.Join(work, "score"))
		Expect(r.exit).NotTo(Equal(0), r.stdout+r.stderr)
		Expect(r.stderr).To(ContainSubstring(filepath.Join(ckpt, "tokenizer_config.json")))
		Expect(r.stderr).To(ContainSubstring("no chat_template"))
		Expect(fake.bodies).To(BeEmpty())
	})
})
