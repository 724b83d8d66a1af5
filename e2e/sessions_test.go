package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/grip-dev/grip/extension"
	"github.com/grip-dev/grip/internal/browsertest"
	"github.com/grip-dev/grip/manifest"
	"github.com/grip-dev/grip/protocol"
)

// Sessions (docs/sessions.md, "Sessions"): agents as guests in the
// person's browser, each in a session that owns its tabs.

// gripAs runs grip --json as session and decodes stdout into v.
func gripAs(t *testing.T, session string, v any, args ...string) int {
	t.Helper()
	return env.GripJSON(t, v, append(args, "--session", session)...)
}

// refusalAs is refusal for a session.
func refusalAs(t *testing.T, session string, args ...string) *protocol.Error {
	t.Helper()
	return refusal(t, append(args, "--session", session)...)
}

// openSessionTab opens url with grip tabs new as session; the tab closes
// at the end of the test.
func openSessionTab(t *testing.T, session, url string) int {
	t.Helper()
	var res protocol.ActionResult
	if code := gripAs(t, session, &res, "tabs", "new", url); code != 0 || res.Tab.ID == 0 {
		t.Fatalf("grip --session %s tabs new %s: exit %d: %+v", session, url, code, res)
	}
	id := res.Tab.ID
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		env.Grip(ctx, "--session", session, "tabs", "close", fmt.Sprint(id))
	})
	return id
}

// tabsAs lists the tabs as session sees them, by id.
func tabsAs(t *testing.T, session string) map[int]protocol.Tab {
	t.Helper()
	var res protocol.TabsResult
	if code := gripAs(t, session, &res, "tabs"); code != 0 {
		t.Fatalf("grip --session %s tabs: exit %d", session, code)
	}
	out := map[int]protocol.Tab{}
	for _, tb := range res.Tabs {
		out[tb.ID] = tb
	}
	return out
}

// activeTab is the tab in front, as the browser says.
func activeTab(t *testing.T) int {
	t.Helper()
	return browsertest.EvalWorker[int](t, env, `chrome.tabs.query({active: true, lastFocusedWindow: true}).then((ts) => ts[0] ? ts[0].id : 0)`)
}

// tabGroups maps each grouped tab to its group's title.
func tabGroups(t *testing.T) map[string]string {
	t.Helper()
	return browsertest.EvalWorker[map[string]string](t, env, `(async () => {
  const out = {};
  for (const tab of await chrome.tabs.query({})) {
    if (tab.groupId >= 0) out[String(tab.id)] = (await chrome.tabGroups.get(tab.groupId)).title;
  }
  return out;
})()`)
}

func wantNotYourTab(t *testing.T, perr *protocol.Error, owner string) {
	t.Helper()
	if perr.Code != protocol.CodeNotYourTab || perr.Boundary != protocol.BoundarySession {
		t.Errorf("refusal %+v, want code not_your_tab, boundary session", perr)
	}
	if !strings.Contains(perr.Message, strconv.Quote(owner)) || perr.Hint == "" {
		t.Errorf("refusal %+v does not name the owner %q or has no hint", perr, owner)
	}
}

