package drivertest

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"

	"github.com/onsi/ginkgo/v2"
	"github.com/onsi/gomega"

	"github.com/bfcl-go/bfcl/internal/testkit/testenv"
)

// DatasetFunctionLists returns the function lists of every dataset entry
// (keyed by entry id) plus one list per multi_turn_func_doc class file, or
// nil when the dataset is absent.
func DatasetFunctionLists() (map[string][]json.RawMessage, error) {
	data, _ := testenv.DataDir()
	dir := filepath.Join(data, "data")
	files, _ := filepath.Glob(filepath.Join(dir, "BFCL_v4_*.json"))
	if len(files) == 0 {
		return nil, nil
	}
	out := map[string][]json.RawMessage{}
	for _, path := range files {
		if strings.Contains(path, "format_sensitivity") {
			continue
		}
		if err := eachLine(path, func(line []byte) error {
			var e struct {
				ID       string            `json:"id"`
				Function []json.RawMessage `json:"function"`
			}
			if err := json.Unmarshal(line, &e); err != nil {
				return err
			}
			if len(e.Function) > 0 {
				out[e.ID] = e.Function
			}
			return nil
		}); err != nil {
			return nil, err
		}
	}
	docs, _ := filepath.Glob(filepath.Join(dir, "multi_turn_func_doc", "*.json"))
	for _, path := range docs {
		var list []json.RawMessage
		if err := eachLine(path, func(line []byte) error {
			list = append(list, append(json.RawMessage(nil), line...))
			return nil
		}); err != nil {
			return nil, err
		}
		out["multi_turn_func_doc/"+filepath.Base(path)] = list
	}
	return out, nil
}

// EachFunctionList calls check with every function list of the data set
// (DatasetFunctionLists, keyed by id) and expects more than 3000 of them;
// without a data set it skips the spec loudly, unchecked naming what goes
// unchecked.
func EachFunctionList(unchecked string, check func(id string, fns []json.RawMessage)) {
	lists, err := DatasetFunctionLists()
	gomega.ExpectWithOffset(1, err).NotTo(gomega.HaveOccurred())
	if lists == nil {
		ginkgo.Skip("DATASET NOT FOUND (set BFCL_DATA_DIR): " + unchecked + " not checked")
	}
	for id, fns := range lists {
		check(id, fns)
	}
	gomega.ExpectWithOffset(1, len(lists)).To(gomega.BeNumerically(">", 3000))
}

func eachLine(path string, fn func([]byte) error) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 1<<20), 64<<20)
	for sc.Scan() {
		if len(strings.TrimSpace(sc.Text())) == 0 {
			continue
		}
		if err := fn(sc.Bytes()); err != nil {
			return err
		}
	}
	return sc.Err()
}
