package e2e

import (
	"context"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/grip-dev/grip/client"
	"github.com/grip-dev/grip/frames"
	"github.com/grip-dev/grip/internal/browsertest"
	"github.com/grip-dev/grip/protocol"
	"github.com/grip-dev/grip/statedir"
)

// Dialogs, the tabs and popups a page opens, and the navigations an action
// causes, as an agent meets them through the CLI (docs/dialogs.md,
// "Dialogs" and docs/effects.md, "What an action did").

// openEvents opens events.html in a new tab (the query keeps its URL apart
// from other tests' tabs) and returns the tab and a snapshot.
func openEvents(t *testing.T) (int, protocol.Snapshot) {
	t.Helper()
	tab := env.OpenTab(t, env.Origin1+"/events.html?"+url.QueryEscape(t.Name()))
	return tab, snapshot(t, tab)
}

// status is what events.html says happened last (its #status).
func status(t *testing.T, tab int) string {
	t.Helper()
	return browsertest.Eval[string](t, env, env.TabURL(t, tab), "document.getElementById('status').textContent")
}

// wantDialog fails unless d is a dialog of type typ saying message.
func wantDialog(t *testing.T, what string, d *protocol.Dialog, typ, message string) {
	t.Helper()
	if d == nil || d.Type != typ || d.Message != message {
		t.Fatalf("%s: dialog = %+v, want %s %q", what, d, typ, message)
	}
}

func tabArg(tab int) []string { return []string{"--tab", fmt.Sprint(tab)} }

// A click that asks confirm() answers at once with the dialog; while it is
// open, reads say so and actions are refused without touching the page;
// accepting it lets the page go on, and the reply says what it did.
func TestDialogConfirmAccepted(t *testing.T) {
	browsertest.Need(t, env)
	tab, snap := openEvents(t)
	del := mustRef(t, snap, "button", "Delete draft")
	start := time.Now()
	r := env.Grip(t.Context(), "click", del)
	if r.Code != 0 || !strings.Contains(r.Stdout, "dialog open: confirm 'Discard the draft?' — answer with grip dialog accept|dismiss") {
		t.Fatalf("click's reply (exit %d):\n%s%s", r.Code, r.Stdout, r.Stderr)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("the reply naming the dialog took %s (the injection deadline is 10 s)", d)
	}

	var shown protocol.DialogResult
	if code := env.GripJSON(t, &shown, append([]string{"dialog"}, tabArg(tab)...)...); code != 0 {
		t.Fatalf("grip dialog: exit %d", code)
	}
	wantDialog(t, "grip dialog", shown.Dialog, "confirm", "Discard the draft?")
	if shown.Tab.ID != tab {
		t.Errorf("grip dialog names tab %d, want %d", shown.Tab.ID, tab)
	}
	if out := env.MustGrip(t, append([]string{"dialog"}, tabArg(tab)...)...); !strings.Contains(out, "dialog open: confirm 'Discard the draft?'") {
		t.Errorf("grip dialog text: %s", out)
	}

	// A read answers with the dialog, not after a deadline.
	var s protocol.Snapshot
	if code := env.GripJSON(t, &s, append([]string{"snapshot"}, tabArg(tab)...)...); code != 0 {
		t.Fatalf("snapshot behind the dialog: exit %d %+v", code, s)
	}
	wantDialog(t, "snapshot", s.Dialog, "confirm", "Discard the draft?")
	if !strings.Contains(s.Text, "dialog open: confirm") || len(s.Frames) != 0 {
		t.Errorf("snapshot behind a dialog: %+v", s)
	}
	// grip tabs shows it too.
	var tabs protocol.TabsResult
	env.GripJSON(t, &tabs, "tabs")
	if i := slices.IndexFunc(tabs.Tabs, func(x protocol.Tab) bool { return x.ID == tab }); i < 0 || tabs.Tabs[i].Dialog == nil {
		t.Errorf("grip tabs does not show the dialog: %+v", tabs.Tabs)
	}

	// An action is refused, naming the dialog, and nothing reaches the page.
	_, perr, code := act(t, "click", mustRef(t, snap, "button", "Save"))
	if code != 1 || perr == nil || perr.Code != protocol.CodeNotActionable || perr.Dialog == nil || !strings.Contains(perr.Hint, "grip dialog accept") {
		t.Fatalf("click behind a dialog: exit %d %+v", code, perr)
	}

	res, perr, code := act(t, append([]string{"dialog", "accept"}, tabArg(tab)...)...)
	if code != 0 || !res.OK || res.Dialog != nil {
		t.Fatalf("dialog accept: exit %d %+v %+v", code, perr, res)
	}
	if !strings.Contains(res.Detail, "accepted confirm 'Discard the draft?'") {
		t.Errorf("accept's detail: %q", res.Detail)
	}
	if got := status(t, tab); got != "discarded" {
		t.Errorf("status = %q, want discarded (confirm returned true)", got)
	}
	// Answered: there is none now.
	if out := env.MustGrip(t, append([]string{"dialog"}, tabArg(tab)...)...); !strings.Contains(out, "no dialog open") {
		t.Errorf("grip dialog after the answer: %s", out)
	}
	_, perr, code = act(t, append([]string{"dialog", "dismiss"}, tabArg(tab)...)...)
	if code != 1 || perr == nil || !strings.Contains(perr.Message, "no dialog is open") {
		t.Errorf("dismiss with no dialog: exit %d %+v", code, perr)
	}
}

