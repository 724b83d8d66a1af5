package e2e

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"
	"github.com/grip-dev/grip/internal/browsertest"
	"github.com/grip-dev/grip/protocol"
)

// Trusted input (--trusted) and the debugger it goes through
// (docs/debugger.md, "The debugger"): the input is checked, just
// before it is sent, to reach the element the agent named; the worker
// sends the debugger only what grip itself builds.

// The worker's cdp request carries real input only: any other method is
// refused before anything is sent, whoever asks.
func TestCDPPassthroughOnlyRealInput(t *testing.T) {
	browsertest.Need(t, env)
	tab := env.OpenTab(t, env.Origin1+"/home.html?cdp")
	for _, method := range []string{"Runtime.evaluate", "Page.navigate", "Network.getAllCookies", "Storage.getCookies", "Browser.close", "Target.createTarget"} {
		t.Run(method, func(t *testing.T) {
			params := map[string]any{"expression": "document.title = 'pwned'", "url": env.Origin1 + "/dialog.html"}
			got := browsertest.EvalWorker[string](t, env, fmt.Sprintf(`__gripRouter('cdp', {tabId: %d, commands: [
				{method: 'Input.dispatchMouseEvent', params: {type: 'mouseMoved', x: 1, y: 1}},
				{method: %q, params: %s}]}).then(() => 'sent', (e) => e.code + ': ' + e.message)`, tab, method, mustJSONString(t, params)))
			if !strings.HasPrefix(got, "bad_request: ") || !strings.Contains(got, method) {
				t.Fatalf("cdp with %s: %s, want a bad_request refusal", method, got)
			}
		})
	}
	if title := browsertest.Eval[string](t, env, env.Origin1+"/home.html?cdp", "document.title"); title != "Fixture Home" {
		t.Fatalf("title = %q: a refused command ran", title)
	}
	if got := browsertest.EvalWorker[string](t, env, fmt.Sprintf(`__gripRouter('cdp', {tabId: %d, commands: [
		{method: 'Input.dispatchMouseEvent', params: {type: 'mouseMoved', x: 2, y: 2}}]}).then(() => 'sent', (e) => e.code + ': ' + e.message)`, tab)); got != "sent" {
		t.Fatalf("real input refused: %s", got)
	}
}

// A trusted click into a frame with a CSS transform lands on its target:
// the point comes from the browser's own geometry. Computed from the
// frame's untransformed box it would land on the decoy.
func TestTrustedClickInTransformedFrame(t *testing.T) {
	browsertest.Need(t, env)
	for _, tc := range []struct{ name, origin, transform string }{
		{"cross-origin scaled", env.Origin2, "scale(0.5)"},
		{"same-origin scaled", "", "scale(0.5)"},
		{"cross-origin rotated", env.Origin2, "rotate(8deg) scale(0.6)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			page := env.Origin1 + "/tframe.html?o=" + url.QueryEscape(tc.origin) + "&t=" + url.QueryEscape(tc.transform)
			tab := env.OpenTab(t, page)
			target := mustRef(t, snapshotUntil(t, tab, "button", "Target"), "button", "Target")
			if _, perr, code := act(t, "click", target, "--trusted"); code != 0 {
				t.Fatalf("trusted click: exit %d %+v", code, perr)
			}
			if got := framedLog(t, page, 1); !slices.Equal(got, []string{"target:trusted"}) {
				t.Fatalf("log = %v, want [target:trusted]", got)
			}
		})
	}
}

// Something of the parent page covering the frame: the trusted click is
// refused, naming it, and nothing is pressed.
func TestTrustedClickRefusedWhenFrameCovered(t *testing.T) {
	browsertest.Need(t, env)
	page := env.Origin1 + "/tframe.html?o=" + url.QueryEscape(env.Origin2) + "&covered"
	tab := env.OpenTab(t, page)
	target := mustRef(t, snapshotUntil(t, tab, "button", "Target"), "button", "Target")
	pageEval(t, tab, "cover()")
	_, perr, code := act(t, "click", target, "--trusted")
	if code != 1 || perr == nil || perr.Code != protocol.CodeNotActionable || !strings.Contains(perr.Message, "occluded by [button 'Accept cookies']") {
		t.Fatalf("trusted click under a cover: exit %d %+v", code, perr)
	}
	if got := framedLog(t, page, 0); len(got) != 0 {
		t.Fatalf("something was pressed: %v", got)
	}
}

