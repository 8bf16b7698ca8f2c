package sim

import (
	"strings"
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/bfcl-go/bfcl/internal/python/pyval"
)

func newTestFS(configJSON string) *GorillaFileSystem {
	cfg, err := pyval.FromJSONString(configJSON)
	ExpectWithOffset(1, err).NotTo(HaveOccurred())
	g := NewGorillaFileSystem(&Env{})
	ExpectWithOffset(1, g.LoadScenario(cfg.(*pyval.Dict), false)).To(Succeed())
	return g
}

var _ = Describe("GorillaFileSystem", func() {
	It("survives a directory copied into itself the way Python does (no hang, no crash)", func() {
		const cfg = `{"root": {"r": {"type": "directory", "contents": {"d": {"type": "directory", "contents": {"f": {"type": "file", "content": "x"}}}}}}}`
		g := newTestFS(cfg)
		Expect(serialiseResult(call(g, "cp", pyval.Str("d"), pyval.Str("d")))).To(Equal(`{"result": "'d' copied to 'd/d'"}`))
		// repr as CPython prints it (dict repr shows a dict met again as {...})
		Expect(g.Root().PyRepr()).To(Equal("<Directory: r, Parent: None, Contents: {'d': <Directory: d, Parent: r, Contents: {'f': <<File: f, Content: x>>, 'd': <Directory: d, Parent: d, Contents: {'f': <<File: f, Content: x>>, 'd': <Directory: d, Parent: d, Contents: {...}>}>}>}>"))
		_, err := call(g, "find", nil, nil)
		Expect(err).To(MatchError(ContainSubstring("maximum recursion depth exceeded")))
		_, err = call(g, "du", nil)
		Expect(err).To(MatchError(ContainSubstring("maximum recursion depth exceeded")))
		b, err := pyval.MarshalPyJSON(g.State())
		Expect(err).NotTo(HaveOccurred())
		Expect(string(b)).To(ContainSubstring(`{"$circular":true}`))
		other := newTestFS(cfg)
		_, _ = call(other, "cp", pyval.Str("d"), pyval.Str("d"))
		Expect(g.Root().PyEqual(g.Root())).To(BeTrue())
		Expect(g.Root().PyEqual(other.Root())).To(BeFalse()) // CPython: RecursionError
	})

	It("compares directories by name and contents only, as upstream's __eq__", func() {
		a := newTestFS(`{"root": {"r": {"type": "directory", "contents": {"x": {"type": "file", "content": "1"}, "y": {"type": "directory", "contents": {}}}}}}`)
		b := newTestFS(`{"root": {"r": {"type": "directory", "contents": {"y": {"type": "directory", "contents": {}}, "x": {"type": "file", "content": "1"}}}}}`)
		Expect(pyval.Equal(a.Root(), b.Root())).To(BeTrue())
		_, _ = call(b, "mv", pyval.Str("y"), pyval.Str("z"))
		_, _ = call(b, "mv", pyval.Str("z"), pyval.Str("y")) // a new object, children keep old parents
		Expect(pyval.Equal(a.Root(), b.Root())).To(BeTrue())
		_, _ = call(b, "echo", pyval.Str("2"), pyval.Str("x"))
		Expect(pyval.Equal(a.Root(), b.Root())).To(BeFalse())
		Expect(pyval.Equal(a.Root(), pyval.Str("r"))).To(BeFalse())
	})
})

// FuzzGorillaFileSystem checks that no sequence of calls with arbitrary
// string arguments makes the port panic or hang.
func FuzzGorillaFileSystem(f *testing.F) {
	// fuzzFSArity: the script's commands that take their arguments from the
	// line's words, with how many they take.
	fuzzFSArity := map[string]int{"cd": 1, "mkdir": 1, "touch": 1, "echo": 2, "cp": 2, "mv": 2, "rm": 1, "rmdir": 1, "find": 2, "du": 1}
	f.Add("cd docs\nmkdir a\ncp a b\nmv b a\ncd a\nfind . x\ncd ..\nrm a")
	f.Add("touch .\necho hi .\ncp docs docs\ndu 1\nfind / \ntail f.txt -3")
	f.Fuzz(func(t *testing.T, script string) {
		cfg, err := pyval.FromJSONString(`{"root": {"r": {"type": "directory", "contents": {"docs": {"type": "directory", "contents": {"f.txt": {"type": "file", "content": "a\nb\nc"}}}}}}}`)
		if err != nil {
			t.Fatal(err)
		}
		g := NewGorillaFileSystem(&Env{})
		if err := g.LoadScenario(cfg.(*pyval.Dict), false); err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(script, "\n")
		if len(lines) > 40 {
			lines = lines[:40]
		}
		for _, line := range lines {
			w := strings.Fields(line)
			arg := func(i int) pyval.Value {
				if i < len(w) {
					return pyval.Str(w[i])
				}
				return pyval.Str("")
			}
			if len(w) == 0 {
				continue
			}
			if n, ok := fuzzFSArity[w[0]]; ok {
				args := make([]pyval.Value, n)
				for i := range args {
					args[i] = arg(i + 1)
				}
				_, _ = call(g, w[0], args...)
				continue
			}
			switch w[0] {
			case "tail":
				_, _ = call(g, "tail", arg(1), pyval.Int(len(line)%7-3))
			default:
				_, _ = g.Pwd()
				_, _ = call(g, "ls", pyval.Bool(true))
			}
		}
		_ = g.Root().PyRepr()
		_ = g.Root().PyEqual(g.Root())
		if _, err := pyval.MarshalPyJSON(g.State()); err != nil {
			t.Fatal(err)
		}
	})
}

