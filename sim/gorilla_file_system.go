package sim

// Port of upstream bfcl_eval/eval_checker/multi_turn_eval/func_source_code/
// gorilla_file_system.py (classes File, Directory, GorillaFileSystem).
// Result and error strings are protocol constants reproduced byte for byte
// from that file.

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/bfcl-go/bfcl/generated/stubs"
	"github.com/bfcl-go/bfcl/internal/python/pyval"
)

// File is upstream's gorilla_file_system.File. Name and Content hold
// whatever Python value the caller supplied (normally str). The private
// _last_modified timestamp of upstream is not kept: nothing observable
// depends on it.
type File struct {
	Name    pyval.Value
	Content pyval.Value
}

// Directory is upstream's gorilla_file_system.Directory. Contents is a
// shared pointer on purpose: upstream's mv/cp assign one directory's dict
// (or a shallow copy of it) to another, so several Directory objects may
// hold the very same dict, and children keep their original Parent.
type Directory struct {
	Name     pyval.Value
	Parent   *Directory
	Contents *pyval.Dict // values are *File or *Directory
}

func newFile(name, content pyval.Value) *File { return &File{Name: name, Content: content} }

func newDirectory(name pyval.Value, parent *Directory) *Directory {
	return &Directory{Name: name, Parent: parent, Contents: pyval.NewDict()}
}

// TypeName implements pyval.Value.
func (*File) TypeName() string { return "File" }

// TypeName implements pyval.Value.
func (*Directory) TypeName() string { return "Directory" }

// PyRepr is upstream's File.__repr__.
func (f *File) PyRepr() string {
	return "<<File: " + pyval.StrOf(f.Name) + ", Content: " + pyval.StrOf(f.Content) + ">>"
}

// PyStr is str(f) (upstream defines only __repr__).
func (f *File) PyStr() string { return f.PyRepr() }

// PyEqual is upstream's File.__eq__: name and content only.
func (f *File) PyEqual(other pyval.Value) bool {
	o, decided, eq := eqOpening(f, other)
	if decided {
		return eq
	}
	return pyval.Equal(f.Name, o.Name) && pyval.Equal(f.Content, o.Content)
}

// eqOpening is how File.__eq__ and Directory.__eq__ begin: an Instance on
// the other side decides by its own __eq__ (Python's reflected call), an
// object of another type is unequal, the same object is equal. Otherwise
// decided is false and o is other as self's type, for the caller to
// compare field by field.
func eqOpening[T interface {
	*File | *Directory
	pyval.Value
}](self T, other pyval.Value) (o T, decided, equal bool) {
	if in, ok := other.(*pyval.Instance); ok {
		return o, true, in.PyEqual(self)
	}
	o, ok := other.(T)
	if !ok {
		return o, true, false
	}
	return o, o == self, o == self
}

// PyJSON is the pyjson v1 encoding {"$File": {"name": ..., "content": ...}}.
func (f *File) PyJSON() any {
	return pyval.OrderedObject{
		{Key: "$File", Value: pyval.OrderedObject{{Key: "name", Value: f.Name}, {Key: "content", Value: f.Content}}},
	}
}

// PyRepr is upstream's Directory.__repr__. A contents dict met again while
// it is being printed shows as {...}, as CPython's dict repr does.
func (d *Directory) PyRepr() string {
	var b strings.Builder
	d.appendRepr(&b, map[*pyval.Dict]bool{})
	return b.String()
}

func (d *Directory) appendRepr(b *strings.Builder, active map[*pyval.Dict]bool) {
	b.WriteString("<Directory: ")
	b.WriteString(pyval.StrOf(d.Name))
	b.WriteString(", Parent: ")
	if d.Parent != nil {
		b.WriteString(pyval.StrOf(d.Parent.Name))
	} else {
		b.WriteString("None")
	}
	b.WriteString(", Contents: ")
	if active[d.Contents] {
		b.WriteString("{...}")
	} else {
		active[d.Contents] = true
		b.WriteByte('{')
		for i, kv := range d.Contents.Items() {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(pyval.Repr(kv.Key))
			b.WriteString(": ")
			switch x := kv.Value.(type) {
			case *Directory:
				x.appendRepr(b, active)
			default:
				b.WriteString(pyval.Repr(x))
			}
		}
		b.WriteByte('}')
		delete(active, d.Contents)
	}
	b.WriteByte('>')
}

// PyStr is str(d) (upstream defines only __repr__).
func (d *Directory) PyStr() string { return d.PyRepr() }

// gfsMaxDepth bounds the recursion of equality and traversal; CPython
// raises RecursionError near this depth (only a directory copied into
// itself can nest that deep).
const gfsMaxDepth = 900

// PyEqual is upstream's Directory.__eq__: name and contents (dict
// equality, order ignored); parent is not compared.
func (d *Directory) PyEqual(other pyval.Value) bool {
	return d.equal(other, 0)
}

func (d *Directory) equal(other pyval.Value, depth int) bool {
	o, decided, eq := eqOpening(d, other)
	if decided {
		return eq
	}
	if depth > gfsMaxDepth || !pyval.Equal(d.Name, o.Name) {
		return false
	}
	if d.Contents == o.Contents {
		return true
	}
	if d.Contents.Len() != o.Contents.Len() {
		return false
	}
	for _, kv := range d.Contents.Items() {
		ov, found := o.Contents.Get(kv.Key)
		if !found {
			return false
		}
		if ov == kv.Value {
			continue
		}
		switch x := kv.Value.(type) {
		case *Directory:
			if !x.equal(ov, depth+1) {
				return false
			}
		default:
			if !pyval.Equal(x, ov) {
				return false
			}
		}
	}
	return true
}

