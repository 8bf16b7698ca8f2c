package driver_test

import (
	"github.com/bfcl-go/bfcl/internal/models/driver"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

var _ = Describe("New", func() {
	DescribeTable("dispatches by provider",
		func(provider, base, name string) {
			d, err := driver.New(driver.Config{Provider: provider, Model: "m1", BaseURL: base, APIKey: "k"})
			Expect(err).NotTo(HaveOccurred())
			Expect(d.Name()).To(Equal(name))
		},
		Entry("ollama", "ollama", "http://127.0.0.1:11434", "ollama:m1"),
		Entry("openai", "openai", "http://127.0.0.1:8000/v1", "openai:m1"),
		Entry("anthropic", "anthropic", "http://127.0.0.1:9", "anthropic:m1"),
		Entry("gemini", "gemini", "http://127.0.0.1:9", "gemini:m1"),
		Entry("mistral", "mistral", "http://127.0.0.1:9", "mistral:m1"),
		Entry("cohere", "cohere", "http://127.0.0.1:9", "cohere:m1"),
		Entry("bedrock", "bedrock", "http://127.0.0.1:9", "bedrock:m1"),
		Entry("qwen", "qwen", "http://127.0.0.1:9", "qwen:m1"),
		Entry("writer", "writer", "http://127.0.0.1:9", "writer:m1"),
		Entry("gorilla", "gorilla", "http://127.0.0.1:9/v1", "gorilla:m1"),
		Entry("responses", "responses", "http://127.0.0.1:9/v1", "responses:m1"),
	)
	It("rejects unknown providers, modes and empty models clearly", func() {
		_, err := driver.New(driver.Config{Provider: "vertex", Model: "m"})
		Expect(err).To(MatchError(`driver: unknown provider "vertex" (want ollama, openai, responses, completions, anthropic, gemini, mistral, cohere, bedrock, qwen, writer or gorilla)`))
		_, err = driver.New(driver.Config{Provider: "writer", Model: "m", Mode: "prompt"})
		Expect(err).To(MatchError(ContainSubstring("WriterHandler has no prompt mode")))
		_, err = driver.New(driver.Config{Provider: "gorilla", Model: "m", Mode: "prompt"})
		Expect(err).To(MatchError(ContainSubstring("GorillaHandler has no prompt mode")))
		_, err = driver.New(driver.Config{Provider: "openai", Model: "m", Mode: "json"})
		Expect(err).To(MatchError(ContainSubstring(`unknown mode "json"`)))
		_, err = driver.New(driver.Config{Provider: "ollama"})
		Expect(err).To(MatchError(ContainSubstring("model name is empty")))
		_, err = driver.New(driver.Config{Provider: "ollama", Model: "m", BaseURL: "http://127.0.0.1:11434/v1"})
		Expect(err).To(MatchError(ContainSubstring("use provider openai")))
	})
})
