package pyval_test

import (
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	pv "github.com/bfcl-go/bfcl/internal/python/pyval"
)

var _ = Describe("CPython hashing and set order", func() {
	It("hashes str like CPython with PYTHONHASHSEED=0 (siphash13, zero key)", func() {
		// values printed by: PYTHONHASHSEED=0 python3 -c "print(hash('a'), ...)"
		Expect(pv.StrHash("a")).To(Equal(int64(4644417185603328019)))
		Expect(pv.StrHash("assignee")).To(Equal(int64(7330802622297391332)))
		Expect(pv.StrHash("")).To(Equal(int64(0)))
		Expect(pv.StrHash("é")).To(Equal(int64(6047309291227476195)))
		Expect(pv.StrHash("€")).To(Equal(int64(-5529981157763016009)))
		Expect(pv.StrHash("😀")).To(Equal(int64(-3536540696076613844)))
		Expect(pv.IntHash(-1)).To(Equal(int64(-2)))
	})

	It("orders set differences like CPython for small and large key sets (both set_difference paths)", func() {
		// keys, then ', '.join(set(keys) - {'title','description','status','priority'})
		// as printed by CPython with PYTHONHASHSEED=0
		cases := [][2]string{
			{`['k2', 'k14', 'k6', 'k8', 'k16', 'k5', 'k12', 'k3', 'title', 'status', 'k0', 'k13', 'k1', 'k9', 'k10', 'k15', 'k11', 'k4', 'k17', 'k18', 'k7']`, `k1, k17, k6, k16, k8, k14, k18, k7, k15, k11, k12, k9, k2, k3, k0, k13, k10, k5, k4`},
			{`['k13', 'k14', 'k1', 'k6', 'k3', 'k5', 'k8', 'status', 'k10', 'k11', 'k19', 'k18', 'k9', 'k17', 'k15', 'k2', 'k0', 'k12', 'k16', 'k4', 'title', 'k7']`, `k1, k19, k17, k6, k16, k8, k18, k14, k7, k15, k11, k12, k9, k2, k3, k0, k13, k10, k5, k4`},
			{`['k19', 'k0', 'k5', 'k20', 'k7', 'k2', 'title', 'k9', 'k17', 'k13', 'k18', 'k14', 'k12', 'k16', 'k10', 'k8', 'k6', 'k15', 'status', 'k1', 'k3', 'k11', 'k4']`, `k1, k19, k17, k6, k16, k8, k14, k18, k7, k15, k11, k12, k9, k2, k3, k0, k13, k10, k5, k4, k20`},
			{`['k2', 'k14', 'k9', 'k15', 'k18', 'k24', 'k16', 'k20', 'k12', 'k11', 'k22', 'k7', 'k13', 'k1', 'k4', 'k23', 'k6', 'k3', 'k17', 'status', 'k5', 'title', 'k19', 'k8', 'k0', 'k21', 'k10']`, `k1, k24, k19, k22, k17, k6, k16, k8, k7, k18, k14, k15, k11, k12, k23, k9, k21, k2, k3, k0, k13, k10, k5, k4, k20`},
			{`['k33', 'k29', 'k14', 'status', 'k22', 'k35', 'k18', 'k25', 'k11', 'k20', 'k39', 'k12', 'k23', 'k28', 'k5', 'k16', 'k10', 'k36', 'k4', 'k8', 'title', 'k30', 'k13', 'k6', 'k1', 'k34', 'k19', 'k3', 'k31', 'k0', 'k9', 'k37', 'k15', 'k32', 'k17', 'k21', 'k24', 'k38', 'k2', 'k7', 'k26', 'k27']`, `k1, k28, k25, k36, k37, k8, k18, k14, k29, k30, k15, k7, k9, k35, k3, k0, k31, k10, k5, k20, k38, k24, k19, k22, k17, k6, k16, k11, k12, k23, k21, k2, k32, k26, k33, k39, k27, k13, k4, k34`},
			{`['k7', 'k58', 'k55', 'k13', 'k51', 'k47', 'k23', 'k32', 'k4', 'k2', 'k15', 'k53', 'k34', 'k6', 'k12', 'k25', 'k28', 'status', 'k36', 'k46', 'k38', 'k5', 'k10', 'k56', 'k18', 'k9', 'k14', 'k49', 'k43', 'k11', 'k30', 'k57', 'k42', 'k48', 'k31', 'k17', 'k45', 'k22', 'k29', 'k54', 'k41', 'k44', 'k3', 'k8', 'k40', 'k52', 'k39', 'k24', 'k1', 'k20', 'k37', 'k26', 'k50', 'k0', 'k21', 'k35', 'title', 'k33', 'k16', 'k27', 'k19', 'k59']`, `k1, k28, k25, k36, k37, k8, k50, k7, k18, k14, k49, k15, k30, k29, k9, k35, k43, k3, k57, k0, k31, k10, k53, k54, k5, k40, k58, k20, k46, k38, k41, k24, k19, k22, k17, k55, k6, k42, k16, k47, k11, k23, k12, k51, k2, k32, k56, k26, k39, k21, k33, k27, k13, k59, k48, k4, k44, k52, k34, k45`},
		}
		valid := []pv.Value{pv.Str("title"), pv.Str("description"), pv.Str("status"), pv.Str("priority")}
		for _, c := range cases {
			keys, err := pv.FromJSONString(strings.ReplaceAll(c[0], "'", `"`))
			Expect(err).NotTo(HaveOccurred())
			var names []string
			for _, k := range pv.SetDifference(keys.(*pv.List).Items, valid) {
				names = append(names, string(k.(pv.Str)))
			}
			Expect(strings.Join(names, ", ")).To(Equal(c[1]), c[0])
		}
	})

})