// PyJSON is the pyjson v1 encoding {"$Directory": {"name", "parent",
// "contents"}} where parent is the parent's name or null. The subtree is
// encoded here (not by pyval) so that a directory copied into itself,
// which upstream can create and Python's json refuses as a circular
// reference, ends in a {"$circular": true} marker instead of recursing
// forever.
func (d *Directory) PyJSON() any { return d.pyjson(map[*pyval.Dict]bool{}) }

func (d *Directory) pyjson(active map[*pyval.Dict]bool) any {
	var parent pyval.Value = pyval.None
	if d.Parent != nil {
		parent = d.Parent.Name
	}
	var contents any
	if active[d.Contents] {
		contents = pyval.OrderedObject{{Key: "$circular", Value: true}}
	} else {
		active[d.Contents] = true
		plain := true
		for _, k := range d.Contents.Keys() {
			if s, ok := k.(pyval.Str); !ok || strings.HasPrefix(string(s), "$") {
				plain = false
			}
		}
		child := func(v pyval.Value) any {
			if sub, ok := v.(*Directory); ok {
				return sub.pyjson(active)
			}
			return v
		}
		if plain {
			obj := make(pyval.OrderedObject, 0, d.Contents.Len())
			for _, kv := range d.Contents.Items() {
				obj = append(obj, pyval.Field{Key: string(kv.Key.(pyval.Str)), Value: child(kv.Value)})
			}
			contents = obj
		} else {
			pairs := make([]any, 0, d.Contents.Len())
			for _, kv := range d.Contents.Items() {
				pairs = append(pairs, []any{kv.Key, child(kv.Value)})
			}
			contents = pyval.OrderedObject{{Key: "$dict", Value: pairs}}
		}
		delete(active, d.Contents)
	}
	return pyval.OrderedObject{
		{Key: "$Directory", Value: pyval.OrderedObject{
			{Key: "name", Value: d.Name},
			{Key: "parent", Value: parent},
			{Key: "contents", Value: contents},
		}},
	}
}

// AppendPyJSON writes the bytes of PyJSON() directly
// (pyval.PyJSONAppender).
func (f *File) AppendPyJSON(b []byte) ([]byte, error) {
	b = append(b, `{"$File":{"name":`...)
	b, err := pyval.AppendAny(b, f.Name)
	if err != nil {
		return nil, err
	}
	b = append(b, `,"content":`...)
	if b, err = pyval.AppendAny(b, f.Content); err != nil {
		return nil, err
	}
	return append(b, "}}"...), nil
}

// AppendPyJSON writes the bytes of PyJSON() directly
// (pyval.PyJSONAppender).
func (d *Directory) AppendPyJSON(b []byte) ([]byte, error) {
	var active [8]*pyval.Dict
	return d.appendPyJSON(b, active[:0])
}

// appendPyJSON is pyjson with the contents dicts being written in active.
func (d *Directory) appendPyJSON(b []byte, active []*pyval.Dict) ([]byte, error) {
	b = append(b, `{"$Directory":{"name":`...)
	b, err := pyval.AppendAny(b, d.Name)
	if err != nil {
		return nil, err
	}
	b = append(b, `,"parent":`...)
	if d.Parent != nil {
		b, err = pyval.AppendAny(b, d.Parent.Name)
	} else {
		b = append(b, "null"...)
	}
	if err != nil {
		return nil, err
	}
	b = append(b, `,"contents":`...)
	if slices.Contains(active, d.Contents) {
		b = append(b, `{"$circular":true}`...)
		return append(b, "}}"...), nil
	}
	active = append(active, d.Contents)
	child := func(b []byte, v pyval.Value) ([]byte, error) {
		if sub, ok := v.(*Directory); ok {
			return sub.appendPyJSON(b, active)
		}
		return pyval.AppendAny(b, v)
	}
	plain := true
	for i, n := 0, d.Contents.Len(); i < n; i++ {
		k, _ := d.Contents.At(i)
		if s, ok := k.(pyval.Str); !ok || strings.HasPrefix(string(s), "$") {
			plain = false
			break
		}
	}
	if plain {
		b = append(b, '{')
	} else {
		b = append(b, `{"$dict":[`...)
	}
	for i, n := 0, d.Contents.Len(); i < n; i++ {
		k, v := d.Contents.At(i)
		if i > 0 {
			b = append(b, ',')
		}
		if plain {
			b = pyval.AppendJSONStringUnicode(b, string(k.(pyval.Str)))
			b = append(b, ':')
		} else {
			if b, err = pyval.AppendAny(append(b, '['), k); err != nil {
				return nil, err
			}
			b = append(b, ',')
		}
		if b, err = child(b, v); err != nil {
			return nil, err
		}
		if !plain {
			b = append(b, ']')
		}
	}
	if plain {
		b = append(b, '}')
	} else {
		b = append(b, "]}"...)
	}
	return append(b, "}}"...), nil
}

// PyDeepCopy is copy.deepcopy(f).
func (f *File) PyDeepCopy() pyval.Value {
	return &File{Name: pyval.DeepCopy(f.Name), Content: pyval.DeepCopy(f.Content)}
}

