// Package reqcache records every model request and its response on disk,
// content-addressed by the exact request, and replays them: a rerun, or a
// rescoring after a checker fix, costs no model call and gets the same
// answers. It wraps any driver.
package reqcache

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync/atomic"

	"github.com/bfcl-go/bfcl/internal/models/driver"
	"github.com/bfcl-go/bfcl/internal/store/atomicfile"
)

// Identity is what, besides the request, decides the answer: the same
// request to another model or server is another key.
type Identity struct {
	Provider string `json:"provider"`
	Model    string `json:"model"`
	Mode     string `json:"mode"`
	BaseURL  string `json:"base_url"`
}

// Driver serves requests from the cache folder, asking the wrapped driver
// only on a miss (and storing its answer).
type Driver struct {
	inner driver.Driver
	dir   string
	id    Identity
	hits  atomic.Int64
	miss  atomic.Int64
}

// New wraps d; entries live below dir.
func New(d driver.Driver, dir string, id Identity) *Driver {
	return &Driver{inner: d, dir: dir, id: id}
}

// Name implements driver.Driver.
func (c *Driver) Name() string { return c.inner.Name() }

// Stats returns the cache hits and misses so far.
func (c *Driver) Stats() (hits, misses int64) { return c.hits.Load(), c.miss.Load() }

type record struct {
	Key      string          `json:"key"`
	Identity Identity        `json:"identity"`
	Request  json.RawMessage `json:"request"`
	Response driver.Response `json:"response"`
}

// Key is the content address of a request: SHA-256 over the identity and
// the request as sent (reasoning text excluded, except for the qwen
// provider, whose driver sends it back as upstream's QwenAPIHandler does).
func Key(id Identity, req driver.Request) (string, json.RawMessage, error) {
	r := req
	r.Messages = make([]driver.Message, len(req.Messages))
	for i, m := range req.Messages {
		if id.Provider != driver.ProviderQwen {
			m.Reasoning = ""
		}
		r.Messages[i] = m
	}
	body, err := json.Marshal(r)
	if err != nil {
		return "", nil, fmt.Errorf("reqcache: encode request: %w", err)
	}
	idb, _ := json.Marshal(id)
	h := sha256.New()
	h.Write(idb)
	h.Write([]byte{0})
	h.Write(body)
	return hex.EncodeToString(h.Sum(nil)), body, nil
}

func (c *Driver) path(key string) string {
	return filepath.Join(c.dir, key[:2], key+".json")
}

// Complete implements driver.Driver.
func (c *Driver) Complete(ctx context.Context, req driver.Request) (driver.Response, error) {
	key, body, err := Key(c.id, req)
	if err != nil {
		return driver.Response{}, err
	}
	if b, err := os.ReadFile(c.path(key)); err == nil {
		var rec record
		if err := json.Unmarshal(b, &rec); err == nil && rec.Key == key {
			c.hits.Add(1)
			r := rec.Response
			r.Raw, r.Replay, r.Request = nullToNil(r.Raw), nullToNil(r.Replay), nullToNil(r.Request)
			return r, nil
		}
		// A damaged entry is ignored and rewritten below.
	} else if !errors.Is(err, os.ErrNotExist) {
		return driver.Response{}, fmt.Errorf("reqcache: %w", err)
	}
	c.miss.Add(1)
	resp, err := c.inner.Complete(ctx, req)
	if err != nil {
		return resp, err // failures are never cached
	}
	b, err := json.Marshal(record{Key: key, Identity: c.id, Request: body, Response: resp})
	if err != nil {
		return resp, fmt.Errorf("reqcache: encode response: %w", err)
	}
	if err := atomicfile.Write(c.path(key), b); err != nil {
		return resp, fmt.Errorf("reqcache: %w", err)
	}
	return resp, nil
}

// nullToNil undoes JSON's encoding of an absent raw message as null.
func nullToNil(m json.RawMessage) json.RawMessage {
	if string(m) == "null" {
		return nil
	}
	return m
}
