package prompt

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/bfcl-go/bfcl/internal/python/pyval"
)

// A small XML parser reproducing what upstream's ET.fromstring (CPython's
// xml.etree.ElementTree over expat, with namespace processing) returns and
// raises for the documents the XML return formats hand it: element tags and
// attributes ("{uri}local" when namespaced), the text before the first
// child, and expat's error texts and positions ("mismatched tag: line 1,
// column 40"). Comments, processing instructions and tails are parsed and
// dropped, as ElementTree's default tree builder does. There is no DTD
// support: the documents always start with <functions>, so a DOCTYPE can
// only appear in content, where expat rejects it.

const (
	xmlNamespaceURI   = "http://www.w3.org/XML/1998/namespace"
	xmlnsNamespaceURI = "http://www.w3.org/2000/xmlns/"
)

// xmlElement is one element of the parsed tree.
type xmlElement struct {
	tag      string
	attrs    []xmlAttr // in document order, xmlns declarations removed
	text     string
	children []*xmlElement
}

type xmlAttr struct{ name, value string }

// attr is elem.attrib.get(name).
func (e *xmlElement) attr(name string) (string, bool) {
	for i := len(e.attrs) - 1; i >= 0; i-- {
		if e.attrs[i].name == name {
			return e.attrs[i].value, true
		}
	}
	return "", false
}

// findAll is elem.findall(tag) for a plain tag: the direct children with
// that tag.
func (e *xmlElement) findAll(tag string) []*xmlElement {
	var out []*xmlElement
	for _, c := range e.children {
		if c.tag == tag {
			out = append(out, c)
		}
	}
	return out
}

// find is elem.find(tag): the first such child or nil.
func (e *xmlElement) find(tag string) *xmlElement {
	for _, c := range e.children {
		if c.tag == tag {
			return c
		}
	}
	return nil
}

// xmlSyntaxError carries an expat error code text and byte offset.
type xmlSyntaxError struct {
	msg string
	at  int
}

type xmlParser struct {
	src   string
	stack []*openElem
	root  *xmlElement
}

type openElem struct {
	raw  string // raw qualified name, for end-tag matching
	elem *xmlElement
	ns   map[string]string // prefix -> uri bindings in scope ("" = default)
}

// parseXMLDocument is ET.fromstring(src). Errors are *pyval.Exception
// values of type ParseError (or UnicodeEncodeError for lone surrogates,
// which Python cannot encode for expat).
func parseXMLDocument(src string) (root *xmlElement, err error) {
	if e := surrogateError(src); e != nil {
		return nil, e
	}
	p := &xmlParser{src: src}
	if serr := p.parse(); serr != nil {
		line, col := p.position(serr.at)
		return nil, pyval.NewException("ParseError", fmt.Sprintf("%s: line %d, column %d", serr.msg, line, col))
	}
	return p.root, nil
}

// surrogateError is the UnicodeEncodeError str.encode("utf-8") raises for
// lone surrogates (stored WTF-8 style by pyval).
func surrogateError(s string) error {
	idx := 0
	first, last := -1, -1
	var firstRune rune
	for i := 0; i < len(s); {
		if isSurrogateAt(s, i) {
			if first < 0 {
				first = idx
				firstRune = rune(s[i]&0x0f)<<12 | rune(s[i+1]&0x3f)<<6 | rune(s[i+2]&0x3f)
			}
			if last == idx-1 || last < 0 {
				last = idx
			}
			i += 3
			idx++
			continue
		}
		if first >= 0 {
			break
		}
		_, n := utf8.DecodeRuneInString(s[i:])
		i += n
		idx++
	}
	if first < 0 {
		return nil
	}
	if last == first {
		return pyval.NewException("UnicodeEncodeError", fmt.Sprintf("'utf-8' codec can't encode character '\\u%04x' in position %d: surrogates not allowed", firstRune, first))
	}
	return pyval.NewException("UnicodeEncodeError", fmt.Sprintf("'utf-8' codec can't encode characters in position %d-%d: surrogates not allowed", first, last))
}

func isSurrogateAt(s string, i int) bool {
	return i+2 < len(s) && s[i] == 0xED && s[i+1] >= 0xA0 && s[i+1] <= 0xBF && s[i+2] >= 0x80 && s[i+2] <= 0xBF
}

