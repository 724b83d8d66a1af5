package mcp

import (
	"regexp"
	"slices"
	"testing"

	"github.com/grip-dev/grip/locator"
)

// The hand-written matchers of server.go are the regexps they replaced
// (kept out of the binary, docs/cli-cost.md, "The CLI's fixed cost"):
// these tests hold each equal to its regexp, on a table and under fuzzing.
var (
	publicRefRegexp     = regexp.MustCompile(`^@?e[1-9][0-9]*$`)
	bareRefRegexp       = regexp.MustCompile(`^e[1-9][0-9]*$`)
	readOnTrailerRegexp = regexp.MustCompile(`\(grip snapshot((?: --[a-z]+ [^ )]+)*)\)|grip snapshot shows it as it is now`)
)

// refCases are texts for locator.IsBareRef and isPublicRef, with what each is.
var refCases = []struct {
	in           string
	bare, public bool
}{
	{"e1", true, true},
	{"e3", true, true},
	{"e12", true, true},
	{"e9876543210", true, true},
	{"@e3", false, true},
	{"@e10", false, true},
	{"", false, false},
	{"e", false, false},
	{"@", false, false},
	{"@e", false, false},
	{"e0", false, false},
	{"e03", false, false},
	{"@e0", false, false},
	{"@@e3", false, false},
	{"E3", false, false},
	{"ex", false, false},
	{"e3x", false, false},
	{"e3 ", false, false},
	{" e3", false, false},
	{"e3\n", false, false},
	{"#e3", false, false},
	{"e-3", false, false},
	{"e+3", false, false},
	{"e٣", false, false}, // an Arabic-Indic three is no [0-9]
	{"e3\xff", false, false},
	{"iframe >>> e3", false, false},
}

func TestRefMatchers(t *testing.T) {
	for _, c := range refCases {
		if got := locator.IsBareRef(c.in); got != c.bare {
			t.Errorf("locator.IsBareRef(%q) = %v, want %v", c.in, got, c.bare)
		}
		if got := isPublicRef(c.in); got != c.public {
			t.Errorf("isPublicRef(%q) = %v, want %v", c.in, got, c.public)
		}
		checkRefMatchers(t, c.in)
	}
}

// checkRefMatchers fails where a ref matcher and its regexp disagree on s.
func checkRefMatchers(t *testing.T, s string) {
	t.Helper()
	if got, want := locator.IsBareRef(s), bareRefRegexp.MatchString(s); got != want {
		t.Errorf("locator.IsBareRef(%q) = %v, the regexp says %v", s, got, want)
	}
	if got, want := isPublicRef(s), publicRefRegexp.MatchString(s); got != want {
		t.Errorf("isPublicRef(%q) = %v, the regexp says %v", s, got, want)
	}
}

func FuzzRefMatchers(f *testing.F) {
	for _, c := range refCases {
		f.Add(c.in)
	}
	f.Fuzz(checkRefMatchers)
}

