package frames

import (
	"fmt"
	"slices"
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
		{24, 1, 3, 0}, {19, 1, 2, 1}, {12, 1, 1, 2}, {5, 0, 0, 4}, {6, 1, 0, 3},
	} {
		c, a, o, after := FitChanges(changed, appeared, tt.budget)
		if len(c) != tt.changed || len(a) != tt.appeared || o != tt.omitted {
			t.Errorf("budget %d: kept %d changed, %d appeared, omitted %d; want %d %d %d", tt.budget, len(c), len(a), o, tt.changed, tt.appeared, tt.omitted)
		}
		if want := lastRef(a); after != want {
			t.Errorf("budget %d: reads on after %q, want %q", tt.budget, after, want)
		}
	}
}

// TestFitChangesDoesNotCutAFewLines: a cut that would leave out one or
// two lines, over the budget by at most a quarter of it, is not made (a
// cut of two lines cost Deluge's preferences their Apply and OK, and the
// agent a call); a longer cut, or one further over, comes where it did.
func TestFitChangesDoesNotCutAFewLines(t *testing.T) {
	el := func(ref, name string) protocol.Element { return protocol.Element{Ref: ref, Role: "option", Name: name} }
	var appeared []protocol.Element
	for i := 1; i <= 10; i++ {
		appeared = append(appeared, el(fmt.Sprintf("@e%d", i+10), "x")) // 6 tokens each, 60 in all
	}
	for _, tt := range []struct{ budget, kept, omitted int }{{48, 10, 0}, {54, 10, 0}, {47, 7, 3}, {30, 5, 5}, {45, 7, 3}} {
		_, a, o, _ := FitChanges(nil, appeared, tt.budget)
		if len(a) != tt.kept || o != tt.omitted {
			t.Errorf("budget %d: kept %d, omitted %d; want %d, %d", tt.budget, len(a), o, tt.kept, tt.omitted)
		}
	}
}

// An editor that opened below its toolbar: the reply cut among the
// buttons keeps the text field after them, in page order, and reads on
// from the last button of the unbroken run.
func TestFitChangesKeepsFieldsPastTheCut(t *testing.T) {
	var appeared []protocol.Element
	for i := 2; i <= 20; i++ {
		appeared = append(appeared, protocol.Element{Ref: fmt.Sprintf("@e%d", i), Role: "button", Name: "bold"})
	}
	appeared = append(appeared, protocol.Element{Ref: "@e21", Role: "textbox", Name: "Type the text"},
		protocol.Element{Ref: "@e22", Role: "button", Name: "save"})
	_, a, o, after := FitChanges(nil, appeared, 60)
	if len(a) < 2 || a[len(a)-1].Ref != "@e21" || o != len(appeared)-len(a) {
		t.Fatalf("kept %v, omitted %d; want the buttons that fit, then @e21", refs(a), o)
	}
	if after != a[len(a)-2].Ref || after == "@e21" {
		t.Errorf("reads on after %q; want the last button kept (%s)", after, a[len(a)-2].Ref)
	}
	// A field inside the run costs nothing twice: the same budget keeps as
	// many lines as when it was a button.
	fieldFirst := append([]protocol.Element{{Ref: "@e1", Role: "textbox", Name: "t"}}, appeared[:19]...)
	buttonFirst := append([]protocol.Element{{Ref: "@e1", Role: "button", Name: "t"}}, appeared[:19]...)
	_, a1, _, _ := FitChanges(nil, fieldFirst, 60)
	_, a2, _, _ := FitChanges(nil, buttonFirst, 60)
	if len(a1) != len(a2) {
		t.Errorf("a field in the run kept %d lines, a button %d", len(a1), len(a2))
	}
	// A cut among changed lines keeps no appeared ones, fields or not.
	changed := appeared[:19]
	if c, a, _, after := FitChanges(changed, appeared[19:], 30); len(a) != 0 || len(c) == len(changed) || after != "" {
		t.Errorf("a cut among changed: kept %d changed, %v appeared, after %q", len(c), refs(a), after)
	}
}

func refs(els []protocol.Element) []string {
	var out []string
	for _, e := range els {
		out = append(out, e.Ref)
	}
	return out
}