// A page that pulls the focus back to its own field when the focus moves
// into a login frame does not get the password typed there: the focus is
// checked in every frame just before the text is sent.
func TestTrustedTypeRefusedWhenFocusStolen(t *testing.T) {
	browsertest.Need(t, env)
	for _, steal := range []bool{true, false} {
		t.Run(fmt.Sprintf("steal=%v", steal), func(t *testing.T) {
			query := "?o=" + url.QueryEscape(env.Origin2)
			if steal {
				query += "&steal"
			}
			page := env.Origin1 + "/steal.html" + query
			tab := env.OpenTab(t, page)
			pw := mustRef(t, snapshotUntil(t, tab, "textbox", "Password"), "textbox", "Password")
			// The page steals the focus when its window loses it, which
			// only happens while the window has it; which window has it
			// in a headless browser depends on what earlier tests opened.
			// Emulate a focused page, held until the fill is done.
			fctx, cancel := env.TabContext(t, page)
			defer cancel()
			if _, err := chromedp.Call(fctx, emulation.SetFocusEmulationEnabled, emulation.SetFocusEmulationEnabledParams{Enabled: true}); err != nil {
				t.Fatal(err)
			}
			if !browsertest.Eval[bool](t, env, page, "document.hasFocus()") {
				t.Fatal("the page does not have the focus, so it cannot steal it")
			}
			_, perr, code := act(t, "fill", pw, "hunter2", "--trusted")
			leaked := browsertest.Eval[string](t, env, page, "document.getElementById('search').value")
			typed := browsertest.Eval[string](t, env, env.Origin2+"/password.html"+query, "document.getElementById('pw').value")
			if leaked != "" {
				t.Fatalf("the page's own field got %q", leaked)
			}
			if !steal {
				if code != 0 || typed != "hunter2" {
					t.Fatalf("trusted fill: exit %d %+v; the field holds %q", code, perr, typed)
				}
				return
			}
			if code != 1 || perr == nil || perr.Code != protocol.CodeNotActionable || !strings.Contains(perr.Message, "focus is on [textbox 'Search']") {
				t.Fatalf("trusted fill with the focus stolen: exit %d %+v", code, perr)
			}
			if typed != "" {
				t.Errorf("the password field got %q after a refusal", typed)
			}
		})
	}
}

// In a headed browser, attaching the debugger shows the bar "grip started
// debugging this browser", which shrinks every page's viewport. A trusted
// click on a tab grip has not attached to yet still lands on its target:
// grip attaches first and lets the bar settle before it measures, then
// checks the hit just before pressing. Headless Chromium shows no bar, so
// this test runs a headed browser under Xvfb, and skips without Xvfb.
func TestTrustedClickNotMovedByDebuggerBar(t *testing.T) {
	browsertest.Need(t, env)
	fixtures, err := fs.Sub(testdata, "testdata")
	if err != nil {
		t.Fatal(err)
	}
	e := browsertest.StartHeaded(t, "headless Chromium shows no debugging bar to test against", browsertest.Options{Fixtures: fixtures, Bin: env.Bin})
	page := e.Origin1 + "/bottom.html"
	// Opened without grip, so grip's first request to it is the click.
	if _, err := chromedp.CallBrowser(e.BrowserContext(), target.CreateTarget, target.CreateTargetParams{URL: page}); err != nil {
		t.Fatal(err)
	}
	tab := 0
	for deadline := time.Now().Add(20 * time.Second); tab == 0; {
		var tabs protocol.TabsResult
		gripOn(t, e, &tabs, "tabs")
		for _, x := range tabs.Tabs {
			if x.URL == page {
				tab = x.ID
			}
		}
		if tab == 0 && time.Now().After(deadline) {
			t.Fatalf("no tab with %s: %+v", page, tabs.Tabs)
		}
		time.Sleep(100 * time.Millisecond)
	}
	before := browsertest.Eval[float64](t, e, page, "innerHeight")
	if _, perr, code := actOn(t, e, "click", "#go", "--trusted", "--tab", fmt.Sprint(tab)); code != 0 {
		t.Fatalf("trusted click: exit %d %+v", code, perr)
	}
	after := browsertest.Eval[float64](t, e, page, "innerHeight")
	if after >= before {
		t.Fatalf("innerHeight %v → %v: the browser showed no debugging bar, so this test proves nothing", before, after)
	}
	t.Logf("the debugging bar took %v px of the viewport", before-after)
	if got := browsertest.Eval[[]string](t, e, page, "window.__log"); !slices.Equal(got, []string{"go:trusted"}) {
		t.Fatalf("log = %v, want [go:trusted]", got)
	}
}

