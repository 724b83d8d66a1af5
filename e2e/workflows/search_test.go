package workflows_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"
	"github.com/grip-dev/grip/internal/browsertest"
	"github.com/grip-dev/grip/protocol"
)

// behindTab opens url in a tab of the person's behind the one in front,
// the person's own tab an agent works on without bringing it forward,
// and returns its id once grip lists it. No session owns it, so grip gives
// its page no focus emulation (docs/sessions.md, "Background work"):
// the browser tells it of no focus change.
func behindTab(t *testing.T, url string) string {
	t.Helper()
	background := true
	if _, err := chromedp.CallBrowser(env.BrowserContext(), target.CreateTarget, target.CreateTargetParams{URL: url, Background: &background}); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(20 * time.Second); ; {
		var tabs protocol.TabsResult
		env.GripJSON(t, &tabs, "tabs")
		for _, x := range tabs.Tabs {
			if x.URL == url {
				tab := fmt.Sprint(x.ID)
				t.Cleanup(func() { grip("tabs", "close", tab) })
				return tab
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("no tab with %s: %+v", url, tabs.Tabs)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// searchState is what TiddlyWiki says of its sidebar search: whether its
// dropdown's popup is open (the popup mechanism's own list and state
// tiddler) and the links the dropdown lists.
type searchState struct {
	Open     bool
	Links    []string
	HasFocus bool
	Active   string
}

const readSearch = `(() => {
	const p = $tw.popup.popups.find((p) => p.title.startsWith('$:/state/popup/search-dropdown'));
	const d = document.querySelector('.tc-search-drop-down');
	return {
		open: !!p && !!$tw.wiki.getTiddlerText(p.title),
		links: d ? Array.from(d.querySelectorAll('a.tc-tiddlylink'), (a) => a.textContent) : [],
		hasFocus: document.hasFocus(),
		active: document.activeElement.localName + '.' + document.activeElement.className,
	};
})()`

// TestTiddlyWikiSearchOpensWhileTyping: an agent types into TiddlyWiki's
// sidebar search box without clicking it first, in a page that has not
// the focus (TiddlyWiki focused the box on load, and the browser told it
// nothing). The search dropdown, which TiddlyWiki opens on the box's focus
// event (its edit-text widget's focusPopup), opens and lists the match, as
// the wiki's own popup state says, and the type's reply shows it.
func TestTiddlyWikiSearchOpensWhileTyping(t *testing.T) {
	w := startWiki(t)
	w.put(t, "Groceries", "milk, eggs")
	tab := behindTab(t, w.url)
	env.MustGrip(t, "wait", "--tab", tab, "--text", "GettingStarted")
	before := browsertest.Eval[searchState](t, env, w.url, readSearch)
	if before.HasFocus || !strings.HasPrefix(before.Active, "input.") || before.Open {
		t.Fatalf("before typing the wiki has %+v; want a page without the focus, the search box active and its dropdown closed (else this test proves nothing)", before)
	}
	snap := env.MustGrip(t, "snapshot", "--tab", tab)
	out := env.MustGrip(t, "type", refOf(t, snap, "[searchbox"), "Groceries")
	t.Logf("type:\n%s", out)
	got := browsertest.Eval[searchState](t, env, w.url, readSearch)
	if !got.Open || !slices.Contains(got.Links, "Groceries") {
		t.Fatalf("after typing the wiki's search has %+v; want its dropdown open, listing Groceries", got)
	}
	if !strings.Contains(out, "matches' expanded]") || !strings.Contains(out, "[link 'Groceries' in 'Title matches']") {
		t.Errorf("the type's reply does not show the open dropdown:\n%s", out)
	}

	// A result's link opens its tiddler and leaves the dropdown open (a
	// click inside a popup does not close it). The click's own reply says
	// so, as TiddlyWiki's story and popup state do; and though the page
	// draws no frames (a tab behind: the transitions TiddlyWiki opens a
	// tiddler with never advance), it is read once settled, not held to
	// the bound and called still changing.
	var res struct {
		protocol.ActionResult
		Error *protocol.Error `json:"error"`
	}
	if code := env.GripJSON(t, &res, "click", refOf(t, out, "[link 'Groceries' in 'Title matches']")); code != 0 {
		t.Fatalf("click on the result: exit %d %+v", code, res.Error)
	}
	story := browsertest.Eval[[]string](t, env, w.url, `$tw.wiki.getTiddlerList('$:/StoryList')`)
	if len(story) == 0 || story[0] != "Groceries" {
		t.Fatalf("after the click the story is %q; want Groceries opened first", story)
	}
	if got := browsertest.Eval[searchState](t, env, w.url, readSearch); !got.Open {
		t.Fatalf("after the click the search has %+v; want its dropdown still open", got)
	}
	opened := false
	for _, e := range res.Changes.Appeared {
		opened = opened || (e.Role == "button" && e.Name == "Edit this tiddler" && e.Context == "Groceries")
	}
	if !opened || len(res.Changes.Gone) != 0 {
		t.Errorf("the click's reply does not say the tiddler opened and nothing went: %+v", res.Changes)
	}
	if res.Settled == nil || !*res.Settled {
		t.Errorf("the click's reply says the page had not settled when it was read")
	}
}
