package e2e

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

// Focus as a person gives it (docs/acting.md, "Acting on a ref"):
// a field typed into has had its focus event, also in a page the browser
// tells nothing because it has not the focus, and a field already told
// gets no second one.

// focusPage is what focus.html says: the events its fields saw, how many
// of them the browser did not fire itself, whether its results show, and
// whether the document has the focus.
type focusPage struct {
	Log       []string
	Synthetic int
	Results   bool
	HasFocus  bool
	Active    string
}

func readFocusPage(t *testing.T, url string) focusPage {
	t.Helper()
	return browsertest.Eval[focusPage](t, env, url, `({log: window.__log, synthetic: window.__synthetic,
		results: !document.getElementById('results').hidden, hasFocus: document.hasFocus(), active: document.activeElement.id})`)
}

// behindTab opens url in a tab of the person's, behind the one in front
// (as the person's own tab an agent works on without bringing it
// forward), and returns its id once grip lists it. No session owns it, so
// grip gives its page no focus emulation: the browser fires no focus
// events in it.
func behindTab(t *testing.T, url string) int {
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
				tab := x.ID
				t.Cleanup(func() { env.Grip(t.Context(), "tabs", "close", fmt.Sprint(tab)) })
				return tab
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("no tab with %s: %+v", url, tabs.Tabs)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// In a page without the focus, the search box the page focused on load
// was never told; typing into it tells it first, so its results open, as
// for a person, whose page is in front when they type. Typing and filling
// again tell it nothing more (the results the agent closed stay closed);
// typing into another field moves the focus with blur and focus; a click
// into the box tells it as a press would.
func TestTypeTellsAFieldItHasTheFocus(t *testing.T) {
	browsertest.Need(t, env)
	url := env.Origin1 + "/focus.html?" + t.Name()
	tab := behindTab(t, url)
	before := readFocusPage(t, url)
	if before.HasFocus || before.Active != "search" || len(before.Log) != 0 || before.Results {
		t.Fatalf("the page behind has %+v; want no focus, the search box active and told nothing (else this test proves nothing)", before)
	}
	snap := snapshot(t, tab)
	search, note := mustRef(t, snap, "searchbox", "Search"), mustRef(t, snap, "textbox", "Note")

	res, perr, code := act(t, "type", search, "Groc")
	if code != 0 {
		t.Fatalf("type: exit %d %+v", code, perr)
	}
	got := readFocusPage(t, url)
	if !slices.Equal(got.Log, []string{"focus:search", "focusin:search"}) || !got.Results {
		t.Fatalf("after typing into the search box the page has %+v; want it told of the focus once and its results open", got)
	}
	if !appeared(res, "option", "Groceries") {
		t.Errorf("the type's reply does not list the result that opened: %+v", res.Changes)
	}

	// Closed by the agent, the results stay closed: no more focus events.
	if _, perr, code := act(t, "press", "Escape", "--tab", fmt.Sprint(tab)); code != 0 {
		t.Fatalf("press Escape: exit %d %+v", code, perr)
	}
	for _, step := range [][]string{{"type", search, "eries"}, {"fill", search, "Groceries"}} {
		if _, perr, code := act(t, step...); code != 0 {
			t.Fatalf("%s: exit %d %+v", step[0], code, perr)
		}
		if got := readFocusPage(t, url); len(got.Log) != 2 || got.Results {
			t.Fatalf("after %s into the search box it already focused the page has %+v; want nothing more", step[0], got)
		}
	}

	if _, perr, code := act(t, "type", note, "milk"); code != 0 {
		t.Fatalf("type into Note: exit %d %+v", code, perr)
	}
	want := []string{"focus:search", "focusin:search", "blur:search", "focusout:search", "focus:note", "focusin:note"}
	if got := readFocusPage(t, url); !slices.Equal(got.Log, want) || got.Results {
		t.Fatalf("after typing into Note the page has %+v; want the log %q and the results closed", got, want)
	}

	if _, perr, code := act(t, "click", search); code != 0 {
		t.Fatalf("click: exit %d %+v", code, perr)
	}
	want = append(want, "blur:note", "focusout:note", "focus:search", "focusin:search")
	if got := readFocusPage(t, url); !slices.Equal(got.Log, want) || !got.Results {
		t.Fatalf("after a click into the search box the page has %+v; want the log %q and the results open", got, want)
	}
}

// In a page with the focus (a session's tab, under the debugger's focus
// emulation) the browser tells the fields itself: type, fill and a move
// of the focus add no event of the kernel's to the browser's own, and
// the results the agent closed stay closed.
func TestTypeInAFocusedPageAddsNoFocusEvents(t *testing.T) {
	browsertest.Need(t, env)
	url := env.Origin1 + "/focus.html?" + t.Name()
	tab := env.OpenTab(t, url)
	start := readFocusPage(t, url)
	if !start.HasFocus || !slices.Equal(start.Log, []string{"focus:search", "focusin:search"}) || start.Synthetic != 0 {
		t.Fatalf("the session's tab has %+v; want the focus, and the search box told by the browser", start)
	}
	snap := snapshot(t, tab)
	search, note := mustRef(t, snap, "searchbox", "Search"), mustRef(t, snap, "textbox", "Note")
	if _, perr, code := act(t, "press", "Escape", "--tab", fmt.Sprint(tab)); code != 0 {
		t.Fatalf("press Escape: exit %d %+v", code, perr)
	}
	for _, step := range [][]string{{"type", search, "Groc"}, {"fill", search, "Groceries"}} {
		if _, perr, code := act(t, step...); code != 0 {
			t.Fatalf("%s: exit %d %+v", step[0], code, perr)
		}
		if got := readFocusPage(t, url); len(got.Log) != 2 || got.Results {
			t.Fatalf("after %s into the focused search box the page has %+v; want nothing more", step[0], got)
		}
	}
	if _, perr, code := act(t, "type", note, "milk"); code != 0 {
		t.Fatalf("type into Note: exit %d %+v", code, perr)
	}
	want := []string{"focus:search", "focusin:search", "blur:search", "focusout:search", "focus:note", "focusin:note"}
	if got := readFocusPage(t, url); !slices.Equal(got.Log, want) || got.Synthetic != 0 {
		t.Fatalf("after typing into Note the page has %+v; want the browser's own %q and none of the kernel's", got, want)
	}
}

// appeared reports whether an action's reply lists an element of role and
// name among those that appeared.
func appeared(res protocol.ActionResult, role, name string) bool {
	for _, e := range res.Changes.Appeared {
		if e.Role == role && strings.Contains(e.Name, name) {
			return true
		}
	}
	return false
}

// TestFocusTheModalKeepsIsRefused: a focus the page takes away at once (a
// Bootstrap modal holds it; the walker found Syncthing's connectivity
// dialog did) is refused with where the focus is, not answered ok.
func TestFocusTheModalKeepsIsRefused(t *testing.T) {
	browsertest.Need(t, env)
	tab := env.OpenTab(t, env.Origin1+"/focus-trap.html")
	snap := snapshot(t, tab)
	_, perr, code := act(t, "focus", mustRef(t, snap, "textbox", "Name"))
	if code == 0 || perr == nil || perr.Code != "not_actionable" || !strings.Contains(perr.Message, "did not keep the focus") {
		t.Fatalf("focus behind a modal: exit %d %+v, want not_actionable: did not keep the focus", code, perr)
	}
	if _, perr, code := act(t, "focus", mustRef(t, snap, "button", "Close")); code != 0 {
		t.Errorf("focus inside the modal: exit %d %+v", code, perr)
	}
}
