// Package jsonscan splits JSON Lines records quickly: an object into its
// top-level members and an array into its elements, as raw slices, without
// decoding them. Question and result files are large (function documents,
// inference logs) and scoring reads them whole, so this is several times
// faster than decoding into structs; callers then decode the members they
// need with encoding/json, which validates them. The scanner checks the
// structure (brackets, strings, separators), not every literal.
package jsonscan

import (
	"bytes"
	"errors"
	"fmt"
	"unicode/utf8"
)

// ErrMalformed reports a structural error.
var ErrMalformed = errors.New("malformed JSON")

// skipSpace returns the index of the first non-space byte at or after i.
func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// skipValue returns the index just after the JSON value starting at i.
func skipValue(b []byte, i int) (int, error) {
	i = skipSpace(b, i)
	if i >= len(b) {
		return 0, ErrMalformed
	}
	switch b[i] {
	case '"':
		return skipString(b, i)
	case '{', '[':
		depth := 0
		for i < len(b) {
			switch b[i] {
			case '"':
				j, err := skipString(b, i)
				if err != nil {
					return 0, err
				}
				i = j
				continue
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return i + 1, nil
				}
			}
			i++
		}
		return 0, ErrMalformed
	default:
		j := i
		for j < len(b) && b[j] != ',' && b[j] != '}' && b[j] != ']' && b[j] != ' ' && b[j] != '\n' && b[j] != '\t' && b[j] != '\r' {
			j++
		}
		if j == i {
			return 0, ErrMalformed
		}
		return j, nil
	}
}

// skipString returns the index just after the string starting at b[i]
// (a quote): the next quote not escaped by an odd run of backslashes,
// found with bytes.IndexByte (strings are most of the bytes of result and
// question files).
func skipString(b []byte, i int) (int, error) {
	for j := i + 1; j < len(b); {
		q := bytes.IndexByte(b[j:], '"')
		if q < 0 {
			break
		}
		q += j
		k := q
		for k > i+1 && b[k-1] == '\\' {
			k--
		}
		if (q-k)%2 == 0 {
			return q + 1, nil
		}
		j = q + 1
	}
	return 0, ErrMalformed
}

// ObjectMembers calls fn with each top-level key (still JSON-quoted, as
// written) and raw value of the object b.
func ObjectMembers(b []byte, fn func(key, val []byte)) error {
	i := skipSpace(b, 0)
	if i >= len(b) || b[i] != '{' {
		return fmt.Errorf("%w: not an object", ErrMalformed)
	}
	i = skipSpace(b, i+1)
	if i < len(b) && b[i] == '}' {
		return nil
	}
	for {
		i = skipSpace(b, i)
		if i >= len(b) || b[i] != '"' {
			return ErrMalformed
		}
		k, err := skipString(b, i)
		if err != nil {
			return err
		}
		key := b[i:k]
		i = skipSpace(b, k)
		if i >= len(b) || b[i] != ':' {
			return ErrMalformed
		}
		vStart := skipSpace(b, i+1)
		vEnd, err := skipValue(b, vStart)
		if err != nil {
			return err
		}
		fn(key, b[vStart:vEnd])
		i = skipSpace(b, vEnd)
		if i >= len(b) {
			return ErrMalformed
		}
		if b[i] == '}' {
			if skipSpace(b, i+1) != len(b) {
				return fmt.Errorf("%w: data after the object", ErrMalformed)
			}
			return nil
		}
		if b[i] != ',' {
			return ErrMalformed
		}
		i++
	}
}

// ArrayElements returns the raw elements of the array b (nothing but
// space may follow it).
func ArrayElements(b []byte) ([][]byte, error) {
	i := skipSpace(b, 0)
	if i >= len(b) || b[i] != '[' {
		return nil, fmt.Errorf("%w: not an array", ErrMalformed)
	}
	i = skipSpace(b, i+1)
	var out [][]byte
	if i < len(b) && b[i] == ']' {
		return out, afterArray(b, i)
	}
	for {
		start := skipSpace(b, i)
		end, err := skipValue(b, start)
		if err != nil {
			return nil, err
		}
		out = append(out, b[start:end])
		i = skipSpace(b, end)
		if i >= len(b) {
			return nil, ErrMalformed
		}
		if b[i] == ']' {
			if err := afterArray(b, i); err != nil {
				return nil, err
			}
			return out, nil
		}
		if b[i] != ',' {
			return nil, ErrMalformed
		}
		i++
	}
}

// afterArray reports data after the array that closes at b[i].
func afterArray(b []byte, i int) error {
	if skipSpace(b, i+1) != len(b) {
		return fmt.Errorf("%w: data after the array", ErrMalformed)
	}
	return nil
}

// PlainString returns the Go string of a JSON string literal that has no
// escape, no control character and only valid UTF-8: its bytes, as
// encoding/json decodes it. ok is false for any other value.
func PlainString(v []byte) (string, bool) {
	if len(v) < 2 || v[0] != '"' || v[len(v)-1] != '"' {
		return "", false
	}
	body := v[1 : len(v)-1]
	ascii := true
	for _, c := range body {
		if c < 0x20 || c == '"' || c == '\\' {
			return "", false
		}
		ascii = ascii && c < utf8.RuneSelf
	}
	if !ascii && !utf8.Valid(body) {
		return "", false
	}
	return string(body), true
}

// PlainStringLists returns the Go value of a JSON array of arrays whose
// every element PlainString reads (a call list per turn, as the data set
// writes ground truths), as encoding/json decodes it into [][]string: an
// empty array is an empty, non-nil slice. ok is false for anything else.
func PlainStringLists(b []byte) ([][]string, bool) {
	outer, err := ArrayElements(b)
	if err != nil {
		return nil, false
	}
	out := make([][]string, len(outer))
	for i, o := range outer {
		inner, err := ArrayElements(o)
		if err != nil {
			return nil, false
		}
		out[i] = make([]string, len(inner))
		for k, e := range inner {
			s, ok := PlainString(e)
			if !ok {
				return nil, false
			}
			out[i][k] = s
		}
	}
	return out, true
}
