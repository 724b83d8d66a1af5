package workflows_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/grip-dev/grip/internal/browsertest"
	"github.com/grip-dev/grip/workflow"
)

// TestReplayOfAWikiSaveWithAnotherPageName: a wiki's save goes to the
// page's view URL, whose path holds the typed page name with its spaces as
// underscores. The recording writes that step's `then url` with the
// {{PAGE}} placeholder, so the replay with another name matches (also when
// the save goes only after the click's reply, and is waited for); a file
// whose `then url` names the recorded page instead diverges saying where
// the page went and that the click was done (once: the page saw one save).
func TestReplayOfAWikiSaveWithAnotherPageName(t *testing.T) {
	browsertest.Need(t, env)
	edit := env.Origin1 + "/testdata/wiki.html"
	origin := strings.TrimSuffix(env.Origin1, "/")
	tab := fmt.Sprint(env.OpenTab(t, edit))
	file := filepath.Join(t.TempDir(), "newpage.grip")

	env.MustGrip(t, "record", "start", file)
	snap := env.MustGrip(t, "snapshot", "--tab", tab)
	env.MustGrip(t, "fill", refOf(t, snap, "[textbox 'Title'"), "Meeting notes 2026-12-01", "--param", "PAGE")
	env.MustGrip(t, "fill", refOf(t, snap, "[textbox 'Body'"), "agenda", "--param", "BODY")
	env.MustGrip(t, "click", refOf(t, snap, "[button 'Save page'"))
	env.MustGrip(t, "record", "stop")
	text := readFile(t, file)
	t.Logf("the recorded workflow:\n%s", text)
	want := "click button 'Save page' at " + origin + " then url '" + origin + "/testdata/wiki/{{PAGE}}'"
	if !strings.Contains(text, want+"\n") {
		t.Fatalf("the workflow lacks the line %q:\n%s", want, text)
	}

	// Replayed with another page name: the save's URL matches.
	env.MustGrip(t, "navigate", "--tab", tab, edit)
	browsertest.Eval[any](t, env, edit, `(() => { sessionStorage.clear(); return null })()`)
	out := env.MustGrip(t, "replay", file, "--tab", tab, "--param", "PAGE=Meeting notes 2026-12-08", "--param", "BODY=week two")
	if !strings.Contains(out, "replayed 3 steps") {
		t.Fatalf("replay: %s", out)
	}
	view := origin + "/testdata/wiki/Meeting_notes_2026-12-08"
	if url := env.TabURL(t, mustAtoi(t, tab)); url != view {
		t.Fatalf("after the replay the tab is at %s, want %s", url, view)
	}
	if saves := browsertest.Eval[string](t, env, view, `sessionStorage.getItem('saves')`); saves != `[{"title":"Meeting notes 2026-12-08","body":"week two"}]` {
		t.Fatalf("the wiki saved %s", saves)
	}

	// The save goes only after the click's reply (the page holds it until
	// the test releases it, once the log has the click done): the replay
	// waits for the URL with the placeholder, and matches it.
	key := "wiki-save-" + tab
	env.MustGrip(t, "navigate", "--tab", tab, edit+"?hold="+key)
	browsertest.Eval[any](t, env, edit, `(() => { sessionStorage.clear(); return null })()`)
	t.Cleanup(func() { browsertest.Release(key) })
	done := make(chan browsertest.Result, 1)
	go func() {
		done <- grip("replay", file, "--tab", tab, "--param", "PAGE=Meeting notes 2026-12-15", "--param", "BODY=week three")
	}()
	deadline := time.Now().Add(60 * time.Second)
	for browsertest.Held(key) == 0 || !strings.Contains(grip("log", "--tab", tab, "--limit", "1").Stdout, "click ") {
		if time.Now().After(deadline) {
			browsertest.Release(key)
			t.Fatalf("the replay's click did not reach the save: %+v", <-done)
		}
		time.Sleep(50 * time.Millisecond)
	}
	if url := env.TabURL(t, mustAtoi(t, tab)); !strings.Contains(url, "/testdata/wiki.html") {
		t.Fatalf("the save went before its release: the tab is at %s", url)
	}
	browsertest.Release(key)
	if r := <-done; r.Code != 0 || !strings.Contains(r.Stdout, "replayed 3 steps") {
		t.Fatalf("replay with the late save: %+v", r)
	}
	if url := env.TabURL(t, mustAtoi(t, tab)); url != origin+"/testdata/wiki/Meeting_notes_2026-12-15" {
		t.Fatalf("after the late save the tab is at %s", url)
	}

	// The file names the recorded page in its `then url`: the save is done
	// and goes elsewhere, and the divergence says so, not "stayed".
	literal := strings.Replace(text, "/testdata/wiki/{{PAGE}}", "/testdata/wiki/Meeting_notes_2026-12-01", 1)
	if err := os.WriteFile(file, []byte(literal), 0o600); err != nil {
		t.Fatal(err)
	}
	env.MustGrip(t, "navigate", "--tab", tab, edit)
	browsertest.Eval[any](t, env, edit, `(() => { sessionStorage.clear(); return null })()`)
	var res struct {
		Done     int
		Diverged *workflow.Divergence
		Error    struct{ Code, Message, Hint string }
	}
	code := env.GripJSON(t, &res, "replay", file, "--tab", tab, "--param", "PAGE=Meeting notes 2026-12-08", "--param", "BODY=week two")
	if code != 1 || res.Error.Code != "replay_diverged" || res.Diverged == nil || res.Done != 2 {
		t.Fatalf("replay with the literal URL: exit %d, %+v", code, res)
	}
	d := res.Diverged
	if strings.Contains(d.Found, "stayed") || !strings.Contains(d.Found, "the click was done") || !strings.Contains(d.Found, "went to "+view) {
		t.Fatalf("found %q", d.Found)
	}
	if !strings.Contains(d.Hint, "do not do it again") {
		t.Fatalf("hint %q", d.Hint)
	}
	if saves := browsertest.Eval[string](t, env, view, `sessionStorage.getItem('saves')`); saves != `[{"title":"Meeting notes 2026-12-08","body":"week two"}]` {
		t.Fatalf("the wiki saved %s", saves)
	}
}
