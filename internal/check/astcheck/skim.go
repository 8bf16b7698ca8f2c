package astcheck

import (
	"bytes"
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
		return skipString(b, i)
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

// skipString returns the end of the JSON string starting at b[i] == '"',
// or -1: the next quote not escaped by an odd run of backslashes (found
// with bytes.IndexByte; the function documents are mostly long strings).
func skipString(b []byte, i int) int {
	for j := i + 1; j < len(b); {
		q := bytes.IndexByte(b[j:], '"')
		if q < 0 {
			return -1
		}
		q += j
		k := q
		for k > i+1 && b[k-1] == '\\' {
			k--
		}
		if (q-k)%2 == 0 {
			return q + 1
		}
		j = q + 1
	}
	return -1
}

// neededDocs returns the entry's function list reduced to the docs the
// checker can look at for this category and ground truth: the first doc
// for simple categories, else the first doc of each name the answers
// use, in their original order. ok is false when skimming is not safe
// (a doc without a plain string name, keys with escapes, odd JSON); the
// caller then parses the whole entry.
func neededDocs(c category.Category, entry []byte, groundTruth pyval.Value) (pyval.Value, bool) {
	docs, ok := entryDocs(entry)
	if !ok || docs == nil {
		return nil, false
	}
	simpleCat := !c.IsParallel() && !c.IsMultiple()
	var want map[string]bool
	if !simpleCat {
		answers, isList := groundTruth.(*pyval.List)
		if !isList {
			return nil, false
		}
		want = make(map[string]bool, len(answers.Items))
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
	for i, d := range docs.list {
		if simpleCat && i > 0 {
			break
		}
		if !d.object {
			return nil, false
		}
		nameRaw := d.name
		if len(nameRaw) < 2 || nameRaw[0] != '"' || bytes.IndexByte(nameRaw, '\\') >= 0 {
			return nil, false
		}
		if !simpleCat {
			name := nameRaw[1 : len(nameRaw)-1]
			if !want[string(name)] {
				continue
			}
			delete(want, string(name))
		}
		v, err := pyval.FromJSON(d.raw)
		if err != nil {
			return nil, false
		}
		picked = append(picked, v)
	}
	return pyval.NewList(picked...), true
}

// skimmedDoc is one element of an entry's "function" array: its raw
// bytes, whether it is an object this skimmer walked, and the raw value of
// its last "name" member (nil when absent).
type skimmedDoc struct {
	raw, name []byte
	object    bool
}

// skimmedDocs are the elements of the "function" member.
type skimmedDocs struct{ list []skimmedDoc }

// entryDocs walks the entry object once, splitting the value of its last
// "function" member into elements and finding each element's "name": what
// objectField(entry, "function"), arrayElems and objectField(doc, "name")
// return, in one pass. docs is nil when there is no "function" member;
// ok is false when the entry is not an object this skimmer can walk or
// "function" is not an array.
func entryDocs(b []byte) (docs *skimmedDocs, ok bool) {
	i := skipSpace(b, 0)
	if i >= len(b) || b[i] != '{' {
		return nil, false
	}
	var last *skimmedDocs
	end := walkMembers(b, i, func(key []byte, v int) int {
		if string(key) != "function" {
			return skipValue(b, v)
		}
		d, e := splitDocs(b, v)
		if e < 0 {
			return -1
		}
		last = d
		return e
	})
	if end < 0 {
		return nil, false
	}
	return last, true
}

// walkMembers walks the object starting at b[i] == '{': fn gets each raw
// key (quotes removed, escapes kept) and the start of its value, and
// returns the end of the value (-1: give up). It returns the end of the
// object, or -1.
func walkMembers(b []byte, i int, fn func(key []byte, v int) int) int {
	i = skipSpace(b, i+1)
	if i < len(b) && b[i] == '}' {
		return i + 1
	}
	for {
		if i >= len(b) || b[i] != '"' {
			return -1
		}
		ke := skipString(b, i)
		if ke < 0 {
			return -1
		}
		k := b[i+1 : ke-1]
		i = skipSpace(b, ke)
		if i >= len(b) || b[i] != ':' {
			return -1
		}
		i = skipSpace(b, i+1)
		ve := fn(k, i)
		if ve < 0 {
			return -1
		}
		i = skipSpace(b, ve)
		if i < len(b) && b[i] == '}' {
			return i + 1
		}
		if i >= len(b) || b[i] != ',' {
			return -1
		}
		i = skipSpace(b, i+1)
	}
}

// splitDocs splits the array at b[i] into its elements, reading each
// object element's last "name"; it returns the end of the array, or -1
// (also when the value is not an array).
func splitDocs(b []byte, i int) (*skimmedDocs, int) {
	if i >= len(b) || b[i] != '[' {
		return nil, -1
	}
	d := &skimmedDocs{list: []skimmedDoc{}}
	i = skipSpace(b, i+1)
	if i < len(b) && b[i] == ']' {
		return d, i + 1
	}
	for {
		var doc skimmedDoc
		var e int
		if i < len(b) && b[i] == '{' {
			e = walkMembers(b, i, func(key []byte, v int) int {
				ve := skipValue(b, v)
				if ve >= 0 && string(key) == "name" {
					doc.name = b[v:ve]
				}
				return ve
			})
			doc.object = e >= 0
			if e < 0 {
				// not walkable as an object: as arrayElems, its end is
				// where skipValue puts it
				doc.name = nil
				e = skipValue(b, i)
			}
		} else {
			e = skipValue(b, i)
		}
		if e < 0 {
			return nil, -1
		}
		doc.raw = b[i:e]
		d.list = append(d.list, doc)
		i = skipSpace(b, e)
		if i < len(b) && b[i] == ']' {
			return d, i + 1
		}
		if i >= len(b) || b[i] != ',' {
			return nil, -1
		}
		i = skipSpace(b, i+1)
	}
}