// position is expat's line (1-based) and column (0-based, in characters)
// of byte offset at; CR, LF and CR LF end a line.
func (p *xmlParser) position(at int) (int, int) {
	line, col := 1, 0
	s := p.src
	for i := 0; i < at && i < len(s); {
		switch s[i] {
		case '\n':
			line, col = line+1, 0
			i++
		case '\r':
			line, col = line+1, 0
			i++
			if i < at && i < len(s) && s[i] == '\n' {
				i++
			}
		default:
			_, n := utf8.DecodeRuneInString(s[i:])
			i += n
			col++
		}
	}
	return line, col
}

// Character classes (expat's byte types for UTF-8 input).

func (p *xmlParser) runeAt(i int) (rune, int) {
	return utf8.DecodeRuneInString(p.src[i:])
}

func isXMLSpace(r rune) bool { return r == ' ' || r == '\t' || r == '\n' || r == '\r' }

// isNonXML: characters expat rejects anywhere (control characters other
// than tab, LF and CR; U+FFFE and U+FFFF; bytes that are not UTF-8).
func isNonXML(r rune, n int) bool {
	if r == utf8.RuneError && n <= 1 {
		return true
	}
	return (r < 0x20 && r != '\t' && r != '\n' && r != '\r') || r == 0xFFFE || r == 0xFFFF
}

