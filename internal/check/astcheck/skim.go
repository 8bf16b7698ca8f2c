package astcheck

import (
	"strings"

	"github.com/bfcl-go/bfcl/internal/benchmark/category"
	"github.com/bfcl-go/bfcl/internal/python/pyval"
)

// A dataset entry's function docs are most of its bytes (live_multiple
// entries carry dozens), while the checker reads at most the docs its
// possible answer names. ScoreEntry therefore skims the entry's JSON for
// the raw docs and their names and parses only the docs find_description
// can return; anything unusual falls back to parsing the whole entry.

// skipSpace returns the index of the first non-JSON-whitespace byte.
func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// skipValue returns the end of the JSON value starting at i, or -1.
func skipValue(b []byte, i int) int {
	if i >= len(b) {
		return -1
	}
	switch b[i] {
	case '"':
		for j := i + 1; j < len(b); j++ {
			switch b[j] {
			case '\\':
				j++
			case '"':
				return j + 1
			}
		}
		return -1
	case '{', '[':
		depth := 0
		for j := i; j < len(b); j++ {
			switch b[j] {
			case '"':
				e := skipValue(b, j)
				if e < 0 {
					return -1
				}
				j = e - 1
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return j + 1
				}
			}
		}
		return -1
	}
	j := i
	for j < len(b) && !strings.ContainsRune(",}] \t\n\r", rune(b[j])) {
		j++
	}
	if j == i {
		return -1
	}
	return j
}

// objectField returns the raw value of key in the JSON object b (the last
// occurrence wins, as in json.loads; nil when absent). ok is false when b
// is not an object this skimmer can walk.
func objectField(b []byte, key string) (out []byte, ok bool) {
	i := skipSpace(b, 0)
	if i >= len(b) || b[i] != '{' {
		return nil, false
	}
	i = skipSpace(b, i+1)
	if i < len(b) && b[i] == '}' {
		return out, true
	}
	for {
		if i >= len(b) || b[i] != '"' {
			return nil, false
		}
		ke := skipValue(b, i)
		if ke < 0 {
			return nil, false
		}
		k := b[i+1 : ke-1]
		i = skipSpace(b, ke)
		if i >= len(b) || b[i] != ':' {
			return nil, false
		}
		i = skipSpace(b, i+1)
		ve := skipValue(b, i)
		if ve < 0 {
			return nil, false
		}
		if string(k) == key {
			out = b[i:ve]
		}
		i = skipSpace(b, ve)
		if i < len(b) && b[i] == '}' {
			return out, true
		}
		if i >= len(b) || b[i] != ',' {
			return nil, false
		}
		i = skipSpace(b, i+1)
	}
}

// arrayElems splits the raw JSON array b into its raw elements.
func arrayElems(b []byte) ([][]byte, bool) {
	i := skipSpace(b, 0)
	if i >= len(b) || b[i] != '[' {
		return nil, false
	}
	var out [][]byte
	i = skipSpace(b, i+1)
	if i < len(b) && b[i] == ']' {
		return out, true
	}
	for {
		e := skipValue(b, i)
		if e < 0 {
			return nil, false
		}
		out = append(out, b[i:e])
		i = skipSpace(b, e)
		if i < len(b) && b[i] == ']' {
			return out, true
		}
		if i >= len(b) || b[i] != ',' {
			return nil, false
		}
		i = skipSpace(b, i+1)
	}
}

// neededDocs returns the entry's function list reduced to the docs the
// checker can look at for this category and ground truth: the first doc
// for simple categories, else the first doc of each name the answers
// use, in their original order. ok is false when skimming is not safe
// (a doc without a plain string name, keys with escapes, odd JSON); the
// caller then parses the whole entry.
func neededDocs(c category.Category, entry []byte, groundTruth pyval.Value) (pyval.Value, bool) {
	fnRaw, ok := objectField(entry, "function")
	if !ok || fnRaw == nil {
		return nil, false
	}
	docs, ok := arrayElems(fnRaw)
	if !ok {
		return nil, false
	}
	simpleCat := !c.IsParallel() && !c.IsMultiple()
	want := map[string]bool{}
	if !simpleCat {
		answers, isList := groundTruth.(*pyval.List)
		if !isList {
			return nil, false
		}
		for _, a := range answers.Items {
			d, isDict := a.(*pyval.Dict)
			if !isDict || d.Len() == 0 {
				return nil, false
			}
			k, _ := d.At(0)
			ks, isStr := k.(pyval.Str)
			if !isStr {
				return nil, false
			}
			want[string(ks)] = true
		}
	}
	var picked []pyval.Value
	for i, raw := range docs {
		if simpleCat && i > 0 {
			break
		}
		nameRaw, ok := objectField(raw, "name")
		if !ok {
			return nil, false
		}
		if len(nameRaw) < 2 || nameRaw[0] != '"' || strings.IndexByte(string(nameRaw), '\\') >= 0 {
			return nil, false
		}
		name := string(nameRaw[1 : len(nameRaw)-1])
		if !simpleCat {
			if !want[name] {
				continue
			}
			delete(want, name)
		}
		v, err := pyval.FromJSON(raw)
		if err != nil {
			return nil, false
		}
		picked = append(picked, v)
	}
	return pyval.NewList(picked...), true
}
