package e2e

import (
	"fmt"
	"net/url"
	"strings"
	"testing"

	"github.com/grip-dev/grip/internal/browsertest"
)

// TestLandingOnABlockedSite: a click that takes the session's tab to a
// site the person blocks says so in its reply, at once, naming nothing of
// the page; and the session may still close its own tab there, its way
// out, while every other action on it stays refused. (Found by a
// README-only try: the reply named the link, and closing was refused.)
func TestLandingOnABlockedSite(t *testing.T) {
	browsertest.Need(t, env)
	blocked := env.Origin2 + "/home.html"
	tab := env.OpenTab(t, env.Origin1+"/golink.html?to="+url.QueryEscape(blocked))
	snap := snapshot(t, tab)
	link := mustRef(t, snap, "link", "Go on")
	setPolicy(t, "block "+hostOf(env.Origin2)+"\n")

	res, perr, code := act(t, "click", link)
	if code != 0 {
		t.Fatalf("the click: exit %d %+v", code, perr)
	}
	if !strings.Contains(res.Detail, fmt.Sprintf("tab %d is now on a site the person's policy blocks", tab)) {
		t.Fatalf("the reply does not say the tab went to a blocked site: %+v", res)
	}
	if strings.Contains(fmt.Sprintf("%+v", res), "home.html") || res.Changes.Title != "" {
		t.Fatalf("the reply names the blocked page: %+v", res)
	}
	wantPolicyRefusal(t, refusal(t, "snapshot", "--tab", fmt.Sprint(tab)), "line 1")
	wantPolicyRefusal(t, refusal(t, "press", "Enter", "--tab", fmt.Sprint(tab)), "line 1")
	env.MustGrip(t, "tabs", "close", fmt.Sprint(tab))
	for _, l := range strings.Split(env.MustGrip(t, "tabs"), "\n") {
		if strings.Contains(l, fmt.Sprint(tab)) {
			t.Fatalf("the tab is still open: %s", l)
		}
	}
}
