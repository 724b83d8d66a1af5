package e2e

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/grip-dev/grip/internal/browsertest"
	"github.com/grip-dev/grip/protocol"
)

// secondClientEnv, set, runs the suite with Playwright connected beside
// grip (TestMain).
const secondClientEnv = "GRIP_E2E_SECOND_CLIENT"

// playwrightDir holds playwright-core at its pinned version
// (e2e/playwright/package.json; scripts/setup --js installs it).
const playwrightDir = "playwright"

func playwrightInstalled() error {
	_, err := os.Stat(filepath.Join(playwrightDir, "node_modules", "playwright-core", "package.json"))
	if err != nil {
		return fmt.Errorf("playwright-core is not installed in e2e/playwright (scripts/setup --js): %w", err)
	}
	return nil
}

// holdSecondClient connects the second client kind names ("cdp",
// "playwright") to e's browser until stop.
func holdSecondClient(e *browsertest.Env, kind string) (stop func(), err error) {
	switch kind {
	case "cdp", "1":
		n, err := e.AttachNeighbour()
		if err != nil {
			return nil, err
		}
		fmt.Fprintln(os.Stderr, "e2e: a raw DevTools-protocol client attached beside grip")
		return func() { n.Close() }, nil
	case "playwright":
		return holdPlaywright(e)
	}
	return nil, fmt.Errorf("e2e: %s=%q: want cdp or playwright", secondClientEnv, kind)
}

// holdPlaywright connects Playwright to e's browser (hold.mjs) and keeps
// it connected until stop.
func holdPlaywright(e *browsertest.Env) (stop func(), err error) {
	if err := playwrightInstalled(); err != nil {
		return nil, err
	}
	ep, err := e.Endpoint()
	if err != nil {
		return nil, err
	}
	cmd := exec.Command("node", "hold.mjs", ep)
	cmd.Dir = playwrightDir
	cmd.Stderr = os.Stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	line, _ := bufio.NewReader(out).ReadString('\n')
	var r pwConnect
	if json.Unmarshal([]byte(line), &r) != nil || r.Error != "" {
		in.Close()
		cmd.Wait()
		return nil, fmt.Errorf("e2e: Playwright beside grip did not connect: %q", line)
	}
	fmt.Fprintf(os.Stderr, "e2e: Playwright connected beside grip in %d ms\n", r.MS)
	return func() { in.Close(); cmd.Wait() }, nil
}

type pwConnect struct {
	MS    int      `json:"ms"`
	Pages []string `json:"pages"`
	Error string   `json:"error"`
}