var _ = Describe("GorillaFileSystem deep copy", func() {
	It("copies the object graph once, keeping mv's shared contents and old parents", func() {
		g := newTestFS(`{"root": {"r": {"type": "directory", "contents": {"d": {"type": "directory", "contents": {"s": {"type": "directory", "contents": {}}}}}}}}`)
		_, _ = call(g, "mv", pyval.Str("d"), pyval.Str("e"))
		before, err := pyval.MarshalPyJSON(g.State())
		Expect(err).NotTo(HaveOccurred())
		cp := pyval.DeepCopy(g.Root()).(*Directory)
		Expect(cp.PyEqual(g.Root())).To(BeTrue())
		Expect(cp).NotTo(BeIdenticalTo(g.Root()))
		e, _ := cp.Contents.GetStr("e")
		s, _ := e.(*Directory).Contents.GetStr("s")
		Expect(pyval.StrOf(s.(*Directory).Parent.Name)).To(Equal("d")) // the detached old directory
		Expect(s.(*Directory).Parent.Contents).To(BeIdenticalTo(e.(*Directory).Contents))
		_, _ = call(g, "mkdir", pyval.Str("later"))
		Expect(cp.Contents.Has(pyval.Str("later"))).To(BeFalse())
		Expect(string(before)).To(ContainSubstring(`"parent":"d"`))
	})

	It("has no public state before LoadScenario, like vars() of a fresh instance", func() {
		Expect(NewGorillaFileSystem(nil).State().Len()).To(Equal(0))
		Expect(NewTwitterAPI(nil).State().Len()).To(Equal(0))
		Expect(NewMessageAPI(nil).State().Len()).To(Equal(0))
		Expect(NewTicketAPI(nil).State().Len()).To(Equal(0))
		Expect(NewMathAPI(nil).State().Len()).To(Equal(0))
	})
})

var _ = Describe("GorillaFileSystem pyjson", func() {
	// viaPyJSON is the encoding through the Go value PyJSON builds.
	viaPyJSON := func(o pyval.Object) string {
		b, err := pyval.AppendAny(nil, o.PyJSON())
		Expect(err).NotTo(HaveOccurred())
		return string(b)
	}
	direct := func(v pyval.Value) string {
		b, err := pyval.MarshalPyJSON(v)
		Expect(err).NotTo(HaveOccurred())
		return string(b)
	}

	It("writes the bytes of PyJSON() directly for files and directory trees", func() {
		g := newTestFS(`{"root": {"r": {"type": "directory", "contents": {
			"a.txt": {"type": "file", "content": "line \"1\"\nligne é ✓"},
			"empty": {"type": "directory", "contents": {}},
			"d": {"type": "directory", "contents": {"f": {"type": "file", "content": "x"}, "e": {"type": "directory", "contents": {"g": {"type": "file", "content": ""}}}}}}}}}`)
		_, err := call(g, "cp", pyval.Str("d"), pyval.Str("d")) // a directory inside itself: {"$circular": true}
		Expect(err).NotTo(HaveOccurred())
		root := g.Root()
		Expect(direct(root)).To(Equal(viaPyJSON(root)))
		Expect(direct(root)).To(ContainSubstring(`{"$circular":true}`))
		f := newFile(pyval.Str("n"), pyval.Str("c\t\"q\""))
		Expect(direct(f)).To(Equal(viaPyJSON(f)))
		Expect(direct(f)).To(Equal(`{"$File":{"name":"n","content":"c\t\"q\""}}`))
		Expect(direct(newFile(nil, pyval.Int(3)))).To(Equal(`{"$File":{"name":null,"content":3}}`))
		Expect(direct(g.State())).To(Equal(func() string {
			b, err := pyval.AppendAny(nil, pyval.EncodePyJSON(g.State()))
			Expect(err).NotTo(HaveOccurred())
			return string(b)
		}()))
	})

	It("writes contents with keys that are not plain names as a $dict of pairs", func() {
		d := newDirectory(pyval.Str("top"), nil)
		sub := newDirectory(pyval.Str("sub"), d)
		sub.Contents.Set(pyval.Int(7), newFile(pyval.Str("seven"), pyval.Float(1.5)))
		d.Contents.Set(pyval.Str("$x"), sub)
		d.Contents.Set(pyval.Str("plain"), newFile(pyval.Str("p"), pyval.None))
		Expect(direct(d)).To(Equal(viaPyJSON(d)))
		Expect(direct(d)).To(HavePrefix(`{"$Directory":{"name":"top","parent":null,"contents":{"$dict":[["$x",{"$Directory":{"name":"sub","parent":"top","contents":{"$dict":[[7,`))
	})
})