// A long message is cut the same way where the dialog is shown and where
// its answer is told: 99 characters and an ellipsis.
func TestDialogLongMessageCutAlike(t *testing.T) {
	browsertest.Need(t, env)
	tab, snap := openEvents(t)
	res, perr, code := act(t, "click", mustRef(t, snap, "button", "Long question"))
	if code != 0 || res.Dialog == nil {
		t.Fatalf("click: exit %d %+v %+v", code, perr, res)
	}
	shown := frames.DialogLine(res.Dialog)
	res, perr, code = act(t, append([]string{"dialog", "accept"}, tabArg(tab)...)...)
	if code != 0 {
		t.Fatalf("accept: exit %d %+v", code, perr)
	}
	quoted := func(s string) string {
		i, j := strings.Index(s, "'"), strings.LastIndex(s, "'")
		if i < 0 || j <= i {
			return ""
		}
		return s[i : j+1]
	}
	if q := quoted(shown); q == "" || !strings.HasSuffix(q, "…'") || q != quoted(res.Detail) {
		t.Errorf("the dialog reads %s when shown and %s when answered", quoted(shown), quoted(res.Detail))
	}
}

func TestDialogConfirmDismissed(t *testing.T) {
	browsertest.Need(t, env)
	tab, snap := openEvents(t)
	res, perr, code := act(t, "click", mustRef(t, snap, "button", "Delete draft"))
	if code != 0 {
		t.Fatalf("click: %+v", perr)
	}
	wantDialog(t, "click", res.Dialog, "confirm", "Discard the draft?")
	if res, perr, code = act(t, append([]string{"dialog", "dismiss"}, tabArg(tab)...)...); code != 0 || !strings.Contains(res.Detail, "dismissed confirm") {
		t.Fatalf("dismiss: exit %d %+v %+v", code, perr, res)
	}
	if got := status(t, tab); got != "kept" {
		t.Errorf("status = %q, want kept (confirm returned false)", got)
	}
}

// A prompt shows its default and takes the agent's text.
func TestDialogPromptAnsweredWithText(t *testing.T) {
	browsertest.Need(t, env)
	tab, snap := openEvents(t)
	res, perr, code := act(t, "click", mustRef(t, snap, "button", "Set name"))
	if code != 0 {
		t.Fatalf("click: %+v", perr)
	}
	wantDialog(t, "click", res.Dialog, "prompt", "Your name?")
	if res.Dialog.DefaultPrompt != "Bob" {
		t.Errorf("default_prompt = %q, want Bob", res.Dialog.DefaultPrompt)
	}
	if r := env.Grip(t.Context(), append([]string{"dialog", "dismiss", "--text", "x"}, tabArg(tab)...)...); r.Code != 2 {
		t.Errorf("dismiss --text: exit %d %s, want a usage error", r.Code, r.Stderr)
	}
	if _, perr, code = act(t, append([]string{"dialog", "accept", "--text", "Ada Lovelace"}, tabArg(tab)...)...); code != 0 {
		t.Fatalf("accept --text: %+v", perr)
	}
	if got := status(t, tab); got != "name: Ada Lovelace" {
		t.Errorf("status = %q, want the text given", got)
	}
}

