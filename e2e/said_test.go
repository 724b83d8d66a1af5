package e2e

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/grip-dev/grip/internal/browsertest"
	"github.com/grip-dev/grip/protocol"
)

// An action's reply says what the app said in answer, in every snapshot
// mode: a flash that appeared, a status that changed, the browser's own
// validation of a submit it stopped, a field the page marked invalid, and
// the flash of the page a navigation led to (docs/effects.md, "What
// the app said").
func TestReplySaysWhatTheAppSaid(t *testing.T) {
	browsertest.Need(t, env)
	for _, mode := range []string{"interactive", "content"} {
		t.Run(mode, func(t *testing.T) {
			tab := env.OpenTab(t, env.Origin1+"/said.html")
			snap := snapshot(t, tab, "--mode", mode)
			said := func(args ...string) []protocol.Said {
				t.Helper()
				res, perr, code := act(t, args...)
				if code != 0 {
					t.Fatalf("%v: exit %d %+v", args, code, perr)
				}
				return res.Said
			}
			has := func(what string, got []protocol.Said, role, text, ref string) {
				t.Helper()
				for _, s := range got {
					if s.Role == role && s.Text == text && s.Ref == ref {
						return
					}
				}
				t.Errorf("%s: said %+v, want %s %q %s", what, got, role, text, ref)
			}
			got := said("click", mustRef(t, snap, "button", "Sign in"))
			has("a flash", got, "flash", "Invalid user or password", "")
			// Said once: the next action's reply does not repeat it.
			save := mustRef(t, snap, "button", "Save")
			got = said("click", save)
			has("a status", got, "status", "Saved.", "")
			if len(got) != 1 {
				t.Errorf("the save's reply says %+v: only its own status", got)
			}
			email := mustRef(t, snap, "textbox", "Email")
			got = said("click", mustRef(t, snap, "button", "Send"))
			msg := browsertest.Eval[string](t, env, env.TabURL(t, tab), "document.getElementById('email').validationMessage")
			if msg == "" {
				t.Fatal("the browser gives the empty email no message")
			}
			has("the browser's validation", got, "validation", msg, email)
			// Django's error list: a class word that begins with "error".
			got = said("click", mustRef(t, snap, "button", "Verify"))
			has("an error list", got, "flash", "This field is required.", "")
			age := mustRef(t, snap, "textbox", "Age")
			got = said("fill", age, "ten")
			has("a field marked invalid", got, "validation", "Age must be a number", age)

			// The text reply quotes it.
			r := env.Grip(context.Background(), "click", save, "--tab", fmt.Sprint(tab))
			if r.Code != 0 || !strings.Contains(r.Stdout, "\nsaid: 'Saved.'\n") {
				t.Errorf("text reply: exit %d\n%s", r.Code, r.Stdout)
			}
			res, perr, code := act(t, "click", mustRef(t, snap, "link", "Done"))
			if code != 0 {
				t.Fatalf("click Done: exit %d %+v", code, perr)
			}
			has("the next page's flash", res.Said, "flash", "Successful update.", "")
			// A new page: every old ref is gone, said in one line.
			if !res.Changes.Navigated || len(res.Changes.Gone) < 8 {
				t.Errorf("navigated %v, gone %v", res.Changes.Navigated, res.Changes.Gone)
			}
			back := mustRef(t, snapshot(t, tab), "link", "Back")
			r = env.Grip(context.Background(), "click", back)
			if r.Code != 0 || !strings.Contains(r.Stdout, "\ngone: every ref of the previous page (") || strings.Contains(r.Stdout, back+" ") {
				t.Errorf("text reply of a navigation: exit %d\n%s", r.Code, r.Stdout)
			}
		})
	}
}

// An action's reply waits while the app shows it is loading (a plain
// element saying "Loading...") and while a request the action started is
// in flight, within the bound: requests are seen while grip's debugger is
// attached to the tab (here: a network read first).
func TestReplyWaitsWhileAppLoads(t *testing.T) {
	browsertest.Need(t, env)
	tab := env.OpenTab(t, env.Origin1+"/loading.html")
	snap := snapshot(t, tab)
	res, perr, code := act(t, "click", mustRef(t, snap, "button", "Choose tracker"))
	if code != 0 {
		t.Fatalf("click: exit %d %+v", code, perr)
	}
	if refOfList(res.Changes.Appeared, "textbox", "Subject") == "" {
		t.Errorf("the reply came while the form was loading: appeared %+v, settled %v", res.Changes.Appeared, res.Settled)
	}
	snapshot(t, tab, "--mode", "content")
	if r := env.Grip(context.Background(), "network", "--tab", fmt.Sprint(tab)); r.Code != 0 {
		t.Fatalf("grip network: exit %d %s", r.Code, r.Stderr)
	}
	res, perr, code = act(t, "click", mustRef(t, snap, "button", "Check"))
	if code != 0 {
		t.Fatalf("click: exit %d %+v", code, perr)
	}
	if refOfList(res.Changes.Appeared, "paragraph", "Checked: 200") == "" && refOfList(res.Changes.Appeared, "text", "Checked: 200") == "" {
		t.Errorf("the reply came while the request was in flight: appeared %+v, settled %v", res.Changes.Appeared, res.Settled)
	}
}

