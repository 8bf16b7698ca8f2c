package memo_test

import (
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/bfcl-go/bfcl/internal/cache/memo"
)

func TestTableComputesOncePerInput(t *testing.T) {
	var tab memo.Table[string, string]
	var calls atomic.Int32
	upper := func(in []byte) func() (string, error) {
		return func() (string, error) { calls.Add(1); return fmt.Sprintf("%s!", in), nil }
	}
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 100; i++ {
				in := []byte(fmt.Sprint(i % 10))
				v, err := tab.Get("k", in, upper(in))
				if err != nil || v != string(in)+"!" {
					t.Errorf("Get(%s) = %q, %v", in, v, err)
				}
			}
		}()
	}
	wg.Wait()
	if n := calls.Load(); n < 10 || n > 80 {
		t.Errorf("computed %d times for 10 inputs", n)
	}
	before := calls.Load()
	for i := 0; i < 10; i++ {
		in := []byte(fmt.Sprint(i))
		tab.Get("k", in, upper(in))
	}
	if calls.Load() != before {
		t.Errorf("recomputed a remembered input")
	}
	v, _ := tab.Get("other", []byte("1"), func() (string, error) { return "other", nil })
	if v != "other" {
		t.Errorf("the key is part of the memo key: got %q", v)
	}
	boom := errors.New("boom")
	if _, err := tab.Get("k", []byte("x"), func() (string, error) { return "", boom }); err != boom {
		t.Errorf("error not returned: %v", err)
	}
	if v, _ := tab.Get("k", []byte("x"), func() (string, error) { return "ok", nil }); v != "ok" {
		t.Errorf("an error was remembered")
	}
}

func TestRecentForgetsEverythingPastItsBytes(t *testing.T) {
	r := memo.Recent[int, string]{Max: 10}
	r.Put(1, "aaaa", 4)
	r.Put(2, "bbbb", 4)
	if v, ok := r.Get(1); !ok || v != "aaaa" {
		t.Fatalf("Get(1) = %q, %v", v, ok)
	}
	r.Put(3, "cccc", 4) // 12 > 10: forget, then keep 3
	if _, ok := r.Get(1); ok {
		t.Error("1 still remembered past Max")
	}
	if v, ok := r.Get(3); !ok || v != "cccc" {
		t.Errorf("Get(3) = %q, %v", v, ok)
	}
}
