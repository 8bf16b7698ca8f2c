package upstream

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
)

// ParseModelConfig reads upstream's bfcl_eval/constants/model_config.py and
// returns the entries of MODEL_CONFIG_MAPPING in its order (the api,
// local and third-party maps merged as the `**` spreads list them). It
// understands exactly the subset of Python that file is written in: maps
// of "name": ModelConfig(keyword=literal-or-name, ...) and the merged
// mapping. Anything else in a map is an error naming the line, so a change
// of shape upstream is noticed rather than half-read.
func ParseModelConfig(src string) ([]Entry, error) {
	p := &cfgParser{src: src}
	maps := map[string][]Entry{}
	var order []string
	for {
		name, kind, ok := p.nextAssignment()
		if !ok {
			break
		}
		switch kind {
		case "map":
			es, err := p.parseMap(name)
			if err != nil {
				return nil, err
			}
			maps[name] = es
		case "mapping":
			spreads, err := p.parseSpreads()
			if err != nil {
				return nil, err
			}
			order = spreads
		}
	}
	if order == nil {
		return nil, fmt.Errorf("model_config.py: no MODEL_CONFIG_MAPPING = {**...} found")
	}
	var out []Entry
	seen := map[string]int{}
	for _, m := range order {
		es, ok := maps[m]
		if !ok {
			return nil, fmt.Errorf("model_config.py: MODEL_CONFIG_MAPPING spreads unknown map %s", m)
		}
		for _, e := range es {
			// A later key replaces an earlier one in place, as dict merging does.
			if i, dup := seen[e.Name]; dup {
				out[i] = e
				continue
			}
			seen[e.Name] = len(out)
			out = append(out, e)
		}
	}
	return out, nil
}

type cfgParser struct {
	src string
	pos int
}

func (p *cfgParser) line() int { return strings.Count(p.src[:p.pos], "\n") + 1 }

func (p *cfgParser) errf(format string, args ...any) error {
	return fmt.Errorf("model_config.py:%d: %s", p.line(), fmt.Sprintf(format, args...))
}

// nextAssignment moves to the next top-level `NAME = {` whose name ends in
// _model_map ("map") or is MODEL_CONFIG_MAPPING ("mapping").
func (p *cfgParser) nextAssignment() (name, kind string, ok bool) {
	for p.pos < len(p.src) {
		end := strings.IndexByte(p.src[p.pos:], '\n')
		var ln string
		if end < 0 {
			ln, end = p.src[p.pos:], len(p.src)-p.pos
		} else {
			ln = p.src[p.pos : p.pos+end]
		}
		start := p.pos
		p.pos += end + 1
		if p.pos > len(p.src) {
			p.pos = len(p.src)
		}
		lhs, rhs, found := strings.Cut(ln, "=")
		lhs = strings.TrimSpace(lhs)
		if !found || strings.TrimSpace(rhs) != "{" || lhs == "" || ln[0] == ' ' {
			continue
		}
		switch {
		case strings.HasSuffix(lhs, "_model_map"):
			kind = "map"
		case lhs == "MODEL_CONFIG_MAPPING":
			kind = "mapping"
		default:
			continue
		}
		p.pos = start + strings.IndexByte(ln, '{') + 1
		return lhs, kind, true
	}
	return "", "", false
}

// skip moves past white space and comments.
func (p *cfgParser) skip() {
	for p.pos < len(p.src) {
		c := p.src[p.pos]
		switch {
		case c == '#':
			for p.pos < len(p.src) && p.src[p.pos] != '\n' {
				p.pos++
			}
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			p.pos++
		default:
			return
		}
	}
}

func (p *cfgParser) eat(s string) bool {
	p.skip()
	if strings.HasPrefix(p.src[p.pos:], s) {
		p.pos += len(s)
		return true
	}
	return false
}

func (p *cfgParser) ident() string {
	p.skip()
	i := p.pos
	for i < len(p.src) {
		r := rune(p.src[i])
		if r == '_' || r == '.' || unicode.IsLetter(r) || (i > p.pos && unicode.IsDigit(r)) {
			i++
			continue
		}
		break
	}
	s := p.src[p.pos:i]
	p.pos = i
	return s
}

