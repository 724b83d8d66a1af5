package e2e

import (
	"fmt"
	"strings"
	"testing"

	"github.com/grip-dev/grip/internal/browsertest"
)

// TestHoverMenuOpensForTheRealPointer: a menu bar whose dropdowns wait
// off the page until hovered (CSS :hover) lists none of their items; a
// hover by events changes nothing, and its reply says so and that only
// the real pointer opens such a menu; the trusted hover does, and its
// reply lists the items that came into reach (docs/snapshot.md).
func TestHoverMenuOpensForTheRealPointer(t *testing.T) {
	browsertest.Need(t, env)
	tab := env.OpenTab(t, env.Origin1+"/hovermenu.html")
	snap := snapshot(t, tab)
	if strings.Contains(snap.Text, "Options...") {
		t.Fatalf("the closed dropdown is listed:\n%s", snap.Text)
	}
	tools := mustRef(t, snap, "clickable", "Tools")
	got, perr, code := act(t, "hover", tools)
	if code != 0 {
		t.Fatalf("hover: exit %d %+v", code, perr)
	}
	if len(got.Changes.Added) != 0 || !strings.Contains(got.Detail, "hover again with trusted") {
		t.Fatalf("hover by events: added %v, detail %q; want nothing added and the hint", got.Changes.Added, got.Detail)
	}
	got, perr, code = act(t, "hover", tools, "--trusted")
	if code != 0 {
		t.Fatalf("trusted hover: exit %d %+v", code, perr)
	}
	if len(got.Changes.Added) != 2 || strings.Contains(got.Detail, "hover again") {
		t.Fatalf("trusted hover: added %v, detail %q; want the two items and no hint", got.Changes.Added, got.Detail)
	}
	if after := snapshot(t, tab); !strings.Contains(after.Text, "[link 'Options...'") {
		t.Fatalf("the open dropdown is not listed:\n%s", after.Text)
	}
}

// TestFindSkipsWhatIsOutOfReach: a find for a text that a menu kept off
// the page says first, and the page says later, finds the page's.
func TestFindSkipsWhatIsOutOfReach(t *testing.T) {
	browsertest.Need(t, env)
	tab := env.OpenTab(t, env.Origin1+"/hovermenu.html")
	res, perr, code := act(t, "find", "options", "--tab", fmt.Sprint(tab))
	if code != 0 {
		t.Fatalf("find: exit %d %+v", code, perr)
	}
	if !strings.Contains(res.Detail, "found [paragraph 'Options are kept per user.']") {
		t.Fatalf("found %+v (%+v), want the paragraph, not the closed menu item", res.Found, res)
	}
}
