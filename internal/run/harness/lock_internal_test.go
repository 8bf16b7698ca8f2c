package harness

import (
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
)

// lockPath excludes other holders and leaves no lock file behind (issue
// 26: empty *.lock files were left in result folders).
func TestLockPath(t *testing.T) {
	name := filepath.Join(t.TempDir(), "x_result.json.lock")
	var inside, overlaps atomic.Int32
	var wg sync.WaitGroup
	for i := 0; i < 16; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := 0; k < 20; k++ {
				release, err := lockPath(name)
				if err != nil {
					t.Error(err)
					return
				}
				if inside.Add(1) != 1 {
					overlaps.Add(1)
				}
				inside.Add(-1)
				release()
			}
		}()
	}
	wg.Wait()
	if n := overlaps.Load(); n != 0 {
		t.Errorf("%d times two holders held the lock at once", n)
	}
	if _, err := os.Stat(name); !os.IsNotExist(err) {
		t.Errorf("the lock file is left behind (stat: %v)", err)
	}
}
