package pyexpr_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/bfcl-go/bfcl/internal/python/pyexpr"
	"github.com/bfcl-go/bfcl/internal/python/pyval"
	"github.com/bfcl-go/bfcl/internal/testkit/testenv"
)

func readLongContext() (string, string, bool) {
	data, _ := testenv.DataDir()
	path := filepath.Join(data, "long_context.py")
	b, err := os.ReadFile(path)
	if err != nil {
		return path, "", false
	}
	return path, string(b), true
}

var _ = Describe("long_context.py", func() {
	It("parses quickly and literal-evaluates every assignment", func() {
		path, src, ok := readLongContext()
		if !ok {
			Skip("DATASET ABSENT: cannot read " + path + " (set BFCL_DATA_DIR)")
		}
		start := time.Now()
		assigns, err := pyexpr.ParseModule(src)
		elapsed := time.Since(start)
		Expect(err).NotTo(HaveOccurred())
		Expect(elapsed).To(BeNumerically("<", 100*time.Millisecond))
		names := map[string]pyval.Value{}
		for _, a := range assigns {
			v, err := pyexpr.LiteralEval(a.Value)
			Expect(err).NotTo(HaveOccurred(), a.Name)
			names[a.Name] = v
		}
		Expect(names).To(HaveKey("WATCH_LIST_EXTENSION"))
		Expect(names).To(HaveKey("LONG_WEATHER_EXTENSION"))
		Expect(names).To(HaveKey("FILES_TAIL_USED"))
		wl := names["WATCH_LIST_EXTENSION"].(*pyval.List)
		Expect(wl.Items[len(wl.Items)-1]).To(Equal(pyval.Ellipsis))
		tail := pyval.NewList(wl.Items[len(wl.Items)-3:]...)
		Expect(pyval.Repr(tail)).To(HaveSuffix("'ZRFRE', Ellipsis]"))
		Expect(strings.HasPrefix(pyval.Repr(wl), "['JHGUN', 'LMAT', ")).To(BeTrue())
		_, isDict := names["LONG_WEATHER_EXTENSION"].(*pyval.Dict)
		Expect(isDict).To(BeTrue())
	})
})

func BenchmarkParseLongContext(b *testing.B) {
	path, src, ok := readLongContext()
	if !ok {
		b.Skip("DATASET ABSENT: cannot read " + path + " (set BFCL_DATA_DIR)")
	}
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		assigns, err := pyexpr.ParseModule(src)
		if err != nil {
			b.Fatal(err)
		}
		for _, a := range assigns {
			if _, err := pyexpr.LiteralEval(a.Value); err != nil {
				b.Fatal(err)
			}
		}
	}
}

func BenchmarkParseCall(b *testing.B) {
	src := "book_flight(access_token='abc123', card_id='card_5678', travel_date='2024-12-15', travel_from='SFO', travel_to='LAX', travel_class='economy', travel_cost=450.5, extra=[1, 2, {'k': None}])"
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, err := pyexpr.Parse(src); err != nil {
			b.Fatal(err)
		}
	}
}