// PyDeepCopy is copy.deepcopy(d): the whole object graph reachable from d
// (contents and parent links) is copied once, so shared contents dicts and
// the parents that mv/cp leave behind stay shared in the copy exactly as
// in the original.
func (d *Directory) PyDeepCopy() pyval.Value {
	return d.deepCopy(&gfsCopyMemo{dirs: map[*Directory]*Directory{}, dicts: map[*pyval.Dict]*pyval.Dict{}, files: map[*File]*File{}})
}

type gfsCopyMemo struct {
	dirs  map[*Directory]*Directory
	dicts map[*pyval.Dict]*pyval.Dict
	files map[*File]*File
}

func (d *Directory) deepCopy(m *gfsCopyMemo) *Directory {
	if c, ok := m.dirs[d]; ok {
		return c
	}
	c := &Directory{Name: pyval.DeepCopy(d.Name)}
	m.dirs[d] = c
	if d.Parent != nil {
		c.Parent = d.Parent.deepCopy(m)
	}
	if nd, ok := m.dicts[d.Contents]; ok {
		c.Contents = nd
		return c
	}
	nd := pyval.NewDict()
	m.dicts[d.Contents] = nd
	c.Contents = nd
	for _, kv := range d.Contents.Items() {
		switch x := kv.Value.(type) {
		case *Directory:
			nd.Set(kv.Key, x.deepCopy(m))
		case *File:
			f, ok := m.files[x]
			if !ok {
				f = x.PyDeepCopy().(*File)
				m.files[x] = f
			}
			nd.Set(kv.Key, f)
		default:
			nd.Set(kv.Key, pyval.DeepCopy(x))
		}
	}
	return c
}

// addFile is upstream's Directory._add_file.
func (d *Directory) addFile(name, content pyval.Value) error {
	return d.add("File", name, newFile(name, content))
}

// addDirectory is upstream's Directory._add_directory.
func (d *Directory) addDirectory(name pyval.Value) error {
	return d.add("Directory", name, newDirectory(name, d))
}

// add is what _add_file and _add_directory share: item goes in under a
// hashable name the directory does not hold yet, else ValueError
// "<kind> '<name>' already exists in directory '<dir>'.".
func (d *Directory) add(kind string, name, item pyval.Value) error {
	if err := pyval.CheckHashable(name); err != nil {
		return err
	}
	if d.Contents.Has(name) {
		return pyval.NewValueError("%s '%s' already exists in directory '%s'.", kind, pyval.StrOf(name), pyval.StrOf(d.Name))
	}
	d.Contents.Set(name, item)
	return nil
}

// getItem is upstream's Directory._get_item: "." is the directory itself,
// anything else a lookup that yields nil when absent.
func (d *Directory) getItem(name pyval.Value) (pyval.Value, error) {
	if s, ok := name.(pyval.Str); ok && s == "." {
		return d, nil
	}
	if err := pyval.CheckHashable(name); err != nil {
		return nil, err
	}
	v, _ := d.Contents.Get(name)
	return v, nil
}

// has is `name in d.contents` (TypeError for an unhashable name).
func (d *Directory) has(name pyval.Value) (bool, error) {
	if err := pyval.CheckHashable(name); err != nil {
		return false, err
	}
	return d.Contents.Has(name), nil
}

// GorillaFileSystem is upstream's GorillaFileSystem.
type GorillaFileSystem struct {
	env         *Env
	longContext bool
	root        *Directory
	currentDir  *Directory
}

// NewGorillaFileSystem returns an instance as upstream's constructor leaves
// it (before _load_scenario).
func NewGorillaFileSystem(env *Env) *GorillaFileSystem { return &GorillaFileSystem{env: env} }

// ClassName implements Instance.
func (*GorillaFileSystem) ClassName() string { return "GorillaFileSystem" }

// LoadScenario is upstream's _load_scenario.
func (g *GorillaFileSystem) LoadScenario(config *pyval.Dict, longContext bool) error {
	g.longContext = longContext
	g.root = newDirectory(pyval.Str("/"), nil)
	if rootV, ok := config.GetStr("root"); ok {
		rootDict, ok := rootV.(*pyval.Dict)
		if !ok {
			return fmt.Errorf("GorillaFileSystem: initial_config root is a %s, not a dict", rootV.TypeName())
		}
		if rootDict.Len() == 0 {
			return pyval.NewIndexError("list index out of range")
		}
		name, spec := rootDict.At(0)
		contents, err := gfsSubscript(spec, "contents")
		if err != nil {
			return err
		}
		rootDir := newDirectory(name, nil)
		if err := g.loadDirectory(contents, rootDir); err != nil {
			return err
		}
		g.root = rootDir
	}
	g.currentDir = g.root
	return nil
}

// gfsSubscript is v[key] for a str key, with Python's errors.
func gfsSubscript(v pyval.Value, key string) (pyval.Value, error) {
	d, ok := v.(*pyval.Dict)
	if !ok {
		return nil, fmt.Errorf("GorillaFileSystem: initial_config node is a %s, expected a dict with key %q", v.TypeName(), key)
	}
	x, ok := d.GetStr(key)
	if !ok {
		return nil, pyval.NewKeyError(pyval.Str(key))
	}
	return x, nil
}

