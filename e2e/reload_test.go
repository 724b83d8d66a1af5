package e2e

import (
	"strings"
	"testing"

	"github.com/grip-dev/grip/internal/browsertest"
)

// TestReloadAfterTheAnswerIsWaitedFor: a page that answers an action by
// loading itself again once the app answered (qBittorrent's Save:
// location.reload() in the request's success handler) has not settled
// while its next copy is on the way; the reply is the new page's, with
// the old page's refs gone in one line, not the old page read just
// before it went (worker/pendingnav.js; docs/settling.md).
func TestReloadAfterTheAnswerIsWaitedFor(t *testing.T) {
	browsertest.Need(t, env)
	tab := env.OpenTab(t, env.Origin1+"/slow?ms=400&to=/reloads.html")
	snap := snapshot(t, tab)
	save := mustRef(t, snap, "button", "Save")
	res, perr, code := act(t, "click", save)
	if code != 0 {
		t.Fatalf("click: exit %d %+v", code, perr)
	}
	if !res.Changes.Navigated {
		t.Fatalf("the reply did not wait for the page to load again: %+v", res.Changes)
	}
	if again := mustRef(t, snapshot(t, tab), "button", "Save"); again == save || !strings.Contains(strings.Join(res.Changes.Added, " "), again) {
		t.Fatalf("after the reload Save is %s (was %s), added %v: want a new ref, told in the reply", again, save, res.Changes.Added)
	}
}