// TestReplyWaitsForASocketOpening: a click that opens a WebSocket is
// still in flight until the handshake is answered (the server here answers
// only when the test says), so the reply says the page is still changing,
// not that it settled on "Not connected" (Jupyter's "Kernel Created" read
// before "Connected" after a restart, under load).
func TestReplyWaitsForASocketOpening(t *testing.T) {
	browsertest.Need(t, env)
	key := fmt.Sprintf("socket-%d", time.Now().UnixNano())
	t.Cleanup(func() { browsertest.Release(key) })
	tab := env.OpenTab(t, env.Origin1+"/socket.html?key="+key)
	snap := snapshot(t, tab)
	// The requests are seen while grip's debugger is attached: reading them attaches it.
	if r := env.Grip(context.Background(), "network", "--tab", fmt.Sprint(tab)); r.Code != 0 {
		t.Fatalf("grip network: exit %d %s", r.Code, r.Stderr)
	}
	res, perr, code := act(t, "click", mustRef(t, snap, "button", "Connect"))
	if code != 0 {
		t.Fatalf("click: exit %d %+v", code, perr)
	}
	if browsertest.Held(key) == 0 {
		t.Fatalf("the page never asked for the socket: %+v", res)
	}
	if res.Settled == nil || *res.Settled || !strings.Contains(res.Busy, "in flight") {
		t.Errorf("the reply said the page settled while its socket was opening: settled %v, busy %q", res.Settled != nil && *res.Settled, res.Busy)
	}
	browsertest.Release(key)
	if r := env.Grip(context.Background(), "wait", "--tab", fmt.Sprint(tab), "--text", "Connected"); r.Code != 0 {
		t.Errorf("the socket never opened once released: exit %d %s", r.Code, r.Stderr)
	}
}

// refOfList is the ref of the element of els with role and name, or "".
func refOfList(els []protocol.Element, role, name string) string {
	for _, e := range els {
		if e.Role == role && e.Name == name {
			return e.Ref
		}
	}
	return ""
}

// TestReplyWaitsForAPageSettingUpAfterLoad: a click that loads a page
// whose scripts set it up just after its load event (MediaWiki's search
// box turned combobox; the walker found it, bench/RESULTS.md "Round 6")
// replies with the page set up, not the page as it loaded.
func TestReplyWaitsForAPageSettingUpAfterLoad(t *testing.T) {
	browsertest.Need(t, env)
	tab := env.OpenTab(t, env.Origin1+"/setup-after-load.html")
	snap := snapshot(t, tab)
	res, perr, code := act(t, "click", mustRef(t, snap, "link", "Next page"))
	if code != 0 {
		t.Fatalf("click: exit %d %+v", code, perr)
	}
	if refOfList(res.Changes.Appeared, "button", "Suggestions") == "" || refOfList(res.Changes.Appeared, "combobox", "Search the wiki") == "" {
		t.Errorf("the reply came before the page set itself up: appeared %+v, settled %v, loading %q", res.Changes.Appeared, res.Settled, res.Loading)
	}
}

// TestReplyWaitsForAPageSettingUpWhenIdle: a click that loads a page of
// an origin grip works in is read after the set-up the page runs from an
// idle callback and a timer after its load event, through references it
// took at its start (MediaWiki's modules; the walker found its search box
// turned into a combobox after the reply), not at the load's quiet period.
func TestReplyWaitsForAPageSettingUpWhenIdle(t *testing.T) {
	browsertest.Need(t, env)
	tab := env.OpenTab(t, env.Origin1+"/idle-setup.html")
	snap := snapshot(t, tab)
	res, perr, code := act(t, "click", mustRef(t, snap, "link", "Next page"))
	if code != 0 {
		t.Fatalf("click: exit %d %+v", code, perr)
	}
	if refOfList(res.Changes.Appeared, "button", "Suggestions") == "" || refOfList(res.Changes.Appeared, "combobox", "Search the wiki") == "" {
		t.Errorf("the reply came before the page set itself up: appeared %+v, settled %v, loading %q", res.Changes.Appeared, res.Settled, res.Loading)
	}
}

// TestReplyWaitsForAScriptStillLoading: a click that adds a script for
// the module it needs (MediaWiki's ResourceLoader; the walker found its
// special pages replied before their widgets came) replies once the
// module has loaded and drawn, with no debugger attached to see the
// request.
func TestReplyWaitsForAScriptStillLoading(t *testing.T) {
	browsertest.Need(t, env)
	// The debugger, which would see the request in flight, never
	// attached: as on a tab grip did not navigate, or under the switch.
	browsertest.EvalWorker[bool](t, env, `chrome.storage.local.set({neverDebugger: true}).then(() => true)`)
	t.Cleanup(func() {
		browsertest.EvalWorker[bool](t, env, `chrome.storage.local.remove('neverDebugger').then(() => true)`)
	})
	tab := env.OpenTab(t, env.Origin1+"/script-module.html")
	snap := snapshot(t, tab)
	res, perr, code := act(t, "click", mustRef(t, snap, "button", "Open the tool"))
	if code != 0 {
		t.Fatalf("click: exit %d %+v", code, perr)
	}
	if refOfList(res.Changes.Appeared, "button", "Module action") == "" {
		t.Errorf("the reply came while the module was loading: appeared %+v, settled %v, busy %q", res.Changes.Appeared, res.Settled, res.Busy)
	}
}
