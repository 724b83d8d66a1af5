package e2e

import (
	"fmt"
	"strings"
	"testing"

	"github.com/grip-dev/grip/internal/browsertest"
	"github.com/grip-dev/grip/protocol"
)

// TestHistoryOntoAFormAnswerSaysSo: the answer to a form (a POST, served
// no-store) is a history entry the browser will not load again without
// sending the form. Going back or forward onto it ends on Chrome's error
// page (net::ERR_CACHE_MISS) and answers navigation_failed saying so; a
// snapshot of that tab names the URL and the error, not "browser-internal
// pages", and an action there says it is an error page; reloading it, or reloading the answer itself (where Chrome would
// ask the person to confirm sending the form again, bringing the tab to the
// front), is refused at once, the person's tab left in front
// (docs/navigating.md, "Navigating").
func TestHistoryOntoAFormAnswerSaysSo(t *testing.T) {
	browsertest.Need(t, env)
	tab := env.OpenTab(t, env.Origin1+"/resubmit.html")
	ts := fmt.Sprint(tab)
	front := activeTab(t)
	if front == tab {
		t.Fatalf("the test tab %d is in front; it must be in the background", tab)
	}
	if _, perr, code := act(t, "click", mustRef(t, snapshot(t, tab), "button", "Send")); code != 0 {
		t.Fatalf("send the form: %+v", perr)
	}
	answer := env.Origin1 + "/resubmitted.html"
	if got := tabURL(t, tab); got != answer {
		t.Fatalf("the form's answer is at %s, want %s", got, answer)
	}

	// Reloading the answer would send the form again.
	perr := refusal(t, "reload", "--tab", ts)
	if perr.Code != protocol.CodeNavigationFailed || !strings.Contains(perr.Message, "form (POST)") || !strings.Contains(perr.Hint, "grip navigate") {
		t.Errorf("reload of a form's answer: %+v, want navigation_failed saying it was the answer to a form", perr)
	}
	if got := activeTab(t); got != front {
		t.Errorf("after the refused reload tab %d is in front, want the person's tab %d", got, front)
	}
	if snap := snapshot(t, tab, "--mode", "content"); !strings.Contains(snap.Text, "The note was sent.") {
		t.Errorf("after the refused reload the tab shows:\n%s", snap.Text)
	}

	env.MustGrip(t, "navigate", env.Origin1+"/home.html", "--tab", ts)
	wantCacheMiss := func(args []string, says string) {
		t.Helper()
		perr := refusal(t, args...)
		if perr.Code != protocol.CodeNavigationFailed || perr.Status != "net::ERR_CACHE_MISS" ||
			!strings.Contains(perr.Hint, "answer to a form (POST); "+says) || !strings.Contains(perr.Hint, "open its URL") {
			t.Errorf("grip %s: %+v, want navigation_failed net::ERR_CACHE_MISS, hint %q", strings.Join(args, " "), perr, says)
		}
	}
	wantCacheMiss([]string{"back", "--tab", ts}, "going back would send it again")

	// The tab shows Chrome's error page for the answer's URL.
	perr = refusal(t, "snapshot", "--tab", ts)
	if perr.Code != protocol.CodeNavigationFailed || perr.Status != "net::ERR_CACHE_MISS" ||
		!strings.Contains(perr.Message, "error page: "+answer+" did not load (net::ERR_CACHE_MISS)") || strings.Contains(perr.Hint, "browser-internal") {
		t.Errorf("snapshot of the error page: %+v, want navigation_failed naming %s and net::ERR_CACHE_MISS", perr, answer)
	}
	// An action there says the same, not that an element's document went.
	if perr = refusal(t, "click", "body", "--tab", ts); perr.Code != protocol.CodeNavigationFailed || !strings.Contains(perr.Message, "error page") {
		t.Errorf("click on the error page: %+v, want navigation_failed saying the tab shows the error page", perr)
	}
	wantCacheMiss([]string{"reload", "--tab", ts}, "reloading would send it again")
	if got := activeTab(t); got != front {
		t.Errorf("after the refused reload of the error page tab %d is in front, want the person's tab %d", got, front)
	}

	// Back to the form, then forward onto its answer again.
	if _, perr, code := act(t, "back", "--tab", ts); code != 0 {
		t.Fatalf("back to the form: %+v", perr)
	}
	wantCacheMiss([]string{"forward", "--tab", ts}, "going forward would send it again")

	// A page that loads still says ok.
	if _, perr, code := act(t, "forward", "--tab", ts); code != 0 {
		t.Errorf("forward to the home page: %+v", perr)
	}
	if _, perr, code := act(t, "reload", "--tab", ts); code != 0 {
		t.Errorf("reload of the home page: %+v", perr)
	}
}

// TestStepsThatLandOnNothingSaySo: back or forward with no page there is
// refused at once (the page's history.back() does nothing, and the reply
// came after the 15 s load bound as ok); a click whose link does not load
// says the tab shows the browser's error page, and why.
func TestStepsThatLandOnNothingSaySo(t *testing.T) {
	browsertest.Need(t, env)
	tab := env.OpenTab(t, env.Origin1+"/resubmitted.html")
	ts := fmt.Sprint(tab)
	if perr := refusal(t, "forward", "--tab", ts); perr.Code != protocol.CodeBadRequest || !strings.Contains(perr.Message, "no page after this one") {
		t.Errorf("forward with no page after: %+v", perr)
	}
	res, perr, code := act(t, "click", mustRef(t, snapshot(t, tab), "link", "Dead link"))
	if code != 0 || !strings.Contains(res.Detail, "shows the browser's error page: http://127.0.0.1:1/ did not load (net::ERR_UNSAFE_PORT)") {
		t.Errorf("a click on a link that does not load: exit %d, %+v, reply %+v", code, perr, res)
	}
}
