package chattemplate

import (
	"strconv"
	"strings"
)

// Jinja2's lexer decides what text a template writes around its tags:
// whitespace control ({%- -%}, {{- -}}, {#- -#}, and + to keep),
// trim_blocks (the newline after a block or comment tag is dropped),
// lstrip_blocks (the indentation before a block or comment tag on its own
// line is dropped), newlines normalized to "\n" and one trailing newline
// of the source dropped (keep_trailing_newline=False). The engine's own
// handling of these differs from Jinja2's where tags are adjacent (its
// strip reaches past a tag to the text before it), so prepare does it
// here, as jinja2.lexer does, and hands the engine a template with no text
// left: every text between tags becomes {{ __bfcl_text[i] }}, the i-th
// string of texts, which the engine writes as it is. Comments are dropped,
// {% raw %} blocks become text, `| tojson`, `| string`, `| join` and
// `| sort` are bound to this package's filters (boundFilters), and every {{ expression }} is written through
// strName, which writes a value as Python's str() does (the engine writes
// 4.0 as "4" and None as "").
func prepare(src string) (engine string, texts []string) {
	src = strings.ReplaceAll(src, "\r\n", "\n")
	src = strings.ReplaceAll(src, "\r", "\n")
	src = strings.TrimSuffix(src, "\n")

	var out strings.Builder
	var pending strings.Builder // text not yet emitted
	// After a tag: strip all the whitespace that follows (-%}, -}}, -#}),
	// or trim one newline (trim_blocks, after %} and #}).
	stripNext, trimNewline := false, false
	first := true
	// lead applies the previous tag's right side to the text after it and
	// says whether the lexer is then at the start of a line (its
	// line_starting: the tag's match ended with a newline).
	lead := func(t string) (string, bool) {
		starting := first
		switch {
		case stripNext:
			s := strings.TrimLeft(t, wsChars)
			starting = len(s) < len(t) && t[len(t)-len(s)-1] == '\n'
			t = s
		case trimNewline && strings.HasPrefix(t, "\n"):
			t, starting = t[1:], true
		}
		stripNext, trimNewline, first = false, false, false
		return t, starting
	}
	flush := func() {
		if pending.Len() > 0 {
			out.WriteString("{{ " + textVar + "[" + strconv.Itoa(len(texts)) + "] }}")
			texts = append(texts, pending.String())
			pending.Reset()
		}
	}
	afterTag := func(kind, closeSign byte) {
		stripNext = closeSign == '-'
		trimNewline = kind != '{' && closeSign != '-' && closeSign != '+'
	}
	i := 0
	for i < len(src) {
		open := indexTag(src, i)
		if open < 0 {
			t, _ := lead(src[i:])
			pending.WriteString(t)
			break
		}
		kind := src[open+1]
		sign := byte(0)
		if open+2 < len(src) && (src[open+2] == '-' || src[open+2] == '+') {
			sign = src[open+2]
		}
		before, starting := lead(src[i:open])
		switch {
		case sign == '-':
			before = strings.TrimRight(before, wsChars)
		case sign != '+' && kind != '{':
			// lstrip_blocks: only spaces and tabs between the last
			// newline (or the start of a line) and the tag
			lpos := strings.LastIndexByte(before, '\n') + 1
			if (lpos > 0 || starting) && strings.Trim(before[lpos:], wsChars) == "" {
				before = before[:lpos]
			}
		}
		pending.WriteString(before)
		bodyStart := open + 2
		if sign != 0 {
			bodyStart++
		}
		if kind == '#' {
			end := strings.Index(src[bodyStart:], "#}")
			if end < 0 {
				// unterminated comment: let the engine report it
				flush()
				out.WriteString(src[open:])
				return out.String(), texts
			}
			body := src[bodyStart : bodyStart+end]
			closeSign := byte(0)
			if strings.HasSuffix(body, "-") || strings.HasSuffix(body, "+") {
				closeSign = body[len(body)-1]
			}
			afterTag(kind, closeSign)
			i = bodyStart + end + 2
			continue
		}
		closer := "}}"
		if kind == '%' {
			closer = "%}"
		}
		next, body := rewriteTag(src, bodyStart, closer)
		inner := strings.TrimSuffix(body, closer)
		closeSign := byte(0)
		if strings.HasSuffix(inner, "-") || strings.HasSuffix(inner, "+") {
			closeSign = inner[len(inner)-1]
			inner = inner[:len(inner)-1]
		}
		if kind == '%' && isRawTag(inner) {
			// the raw block's content is text, as the lexer reads it
			afterTag(kind, closeSign)
			rest := src[next:]
			j, endLen, endOpenSign, endCloseSign := rawEnd(rest)
			content, _ := lead(rest[:j])
			if endOpenSign == '-' {
				content = strings.TrimRight(content, wsChars)
			}
			pending.WriteString(content)
			afterTag(kind, endCloseSign)
			i = next + j + endLen
			continue
		}
		flush()
		if kind == '{' {
			// written as Python's str() writes the value
			inner = " " + strName + "((" + inner + ")) "
		}
		out.WriteString(src[open:open+2] + inner + closer)
		afterTag(kind, closeSign)
		i = next
	}
	flush()
	return out.String(), texts
}

