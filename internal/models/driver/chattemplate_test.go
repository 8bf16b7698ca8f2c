package driver_test

import (
	"errors"
	"os"
	"path/filepath"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/bfcl-go/bfcl/internal/models/driver"
	"github.com/bfcl-go/bfcl/internal/models/driver/completions"
	"github.com/bfcl-go/bfcl/internal/models/oss"
	"github.com/bfcl-go/bfcl/internal/testkit/testenv"
)

var _ = Describe("New with a handler that renders the model's chat template", func() {
	const template = `{% for m in messages %}<{{ m.role }}>{{ m.content }}{{ eos_token }}{% endfor %}{% if tools %}[{{ tools | length }} tools]{% endif %}{% if add_generation_prompt %}<assistant>{% endif %}`
	writeTokenizer := func(dir string) {
		Expect(os.MkdirAll(dir, 0o755)).To(Succeed())
		Expect(os.WriteFile(filepath.Join(dir, "tokenizer_config.json"), []byte(`{"chat_template": "`+template+`", "eos_token": "</s>"}`), 0o644)).To(Succeed())
	}

	It("gives the Ollama raw route the template of the Hugging Face cache", func() {
		cache := GinkgoT().TempDir()
		GinkgoT().Setenv("HF_HUB_CACHE", cache)
		snap, err := testenv.HFSnapshot(cache, "tiiuae/Falcon3-3B-Instruct", "r1")
		Expect(err).NotTo(HaveOccurred())
		writeTokenizer(snap)
		d, err := driver.New(driver.Config{Provider: driver.ProviderOllama, Model: "falcon3:3b", BaseURL: "http://127.0.0.1:11434",
			Handler: "Falcon3FCHandler", UpstreamModel: "tiiuae/Falcon3-3B-Instruct"})
		Expect(err).NotTo(HaveOccurred())
		cd, ok := d.(*completions.Driver)
		Expect(ok).To(BeTrue())
		p, err := cd.Format().Prompt([]oss.Message{oss.Text(oss.RoleUser, "hi")}, nil)
		Expect(err).NotTo(HaveOccurred())
		Expect(p).To(Equal("<user>hi</s><assistant>"), "tools=[]: no tools block")
	})

	It("takes a local model folder served under its path, and fails naming the model without a template", func() {
		GinkgoT().Setenv("HF_HUB_CACHE", GinkgoT().TempDir())
		dir := filepath.Join(GinkgoT().TempDir(), "ckpt")
		writeTokenizer(dir)
		_, err := driver.New(driver.Config{Provider: "completions", Model: dir, BaseURL: "http://127.0.0.1:8000/v1",
			Handler: "Falcon3FCHandler", UpstreamModel: "tiiuae/Falcon3-3B-Instruct"})
		Expect(err).NotTo(HaveOccurred())
		_, err = driver.New(driver.Config{Provider: "completions", Model: "tiiuae/Falcon3-3B-Instruct", BaseURL: "http://127.0.0.1:8000/v1",
			Handler: "Falcon3FCHandler", UpstreamModel: "tiiuae/Falcon3-3B-Instruct"})
		Expect(errors.Is(err, oss.ErrNeedsChatTemplate)).To(BeTrue())
		Expect(err.Error()).To(ContainSubstring("tiiuae/Falcon3-3B-Instruct"))
	})
})