// loadDirectory is upstream's _load_directory, including the long-context
// injection (FILE_CONTENT_EXTENSION appended to files not listed in
// FILES_TAIL_USED; POPULATE_FILE_EXTENSION files added to directories
// without subdirectories).
func (g *GorillaFileSystem) loadDirectory(current pyval.Value, parent *Directory) error {
	cur, ok := current.(*pyval.Dict)
	if !ok {
		return fmt.Errorf("GorillaFileSystem: initial_config contents is a %s, not a dict", current.TypeName())
	}
	bottommost := true
	for _, kv := range cur.Items() {
		typ, err := gfsSubscript(kv.Value, "type")
		if err != nil {
			return err
		}
		switch {
		case pyval.Equal(typ, pyval.Str("directory")):
			bottommost = false
			sub, err := gfsSubscript(kv.Value, "contents")
			if err != nil {
				return err
			}
			nd := newDirectory(kv.Key, parent)
			if err := g.loadDirectory(sub, nd); err != nil {
				return err
			}
			parent.Contents.Set(kv.Key, nd)
		case pyval.Equal(typ, pyval.Str("file")):
			content, err := gfsSubscript(kv.Value, "content")
			if err != nil {
				return err
			}
			if g.longContext {
				used, err := g.lc("FILES_TAIL_USED")
				if err != nil {
					return err
				}
				tail, err := pyval.Contains(used, kv.Key)
				if err != nil {
					return err
				}
				if !tail {
					ext, err := g.lc("FILE_CONTENT_EXTENSION")
					if err != nil {
						return err
					}
					if content, err = pyval.Add(content, ext); err != nil {
						return err
					}
				}
			}
			parent.Contents.Set(kv.Key, newFile(kv.Key, content))
		}
	}
	if bottommost && g.longContext {
		pop, err := g.lc("POPULATE_FILE_EXTENSION")
		if err != nil {
			return err
		}
		names, ok := pop.(*pyval.List)
		if !ok {
			return fmt.Errorf("GorillaFileSystem: POPULATE_FILE_EXTENSION is not a list")
		}
		for _, n := range names.Items {
			if err := parent.addFile(pyval.Str(pyval.StrOf(n)), pyval.Str("")); err != nil {
				return err
			}
		}
	}
	return nil
}

func (g *GorillaFileSystem) lc(name string) (pyval.Value, error) {
	if g.env == nil || g.env.LongContext() == nil {
		return nil, fmt.Errorf("GorillaFileSystem: long_context scenario but the Env carries no long_context.py data (%s)", name)
	}
	return g.env.LC.Get(name), nil
}

// State implements Instance: vars(instance) without private names.
func (g *GorillaFileSystem) State() *pyval.Dict {
	return publicAttrs(g.root != nil,
		"long_context", pyval.Bool(g.longContext),
		"root", g.root,
	)
}

// Root is the root directory (for tests and debugging).
func (g *GorillaFileSystem) Root() *Directory { return g.root }

// gfsError is {"error": msg} with a formatted message.
func gfsError(format string, args ...any) *pyval.Dict {
	return errorDict(fmt.Sprintf(format, args...))
}

// invalidNameChars are the characters _validate_file_or_directory_name
// refuses, in its order, each a str Value (made once).
var invalidNameChars = func() []pyval.Value {
	var out []pyval.Value
	for _, c := range `|/\?%*:"><` {
		out = append(out, pyval.Str(string(c)))
	}
	return out
}()

// validName is upstream's _validate_file_or_directory_name.
func validName(name pyval.Value) (bool, error) {
	for _, c := range invalidNameChars {
		in, err := pyval.Contains(name, c)
		if err != nil {
			return false, err
		}
		if in {
			return false, nil
		}
	}
	return true, nil
}

// Pwd is upstream's pwd(). The loop compares a name with the root
// Directory object, which is never equal, so the root's name is included.
func (g *GorillaFileSystem) Pwd() (pyval.Value, error) {
	var path []pyval.Value
	for dir := g.currentDir; dir != nil; dir = dir.Parent {
		path = append(path, dir.Name)
	}
	slices.Reverse(path)
	joined, err := pyval.Join("/", path)
	if err != nil {
		return nil, err
	}
	return oneKey("current_working_directory", pyval.Str("/"+joined)), nil
}

// Ls is upstream's ls(a=False).
func (g *GorillaFileSystem) Ls(args stubs.GorillaFileSystemLsArgs) (pyval.Value, error) {
	a := args.A.V
	keys := g.currentDir.Contents.Keys()
	if !pyval.Truthy(a) {
		kept := keys[:0]
		for _, k := range keys {
			s, ok := k.(pyval.Str)
			if !ok {
				return nil, pyval.NoAttribute(k, "startswith")
			}
			if !strings.HasPrefix(string(s), ".") {
				kept = append(kept, k)
			}
		}
		keys = kept
	}
	return oneKey("current_directory_content", pyval.NewList(keys...)), nil
}

// Cd is upstream's cd(folder).
func (g *GorillaFileSystem) Cd(args stubs.GorillaFileSystemCdArgs) (pyval.Value, error) {
	folder := args.Folder.V
	fs, ok := folder.(pyval.Str)
	if !ok {
		return nil, pyval.NoAttribute(folder, "rstrip")
	}
	f := strings.TrimRight(string(fs), "/")
	if f == "" {
		f = "/"
	}
	if f != "." && f != ".." && f != "/" && strings.Contains(f, "/") {
		return gfsError("cd: %s: Unsupported path. Only one folder level at a time is supported.", f), nil
	}
	if f == ".." {
		switch {
		case g.currentDir.Parent != nil:
			g.currentDir = g.currentDir.Parent
		case g.root.PyEqual(g.currentDir):
			return gfsError("Current directory is already the root. Cannot go back."), nil
		default:
			return gfsError("cd: ..: No such directory"), nil
		}
		return pyval.NewDict(), nil
	}
	target, errDict, err := g.navigate(pyval.Str(f))
	if err != nil {
		return nil, err
	}
	if errDict != nil {
		return errDict, nil
	}
	g.currentDir = target
	return oneKey("current_working_directory", target.Name), nil
}