// Two CLI sessions each open a tab: it opens in the background, in a tab
// group named after the session, and is the session's default tab; the
// other session's tab is listed with its owner only and refused in every
// path (reads, actions, refs, waits, dialogs, screenshots, tab verbs).
func TestSessionsOwnTheirTabs(t *testing.T) {
	browsertest.Need(t, env)
	front := activeTab(t)
	urlA, urlB := env.Origin1+"/guest.html?alpha", env.Origin1+"/guest.html?beta"
	a := openSessionTab(t, "alpha", urlA)
	b := openSessionTab(t, "beta", urlB)
	if got := activeTab(t); got != front {
		t.Errorf("the tab in front is %d after two sessions opened tabs, was %d: they did not open in the background", got, front)
	}
	groups := tabGroups(t)
	if groups[fmt.Sprint(a)] != "alpha" || groups[fmt.Sprint(b)] != "beta" {
		t.Errorf("tab groups %v: want tab %d in group alpha, tab %d in group beta", groups, a, b)
	}

	seen := tabsAs(t, "alpha")
	if ta := seen[a]; ta.Owner != "alpha" || ta.Others || ta.URL != urlA {
		t.Errorf("alpha's own tab listed as %+v", ta)
	}
	if tb := seen[b]; tb.Owner != "beta" || !tb.Others || tb.URL != "" || tb.Title != "" {
		t.Errorf("beta's tab listed to alpha as %+v; want its owner only", tb)
	}

	// The default tab of each session is its own.
	var snap protocol.Snapshot
	if code := gripAs(t, "alpha", &snap, "snapshot"); code != 0 || snap.Tab.ID != a {
		t.Errorf("alpha's default snapshot is of tab %d (exit %d), want its own %d", snap.Tab.ID, code, a)
	}
	var snapB protocol.Snapshot
	if code := gripAs(t, "beta", &snapB, "snapshot"); code != 0 || snapB.Tab.ID != b {
		t.Fatalf("beta's default snapshot is of tab %d (exit %d), want its own %d", snapB.Tab.ID, code, b)
	}
	refB := mustRef(t, snapB, "button", "Add item")

	tabB := fmt.Sprint(b)
	for _, args := range [][]string{
		{"snapshot", "--tab", tabB},
		{"click", refB},
		{"click", "#add", "--tab", tabB},
		{"fill", "#field", "x", "--tab", tabB},
		{"navigate", env.Origin1 + "/home.html", "--tab", tabB},
		{"wait", "--text", "Guest", "--tab", tabB},
		{"wait", "--gone", refB},
		{"dialog", "--tab", tabB},
		{"screenshot", "--tab", tabB},
		{"handoff", "do this", "--tab", tabB},
		{"tabs", "close", tabB},
		{"tabs", "select", tabB},
	} {
		wantNotYourTab(t, refusalAs(t, "alpha", args...), "beta")
	}
	// The default session may not use a named session's tab either.
	wantNotYourTab(t, refusal(t, "snapshot", "--tab", fmt.Sprint(a)), "alpha")
	if log := browsertest.Eval[[]string](t, env, urlB, "window.__log"); len(log) != 0 {
		t.Errorf("beta's page saw %v from alpha's refused actions", log)
	}

	// Beta acts on its own tab; the record names the session.
	var res protocol.ActionResult
	if code := gripAs(t, "beta", &res, "click", refB); code != 0 {
		t.Fatalf("beta's click on its own tab: exit %d %+v", code, res)
	}
	var lg protocol.LogResult
	env.GripJSON(t, &lg, "log", "--all", "--tab", tabB, "--limit", "1")
	if len(lg.Entries) != 1 || lg.Entries[0].Session != "beta" || lg.Entries[0].Outcome != "ok" {
		t.Errorf("log of tab %d: %+v, want beta's click", b, lg.Entries)
	}
	// Without --all a session reads only its own part of the record.
	var own protocol.LogResult
	gripAs(t, "alpha", &own, "log", "--limit", "0")
	if len(own.Entries) == 0 {
		t.Errorf("alpha's grip log shows none of alpha's actions")
	}
	for _, e := range own.Entries {
		if e.Session != "alpha" {
			t.Errorf("alpha's grip log shows %s's entry %+v", e.Session, e)
		}
	}
	// Once beta's page moves on, its ref is stale: to beta, gone; to
	// alpha, still another session's element, not one to learn about.
	if code := gripAs(t, "beta", &res, "navigate", env.Origin1+"/guest.html?beta2"); code != 0 {
		t.Fatalf("beta's navigate: exit %d %+v", code, res)
	}
	wantNotYourTab(t, refusalAs(t, "alpha", "wait", "--gone", refB), "beta")
	if code := gripAs(t, "beta", &res, "wait", "--gone", refB); code != 0 || !strings.Contains(res.Detail, "gone") {
		t.Errorf("beta's wait --gone on its own stale ref: exit %d %+v", code, res)
	}
	if got := activeTab(t); got != front {
		t.Errorf("the tab in front is %d after the sessions worked, was %d", got, front)
	}
}

