package locator_test

import (
	"strings"
	"testing"

	"github.com/grip-dev/grip/locator"
)

var lineCases = []struct {
	in   string
	want *locator.Line // nil: not a line (CSS or a ref)
}{
	{"button 'Save'", &locator.Line{Role: "button", Name: "Save"}},
	{"  [button 'Save']  ", &locator.Line{Role: "button", Name: "Save"}},
	{"button 'Edit' in 'Meeting notes'", &locator.Line{Role: "button", Name: "Edit", Context: "Meeting notes"}},
	{"[button 'Edit' in 'Meeting notes']", &locator.Line{Role: "button", Name: "Edit", Context: "Meeting notes"}},
	{`link 'Bob\'s page'`, &locator.Line{Role: "link", Name: "Bob's page"}},
	{`textbox 'C:\\tmp'`, &locator.Line{Role: "textbox", Name: `C:\tmp`}},
	{"button 'in' in 'in'", &locator.Line{Role: "button", Name: "in", Context: "in"}},
	// '' names an element with no name, as [textbox] shows it.
	{"textbox ''", &locator.Line{Role: "textbox"}},
	{"[textbox '' in 'Draft']", &locator.Line{Role: "textbox", Context: "Draft"}},
	// CSS stays CSS.
	{"button", nil},
	{"button.save", nil},
	{"[name='q']", nil},
	{"input[value='a b']", nil},
	{"a[href='x'] 'y'", nil},
	{"#save", nil},
	{"Button 'Save'", nil},
	{"button ' '", nil},
	{"button 'Save' extra", nil},
	{"button 'Save' in ''", nil},
	{"button 'Save", nil},
	{"button 'Save' in 'x' y", nil},
}

func TestParseLine(t *testing.T) {
	for _, c := range lineCases {
		t.Run(c.in, func(t *testing.T) {
			got, ok := locator.ParseLine(c.in)
			if c.want == nil {
				if ok {
					t.Fatalf("ParseLine(%q) = %+v, want not a line", c.in, got)
				}
				return
			}
			if !ok || got != *c.want {
				t.Fatalf("ParseLine(%q) = %+v %v, want %+v", c.in, got, ok, *c.want)
			}
			// Written back, it reads the same.
			again, ok := locator.ParseLine(got.String())
			if !ok || again != got {
				t.Errorf("round trip %q: %+v %v", got.String(), again, ok)
			}
			loc, err := locator.Parse(c.in)
			if err != nil || loc.Line == nil || *loc.Line != got {
				t.Errorf("Parse(%q) = %+v %v, want the line", c.in, loc, err)
			}
		})
	}
}

func FuzzParseLine(f *testing.F) {
	for _, c := range lineCases {
		f.Add(c.in)
	}
	f.Fuzz(func(t *testing.T, s string) {
		l, ok := locator.ParseLine(s)
		if !ok {
			return
		}
		if l.Role == "" || l.Name != "" && strings.TrimSpace(l.Name) == "" {
			t.Fatalf("ParseLine(%q) = %+v: a line has a role, and a name or none", s, l)
		}
		again, ok := locator.ParseLine(l.String())
		if !ok || again != l {
			t.Fatalf("round trip of %q: %q → %+v %v", s, l.String(), again, ok)
		}
	})
}
