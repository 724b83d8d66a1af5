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

// TestReplyIsNotHeldByThePagesLongPoll: on a page that keeps a long poll
// open and sends the next as soon as one is answered (Syncthing's GUI on
// /rest/events), a Save whose answer also releases the poll replies
// settled, with what it saved: the poll the page sends again is its own,
// not the action's, though the server holds it for 30 s (docs/settling.md,
// "The page's own requests"). Three times, as grip's debugger may know of
// the poll open when the Save begins: seen sent in an earlier attachment,
// sent while grip was not attached (which the page's resource timeline
// tells), and seen sent in this attachment; with a fetch whose server
// answers all at once, and with an XHR whose server sends the headers at
// once (Syncthing's), so that a later attachment is told only of its end.
func TestReplyIsNotHeldByThePagesLongPoll(t *testing.T) {
	browsertest.Need(t, env)
	for _, c := range []struct{ name, query string }{
		{"fetch", ""},
		{"XHR, headers at once", "&xhr=1&flush=1"},
	} {
		t.Run(c.name, func(t *testing.T) { saveBesideALongPoll(t, c.query) })
	}
}

// saveBesideALongPoll is TestReplyIsNotHeldByThePagesLongPoll on the page
// asked with query.
func saveBesideALongPoll(t *testing.T, query string) {
	key := fmt.Sprintf("longpoll-%d", time.Now().UnixNano())
	tab := env.OpenTab(t, env.Origin1+"/longpoll.html?key="+key+query)
	// Read in content mode, the replies too: they list the paragraphs.
	snap := snapshot(t, tab, "--mode", "content")
	name, save := mustRef(t, snap, "textbox", "Device name"), mustRef(t, snap, "button", "Save")
	events := 0
	// polled waits until the page shows the events so far and its next
	// poll is held by the server.
	polled := func() {
		t.Helper()
		text := fmt.Sprintf("Events: %d", events)
		if r := env.Grip(context.Background(), "wait", "--tab", fmt.Sprint(tab), "--text", text); r.Code != 0 {
			t.Fatalf("the page never showed %q: exit %d %s", text, r.Code, r.Stderr)
		}
		within(t, 20*time.Second, "the page's next poll held by the server", func() bool { return browsertest.Polls(key) == 1 })
	}
	saves := func(what, saved string) {
		t.Helper()
		if _, perr, code := act(t, "fill", name, saved); code != 0 {
			t.Fatalf("%s: fill: exit %d %+v", what, code, perr)
		}
		res, perr, code := act(t, "click", save)
		if code != 0 {
			t.Fatalf("%s: save: exit %d %+v", what, code, perr)
		}
		if res.Settled == nil || !*res.Settled || res.Busy != "" {
			t.Errorf("%s: the reply waited for the page's own poll: settled %v, busy %q", what, res.Settled != nil && *res.Settled, res.Busy)
		}
		if !appearedText(res.Changes.Appeared, "Saved: "+saved) {
			t.Errorf("%s: the reply does not show what was saved: appeared %+v", what, res.Changes.Appeared)
		}
		// The save released the poll, and the page sent the next, which
		// the server holds: the premise of the reply above.
		events++
		polled()
	}
	polled()
	// grip's debugger saw the first poll sent (grip opened the tab) and has
	// left since: the Save attaches anew.
	within(t, 20*time.Second, "grip's debugger gone from the tab", func() bool { return !debuggerOn(t, tab) })
	saves("a poll seen sent before grip left", "second")
	// An event while grip is away: the page's next poll is sent unseen.
	within(t, 20*time.Second, "grip's debugger gone from the tab", func() bool { return !debuggerOn(t, tab) })
	browsertest.Notify(key)
	events++
	polled()
	if debuggerOn(t, tab) {
		t.Fatal("grip's debugger came back while the page sent its poll")
	}
	// From here the debugger stays on the tab, so the poll the next save
	// makes the page send is one it saw sent.
	browsertest.EvalWorker[bool](t, env, `(globalThis.__gripIdleDetachMs = 3600000, true)`)
	t.Cleanup(func() { browsertest.EvalWorker[bool](t, env, `(delete globalThis.__gripIdleDetachMs, true)`) })
	saves("a poll sent while grip was not attached", "third")
	saves("a poll seen sent in this attachment", "fourth")
}

// TestReplyWaitsForARequestTheClickStarted: on the same page, with its
// long poll open, a click's own request still holds the reply and is
// named in flight when the bound comes first: one to a path the page never
// asked, and one to the poll's path by another method (POST).
func TestReplyWaitsForARequestTheClickStarted(t *testing.T) {
	browsertest.Need(t, env)
	key := fmt.Sprintf("longpoll-%d", time.Now().UnixNano())
	t.Cleanup(func() { browsertest.Release(key + "-check") })
	// The debugger stays on the tab from its opening: it saw the poll sent.
	browsertest.EvalWorker[bool](t, env, `(globalThis.__gripIdleDetachMs = 3600000, true)`)
	t.Cleanup(func() { browsertest.EvalWorker[bool](t, env, `(delete globalThis.__gripIdleDetachMs, true)`) })
	tab := env.OpenTab(t, env.Origin1+"/longpoll.html?key="+key)
	snap := snapshot(t, tab)
	within(t, 20*time.Second, "the page's long poll held by the server", func() bool { return browsertest.Polls(key) == 1 })
	res, perr, code := act(t, "click", mustRef(t, snap, "button", "Check for updates"))
	if code != 0 {
		t.Fatalf("click: exit %d %+v", code, perr)
	}
	if browsertest.Held(key+"-check") == 0 {
		t.Fatalf("the page never asked for the update: %+v", res)
	}
	if res.Settled == nil || *res.Settled || !strings.Contains(res.Busy, "in flight") {
		t.Errorf("a request to a new path: the reply said the page settled while it was in flight: settled %v, busy %q", res.Settled != nil && *res.Settled, res.Busy)
	}
	browsertest.Release(key + "-check")
	if r := env.Grip(context.Background(), "wait", "--tab", fmt.Sprint(tab), "--text", "Checked: released"); r.Code != 0 {
		t.Fatalf("the update never came once released: exit %d %s", r.Code, r.Stderr)
	}
	res, perr, code = act(t, "click", mustRef(t, snap, "button", "Send to the poll"))
	if code != 0 {
		t.Fatalf("click: exit %d %+v", code, perr)
	}
	if browsertest.Polls(key+"-send") == 0 {
		t.Fatalf("the page never sent to the poll's path: %+v", res)
	}
	if res.Settled == nil || *res.Settled || !strings.Contains(res.Busy, "in flight") {
		t.Errorf("a POST to the poll's path: the reply said the page settled while it was in flight: settled %v, busy %q", res.Settled != nil && *res.Settled, res.Busy)
	}
}

// appearedText reports whether els has a paragraph or text with name.
func appearedText(els []protocol.Element, name string) bool {
	return refOfList(els, "paragraph", name) != "" || refOfList(els, "text", name) != ""
}

// debuggerOn reports whether a debugger is attached to tab.
func debuggerOn(t *testing.T, tab int) bool {
	t.Helper()
	return browsertest.EvalWorker[bool](t, env, fmt.Sprintf(`chrome.debugger.getTargets().then((ts) => ts.some((x) => x.tabId === %d && x.attached))`, tab))
}

// within waits until ok holds, for at most d, and fails the test with what
// otherwise.
func within(t *testing.T, d time.Duration, what string, ok func() bool) {
	t.Helper()
	for deadline := time.Now().Add(d); !ok(); time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("not within %v: %s", d, what)
		}
	}
}