// navigate is upstream's _navigate_to_directory: a nil path (None) is the
// current directory; failure is an error dict.
func (g *GorillaFileSystem) navigate(path pyval.Value) (*Directory, *pyval.Dict, error) {
	if path == nil || path == pyval.None {
		return g.currentDir, nil, nil
	}
	if s, ok := path.(pyval.Str); ok {
		if s == "." {
			return g.currentDir, nil, nil
		}
		if s == "/" {
			return g.root, nil, nil
		}
	}
	ps, ok := path.(pyval.Str)
	if !ok {
		return nil, nil, pyval.NoAttribute(path, "strip")
	}
	p := string(ps)
	dirs := strings.Split(strings.Trim(p, "/"), "/")
	temp := g.currentDir
	if strings.HasPrefix(p, "/") {
		temp = g.root
	}
	for _, name := range dirs {
		next, err := temp.getItem(pyval.Str(name))
		if err != nil {
			return nil, nil, err
		}
		nd, ok := next.(*Directory)
		if !ok {
			return nil, gfsError("cd: '%s': No such file or directory", p), nil
		}
		temp = nd
	}
	return temp, nil, nil
}

// invalidName is upstream's _validate_file_or_directory_name check as the
// commands report it: the error dict "<prefix>'<name>': Invalid character"
// for an invalid name, nil for a valid one.
func invalidName(name pyval.Value, prefix string) (*pyval.Dict, error) {
	ok, err := validName(name)
	if err != nil || ok {
		return nil, err
	}
	return gfsError("%s'%s': Invalid character", prefix, pyval.StrOf(name)), nil
}

// lookup is `name in self._current_dir.contents` followed by
// `self._current_dir._get_item(name)`: the item, or the error dict
// "<prefix>'<name>': <missing>" when the current directory lacks name.
func (g *GorillaFileSystem) lookup(name pyval.Value, prefix, missing string) (pyval.Value, *pyval.Dict, error) {
	exists, err := g.currentDir.has(name)
	if err != nil {
		return nil, nil, err
	}
	if !exists {
		return nil, gfsError("%s'%s': %s", prefix, pyval.StrOf(name), missing), nil
	}
	item, err := g.currentDir.getItem(name)
	if err != nil {
		return nil, nil, err
	}
	return item, nil, nil
}

// create is the body mkdir and touch share: validate name, refuse one the
// current directory already holds ("<prefix>'<name>': File exists"), then
// add it with add.
func (g *GorillaFileSystem) create(name pyval.Value, prefix string, add func(name pyval.Value) error) (pyval.Value, error) {
	if d, err := invalidName(name, prefix); err != nil || d != nil {
		return dictOrNil(d), err
	}
	exists, err := g.currentDir.has(name)
	if err != nil {
		return nil, err
	}
	if exists {
		return gfsError("%s'%s': File exists", prefix, pyval.StrOf(name)), nil
	}
	if err := add(name); err != nil {
		return nil, err
	}
	return pyval.None, nil
}

// Mkdir is upstream's mkdir(dir_name).
func (g *GorillaFileSystem) Mkdir(args stubs.GorillaFileSystemMkdirArgs) (pyval.Value, error) {
	return g.create(args.DirName.V, "mkdir: cannot create directory ", g.currentDir.addDirectory)
}

// Touch is upstream's touch(file_name).
func (g *GorillaFileSystem) Touch(args stubs.GorillaFileSystemTouchArgs) (pyval.Value, error) {
	return g.create(args.FileName.V, "touch: cannot touch ", func(name pyval.Value) error {
		return g.currentDir.addFile(name, pyval.Str(""))
	})
}

// Echo is upstream's echo(content, file_name=None).
func (g *GorillaFileSystem) Echo(args stubs.GorillaFileSystemEchoArgs) (pyval.Value, error) {
	content, fileName := args.Content.V, args.FileName.V
	if fileName == nil || fileName == pyval.None {
		return oneKey("terminal_output", content), nil
	}
	const prefix = "echo: cannot write to "
	if d, err := invalidName(fileName, prefix); err != nil || d != nil {
		return dictOrNil(d), err
	}
	if !pyval.Truthy(fileName) {
		return oneKey("terminal_output", content), nil
	}
	item, d, err := g.lookup(fileName, prefix, "No such file")
	if err != nil || d != nil {
		return dictOrNil(d), err
	}
	f, ok := item.(*File)
	if !ok {
		return nil, pyval.NoAttribute(item, "_write")
	}
	f.Content = content
	return pyval.None, nil
}

// Cat is upstream's cat(file_name).
func (g *GorillaFileSystem) Cat(args stubs.GorillaFileSystemCatArgs) (pyval.Value, error) {
	fileName := args.FileName.V
	if d, err := invalidName(fileName, "cat: "); err != nil || d != nil {
		return dictOrNil(d), err
	}
	item, d, err := g.lookup(fileName, "cat: ", "No such file or directory")
	if err != nil || d != nil {
		return dictOrNil(d), err
	}
	if f, ok := item.(*File); ok {
		return oneKey("file_content", f.Content), nil
	}
	return gfsError("cat: '%s': Is a directory", pyval.StrOf(fileName)), nil
}