// snapshotUntil snapshots tab until [role name] is in it (a frame that is
// still loading), and returns that snapshot.
func snapshotUntil(t *testing.T, tab int, role, name string) protocol.Snapshot {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		snap := snapshot(t, tab)
		if refOf(snap, role, name) != "" {
			return snap
		}
		if time.Now().After(deadline) {
			t.Fatalf("no [%s '%s'] after 10 s:\n%s", role, name, snap.Text)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// framedLog is tframe.html's log once it holds n entries (a frame's
// message arrives a moment after the click), within 20 s (it was a
// second: a busy machine's moment can be longer); for n = 0, after a
// second, the window in which nothing must arrive (a measurement: the
// click it follows was refused before any input was sent).
func framedLog(t *testing.T, page string, n int) []string {
	t.Helper()
	var got []string
	wait := 20 * time.Second
	if n == 0 {
		wait = time.Second
	}
	for deadline := time.Now().Add(wait); ; time.Sleep(50 * time.Millisecond) {
		got = browsertest.Eval[[]string](t, env, page, "window.__log")
		if len(got) >= n && (n > 0 || time.Now().After(deadline)) || time.Now().After(deadline) {
			return got
		}
	}
}

func mustJSONString(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// A trusted type sends keys: a page that reacts only to keyup (a quick
// search) sees one per character, and what has no key is still typed.
// (It inserted each line as text, and such a search never ran.)
func TestTrustedTypeSendsKeys(t *testing.T) {
	browsertest.Need(t, env)
	page := env.Origin1 + "/keyup.html"
	tab := env.OpenTab(t, page)
	q := mustRef(t, snapshot(t, tab), "textbox", "Search")
	if _, perr, code := act(t, "type", q, "ab c", "--trusted"); code != 0 {
		t.Fatalf("trusted type: exit %d %+v", code, perr)
	}
	if keys := browsertest.Eval[[]string](t, env, page, "window.keys"); strings.Join(keys, "|") != "a|b| |c" {
		t.Fatalf("the page saw keyup for %q, want a, b, space, c", keys)
	}
	if v := browsertest.Eval[string](t, env, page, "document.getElementById('q').value"); v != "ab c" {
		t.Fatalf("the field holds %q", v)
	}
}

// The person's "Never attach the debugger" (docs/debugger.md, "The debugger":
// its switch): trusted input is refused with policy, naming the switch
// and what to do instead, and a synthetic click still works, without the
// debugger.
func TestNeverAttachTheDebugger(t *testing.T) {
	browsertest.Need(t, env)
	tab := env.OpenTab(t, env.Origin1+"/bottom.html")
	browsertest.EvalWorker[bool](t, env, `chrome.storage.local.set({neverDebugger: true}).then(() => true)`)
	t.Cleanup(func() {
		browsertest.EvalWorker[bool](t, env, `chrome.storage.local.remove('neverDebugger').then(() => true)`)
	})
	_, perr, code := act(t, "click", "#go", "--trusted", "--tab", fmt.Sprint(tab))
	if code == 0 || perr == nil || perr.Code != protocol.CodePolicy || !strings.Contains(perr.Message, "Never attach the debugger") || !strings.Contains(perr.Hint, "leave out --trusted") {
		t.Fatalf("trusted click under the switch: exit %d %+v", code, perr)
	}
	if _, perr, code := act(t, "click", "#go", "--tab", fmt.Sprint(tab)); code != 0 {
		t.Fatalf("synthetic click under the switch: exit %d %+v", code, perr)
	}
	if got := browsertest.Eval[[]string](t, env, env.Origin1+"/bottom.html", "window.__log"); !slices.Equal(got, []string{"go"}) {
		t.Fatalf("log = %v, want [go]", got)
	}
}
