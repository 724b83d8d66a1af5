package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"

	"github.com/grip-dev/grip/internal/browsertest"
	"github.com/grip-dev/grip/protocol"
)

// attachLikeDevTools has a CDP client other than grip's (the test's own
// connection to the browser) auto-attach to every new target and hold it
// paused until the debugger lets it run (Target.setAutoAttach with
// waitForDebuggerOnStart, as Playwright and DevTools do), and never let it
// run. detach turns that off, which detaches the client and lets the
// targets it held run on; the test's end detaches too.
func attachLikeDevTools(t *testing.T) (detach func()) {
	t.Helper()
	ctx := env.BrowserContext()
	b := chromedp.FromContext(ctx).Browser
	events, stop := b.Subscribe(target.AttachedToTarget.Method)
	var mu sync.Mutex
	var sessions []target.SessionID
	go func() {
		for v := range events {
			var ev target.EventAttachedToTarget
			if json.Unmarshal(v, &ev) == nil && ev.WaitingForDebugger {
				mu.Lock()
				sessions = append(sessions, ev.SessionID)
				mu.Unlock()
			}
		}
	}()
	flat := true
	on := target.SetAutoAttachParams{AutoAttach: true, WaitForDebuggerOnStart: true, Flatten: &flat}
	if _, err := chromedp.CallBrowser(ctx, target.SetAutoAttach, on); err != nil {
		stop()
		t.Fatalf("a second client auto-attaching: %v", err)
	}
	var once sync.Once
	detach = func() {
		once.Do(func() {
			if _, err := chromedp.CallBrowser(ctx, target.SetAutoAttach, target.SetAutoAttachParams{Flatten: &flat}); err != nil {
				t.Errorf("the second client turning auto-attach off: %v", err)
			}
			stop()
			mu.Lock()
			defer mu.Unlock()
			for _, id := range sessions {
				// Detaching lets a target held for the debugger run.
				chromedp.CallBrowser(ctx, target.DetachFromTarget, target.DetachFromTargetParams{SessionID: id})
			}
		})
	}
	t.Cleanup(detach)
	return detach
}

// With another debugger attached that holds new targets paused, a click
// that opens a window answers, naming the new tab, instead of waiting on
// a page that cannot run (a popup that shares its opener's process holds
// the opener too).
func TestOpenedTabHeldByAnotherDebugger(t *testing.T) {
	browsertest.Need(t, env)
	for _, c := range []struct {
		role, name, path string
		opener           bool // the new tab shares its opener's process
	}{
		{"button", "Sign in with popup", "/popup.html", true},
		{"link", "Help center", "/help.html", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			tab, snap := openEvents(t)
			detach := attachLikeDevTools(t)
			res, perr, code := act(t, "click", mustRef(t, snap, c.role, c.name))
			if code != 0 || len(res.Opened) != 1 {
				t.Fatalf("click %s: exit %d %+v; opened %+v", c.name, code, perr, res.Opened)
			}
			opened := res.Opened[0]
			// A popup held before it navigated has no URL anywhere grip can read.
			if opened.Tab == 0 || opened.Tab == tab || (!c.opener && opened.URL != env.Origin1+c.path) {
				t.Errorf("click %s opened %+v", c.name, opened)
			}
			if c.opener {
				// Its opener cannot run either: a snapshot says why at once.
				var out struct {
					Error *protocol.Error `json:"error"`
				}
				if code := env.GripJSON(t, &out, "snapshot", "--tab", fmt.Sprint(tab)); code != 1 || out.Error == nil || !strings.Contains(out.Error.Message, "another debugger") {
					t.Errorf("snapshot of the held opener: exit %d %+v", code, out.Error)
				}
			}
			// Let the held tabs run, then close the new one.
			detach()
			env.Grip(context.Background(), "tabs", "close", fmt.Sprint(opened.Tab))
		})
	}
}

// A tab another debugger made while a slow tab was in front is not a tab
// the slow one opened: Chrome gives it that tab as its openerTabId, but
// they share no process, so the slow tab's read goes on instead of being
// refused as held (extension/worker/snapshot.js heldElsewhere reads the worker's
// record of what pages opened). Playwright's pages beside a busy tab did
// this in bench/run's scale step.
func TestSlowTabBesideAnotherDebuggersTab(t *testing.T) {
	browsertest.Need(t, env)
	tab := env.OpenTab(t, env.Origin1+"/busy-page.html?t="+t.Name())
	env.MustGrip(t, "tabs", "select", fmt.Sprint(tab)) // in front as the debugger makes its tab
	ctx := env.BrowserContext()
	created, err := chromedp.CallBrowser(ctx, target.CreateTarget, target.CreateTargetParams{URL: "about:blank"})
	if err != nil {
		t.Fatal(err)
	}
	id := created.TargetID
	t.Cleanup(func() {
		chromedp.CallBrowser(context.Background(), target.CloseTarget, target.CloseTargetParams{TargetID: id})
	})
	flat := true
	if _, err := chromedp.CallBrowser(ctx, target.AttachToTarget, target.AttachToTargetParams{TargetID: id, Flatten: &flat}); err != nil {
		t.Fatal(err)
	}
	env.MustGrip(t, "tabs", "select", fmt.Sprint(tab)) // the busy tab in front again
	for i := 0; i < 3; i++ {
		var out struct {
			protocol.Snapshot
			Error *protocol.Error `json:"error"`
		}
		if code := env.GripJSON(t, &out, "snapshot", "--tab", fmt.Sprint(tab)); code != 0 || out.Error != nil || !strings.Contains(out.Text, "Refresh") {
			t.Fatalf("snapshot %d of the busy tab: exit %d %+v\n%s", i, code, out.Error, out.Text)
		}
	}
}
