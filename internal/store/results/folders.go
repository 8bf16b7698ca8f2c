package results

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"time"

	"github.com/bfcl-go/bfcl/internal/benchmark/category"
)

// Folder is one model folder of a result root.
type Folder struct {
	Model      string // folder name ("/" written "_")
	Categories []category.Category
	Entries    int // result lines over all categories (memory prerequisites not counted)
	Modified   time.Time
}

var resultFile = regexp.MustCompile(`^` + category.VersionPrefix + `_(\w+?)_result\.json$`)

// FileCategory returns the category name a result file's name carries
// (BFCL_v4_<name>_result.json: memory prerequisites and names this version
// does not know included) and whether the name is a result file's.
func FileCategory(name string) (string, bool) {
	m := resultFile.FindStringSubmatch(name)
	if m == nil {
		return "", false
	}
	return m[1], true
}

// Folders lists the model folders under root with the categories they hold
// results for, in name order.
func Folders(root string) ([]Folder, error) {
	ents, err := os.ReadDir(root)
	if err != nil {
		return nil, fmt.Errorf("results: %w", err)
	}
	var out []Folder
	for _, e := range ents {
		if !e.IsDir() {
			continue
		}
		f := Folder{Model: e.Name()}
		if st, err := e.Info(); err == nil {
			f.Modified = st.ModTime()
		}
		err := filepath.WalkDir(filepath.Join(root, e.Name()), func(p string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			name, ok := FileCategory(d.Name())
			if !ok {
				return nil
			}
			c := category.Category(name)
			if !c.Valid() {
				return nil // memory prerequisites and foreign files
			}
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			f.Categories = append(f.Categories, c)
			f.Entries += bytes.Count(b, []byte{'\n'})
			if st, err := d.Info(); err == nil && st.ModTime().After(f.Modified) {
				f.Modified = st.ModTime()
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
		f.Categories = category.SortCanonical(f.Categories)
		out = append(out, f)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Model < out[j].Model })
	return out, nil
}