// Each session's `wait --download` looks at its own downloads: another
// session's wait, which passes over downloads it may not see, does not
// move this session's past its own.
func TestSessionsWaitForTheirOwnDownloads(t *testing.T) {
	browsertest.Need(t, env)
	origin := attachmentServer(t)
	// Gamma acts first, so its waits look at every download from then on.
	g := openSessionTab(t, "dl-gamma", origin+"/")
	var gsnap protocol.Snapshot
	if code := gripAs(t, "dl-gamma", &gsnap, "snapshot", "--tab", fmt.Sprint(g)); code != 0 {
		t.Fatalf("dl-gamma snapshot: exit %d", code)
	}
	a := openSessionTab(t, "dl-alpha", origin+"/")
	b := openSessionTab(t, "dl-beta", origin+"/")
	for _, c := range []struct {
		session string
		tab     int
	}{{"dl-beta", b}, {"dl-alpha", a}} {
		var snap protocol.Snapshot
		if code := gripAs(t, c.session, &snap, "snapshot", "--tab", fmt.Sprint(c.tab)); code != 0 {
			t.Fatalf("%s snapshot: exit %d", c.session, code)
		}
		var res protocol.ActionResult
		if code := gripAs(t, c.session, &res, "click", mustRef(t, snap, "link", "Invoice 7")); code != 0 {
			t.Fatalf("%s click: exit %d %+v", c.session, code, res)
		}
	}
	for _, c := range []struct {
		session string
		tab     int
	}{{"dl-alpha", a}, {"dl-beta", b}} {
		var got protocol.ActionResult
		if code := gripAs(t, c.session, &got, "wait", "--download", "--timeout", "10s"); code != 0 || got.Download == nil {
			t.Fatalf("%s wait --download: exit %d %+v; want the download its own click started", c.session, code, got)
		}
		if got.Download.Tab != c.tab {
			t.Errorf("%s's wait returned the download of tab %d, want its own tab %d", c.session, got.Download.Tab, c.tab)
		}
	}
	// A download alpha starts in a tab of the person's (every session's
	// to use under tabs = all) is alpha's: its reply named it.
	person := env.OpenTab(t, origin+"/")
	var psnap protocol.Snapshot
	if code := gripAs(t, "dl-alpha", &psnap, "snapshot", "--tab", fmt.Sprint(person)); code != 0 {
		t.Fatalf("dl-alpha snapshot of the person's tab: exit %d", code)
	}
	var pres protocol.ActionResult
	if code := gripAs(t, "dl-alpha", &pres, "click", mustRef(t, psnap, "link", "Invoice 7")); code != 0 || pres.Download == nil {
		t.Fatalf("dl-alpha's click in the person's tab: exit %d %+v", code, pres)
	}
	// Their tabs closed, their downloads stay theirs: gamma learns of none.
	for _, c := range []struct {
		session string
		tab     int
	}{{"dl-alpha", a}, {"dl-beta", b}} {
		var res protocol.ActionResult
		if code := gripAs(t, c.session, &res, "tabs", "close", fmt.Sprint(c.tab)); code != 0 {
			t.Fatalf("%s tabs close: exit %d %+v", c.session, code, res)
		}
	}
	var out struct {
		protocol.ActionResult
		Error *protocol.Error `json:"error"`
	}
	if gripAs(t, "dl-gamma", &out, "wait", "--download", "--timeout", "1500ms"); out.Error == nil || out.Error.Code != protocol.CodeTimeout {
		t.Errorf("gamma's wait --download, the others' downloads all theirs: %+v %+v, want a timeout", out.Download, out.Error)
	}
}

// A tab the person drags out of its session's group is theirs: the
// session loses it, and under tabs = all any agent may use it.
func TestTabDraggedOutOfGroupIsThePersons(t *testing.T) {
	browsertest.Need(t, env)
	url := env.Origin1 + "/guest.html?dragged"
	tab := openSessionTab(t, "eps", url)
	wantNotYourTab(t, refusalAs(t, "zeta", "snapshot", "--tab", fmt.Sprint(tab)), "eps")
	browsertest.EvalWorker[bool](t, env, fmt.Sprintf(`chrome.tabs.ungroup(%d).then(() => true)`, tab))
	deadline := time.Now().Add(10 * time.Second)
	for tabsAs(t, "zeta")[tab].Owner != "" {
		if time.Now().After(deadline) {
			t.Fatalf("tab %d is still owned after it left its group: %+v", tab, tabsAs(t, "zeta")[tab])
		}
		time.Sleep(100 * time.Millisecond)
	}
	var snap protocol.Snapshot
	if code := gripAs(t, "zeta", &snap, "snapshot", "--tab", fmt.Sprint(tab)); code != 0 || !strings.Contains(snap.Text, "Add item") {
		t.Errorf("the person's tab, snapshot by another session: exit %d\n%s", code, snap.Text)
	}
}