// wsChars is the whitespace Python's str.strip() and \s remove (ASCII).
const wsChars = " \t\n\r\f\v"

// textVar is the variable that holds a prepared template's texts.
const textVar = "__bfcl_text"

// indexTag is the position of the next "{{", "{%" or "{#" at or after i.
func indexTag(src string, i int) int {
	for j := i; j+1 < len(src); j++ {
		if src[j] == '{' && (src[j+1] == '{' || src[j+1] == '%' || src[j+1] == '#') {
			return j
		}
	}
	return -1
}

// boundFilters are the filters done here rather than by the engine, by
// the names Apply binds them to: transformers' tojson, string and join,
// which write values as Python's str() does, and sort, whose attribute=
// and case folding the engine does not have.
var boundFilters = map[string]string{"tojson": tojsonName, "string": stringName, "join": joinName, "sort": sortName}

// rewriteTag reads a tag's body from start to its closer (included),
// outside string literals, and returns the position after it and the body
// with every filter of boundFilters renamed.
func rewriteTag(src string, start int, closer string) (int, string) {
	var b strings.Builder
	var quote byte
	for i := start; i < len(src); i++ {
		c := src[i]
		switch {
		case quote != 0:
			b.WriteByte(c)
			if c == '\\' && i+1 < len(src) {
				i++
				b.WriteByte(src[i])
			} else if c == quote {
				quote = 0
			}
		case c == '\'' || c == '"':
			quote = c
			b.WriteByte(c)
		case strings.HasPrefix(src[i:], closer):
			b.WriteString(closer)
			return i + len(closer), b.String()
		case c == '|' && (i+1 >= len(src) || src[i+1] != '|'):
			b.WriteByte(c)
			j := i + 1
			for j < len(src) && (src[j] == ' ' || src[j] == '\t' || src[j] == '\n' || src[j] == '\r') {
				j++
			}
			k := j
			for k < len(src) && isIdent(src[k]) {
				k++
			}
			if bound, ok := boundFilters[src[j:k]]; ok {
				b.WriteString(src[i+1 : j])
				b.WriteString(bound)
				i = k - 1
			}
		default:
			b.WriteByte(c)
		}
	}
	return len(src), b.String()
}

func isIdent(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

func isRawTag(inner string) bool { return strings.TrimSpace(inner) == "raw" }

// rawEnd finds the {% endraw %} tag in s: its position, its length and the
// signs (-, + or 0) on its two sides; len(s) when there is none.
func rawEnd(s string) (pos, length int, openSign, closeSign byte) {
	for i := 0; ; {
		j := strings.Index(s[i:], "{%")
		if j < 0 {
			return len(s), 0, 0, 0
		}
		k := strings.Index(s[i+j:], "%}")
		if k < 0 {
			return len(s), 0, 0, 0
		}
		inner := s[i+j+2 : i+j+k]
		var o, c byte
		if strings.HasPrefix(inner, "-") || strings.HasPrefix(inner, "+") {
			o, inner = inner[0], inner[1:]
		}
		if strings.HasSuffix(inner, "-") || strings.HasSuffix(inner, "+") {
			c, inner = inner[len(inner)-1], inner[:len(inner)-1]
		}
		if strings.TrimSpace(inner) == "endraw" {
			return i + j, k + 2, o, c
		}
		i += j + 2
	}
}