// isNameStart / isNameChar are expat's name-character classes: ASCII
// letters and '_' start a name, digits, '-' and '.' may follow; other BMP
// characters per the tables of xmlnames.go; nothing outside the BMP.
func isNameStart(r rune) bool {
	if r < 0x80 {
		return r == '_' || (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z')
	}
	return r <= 0xFFFF && inRanges(r, expatNameStart)
}

func isNameChar(r rune) bool {
	if r < 0x80 {
		return isNameStart(r) || r == '-' || r == '.' || (r >= '0' && r <= '9')
	}
	return r <= 0xFFFF && inRanges(r, expatNameChar)
}

// scanName requires a name start character at i and returns the index
// after the name characters that follow (and ':' when colon is true).
func (p *xmlParser) scanName(i int, colon bool) (int, *xmlSyntaxError) {
	r, n := p.runeAt(i)
	if !isNameStart(r) {
		return 0, invalid(i)
	}
	for i += n; i < len(p.src); {
		r, n = p.runeAt(i)
		if !isNameChar(r) && !(colon && r == ':') {
			break
		}
		i += n
	}
	return i, nil
}

func invalid(at int) *xmlSyntaxError { return &xmlSyntaxError{"not well-formed (invalid token)", at} }

func (p *xmlParser) parse() *xmlSyntaxError {
	s := p.src
	// The documents handed to this parser start with a start tag
	// (<functions>); anything else before it is a syntax error for expat.
	if !strings.HasPrefix(s, "<") {
		if len(s) == 0 {
			return &xmlSyntaxError{"no element found", 0}
		}
		return &xmlSyntaxError{"syntax error", 0}
	}
	pos := 0
	var text strings.Builder
	flush := func() {
		if text.Len() == 0 {
			return
		}
		if n := len(p.stack); n > 0 {
			top := p.stack[n-1].elem
			if len(top.children) == 0 {
				top.text += text.String()
			}
		}
		text.Reset()
	}
	for {
		if len(p.stack) == 0 && p.root != nil {
			return p.epilog(pos)
		}
		if pos >= len(s) {
			return &xmlSyntaxError{"no element found", len(s)}
		}
		c := s[pos]
		switch {
		case c == '<':
			flush()
			next, err := p.markup(pos, &text)
			if err != nil {
				return err
			}
			pos = next
		case c == '&':
			r, next, err := p.reference(pos)
			if err != nil {
				return err
			}
			text.WriteString(r)
			pos = next
		case c == '\r':
			text.WriteByte('\n')
			pos++
			if pos < len(s) && s[pos] == '\n' {
				pos++
			}
		case c == ']' && strings.HasPrefix(s[pos:], "]]>"):
			return invalid(pos + 2)
		default:
			r, n := p.runeAt(pos)
			if isNonXML(r, n) {
				return invalid(pos)
			}
			text.WriteString(s[pos : pos+n])
			pos += n
		}
		if len(p.stack) == 0 && p.root == nil {
			return &xmlSyntaxError{"syntax error", 0}
		}
	}
}

// epilog: after the root element only white space, comments and
// processing instructions may follow.
func (p *xmlParser) epilog(pos int) *xmlSyntaxError {
	s := p.src
	for pos < len(s) {
		switch {
		case isXMLSpace(rune(s[pos])):
			pos++
		case strings.HasPrefix(s[pos:], "<!--"):
			next, err := p.comment(pos)
			if err != nil {
				return err
			}
			pos = next
		case strings.HasPrefix(s[pos:], "<?"):
			next, err := p.pi(pos)
			if err != nil {
				return err
			}
			pos = next
		default:
			return &xmlSyntaxError{"junk after document element", pos}
		}
	}
	return nil
}

// markup handles a token starting with '<' at t0.
func (p *xmlParser) markup(t0 int, text *strings.Builder) (int, *xmlSyntaxError) {
	s := p.src
	unclosed := &xmlSyntaxError{"unclosed token", t0}
	if t0+1 >= len(s) {
		return 0, unclosed
	}
	switch s[t0+1] {
	case '/':
		return p.endTag(t0)
	case '?':
		return p.pi(t0)
	case '!':
		if t0+2 >= len(s) {
			return 0, unclosed
		}
		switch s[t0+2] {
		case '-':
			return p.comment(t0)
		case '[':
			return p.cdata(t0, text)
		}
		return 0, invalid(t0 + 2)
	}
	r, _ := p.runeAt(t0 + 1)
	if !isNameStart(r) {
		return 0, invalid(t0 + 1)
	}
	return p.startTag(t0)
}

// qname scans a name (with at most one ':' followed by a name start) at i
// and returns the index after it.
func (p *xmlParser) qname(i, t0 int) (int, *xmlSyntaxError) {
	s := p.src
	hadColon := false
	r, n := p.runeAt(i)
	if i >= len(s) {
		return 0, &xmlSyntaxError{"unclosed token", t0}
	}
	if !isNameStart(r) {
		return 0, invalid(i)
	}
	i += n
	for i < len(s) {
		r, n = p.runeAt(i)
		switch {
		case r == ':':
			if hadColon {
				return 0, invalid(i)
			}
			hadColon = true
			i++
			if i >= len(s) {
				return 0, &xmlSyntaxError{"unclosed token", t0}
			}
			r2, n2 := p.runeAt(i)
			if !isNameStart(r2) {
				return 0, invalid(i)
			}
			i += n2
		case isNameChar(r):
			i += n
		default:
			return i, nil
		}
	}
	return 0, &xmlSyntaxError{"unclosed token", t0}
}

type rawAttr struct {
	name     string
	namePos  int
	valStart int
	valEnd   int
}

func (p *xmlParser) skipSpace(i int) int {
	for i < len(p.src) && isXMLSpace(rune(p.src[i])) {
		i++
	}
	return i
}

// startTag scans "<name attrs... >" or "/>" and opens the element.
func (p *xmlParser) startTag(t0 int) (int, *xmlSyntaxError) {
	s := p.src
	unclosed := &xmlSyntaxError{"unclosed token", t0}
	i, err := p.qname(t0+1, t0)
	if err != nil {
		return 0, err
	}
	name := s[t0+1 : i]
	var attrs []rawAttr
	empty := false
	for {
		if i >= len(s) {
			return 0, unclosed
		}
		c := s[i]
		if c == '>' {
			i++
			break
		}
		if c == '/' {
			if i+1 >= len(s) {
				return 0, unclosed
			}
			if s[i+1] != '>' {
				return 0, invalid(i + 1)
			}
			i += 2
			empty = true
			break
		}
		if !isXMLSpace(rune(c)) {
			return 0, invalid(i)
		}
		i = p.skipSpace(i)
		if i >= len(s) {
			return 0, unclosed
		}
		if s[i] == '>' || s[i] == '/' {
			continue
		}
		// attribute
		a := rawAttr{namePos: i}
		j, err := p.qname(i, t0)
		if err != nil {
			return 0, err
		}
		a.name = s[i:j]
		j = p.skipSpace(j)
		if j >= len(s) {
			return 0, unclosed
		}
		if s[j] != '=' {
			return 0, invalid(j)
		}
		j = p.skipSpace(j + 1)
		if j >= len(s) {
			return 0, unclosed
		}
		q := s[j]
		if q != '"' && q != '\'' {
			return 0, invalid(j)
		}
		j++
		a.valStart = j
		for {
			if j >= len(s) {
				return 0, unclosed
			}
			c := s[j]
			if c == q {
				break
			}
			switch c {
			case '<':
				return 0, invalid(j)
			case '&':
				end, err := p.scanRef(j, t0)
				if err != nil {
					return 0, err
				}
				j = end
				continue
			}
			r, n := p.runeAt(j)
			if isNonXML(r, n) {
				return 0, invalid(j)
			}
			j += n
		}
		a.valEnd = j
		j++
		if j >= len(s) {
			return 0, unclosed
		}
		if c := s[j]; !isXMLSpace(rune(c)) && c != '/' && c != '>' {
			return 0, invalid(j)
		}
		attrs = append(attrs, a)
		i = j
	}
	if err := p.open(t0, name, attrs); err != nil {
		return 0, err
	}
	if empty {
		p.close()
	}
	return i, nil
}

// scanRef checks the syntax of a reference starting with '&' at i and
// returns the index after its ';'.
func (p *xmlParser) scanRef(i, t0 int) (int, *xmlSyntaxError) {
	s := p.src
	unclosed := &xmlSyntaxError{"unclosed token", t0}
	j := i + 1
	if j >= len(s) {
		return 0, unclosed
	}
	if s[j] == '#' {
		j++
		if j >= len(s) {
			return 0, unclosed
		}
		hex := false
		if s[j] == 'x' {
			hex = true
			j++
			if j >= len(s) {
				return 0, unclosed
			}
		}
		digit := func(c byte) bool {
			if hex {
				return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')
			}
			return c >= '0' && c <= '9'
		}
		if !digit(s[j]) {
			return 0, invalid(j)
		}
		for j++; j < len(s); j++ {
			if s[j] == ';' {
				return j + 1, nil
			}
			if !digit(s[j]) {
				return 0, invalid(j)
			}
		}
		return 0, unclosed
	}
	j, err := p.scanName(j, false)
	switch {
	case err != nil:
		return 0, err
	case j >= len(s):
		return 0, unclosed
	case s[j] != ';':
		return 0, invalid(j)
	}
	return j + 1, nil
}

// refValue is the replacement text of a syntactically valid reference
// s[i:end] ("&...;"); ok is false for an undefined entity. A character
// number XML does not allow is an error at i.
func (p *xmlParser) refValue(i, end int) (string, bool, *xmlSyntaxError) {
	body := p.src[i+1 : end-1]
	if strings.HasPrefix(body, "#") {
		var n uint64
		var err error
		if strings.HasPrefix(body, "#x") {
			n, err = strconv.ParseUint(body[2:], 16, 32)
		} else {
			n, err = strconv.ParseUint(body[1:], 10, 32)
		}
		r := rune(n)
		if err != nil || n > 0x10FFFF || (n >= 0xD800 && n <= 0xDFFF) || n == 0xFFFE || n == 0xFFFF ||
			(n < 0x20 && n != '\t' && n != '\n' && n != '\r') {
			return "", false, &xmlSyntaxError{"reference to invalid character number", i}
		}
		return string(r), true, nil
	}
	switch body {
	case "lt":
		return "<", true, nil
	case "gt":
		return ">", true, nil
	case "amp":
		return "&", true, nil
	case "quot":
		return "\"", true, nil
	case "apos":
		return "'", true, nil
	}
	return "", false, nil
}

// reference handles a reference in content.
func (p *xmlParser) reference(i int) (string, int, *xmlSyntaxError) {
	end, err := p.scanRef(i, i)
	if err != nil {
		return "", 0, err
	}
	v, ok, err := p.refValue(i, end)
	if err != nil {
		return "", 0, err
	}
	if !ok {
		return "", 0, &xmlSyntaxError{"undefined entity", i}
	}
	return v, end, nil
}

// attrValue normalizes an attribute value: references replaced, each
// white-space character or line break (CR LF counts once) becomes a space.
func (p *xmlParser) attrValue(a rawAttr, t0 int) (string, *xmlSyntaxError) {
	s := p.src
	var b strings.Builder
	for i := a.valStart; i < a.valEnd; {
		c := s[i]
		switch c {
		case '&':
			end, _ := p.scanRef(i, t0)
			v, ok, err := p.refValue(i, end)
			if err != nil {
				return "", err
			}
			if !ok {
				return "", &xmlSyntaxError{"undefined entity", t0}
			}
			b.WriteString(v)
			i = end
		case '\r':
			b.WriteByte(' ')
			i++
			if i < a.valEnd && s[i] == '\n' {
				i++
			}
		case '\n', '\t':
			b.WriteByte(' ')
			i++
		default:
			b.WriteByte(c)
			i++
		}
	}
	return b.String(), nil
}

// open applies expat's attribute and namespace processing to a scanned
// start tag and pushes the element.
func (p *xmlParser) open(t0 int, name string, raw []rawAttr) *xmlSyntaxError {
	parentNS := map[string]string{"xml": xmlNamespaceURI}
	if n := len(p.stack); n > 0 {
		parentNS = p.stack[n-1].ns
	}
	ns := parentNS
	copied := false
	bind := func(prefix, uri string) {
		if !copied {
			cp := make(map[string]string, len(parentNS)+1)
			for k, v := range parentNS {
				cp[k] = v
			}
			ns, copied = cp, true
		}
		if uri == "" {
			delete(ns, prefix)
		} else {
			ns[prefix] = uri
		}
	}
	type attVal struct {
		name, value string
	}
	var plain []attVal
	for i, a := range raw {
		for _, b := range raw[:i] {
			if b.name == a.name {
				return &xmlSyntaxError{"duplicate attribute", a.namePos}
			}
		}
		v, err := p.attrValue(a, t0)
		if err != nil {
			return err
		}
		switch {
		case a.name == "xmlns":
			if v == xmlNamespaceURI || v == xmlnsNamespaceURI {
				return &xmlSyntaxError{"prefix must not be bound to one of the reserved namespace names", t0}
			}
			bind("", v)
		case strings.HasPrefix(a.name, "xmlns:"):
			prefix := a.name[len("xmlns:"):]
			switch {
			case prefix == "xmlns":
				return &xmlSyntaxError{"reserved prefix (xmlns) must not be declared or undeclared", t0}
			case prefix == "xml":
				if v != xmlNamespaceURI {
					return &xmlSyntaxError{"reserved prefix (xml) must not be undeclared or bound to another namespace name", t0}
				}
			case v == "":
				return &xmlSyntaxError{"must not undeclare prefix", t0}
			case v == xmlNamespaceURI || v == xmlnsNamespaceURI:
				return &xmlSyntaxError{"prefix must not be bound to one of the reserved namespace names", t0}
			default:
				bind(prefix, v)
			}
		default:
			plain = append(plain, attVal{a.name, v})
		}
	}
	elem := &xmlElement{}
	seen := map[string]bool{}
	for _, a := range plain {
		key := a.name
		if k := strings.IndexByte(a.name, ':'); k >= 0 {
			uri, ok := ns[a.name[:k]]
			if !ok {
				return &xmlSyntaxError{"unbound prefix", t0}
			}
			key = "{" + uri + "}" + a.name[k+1:]
		}
		if seen[key] {
			return &xmlSyntaxError{"duplicate attribute", t0}
		}
		seen[key] = true
		elem.attrs = append(elem.attrs, xmlAttr{key, a.value})
	}
	if k := strings.IndexByte(name, ':'); k >= 0 {
		uri, ok := ns[name[:k]]
		if !ok {
			return &xmlSyntaxError{"unbound prefix", t0}
		}
		elem.tag = "{" + uri + "}" + name[k+1:]
	} else if uri, ok := ns[""]; ok {
		elem.tag = "{" + uri + "}" + name
	} else {
		elem.tag = name
	}
	if n := len(p.stack); n > 0 {
		parent := p.stack[n-1].elem
		parent.children = append(parent.children, elem)
	} else {
		p.root = elem
	}
	p.stack = append(p.stack, &openElem{raw: name, elem: elem, ns: ns})
	return nil
}

func (p *xmlParser) close() { p.stack = p.stack[:len(p.stack)-1] }

// endTag scans "</name S* >" and closes the open element.
func (p *xmlParser) endTag(t0 int) (int, *xmlSyntaxError) {
	s := p.src
	i := t0 + 2
	if i >= len(s) {
		return 0, &xmlSyntaxError{"unclosed token", t0}
	}
	i, err := p.scanName(i, true)
	if err != nil {
		return 0, err
	}
	name := s[t0+2 : i]
	i = p.skipSpace(i)
	if i >= len(s) {
		return 0, &xmlSyntaxError{"unclosed token", t0}
	}
	if s[i] != '>' {
		return 0, invalid(i)
	}
	if len(p.stack) == 0 || p.stack[len(p.stack)-1].raw != name {
		return 0, &xmlSyntaxError{"mismatched tag", t0 + 2}
	}
	p.close()
	return i + 1, nil
}

// comment scans "<!-- ... -->".
func (p *xmlParser) comment(t0 int) (int, *xmlSyntaxError) {
	s := p.src
	i := t0 + 3
	if i >= len(s) {
		return 0, &xmlSyntaxError{"unclosed token", t0}
	}
	if s[i] != '-' {
		return 0, invalid(i)
	}
	for i++; i < len(s); {
		if s[i] == '-' {
			if i+1 >= len(s) {
				break
			}
			if s[i+1] == '-' {
				if i+2 >= len(s) {
					break
				}
				if s[i+2] != '>' {
					return 0, invalid(i + 2)
				}
				return i + 3, nil
			}
		}
		r, n := p.runeAt(i)
		if isNonXML(r, n) {
			return 0, invalid(i)
		}
		i += n
	}
	return 0, &xmlSyntaxError{"unclosed token", t0}
}

// cdata scans "<![CDATA[ ... ]]>" and appends its text.
func (p *xmlParser) cdata(t0 int, text *strings.Builder) (int, *xmlSyntaxError) {
	s := p.src
	const open = "CDATA["
	i := t0 + 3
	for k := 0; k < len(open); k++ {
		if i+k >= len(s) {
			return 0, &xmlSyntaxError{"unclosed token", t0}
		}
		if s[i+k] != open[k] {
			return 0, invalid(i + k)
		}
	}
	i += len(open)
	for i < len(s) {
		if strings.HasPrefix(s[i:], "]]>") {
			return i + 3, nil
		}
		c := s[i]
		if c == '\r' {
			text.WriteByte('\n')
			i++
			if i < len(s) && s[i] == '\n' {
				i++
			}
			continue
		}
		r, n := p.runeAt(i)
		if isNonXML(r, n) {
			return 0, invalid(i)
		}
		text.WriteString(s[i : i+n])
		i += n
	}
	return 0, &xmlSyntaxError{"unclosed CDATA section", len(s)}
}

// pi scans "<?target ... ?>".
func (p *xmlParser) pi(t0 int) (int, *xmlSyntaxError) {
	s := p.src
	unclosed := &xmlSyntaxError{"unclosed token", t0}
	i := t0 + 2
	if i >= len(s) {
		return 0, unclosed
	}
	i, err := p.scanName(i, false)
	if err != nil {
		return 0, err
	}
	if i >= len(s) {
		return 0, unclosed
	}
	target := s[t0+2 : i]
	checkTarget := func() *xmlSyntaxError {
		if target == "xml" {
			return &xmlSyntaxError{"XML or text declaration not at start of entity", t0}
		}
		if strings.EqualFold(target, "xml") {
			return invalid(i)
		}
		return nil
	}
	switch {
	case s[i] == '?':
		if err := checkTarget(); err != nil {
			return 0, err
		}
		if i+1 >= len(s) {
			return 0, unclosed
		}
		if s[i+1] != '>' {
			return 0, invalid(i + 1)
		}
		return i + 2, nil
	case isXMLSpace(rune(s[i])):
		if err := checkTarget(); err != nil {
			return 0, err
		}
	default:
		return 0, invalid(i)
	}
	for i++; i < len(s); {
		if s[i] == '?' && i+1 < len(s) && s[i+1] == '>' {
			return i + 2, nil
		}
		r, n := p.runeAt(i)
		if isNonXML(r, n) {
			return 0, invalid(i)
		}
		i += n
	}
	return 0, unclosed
}
