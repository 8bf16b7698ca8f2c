package websearch

import (
	"html"
	"strings"
	"unicode"

	"github.com/bfcl-go/bfcl/internal/python/pyval"
)

// A small HTML tokenizer, enough for text extraction and for DuckDuckGo's
// result page: tags with attributes, text, comments/declarations (dropped),
// and the raw-text elements script and style (as Python's html.parser
// treats them).

type tokKind int

const (
	tokText tokKind = iota
	tokStart
	tokEnd
)

type token struct {
	kind        tokKind
	name        string // lower-case tag name
	attrs       map[string]string
	text        string // unescaped text
	selfClosing bool
}

func (t token) attr(k string) string { return t.attrs[k] }

func tokenize(s string) []token {
	var out []token
	i := 0
	flushText := func(raw string) {
		if raw != "" {
			out = append(out, token{kind: tokText, text: html.UnescapeString(raw)})
		}
	}
	for i < len(s) {
		lt := strings.IndexByte(s[i:], '<')
		if lt < 0 {
			flushText(s[i:])
			break
		}
		flushText(s[i : i+lt])
		i += lt
		rest := s[i:]
		switch {
		case strings.HasPrefix(rest, "<!--"):
			end := strings.Index(rest[4:], "-->")
			if end < 0 {
				return out
			}
			i += 4 + end + 3
			continue
		case strings.HasPrefix(rest, "<![CDATA["):
			// html.parser reports it as unknown_decl; BeautifulSoup keeps
			// it as CData, which get_text includes.
			end := strings.Index(rest, "]]>")
			if end < 0 {
				return out
			}
			out = append(out, token{kind: tokText, text: rest[len("<![CDATA["):end]})
			i += end + 3
			continue
		case strings.HasPrefix(rest, "<!") || strings.HasPrefix(rest, "<?"):
			end := strings.IndexByte(rest, '>')
			if end < 0 {
				return out
			}
			i += end + 1
			continue
		case strings.HasPrefix(rest, "</"):
			end := strings.IndexByte(rest, '>')
			if end < 0 {
				return out
			}
			name := strings.ToLower(strings.TrimSpace(rest[2:end]))
			if f := strings.IndexFunc(name, unicode.IsSpace); f >= 0 {
				name = name[:f]
			}
			out = append(out, token{kind: tokEnd, name: name})
			i += end + 1
			continue
		}
		if len(rest) < 2 || !isASCIILetter(rest[1]) {
			flushText("<")
			i++
			continue
		}
		t, n := parseStartTag(rest)
		if n == 0 {
			flushText(rest)
			break
		}
		out = append(out, t)
		i += n
		if (t.name == "script" || t.name == "style") && !t.selfClosing {
			closeTag := "</" + t.name
			end := strings.Index(strings.ToLower(s[i:]), closeTag)
			if end < 0 {
				out = append(out, token{kind: tokText, text: s[i:]})
				i = len(s)
				break
			}
			if end > 0 {
				out = append(out, token{kind: tokText, text: s[i : i+end]})
			}
			i += end
		}
	}
	return out
}