// Find is upstream's find(path='.', name=None).
func (g *GorillaFileSystem) Find(args stubs.GorillaFileSystemFindArgs) (pyval.Value, error) {
	path, name := args.Path.V, args.Name.V
	target, errDict, err := g.navigate(path)
	if err != nil {
		return nil, err
	}
	if errDict != nil {
		msg, _ := errDict.GetStr("error")
		if s, ok := msg.(pyval.Str); ok && strings.HasPrefix(string(s), "cd:") {
			return oneKey("error", pyval.Str(strings.Replace(string(s), "cd:", "find:", 1))), nil
		}
		return errDict, nil
	}
	ps, ok := path.(pyval.Str)
	if !ok {
		return nil, pyval.NoAttribute(path, "rstrip")
	}
	var matches []pyval.Value
	var search func(dir *Directory, base string, depth int) error
	search = func(dir *Directory, base string, depth int) error {
		if depth > gfsMaxDepth {
			return pyval.NewException("RecursionError", "maximum recursion depth exceeded")
		}
		for _, kv := range dir.Contents.Items() {
			itemPath := base + "/" + pyval.StrOf(kv.Key)
			hit := name == pyval.None
			if !hit {
				hit, err = pyval.Contains(kv.Key, name)
				if err != nil {
					return err
				}
			}
			if hit {
				matches = append(matches, pyval.Str(itemPath))
			}
			if sub, ok := kv.Value.(*Directory); ok {
				if err := search(sub, itemPath, depth+1); err != nil {
					return err
				}
			}
		}
		return nil
	}
	if err := search(target, strings.TrimRight(string(ps), "/"), 0); err != nil {
		return nil, err
	}
	return oneKey("matches", pyval.NewList(matches...)), nil
}

// localFile returns the File named name in the current directory, or nil
// when there is none (upstream's `name in contents` + isinstance check).
func (g *GorillaFileSystem) localFile(name pyval.Value) (*File, error) {
	exists, err := g.currentDir.has(name)
	if err != nil || !exists {
		return nil, err
	}
	item, err := g.currentDir.getItem(name)
	if err != nil {
		return nil, err
	}
	f, _ := item.(*File)
	return f, nil
}

// fileLines is the opening sort, grep and tail share: the lines
// (str.splitlines()) of the file name in the current directory, or the
// error dict "<cmd>: <name>: No such file or directory".
func (g *GorillaFileSystem) fileLines(name pyval.Value, cmd string) ([]string, *pyval.Dict, error) {
	f, err := g.localFile(name)
	if err != nil {
		return nil, nil, err
	}
	if f == nil {
		return nil, gfsError("%s: %s: No such file or directory", cmd, pyval.StrOf(name)), nil
	}
	lines, err := strSplitLines(f.Content)
	return lines, nil, err
}

// Wc is upstream's wc(file_name, mode='l').
func (g *GorillaFileSystem) Wc(args stubs.GorillaFileSystemWcArgs) (pyval.Value, error) {
	fileName, mode := args.FileName.V, args.Mode.V
	m, _ := mode.(pyval.Str)
	if m != "l" && m != "w" && m != "c" {
		return gfsError("wc: invalid mode '%s'", pyval.StrOf(mode)), nil
	}
	f, err := g.localFile(fileName)
	if err != nil {
		return nil, err
	}
	if f != nil {
		switch m {
		case "l":
			lines, err := strSplitLines(f.Content)
			if err != nil {
				return nil, err
			}
			return gfsCount(len(lines), "lines"), nil
		case "w":
			s, ok := f.Content.(pyval.Str)
			if !ok {
				return nil, pyval.NoAttribute(f.Content, "split")
			}
			return gfsCount(len(pyval.Split(string(s))), "words"), nil
		default:
			n, err := pyval.Len(f.Content)
			if err != nil {
				return nil, err
			}
			return gfsCount(n, "characters"), nil
		}
	}
	return gfsError("wc: %s: No such file or directory", pyval.StrOf(fileName)), nil
}

func gfsCount(n int, typ string) *pyval.Dict {
	d := pyval.NewDict()
	d.SetStr("count", pyval.Int(n))
	d.SetStr("type", pyval.Str(typ))
	return d
}

// Sort is upstream's sort(file_name).
func (g *GorillaFileSystem) Sort(args stubs.GorillaFileSystemSortArgs) (pyval.Value, error) {
	lines, errDict, err := g.fileLines(args.FileName.V, "sort")
	if err != nil || errDict != nil {
		return dictOrNil(errDict), err
	}
	sortCodePoints(lines)
	return oneKey("sorted_content", pyval.Str(strings.Join(lines, "\n"))), nil
}

// Grep is upstream's grep(file_name, pattern).
func (g *GorillaFileSystem) Grep(args stubs.GorillaFileSystemGrepArgs) (pyval.Value, error) {
	pattern := args.Pattern.V
	lines, errDict, err := g.fileLines(args.FileName.V, "grep")
	if err != nil || errDict != nil {
		return dictOrNil(errDict), err
	}
	var out []pyval.Value
	for _, l := range lines {
		in, err := pyval.Contains(pyval.Str(l), pattern)
		if err != nil {
			return nil, err
		}
		if in {
			out = append(out, pyval.Str(l))
		}
	}
	return oneKey("matching_lines", pyval.NewList(out...)), nil
}

