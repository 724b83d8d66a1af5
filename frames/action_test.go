package frames

import (
	"strings"
	"testing"

	"github.com/grip-dev/grip/protocol"
)

func TestActionText(t *testing.T) {
	v := "France"
	res := protocol.ActionResult{OK: true, Tab: protocol.TabRef{ID: 412, URL: "https://shop.example/", Title: "Shop"},
		Changes: protocol.Changes{URL: "https://shop.example/checkout", Title: "Checkout", Added: []string{"@e9", "@e10"}, Gone: []string{"@e4"},
			Changed:  []protocol.Element{{Ref: "@e3", Role: "combobox", Name: "Country", Value: &v, States: []string{"expanded"}}},
			Appeared: []protocol.Element{{Ref: "@e9", Role: "option", Name: "France"}}, Omitted: 1}}
	want := `ok: click @e3
Tab 412 · 'Checkout' · https://shop.example/checkout
changed:
@e3: [combobox 'Country' value='France' expanded]
added:
@e9: [option 'France']
… 1 more lines (grip snapshot)
gone: @e4
`
	if got := ActionText(Done("click", "@e3"), res); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	// No lines (a closed tab): the refs alone.
	res = protocol.ActionResult{OK: true, Tab: protocol.TabRef{ID: 7}, Detail: "closed tab 7", Changes: protocol.Changes{Added: []string{}, Gone: []string{"@e1", "@e2"}}}
	if got := ActionText(Done("tab_close", ""), res); got != "ok: tab_close (closed tab 7)\nTab 7\ngone: @e1 @e2\n" {
		t.Errorf("got %q", got)
	}
	// A download the action started: its state, size and where it is
	// (the URL until Chrome picked a path), before any snapshot.
	res = protocol.ActionResult{OK: true, Tab: protocol.TabRef{ID: 7}, Changes: protocol.Changes{Added: []string{}, Gone: []string{}},
		Download: &protocol.Download{ID: 3, State: "in_progress", Bytes: 10, URL: "https://x.test/a.csv"}, Snapshot: &protocol.Snapshot{Text: "SNAP\n"}}
	if got := ActionText(Done("click", "@e2"), res); got != "ok: click @e2\nTab 7\ndownload: in_progress, 10 bytes: https://x.test/a.csv\nSNAP\n" {
		t.Errorf("got %q", got)
	}
	res.Download = &protocol.Download{ID: 3, State: "interrupted", Error: "NETWORK_FAILED", Path: "/d/a.csv", Bytes: 4}
	if got := DownloadText(*res.Download); got != "download: interrupted (NETWORK_FAILED), 4 bytes: /d/a.csv" {
		t.Errorf("got %q", got)
	}
	// Typed text is never echoed.
	if got := Done("fill", "@e7"); strings.Contains(got, "secret") || got != "ok: fill @e7" {
		t.Errorf("Done = %q", got)
	}
}

func TestFitChanges(t *testing.T) {
	el := func(ref, name string) protocol.Element { return protocol.Element{Ref: ref, Role: "option", Name: name} }
	changed := []protocol.Element{el("@e1", "a")}                                  // "@e1: [option 'a']" = 17 runes, 6 tokens
	appeared := []protocol.Element{el("@e2", "b"), el("@e3", "c"), el("@e4", "d")} // 6 tokens each
	for _, tt := range []struct {
		budget, changed, appeared, omitted int
	}{
		{24, 1, 3, 0}, {23, 1, 2, 1}, {12, 1, 1, 2}, {5, 0, 0, 4}, {6, 1, 0, 3},
	} {
		c, a, o := FitChanges(changed, appeared, tt.budget)
		if len(c) != tt.changed || len(a) != tt.appeared || o != tt.omitted {
			t.Errorf("budget %d: kept %d changed, %d appeared, omitted %d; want %d %d %d", tt.budget, len(c), len(a), o, tt.changed, tt.appeared, tt.omitted)
		}
	}
}