func isASCIILetter(c byte) bool { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') }

// parseStartTag parses "<name attr=value ...>" at the start of s and
// returns the token and the bytes consumed (0 if there is no closing '>').
func parseStartTag(s string) (token, int) {
	i := 1
	start := i
	for i < len(s) && !isSpaceByte(s[i]) && s[i] != '>' && s[i] != '/' {
		i++
	}
	t := token{kind: tokStart, name: strings.ToLower(s[start:i]), attrs: map[string]string{}}
	for i < len(s) {
		for i < len(s) && isSpaceByte(s[i]) {
			i++
		}
		if i >= len(s) {
			return token{}, 0
		}
		if s[i] == '>' {
			return t, i + 1
		}
		if s[i] == '/' {
			if i+1 < len(s) && s[i+1] == '>' {
				t.selfClosing = true
				return t, i + 2
			}
			i++
			continue
		}
		ks := i
		for i < len(s) && !isSpaceByte(s[i]) && s[i] != '=' && s[i] != '>' && !(s[i] == '/' && i+1 < len(s) && s[i+1] == '>') {
			i++
		}
		key := strings.ToLower(s[ks:i])
		for i < len(s) && isSpaceByte(s[i]) {
			i++
		}
		val := ""
		if i < len(s) && s[i] == '=' {
			i++
			for i < len(s) && isSpaceByte(s[i]) {
				i++
			}
			if i < len(s) && (s[i] == '"' || s[i] == '\'') {
				q := s[i]
				end := strings.IndexByte(s[i+1:], q)
				if end < 0 {
					return token{}, 0
				}
				val = s[i+1 : i+1+end]
				i += end + 2
			} else {
				vs := i
				for i < len(s) && !isSpaceByte(s[i]) && s[i] != '>' {
					i++
				}
				val = s[vs:i]
			}
		}
		if key != "" {
			if _, dup := t.attrs[key]; !dup {
				t.attrs[key] = html.UnescapeString(val)
			}
		}
	}
	return token{}, 0
}

func isSpaceByte(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' }

// TruncateText is upstream's "truncate" mode: BeautifulSoup(html,
// "html.parser"), script and style elements removed, then
// get_text(separator="\n", strip=True): every text node stripped, empty
// ones dropped, joined by newlines. Comments and declarations are not
// text.
func TruncateText(doc string) string {
	var parts []string
	skip := ""
	for _, t := range tokenize(doc) {
		switch t.kind {
		case tokStart:
			if (t.name == "script" || t.name == "style") && !t.selfClosing && skip == "" {
				skip = t.name
			}
		case tokEnd:
			if t.name == skip {
				skip = ""
			}
		case tokText:
			if skip != "" {
				continue
			}
			if s := pyval.Strip(t.text); s != "" {
				parts = append(parts, s)
			}
		}
	}
	return strings.Join(parts, "\n")
}

// inlineMarks are the Markdown marks MarkdownText writes for the inline
// tags: the same mark at the start tag and at the end tag.
var inlineMarks = map[string]string{"em": "_", "i": "_", "strong": "**", "b": "**", "code": "`"}

// MarkdownText approximates upstream's "markdown" mode (html2text's
// HTML2Text().handle with default options): headings as "#", paragraphs
// and blocks separated by blank lines, links as [text](href), images as
// ![alt](src), list items as "  * ", emphasis as _x_ and **x**, code as
// `x`, script/style dropped. It is NOT byte-identical with html2text (no
// 78-column wrapping, simpler whitespace and table handling).
func MarkdownText(doc string) string {
	var b strings.Builder
	skip := ""
	var hrefs []string
	listDepth := 0
	block := func() {
		s := b.String()
		if s == "" || strings.HasSuffix(s, "\n\n") {
			return
		}
		if strings.HasSuffix(s, "\n") {
			b.WriteString("\n")
		} else {
			b.WriteString("\n\n")
		}
	}
	for _, t := range tokenize(doc) {
		if skip != "" {
			if t.kind == tokEnd && t.name == skip {
				skip = ""
			}
			continue
		}
		if mark, ok := inlineMarks[t.name]; ok && t.kind != tokText {
			b.WriteString(mark)
			continue
		}
		switch t.kind {
		case tokText:
			txt := strings.Join(strings.Fields(t.text), " ")
			if txt == "" {
				if strings.TrimSpace(t.text) == "" && t.text != "" && b.Len() > 0 && !strings.HasSuffix(b.String(), " ") && !strings.HasSuffix(b.String(), "\n") {
					b.WriteString(" ")
				}
				continue
			}
			if unicode.IsSpace(rune(t.text[0])) && b.Len() > 0 && !strings.HasSuffix(b.String(), " ") && !strings.HasSuffix(b.String(), "\n") {
				b.WriteString(" ")
			}
			b.WriteString(txt)
			if unicode.IsSpace(rune(t.text[len(t.text)-1])) {
				b.WriteString(" ")
			}
		case tokStart:
			switch t.name {
			case "script", "style", "head", "title":
				if !t.selfClosing {
					skip = t.name
				}
			case "h1", "h2", "h3", "h4", "h5", "h6":
				block()
				b.WriteString(strings.Repeat("#", int(t.name[1]-'0')) + " ")
			case "p", "div", "section", "article", "table", "blockquote", "pre", "header", "footer", "nav":
				block()
			case "br":
				b.WriteString("  \n")
			case "hr":
				block()
				b.WriteString("* * *\n\n")
			case "ul", "ol":
				if listDepth == 0 {
					block()
				}
				listDepth++
			case "li":
				if !strings.HasSuffix(b.String(), "\n") && b.Len() > 0 {
					b.WriteString("\n")
				}
				b.WriteString(strings.Repeat("  ", max(listDepth, 1)) + "* ")
			case "tr":
				if !strings.HasSuffix(b.String(), "\n") && b.Len() > 0 {
					b.WriteString("\n")
				}
			case "td", "th":
				if !strings.HasSuffix(b.String(), "\n") {
					b.WriteString(" | ")
				}
			case "a":
				href := t.attr("href")
				hrefs = append(hrefs, href)
				if href != "" {
					b.WriteString("[")
				}
			case "img":
				if src := t.attr("src"); src != "" {
					b.WriteString("![" + t.attr("alt") + "](" + src + ")")
				}
			}
		case tokEnd:
			switch t.name {
			case "h1", "h2", "h3", "h4", "h5", "h6", "p", "div", "section", "article", "table", "blockquote", "pre", "header", "footer", "nav":
				block()
			case "ul", "ol":
				if listDepth > 0 {
					listDepth--
				}
				if listDepth == 0 {
					block()
				}
			case "a":
				if n := len(hrefs); n > 0 {
					href := hrefs[n-1]
					hrefs = hrefs[:n-1]
					if href != "" {
						b.WriteString("](" + href + ")")
					}
				}
			}
		}
	}
	lines := strings.Split(b.String(), "\n")
	for i, l := range lines {
		if strings.HasSuffix(l, "  ") {
			lines[i] = strings.TrimLeft(l, " ")
			if !strings.HasSuffix(lines[i], "  ") {
				lines[i] += "  "
			}
			continue
		}
		if strings.HasPrefix(strings.TrimLeft(l, " "), "* ") {
			lines[i] = strings.TrimRight(l, " ")
			continue
		}
		lines[i] = strings.TrimSpace(l)
	}
	return strings.TrimRight(strings.Join(lines, "\n"), "\n") + "\n\n"
}