// Du is upstream's du(human_readable=False).
func (g *GorillaFileSystem) Du(args stubs.GorillaFileSystemDuArgs) (pyval.Value, error) {
	humanReadable := args.HumanReadable.V
	var size func(v pyval.Value, depth int) (int64, error)
	size = func(v pyval.Value, depth int) (int64, error) {
		switch x := v.(type) {
		case *File:
			s, ok := x.Content.(pyval.Str)
			if !ok {
				return 0, pyval.NoAttribute(x.Content, "encode")
			}
			return int64(len(s)), nil
		case *Directory:
			if depth > gfsMaxDepth {
				return 0, pyval.NewException("RecursionError", "maximum recursion depth exceeded")
			}
			var total int64
			for _, c := range x.Contents.Values() {
				n, err := size(c, depth+1)
				if err != nil {
					return 0, err
				}
				total += n
			}
			return total, nil
		}
		return 0, nil
	}
	total, err := size(g.currentDir, 0)
	if err != nil {
		return nil, err
	}
	var out string
	if pyval.Truthy(humanReadable) {
		out = ""
		f := float64(total)
		isInt := true
		for _, unit := range []string{"B", "KB", "MB", "GB", "TB"} {
			if f < 1024 {
				if isInt {
					out = fmt.Sprintf("%.2f %s", float64(total), unit)
				} else {
					out = fmt.Sprintf("%.2f %s", f, unit)
				}
				break
			}
			f /= 1024
			isInt = false
		}
		if out == "" {
			out = fmt.Sprintf("%.2f PB", f)
		}
	} else {
		out = strconv.FormatInt(total, 10) + " bytes"
	}
	return oneKey("disk_usage", pyval.Str(out)), nil
}

// Tail is upstream's tail(file_name, lines=10).
func (g *GorillaFileSystem) Tail(args stubs.GorillaFileSystemTailArgs) (pyval.Value, error) {
	lines := args.Lines.V
	content, errDict, err := g.fileLines(args.FileName.V, "tail")
	if err != nil || errDict != nil {
		return dictOrNil(errDict), err
	}
	n := len(content)
	gt, err := pyval.Greater(lines, pyval.Int(n))
	if err != nil {
		return nil, err
	}
	if gt {
		lines = pyval.Int(n)
	}
	k, err := sliceBound(lines)
	if err != nil {
		return nil, err
	}
	// content[-k:] with Python slice clamping.
	start := -k
	if start < 0 {
		start += int64(n)
		if start < 0 {
			start = 0
		}
	}
	if start > int64(n) {
		start = int64(n)
	}
	return oneKey("last_lines", pyval.Str(strings.Join(content[start:], "\n"))), nil
}

// Diff is upstream's diff(file_name1, file_name2).
func (g *GorillaFileSystem) Diff(args stubs.GorillaFileSystemDiffArgs) (pyval.Value, error) {
	fileName1, fileName2 := args.FileName1.V, args.FileName2.V
	has1, err := g.currentDir.has(fileName1)
	if err != nil {
		return nil, err
	}
	if has1 {
		has2, err := g.currentDir.has(fileName2)
		if err != nil {
			return nil, err
		}
		if has2 {
			i1, err := g.currentDir.getItem(fileName1)
			if err != nil {
				return nil, err
			}
			i2, err := g.currentDir.getItem(fileName2)
			if err != nil {
				return nil, err
			}
			f1, ok1 := i1.(*File)
			f2, ok2 := i2.(*File)
			if ok1 && ok2 {
				c1, err := strSplitLines(f1.Content)
				if err != nil {
					return nil, err
				}
				c2, err := strSplitLines(f2.Content)
				if err != nil {
					return nil, err
				}
				var out []string
				for i := 0; i < len(c1) && i < len(c2); i++ {
					if c1[i] != c2[i] {
						out = append(out, "- "+c1[i]+"\n+ "+c2[i])
					}
				}
				return oneKey("diff_lines", pyval.Str(strings.Join(out, "\n"))), nil
			}
		}
	}
	return gfsError("diff: %s or %s: No such file or directory", pyval.StrOf(fileName1), pyval.StrOf(fileName2)), nil
}

// sourceItem holds the checks mv and cp share: the source item, or
// an error dict (missing source, or a "/" in destination).
func (g *GorillaFileSystem) sourceItem(op, verb string, source, destination pyval.Value) (pyval.Value, *pyval.Dict, error) {
	item, d, err := g.lookup(source, op+": cannot "+verb+" ", "No such file or directory")
	if err != nil || d != nil {
		return nil, d, err
	}
	switch item.(type) {
	case *File, *Directory:
	default:
		return nil, gfsError("%s: cannot %s '%s': Not a file or directory", op, verb, pyval.StrOf(source)), nil
	}
	slash, err := pyval.Contains(destination, pyval.Str("/"))
	if err != nil {
		return nil, nil, err
	}
	if slash {
		return nil, gfsError("%s: path not allowed in destination. Provide only a file or directory name.", op), nil
	}
	return item, nil, nil
}

// Mv is upstream's mv(source, destination). A moved directory is a new
// Directory object that shares the old one's contents dict; the children
// keep their old parent.
func (g *GorillaFileSystem) Mv(args stubs.GorillaFileSystemMvArgs) (pyval.Value, error) {
	return g.transfer(mvOp, args.Source.V, args.Destination.V)
}

