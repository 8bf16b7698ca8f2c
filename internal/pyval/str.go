package pyval

import (
	"strings"
	"unicode"
)

// Lower is CPython's str.lower (Objects/unicodeobject.c, do_lower and
// handle_capital_sigma): the Unicode default lowercase mapping per code
// point, plus the two cases where Go's strings.ToLower differs — U+0130
// becomes "i̇" (SpecialCasing's unconditional entry) and a capital sigma in
// Final_Sigma context becomes ς.
func Lower(s string) string {
	ascii := true
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			ascii = false
			break
		}
	}
	if ascii {
		return strings.ToLower(s)
	}
	rs := []rune(s)
	var b strings.Builder
	b.Grow(len(s))
	for i, r := range rs {
		switch {
		case r < 0x80:
			if 'A' <= r && r <= 'Z' {
				r += 'a' - 'A'
			}
			b.WriteRune(r)
		case r == 0x130: // LATIN CAPITAL LETTER I WITH DOT ABOVE
			b.WriteString("i\u0307")
		case r == 0x3A3: // GREEK CAPITAL LETTER SIGMA
			if finalSigma(rs, i) {
				b.WriteRune(0x3C2)
			} else {
				b.WriteRune(0x3C3)
			}
		default:
			b.WriteRune(unicode.ToLower(r))
		}
	}
	return b.String()
}

// finalSigma is the Final_Sigma condition as CPython's handle_capital_sigma
// tests it: a cased character before position i and none after it, skipping
// case-ignorable characters on both sides.
func finalSigma(rs []rune, i int) bool {
	j := i - 1
	for j >= 0 && caseIgnorable(rs[j]) {
		j--
	}
	if j < 0 || !cased(rs[j]) {
		return false
	}
	k := i + 1
	for k < len(rs) && caseIgnorable(rs[k]) {
		k++
	}
	return k == len(rs) || !cased(rs[k])
}

// cased is Unicode's Cased property (DerivedCoreProperties.txt): Lowercase,
// Uppercase or Lt.
func cased(r rune) bool {
	return unicode.IsUpper(r) || unicode.IsLower(r) || unicode.IsTitle(r) ||
		unicode.Is(unicode.Other_Lowercase, r) || unicode.Is(unicode.Other_Uppercase, r)
}

// caseIgnorable is Unicode's Case_Ignorable property: Mn, Me, Cf, Lm, Sk and
// the Word_Break classes MidLetter, MidNumLet and Single_Quote.
func caseIgnorable(r rune) bool {
	switch r {
	case '\'', '.', ':', 0xB7, 0x387, 0x55F, 0x5F4, 0x2018, 0x2019, 0x2024, 0x2027,
		0xFE13, 0xFE52, 0xFE55, 0xFF07, 0xFF0E, 0xFF1A:
		return true
	}
	return unicode.In(r, unicode.Mn, unicode.Me, unicode.Cf, unicode.Lm, unicode.Sk)
}