// The person ends a session from the popup: the popup lists the live
// sessions with their tabs; the ended session's next request is refused
// with session_ended, the other session keeps working, and the ended
// session's group says so.
func TestPopupEndsASession(t *testing.T) {
	browsertest.Need(t, env)
	g := openSessionTab(t, "gamma", env.Origin1+"/guest.html?gamma")
	d := openSessionTab(t, "delta", env.Origin1+"/guest.html?delta")
	url := openPopup(t, g)
	read := `[...document.querySelectorAll('#sessions li.session')].map((li) => li.textContent)`
	deadline := time.Now().Add(20 * time.Second)
	for {
		items := strings.Join(browsertest.Eval[[]string](t, env, url, read), "\n")
		if strings.Contains(items, "gamma") && strings.Contains(items, "delta") && strings.Contains(items, fmt.Sprintf("(tab %d)", g)) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the popup's sessions never listed gamma and delta with their tabs:\n%s", items)
		}
		time.Sleep(150 * time.Millisecond)
	}
	owner := browsertest.Eval[string](t, env, url, `document.getElementById('owner-text').textContent`)
	if !strings.Contains(owner, "gamma") {
		t.Errorf("the popup about tab %d says %q, want it to name its owner gamma", g, owner)
	}
	if !browsertest.Eval[bool](t, env, url, `(() => {
  const li = document.querySelector('#sessions li.session[data-session="gamma"]');
  if (!li) return false;
  li.querySelector('button.end').click();
  return true;
})()`) {
		t.Fatal("no End access button for gamma")
	}
	deadline = time.Now().Add(10 * time.Second)
	var perr *protocol.Error
	for {
		var out struct {
			Error *protocol.Error `json:"error"`
		}
		gripAs(t, "gamma", &out, "snapshot")
		if out.Error != nil && out.Error.Code == protocol.CodeSessionEnded {
			perr = out.Error
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("gamma still works after the person ended it: %+v", out.Error)
		}
		time.Sleep(100 * time.Millisecond)
	}
	if perr.Boundary != protocol.BoundaryUser || perr.Hint == "" || !strings.Contains(perr.Message, "gamma") {
		t.Errorf("session_ended refusal %+v", perr)
	}
	var snap protocol.Snapshot
	if code := gripAs(t, "delta", &snap, "snapshot"); code != 0 || snap.Tab.ID != d {
		t.Errorf("delta after gamma ended: exit %d, tab %d", code, snap.Tab.ID)
	}
	// Gamma's tab stays gamma's: no other agent gets its work.
	wantNotYourTab(t, refusalAs(t, "delta", "snapshot", "--tab", fmt.Sprint(g)), "gamma")
	deadline = time.Now().Add(10 * time.Second)
	for tabGroups(t)[fmt.Sprint(g)] != "gamma (ended)" {
		if time.Now().After(deadline) {
			t.Fatalf("gamma's group is titled %q", tabGroups(t)[fmt.Sprint(g)])
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// grip handoff: the popup shows WHY with Done and Refuse; Done returns
// what changed on the tab while the person worked, Refuse and a timeout
// are not_confirmed.
func TestHandoffToThePerson(t *testing.T) {
	browsertest.Need(t, env)
	page := env.Origin1 + "/guest.html?handoff"
	tab := openSessionTab(t, "eta", page)
	var snap protocol.Snapshot
	if code := gripAs(t, "eta", &snap, "snapshot"); code != 0 {
		t.Fatalf("snapshot: exit %d", code)
	}
	url := openPopup(t, tab)

	type outcome struct {
		res  protocol.ActionResult
		err  *protocol.Error
		code int
	}
	handoff := func(why string, extra ...string) chan outcome {
		ch := make(chan outcome, 1)
		go func() {
			ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
			defer cancel()
			r := env.Grip(ctx, append([]string{"--session", "eta", "handoff", why, "--json"}, extra...)...)
			var out struct {
				protocol.ActionResult
				Error *protocol.Error `json:"error"`
			}
			_ = json.Unmarshal([]byte(r.Stdout), &out)
			ch <- outcome{out.ActionResult, out.Error, r.Code}
		}()
		return ch
	}

	why := "Solve the CAPTCHA on the guest page"
	done := handoff(why)
	q := waitQuestion(t, url, why)
	if !strings.Contains(q, "eta") || !strings.Contains(q, "Done") {
		t.Errorf("the popup's handoff reads %q", q)
	}
	buttons := browsertest.Eval[[]string](t, env, url, `[...document.querySelectorAll('#questions .question button')].map((b) => b.textContent)`)
	if strings.Join(buttons, ",") != "Done,Refuse" {
		t.Errorf("the handoff's buttons are %v, want Done and Refuse", buttons)
	}
	// The person's step: the page shows something new.
	browsertest.Eval[bool](t, env, page, `(() => { const b = document.createElement('button'); b.textContent = 'Continue'; document.body.append(b); return true; })()`)
	clickAnswer(t, url, q, true)
	got := <-done
	if got.code != 0 || !got.res.OK || got.res.Tab.ID != tab {
		t.Fatalf("handoff Done: exit %d %+v %+v", got.code, got.res, got.err)
	}
	if a := got.res.Changes.Appeared; len(a) != 1 || a[0].Role != "button" || a[0].Name != "Continue" {
		t.Errorf("handoff's reply does not say what changed: %+v", got.res.Changes)
	}

	refused := handoff("Enter the code the bank texted you")
	q = waitQuestion(t, url, "Enter the code")
	clickAnswer(t, url, q, false)
	if got := <-refused; got.code != 1 || got.err == nil || got.err.Code != protocol.CodeNotConfirmed {
		t.Errorf("handoff Refuse: exit %d %+v", got.code, got.err)
	}
	if got := <-handoff("Log in", "--timeout", "1s"); got.code != 1 || got.err == nil || got.err.Code != protocol.CodeNotConfirmed ||
		!strings.Contains(got.err.Message, "did not take the step") {
		t.Errorf("handoff timeout: exit %d %+v", got.code, got.err)
	}
	var lg protocol.LogResult
	env.GripJSON(t, &lg, "log", "--all", "--tab", fmt.Sprint(tab), "--limit", "3")
	var outcomes []string
	for _, e := range lg.Entries {
		if e.Action == protocol.OpHandoff && e.Session == "eta" {
			outcomes = append(outcomes, e.Outcome)
		}
	}
	if strings.Join(outcomes, ",") != "ok,not_confirmed,not_confirmed" {
		t.Errorf("the log's handoffs: %v (%+v)", outcomes, lg.Entries)
	}
}

// One session's long wait does not hold up another session's calls.
func TestLongWaitDoesNotDelayOtherSessions(t *testing.T) {
	browsertest.Need(t, env)
	a := openSessionTab(t, "theta", env.Origin1+"/guest.html?theta")
	b := openSessionTab(t, "iota", env.Origin1+"/guest.html?iota")
	host := currentHost(t)
	sockets := settledSockets(host.PID)
	waited := make(chan browsertest.Result, 1)
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		defer cancel()
		waited <- env.Grip(ctx, "--session", "theta", "wait", "--text", "never shows", "--tab", fmt.Sprint(a), "--timeout", "20s")
	}()
	// The wait is in flight once the host holds its connection (not after
	// a time "long enough" for a CLI to start): it follows the hello.
	waitAccepted(t, host.PID, sockets)
	for i := 0; i < 5; i++ {
		var res protocol.ActionResult
		if code := gripAs(t, "iota", &res, "click", "#add", "--tab", fmt.Sprint(b)); code != 0 {
			t.Fatalf("iota's click %d: exit %d", i, code)
		}
		select {
		case r := <-waited:
			t.Fatalf("theta's 20 s wait ended before iota's calls were done: %+v", r)
		default:
		}
	}
	if r := <-waited; r.Code != 1 || !strings.Contains(r.Stdout+r.Stderr, "timeout") {
		t.Errorf("theta's wait: exit %d %s %s", r.Code, r.Stdout, r.Stderr)
	}
}

// Two grip mcp processes are two sessions: each opens its own tab, in
// its own group, and neither may use the other's.
func TestTwoMCPProcessesAreTwoSessions(t *testing.T) {
	browsertest.Need(t, env)
	m1, m2 := startMCP(t), startMCP(t)
	opened := regexp.MustCompile(`Opened tab (\d+)`)
	open := func(m *mcpClient, url string) int {
		t.Helper()
		out := m.must("browser_tabs", map[string]any{"action": "new", "url": url})
		mm := opened.FindStringSubmatch(out)
		if mm == nil {
			t.Fatalf("browser_tabs new: %s", out)
		}
		id, _ := strconv.Atoi(mm[1])
		t.Cleanup(func() { m.call("browser_tabs", map[string]any{"action": "close", "tab": id}) })
		return id
	}
	t1 := open(m1, env.Origin1+"/guest.html?m1")
	t2 := open(m2, env.Origin1+"/guest.html?m2")
	// Each one's default snapshot is of its own tab: the one it was last
	// told of, which its tab line names (by id and title: the URL it was
	// told is left out, frames.KnownTabLine), and no other tab's.
	ownTab := func(m *mcpClient, mine, other int) {
		t.Helper()
		s := m.must("browser_snapshot", nil)
		if !strings.HasPrefix(s, fmt.Sprintf("Tab %d ", mine)) || strings.Contains(s, fmt.Sprintf("Tab %d ", other)) || !strings.Contains(s, "Add item") {
			t.Errorf("tab %d's default snapshot is not of its own tab:\n%s", mine, s)
		}
	}
	ownTab(m1, t1, t2)
	ownTab(m2, t2, t1)
	if text, isErr := m1.call("browser_snapshot", map[string]any{"tab": t2}); !isErr || !strings.HasPrefix(text, "not_your_tab (session)") {
		t.Errorf("m1 reading m2's tab: %v %s", isErr, text)
	}
	if text, isErr := m2.call("browser_click", map[string]any{"ref": "#add", "tab": t1}); !isErr || !strings.HasPrefix(text, "not_your_tab (session)") {
		t.Errorf("m2 clicking in m1's tab: %v %s", isErr, text)
	}
	list := m1.must("browser_tabs", map[string]any{"action": "list"})
	if !strings.Contains(list, fmt.Sprintf("tab %d · session grip-e2e-", t2)) || !strings.Contains(list, "not yours to use") {
		t.Errorf("m1's tab list does not show m2's tab as another agent's:\n%s", list)
	}
	groups := tabGroups(t)
	g1, g2 := groups[fmt.Sprint(t1)], groups[fmt.Sprint(t2)]
	if !strings.HasPrefix(g1, "grip-e2e-") || !strings.HasPrefix(g2, "grip-e2e-") || g1 == g2 {
		t.Errorf("the MCP sessions' groups are %q and %q: want two, named after the client", g1, g2)
	}
}

// Background work: a session's tab in the background is read, acted on and
// screenshot without coming to the front and without moving or resizing
// the person's window; the page is told it has the focus and keeps
// drawing frames as in front. With GRIP_SHOT_DIR set and a display
// (GRIP_E2E_HEADED=1 under xvfb-run) it writes the whole screen there
// while the sessions work.
//
// The test used to say the person's page kept its innerHeight, and failed
// whenever it ran alone: Chromium shows its "started debugging this
// browser" bar in every tab while grip is attached to any, headless too
// (56 px here, sliding in over several frames), and background work
// attaches (docs/debugger.md, "The debugger"), so the page shrank by
// the bar; in the whole suite an earlier test had put the bar up before
// the test measured. Its premise (no bar) was false, not slow. It now
// checks what does not depend on the bar: the window's outer size, and
// that the person's tab stays in front (visible) and keeps the focus it had.
func TestBackgroundTabWork(t *testing.T) {
	browsertest.Need(t, env)
	personPage := env.Origin1 + "/guest.html?person-reads-mail"
	openCDPTab(t, personPage)
	// Whether the person's tab has the focus at the start depends on what
	// earlier tests left open in the headless browser (it failed in the
	// whole suite, never alone): what must hold is that the session's work
	// does not change it, so it is read before and compared after.
	focusedBefore := browsertest.Eval[bool](t, env, personPage, "document.hasFocus()")
	height := func() string {
		return browsertest.Eval[string](t, env, personPage, "outerWidth + 'x' + outerHeight + ' at ' + screenX + ',' + screenY")
	}
	h0 := height()
	// What the test measures holds while grip is attached to the session's
	// tab (focus emulation and the screencast end when it detaches,
	// IDLE_DETACH_MS after its last request, extension/worker/debugger.js),
	// and the measure below comes after several other calls: on a busy
	// machine they took longer than those 3 s, and the tab was measured
	// detached (throttled, and not told it has the focus). The test's hook
	// keeps it attached until the tab closes; the focus the page is told
	// of at the end (grip's emulation, below) says it still was.
	browsertest.EvalWorker[bool](t, env, `(globalThis.__gripIdleDetachMs = 3600000, true)`)
	t.Cleanup(func() { browsertest.EvalWorker[bool](t, env, `(delete globalThis.__gripIdleDetachMs, true)`) })
	page := env.Origin1 + "/guest.html?background"
	tab := openSessionTab(t, "kappa", page)
	front := activeTab(t)
	if front == tab {
		t.Fatalf("the session's tab %d is in front", tab)
	}
	out := filepath.Join(t.TempDir(), "background.png")
	var shot struct {
		Path  string          `json:"path"`
		Error *protocol.Error `json:"error"`
	}
	if code := gripAs(t, "kappa", &shot, "screenshot", "-o", out); code != 0 {
		t.Fatalf("screenshot of the background tab: exit %d %+v", code, shot.Error)
	}
	img, err := png.Decode(bytes.NewReader(readFile(t, out)))
	if err != nil || img.Bounds().Dx() < 100 {
		t.Fatalf("screenshot is not a page-sized PNG: %v %v", err, img)
	}
	if got := activeTab(t); got != front {
		t.Errorf("the screenshot brought tab %d to the front (was %d)", got, front)
	}
	var res protocol.ActionResult
	if code := gripAs(t, "kappa", &res, "click", "#add"); code != 0 {
		t.Fatalf("click: exit %d", code)
	}
	if code := gripAs(t, "kappa", &res, "fill", "#field", "typed in the background"); code != 0 {
		t.Fatalf("fill: exit %d", code)
	}
	t0 := time.Now()
	var wait protocol.ActionResult
	if code := gripAs(t, "kappa", &wait, "wait", "--text", "Item 1", "--timeout", "10s"); code != 0 {
		t.Errorf("the item an editor-like page draws on its next frame never showed in the background tab: exit %d", code)
	}
	drawn := time.Since(t0)
	if got := activeTab(t); got != front {
		t.Errorf("acting brought tab %d to the front (was %d)", got, front)
	}
	if h := height(); h != h0 {
		t.Errorf("the person's window went from %s to %s while a session worked", h0, h)
	}
	type figures struct {
		Rafs, Timers, Interval int
		Visibility             string
		Hidden, Focus          bool
		FocusEvents            int
		Items                  int
	}
	// A hidden tab gets about one frame a second; one drawn as in front
	// gets the display's rate (tens a second). The measure is how long the
	// tab takes to draw 20 frames, not how many it drew in a fixed 2 s:
	// 20 frames within 10 s is drawn as in front even on a busy machine,
	// and a throttled tab needs about 20 s.
	const frames, within = 20, 10 * time.Second
	f0 := browsertest.Eval[figures](t, env, page, "figures()")
	t0 = time.Now()
	f1 := f0
	for f1.Rafs-f0.Rafs < frames && time.Since(t0) < within {
		time.Sleep(100 * time.Millisecond)
		f1 = browsertest.Eval[figures](t, env, page, "figures()")
	}
	took := time.Since(t0)
	p1 := browsertest.Eval[figures](t, env, personPage, "figures()")
	t.Logf("session's background tab over %s: %d rAF callbacks, %d 0-ms timers, %d 10-ms interval ticks; visibility %s, hasFocus %v, focus events %d; the rAF-drawn item waited for %s",
		took.Round(time.Millisecond), f1.Rafs-f0.Rafs, f1.Timers-f0.Timers, f1.Interval-f0.Interval, f1.Visibility, f1.Focus, f1.FocusEvents, drawn.Round(time.Millisecond))
	t.Logf("the person's tab: visibility %s, hasFocus %v", p1.Visibility, p1.Focus)
	if p1.Visibility != "visible" || p1.Focus != focusedBefore {
		t.Errorf("the person's tab lost the front while a session worked: visibility %s, hasFocus %v", p1.Visibility, p1.Focus)
	}
	if !f1.Focus || f1.FocusEvents == 0 {
		t.Errorf("the session's background tab is not told it has the focus: %+v", f1)
	}
	if f1.Rafs-f0.Rafs < frames {
		t.Errorf("the session's background tab drew %d frames in %s: throttled as a hidden tab", f1.Rafs-f0.Rafs, took.Round(time.Millisecond))
	}
	if dir := os.Getenv("GRIP_SHOT_DIR"); dir != "" && os.Getenv("DISPLAY") != "" {
		screen := filepath.Join(dir, "screen-sessions.png")
		cmd := exec.Command("sh", "-c", "xwd -root -silent | convert xwd:- png:"+screen)
		if b, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("screen capture: %v %s", err, b)
		}
	}
}

