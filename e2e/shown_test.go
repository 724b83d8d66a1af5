package e2e

import (
	"slices"
	"strings"
	"testing"

	"github.com/grip-dev/grip/internal/browsertest"
)

// Controls the page left unnamed are named by what they show, and the
// line says where the name is grip's guess: an inbox's toolbar of icon
// buttons (Material Icons hidden from assistive technology, Font Awesome,
// an SVG with its title, a sprite) and messages ticked by checkboxes with
// no label. An agent acts on them by those names, as a snapshot line
// reads them, and the page sees the action it meant.
func TestUnnamedControlsNamedByWhatTheyShow(t *testing.T) {
	browsertest.Need(t, env)
	tab := env.OpenTab(t, env.Origin1+"/icons.html")
	snap := snapshot(t, tab)
	for _, want := range []string{
		"[button 'archive' inferred]", "[button 'delete' inferred]", "[button 'reply' inferred]",
		"[button 'Forward']", "[button 'Star' inferred]", "[button 'more vert' inferred]",
		"[checkbox 'Invoice from Ada' inferred]", "[checkbox 'Minutes of Monday' inferred]",
	} {
		if !strings.Contains(snap.Text, want) {
			t.Errorf("the snapshot has no %s:\n%s", want, snap.Text)
		}
	}
	if strings.Contains(snap.Text, "[button]") || strings.Contains(snap.Text, "[checkbox]") {
		t.Errorf("a control is left unnamed:\n%s", snap.Text)
	}
	for _, c := range []struct{ verb, target, log string }{
		{"click", "button 'delete'", "delete"},
		{"click", "button 'reply'", "reply"},
		{"click", "button 'Star'", "star"},
		{"check", "checkbox 'Minutes of Monday'", "pick minutes"},
	} {
		if _, perr, code := act(t, c.verb, c.target); code != 0 {
			t.Fatalf("%s %q: exit %d %+v", c.verb, c.target, code, perr)
		}
		if log := pageLog(t, tab); len(log) == 0 || log[len(log)-1] != c.log {
			t.Errorf("%s %q: the page saw %v, want %q last", c.verb, c.target, log, c.log)
		}
	}

	// What the names cost, over the fixture pages of ordinary pages: the
	// tokens of their snapshots and the lines grip named.
	pages := []string{"act", "checkout", "files", "frames", "help", "home", "icons", "login", "longname", "many",
		"mcp", "menu", "repeats", "settle", "waits", "welcome"}
	tokens, lines, named := 0, 0, 0
	for _, p := range pages {
		s := snapshot(t, env.OpenTab(t, env.Origin1+"/"+p+".html"))
		tokens += s.Tokens
		for _, f := range s.Frames {
			for _, e := range f.Elements {
				lines++
				if slices.Contains(e.States, "inferred") {
					named++
				}
			}
		}
	}
	t.Logf("fixture pages: %d, %d lines in %d tokens, %d lines named by grip (inferred)", len(pages), lines, tokens, named)
}
