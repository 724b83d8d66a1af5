package frames

import (
	"slices"
	"strings"
	"testing"

	"github.com/grip-dev/grip/protocol"
)

func TestLineShowsContext(t *testing.T) {
	e := protocol.Element{Ref: "@e4", Role: "button", Name: "Edit", Context: "Meeting 'notes'", States: []string{"disabled"}}
	if got, want := Line(e), `@e4: [button 'Edit' in 'Meeting \'notes\'' disabled]`; got != want {
		t.Errorf("Line = %s, want %s", got, want)
	}
}

func TestMatchLine(t *testing.T) {
	read := []FrameResult{
		{FrameID: 0, Elements: []protocol.Element{
			{Ref: "@e1", Role: "button", Name: "Save"},
			{Ref: "@e2", Role: "button", Name: "Edit", Context: "Meeting notes"},
			{Ref: "@e3", Role: "button", Name: "Edit", Context: "Invoices"},
			{Ref: "@e4", Role: "link", Name: "Save"},
		}},
		{FrameID: 1, Err: "did not answer", Elements: []protocol.Element{{Ref: "@e9", Role: "button", Name: "Save"}}},
		{FrameID: 2, Elements: []protocol.Element{
			{Ref: "@e5", Role: "button", Name: "Edit  ", Context: "Invoices"},
		}},
	}
	refs := func(els []protocol.Element) []string {
		var out []string
		for _, e := range els {
			out = append(out, e.Ref)
		}
		return out
	}
	for _, c := range []struct {
		role, name, ctx string
		want            []string
	}{
		{"button", "Save", "", []string{"@e1"}},
		{"link", "Save", "", []string{"@e4"}},
		{"button", "Edit", "", []string{"@e2", "@e3", "@e5"}},
		{"button", "Edit", "Meeting notes", []string{"@e2"}},
		{"button", "Edit", "Invoices", []string{"@e3", "@e5"}},
		{"button", "Edit", "Nowhere", nil},
		{"button", "Delete", "", nil},
		{"textbox", "Save", "", nil},
	} {
		if got := refs(MatchLine(read, c.role, c.name, c.ctx)); !slices.Equal(got, c.want) {
			t.Errorf("MatchLine(%s %q in %q) = %v, want %v", c.role, c.name, c.ctx, got, c.want)
		}
	}
}

func TestRepeats(t *testing.T) {
	read := []protocol.ExtFrame{
		{Elements: []protocol.ExtElement{{Role: "button", Name: "Edit", Context: "A"}, {Role: "button", Name: "Edit", Context: "B"}, {Role: "button", Name: "Save"}}},
		{Error: "blank frame", Elements: []protocol.ExtElement{{Role: "button", Name: "Save", Context: "C"}}},
	}
	r := Repeats(read)
	if !r.Has("button", "Edit") || r.Has("button", "Save") {
		t.Errorf("Repeats = %v", r)
	}
}

func TestFillValueToldOnce(t *testing.T) {
	v := "Ada Lovelace"
	res := protocol.ActionResult{OK: true, Detail: "value is now 'Ada Lovelace'",
		Changes: protocol.Changes{Changed: []protocol.Element{{Ref: "@e2", Role: "textbox", Name: "Note", Value: &v}}}}
	if got := ActionText("ok: fill @e2", res); strings.Count(got, "Ada Lovelace") != 1 {
		t.Errorf("the value is told %d times:\n%s", strings.Count(got, "Ada Lovelace"), got)
	}
	res.Changes.Changed = nil
	if got := ActionText("ok: fill @e2", res); !strings.Contains(got, "value is now 'Ada Lovelace'") {
		t.Errorf("without a changed line the detail is lost:\n%s", got)
	}
}