// A session the person ended stays ended when the browser restarts, and
// comes back only when the person lets it back in from the popup.
func TestEndedSessionOutlivesARestart(t *testing.T) {
	e := ownEnv(t)
	var res protocol.ActionResult
	if code := gripOn(t, e, &res, "--session", "omega", "tabs", "new", e.Origin1+"/guest.html?omega"); code != 0 {
		t.Fatalf("omega's tabs new: exit %d %+v", code, res)
	}
	// What the popup's buttons do: the popup page asks the worker.
	popup := func(what string) {
		t.Helper()
		id, err := manifest.ExtensionID(extension.ManifestJSON)
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := chromedp.NewContext(e.BrowserContext())
		defer cancel()
		tctx, tcancel := context.WithTimeout(ctx, 30*time.Second)
		defer tcancel()
		url := fmt.Sprintf("chrome-extension://%s/popup/popup.html?tab=%d", id, res.Tab.ID)
		button := map[string]string{"end": "End access", "allow": "Let back in"}[what]
		if _, err := chromedp.Run(tctx, chromedp.Navigate(url)); err != nil {
			t.Fatalf("open the popup: %v", err)
		}
		clicked, err := chromedp.Run(tctx, chromedp.Poll[bool](fmt.Sprintf(`(() => {
  const li = document.querySelector('#sessions li.session[data-session="omega"]');
  const b = li && li.querySelector('button.%s');
  if (!b || b.textContent !== %q) return false;
  b.click();
  return true;
})()`, what, button), chromedp.WithPollingTimeout(20*time.Second)))
		if err != nil || !clicked {
			t.Fatalf("the popup has no %q button for omega: %v", button, err)
		}
	}
	ended := func() bool {
		t.Helper()
		var out struct {
			Error *protocol.Error `json:"error"`
		}
		gripOn(t, e, &out, "--session", "omega", "tabs")
		return out.Error != nil && out.Error.Code == protocol.CodeSessionEnded
	}
	popup("end")
	deadline := time.Now().Add(10 * time.Second)
	for !ended() {
		if time.Now().After(deadline) {
			t.Fatal("omega still works after the person ended it")
		}
		time.Sleep(100 * time.Millisecond)
	}

	before := statusOf(t, e)
	e.Stop()
	waitGone(t, before.Host.PID, 20*time.Second)
	if err := e.Launch(false, nil); err != nil {
		t.Fatal(err)
	}
	if !ended() {
		t.Fatal("omega works again after the browser restarted: the person's ending did not last")
	}
	popup("allow")
	deadline = time.Now().Add(10 * time.Second)
	for ended() {
		if time.Now().After(deadline) {
			t.Fatal("omega is still refused after the person let it back in")
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// A restarted MCP server is a new session: the tab its last run opened is
// refused, and while no agent of that session is connected the refusal
// names how to work in it again; a server started with that --session
// uses the tab.
func TestRestartedMCPIsToldHowToGetItsTabBack(t *testing.T) {
	browsertest.Need(t, env)
	m1 := startMCP(t)
	out := m1.must("browser_tabs", map[string]any{"action": "new", "url": env.Origin1 + "/guest.html?restart"})
	mm := regexp.MustCompile(`Opened tab (\d+)`).FindStringSubmatch(out)
	if mm == nil {
		t.Fatalf("browser_tabs new: %s", out)
	}
	tab, _ := strconv.Atoi(mm[1])
	m1.stop()
	m2 := startMCP(t)
	// The host learns of m1's end when its socket closes: until then the
	// refusal is the live session's.
	way := regexp.MustCompile(`grip mcp --session (grip-e2e-\d+)`)
	var text string
	deadline := time.Now().Add(30 * time.Second)
	for {
		var isErr bool
		text, isErr = m2.call("browser_snapshot", map[string]any{"tab": tab})
		if !isErr || !strings.HasPrefix(text, "not_your_tab (session)") {
			t.Fatalf("the new session reading the old one's tab: %v %s", isErr, text)
		}
		if way.MatchString(text) || time.Now().After(deadline) {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	sm := way.FindStringSubmatch(text)
	if sm == nil {
		t.Fatalf("the refusal of a tab whose session has no agent connected does not say how to work in it:\n%s", text)
	}
	if list := m2.must("browser_tabs", map[string]any{"action": "list"}); !strings.Contains(list, fmt.Sprintf("tab %d · session %s's tab, no agent connected", tab, sm[1])) ||
		!strings.Contains(list, "grip mcp --session "+sm[1]) {
		t.Errorf("the new session's tab list does not say the old session's tab has no agent, nor how to work in it:\n%s", list)
	}
	m3 := startMCP(t, "--session", sm[1])
	if s := m3.must("browser_snapshot", map[string]any{"tab": tab}); !strings.Contains(s, "Add item") {
		t.Errorf("grip mcp --session %s does not read its tab %d:\n%s", sm[1], tab, s)
	}
	m3.must("browser_tabs", map[string]any{"action": "close", "tab": tab})
}
