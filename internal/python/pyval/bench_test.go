package pyval_test

import (
	"strconv"
	"testing"

	pv "github.com/bfcl-go/bfcl/internal/python/pyval"
)

// benchEach runs f(i) for i in 0..b.N-1, reporting allocations.
func benchEach(b *testing.B, f func(i int)) {
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		f(i)
	}
}

func benchState() *pv.Dict {
	d := pv.NewDict()
	for i := 0; i < 50; i++ {
		inner := pv.NewDict()
		inner.SetStr("id", pv.Int(i))
		inner.SetStr("price", pv.Float(float64(i)*1.25))
		inner.SetStr("name", pv.Str("item "+strconv.Itoa(i)+" é"))
		inner.SetStr("tags", pv.NewList(pv.Str("a"), pv.Str("b"), pv.None, pv.Bool(true)))
		d.Set(pv.Int(i), inner)
	}
	return d
}

func BenchmarkDictGetStrSmall(b *testing.B) {
	d := pv.NewDict()
	for _, k := range []string{"access_token", "card_id", "travel_date", "travel_from", "travel_to"} {
		d.SetStr(k, pv.Str(k))
	}
	benchEach(b, func(_ int) {
		if _, ok := d.GetStr("travel_to"); !ok {
			b.Fatal("missing")
		}
	})
}

func BenchmarkDictGetLarge(b *testing.B) {
	d := benchState()
	benchEach(b, func(i int) {
		if _, ok := d.Get(pv.Float(float64(i % 50))); !ok {
			b.Fatal("missing")
		}
	})
}

func BenchmarkRepr(b *testing.B) {
	d := benchState()
	benchEach(b, func(_ int) {
		_ = pv.Repr(d)
	})
}

func BenchmarkJSONDumps(b *testing.B) {
	d := benchState()
	benchEach(b, func(_ int) {
		if _, err := pv.JSONDumps(d); err != nil {
			b.Fatal(err)
		}
	})
}

func BenchmarkEqualState(b *testing.B) {
	x, y := benchState(), benchState()
	benchEach(b, func(_ int) {
		if !pv.Equal(x, y) {
			b.Fatal("not equal")
		}
	})
}

func BenchmarkDeepCopyState(b *testing.B) {
	d := benchState()
	benchEach(b, func(_ int) {
		_ = pv.DeepCopy(d)
	})
}
