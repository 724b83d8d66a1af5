package workflows_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/grip-dev/grip/internal/browsertest"
)

// TestPersonRecordsARightClick: in a headed Chromium under Xvfb, the person
// right-clicks a file of a list (e2e/testdata/contextmenu.html: the page
// cancels the browser's menu and draws its own) and clicks the menu's
// Delete. The popup says the right-click in the person's words, the file
// holds it as a rightclick step, and the workflow replays: the other file
// list's report is deleted the same way.
func TestPersonRecordsARightClick(t *testing.T) {
	browsertest.Need(t, env)
	site := serveDir(t, filepath.Join("..", "testdata"))
	url := site + "/contextmenu.html"
	he := browsertest.StartHeaded(t, "the person's popup needs a headed browser", browsertest.Options{Fixtures: os.DirFS("."), Bin: env.Bin})
	tab := he.OpenTab(t, url)
	he.MustGrip(t, "wait", "--tab", fmt.Sprint(tab), "--text", "report.pdf")
	popup := openPopupWindow(t, he, tab)
	shot := shooter(t, he, popup)
	waitFor(t, he, popup, "the record button", `!document.getElementById('record-idle').hidden`)
	popupClick(t, he, popup, "#record-start")
	waitFor(t, he, popup, "the recording", `!document.getElementById('record-live').hidden`)

	p := personOn(t, he, url)
	p.toFront()
	p.rightClick(`li[data-file="report.pdf"]`)
	p.click(`[data-act=delete]`)
	p.waitFor("the deletion", `document.getElementById('status').textContent === 'Deleted report.pdf'`)
	waitFor(t, he, popup, "the two steps", `document.querySelectorAll('#record-steps .step').length === 2`)
	shot("rightclick-steps")
	steps := browsertest.Eval[string](t, he, popup, `[...document.querySelectorAll('#record-steps .step')].map((e) => e.textContent).join('\n')`)
	if !strings.HasPrefix(steps, "Right-clicked 'report.pdf'") || !strings.Contains(steps, "Clicked the menu item 'Delete'") {
		t.Errorf("the popup's steps read\n%s", steps)
	}
	browsertest.Eval[bool](t, he, popup, `(() => { document.getElementById('record-name').value = 'files.grip'; return true; })()`)
	popupClick(t, he, popup, "#record-done")
	waitFor(t, he, popup, "where it was saved", `document.getElementById('record-saved').textContent.includes('files.grip')`)
	saved := browsertest.Eval[string](t, he, popup, `document.getElementById('record-saved').textContent`)
	dir := saved[strings.Index(saved, "grip's folder ")+len("grip's folder ") : strings.Index(saved, ". An agent")]
	file := filepath.Join(dir, "files.grip")
	text := readFile(t, file)
	for _, want := range []string{"rightclick clickable 'report.pdf' at " + site + "\n", "click menuitem 'Delete' at " + site + "\n"} {
		if !strings.Contains(text, want) {
			t.Errorf("the workflow lacks %q:\n%s", want, text)
		}
	}

	again := he.OpenTab(t, url+"?again")
	if r := he.Grip(t.Context(), "replay", file, "--tab", fmt.Sprint(again)); r.Code != 0 {
		t.Fatalf("replay: exit %d\n%s\n%s", r.Code, r.Stdout, r.Stderr)
	}
	if s := browsertest.Eval[string](t, he, url+"?again", `document.getElementById('status').textContent`); s != "Deleted report.pdf" {
		t.Errorf("the replay left %q, want the report deleted", s)
	}
}
