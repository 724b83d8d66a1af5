package workflows_test

import (
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"

	"github.com/grip-dev/grip/internal/browsertest"
)

// How long a typical agent waits between two steps (its model thinking);
// GRIP_BAR_GAP changes it for a measurement.
const barGap = 2 * time.Second

// TestDebuggerBarSeconds measures, in a headed Chromium under Xvfb, how
// long the browser's "grip started debugging this browser" bar shows
// across a typical task (docs/debugger.md, "The debugger"). The
// measure is what the window's frame takes of the height of the person's
// own page (outerHeight - innerHeight), open in its own window and never
// touched by grip: the bar takes its height from every page of every
// window while grip is attached to any tab, and nothing else grows the
// frame (a window resized changes both heights alike), so the seconds the
// frame is taller than at the start are the seconds the bar shows.
// The page samples itself every 50 ms; no debugger is needed to read it.
//
// First a session that only reads (snapshots, a wait, a find): the bar
// must never show. Then an agent signs in on the fixture bank (a new tab,
// a snapshot, three fields, the button, a snapshot of the next page),
// barGap between steps; the bar must go soon after its last step.
func TestDebuggerBarSeconds(t *testing.T) {
	browsertest.Need(t, env)
	gap := barGap
	if s := os.Getenv("GRIP_BAR_GAP"); s != "" {
		var err error
		if gap, err = time.ParseDuration(s); err != nil {
			t.Fatal(err)
		}
	}
	he := browsertest.StartHeaded(t, "headless Chromium shows no debugging bar", browsertest.Options{Fixtures: os.DirFS("."), Bin: env.Bin})
	// The person's page, in a window of its own, opened without grip.
	mine := he.Origin1 + "/testdata/bar.html"
	yes := true
	if _, err := chromedp.CallBrowser(he.BrowserContext(), target.CreateTarget, target.CreateTargetParams{URL: mine, NewWindow: &yes, Width: 900, Height: 700}); err != nil {
		t.Fatal(err)
	}
	type sample [2]float64
	heights := func() []sample {
		t.Helper()
		for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(100 * time.Millisecond) {
			if got := browsertest.Eval[[]sample](t, he, mine, "window.__heights || []"); len(got) > 0 {
				return got
			}
			if time.Now().After(deadline) {
				t.Fatal("the person's page never loaded")
			}
		}
	}
	// The frame as laid out before grip does anything (the first sample
	// can come before the window has its size).
	var base float64
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(200 * time.Millisecond) {
		h := heights()
		if base = h[len(h)-1][1]; base >= 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the person's window never got its size: %v", h)
		}
	}
	t0 := float64(time.Now().UnixMilli())
	// barSeconds: how long the frame was taller than at t0, up to now; on
	// says whether it still is.
	barSeconds := func() (secs float64, on bool, changes int) {
		h := heights()
		now := float64(time.Now().UnixMilli())
		for i, s := range h {
			from, end := max(s[0], t0), now
			if i+1 < len(h) {
				end = h[i+1][0]
			}
			if s[1] > base && end > from {
				secs += (end - from) / 1000
			}
			if s[0] > t0 {
				changes++
			}
		}
		return secs, h[len(h)-1][1] > base, changes
	}
	grip := func(session string, args ...string) string {
		t.Helper()
		out := he.MustGrip(t, append([]string{"--session", session}, args...)...)
		time.Sleep(gap)
		return out
	}

	// A session that only reads, on the person's page.
	var tabs struct {
		Tabs []struct {
			ID  int
			URL string
		}
	}
	he.GripJSON(t, &tabs, "tabs")
	tab := ""
	for _, x := range tabs.Tabs {
		if x.URL == mine {
			tab = fmt.Sprint(x.ID)
		}
	}
	if tab == "" {
		t.Fatalf("no tab shows %s: %+v", mine, tabs)
	}
	grip("reader", "snapshot", "--tab", tab)
	grip("reader", "wait", "--tab", tab, "--text", "own page")
	grip("reader", "find", "--tab", tab, "own page")
	grip("reader", "snapshot", "--tab", tab, "--mode", "content")
	readSecs, _, _ := barSeconds()

	// A typical task: an agent signs in.
	start := time.Now()
	login := he.Origin1 + "/testdata/login.html"
	out := grip("agent", "tabs", "new", login)
	agentTab := ""
	if i := strings.Index(out, "tab "); i >= 0 {
		agentTab = strings.Fields(out[i+4:])[0]
	}
	var opened struct {
		Tabs []struct {
			ID  int
			URL string
		}
	}
	he.GripJSON(t, &opened, "--session", "agent", "tabs")
	for _, x := range opened.Tabs {
		if x.URL == login {
			agentTab = fmt.Sprint(x.ID)
		}
	}
	if agentTab == "" {
		t.Fatalf("the agent's tab is not listed: %s %+v", out, opened)
	}
	grip("agent", "snapshot", "--tab", agentTab)
	grip("agent", "fill", "--tab", agentTab, "input[name=email]", "ann@example.com")
	grip("agent", "fill", "--tab", agentTab, "input[name=password]", "hunter2")
	grip("agent", "select", "--tab", agentTab, "select[name=branch]", "South")
	he.MustGrip(t, "--session", "agent", "click", "--tab", agentTab, "#go")
	he.MustGrip(t, "--session", "agent", "snapshot", "--tab", agentTab)
	last := time.Now()
	task := last.Sub(start)
	// Until the bar is gone (a minute and more before this change).
	for deadline := time.Now().Add(100 * time.Second); ; time.Sleep(200 * time.Millisecond) {
		if _, on, _ := barSeconds(); !on || time.Now().After(deadline) {
			break
		}
	}
	gone := time.Since(last)
	secs, on, changes := barSeconds()
	for _, s := range heights() {
		if s[0] < t0 {
			continue
		}
		t.Logf("%+.1f s after the last step: the window's frame takes %v px of its height", (s[0]-float64(last.UnixMilli()))/1000, s[1])
	}
	t.Logf("the bar (the window's frame %v px without it): %.1f s while a session only read; %.1f s across a %.1f s task (%d height changes), gone %.1f s after its last step (still on: %v); steps %s apart",
		base, readSecs, secs-readSecs, task.Seconds(), changes, gone.Seconds(), on, gap)
	if secs-readSecs <= 0 {
		t.Fatal("the bar never showed across the task: the measure measures nothing here")
	}
	if readSecs > 0 {
		t.Errorf("the bar showed %.1f s while a session only read", readSecs)
	}
	// IDLE_DETACH_MS is 3 s; the bound is far from it so that a loaded
	// machine does not fail it, and far below the minute it was.
	if on || gone > 20*time.Second {
		t.Errorf("the bar went %.1f s after the task's last step (still on: %v)", gone.Seconds(), on)
	}
}
