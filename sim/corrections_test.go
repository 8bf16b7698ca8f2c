package sim

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// The opt-in corrections of the memory_kv backend (internal/config/corrections):
// off, upstream's pinned behaviour; on, the behaviour of the gorilla PR.
var _ = Describe("memory_kv corrections", func() {
	It("memory-kv-key-pattern: pinned rejects q1_report, corrected accepts it (PR #1327)", func() {
		pinned := NewMemoryAPIKV(&Env{})
		corrected := NewMemoryAPIKV(&Env{KVKeyPatternCorrected: true})
		for _, k := range []string{"q1_report", "user123_profile", "v2_config"} {
			Expect(memResult(call(pinned, "core_memory_add", memS(k), memS("x")))).To(Equal(`{"error": "Key must be in snake_case format and cannot contain spaces."}`), k)
			Expect(memResult(call(corrected, "archival_memory_add", memS(k), memS("x")))).To(Equal(`{"status": "Key added."}`), k)
		}
		// what both reject and both accept
		for _, k := range []string{"MyKey", "my key", "_key", "1key", "key_"} {
			Expect(memResult(call(corrected, "core_memory_add", memS(k), memS("x")))).To(ContainSubstring("snake_case"), k)
		}
		for _, m := range []*MemoryAPI_kv{pinned, corrected} {
			Expect(memResult(call(m, "core_memory_add", memS("report_q1"), memS("x")))).To(Equal(`{"status": "Key-value pair added."}`))
		}
	})

	It("empty-memory-search: pinned raises division by zero on an empty memory, corrected finds nothing (PR #1347)", func() {
		pinned := NewMemoryAPIKV(&Env{})
		_, err := call(pinned, "archival_memory_key_search", memS("vacation"))
		Expect(err).To(MatchError(ContainSubstring("division by zero")))
		_, err = call(pinned, "core_memory_key_search", memS("vacation"))
		Expect(err).To(MatchError(ContainSubstring("division by zero")))

		corrected := NewMemoryAPIKV(&Env{EmptyMemorySearchCorrected: true})
		Expect(memResult(call(corrected, "archival_memory_key_search", memS("vacation")))).To(Equal(`{"ranked_results": []}`))
		Expect(memResult(call(corrected, "core_memory_key_search", memS("vacation")))).To(Equal(`{"ranked_results": []}`))
		// a memory with keys is searched as before
		Expect(memResult(call(corrected, "core_memory_add", memS("vacation_plan"), memS("Rome")))).To(ContainSubstring("added"))
		r, err := call(corrected, "core_memory_key_search", memS("vacation"))
		Expect(err).NotTo(HaveOccurred())
		Expect(memResult(r, nil)).To(ContainSubstring(`"vacation_plan"`))
	})
})
