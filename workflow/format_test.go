package workflow

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

var stepTests = []struct {
	line string
	want Step
}{
	{`navigate 'https://app.example/login'`, Step{Verb: "navigate", Text: "https://app.example/login", HasText: true}},
	{`fill textbox 'Email' with '{{EMAIL}}' at https://app.example`,
		Step{Verb: "fill", Target: Target{Role: "textbox", Name: "Email"}, Text: "{{EMAIL}}", HasText: true, Origin: "https://app.example"}},
	{`click button 'Sign in' at https://app.example then url 'https://app.example/home'`,
		Step{Verb: "click", Target: Target{Role: "button", Name: "Sign in"}, Origin: "https://app.example", Effect: Effect{URL: "https://app.example/home"}}},
	{`click button 'Edit' in 'Meeting notes' then appears dialog 'Rename'`,
		Step{Verb: "click", Target: Target{Role: "button", Name: "Edit", Context: "Meeting notes"}, Effect: Effect{Appears: Target{Role: "dialog", Name: "Rename"}}}},
	{`press 'Enter'`, Step{Verb: "press", Text: "Enter", HasText: true}},
	{`press textbox 'Search' with 'Control+A'`, Step{Verb: "press", Target: Target{Role: "textbox", Name: "Search"}, Text: "Control+A", HasText: true}},
	{`click css '#save > span'`, Step{Verb: "click", Target: Target{CSS: "#save > span"}}},
	{`click checkbox`, Step{Verb: "click", Target: Target{Role: "checkbox"}}},
	{`type textbox 'Note' with 'it\'s a \\ and \{{X}} and\nmore'`,
		Step{Verb: "type", Target: Target{Role: "textbox", Name: "Note"}, Text: "it's a \\ and " + string(literalBrace) + "{X}} and\nmore", HasText: true}},
	{`drag listitem 'Task A' to listitem 'Done'`, Step{Verb: "drag", Target: Target{Role: "listitem", Name: "Task A"}, To: Target{Role: "listitem", Name: "Done"}}},
	{`back`, Step{Verb: "back"}},
	{`select combobox 'Country' with 'France' at https://a.example:8443`,
		Step{Verb: "select", Target: Target{Role: "combobox", Name: "Country"}, Text: "France", HasText: true, Origin: "https://a.example:8443"}},
	{`type textbox 'Bell' with '\u{7}'`, Step{Verb: "type", Target: Target{Role: "textbox", Name: "Bell"}, Text: "\a", HasText: true}},
}

func TestParseStep(t *testing.T) {
	for _, tc := range stepTests {
		t.Run(tc.line, func(t *testing.T) {
			got, err := ParseStep(tc.line)
			if err != nil {
				t.Fatalf("ParseStep: %v", err)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("ParseStep = %+v\nwant        %+v", got, tc.want)
			}
			// What Format writes reads back the same.
			again, err := ParseStep(FormatStep(got))
			if err != nil || !reflect.DeepEqual(again, got) {
				t.Fatalf("round trip through %q: %+v, %v", FormatStep(got), again, err)
			}
		})
	}
}

func TestParseStepRefuses(t *testing.T) {
	tests := []struct{ line, says string }{
		{`explode button 'X'`, "unknown verb"},
		{`click`, "needs a target"},
		{`click button 'Save`, "not closed"},
		{`click button 'Save' with`, "quoted text"},
		{`click button 'Save'x`, "space must follow"},
		{`navigate`, "needs its url"},
		{`back 'https://x'`, "takes no text"},
		{`click button 'A' then`, "then takes"},
		{`click button 'A' at`, "origin"},
		{`click button 'A' frobnicate`, "expected with"},
		{`drag listitem 'A'`, "drop target"},
		{`click button 'A' to button 'B'`, "drop target"},
		{`fill textbox 'A' with 'x\q'`, "unknown escape"},
		{`fill textbox 'A' with 'x\u{zz}'`, "bad \\u escape"},
		{`'click' button`, "starts with its verb"},
		{`click but'ton`, "quote must start"},
		{`click but$(x)ton 'Save'`, "a role is"},
		{`click button 'Save' at https://a$(x)`, "origin"},
	}
	for _, tc := range tests {
		t.Run(tc.line, func(t *testing.T) {
			_, err := ParseStep(tc.line)
			if err == nil || !strings.Contains(err.Error(), tc.says) {
				t.Fatalf("ParseStep(%q) = %v, want an error saying %q", tc.line, err, tc.says)
			}
		})
	}
}