// str reads one or more adjacent double-quoted literals (implicit
// concatenation); the file uses no escapes, and one is an error.
func (p *cfgParser) str() (string, bool, error) {
	p.skip()
	if p.pos >= len(p.src) || p.src[p.pos] != '"' {
		return "", false, nil
	}
	var b strings.Builder
	for p.pos < len(p.src) && p.src[p.pos] == '"' {
		end := strings.IndexAny(p.src[p.pos+1:], "\"\\\n")
		if end < 0 || p.src[p.pos+1+end] != '"' {
			return "", false, p.errf("string literal with an escape or a line break (not supported)")
		}
		b.WriteString(p.src[p.pos+1 : p.pos+1+end])
		p.pos += end + 2
		save := p.pos
		p.skip()
		if p.pos >= len(p.src) || p.src[p.pos] != '"' {
			p.pos = save
		}
	}
	return b.String(), true, nil
}

func (p *cfgParser) parseSpreads() ([]string, error) {
	var out []string
	for {
		if p.eat("}") {
			return out, nil
		}
		if !p.eat("**") {
			return nil, p.errf("MODEL_CONFIG_MAPPING: expected **map")
		}
		out = append(out, p.ident())
		p.eat(",")
	}
}

func (p *cfgParser) parseMap(mapName string) ([]Entry, error) {
	var out []Entry
	for {
		if p.eat("}") {
			return out, nil
		}
		key, ok, err := p.str()
		if err != nil {
			return nil, err
		}
		if !ok {
			return nil, p.errf("%s: expected a quoted model name", mapName)
		}
		if !p.eat(":") || p.ident() != "ModelConfig" || !p.eat("(") {
			return nil, p.errf("%s[%q]: expected ModelConfig(", mapName, key)
		}
		e := Entry{Name: key, Map: strings.TrimSuffix(mapName, "_model_map"), IsFC: true}
		set := map[string]bool{}
		for !p.eat(")") {
			kw := p.ident()
			if kw == "" || !p.eat("=") {
				return nil, p.errf("%s[%q]: expected keyword=value", mapName, key)
			}
			if set[kw] {
				return nil, p.errf("%s[%q]: keyword %s repeated", mapName, key, kw)
			}
			set[kw] = true
			if err := p.value(&e, kw); err != nil {
				return nil, err
			}
			p.eat(",")
		}
		for _, req := range []string{"model_name", "display_name", "url", "org", "license", "model_handler"} {
			if !set[req] {
				return nil, p.errf("%s[%q]: missing %s", mapName, key, req)
			}
		}
		out = append(out, e)
		p.eat(",")
	}
}

func (p *cfgParser) value(e *Entry, kw string) error {
	s, isStr, err := p.str()
	if err != nil {
		return err
	}
	if isStr {
		switch kw {
		case "model_name":
			e.ModelName = s
		case "display_name":
			e.DisplayName = s
		case "url":
			e.URL = s
		case "org":
			e.Org = s
		case "license":
			e.License = s
		default:
			return p.errf("%s[%q]: %s is a string", e.Map, e.Name, kw)
		}
		return nil
	}
	p.skip()
	start := p.pos
	for p.pos < len(p.src) && !strings.ContainsRune(",)\n #", rune(p.src[p.pos])) {
		p.pos++
	}
	tok := p.src[start:p.pos]
	switch kw {
	case "model_handler":
		if tok == "" || !isIdent(tok) {
			return p.errf("%s[%q]: model_handler %q is not a class name", e.Map, e.Name, tok)
		}
		e.Handler = tok
	case "is_fc_model", "underscore_to_dot":
		if tok != "True" && tok != "False" {
			return p.errf("%s[%q]: %s = %q is not a bool", e.Map, e.Name, kw, tok)
		}
		if kw == "is_fc_model" {
			e.IsFC = tok == "True"
		} else {
			e.UnderscoreToDot = tok == "True"
		}
	case "input_price", "output_price":
		var price *float64
		if tok != "None" {
			f, err := strconv.ParseFloat(tok, 64)
			if err != nil {
				return p.errf("%s[%q]: %s = %q is not a number", e.Map, e.Name, kw, tok)
			}
			price = &f
		}
		if kw == "input_price" {
			e.InputPrice = price
		} else {
			e.OutputPrice = price
		}
	default:
		return p.errf("%s[%q]: unknown keyword %s", e.Map, e.Name, kw)
	}
	return nil
}

func isIdent(s string) bool {
	for i, r := range s {
		if !(r == '_' || unicode.IsLetter(r) || (i > 0 && unicode.IsDigit(r))) {
			return false
		}
	}
	return s != ""
}