func TestDialogAlert(t *testing.T) {
	browsertest.Need(t, env)
	tab, snap := openEvents(t)
	r := env.Grip(t.Context(), "click", mustRef(t, snap, "button", "Save"))
	if r.Code != 0 || !strings.Contains(r.Stdout, "dialog open: alert 'Saved' — close it with grip dialog accept") {
		t.Fatalf("click (exit %d):\n%s%s", r.Code, r.Stdout, r.Stderr)
	}
	if _, perr, code := act(t, append([]string{"dialog", "accept"}, tabArg(tab)...)...); code != 0 {
		t.Fatalf("accept: %+v", perr)
	}
	if got := status(t, tab); got != "after alert" {
		t.Errorf("status = %q: the page did not go on after the alert", got)
	}
}

// A dialog the page opens by itself (a timer of 2 s, past the settle
// bound: not one the reply waits for, docs/settling.md) is reported on the
// next call to that tab.
func TestDialogFromTimer(t *testing.T) {
	browsertest.Need(t, env)
	tab, snap := openEvents(t)
	res, perr, code := act(t, "click", mustRef(t, snap, "button", "Ask later"))
	if code != 0 || res.Dialog != nil {
		t.Fatalf("click: exit %d %+v %+v", code, perr, res)
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		var s protocol.Snapshot
		if code := env.GripJSON(t, &s, append([]string{"snapshot"}, tabArg(tab)...)...); code != 0 {
			t.Fatalf("snapshot: exit %d", code)
		}
		if s.Dialog != nil {
			wantDialog(t, "snapshot", s.Dialog, "confirm", "Still there?")
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the timer's dialog was never reported")
		}
		time.Sleep(100 * time.Millisecond)
	}
	if _, perr, code := act(t, append([]string{"dialog", "accept"}, tabArg(tab)...)...); code != 0 {
		t.Fatalf("accept: %+v", perr)
	}
	if got := status(t, tab); got != "timer: true" {
		t.Errorf("status = %q", got)
	}
}

// Leaving a page that asks first (beforeunload) reports that dialog;
// dismissing it stays, accepting it leaves, and the reply names the new
// page. The page asks only once a person has interacted with it: grip's
// click gives it the user activation a real click gives.
func TestDialogBeforeUnloadOnNavigate(t *testing.T) {
	browsertest.Need(t, env)
	tab, snap := openEvents(t)
	if _, perr, code := act(t, "click", mustRef(t, snap, "button", "Edit")); code != 0 {
		t.Fatalf("click Edit: %+v", perr)
	}
	target := env.Origin1 + "/home.html"
	res, perr, code := act(t, append([]string{"navigate", target}, tabArg(tab)...)...)
	if code != 0 {
		t.Fatalf("navigate: exit %d %+v", code, perr)
	}
	if res.Dialog == nil || res.Dialog.Type != protocol.DialogBeforeUnload {
		t.Fatalf("navigate away from a page with unsaved changes: dialog = %+v", res.Dialog)
	}
	if res, perr, code = act(t, append([]string{"dialog", "dismiss"}, tabArg(tab)...)...); code != 0 || !strings.Contains(res.Changes.URL, "/events.html") {
		t.Fatalf("dismiss: exit %d %+v, still on %s", code, perr, res.Changes.URL)
	}
	if got := status(t, tab); got != "unsaved" {
		t.Errorf("status = %q: the page was left", got)
	}
	if res, _, _ = act(t, append([]string{"navigate", target}, tabArg(tab)...)...); res.Dialog == nil {
		t.Fatalf("second navigate: no dialog: %+v", res)
	}
	res, perr, code = act(t, append([]string{"dialog", "accept"}, tabArg(tab)...)...)
	if code != 0 || res.Changes.URL != target || res.Changes.Title != "Fixture Home" {
		t.Fatalf("accept: exit %d %+v; now at %q %q, want the new page", code, perr, res.Changes.URL, res.Changes.Title)
	}
	if len(res.Changes.Gone) == 0 || len(res.Changes.Appeared) == 0 {
		t.Errorf("the reply does not say what the agent now sees: %+v", res.Changes)
	}
}