func TestParseFile(t *testing.T) {
	text := "# grip workflow\n# parameters: EMAIL\n\nnavigate 'https://a.example/'\n# a note between steps\nfill textbox 'Email' with '{{EMAIL}}'\r\n"
	w, err := Parse(strings.NewReader(text))
	if err != nil {
		t.Fatal(err)
	}
	if len(w.Steps) != 2 || w.Steps[0].Line != 4 || w.Steps[1].Line != 6 {
		t.Fatalf("steps %+v", w.Steps)
	}
	if want := []string{"parameters: EMAIL"}; !reflect.DeepEqual(w.Comments, want) {
		t.Fatalf("comments %q, want %q", w.Comments, want)
	}
	if got := w.Params(); !reflect.DeepEqual(got, []string{"EMAIL"}) {
		t.Fatalf("params %q", got)
	}
	_, err = Parse(strings.NewReader(Header + "\nnavigate 'https://a.example/'\nclick\n"))
	var pe *ParseError
	if !errors.As(err, &pe) || pe.Line != 3 {
		t.Fatalf("a bad third line: %v, want a ParseError on line 3", err)
	}
	if _, err := Parse(strings.NewReader(Header + "\n# only comments\n")); err == nil {
		t.Fatal("a file with no steps parsed")
	}
	if _, err := Parse(strings.NewReader(Header + "\nclick css '" + strings.Repeat("x", MaxLine) + "'\n")); err == nil || !strings.Contains(err.Error(), "longer") {
		t.Fatalf("an over-long line: %v", err)
	}
}

func TestLiteralAndExpand(t *testing.T) {
	tests := []struct{ text string }{
		{"plain"}, {"{{NAME}}"}, {"{{{x}}}"}, {"a { b"}, {"{{"}, {"{"}, {`{"json": {"a": 1}}`},
	}
	for _, tc := range tests {
		tpl := Literal(tc.text)
		got, err := Expand(tpl, nil)
		if err != nil || got != tc.text {
			t.Errorf("Expand(Literal(%q)) = %q, %v", tc.text, got, err)
		}
		// And through the file.
		s, err := ParseStep(FormatStep(Step{Verb: "type", Target: Target{Role: "textbox"}, Text: tpl, HasText: true}))
		if err != nil {
			t.Fatalf("%q: %v", tc.text, err)
		}
		if got, err := Expand(s.Text, nil); err != nil || got != tc.text {
			t.Errorf("%q through the file: %q, %v", tc.text, got, err)
		}
	}
	got, err := Expand("Dear {{NAME}}, {{NAME}}!", map[string]string{"NAME": "Ann"})
	if err != nil || got != "Dear Ann, Ann!" {
		t.Fatalf("Expand = %q, %v", got, err)
	}
	if _, err := Expand("{{MISSING}}", nil); err == nil || !strings.Contains(err.Error(), "--param MISSING=") {
		t.Fatalf("a missing value: %v", err)
	}
}

func TestParamName(t *testing.T) {
	for in, want := range map[string]string{"Password": "PASSWORD", "E-mail address": "E_MAIL_ADDRESS", "": "VALUE", "***": "VALUE", "2FA code": "FA_CODE"} {
		if got := ParamName(in); got != want {
			t.Errorf("ParamName(%q) = %q, want %q", in, got, want)
		}
	}
}

// FuzzParse: no input makes Parse panic, and a file that parses formats
// to one that parses to the same steps.
func FuzzParse(f *testing.F) {
	for _, tc := range stepTests {
		f.Add(tc.line)
	}
	f.Add(Header + "\n# c\nnavigate 'x'\n\nclick button 'a\\'b'")
	f.Add(Header + "\ntype textbox 'a' with '\\u{27};touch PWNED;#'")
	f.Fuzz(func(t *testing.T, text string) {
		w, err := Parse(strings.NewReader(text))
		if err != nil {
			return
		}
		again, err := Parse(strings.NewReader(Format(w)))
		if err != nil {
			t.Fatalf("Format's output does not parse: %v\n%s", err, Format(w))
		}
		for i := range w.Steps {
			w.Steps[i].Line, again.Steps[i].Line = 0, 0
		}
		if !reflect.DeepEqual(w.Steps, again.Steps) {
			t.Fatalf("round trip changed the steps:\n%+v\n%+v", w.Steps, again.Steps)
		}
	})
}
