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
			got = said("click", mustRef(t, snap, "button", "Subscribe"))
			has("a live region filled after it came", got, "live", "Subscribed to the issue.", "")
			got = said("click", mustRef(t, snap, "button", "Lock"))
			has("an alert that came", got, "alert", "The note is locked by ada.", "")
			got = said("click", mustRef(t, snap, "button", "Copy link"))
			has("a toast that came as a status", got, "status", "Link copied", "")
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
			has("the next page's confirmation", res.Said, "flash", "1 row(s) inserted.", "")
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
// whose scripts set it up after its load event replies with the page set
// up, not the page as it loaded: just after the load event (MediaWiki's
// search box turned combobox; the walker found it, bench/RESULTS.md
// "Round 6"), and from an idle callback and a timer, through references
// the page took at its start, in an origin grip works in (MediaWiki's
// modules, bench/RESULTS.md "Round 7").
func TestReplyWaitsForAPageSettingUpAfterLoad(t *testing.T) {
	browsertest.Need(t, env)
	for _, page := range []string{"setup-after-load.html", "idle-setup.html"} {
		t.Run(page, func(t *testing.T) {
			tab := env.OpenTab(t, env.Origin1+"/"+page)
			snap := snapshot(t, tab)
			res, perr, code := act(t, "click", mustRef(t, snap, "link", "Next page"))
			if code != 0 {
				t.Fatalf("click: exit %d %+v", code, perr)
			}
			if refOfList(res.Changes.Appeared, "button", "Suggestions") == "" || refOfList(res.Changes.Appeared, "combobox", "Search the wiki") == "" {
				t.Errorf("the reply came before the page set itself up: appeared %+v, settled %v, loading %q", res.Changes.Appeared, res.Settled, res.Loading)
			}
		})
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

// DokuWiki saves a draft as one types (lib/scripts/locktimer.js: a key
// press 30 s after the lock's last refresh posts it) and says so in
// div#draft__status, which has no role: a status its class and id name.
// The reply to the typing quotes it; the next, which posts nothing, not.
func TestReplySaysWhatAStatusLineSays(t *testing.T) {
	browsertest.Need(t, env)
	tab := env.OpenTab(t, env.Origin1+"/dokuwiki/edit.html")
	snap := snapshot(t, tab)
	// With grip's debugger on the tab the reply waits for the draft's
	// request to be answered (docs/settling.md): the status is shown by then.
	if r := env.Grip(context.Background(), "network", "--tab", fmt.Sprint(tab)); r.Code != 0 {
		t.Fatalf("grip network: exit %d %s", r.Code, r.Stderr)
	}
	text := mustRef(t, snap, "textbox", "")
	res, perr, code := act(t, "type", text, " more")
	if code != 0 {
		t.Fatalf("type: exit %d %+v", code, perr)
	}
	if len(res.Said) != 1 || res.Said[0].Role != "status" || res.Said[0].Text != "Draft autosaved on 2026/12/02 14:58" {
		t.Errorf("typing that saved a draft: said %+v, want the draft's status", res.Said)
	}
	res, perr, code = act(t, "type", text, " again")
	if code != 0 || len(res.Said) != 0 {
		t.Errorf("typing that saved nothing: exit %d %+v, said %+v", code, perr, res.Said)
	}
	// A status line that is a clock changes on its own: what it changes
	// to while an action runs is not what the app said in answer.
	tab = env.OpenTab(t, env.Origin1+"/status-clock.html")
	save := mustRef(t, snapshot(t, tab), "button", "Save")
	if _, perr, code := act(t, "click", save); code != 0 {
		t.Fatalf("click Save: exit %d %+v", code, perr)
	}
	ticks := func() int { return browsertest.Eval[int](t, env, env.TabURL(t, tab), "window.ticks") }
	for from, deadline := ticks(), time.Now().Add(20*time.Second); ticks() < from+5; time.Sleep(100 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the clock stopped")
		}
	}
	before := ticks()
	res, perr, code = act(t, "click", save)
	if code != 0 {
		t.Fatalf("click Save: exit %d %+v", code, perr)
	}
	if ticks() == before {
		t.Fatal("the clock did not tick while the save ran")
	}
	if len(res.Said) != 1 || res.Said[0].Text != "Saved (2)" {
		t.Errorf("a save beside a clock: said %+v, want only 'Saved (2)'", res.Said)
	}
}

// DokuWiki's media manager (lib/scripts/tree.js) gives each closed node of
// its namespace tree aria-live="assertive" as the page starts, and each of
// a subtree it loads: what a live region shows when it comes on the page,
// or in a page the action loaded, is the page being drawn, not said.
func TestReplyLeavesOutWhatThePageDrew(t *testing.T) {
	browsertest.Need(t, env)
	tab := env.OpenTab(t, env.Origin1+"/dokuwiki/media.html")
	snap := snapshot(t, tab)
	res, perr, code := act(t, "click", mustRef(t, snap, "link", "Media Manager"))
	if code != 0 {
		t.Fatalf("click Media Manager: exit %d %+v", code, perr)
	}
	if !res.Changes.Navigated || len(res.Said) != 0 {
		t.Errorf("a page drawn: navigated %v, said %+v, want nothing said", res.Changes.Navigated, res.Said)
	}
	// The subtree comes from a request the reply waits for with grip's
	// debugger on the tab (docs/settling.md).
	if r := env.Grip(context.Background(), "network", "--tab", fmt.Sprint(tab)); r.Code != 0 {
		t.Fatalf("grip network: exit %d %s", r.Code, r.Stderr)
	}
	snapshot(t, tab)
	// The toggle is the node's image, whose click the tree takes on its
	// box: no element a snapshot lists, so a CSS target.
	res, perr, code = act(t, "click", "#media__tree li.closed > img", "--tab", fmt.Sprint(tab))
	if code != 0 {
		t.Fatalf("click +: exit %d %+v", code, perr)
	}
	if refOfList(res.Changes.Appeared, "link", "logos") == "" {
		t.Fatalf("the subtree did not come: appeared %+v", res.Changes.Appeared)
	}
	if len(res.Said) != 0 {
		t.Errorf("a subtree drawn: said %+v, want nothing", res.Said)
	}
}

// TestSecretFieldSaysItHoldsText: a password field the page filled is
// listed as filled (its value never shown), an empty one is not, and
// typing into the filled one says the text went after what it held.
func TestSecretFieldSaysItHoldsText(t *testing.T) {
	browsertest.Need(t, env)
	tab := env.OpenTab(t, env.Origin1+"/password-kept.html")
	snap := snapshot(t, tab)
	if !strings.Contains(snap.Text, "[textbox 'Password' filled]") || strings.Contains(snap.Text, "wrong-pass-9") {
		t.Errorf("the refilled password should read [textbox 'Password' filled], its value never shown:\n%s", snap.Text)
	}
	if !strings.Contains(snap.Text, "[textbox 'Empty secret']") {
		t.Errorf("the empty secret should read bare:\n%s", snap.Text)
	}
	res, perr, code := act(t, "type", mustRef(t, snap, "textbox", "Password"), "admin-pass-1")
	if code != 0 {
		t.Fatalf("type: exit %d %+v", code, perr)
	}
	if !strings.Contains(res.Detail, "typed after the text the field already held") || strings.Contains(res.Detail, "wrong-pass") {
		t.Errorf("the reply should say the typing went after the hidden text: detail %q", res.Detail)
	}
}

// Syncthing puts its folder list on the page again after every save
// (ng-repeat over a new list), and each folder's heading is a button
// holding a div.panel-status that angular-translate fills a task later
// (testdata/syncthing/folders.html): a status inside a control is that
// control's name, whose line says its change, not something the app said
// (a new user read `said: 'Unshared'` on seven saves that changed no
// folder).
func TestSaidLeavesOutAControlsOwnStatus(t *testing.T) {
	browsertest.Need(t, env)
	tab := env.OpenTab(t, env.Origin1+"/syncthing/folders.html")
	snap := snapshot(t, tab)
	if mustRef(t, snap, "button", "Unshared Default Folder") == "" {
		t.Fatal("no folder heading")
	}
	res, perr, code := act(t, "click", mustRef(t, snap, "button", "Save"))
	if code != 0 {
		t.Fatalf("click Save: exit %d %+v", code, perr)
	}
	if refOfList(res.Changes.Appeared, "button", "Unshared Default Folder") == "" {
		t.Fatalf("the list was not drawn again: appeared %+v", res.Changes.Appeared)
	}
	for _, s := range res.Said {
		if strings.Contains(s.Text, "Unshared") {
			t.Errorf("said %+v: a button's own status quoted as said", res.Said)
		}
	}
}

// A field the page marks invalid by its class and its group's (AngularJS's
// ng-invalid ng-dirty, Bootstrap 3's has-error) is said with the text the
// page shows under it, not the browser's own message, which the page
// never shows: Syncthing's "The folder ID must be unique." (a validator the
// browser knows nothing of) and "The folder path cannot be blank." (a
// required field, where the browser would say "Please fill out this field.").
func TestSaidQuotesAFieldsOwnError(t *testing.T) {
	browsertest.Need(t, env)
	tab := env.OpenTab(t, env.Origin1+"/syncthing/folders.html")
	snap := snapshot(t, tab)
	for _, c := range []struct{ role, field, value, want string }{
		{"textbox", "Folder ID", "default", "The folder ID must be unique."},
		{"combobox", "Folder Path", "", "The folder path cannot be blank."}, // a datalist's
	} {
		ref := mustRef(t, snap, c.role, c.field)
		res, perr, code := act(t, "fill", ref, c.value)
		if code != 0 {
			t.Fatalf("fill %s: exit %d %+v", c.field, code, perr)
		}
		if len(res.Said) != 1 || res.Said[0].Role != "validation" || res.Said[0].Text != c.want || res.Said[0].Ref != ref {
			t.Errorf("fill %s with %q: said %+v, want validation %q of %s", c.field, c.value, res.Said, c.want, ref)
		}
	}
}

// A dialog that comes up holding no field asks something: what it says
// is said, its controls' words left out (Syncthing's removal question over
// Yes and No, a Bootstrap 3 .modal with no role; a new user was told only
// 'Remove Device', the header's). One with fields is a form, not quoted.
func TestSaidQuotesADialogsQuestion(t *testing.T) {
	browsertest.Need(t, env)
	tab := env.OpenTab(t, env.Origin1+"/syncthing/folders.html")
	snap := snapshot(t, tab)
	res, perr, code := act(t, "click", mustRef(t, snap, "button", "Remove"))
	if code != 0 {
		t.Fatalf("click Remove: exit %d %+v", code, perr)
	}
	const want = "Remove Device Are you sure you want to remove device Laptop?"
	if len(res.Said) != 1 || res.Said[0].Text != want || res.Said[0].Role != "dialog" {
		t.Errorf("a confirmation dialog: said %+v, want dialog %q", res.Said, want)
	}
	no := refOfList(res.Changes.Appeared, "button", "No")
	if no == "" {
		t.Fatalf("the dialog's No is not listed: appeared %+v", res.Changes.Appeared)
	}
	if res, _, code = act(t, "click", no); code != 0 || len(res.Said) != 0 {
		t.Errorf("closing the dialog: exit %d, said %+v, want nothing", code, res.Said)
	}
}

// A card whose header holds its one heading (Bootstrap's .panel-heading >
// h3.panel-title) gives that heading to what repeats inside it: Syncthing's
// two notices each end with an OK, which a new user could not tell apart.
func TestCardsAreNamedByTheirHeader(t *testing.T) {
	browsertest.Need(t, env)
	tab := env.OpenTab(t, env.Origin1+"/syncthing/folders.html")
	snap := snapshot(t, tab)
	for _, want := range []string{"[button 'OK' in 'GUI Authentication: Set User and Pa", "[button 'OK' in 'Automatic upgrades']"} {
		if !strings.Contains(snap.Text, want) {
			t.Errorf("no %s… in:\n%s", want, snap.Text)
		}
	}
}
