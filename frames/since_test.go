package frames

import (
	"testing"

	"github.com/grip-dev/grip/protocol"
)

func TestSnapshotTextSince(t *testing.T) {
	tab := protocol.TabRef{ID: 7, URL: "http://x.test/a?q=1", Title: "Mail"}
	head := "Tab 7 · 'Mail' · http://x.test/a?q=1\n"
	top := "=== Frame: 0 (Top: http://x.test/a?q=1) ===\n"
	lines := "@e1: [button 'Go']\n"
	sub := "=== Frame: 3 (http://y.test/card) ===\n@e2: [textbox 'Card']\n"
	for _, c := range []struct {
		name  string
		text  string
		tab   protocol.TabRef
		known protocol.TabRef
		want  string
	}{
		{"known tab, one frame: the elements only", head + top + lines, tab, tab, lines},
		{"new tab, one frame: the tab line names the page", head + top + lines, tab, protocol.TabRef{}, head + lines},
		{"known tab, frames: the top frame's line says where they start", head + top + lines + sub, tab, tab, top + lines + sub},
		{"new tab, frames: as it is", head + top + lines + sub, tab, protocol.TabRef{}, head + top + lines + sub},
		{"title changed since", head + top + lines, tab, protocol.TabRef{ID: 7, URL: tab.URL, Title: "Inbox"}, head + lines},
		{"the top frame shows another URL than the tab", head + "=== Frame: 0 (Top: http://x.test/b) ===\n" + lines, tab, tab, "=== Frame: 0 (Top: http://x.test/b) ===\n" + lines},
		{"no tab line (a text of another shape)", top + lines, tab, tab, top + lines},
		{"an empty page", head + top, tab, tab, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := SnapshotTextSince(protocol.Snapshot{Tab: c.tab, Text: c.text}, c.known); got != c.want {
				t.Errorf("got\n%q\nwant\n%q", got, c.want)
			}
		})
	}
}

func TestListLine(t *testing.T) {
	for _, c := range []struct {
		l     protocol.ListSummary
		found bool
		want  string
	}{
		{protocol.ListSummary{Ref: "@e3", Unit: "rows", First: 41, Last: 80, Total: 2000, Appeared: 40, Gone: 38}, false,
			"list @e3: rows 41–80 of 2,000 in view (40 appeared, 38 gone, not listed; grip find TEXT --in @e3 brings one into view)"},
		{protocol.ListSummary{Unit: "rows", First: 3451, Last: 3463, Total: 5002, Estimated: true, Appeared: 200, Gone: 200}, true,
			"list: rows about 3,451–3,463 of about 5,002 in view (200 appeared, 200 gone, not listed)"},
		{protocol.ListSummary{Ref: "@e1", Unit: "options", First: 1, Last: 12, Total: 12}, false, "list @e1: options 1–12 of 12 in view"},
		{protocol.ListSummary{Ref: "@e1", Unit: "items", Changed: 4}, false, "list @e1: (4 changed, not listed; grip find TEXT --in @e1 brings one into view)"},
	} {
		if got := ListLine(c.l, c.found); got != c.want {
			t.Errorf("ListLine(%+v)\n got %q\nwant %q", c.l, got, c.want)
		}
	}
}

func TestActionTextCountsTheList(t *testing.T) {
	res := protocol.ActionResult{OK: true, Tab: protocol.TabRef{ID: 1, URL: "http://x.test/"},
		Found: []protocol.Element{{Ref: "@e9", Role: "option", Name: "ORD-0400"}},
		Changes: protocol.Changes{Added: []string{"@e9", "@e10"}, Gone: []string{"@e2", "@e4", "@e5"},
			Appeared: []protocol.Element{{Ref: "@e10", Role: "button", Name: "Clear"}}},
		List: &protocol.ListSummary{Ref: "@e1", Unit: "options", First: 394, Last: 406, Total: 2000, Appeared: 21, Gone: 2, GoneRefs: []string{"@e2", "@e4"}}}
	want := "ok: find @e1\nTab 1 · http://x.test/\nfound:\n@e9: [option 'ORD-0400']\nadded:\n@e10: [button 'Clear']\n" +
		"list @e1: options 394–406 of 2,000 in view (21 appeared, 2 gone, not listed)\ngone: @e5\n"
	if got := ActionText("ok: find @e1", res); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}
