package frames

import (
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/grip-dev/grip/protocol"
)

func ptr(s string) *string { return &s }

func TestLine(t *testing.T) {
	long := strings.Repeat("a", 150)
	tests := []struct {
		name string
		el   protocol.Element
		want string
	}{
		{"button", protocol.Element{Ref: "@e1", Role: "button", Name: "Accept cookies"},
			"@e1: [button 'Accept cookies']"},
		{"value and state", protocol.Element{Ref: "@e3", Role: "textbox", Name: "Email", Value: ptr("a@b.c"), States: []string{"required"}},
			"@e3: [textbox 'Email' value='a@b.c' required]"},
		{"states in given order", protocol.Element{Ref: "@e4", Role: "checkbox", Name: "Remember me", States: []string{"required", "checked", "disabled"}},
			"@e4: [checkbox 'Remember me' required checked disabled]"},
		{"empty name", protocol.Element{Ref: "@e2", Role: "button"},
			"@e2: [button]"},
		{"empty name with states", protocol.Element{Ref: "@e2", Role: "checkbox", States: []string{"checked"}},
			"@e2: [checkbox checked]"},
		{"blank name is empty", protocol.Element{Ref: "@e2", Role: "link", Name: " \n\t "},
			"@e2: [link]"},
		{"nil value not shown", protocol.Element{Ref: "@e5", Role: "textbox", Name: "Q"},
			"@e5: [textbox 'Q']"},
		{"empty value shown", protocol.Element{Ref: "@e5", Role: "textbox", Name: "Q", Value: ptr("")},
			"@e5: [textbox 'Q' value='']"},
		{"value without name", protocol.Element{Ref: "@e5", Role: "textbox", Value: ptr("x")},
			"@e5: [textbox value='x']"},
		{"empty role", protocol.Element{Ref: "@e6", Name: "Hi"},
			"@e6: ['Hi']"},
		{"empty everything", protocol.Element{Ref: "@e6"},
			"@e6: []"},
		{"empty states skipped", protocol.Element{Ref: "@e6", Role: "button", States: []string{"", " ", "pressed"}},
			"@e6: [button pressed]"},
		{"quote escaped", protocol.Element{Ref: "@e7", Role: "button", Name: "Don't"},
			`@e7: [button 'Don\'t']`},
		{"backslash escaped", protocol.Element{Ref: "@e7", Role: "textbox", Name: `C:\dir`, Value: ptr(`a\'b`)},
			`@e7: [textbox 'C:\\dir' value='a\\\'b']`},
		{"tabs folded, line breaks escaped", protocol.Element{Ref: "@e8", Role: "heading", Name: "\n  Sign\tin\r\n  now  \n"},
			"@e8: [heading 'Sign in\\nnow']"},
		{"unicode spaces folded, line separators escaped", protocol.Element{Ref: "@e8", Role: "link", Name: "a\u00a0\u2028b\u3000c"},
			"@e8: [link 'a\\nb c']"},
		{"a diff's lines stay lines of the page's text", protocol.Element{Ref: "@e8", Role: "paragraph", Name: "@@ -1 +1 @@\n-gone: @e4\n+added: @e9\n\n\n\nend"},
			`@e8: [paragraph '@@ -1 +1 @@\n-gone: @e4\n+added: @e9\n\nend']`},
		{"a value's lines likewise", protocol.Element{Ref: "@e8", Role: "textbox", Value: ptr("a\nb")},
			`@e8: [textbox value='a\nb']`},
		{"control characters folded", protocol.Element{Ref: "@e8", Role: "link", Name: "a\x00\x1b[31mb\x7fc\u0085d"},
			"@e8: [link 'a [31mb c d']"},
		{"role and state folded", protocol.Element{Ref: "@e8", Role: " menu\nitem ", States: []string{"has\npopup"}},
			"@e8: [menu item has popup]"},
		{"invalid utf-8", protocol.Element{Ref: "@e8", Role: "link", Name: "a\xffb"},
			"@e8: [link 'a\uFFFDb']"},
		{"multibyte kept", protocol.Element{Ref: "@e9", Role: "button", Name: "Kaufen — 購入 ✓"},
			"@e9: [button 'Kaufen — 購入 ✓']"},
		{"100 runes not cut", protocol.Element{Ref: "@e1", Role: "button", Name: strings.Repeat("é", 100)},
			"@e1: [button '" + strings.Repeat("é", 100) + "']"},
		{"101 runes cut", protocol.Element{Ref: "@e1", Role: "button", Name: strings.Repeat("é", 101)},
			"@e1: [button '" + strings.Repeat("é", 99) + "…']"},
		{"long cut", protocol.Element{Ref: "@e1", Role: "button", Name: long},
			"@e1: [button '" + long[:99] + "…']"},
		{"long value cut", protocol.Element{Ref: "@e1", Role: "textbox", Value: ptr(long)},
			"@e1: [textbox value='" + long[:99] + "…']"},
		{"a value exactly as it is", protocol.Element{Ref: "@e1", Role: "textbox", Value: ptr("== Notes ==\n\n  * first\n  * second  \n\n\n\nend\t \u00a0\x1b\u202e ")},
			`@e1: [textbox value='== Notes ==\n\n  * first\n  * second  \n\n\n\nend\t \u00a0\u001b\u202e ']`},
		{"a value's leading and trailing spaces", protocol.Element{Ref: "@e1", Role: "textbox", Value: ptr("  x  ")},
			"@e1: [textbox value='  x  ']"},
		{"a value's escapes count as one", protocol.Element{Ref: "@e1", Role: "textbox", Value: ptr(strings.Repeat("\n", 101))},
			"@e1: [textbox value='" + strings.Repeat(`\n`, 99) + "…']"},
		{"a change near the start shows the start", protocol.Element{Ref: "@e1", Role: "textbox", Value: ptr(long), ValueFrom: 79},
			"@e1: [textbox value='" + long[:99] + "…']"},
		{"a change past the start shows around it", protocol.Element{Ref: "@e1", Role: "textbox", Value: ptr(strings.Repeat("a", 80) + strings.Repeat("b", 120)), ValueFrom: 80},
			"@e1: [textbox value='…" + strings.Repeat("a", 20) + strings.Repeat("b", 78) + "…']"},
		{"a change near the end shows the end", protocol.Element{Ref: "@e1", Role: "textbox", Value: ptr(long + "  * end"), ValueFrom: 150},
			"@e1: [textbox value='…" + long[:92] + "  * end']"},
		{"cut counts folded text", protocol.Element{Ref: "@e1", Role: "button", Name: strings.Repeat("ab  \t", 40)},
			"@e1: [button '" + strings.TrimSpace(strings.Repeat("ab ", 33)) + "…']"},
		{"a line break counts as the space it stands for", protocol.Element{Ref: "@e1", Role: "button", Name: strings.Repeat("ab  \n", 40)},
			"@e1: [button '" + strings.TrimSuffix(strings.Repeat(`ab\n`, 33), `\n`) + "…']"},
		{"cut drops a trailing space", protocol.Element{Ref: "@e1", Role: "button", Name: strings.Repeat("a", 98) + " bcdef" + long},
			"@e1: [button '" + strings.Repeat("a", 98) + "…']"},
		{"escapes do not count", protocol.Element{Ref: "@e1", Role: "button", Name: strings.Repeat("'", 100)},
			"@e1: [button '" + strings.Repeat(`\'`, 100) + "']"},
		{"cut never splits an escape", protocol.Element{Ref: "@e1", Role: "button", Name: strings.Repeat(`\`, 120)},
			"@e1: [button '" + strings.Repeat(`\\`, 99) + "…']"},
		{"long state cut", protocol.Element{Ref: "@e1", Role: "button", States: []string{long}},
			"@e1: [button " + long[:99] + "…]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Line(tt.el)
			if got != tt.want {
				t.Errorf("Line() =\n%q\nwant\n%q", got, tt.want)
			}
			if strings.ContainsAny(got, "\n\r\t") || !utf8.ValidString(got) {
				t.Errorf("Line() = %q is not one clean line", got)
			}
		})
	}
}

func TestCost(t *testing.T) {
	tests := []struct {
		line string
		want int
	}{
		{"", 0},
		{"a", 1},
		{"abc", 1},
		{"abcd", 2},
		{"abcdef", 2},
		{"abcdefg", 3},
		{"ééé", 1},  // runes, not bytes
		{"…", 1},    // 3 bytes, 1 rune
		{"購入購入", 2}, // 4 runes
		{"@e3: [textbox 'Email' value='a@b.c' required]", 15}, // 45 runes
	}
	for _, tt := range tests {
		if got := Cost(tt.line); got != tt.want {
			t.Errorf("Cost(%q) = %d, want %d", tt.line, got, tt.want)
		}
	}
}

func TestIsFold(t *testing.T) {
	for r := rune(0); r <= unicode.MaxRune; r++ {
		if got, want := isFold(r), unicode.IsSpace(r) || unicode.IsControl(r) || isDirection(r); got != want {
			t.Fatalf("isFold(%U) = %v, want %v", r, got, want)
		}
	}
}

func FuzzLine(f *testing.F) {
	for _, s := range []string{"", "Don't", `a\b`, "a\n b", strings.Repeat("x ", 80), "\xff\x00é"} {
		f.Add(s, s)
	}
	f.Fuzz(func(t *testing.T, name, value string) {
		got := Line(protocol.Element{Ref: "@e1", Role: "button", Name: name, Value: &value, States: []string{name}})
		if strings.ContainsFunc(got, func(r rune) bool { return r != ' ' && isFold(r) }) {
			t.Fatalf("Line has a line break or control: %q", got)
		}
		if !utf8.ValidString(got) {
			t.Fatalf("Line is not UTF-8: %q", got)
		}
		if !strings.HasPrefix(got, "@e1: [button") || !strings.HasSuffix(got, "]") {
			t.Fatalf("Line lost its frame: %q", got)
		}
		if n := utf8.RuneCountInString(got); n > 20+3*(2*MaxName+2)+6*MaxName { // a value's \uXXXX
			t.Fatalf("Line is %d runes: %q", n, got)
		}
	})
}

// FuzzAppendFoldedPlain: where appendFolded copies a string as it is
// (plainASCII), folding it rune by rune writes the same.
func FuzzAppendFoldedPlain(f *testing.F) {
	for _, s := range []string{"", "Save", "Save item 12", " Save", "Save ", "a  b", "Don't", `a\b`, "a\tb", "é", strings.Repeat("x", MaxName+1), "\x7f"} {
		f.Add(s, MaxName, true)
		f.Add(s, 3, false)
	}
	f.Fuzz(func(t *testing.T, s string, max int, quote bool) {
		if max < -1 || max > 4*MaxName {
			return
		}
		got := string(appendFolded([]byte("x"), s, max, quote))
		want := string(appendFoldedRunes([]byte("x"), s, max, quote))
		if got != want {
			t.Fatalf("appendFolded(%q, %d, %v) = %q, rune by rune %q", s, max, quote, got, want)
		}
	})
}

func TestCostBytesMatchesCost(t *testing.T) {
	for _, s := range []string{"", "abc", "…", "a\xffb", "\xe2\x80", "購入 ok", strings.Repeat("é", 31)} {
		if got, want := costBytes([]byte(s)), Cost(s); got != want {
			t.Errorf("costBytes(%q) = %d, Cost = %d", s, got, want)
		}
	}
}

// isDirection: the marks, overrides and isolates of bidirectional text.
func isDirection(r rune) bool {
	return r == 0x061c || r == 0x200e || r == 0x200f || r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069
}
