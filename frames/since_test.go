package frames

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/grip-dev/grip/protocol"
)

func TestSnapshotTextSince(t *testing.T) {
	tab := protocol.TabRef{ID: 7, URL: "http://x.test/a?q=1", Title: "Mail"}
	head := "Tab 7 · 'Mail' · http://x.test/a?q=1\n"
	short := "Tab 7 · 'Mail'\n"
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
		{"known tab, one frame: the tab line without its URL, the elements", head + top + lines, tab, tab, short + lines},
		{"new tab, one frame: the tab line names the page", head + top + lines, tab, protocol.TabRef{}, head + lines},
		{"known tab, frames: the top frame's line says where they start", head + top + lines + sub, tab, tab, short + top + lines + sub},
		{"new tab, frames: as it is", head + top + lines + sub, tab, protocol.TabRef{}, head + top + lines + sub},
		{"title changed since", head + top + lines, tab, protocol.TabRef{ID: 7, URL: tab.URL, Title: "Inbox"}, head + lines},
		{"the top frame shows another URL than the tab", head + "=== Frame: 0 (Top: http://x.test/b) ===\n" + lines, tab, tab, short + "=== Frame: 0 (Top: http://x.test/b) ===\n" + lines},
		{"no tab line (a text of another shape)", top + lines, tab, tab, top + lines},
		{"an empty page", head + top, tab, tab, short},
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

// A reader that leaves out the header lines it has (Options.Since, the MCP
// server) gets its budget's worth of the lines it reads: what it reads
// costs Tokens, never more than the budget, and as many elements as the
// budget allows with those lines free.
func TestSinceChargesWhatTheReaderReads(t *testing.T) {
	one := []FrameResult{{FrameID: 0, DocumentID: "D0", URL: designTab.URL}}
	for i := 1; i <= 300; i++ {
		one[0].Elements = append(one[0].Elements, protocol.Element{Ref: fmt.Sprintf("@e%d", i), Role: "button", Name: fmt.Sprintf("Item number %d", i)})
	}
	empty := append(slices.Clone(one), FrameResult{FrameID: 4, DocumentID: "D4", URL: "https://empty.example/"})
	for name, results := range map[string][]FrameResult{"one frame": one, "design": designResults(), "empty frame after": empty} {
		answered, skipped := Merge(results)
		for _, known := range []protocol.TabRef{{}, designTab} {
			for budget := 1; budget <= 400; budget++ {
				snap, err := Render(designTab, answered, skipped, Options{Budget: budget, Since: &known})
				if err != nil {
					t.Fatal(err)
				}
				read := SnapshotTextSince(snap, known)
				cost := 0
				for _, l := range strings.Split(strings.TrimSuffix(read, "\n"), "\n") {
					cost += Cost(l)
				}
				shown := len(flatten(snap.Frames))
				if cost != snap.Tokens || shown > 1 && cost > budget {
					t.Fatalf("%s, known %v, budget %d: the reader's text costs %d, Tokens %d:\n%s", name, known.ID, budget, cost, snap.Tokens, read)
				}
				if name != "one frame" {
					continue
				}
				// The same page charged every line: the lines the reader
				// leaves out are all it gets more.
				free := Cost(string(appendFrameHeader(nil, &answered[0])))
				if known == designTab {
					free += Cost(string(appendTabHeader(nil, designTab))) - Cost(KnownTabLine(designTab))
				}
				full, _ := Render(designTab, answered, skipped, Options{Budget: budget + free})
				if got, want := shown, len(flatten(full.Frames)); got != want && shown > 1 {
					t.Fatalf("known %v, budget %d: %d elements shown, want %d as with every line charged and %d more tokens", known.ID, budget, got, want, free)
				}
			}
		}
	}
}
