package reqcache_test

import (
	"context"
	"errors"
	"sync"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/bfcl-go/bfcl/internal/cache/reqcache"
	"github.com/bfcl-go/bfcl/internal/models/driver"
)

type counting struct {
	mu    sync.Mutex
	calls int
	fail  bool
}

func (c *counting) Name() string { return "counting" }
func (c *counting) Complete(_ context.Context, req driver.Request) (driver.Response, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.calls++
	if c.fail {
		return driver.Response{}, errors.New("HTTP 500")
	}
	return driver.Response{ToolCalls: []driver.ToolCall{}, Text: req.Messages[len(req.Messages)-1].Content + "!", InputTokens: 3}, nil
}

var _ = Describe("the request cache", func() {
	id := reqcache.Identity{Provider: "openai", Model: "m", Mode: "fc", BaseURL: "http://127.0.0.1:1"}
	req := func(s string) driver.Request {
		return driver.Request{Messages: []driver.Message{{Role: "user", Content: s}}, Temperature: 0.001}
	}

	It("answers a repeated request from disk, exactly, without calling the model", func() {
		dir := GinkgoT().TempDir()
		inner := &counting{}
		c := reqcache.New(inner, dir, id)
		a, err := c.Complete(context.Background(), req("hi"))
		Expect(err).NotTo(HaveOccurred())
		again := reqcache.New(inner, dir, id) // a later run
		b, err := again.Complete(context.Background(), req("hi"))
		Expect(err).NotTo(HaveOccurred())
		Expect(b).To(Equal(a))
		Expect(b.ToolCalls).NotTo(BeNil(), "an empty tool-call list stays distinct from none")
		Expect(inner.calls).To(Equal(1))
		hits, misses := again.Stats()
		Expect([]int64{hits, misses}).To(Equal([]int64{1, 0}))
	})

	It("keys on the request and the model identity", func() {
		dir := GinkgoT().TempDir()
		inner := &counting{}
		reqcache.New(inner, dir, id).Complete(context.Background(), req("hi"))
		reqcache.New(inner, dir, id).Complete(context.Background(), req("ho"))
		other := id
		other.Model = "n"
		reqcache.New(inner, dir, other).Complete(context.Background(), req("hi"))
		r := req("hi")
		r.Temperature = 0.7
		reqcache.New(inner, dir, id).Complete(context.Background(), r)
		Expect(inner.calls).To(Equal(4))
		k1, _, _ := reqcache.Key(id, req("hi"))
		withReasoning := req("hi")
		withReasoning.Messages[0].Reasoning = "thinking"
		k2, _, _ := reqcache.Key(id, withReasoning)
		Expect(k2).To(Equal(k1), "reasoning is never sent, so it is not part of the key")
		qwen := id
		qwen.Provider = "qwen"
		q1, _, _ := reqcache.Key(qwen, req("hi"))
		q2, _, _ := reqcache.Key(qwen, withReasoning)
		Expect(q2).NotTo(Equal(q1), "the qwen driver sends reasoning_content back, so it is part of the key")
	})

	It("never stores a failure", func() {
		dir := GinkgoT().TempDir()
		inner := &counting{fail: true}
		_, err := reqcache.New(inner, dir, id).Complete(context.Background(), req("hi"))
		Expect(err).To(HaveOccurred())
		inner.fail = false
		_, err = reqcache.New(inner, dir, id).Complete(context.Background(), req("hi"))
		Expect(err).NotTo(HaveOccurred())
		Expect(inner.calls).To(Equal(2))
	})

	It("is safe for concurrent use", func() {
		dir := GinkgoT().TempDir()
		c := reqcache.New(&counting{}, dir, id)
		var wg sync.WaitGroup
		for i := 0; i < 20; i++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				defer GinkgoRecover()
				_, err := c.Complete(context.Background(), req("same"))
				Expect(err).NotTo(HaveOccurred())
			}()
		}
		wg.Wait()
	})
})