// A link with target=_blank names the tab it opened, with its title;
// grip tabs shows which tab opened it, and every command works on it with
// --tab.
func TestNewTabFromLink(t *testing.T) {
	browsertest.Need(t, env)
	tab, snap := openEvents(t)
	res, perr, code := act(t, "click", mustRef(t, snap, "link", "Help center"))
	if code != 0 || len(res.Opened) != 1 {
		t.Fatalf("click: exit %d %+v; opened %+v", code, perr, res.Opened)
	}
	opened := res.Opened[0]
	t.Cleanup(func() { env.Grip(t.Context(), "tabs", "close", fmt.Sprint(opened.Tab)) })
	if opened.Tab == tab || opened.Title != "Help center" || opened.URL != env.Origin1+"/help.html" {
		t.Errorf("opened = %+v", opened)
	}
	var tabs protocol.TabsResult
	env.GripJSON(t, &tabs, "tabs")
	if i := slices.IndexFunc(tabs.Tabs, func(x protocol.Tab) bool { return x.ID == opened.Tab }); i < 0 || tabs.Tabs[i].Opener != tab {
		t.Errorf("grip tabs: %+v, want tab %d opened by %d", tabs.Tabs, opened.Tab, tab)
	}
	if out := env.MustGrip(t, "tabs"); !strings.Contains(out, fmt.Sprintf("(opened by %d)", tab)) {
		t.Errorf("grip tabs text does not show the opener:\n%s", out)
	}
	help := snapshot(t, opened.Tab)
	if _, perr, code := act(t, append([]string{"click", mustRef(t, help, "button", "Search help")}, tabArg(opened.Tab)...)...); code != 0 {
		t.Fatalf("click in the opened tab: %+v", perr)
	}
	if got := browsertest.Eval[string](t, env, env.Origin1+"/help.html", "document.title"); got != "Help searched" {
		t.Errorf("help tab title = %q", got)
	}
	// Named once: the opener's next reply does not repeat it.
	if res, _, _ := act(t, "click", mustRef(t, snap, "button", "Edit")); len(res.Opened) != 0 {
		t.Errorf("the opened tab was named again: %+v", res.Opened)
	}
}

// A window.open popup behind a button opens (grip's click carries the
// user activation a person's does), is named in the reply and driven with
// --tab; when it closes itself (an OAuth window finishing), its own reply
// and its opener's next one say so.
func TestPopupFromWindowOpen(t *testing.T) {
	browsertest.Need(t, env)
	tab, snap := openEvents(t)
	res, perr, code := act(t, "click", mustRef(t, snap, "button", "Sign in with popup"))
	if code != 0 || len(res.Opened) != 1 {
		t.Fatalf("click: exit %d %+v; opened %+v, blocked %v", code, perr, res.Opened, res.Blocked)
	}
	popup := res.Opened[0]
	if popup.Title != "Sign in" || !strings.HasSuffix(popup.URL, "/popup.html") {
		t.Errorf("opened = %+v", popup)
	}
	if got := status(t, tab); got != "popup open" {
		t.Errorf("status = %q: window.open returned null", got)
	}
	ps := snapshot(t, popup.Tab)
	res, perr, code = act(t, append([]string{"click", mustRef(t, ps, "button", "Allow")}, tabArg(popup.Tab)...)...)
	if code != 0 || !slices.Equal(res.Closed, []int{popup.Tab}) {
		t.Fatalf("click Allow in the popup: exit %d %+v; closed %v", code, perr, res.Closed)
	}
	if got := status(t, tab); got != "signed in" {
		t.Errorf("status = %q: the opener did not get the popup's message", got)
	}
	s := snapshot(t, tab)
	if !slices.Equal(s.Closed, []int{popup.Tab}) || !strings.Contains(s.Text, fmt.Sprintf("closed: tab %d", popup.Tab)) {
		t.Errorf("the opener's next reply does not say the popup closed: %v\n%s", s.Closed, s.Text)
	}
	if res, _, _ := act(t, "click", mustRef(t, snap, "button", "Edit")); len(res.Closed) != 0 {
		t.Errorf("the closed popup was named again: %v", res.Closed)
	}
}

// A window the page asks for without a click or key press (here: when
// the mouse passes over) is blocked by the browser, and the reply says so.
func TestBlockedPopupReported(t *testing.T) {
	browsertest.Need(t, env)
	_, snap := openEvents(t)
	res, perr, code := act(t, "hover", mustRef(t, snap, "button", "Promo"))
	if code != 0 {
		t.Fatalf("hover: %+v", perr)
	}
	if len(res.Opened) != 0 || len(res.Blocked) != 1 || !strings.HasSuffix(res.Blocked[0], "/help.html?promo") {
		t.Fatalf("hover that asks for a window: opened %+v, blocked %v", res.Opened, res.Blocked)
	}
}