// What the app said comes right after what was done, quoted as page text.
func TestActionTextSaid(t *testing.T) {
	res := protocol.ActionResult{OK: true, Said: []protocol.Said{{Role: "flash", Text: "Invalid user or\npassword"}, {Role: "validation", Text: "Please fill out this field.", Ref: "@e4"}}}
	got := ActionText("ok: click @e3", res)
	want := "ok: click @e3\nsaid: 'Invalid user or\\npassword'\nsaid: 'Please fill out this field.' (@e4)\n"
	if got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// On a new page the refs of the old one are said gone in one line.
func TestActionTextGoneOnNavigation(t *testing.T) {
	res := protocol.ActionResult{OK: true, Changes: protocol.Changes{Gone: []string{"@e1", "@e2", "@e3"}, Navigated: true}}
	if got := ActionText("ok: click @e3", res); !strings.Contains(got, "gone: every ref of the previous page (3): the tab loaded a page\n") || strings.Contains(got, "@e2") {
		t.Errorf("got %q", got)
	}
	res.Changes.Navigated = false
	if got := ActionText("ok: click @e3", res); !strings.Contains(got, "gone: @e1–@e3\n") {
		t.Errorf("got %q", got)
	}
}

// TestGoneRunsSaidAsRanges: refs given out together and gone together (a
// dialog closed) are said as their first and last; two in a row, a gap
// and a ref out of order stay as they are.
func TestGoneRunsSaidAsRanges(t *testing.T) {
	for _, c := range []struct {
		gone []string
		want string
	}{
		{[]string{"@e4"}, "@e4"},
		{[]string{"@e4", "@e5"}, "@e4 @e5"},
		{[]string{"@e4", "@e5", "@e6"}, "@e4–@e6"},
		{[]string{"@e2", "@e774", "@e775", "@e776", "@e777", "@e900", "@e901", "@e7"}, "@e2 @e774–@e777 @e900 @e901 @e7"},
		{[]string{"@e9", "@e8", "@e7"}, "@e9 @e8 @e7"},
		{[]string{"@e1", "@e3", "@e4", "@e5", "x", "@e6"}, "@e1 @e3–@e5 x @e6"},
	} {
		if got := refRuns(c.gone); got != c.want {
			t.Errorf("refRuns(%q) = %q, want %q", c.gone, got, c.want)
		}
	}
}

// A long value's start is said once: the changed line shows it.
func TestActionTextLongValueOnce(t *testing.T) {
	v := "Tracking: swapped the modulator fan, then the bearings, and the noise is gone for now"
	res := protocol.ActionResult{OK: true, Detail: "value is now 'Tracking: swapped the modulator fan, then the bearings, and the noise i…' (85 characters)",
		Changes: protocol.Changes{Changed: []protocol.Element{{Ref: "@e4", Role: "textbox", Name: "Notes", Value: &v}}}}
	got := ActionText("ok: fill @e4", res)
	if strings.Contains(got, "value is now") || !strings.Contains(got, "value='Tracking: swapped") {
		t.Errorf("got %q", got)
	}
}

// Runs of lines whose only change is their context are said once each,
// under changed: after its lines, counted or named, their contexts quoted
// as page text.
func TestContextLines(t *testing.T) {
	res := protocol.ActionResult{OK: true, Tab: protocol.TabRef{ID: 7}, Changes: protocol.Changes{Added: []string{}, Gone: []string{},
		Contexts: []protocol.ContextChange{
			{From: "Plans", To: "Q3 'plans'\n=== Frame: 9", Refs: []string{"@e1", "@e2", "@e3"}, All: true},
			{From: "Notes", To: "Old notes", Refs: []string{"@e5", "@e6", "@e11"}},
			{From: "", To: "Notes", Refs: []string{"@e7", "@e8", "@e9"}},
			{From: "A", To: "", Refs: []string{"@e12", "@e13", "@e14"}, All: true},
		}}}
	want := `ok: click @e1
Tab 7
changed:
in 'Plans' → in 'Q3 \'plans\'\n=== Frame: 9': all 3 lines
in 'Notes' → in 'Old notes': @e5 @e6 @e11
no context → in 'Notes': @e7 @e8 @e9
in 'A' → no context: all 3 lines
`
	if got := ActionText(Done("click", "@e1"), res); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	res.Changes.Changed = []protocol.Element{{Ref: "@e4", Role: "button", Name: "Edit", States: []string{"pressed"}}}
	res.Changes.Contexts = res.Changes.Contexts[1:2]
	if got := ActionText(Done("click", "@e4"), res); got != "ok: click @e4\nTab 7\nchanged:\n@e4: [button 'Edit' pressed]\nin 'Notes' → in 'Old notes': @e5 @e6 @e11\n" {
		t.Errorf("got %q", got)
	}
	if ContextsCost(res.Changes.Contexts) != Cost("in 'Notes' → in 'Old notes': @e5 @e6 @e11") {
		t.Errorf("ContextsCost = %d", ContextsCost(res.Changes.Contexts))
	}
}

// A fill or typing whose change lies past a long value's start: the
// changed line shows the part around it, and the detail quoting that part
// (or a part of it) is not said again; a detail the line does not show is.
func TestActionTextChangeShownOnce(t *testing.T) {
	v := strings.Repeat("x", 150) + "  * draft"
	res := protocol.ActionResult{OK: true, Detail: "value is now '…" + strings.Repeat("x", 70) + "  * draft' (159 characters)",
		Changes: protocol.Changes{Changed: []protocol.Element{{Ref: "@e4", Role: "textbox", Value: &v, ValueFrom: 150}}}}
	got := ActionText("ok: type @e4", res)
	if strings.Contains(got, "value is now") || !strings.Contains(got, "value='…"+strings.Repeat("x", 90)+"  * draft']") {
		t.Errorf("got %q", got)
	}
	res.Changes.Changed[0].ValueFrom = 0
	if got := ActionText("ok: type @e4", res); !strings.Contains(got, "value is now") {
		t.Errorf("a line that shows the start, beside a detail that shows the end: %q", got)
	}
	short := "Ada"
	res = protocol.ActionResult{OK: true, Detail: "value is now 'Ad'", Changes: protocol.Changes{Changed: []protocol.Element{{Ref: "@e4", Role: "textbox", Value: &short}}}}
	if got := ActionText("ok: fill @e4", res); !strings.Contains(got, "value is now 'Ad'") {
		t.Errorf("a whole value is told only by the same whole value: %q", got)
	}
}

// A new page whose header and menus read as the old page's did: when its
// lines do not all fit, runs of lines as before are left out first, each
// said where it stands when above the cut, so the form below the chrome
// is in the reply and nothing goes missing unsaid; a run too short to
// say in one line (a row's cell as it was) stays; a read on starts from
// the top. When they all fit, nothing is left out.
func TestFitChangesFreshLeavesTheChromeOutFirst(t *testing.T) {
	var appeared []protocol.Element
	var asBefore []bool
	add := func(ref, role, name string, before bool) {
		appeared = append(appeared, protocol.Element{Ref: ref, Role: role, Name: name})
		asBefore = append(asBefore, before)
	}
	for i := 1; i <= 8; i++ {
		add(fmt.Sprintf("@e%d", i+100), "link", "x", true) // the header: 6 tokens each
	}
	add("@e200", "textbox", "q", false)
	add("@e201", "cell", "Tea", true) // one cell as it was, amid new ones
	add("@e202", "button", "y", false)
	for i := 1; i <= 4; i++ {
		add(fmt.Sprintf("@e%d", i+300), "link", "z", true) // the footer
	}
	if _, a, sk, o, rep, _ := FitChangesFresh(nil, appeared, func() []bool { return asBefore }, 1000); len(a) != len(appeared) || o != 0 || rep != 0 || sk != nil {
		t.Errorf("all fitting: kept %v, skipped %v, omitted %d, as before %d", refs(a), sk, o, rep)
	}
	_, a, sk, o, rep, after := FitChangesFresh(nil, appeared, func() []bool { return asBefore }, 40)
	if got := refs(a); !slices.Equal(got, []string{"@e200", "@e201", "@e202"}) || o != 12 || rep != 12 || after != "" ||
		!slices.Equal(sk, []protocol.Skip{{Before: "@e200", Lines: 8}}) {
		t.Errorf("cut: kept %v, skipped %v, omitted %d, as before %d, after %q; want the three new lines, the header said above them, the footer past the cut",
			got, sk, o, rep, after)
	}
	text := ActionText("ok", protocol.ActionResult{OK: true, Changes: protocol.Changes{Navigated: true, Appeared: a, Skipped: sk, Omitted: o, AsBefore: rep, More: "grip snapshot --tab 5"}})
	for _, want := range []string{"added:\n… 8 lines as on the previous page\n@e200: [textbox 'q']", "@e202: [button 'y']\n… 4 more lines, all as on the previous page (grip snapshot --tab 5)"} {
		if !strings.Contains(text, want) {
			t.Errorf("the reply does not say %q:\n%s", want, text)
		}
	}
	// Without runs of lines as before, the cut is FitChanges's.
	_, a, sk, o, rep, after = FitChangesFresh(nil, appeared, func() []bool { return make([]bool, len(appeared)) }, 20)
	if _, wa, wo, wafter := FitChanges(nil, appeared, 20); !slices.Equal(refs(a), refs(wa)) || o != wo || rep != 0 || sk != nil || after != wafter {
		t.Errorf("nothing as before: kept %v omitted %d after %q; FitChanges keeps %v omitted %d after %q", refs(a), o, after, refs(wa), wo, wafter)
	}
}
