package e2e

import (
	"slices"
	"strings"
	"testing"

	"github.com/grip-dev/grip/internal/browsertest"
)

// TestRightClickOpensThePagesMenu: grip rightclick presses the secondary
// button on a row of a file list, synthetic and trusted, and grip press
// ContextMenu opens the row's menu from the keyboard: the page gets
// the press, its contextmenu (which it cancels, drawing its own menu) and
// the release of button 2, and no click; the reply lists the menu that
// appeared, and its Delete, clicked, deletes the file right-clicked.
func TestRightClickOpensThePagesMenu(t *testing.T) {
	browsertest.Need(t, env)
	for _, how := range []string{"synthetic", "trusted", "menu key"} {
		trusted := how == "trusted"
		t.Run(how, func(t *testing.T) {
			tab := env.OpenTab(t, env.Origin1+"/contextmenu.html")
			snap := snapshot(t, tab)
			row := mustRef(t, snap, "clickable", "report.pdf")
			args := []string{"rightclick", row}
			switch how {
			case "trusted":
				args = append(args, "--trusted")
			case "menu key":
				args = []string{"press", "ContextMenu", row}
			}
			got, perr, code := act(t, args...)
			if code != 0 {
				t.Fatalf("rightclick: exit %d %+v", code, perr)
			}
			var appeared []string
			for _, el := range got.Changes.Appeared {
				appeared = append(appeared, el.Role+" "+el.Name)
			}
			if !slices.Contains(appeared, "menuitem Delete") {
				t.Fatalf("the reply lists %v, want the menu's items", appeared)
			}
			log := strings.Join(pageLog(t, tab), " ")
			suffix := ""
			if trusted {
				suffix = ":trusted"
			}
			wants := []string{"pointerdown:2", "mousedown:2", "contextmenu:2", "mouseup:2"}
			if how == "menu key" {
				// The key opens the menu with no press of a button.
				wants = []string{"contextmenu:2"}
				if got.Detail != "opened the context menu of [clickable 'report.pdf']" {
					t.Errorf("the key's reply says %q", got.Detail)
				}
			}
			for _, want := range wants {
				if !strings.Contains(log, want+suffix) {
					t.Errorf("page log %q lacks %s%s", log, want, suffix)
				}
			}
			if strings.Contains(log, "click:0") {
				t.Errorf("a right-click clicked: %q", log)
			}
			snap = snapshot(t, tab)
			if _, perr, code := act(t, "click", mustRef(t, snap, "menuitem", "Delete")); code != 0 {
				t.Fatalf("click Delete: %+v", perr)
			}
			if s := browsertest.Eval[string](t, env, env.TabURL(t, tab), "document.getElementById('status').textContent"); s != "Deleted report.pdf" {
				t.Errorf("status %q, want the right-clicked file deleted", s)
			}
		})
	}
}
