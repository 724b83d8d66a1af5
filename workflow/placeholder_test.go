package workflow

import (
	"fmt"
	"reflect"
	"regexp"
	"strings"
	"testing"
)

// placeholderRegexp is the regexp placeholderAt reads by hand (kept out of
// the binary, docs/cli-cost.md, "The CLI's fixed cost"): these tests
// hold the two equal, on a table and under fuzzing.
var placeholderRegexp = regexp.MustCompile(`\{\{([A-Za-z][A-Za-z0-9_]*)\}\}`)

// placeholderCases are templates with the names of their placeholders.
var placeholderCases = []struct {
	in    string
	names []string
}{
	{"", nil},
	{"plain text", nil},
	{"{{EMAIL}}", []string{"EMAIL"}},
	{"Dear {{NAME}}, {{NAME}}!", []string{"NAME", "NAME"}},
	{"{{a}}{{B_2}}", []string{"a", "B_2"}},
	{"{{x_}}", []string{"x_"}},
	{"{{}}", nil},
	{"{{_X}}", nil},
	{"{{2X}}", nil},
	{"{{X-Y}}", nil},
	{"{{X Y}}", nil},
	{"{{X}", nil},
	{"{X}}", nil},
	{"{ {X}}", nil},
	{"{{X}}}", []string{"X"}},
	{"{{{X}}", []string{"X"}},
	{"{{{{X}}}}", []string{"X"}},
	{"{{X{{Y}}", []string{"Y"}},
	{"{{X}}Y}}", []string{"X"}},
	{"{{X}}{{", []string{"X"}},
	{"{{É}}", nil},
	{"{{Xé}}", nil},
	{"{{X\xff}}", nil},
	{"\xff{{X}}\xff", []string{"X"}},
	{"\uE000{X}}", nil}, // a literal brace (Literal) starts none
	{"{\uE000{X}}", nil},
	{"{{X}}\n{{Y}}", []string{"X", "Y"}},
}

func TestPlaceholders(t *testing.T) {
	for _, c := range placeholderCases {
		var names []string
		for _, p := range placeholders(c.in) {
			names = append(names, c.in[p[0]+2:p[1]-2])
		}
		if !reflect.DeepEqual(names, c.names) {
			t.Errorf("placeholders(%q) name %q, want %q", c.in, names, c.names)
		}
		checkPlaceholders(t, c.in)
	}
}

// checkPlaceholders fails where placeholders and Expand disagree on s with
// the regexp and Expand as it was written with it.
func checkPlaceholders(t *testing.T, s string) {
	t.Helper()
	var got [][]int
	for _, p := range placeholders(s) {
		got = append(got, []int{p[0], p[1], p[0] + 2, p[1] - 2})
	}
	if want := placeholderRegexp.FindAllStringSubmatchIndex(s, -1); !reflect.DeepEqual(got, want) {
		t.Errorf("placeholders(%q) = %v, the regexp finds %v", s, got, want)
	}
	// Names of an even length have a value; the others are missing.
	params := map[string]string{}
	for _, m := range placeholderRegexp.FindAllStringSubmatch(s, -1) {
		if len(m[1])%2 == 0 {
			params[m[1]] = "<" + m[1] + ">"
		}
	}
	for _, p := range []map[string]string{params, nil} {
		got, gotErr := Expand(s, p)
		want, wantErr := expandWithRegexp(s, p)
		if got != want || fmt.Sprint(gotErr) != fmt.Sprint(wantErr) {
			t.Errorf("Expand(%q, %v) = %q, %v; with the regexp %q, %v", s, p, got, gotErr, want, wantErr)
		}
	}
}

// expandWithRegexp is Expand as it was written with the regexp.
func expandWithRegexp(s string, params map[string]string) (string, error) {
	var missing []string
	out := placeholderRegexp.ReplaceAllStringFunc(s, func(m string) string {
		name := m[2 : len(m)-2]
		v, ok := params[name]
		if !ok {
			missing = append(missing, name)
			return m
		}
		return v
	})
	if len(missing) > 0 {
		return "", fmt.Errorf("no value for {{%s}}: give it with --param %s=VALUE", missing[0], missing[0])
	}
	return strings.ReplaceAll(out, string(literalBrace), "{"), nil
}

func FuzzPlaceholders(f *testing.F) {
	for _, c := range placeholderCases {
		f.Add(c.in)
	}
	f.Fuzz(checkPlaceholders)
}