// Cp is upstream's cp(source, destination). A copied directory gets a
// shallow copy of the source's contents dict (the children are shared).
// Its "already exists" check looks up "<destination>/<source>", which is
// never a key, so copying onto an existing name raises _add_file's
// ValueError, as upstream does.
func (g *GorillaFileSystem) Cp(args stubs.GorillaFileSystemCpArgs) (pyval.Value, error) {
	return g.transfer(cpOp, args.Source.V, args.Destination.V)
}

// transferOp is what tells mv and cp apart: their names in messages and
// whether the source leaves the current directory (then a directory keeps
// its contents dict; a copy gets a shallow copy of it).
type transferOp struct {
	op, verb, done string
	move           bool
}

var (
	mvOp = transferOp{op: "mv", verb: "move", done: "moved", move: true}
	cpOp = transferOp{op: "cp", verb: "copy", done: "copied"}
)

// transfer is the body mv and cp share: source into the existing
// directory destination, or to the new name destination.
func (g *GorillaFileSystem) transfer(t transferOp, source, destination pyval.Value) (pyval.Value, error) {
	item, errDict, err := g.sourceItem(t.op, t.verb, source, destination)
	if err != nil || errDict != nil {
		return dictOrNil(errDict), err
	}
	destExists, err := g.currentDir.has(destination)
	if err != nil {
		return nil, err
	}
	src, dst := pyval.StrOf(source), pyval.StrOf(destination)
	if !destExists {
		if t.move {
			g.currentDir.Contents.Delete(source)
		}
		if err := t.place(g.currentDir, destination, item); err != nil {
			return nil, err
		}
		return oneKey("result", pyval.Str(fmt.Sprintf("'%s' %s to '%s'", src, t.done, dst))), nil
	}
	destItem, err := g.currentDir.getItem(destination)
	if err != nil {
		return nil, err
	}
	dd, ok := destItem.(*Directory)
	if !ok {
		return gfsError("%s: cannot %s '%s' to '%s': Not a directory", t.op, t.verb, src, dst), nil
	}
	existing := src
	if !t.move {
		existing = dst + "/" + src // upstream's cp looks up this path as a key
	}
	if dd.Contents.Has(pyval.Str(existing)) {
		return gfsError("%s: cannot %s '%s' to '%s/%s': File exists", t.op, t.verb, src, dst, src), nil
	}
	if t.move {
		g.currentDir.Contents.Delete(source)
	}
	if err := t.place(dd, source, item); err != nil {
		return nil, err
	}
	return oneKey("result", pyval.Str(fmt.Sprintf("'%s' %s to '%s/%s'", src, t.done, dst, src))), nil
}

// place adds item (a File or a Directory) to dir under name: a file with
// its content, a directory as a new Directory whose contents dict is the
// item's (mv) or a shallow copy of it (cp).
func (t transferOp) place(dir *Directory, name, item pyval.Value) error {
	if f, ok := item.(*File); ok {
		return dir.addFile(name, f.Content)
	}
	if err := dir.addDirectory(name); err != nil {
		return err
	}
	contents := item.(*Directory).Contents
	if !t.move {
		contents = contents.Copy()
	}
	nv, _ := dir.Contents.Get(name)
	nv.(*Directory).Contents = contents
	return nil
}

// Rm is upstream's rm(file_name).
func (g *GorillaFileSystem) Rm(args stubs.GorillaFileSystemRmArgs) (pyval.Value, error) {
	fileName := args.FileName.V
	item, d, err := g.lookup(fileName, "rm: cannot remove ", "No such file or directory")
	if err != nil || d != nil {
		return dictOrNil(d), err
	}
	switch item.(type) {
	case *File, *Directory:
		g.currentDir.Contents.Delete(fileName)
		return oneKey("result", pyval.Str(fmt.Sprintf("'%s' removed", pyval.StrOf(fileName)))), nil
	}
	return gfsError("rm: cannot remove '%s': Not a file or directory", pyval.StrOf(fileName)), nil
}

// Rmdir is upstream's rmdir(dir_name).
func (g *GorillaFileSystem) Rmdir(args stubs.GorillaFileSystemRmdirArgs) (pyval.Value, error) {
	dirName := args.DirName.V
	item, errDict, err := g.lookup(dirName, "rmdir: cannot remove ", "No such file or directory")
	if err != nil || errDict != nil {
		return dictOrNil(errDict), err
	}
	d, ok := item.(*Directory)
	if !ok {
		return gfsError("rmdir: cannot remove '%s': Not a directory", pyval.StrOf(dirName)), nil
	}
	if d.Contents.Len() > 0 {
		return gfsError("rmdir: cannot remove '%s': Directory not empty", pyval.StrOf(dirName)), nil
	}
	g.currentDir.Contents.Delete(dirName)
	return oneKey("result", pyval.Str(fmt.Sprintf("'%s' removed", pyval.StrOf(dirName)))), nil
}

// dictOrNil turns a nil *pyval.Dict into a nil Value (not a typed nil).
func dictOrNil(d *pyval.Dict) pyval.Value {
	if d == nil {
		return nil
	}
	return d
}

func classGorillaFileSystem() Class {
	return Class{
		Name:    "GorillaFileSystem",
		Module:  "gorilla_file_system",
		New:     func(env *Env) Instance { return NewGorillaFileSystem(env) },
		Methods: stubs.GorillaFileSystemMethods,
	}
}
