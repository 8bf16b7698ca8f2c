package chattemplate

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/ardanlabs/jinja"
)

// strftimeNow is transformers' strftime_now(format):
// datetime.now().strftime(format), at now.
func strftimeNow(now func() time.Time) jinja.Value {
	return jinja.NewCallable("strftime_now", func(args []jinja.Value, _ map[string]jinja.Value) (jinja.Value, error) {
		if len(args) != 1 || !args[0].IsString() {
			return jinja.None(), fmt.Errorf("strftime_now() takes one format string")
		}
		return jinja.NewString(strftime(now(), args[0].AsString())), nil
	})
}

// strftime is Python's (C's) strftime for the codes chat templates use; an
// unknown code is written as it is, as glibc does.
func strftime(t time.Time, format string) string {
	var b strings.Builder
	pad := func(n, w int) string {
		s := strconv.Itoa(n)
		for len(s) < w {
			s = "0" + s
		}
		return s
	}
	for i := 0; i < len(format); i++ {
		c := format[i]
		if c != '%' || i+1 == len(format) {
			b.WriteByte(c)
			continue
		}
		i++
		switch format[i] {
		case 'Y':
			b.WriteString(strconv.Itoa(t.Year()))
		case 'y':
			b.WriteString(pad(t.Year()%100, 2))
		case 'm':
			b.WriteString(pad(int(t.Month()), 2))
		case 'd':
			b.WriteString(pad(t.Day(), 2))
		case 'e':
			b.WriteString(fmt.Sprintf("%2d", t.Day()))
		case 'j':
			b.WriteString(pad(t.YearDay(), 3))
		case 'H':
			b.WriteString(pad(t.Hour(), 2))
		case 'I':
			h := t.Hour() % 12
			if h == 0 {
				h = 12
			}
			b.WriteString(pad(h, 2))
		case 'M':
			b.WriteString(pad(t.Minute(), 2))
		case 'S':
			b.WriteString(pad(t.Second(), 2))
		case 'f':
			b.WriteString(pad(t.Nanosecond()/1000, 6))
		case 'p':
			if t.Hour() < 12 {
				b.WriteString("AM")
			} else {
				b.WriteString("PM")
			}
		case 'a':
			b.WriteString(t.Weekday().String()[:3])
		case 'A':
			b.WriteString(t.Weekday().String())
		case 'b', 'h':
			b.WriteString(t.Month().String()[:3])
		case 'B':
			b.WriteString(t.Month().String())
		case 'w':
			b.WriteString(strconv.Itoa(int(t.Weekday())))
		case 'Z':
			name, _ := t.Zone()
			b.WriteString(name)
		case 'z':
			b.WriteString(t.Format("-0700"))
		case '%':
			b.WriteByte('%')
		default:
			b.WriteByte('%')
			b.WriteByte(format[i])
		}
	}
	return b.String()
}