// playwrightConnect runs Playwright's connectOverCDP once against
// endpoint (connect.mjs), with timeout, and disconnects.
func playwrightConnect(t *testing.T, endpoint string, timeout time.Duration) pwConnect {
	t.Helper()
	if err := playwrightInstalled(); err != nil {
		if os.Getenv(browsertest.RequireEnv) != "" {
			t.Fatal(err)
		}
		t.Skip(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout+20*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, "node", "connect.mjs", endpoint, strconv.Itoa(int(timeout/time.Millisecond)))
	cmd.Dir = playwrightDir
	out, err := cmd.Output()
	var r pwConnect
	if jerr := json.Unmarshal(out, &r); jerr != nil {
		t.Fatalf("node connect.mjs: %v %v\n%s", err, jerr, out)
	}
	return r
}

// TestPlaywrightConnectsBesideGrip: Playwright's connectOverCDP to a
// browser with grip's extension, at the browser's start (its first tab
// opened from the command line, as a person's launcher does) and ten
// times after grip worked there (opened, read, clicked, navigated), all
// complete, and the first tab loads its page. Before, the extension's
// webRequest permission had Chrome hold the start's navigation until
// grip's worker was up, and any debugger attaching then (Playwright, or
// grip's own snapshot) cancelled it: the tab stayed at its initial empty
// document, which connectOverCDP waits on for good (7 of 8 fresh
// browsers hung; extension/worker/navigation.js LoadWatch).
func TestPlaywrightConnectsBesideGrip(t *testing.T) {
	browsertest.Need(t, env)
	if err := playwrightInstalled(); err != nil {
		if os.Getenv(browsertest.RequireEnv) != "" {
			t.Fatal(err)
		}
		t.Skip(err)
	}
	fixtures, err := fs.Sub(testdata, "testdata")
	if err != nil {
		t.Fatal(err)
	}
	start := env.Origin1 + "/home.html?first"
	e, err := browsertest.Start(browsertest.Options{Fixtures: fixtures, Bin: env.Bin, DebugPort: true, StartURL: start})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	ep, err := e.Endpoint()
	if err != nil {
		t.Fatal(err)
	}
	connect := func(when string) {
		t.Helper()
		r := playwrightConnect(t, ep, 15*time.Second)
		if r.Error != "" {
			t.Fatalf("connectOverCDP %s: %s", when, r.Error)
		}
		t.Logf("connectOverCDP %s: %d ms, pages %v", when, r.MS, r.Pages)
	}
	connect("at the browser's start")
	// The first tab loaded its page and reads as it.
	var snap struct {
		protocol.Snapshot
		Error *protocol.Error `json:"error"`
	}
	if code := e.GripJSON(t, &snap, "snapshot"); code != 0 || snap.Error != nil || snap.Tab.URL != start {
		t.Fatalf("snapshot of the first tab: exit %d %+v, tab %+v", code, snap.Error, snap.Tab)
	}
	// grip works: opens, reads, clicks (a popup), navigates.
	var opened protocol.ActionResult
	if code := e.GripJSON(t, &opened, "tabs", "new", e.Origin1+"/events.html"); code != 0 {
		t.Fatalf("tabs new: exit %d %+v", code, opened)
	}
	tab := fmt.Sprint(opened.Tab.ID)
	if code := e.GripJSON(t, &snap, "snapshot", "--tab", tab); code != 0 {
		t.Fatalf("snapshot: exit %d %+v", code, snap.Error)
	}
	var clicked protocol.ActionResult
	if code := e.GripJSON(t, &clicked, "click", mustRef(t, snap.Snapshot, "button", "Sign in with popup"), "--tab", tab); code != 0 || len(clicked.Opened) != 1 {
		t.Fatalf("click: exit %d %+v", code, clicked)
	}
	e.MustGrip(t, "navigate", e.Origin1+"/home.html?after", "--tab", tab)
	for i := 0; i < 10; i++ {
		connect(fmt.Sprintf("%d after grip worked", i+1))
	}
}

// TestRepliesTrueBesideAnotherClient: with another DevTools-protocol
// client attached to every target (browsertest.Neighbour), a navigation
// to a page answering 404 is navigation_failed, as alone, and a tab a
// session opens with a URL reads as that page.
func TestRepliesTrueBesideAnotherClient(t *testing.T) {
	browsertest.Need(t, env)
	fixtures, err := fs.Sub(testdata, "testdata")
	if err != nil {
		t.Fatal(err)
	}
	e, err := browsertest.Start(browsertest.Options{Fixtures: fixtures, Bin: env.Bin, DebugPort: true})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	n, err := e.AttachNeighbour()
	if err != nil {
		t.Fatal(err)
	}
	defer n.Close()
	for i := 0; i < 3; i++ {
		var opened protocol.ActionResult
		if code := e.GripJSON(t, &opened, "tabs", "new", e.Origin1+"/home.html?n="+strconv.Itoa(i)); code != 0 || opened.Tab.URL != e.Origin1+"/home.html?n="+strconv.Itoa(i) {
			t.Fatalf("tabs new beside another client: exit %d %+v", code, opened)
		}
		tab := fmt.Sprint(opened.Tab.ID)
		var snap struct {
			protocol.Snapshot
			Error *protocol.Error `json:"error"`
		}
		if code := e.GripJSON(t, &snap, "snapshot", "--tab", tab); code != 0 || snap.Error != nil || snap.Tab.URL != opened.Tab.URL {
			t.Fatalf("snapshot of the new tab beside another client: exit %d %+v %+v", code, snap.Error, snap.Tab)
		}
		var out struct {
			protocol.ActionResult
			Error *protocol.Error `json:"error"`
		}
		code := e.GripJSON(t, &out, "navigate", e.Origin1+"/no-such-page.html", "--tab", tab)
		if code == 0 || out.Error == nil || out.Error.Code != protocol.CodeNavigationFailed || out.Error.Status != "404" {
			t.Fatalf("navigate to a 404 beside another client: exit %d %+v %+v", code, out.Error, out.ActionResult)
		}
	}
	if n.Attached() == 0 {
		t.Fatal("the other client attached to nothing")
	}
	t.Logf("the other client attached to %d targets", n.Attached())
}

// TestHeldFrameReleasedWithinABound: an out-of-process frame grip
// auto-attached waits, paused, while grip sets its session up; a set-up
// that never ends (stalled here by a worker test hook) holds it no longer
// than debugger.js HOLD_BOUND_MS: the frame loads and reads.
func TestHeldFrameReleasedWithinABound(t *testing.T) {
	browsertest.Need(t, env)
	browsertest.EvalWorker[bool](t, env, `(globalThis.__gripStallSessionSetUp = (kind) => kind === 'iframe', true)`)
	t.Cleanup(func() { browsertest.EvalWorker[bool](t, env, `delete globalThis.__gripStallSessionSetUp`) })
	start := time.Now()
	tab := env.OpenTab(t, env.Origin1+"/act.html?card="+env.Origin2+"&t="+t.Name())
	for {
		if refOf(snapshot(t, tab), "textbox", "Card number") != "" {
			break
		}
		if time.Since(start) > 15*time.Second {
			t.Fatal("the frame grip held paused never ran")
		}
		time.Sleep(200 * time.Millisecond)
	}
	t.Logf("the held frame read after %s", time.Since(start).Round(time.Millisecond))
}

// TestHeldFrameReleasedAcrossWorkerRestart: a frame grip holds paused for
// its debugger is let run even when the worker that held it stops before
// it lets go (here its set-up never ends and its bound is lengthened by a
// worker test hook, so only the restart can release it): the new worker
// detaches the sessions its predecessor left (debugger.js, at its start).
func TestHeldFrameReleasedAcrossWorkerRestart(t *testing.T) {
	e := ownEnv(t)
	browsertest.EvalWorker[bool](t, e, `(globalThis.__gripStallSessionSetUp = (kind) => kind === 'iframe', globalThis.__gripHoldBoundMs = 1e9, true)`)
	before := statusOf(t, e)
	tab := e.OpenTab(t, e.Origin1+"/act.html?card="+e.Origin2)
	if refOf(snapOn(t, e, tab), "textbox", "Card number") != "" {
		t.Fatal("the frame ran although grip's set-up of it never ended")
	}
	page := e.Origin1 + "/act.html?card=" + e.Origin2
	if browsertest.Eval[bool](t, e, page, "!!window.__cardLoaded") {
		t.Fatal("the frame loaded although grip's set-up of it never ended")
	}
	stopServiceWorker(t, e)
	waitGone(t, before.Host.PID, 20*time.Second)
	// Seen by the page, not through grip: no request of grip's to the tab
	// after the restart (one would attach afresh, which lets it go too).
	start := time.Now()
	for !browsertest.Eval[bool](t, e, page, "!!window.__cardLoaded") {
		if time.Since(start) > 15*time.Second {
			t.Fatal("the frame the stopped worker held never ran")
		}
		time.Sleep(200 * time.Millisecond)
	}
	t.Logf("the held frame loaded %s after the worker stopped", time.Since(start).Round(time.Millisecond))
}