// trailerCases are texts for replaceReadOnTrailers, each with the texts
// it replaces marked ⟨so⟩.
var trailerCases = []struct{ in, marked string }{
	{"", ""},
	{"no trailer here", "no trailer here"},
	{"… 24 more lines (grip snapshot)\n", "… 24 more lines ⟨(grip snapshot)⟩\n"},
	{"(grip snapshot --after @e40)", "⟨(grip snapshot --after @e40)⟩"},
	{"x (grip snapshot --after @e40 --mode content --tab 5) y", "x ⟨(grip snapshot --after @e40 --mode content --tab 5)⟩ y"},
	{"grip snapshot shows it as it is now", "⟨grip snapshot shows it as it is now⟩"},
	{"(grip snapshot shows it as it is now)", "(⟨grip snapshot shows it as it is now⟩)"},
	{"(grip snapshot shows it as it is now", "(⟨grip snapshot shows it as it is now⟩"},
	{"grip snapshot shows it as it is nowgrip snapshot shows it as it is now", "⟨grip snapshot shows it as it is now⟩⟨grip snapshot shows it as it is now⟩"},
	{"(grip snapshot)(grip snapshot)", "⟨(grip snapshot)⟩⟨(grip snapshot)⟩"},
	{"((grip snapshot))", "(⟨(grip snapshot)⟩)"},
	{"(grip snapshot --after)", "(grip snapshot --after)"},
	{"(grip snapshot --after )", "(grip snapshot --after )"},
	{"(grip snapshot --after  @e4)", "(grip snapshot --after  @e4)"},
	{"(grip snapshot --after @e4 )", "(grip snapshot --after @e4 )"},
	{"(grip snapshot --after @e4 --)", "(grip snapshot --after @e4 --)"},
	{"(grip snapshot --after @e4 --tab)", "(grip snapshot --after @e4 --tab)"},
	{"(grip snapshot --After @e4)", "(grip snapshot --After @e4)"},
	{"(grip snapshot -- @e4)", "(grip snapshot -- @e4)"},
	{"(grip snapshot --a-b @e4)", "(grip snapshot --a-b @e4)"},
	{"(grip snapshot ---after @e4)", "(grip snapshot ---after @e4)"},
	{"(grip snapshot --after @e4", "(grip snapshot --after @e4"},
	{"(grip snapshot --after @e4\n)", "⟨(grip snapshot --after @e4\n)⟩"},
	{"(grip snapshot --after é\xff)", "⟨(grip snapshot --after é\xff)⟩"},
	{"(grip snapshot --after a(b)", "⟨(grip snapshot --after a(b)⟩"},
	{"(grip snapshot --after a)b)", "⟨(grip snapshot --after a)⟩b)"},
	{"(grip snapshot  --after @e4)", "(grip snapshot  --after @e4)"},
	{"(grip snapshot--after @e4)", "(grip snapshot--after @e4)"},
	{"(Grip snapshot)", "(Grip snapshot)"},
	{"(grip  snapshot)", "(grip  snapshot)"},
	{"(grip snapshot", "(grip snapshot"},
	{"(grip snapshot (grip snapshot)", "(grip snapshot ⟨(grip snapshot)⟩"},
	{"grip snapshot shows it as it is no", "grip snapshot shows it as it is no"},
	{"grip snapshot shows it as it is now (grip snapshot --tab 5)", "⟨grip snapshot shows it as it is now⟩ ⟨(grip snapshot --tab 5)⟩"},
	{"@e3: [button 'grip snapshot']\n", "@e3: [button 'grip snapshot']\n"},
}

// markTrailer is the replacement the tests give: the text, marked.
func markTrailer(m string) string { return "⟨" + m + "⟩" }

func TestReplaceReadOnTrailers(t *testing.T) {
	for _, c := range trailerCases {
		if got := replaceReadOnTrailers(c.in, markTrailer); got != c.marked {
			t.Errorf("replaceReadOnTrailers(%q) = %q, want %q", c.in, got, c.marked)
		}
		checkReadOnTrailers(t, c.in)
	}
}

// checkReadOnTrailers fails where replaceReadOnTrailers and the regexp's
// ReplaceAllStringFunc disagree on s: on the texts each replaces (marked,
// so their bounds show) and on readOnCall's result.
func checkReadOnTrailers(t *testing.T, s string) {
	t.Helper()
	if got, want := replaceReadOnTrailers(s, markTrailer), readOnTrailerRegexp.ReplaceAllStringFunc(s, markTrailer); got != want {
		t.Errorf("replaceReadOnTrailers(%q) = %q, the regexp gives %q", s, got, want)
	}
	var got, want []string
	replaceReadOnTrailers(s, func(m string) string { got = append(got, m); return m })
	readOnTrailerRegexp.ReplaceAllStringFunc(s, func(m string) string { want = append(want, m); return m })
	if !slices.Equal(got, want) {
		t.Errorf("replaceReadOnTrailers(%q) replaces %q, the regexp %q", s, got, want)
	}
}

func FuzzReadOnTrailers(f *testing.F) {
	for _, c := range trailerCases {
		f.Add(c.in)
	}
	f.Fuzz(checkReadOnTrailers)
}
