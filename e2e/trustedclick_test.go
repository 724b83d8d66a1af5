package e2e

import (
	"slices"
	"strings"
	"testing"

	"github.com/grip-dev/grip/internal/browsertest"
	"github.com/grip-dev/grip/protocol"
)

// TestClickThatChangedNothingSaysTryTrusted: a button whose handler acts
// only on trusted input (qBittorrent's context submenu "Add...") does
// nothing for a click by events, whose reply says so and to click again
// with trusted; the trusted click adds the page's new element and says
// nothing of trusted; a right-click the same. A click that only asked the
// server, one that checked a checkbox, one that focused a text field and
// one that followed a link to #more changed no line, or only the
// control's own, and their replies do not say to try the real pointer
// (docs/effects.md, "An action that did nothing").
func TestClickThatChangedNothingSaysTryTrusted(t *testing.T) {
	browsertest.Need(t, env)
	tab := env.OpenTab(t, env.Origin1+"/trustedclick.html")
	snap := snapshot(t, tab)
	const hint = "click again with trusted"

	add := mustRef(t, snap, "button", "Add...")
	got, perr, code := act(t, "click", add)
	if code != 0 {
		t.Fatalf("click: exit %d %+v", code, perr)
	}
	if len(got.Changes.Added) != 0 || !strings.Contains(got.Detail, "nothing changed; if the page acts only on the real pointer, click again with trusted (grip click --trusted; MCP trusted: true)") {
		t.Fatalf("click by events: added %v, detail %q; want nothing added and the hint", got.Changes.Added, got.Detail)
	}
	if log := pageLog(t, tab); !slices.Contains(log, "click:false") {
		t.Fatalf("the page's handler never saw the click: %v", log)
	}
	got, perr, code = act(t, "click", add, "--trusted")
	if code != 0 {
		t.Fatalf("trusted click: exit %d %+v", code, perr)
	}
	if !appearedAs(got.Changes.Appeared, "button", "Torrent 1") || strings.Contains(got.Detail, hint) {
		t.Fatalf("trusted click: appeared %v, detail %q; want [button 'Torrent 1'] and no hint", got.Changes.Appeared, got.Detail)
	}

	row := mustRef(t, snap, "clickable", "Row one")
	got, perr, code = act(t, "rightclick", row)
	if code != 0 {
		t.Fatalf("rightclick: exit %d %+v", code, perr)
	}
	if len(got.Changes.Added) != 0 || !strings.Contains(got.Detail, `right-click again with trusted (grip rightclick --trusted; MCP button: "right", trusted: true)`) {
		t.Fatalf("right-click by events: added %v, detail %q; want nothing added and the hint", got.Changes.Added, got.Detail)
	}
	got, perr, code = act(t, "rightclick", row, "--trusted")
	if code != 0 {
		t.Fatalf("trusted rightclick: exit %d %+v", code, perr)
	}
	if !appearedAs(got.Changes.Appeared, "menuitem", "Remove row") || strings.Contains(got.Detail, hint) {
		t.Fatalf("trusted right-click: appeared %v, detail %q; want the menu's item and no hint", got.Changes.Appeared, got.Detail)
	}

	// A click that asked the server and showed nothing of the answer did
	// something: the reply counts the request, and says nothing changed
	// nowhere.
	got, perr, code = act(t, "click", mustRef(t, snap, "button", "Check server"))
	if code != 0 {
		t.Fatalf("click Check server: exit %d %+v", code, perr)
	}
	if got.Requests < 1 || strings.Contains(got.Detail, "nothing changed") {
		t.Fatalf("a click that fetched: requests %d, detail %q; want the request counted and no hint", got.Requests, got.Detail)
	}
	if log := pageLog(t, tab); !slices.Contains(log, "pinged") {
		t.Errorf("the reply came before the answer: %v", log)
	}

	// A click the page answered by a change no line shows (a class) did
	// something: no hint, and the reply says the page changed.
	got, perr, code = act(t, "click", mustRef(t, snap, "button", "Tint"))
	if code != 0 {
		t.Fatalf("click Tint: exit %d %+v", code, perr)
	}
	if !got.PageChanged || strings.Contains(got.Detail, hint) {
		t.Fatalf("a click that restyled the page: page_changed %v, detail %q; want it said and no hint", got.PageChanged, got.Detail)
	}

	keep := mustRef(t, snap, "checkbox", "Keep")
	got, perr, code = act(t, "click", keep)
	if code != 0 {
		t.Fatalf("click Keep: exit %d %+v", code, perr)
	}
	if len(got.Changes.Changed) != 1 || got.Changes.Changed[0].Ref != keep || !slices.Contains(got.Changes.Changed[0].States, "checked") || strings.Contains(got.Detail, hint) {
		t.Fatalf("a click on a checkbox: changed %+v, detail %q; want it checked and no hint", got.Changes.Changed, got.Detail)
	}
	for _, target := range []string{mustRef(t, snap, "textbox", "Note"), mustRef(t, snap, "link", "More below")} {
		got, perr, code = act(t, "click", target)
		if code != 0 {
			t.Fatalf("click %s: exit %d %+v", target, code, perr)
		}
		if strings.Contains(got.Detail, hint) {
			t.Errorf("a click on %s (a field's focus, a link to #more): detail %q; want no hint", target, got.Detail)
		}
	}
}

// appearedAs reports whether els has an element of role named name.
func appearedAs(els []protocol.Element, role, name string) bool {
	return slices.ContainsFunc(els, func(e protocol.Element) bool { return e.Role == role && e.Name == name })
}
