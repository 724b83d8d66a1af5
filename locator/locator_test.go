package locator

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/grip-dev/grip/protocol"
)

var deep16 = strings.TrimSuffix(strings.Repeat("iframe >>> ", 15), " >>> ") + " >>> button"
var deep17 = "iframe >>> " + deep16

var parseTests = []struct {
	name string
	in   string
	want Locator
	err  string // substring of the refusal's message; "" means accepted
	hint string // substring of the hint
}{
	// Refs.
	{name: "ref", in: "@e5", want: Locator{Ref: 5}},
	{name: "ref spaces", in: "  @e12\t\n", want: Locator{Ref: 12}},
	{name: "ref max", in: "@e18446744073709551615", want: Locator{Ref: 18446744073709551615}},
	{name: "ref zero", in: "@e0", err: "refs count from @e1"},
	{name: "ref leading zero", in: "@e01", err: "no leading zeros"},
	{name: "ref letters", in: "@ex", err: "malformed ref", hint: "@e5"},
	{name: "ref no number", in: "@e", err: "malformed ref"},
	{name: "ref negative", in: "@e-1", err: "malformed ref"},
	{name: "ref plus", in: "@e+1", err: "malformed ref"},
	{name: "ref overflow", in: "@e99999999999999999999", err: "too large"},
	{name: "ref overflow by one", in: "@e18446744073709551616", err: "too large"},
	{name: "ref upper case", in: "@E5", err: "malformed ref"},
	{name: "ref inner space", in: "@e 5", err: "malformed ref"},
	{name: "ref trailing junk", in: "@e5x", err: "malformed ref"},
	{name: "at alone", in: "@", err: "malformed ref"},
	{name: "at selector", in: "@media", err: "malformed ref"},

	// Bare refs.
	{name: "bare ref", in: "e5", err: "looks like a ref without its @", hint: "did you mean @e5?"},
	{name: "bare ref big", in: " e123 ", err: "looks like a ref", hint: "did you mean @e123?"},
	{name: "bare ref in chain", in: "#f >>> e7", err: "segment 2 of 2 \"e7\" looks like a ref", hint: "did you mean @e7?"},
	{name: "e0 is css", in: "e0", want: Locator{Chain: []string{"e0"}}},
	{name: "e05 is css", in: "e05", want: Locator{Chain: []string{"e05"}}},
	{name: "e alone is css", in: "e", want: Locator{Chain: []string{"e"}}},
	{name: "e5 compound is css", in: "e5.x", want: Locator{Chain: []string{"e5.x"}}},

	// Empty and blank.
	{name: "empty", in: "", err: "empty locator"},
	{name: "whitespace", in: " \t\n ", err: "empty locator"},
	{name: "blank last", in: "#frame >>>", err: "segment 2 of 2 is blank"},
	{name: "blank first", in: ">>> a", err: "segment 1 of 2 is blank"},
	{name: "blank middle", in: "a >>> >>> b", err: "segment 2 of 3 is blank"},
	{name: "blank middle no spaces", in: "a>>>>>>b", err: "segment 2 of 3 is blank"},
	{name: "separator alone", in: ">>>", err: "is blank"},

	// Refs in chains.
	{name: "ref then css", in: "@e1 >>> #inner", err: "a chain cannot hold a ref", hint: "use the ref alone"},
	{name: "ref then css tight", in: "@e1>>>#inner", err: "a chain cannot hold a ref"},
	{name: "css then ref", in: "#f >>> @e2", err: "segment 2 of 2 is \"@e2\": a chain cannot hold a ref, a ref already names one node in one frame"},
	{name: "ref in middle", in: "#a >>> @e2 >>> b", err: "a chain cannot hold a ref"},
	{name: "malformed ref in chain", in: "#a >>> @x", err: "a chain cannot hold a ref"},

	// CSS and chains.
	{name: "css", in: "#login button.primary", want: Locator{Chain: []string{"#login button.primary"}}},
	{name: "css trimmed", in: "  div > a  ", want: Locator{Chain: []string{"div > a"}}},
	{name: "chain", in: "iframe#pay >>> input[name=card]", want: Locator{Chain: []string{"iframe#pay", "input[name=card]"}}},
	{name: "chain tight", in: "a>>>b>>>c", want: Locator{Chain: []string{"a", "b", "c"}}},
	{name: "chain newlines", in: "a\n>>>\n b", want: Locator{Chain: []string{"a", "b"}}},
	{name: "child combinator kept", in: "a >> b", want: Locator{Chain: []string{"a >> b"}}},
	{name: "four >", in: "a >>>> b", want: Locator{Chain: []string{"a", "> b"}}},
	{name: "separator in double quotes", in: `[title=">>>"] >>> b`, want: Locator{Chain: []string{`[title=">>>"]`, "b"}}},
	{name: "separator in single quotes", in: `iframe[src='a>>>b']`, want: Locator{Chain: []string{`iframe[src='a>>>b']`}}},
	{name: "escaped quote", in: `[a="x\" >>> y"]`, want: Locator{Chain: []string{`[a="x\" >>> y"]`}}},
	{name: "escaped separator", in: `a\>>> b`, want: Locator{Chain: []string{`a\>>> b`}}},
	{name: "unclosed quote", in: `[a="x >>> y`, want: Locator{Chain: []string{`[a="x >>> y`}}},
	{name: "trailing backslash segment", in: `a\ >>> b`, want: Locator{Chain: []string{`a\`, "b"}}},
	{name: "unicode", in: "#café >>> [aria-label='Größe']", want: Locator{Chain: []string{"#café", "[aria-label='Größe']"}}},
	{name: "depth 16", in: deep16, want: Locator{Chain: append(slicesRepeat("iframe", 15), "button")}},
	{name: "depth 17", in: deep17, err: "more than 16 segments"},
	{name: "very deep", in: strings.Repeat("a >>> ", 100000) + "b", err: "more than 16 segments"},

	// Limits.
	{name: "nul", in: "a\x00b", err: "NUL"},
	{name: "nul in chain", in: "iframe >>> a\x00", err: "segment 2 of 2 holds a NUL"},
	{name: "segment at limit", in: strings.Repeat("a", MaxSegment), want: Locator{Chain: []string{strings.Repeat("a", MaxSegment)}}},
	{name: "segment over limit", in: strings.Repeat("a", MaxSegment+1), err: "4097 bytes, over the limit of 4096"},
	{name: "long segment in chain", in: "iframe >>> " + strings.Repeat("b", MaxSegment+1), err: "segment 2 of 2 is 4097 bytes"},
	{name: "invalid utf-8", in: "a\xff", err: "not valid UTF-8"},
}

func slicesRepeat(s string, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = s
	}
	return out
}

func TestParse(t *testing.T) {
	for _, tt := range parseTests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Parse(tt.in)
			if tt.err == "" {
				if err != nil {
					t.Fatalf("Parse(%q) = %v", tt.in, err)
				}
				if !reflect.DeepEqual(got, tt.want) {
					t.Fatalf("Parse(%q) = %#v, want %#v", tt.in, got, tt.want)
				}
				if again, err := Parse(got.String()); err != nil || !reflect.DeepEqual(again, got) {
					t.Fatalf("Parse(String()) = %#v, %v; want %#v", again, err, got)
				}
				return
			}
			var pe *protocol.Error
			if !errors.As(err, &pe) {
				t.Fatalf("Parse(%q) = %#v, %v; want a *protocol.Error", tt.in, got, err)
			}
			if pe.Code != protocol.CodeInvalidLocator || pe.Boundary != protocol.BoundaryPayload {
				t.Errorf("code, boundary = %s, %s", pe.Code, pe.Boundary)
			}
			if !errors.Is(err, protocol.ErrInvalidLocator) {
				t.Errorf("not errors.Is ErrInvalidLocator")
			}
			if !strings.Contains(pe.Message, tt.err) {
				t.Errorf("message %q does not say %q", pe.Message, tt.err)
			}
			if pe.Hint == "" || !strings.Contains(pe.Hint, tt.hint) {
				t.Errorf("hint %q does not say %q", pe.Hint, tt.hint)
			}
			if len(pe.Message) > 300 {
				t.Errorf("message is %d bytes long", len(pe.Message))
			}
			if !reflect.DeepEqual(got, Locator{}) {
				t.Errorf("refused locator = %#v, want zero", got)
			}
		})
	}
}

func TestString(t *testing.T) {
	tests := []struct {
		l    Locator
		want string
	}{
		{Locator{Ref: 7}, "@e7"},
		{Locator{Chain: []string{"#a"}}, "#a"},
		{Locator{Chain: []string{"iframe", "#b"}}, "iframe >>> #b"},
		{Locator{}, ""},
	}
	for _, tt := range tests {
		if got := tt.l.String(); got != tt.want {
			t.Errorf("%#v.String() = %q, want %q", tt.l, got, tt.want)
		}
	}
	if !(Locator{Ref: 1}).IsRef() || (Locator{Chain: []string{"a"}}).IsRef() {
		t.Error("IsRef")
	}
}

func FuzzParse(f *testing.F) {
	for _, tt := range parseTests {
		if len(tt.in) < 10000 {
			f.Add(tt.in)
		}
	}
	f.Fuzz(func(t *testing.T, s string) {
		l, err := Parse(s)
		if err != nil {
			var pe *protocol.Error
			if !errors.As(err, &pe) || pe.Code != protocol.CodeInvalidLocator || pe.Message == "" || pe.Hint == "" {
				t.Fatalf("Parse(%q): bad refusal %#v", s, err)
			}
			return
		}
		if (l.Ref != 0) == (len(l.Chain) > 0) {
			t.Fatalf("Parse(%q) = %#v: want exactly one of ref and chain", s, l)
		}
		if len(l.Chain) > MaxDepth {
			t.Fatalf("Parse(%q): %d segments", s, len(l.Chain))
		}
		for _, seg := range l.Chain {
			if seg == "" || seg != strings.TrimSpace(seg) || len(seg) > MaxSegment || strings.HasPrefix(seg, "@") {
				t.Fatalf("Parse(%q): bad segment %q", s, seg)
			}
		}
		again, err := Parse(l.String())
		if err != nil || !reflect.DeepEqual(again, l) {
			t.Fatalf("Parse(%q) = %#v; Parse(%q) = %#v, %v", s, l, l.String(), again, err)
		}
	})
}
