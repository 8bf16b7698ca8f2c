package explain

import (
	"fmt"
	"strings"

	"github.com/bfcl-go/bfcl/internal/python/pyexpr"
	"github.com/bfcl-go/bfcl/internal/python/pyval"
)

// fsNode is one node of a GorillaFileSystem tree read back from its Python
// repr (sim.Directory.PyRepr / sim.File.PyRepr, upstream's __repr__):
//
//	<Directory: NAME, Parent: PARENT, Contents: {'key': NODE, ...}>
//	<<File: NAME, Content: CONTENT>>
type fsNode struct {
	Name    string
	Dir     bool
	Content string   // files
	Keys    []string // directories: content keys in order
	Kids    map[string]*fsNode
}

const (
	dirOpen  = "<Directory: "
	fileOpen = "<<File: "
)

// looksLikeFS reports whether s is a directory repr.
func looksLikeFS(s string) bool { return strings.HasPrefix(s, dirOpen) && strings.HasSuffix(s, "}>") }

// parseFS reads a directory repr; it fails on anything else.
func parseFS(s string) (*fsNode, error) {
	p := &fsParser{s: s}
	n, err := p.dir()
	if err != nil {
		return nil, err
	}
	if p.i != len(s) {
		return nil, fmt.Errorf("file-system repr: trailing text at offset %d", p.i)
	}
	return n, nil
}

type fsParser struct {
	s string
	i int
}

func (p *fsParser) expect(lit string) error {
	if !strings.HasPrefix(p.s[p.i:], lit) {
		return fmt.Errorf("file-system repr: expected %q at offset %d", lit, p.i)
	}
	p.i += len(lit)
	return nil
}

// until reads up to the next occurrence of sep and consumes sep.
func (p *fsParser) until(sep string) (string, error) {
	j := strings.Index(p.s[p.i:], sep)
	if j < 0 {
		return "", fmt.Errorf("file-system repr: %q missing after offset %d", sep, p.i)
	}
	out := p.s[p.i : p.i+j]
	p.i += j + len(sep)
	return out, nil
}

func (p *fsParser) dir() (*fsNode, error) {
	if err := p.expect(dirOpen); err != nil {
		return nil, err
	}
	name, err := p.until(", Parent: ")
	if err != nil {
		return nil, err
	}
	if _, err := p.until(", Contents: "); err != nil {
		return nil, err
	}
	n := &fsNode{Name: name, Dir: true, Kids: map[string]*fsNode{}}
	if strings.HasPrefix(p.s[p.i:], "{...}>") { // a contents dict met again while printed
		p.i += len("{...}>")
		return n, nil
	}
	if err := p.expect("{"); err != nil {
		return nil, err
	}
	for !strings.HasPrefix(p.s[p.i:], "}>") {
		if len(n.Keys) > 0 {
			if err := p.expect(", "); err != nil {
				return nil, err
			}
		}
		key, err := p.strLiteral()
		if err != nil {
			return nil, err
		}
		if err := p.expect(": "); err != nil {
			return nil, err
		}
		var kid *fsNode
		switch {
		case strings.HasPrefix(p.s[p.i:], dirOpen):
			kid, err = p.dir()
		case strings.HasPrefix(p.s[p.i:], fileOpen):
			kid, err = p.file()
		default:
			err = fmt.Errorf("file-system repr: unexpected value at offset %d", p.i)
		}
		if err != nil {
			return nil, err
		}
		if _, dup := n.Kids[key]; !dup {
			n.Keys = append(n.Keys, key)
		}
		n.Kids[key] = kid
	}
	p.i += len("}>")
	return n, nil
}

// file reads a file repr. Its content is printed raw, so the end is the
// first ">>" followed by what may follow a dict value: ", '" / ", \"" (the
// next key) or "}" (the end of the contents).
func (p *fsParser) file() (*fsNode, error) {
	if err := p.expect(fileOpen); err != nil {
		return nil, err
	}
	name, err := p.until(", Content: ")
	if err != nil {
		return nil, err
	}
	for j := p.i; ; {
		k := strings.Index(p.s[j:], ">>")
		if k < 0 {
			return nil, fmt.Errorf("file-system repr: file %q not closed", name)
		}
		end := j + k
		rest := p.s[end+2:]
		if strings.HasPrefix(rest, "}") || strings.HasPrefix(rest, ", '") || strings.HasPrefix(rest, `, "`) {
			content := p.s[p.i:end]
			p.i = end + 2
			return &fsNode{Name: name, Content: content}, nil
		}
		j = end + 1
	}
}

// strLiteral reads a Python str repr ('...' or "...") and returns its value.
func (p *fsParser) strLiteral() (string, error) {
	if p.i >= len(p.s) || (p.s[p.i] != '\'' && p.s[p.i] != '"') {
		return "", fmt.Errorf("file-system repr: expected a quoted key at offset %d", p.i)
	}
	q := p.s[p.i]
	j := p.i + 1
	for ; j < len(p.s) && p.s[j] != q; j++ {
		if p.s[j] == '\\' {
			j++
		}
	}
	if j >= len(p.s) {
		return "", fmt.Errorf("file-system repr: unterminated key at offset %d", p.i)
	}
	lit := p.s[p.i : j+1]
	p.i = j + 1
	e, err := pyexpr.Parse(lit)
	if err != nil {
		return "", fmt.Errorf("file-system repr: key %s: %w", lit, err)
	}
	v, err := pyexpr.LiteralEval(e)
	if err != nil {
		return "", fmt.Errorf("file-system repr: key %s: %w", lit, err)
	}
	s, ok := v.(pyval.Str)
	if !ok {
		return "", fmt.Errorf("file-system repr: key %s is not a str", lit)
	}
	return string(s), nil
}

// diffFS lists what differs between two trees, by path below the root:
// entries only on one side (a directory is reported once, not its
// contents), files whose content differs, a file on one side where the
// other has a directory.
func diffFS(prefix string, m, g *fsNode, out []Change) []Change {
	if m.Name != g.Name {
		out = append(out, Change{Path: prefix, Kind: KindChanged, Model: "name " + m.Name, GroundTruth: "name " + g.Name})
	}
	for _, k := range m.Keys {
		mk, gk := m.Kids[k], g.Kids[k]
		path := prefix + "/" + k
		switch {
		case gk == nil:
			out = append(out, Change{Path: path, Kind: KindOnlyModel, Model: fsSummary(mk)})
		case mk.Dir && gk.Dir:
			out = diffFS(path, mk, gk, out)
		case mk.Dir != gk.Dir:
			out = append(out, Change{Path: path, Kind: KindChanged, Model: fsSummary(mk), GroundTruth: fsSummary(gk)})
		case mk.Content != gk.Content || mk.Name != gk.Name:
			out = append(out, Change{Path: path, Kind: KindChanged, Model: quote(mk.Content), GroundTruth: quote(gk.Content)})
		}
	}
	for _, k := range g.Keys {
		if m.Kids[k] == nil {
			out = append(out, Change{Path: prefix + "/" + k, Kind: KindOnlyGT, GroundTruth: fsSummary(g.Kids[k])})
		}
	}
	return out
}

func fsSummary(n *fsNode) string {
	if n.Dir {
		return fmt.Sprintf("directory (%d entries)", len(n.Keys))
	}
	return "file " + quote(n.Content)
}
