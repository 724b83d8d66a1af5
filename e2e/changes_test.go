package e2e

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/grip-dev/grip/internal/browsertest"
)

// An action's reply says what appeared and what changed state, in the
// snapshot's own lines, so an agent that opens a menu can pick an item
// without reading the page again.
func TestReplyCarriesWhatAppeared(t *testing.T) {
	browsertest.Need(t, env)
	tab := env.OpenTab(t, env.Origin1+"/menu.html")
	snap := snapshot(t, tab)
	menu := mustRef(t, snap, "button", "Actions")

	res, perr, code := act(t, "click", menu)
	if code != 0 {
		t.Fatalf("click: exit %d %+v", code, perr)
	}
	var names []string
	for _, e := range res.Changes.Appeared {
		names = append(names, e.Role+" "+e.Name)
	}
	if got := strings.Join(names, ", "); got != "menuitem Edit order, menuitem Duplicate order, menuitem Delete order" {
		t.Errorf("appeared %q", got)
	}
	if len(res.Changes.Changed) != 1 || res.Changes.Changed[0].Ref != menu || !slices.Contains(res.Changes.Changed[0].States, "expanded") {
		t.Errorf("changed %+v, want %s now expanded", res.Changes.Changed, menu)
	}
	if len(res.Changes.Gone) != 0 {
		t.Errorf("gone %v", res.Changes.Gone)
	}

	// The text reply names the items with their refs: the agent acts on one.
	r := env.Grip(context.Background(), "click", menu)
	if r.Code != 0 {
		t.Fatalf("close the menu: %s", r.Stderr)
	}
	r = env.Grip(context.Background(), "click", menu)
	if r.Code != 0 {
		t.Fatalf("open the menu: %s", r.Stderr)
	}
	var dup string
	for _, line := range strings.Split(r.Stdout, "\n") {
		if strings.HasSuffix(line, "[menuitem 'Duplicate order']") {
			dup = strings.TrimSuffix(line, ": [menuitem 'Duplicate order']")
		}
	}
	if dup == "" {
		t.Fatalf("the text reply does not list the items:\n%s", r.Stdout)
	}
	res, perr, code = act(t, "click", dup)
	if code != 0 {
		t.Fatalf("click %s: exit %d %+v", dup, code, perr)
	}
	if got := browsertest.Eval[string](t, env, env.TabURL(t, tab), "document.getElementById('note').value"); got != "Duplicate order" {
		t.Errorf("note = %q after picking the item", got)
	}
	if len(res.Changes.Gone) != 3 {
		t.Errorf("the three items closed with the menu: gone %v", res.Changes.Gone)
	}
}

// The reply's lines stay within their budget, and say how many were left.
func TestReplyLinesWithinBudget(t *testing.T) {
	browsertest.Need(t, env)
	tab := env.OpenTab(t, env.Origin1+"/menu.html")
	menu := mustRef(t, snapshot(t, tab), "button", "Actions")
	res, perr, code := act(t, "click", menu, "--changes-budget", "12")
	if code != 0 {
		t.Fatalf("click: exit %d %+v", code, perr)
	}
	shown := len(res.Changes.Changed) + len(res.Changes.Appeared)
	if shown == 0 || res.Changes.Omitted == 0 || shown+res.Changes.Omitted != 4 {
		t.Errorf("shown %d, omitted %d; want a cut of the 4 lines", shown, res.Changes.Omitted)
	}
	if len(res.Changes.Added) != 3 {
		t.Errorf("added refs %v: the JSON keeps every ref", res.Changes.Added)
	}
}

// A content-mode read then a click: the reply compares like with like, so
// headings and text still on the page are not reported gone.
func TestGoneComparesLikeWithLike(t *testing.T) {
	browsertest.Need(t, env)
	tab := env.OpenTab(t, env.Origin1+"/menu.html")
	snap := snapshot(t, tab, "--mode", "content")
	heading := mustRef(t, snap, "heading", "Orders")
	menu := mustRef(t, snap, "button", "Actions")
	res, perr, code := act(t, "click", menu)
	if code != 0 {
		t.Fatalf("click: exit %d %+v", code, perr)
	}
	if slices.Contains(res.Changes.Gone, heading) || len(res.Changes.Gone) != 0 {
		t.Errorf("gone %v after a click that removed nothing (heading %s)", res.Changes.Gone, heading)
	}
	if len(res.Changes.Appeared) != 3 {
		t.Errorf("appeared %+v", res.Changes.Appeared)
	}
}