// A form post answered by a redirect: the reply comes with the new page,
// not the old URL and title.
func TestFormPostRedirectAnsweredWithNewPage(t *testing.T) {
	browsertest.Need(t, env)
	tab := env.OpenTab(t, env.Origin1+"/login.html")
	snap := snapshot(t, tab)
	if _, perr, code := act(t, "fill", mustRef(t, snap, "textbox", "User"), "ada"); code != 0 {
		t.Fatalf("fill: %+v", perr)
	}
	res, perr, code := act(t, "click", mustRef(t, snap, "button", "Log in"))
	if code != 0 {
		t.Fatalf("click Log in: %+v", perr)
	}
	if res.Changes.URL != env.Origin1+"/welcome.html" || res.Changes.Title != "Welcome" || res.Loading != "" {
		t.Fatalf("reply names %q %q (loading %q), want the page after the redirect", res.Changes.URL, res.Changes.Title, res.Loading)
	}
	if !slices.ContainsFunc(res.Changes.Appeared, func(e protocol.Element) bool { return e.Role == "link" && e.Name == "Log out" }) {
		t.Errorf("the reply does not show the new page's elements: %+v", res.Changes.Appeared)
	}
	if !slices.Contains(res.Changes.Gone, mustRef(t, snap, "button", "Log in")) {
		t.Errorf("the old page's refs are not gone: %v", res.Changes.Gone)
	}
}

// A navigation that takes longer than the reply waits: the reply says
// the page is still loading, and which.
func TestNavigationStillLoading(t *testing.T) {
	browsertest.Need(t, env)
	tab := env.OpenTab(t, env.Origin1+"/login.html?slow")
	snap := snapshot(t, tab)
	res, perr, code := act(t, "click", mustRef(t, snap, "link", "Slow page"))
	if code != 0 {
		t.Fatalf("click: %+v", perr)
	}
	if !strings.Contains(res.Loading, "/slow?ms=15000") {
		t.Fatalf("loading = %q, want the slow page's URL", res.Loading)
	}
	r := env.Grip(t.Context(), append([]string{"wait", "--url", "/welcome.html", "--timeout", "20s"}, tabArg(tab)...)...)
	if r.Code != 0 {
		t.Fatalf("wait for the slow page: %s%s", r.Stdout, r.Stderr)
	}
}

// BenchmarkClickToDialogReply: from a click on a button that asks
// confirm() to the reply that names the dialog (target: under a second;
// the injection deadline it used to wait for is 10 s), through the socket
// as `grip mcp` and Go runners call (ms-click-to-dialog), and through the
// whole CLI, process start included (ms-cli-click-to-dialog).
func BenchmarkClickToDialogReply(b *testing.B) {
	browsertest.Need(b, env)
	tab := env.OpenTab(b, env.Origin1+"/events.html?bench")
	var snap protocol.Snapshot
	if code := env.GripJSON(b, &snap, "snapshot", "--tab", fmt.Sprint(tab)); code != 0 {
		b.Fatalf("snapshot: exit %d", code)
	}
	del := mustRefB(b, snap, "button", "Delete draft")
	ctx := context.Background()
	c, err := client.Connect(ctx, client.Options{RuntimeDir: statedir.At(env.StateDir).Runtime, Wait: 10 * time.Second})
	if err != nil {
		b.Fatal(err)
	}
	defer c.Close()
	ops := client.Ops{Caller: c}
	var viaSocket, viaCLI []float64
	for i := 0; b.Loop(); i++ {
		start := time.Now()
		res, err := ops.Click(ctx, del)
		if err != nil || res.Dialog == nil {
			b.Fatalf("click: %v %+v", err, res)
		}
		viaSocket = append(viaSocket, float64(time.Since(start).Microseconds())/1000)
		if _, err := ops.AnswerDialog(ctx, tab, false, ""); err != nil {
			b.Fatal(err)
		}
		start = time.Now()
		r := env.Grip(ctx, "click", del)
		if r.Code != 0 || !strings.Contains(r.Stdout, "dialog open: confirm") {
			b.Fatalf("grip click: exit %d %s%s", r.Code, r.Stdout, r.Stderr)
		}
		viaCLI = append(viaCLI, float64(time.Since(start).Microseconds())/1000)
		if _, err := ops.AnswerDialog(ctx, tab, false, ""); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(medianOf(viaSocket), "ms-click-to-dialog")
	b.ReportMetric(medianOf(viaCLI), "ms-cli-click-to-dialog")
}

func mustRefB(b *testing.B, snap protocol.Snapshot, role, name string) string {
	b.Helper()
	r := refOf(snap, role, name)
	if r == "" {
		b.Fatalf("no [%s '%s'] in snapshot:\n%s", role, name, snap.Text)
	}
	return r
}
