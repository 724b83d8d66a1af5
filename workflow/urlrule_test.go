package workflow

import (
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"
)

// urlRegexp is URLPattern as it was written with regexp (kept out of the
// package: grip links no regexp), the rule URLRule must agree with.
func urlRegexp(tpl string, params map[string]string) *regexp.Regexp {
	var b strings.Builder
	literal := func(s string) { b.WriteString(regexp.QuoteMeta(strings.ReplaceAll(s, string(literalBrace), "{"))) }
	done := 0
	for _, p := range placeholders(tpl) {
		literal(tpl[done:p[0]])
		done = p[1]
		forms := URLForms(params[tpl[p[0]+2:p[1]-2]])
		for i, f := range forms {
			forms[i] = regexp.QuoteMeta(f)
		}
		b.WriteString("(?:" + strings.Join(forms, "|") + ")")
	}
	literal(tpl[done:])
	return regexp.MustCompile(b.String())
}

var urlRuleCases = []struct {
	tpl, page, url string
}{
	{"/index.php/{{PAGE}}", "Meeting notes", "http://h/index.php/Meeting_notes"},
	{"/index.php/{{PAGE}}", "Meeting notes", "http://h/index.php/Meeting%20notes"},
	{"/index.php/{{PAGE}}", "Meeting notes", "http://h/index.php/Other"},
	{"/wiki?title={{PAGE}}&x", "a b", "http://h/wiki?title=a+b&x=1"},
	{"/{{PAGE}}/{{PAGE}}", "ab", "http://h/ab/ab"},
	{"/{{PAGE}}/{{PAGE}}", "ab", "http://h/ab/a"},
	{"/plain", "", "http://h/plain/x"},
	{"{{PAGE}}", "", "anything"},
	{"/a{{PAGE}}b", "x", "/axxb /axb"},
}

func TestURLRuleIsTheRegexpsRule(t *testing.T) {
	for _, c := range urlRuleCases {
		p := map[string]string{"PAGE": c.page}
		if got, want := URLPattern(c.tpl, p).MatchString(c.url), urlRegexp(c.tpl, p).MatchString(c.url); got != want {
			t.Errorf("URLPattern(%q, PAGE=%q).MatchString(%q) = %v, the regexp says %v", c.tpl, c.page, c.url, got, want)
		}
	}
}

func FuzzURLRule(f *testing.F) {
	for _, c := range urlRuleCases {
		f.Add(c.tpl, c.page, c.url)
	}
	f.Fuzz(func(t *testing.T, tpl, page, url string) {
		if !utf8.ValidString(tpl) || !utf8.ValidString(page) {
			t.Skip("the regexp compares only valid UTF-8 (workflow files and URLs are)")
		}
		p := map[string]string{"PAGE": page, "X": page + "x"}
		if got, want := URLPattern(tpl, p).MatchString(url), urlRegexp(tpl, p).MatchString(url); got != want {
			t.Errorf("URLPattern(%q, PAGE=%q).MatchString(%q) = %v, the regexp says %v", tpl, page, url, got, want)
		}
	})
}
