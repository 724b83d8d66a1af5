package workflows_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/grip-dev/grip/internal/browsertest"
)

// TestTiddlyWikiControlsNamedByWhatTheyShow: TiddlyWiki leaves a tag's
// remove button (an SVG of its close icon) and the Tools tab's checkboxes
// (which page buttons show) without names; grip names them by what they
// show, says the names are its own (inferred), and an agent acting on them
// by those names does what it meant, as the wiki's own state says.
func TestTiddlyWikiControlsNamedByWhatTheyShow(t *testing.T) {
	w := startWiki(t)
	tab := fmt.Sprint(env.OpenTab(t, w.url))
	env.MustGrip(t, "wait", "--tab", tab, "--text", "GettingStarted")
	env.MustGrip(t, "click", "--tab", tab, "button 'new tiddler'")
	env.MustGrip(t, "fill", "--tab", tab, "textbox 'tag name'", "urgent")
	snap := env.MustGrip(t, "snapshot", "--tab", tab)
	env.MustGrip(t, "click", "--tab", tab, refOf(t, snap, "[button 'add'"))
	tags := `(() => { const d = $tw.wiki.getTiddler("Draft of 'New Tiddler'"); return (d && d.fields.tags || []).join(',') })()`
	if got := browsertest.Eval[string](t, env, w.url, tags); got != "urgent" {
		t.Fatalf("the draft's tags after adding one: %q", got)
	}

	// The tag's remove button: TiddlyWiki's close image, named from its class.
	snap = env.MustGrip(t, "snapshot", "--tab", tab)
	remove := ""
	for _, l := range strings.Split(snap, "\n") {
		if strings.Contains(l, ": [button 'close' in 'Editor' inferred]") {
			remove = strings.SplitN(l, ":", 2)[0]
		}
	}
	if remove == "" {
		t.Fatalf("no [button 'close' in 'Editor' inferred] for the tag's remove button:\n%s", snap)
	}
	env.MustGrip(t, "click", "--tab", tab, remove)
	if got := browsertest.Eval[string](t, env, w.url, tags); got != "" {
		t.Errorf("the draft's tags after removing the tag: %q", got)
	}

	// The Tools tab: each checkbox named by the button and text beside it.
	env.MustGrip(t, "click", "--tab", tab, "tab 'Tools'")
	snap = env.MustGrip(t, "snapshot", "--tab", tab)
	for _, want := range []string{"[checkbox 'home Open the default tiddlers' inferred]", "[checkbox 'new tiddler Create a new tiddler' checked inferred]"} {
		if !strings.Contains(snap, want) {
			t.Errorf("the Tools tab has no %s:\n%s", want, snap)
		}
	}
	if strings.Contains(snap, "[checkbox]") {
		t.Errorf("a checkbox of the Tools tab is left unnamed:\n%s", snap)
	}
	out := env.MustGrip(t, "check", "--tab", tab, "checkbox 'home Open the default tiddlers'")
	// Two 'home' buttons now (the Tools tab's and the page control's), so
	// each carries its context: the page control sits under the site's
	// title in the sidebar's header.
	if !strings.Contains(out, "added:\n") || !strings.Contains(out, "[button 'home' in 'My TiddlyWiki']") {
		t.Errorf("checking 'home' did not show the home button:\n%s", out)
	}
	const visibility = "$:/config/PageControlButtons/Visibility/$:/core/ui/Buttons/home"
	deadline := time.Now().Add(15 * time.Second)
	for {
		if text, _ := w.tiddler(t, visibility); text == "show" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the wiki never saved %s as show", visibility)
		}
		time.Sleep(100 * time.Millisecond)
	}
}
