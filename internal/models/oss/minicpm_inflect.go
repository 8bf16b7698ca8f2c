package oss

import (
	"fmt"
	"strings"
	"unicode"
)

// inflectSingular is inflect 5.6.2's engine().singular_noun(word) with the
// engine's defaults (classical "names" only, gender neuter) for the class
// names datamodel-code-generator singularizes (get_singular_name): "" for
// inflect's False (not a plural noun). The names are CamelCase identifiers,
// so the rules for phrases (spaces, hyphens: compounds, prepositional
// phrases, "Governor General") never apply; a name with a space or a
// hyphen is an error. The word lists are in minicpm_inflectdata.go.
func inflectSingular(word string) (string, error) {
	if word == "" {
		return "", nil
	}
	if strings.ContainsAny(word, " \t\n-") {
		return "", fmt.Errorf("inflect: phrase %q not reproduced", word)
	}
	for _, r := range word {
		if r >= 0x80 {
			return "", fmt.Errorf("inflect: non-ASCII word %q not reproduced", word)
		}
	}
	sing, ok := inflectSinoun(word)
	if !ok {
		return "", nil
	}
	return inflectPostprocess(word, sing), nil
}

func inflectIn(set, w string) bool {
	for _, x := range inflectSets[set] {
		if x == w {
			return true
		}
	}
	return false
}

func inflectEndsIn(set, w string) bool {
	for _, x := range inflectSets[set] {
		if strings.HasSuffix(w, x) {
			return true
		}
	}
	return false
}

// inflectSinoun is engine._sinoun for one word (count None).
func inflectSinoun(word string) (string, bool) {
	low := strings.ToLower(word)
	last := low
	cut := func(n int) string { return word[:len(word)-n] }
	if inflectIn("ois_oi_case", word) {
		return cut(1), true
	}
	if inflectIn("uninflected_complete", last) || inflectIn("uninflected_caps", word) || inflectEndsIn("uninflected_endings", low) {
		return word, true
	}
	if inflectIn("c_us_us", last) {
		return "", false
	}
	if s, ok := inflectMaps["pron_nom"][low]; ok {
		return s, true
	}
	if s, ok := inflectMaps["pron_acc"][low]; ok {
		return s, true
	}
	if s, ok := inflectMaps["irregular_caps"][word]; ok {
		return s, true
	}
	if s, ok := inflectMaps["irregular"][last]; ok {
		return cut(len(last)) + s, true
	}
	if s, ok := inflectMaps["irregular_compound"][low]; ok {
		return cut(len(low)) + s, true
	}
	has := func(suffix string) bool { return strings.HasSuffix(low, suffix) }
	switch {
	case has("quies"):
		return cut(3) + "y", true
	case has("persons"):
		return cut(1), true
	case has("people"):
		return cut(4) + "rson", true
	}
	if has("mans") {
		if inflectEndsIn("man_mans", low) || inflectEndsIn("man_mans_caps", word) {
			return cut(1), true
		}
	}
	switch {
	case has("men"):
		return cut(3) + "man", true
	case has("mice"):
		return cut(4) + "mouse", true
	}
	if has("lice") && inflectIn("louse_lice", low) {
		return cut(4) + "louse", true
	}
	switch {
	case has("geese"):
		return cut(5) + "goose", true
	case has("teeth"):
		return cut(5) + "tooth", true
	case has("feet"):
		return cut(4) + "foot", true
	case low == "dice":
		return "die", true
	case has("ceps"):
		return word, true
	case has("zoa"):
		return cut(1) + "on", true
	}
	for _, r := range []struct {
		last  byte
		set   string
		cut   int
		after string
	}{
		{'s', "ch_chs", 1, ""}, {'s', "ex_ices", 4, "ex"}, {'s', "ix_ices", 4, "ix"},
		{'a', "um_a", 1, "um"}, {'i', "us_i", 1, "us"}, {'a', "on_a", 1, "on"}, {'e', "a_ae", 1, ""},
	} {
		if low[len(low)-1] == r.last && inflectEndsIn(r.set, low) {
			return cut(r.cut) + r.after, true
		}
	}
	if has("houses") || inflectIn("uses_use_case", word) || inflectIn("uses_use", last) {
		return cut(1), true
	}
	if inflectIn("ies_ie_case", word) || inflectIn("ies_ie", last) {
		return cut(1), true
	}
	if has("shoes") || inflectIn("oes_oe_case", word) || inflectIn("oes_oe", last) {
		return cut(1), true
	}
	if inflectIn("sses_sse_case", word) || inflectIn("sses_sse", last) {
		return cut(1), true
	}
	if inflectIn("singular_s_complete", last) || inflectEndsIn("singular_s_endings", low) {
		return cut(2), true
	}
	first := []rune(word)[0]
	if has("eses") && string(first) == strings.ToUpper(string(first)) {
		return cut(2), true
	}
	if inflectIn("z_zes", last) || inflectIn("zzes_zz", last) {
		return cut(2), true
	}
	if has("zzes") {
		return cut(3), true
	}
	if inflectIn("ches_che_case", word) || inflectIn("ches_che", last) {
		return cut(1), true
	}
	if has("ches") || has("shes") {
		return cut(2), true
	}
	if inflectIn("xes_xe", last) {
		return cut(1), true
	}
	if has("xes") {
		return cut(2), true
	}
	if inflectIn("ves_ve_case", word) || inflectIn("ves_ve", last) {
		return cut(1), true
	}
	if has("ves") && len(low) >= 5 {
		mid := low[len(low)-5 : len(low)-3]
		switch {
		case mid == "el" || mid == "al" || mid == "ol":
			return cut(3) + "f", true
		case mid == "ea" && (len(word) < 6 || word[len(word)-6] != 'd'):
			return cut(3) + "f", true
		case mid == "ni" || mid == "li" || mid == "wi":
			return cut(3) + "fe", true
		case mid == "ar":
			return cut(3) + "f", true
		}
	}
	if has("ys") {
		if len(low) > 2 && strings.IndexByte("aeiou", low[len(low)-3]) >= 0 {
			return cut(1), true
		}
		if string(first) == strings.ToUpper(string(first)) { // classical "names"
			return cut(1), true
		}
	}
	if has("ies") {
		return cut(3) + "y", true
	}
	if has("os") {
		if inflectIn("o_os_complete", last) || inflectEndsIn("o_os_endings", low) {
			return cut(1), true
		}
		for _, e := range []string{"aos", "eos", "ios", "oos", "uos"} {
			if has(e) {
				return cut(1), true
			}
		}
	}
	if has("oes") {
		return cut(2), true
	}
	if inflectIn("es_is", word) {
		return cut(2) + "is", true
	}
	if has("s") {
		return cut(1), true
	}
	return "", false
}

// inflectPostprocess is engine.postprocess for one word: the singular is
// capitalized like the plural (str.capitalize when the plural equals its
// capitalization, upper when it is all upper case).
func inflectPostprocess(orig, sing string) string {
	if orig == "I" {
		return sing
	}
	if pyCapitalize(orig) == orig {
		sing = pyCapitalize(sing)
	}
	if orig == strings.ToUpper(orig) {
		sing = strings.ToUpper(sing)
	}
	return sing
}

// pyCapitalize is str.capitalize: the first character upper case, the
// rest lower case.
func pyCapitalize(s string) string {
	r := []rune(s)
	if len(r) == 0 {
		return s
	}
	out := []rune{unicode.ToTitle(r[0])}
	for _, c := range r[1:] {
		out = append(out, unicode.ToLower(c))
	}
	return string(out)
}
