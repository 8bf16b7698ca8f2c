package engine_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/bfcl-go/bfcl/internal/python/engine"
	"github.com/bfcl-go/bfcl/internal/python/pyval"
	"github.com/bfcl-go/bfcl/sim"
)

// The engine keeps the parsed tree of a call text per class list and
// evaluates it with each session's own instances; these specs run the same
// texts in sessions that differ in the instance names.
var _ = Describe("call strings seen before (the parse cache)", func() {
	sessionOf := func(model, entry string) *engine.Session {
		s := engine.New(&sim.Env{}, engine.Config{ModelName: model, EntryID: entry, Involved: []string{"GorillaFileSystem", "MathAPI"}, InitialConfig: fsConfig()})
		Expect(s.Init()).To(Succeed())
		return s
	}
	fileContent := func(s *engine.Session, name string) string {
		return s.ExecuteOne("cat(file_name='" + name + "')")
	}

	It("acts on each session's own instances", func() {
		a, b := sessionOf("cache_a_eval", "multi_turn_base_1"), sessionOf("cache_b_eval", "multi_turn_base_2")
		for _, s := range []*engine.Session{a, b} {
			Expect(s.ExecuteOne("cd(folder='document')")).To(Equal(`{"current_working_directory": "document"}`))
		}
		Expect(a.ExecuteOne("touch(file_name='only_a.txt')")).To(Equal("None"))
		Expect(b.ExecuteOne("ls()")).To(Equal(`{"current_directory_content": ["a.txt"]}`))
		Expect(a.ExecuteOne("ls()")).To(Equal(`{"current_directory_content": ["a.txt", "only_a.txt"]}`))
		st := b.State()["GorillaFileSystem"]
		b2, err := pyval.MarshalPyJSON(st)
		Expect(err).NotTo(HaveOccurred())
		Expect(string(b2)).NotTo(ContainSubstring("only_a.txt"))
	})

	It("writes each session's own instance name where the rewriting reaches into a string", func() {
		for _, model := range []string{"cache_c_eval", "cache_d_eval", "cache_c_eval"} {
			s := sessionOf(model, "multi_turn_base_3")
			Expect(s.ExecuteOne("touch(file_name='n.txt')")).To(Equal("None"))
			Expect(s.ExecuteOne("echo(content='run ls() and f\"{x}\"', file_name='n.txt')")).To(Equal("None"))
			Expect(fileContent(s, "n.txt")).To(Equal(`{"file_content": "run ` + model + `_multi_turn_base_3_GorillaFileSystem_instance.ls() and f\"{x}\""}`))
		}
	})

	It("reports an instance's attribute by its real name", func() {
		for _, model := range []string{"cache_e_eval", "cache_f_eval"} {
			s := sessionOf(model, "multi_turn_base_4")
			inst := model + "_multi_turn_base_4_GorillaFileSystem_instance"
			Expect(s.ExecuteOne(inst + ".ls()")).To(Equal("Error during execution: 'GorillaFileSystem' object has no attribute '" + inst + "'"))
		}
	})

	It("does not let a call reach the instances by the cache's own names", func() {
		s := sessionOf("cache_g_eval", "multi_turn_base_5")
		Expect(s.ExecuteOne("ls()")).To(HavePrefix("{"))
		Expect(s.ExecuteOne("__bfcl_engine_instance_GorillaFileSystem.ls()")).To(Equal("Error during execution: name '__bfcl_engine_instance_GorillaFileSystem' is not defined"))
	})

	It("parses the real text when an instance name is not a plain identifier", func() {
		// "gpt@x_..._instance.ls()" is a matrix product in Python: the name
		// gpt is not defined.
		for i := 0; i < 2; i++ {
			s := sessionOf("gpt@x_eval", "multi_turn_base_6")
			Expect(s.ExecuteOne("ls()")).To(Equal("Error during execution: name 'gpt' is not defined"))
			Expect(s.ExecuteOne("exit()")).To(Equal("Error during execution: Function call exit is not allowed."))
		}
		s := sessionOf("01-ai/Yi_eval", "multi_turn_base_6")
		Expect(s.ExecuteOne("ls()")).To(Equal("Error during execution: invalid decimal literal (<string>, line 1)"))
	})

	It("gives parse errors and refusals of the real text every time", func() {
		for _, model := range []string{"cache_h_eval", "cache_i_eval"} {
			s := sessionOf(model, "multi_turn_base_7")
			Expect(s.ExecuteOne("ls(a=True")).To(Equal("Error during execution: '(' was never closed (<string>, line 1)"))
			Expect(s.ExecuteOne("os.remove(x=1)")).To(Equal("Error during execution: Function call remove is not allowed."))
			Expect(s.ExecuteOne("cd(folder='document', folder='x')")).To(Equal("Error during execution: keyword argument repeated: folder (<string>, line 1)"))
		}
	})
})
