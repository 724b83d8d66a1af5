package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"

	"github.com/grip-dev/grip/internal/browsertest"
	"github.com/grip-dev/grip/protocol"
)

// The developer tools through the CLI, a real host and Chromium
// (docs/devtools.md, "Developer tools"): console, network, eval, PDF,
// element and refs screenshots, each under the person's policy.

// openDevtools opens devtools.html with its cross-origin frame and waits
// for the frame's button, so every part of the page has run.
func openDevtools(t *testing.T) int {
	t.Helper()
	tab := env.OpenTab(t, env.Origin1+"/devtools.html?frame="+env.Origin2)
	snapshotUntil(t, tab, "button", "Frame button")
	return tab
}

func consoleOf(t *testing.T, tab int, extra ...string) protocol.ConsoleResult {
	t.Helper()
	var res protocol.ConsoleResult
	args := append([]string{"console", "--tab", fmt.Sprint(tab)}, extra...)
	if code := env.GripJSON(t, &res, args...); code != 0 {
		t.Fatalf("grip %s: exit %d: %+v", strings.Join(args, " "), code, res)
	}
	return res
}

func networkOf(t *testing.T, tab int, extra ...string) protocol.NetworkResult {
	t.Helper()
	var res protocol.NetworkResult
	args := append([]string{"network", "--tab", fmt.Sprint(tab)}, extra...)
	if code := env.GripJSON(t, &res, args...); code != 0 {
		t.Fatalf("grip %s: exit %d: %+v", strings.Join(args, " "), code, res)
	}
	return res
}

func findMessage(res protocol.ConsoleResult, text string) *protocol.ConsoleMessage {
	for i, m := range res.Messages {
		if strings.Contains(m.Text, text) {
			return &res.Messages[i]
		}
	}
	return nil
}

// The console has what the page logged and threw before grip first
// touched the tab, in its cross-origin frame and its worker, with levels
// and source locations, and repeated messages folded.
func TestConsoleMessagesFramesWorkers(t *testing.T) {
	browsertest.Need(t, env)
	// Opened by the browser, not grip: everything is logged before grip's
	// first request to the tab (personTab waits for the page to say so).
	tab := personTab(t, fmt.Sprintf("%s/devtools.html?frame=%s&person=%d", env.Origin1, env.Origin2, time.Now().UnixNano()))
	res := consoleOf(t, tab, "--level", "debug")
	for _, want := range []struct{ text, level, source, origin string }{
		{`hello 42 {a: 1, b: "x"} [1, 2]`, "info", "console", env.Origin1},
		{"careful: hot", "warning", "console", env.Origin1},
		{"top error", "error", "console", env.Origin1},
		{"details", "debug", "console", env.Origin1},
		{"Uncaught Error: boom at the top", "error", "exception", env.Origin1},
		{"worker says hi", "info", "console", env.Origin1},
		{"frame secret log", "info", "console", env.Origin2},
		{"Uncaught Error: frame secret boom", "error", "exception", env.Origin2},
	} {
		m := findMessage(res, want.text)
		if m == nil {
			t.Errorf("no message %q in\n%s", want.text, res.Text)
			continue
		}
		if m.Level != want.level || m.Source != want.source || m.FrameOrigin != want.origin {
			t.Errorf("%q: level %s source %s origin %s, want %s %s %s", want.text, m.Level, m.Source, m.FrameOrigin, want.level, want.source, want.origin)
		}
	}
	if m := findMessage(res, "boom at the top"); m != nil && (!strings.HasPrefix(m.URL, env.Origin1+"/devtools.html") || m.Line != 23 || m.Column == 0) {
		t.Errorf("the uncaught error's place is %s:%d:%d, want devtools.html line 23", m.URL, m.Line, m.Column)
	}
	if m := findMessage(res, "worker says hi"); m != nil && (!m.Worker || !strings.HasSuffix(m.URL, "/devtools-worker.js")) {
		t.Errorf("worker message %+v: want worker, from devtools-worker.js", m)
	}
	if m := findMessage(res, "tick"); m == nil || m.Count != 5 || !strings.Contains(res.Text, "tick") || !strings.Contains(res.Text, "×5") {
		t.Errorf("five equal messages are not one with a count of 5: %+v\n%s", m, res.Text)
	}
	// The default level is info: debug messages are counted, not listed.
	def := consoleOf(t, tab)
	if findMessage(def, "details") != nil || def.Hidden == 0 || !strings.Contains(def.Text, "--level debug") {
		t.Errorf("default level lists debug messages or does not say they are hidden:\n%s", def.Text)
	}
	errs := consoleOf(t, tab, "--level", "error")
	for _, m := range errs.Messages {
		if m.Level != "error" {
			t.Errorf("--level error lists %+v", m)
		}
	}
	if findMessage(errs, "top error") == nil || findMessage(errs, "frame secret boom") == nil {
		t.Errorf("--level error misses errors:\n%s", errs.Text)
	}
	// What the page logs later is read too.
	if _, perr, code := act(t, "click", "#go", "--tab", fmt.Sprint(tab)); code != 0 {
		t.Fatalf("click: %+v", perr)
	}
	if m := findMessage(consoleOf(t, tab), "clicked"); m == nil {
		t.Error("a message logged after grip attached is missing")
	}
}

// personTab opens url (a URL no other tab has) in a tab the way the
// person does (not through grip) and returns its id once grip lists it and
// the page has run what it runs by itself (ranOn).
func personTab(t testing.TB, url string) int {
	t.Helper()
	id, err := chromedp.CallBrowser(env.BrowserContext(), target.CreateTarget, target.CreateTargetParams{URL: url})
	if err != nil {
		t.Fatal(err)
	}
	_ = id
	deadline := time.Now().Add(20 * time.Second)
	for {
		var tabs protocol.TabsResult
		env.GripJSON(t, &tabs, "tabs")
		for _, x := range tabs.Tabs {
			if x.URL == url {
				tab := x.ID
				t.Cleanup(func() { env.Grip(context.Background(), "tabs", "close", fmt.Sprint(tab)) })
				ranOn(t, env, url) // its frame, worker and timers
				return tab
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("no tab with %s: %+v", url, tabs.Tabs)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// ranOn waits until the page at url (all of it: the prefix TabContext
// finds it by) has loaded and has run all it runs by itself: window.ran,
// when the page sets one (devtools.html: its fetch, its timer's throw, its
// worker and its frame). It reads the page through the harness's own
// DevTools connection, never grip.
func ranOn(t testing.TB, e *browsertest.Env, url string) {
	t.Helper()
	q, _ := json.Marshal(url)
	expr := `location.href === ` + string(q) + ` && document.readyState === 'complete' && Promise.resolve(window.ran).then(() => true)`
	deadline := time.Now().Add(30 * time.Second)
	for {
		ctx, cancel := e.TabContext(t, url)
		tctx, tcancel := context.WithTimeout(ctx, 20*time.Second)
		ran, err := chromedp.Run(tctx, chromedp.Evaluate[bool](expr, chromedp.EvalAwaitPromise))
		tcancel()
		cancel()
		if err == nil && ran {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s never said it ran (%v)", url, err)
		}
		time.Sleep(50 * time.Millisecond) // its document is not yet the one loaded (about:blank, or loading)
	}
}

// A frame of a site the policy blocks: its messages and requests are left
// out (and counted), the rest of the page's are there; its pixels refuse
// the PDF.
func TestDevtoolsBlockedFrameLeftOut(t *testing.T) {
	browsertest.Need(t, env)
	env.MustGrip(t, "status") // the host is up and has written its policy file
	setPolicy(t, "block "+hostOf(env.Origin2)+"\n")
	tab := env.OpenTab(t, env.Origin1+"/devtools.html?frame="+env.Origin2)
	for deadline := time.Now().Add(10 * time.Second); !strings.Contains(snapshot(t, tab).Text, "1 frame blocked"); {
		if time.Now().After(deadline) {
			t.Fatal("the blocked frame never loaded")
		}
		time.Sleep(100 * time.Millisecond)
	}
	// The frame has run its script once its three messages are counted.
	res := consoleOf(t, tab, "--level", "debug")
	for deadline := time.Now().Add(10 * time.Second); res.Blocked < 3 && time.Now().Before(deadline); {
		time.Sleep(100 * time.Millisecond)
		res = consoleOf(t, tab, "--level", "debug")
	}
	if strings.Contains(res.Text, "secret") || strings.Contains(res.Text, "devtools-frame.html") {
		t.Errorf("the blocked frame's messages are listed:\n%s", res.Text)
	}
	if res.Blocked < 3 || findMessage(res, "top error") == nil {
		t.Errorf("blocked %d, want the frame's 3 left out and the page's kept:\n%s", res.Blocked, res.Text)
	}
	net := networkOf(t, tab, "--all")
	for _, r := range net.Requests {
		if strings.HasPrefix(r.URL, env.Origin2) || strings.Contains(r.URL, "from=frame") {
			t.Errorf("a request of the blocked frame is listed: %+v", r)
		}
	}
	if net.Blocked < 2 || !strings.Contains(net.Text, "blocked") {
		t.Errorf("blocked %d, want the frame's document and fetch left out:\n%s", net.Blocked, net.Text)
	}
	wantPolicyRefusal(t, refusal(t, "pdf", "--tab", fmt.Sprint(tab), "-o", filepath.Join(t.TempDir(), "x.pdf")), "block")
	wantPolicyRefusal(t, refusal(t, "screenshot", "--refs", "--tab", fmt.Sprint(tab), "-o", filepath.Join(t.TempDir(), "x.png")), "block")
}

// grip network lists a page's requests from its load when grip navigated
// the tab, with bodies, the document's included; filters; leaves static
// resources out unless asked; and the person's own tab lists only what
// came after grip's first touch.
func TestNetworkRequestsAndBodies(t *testing.T) {
	browsertest.Need(t, env)
	tab := env.OpenTab(t, env.Origin1+"/home.html")
	// A URL of its own, so the harness finds this tab (other tests leave
	// devtools.html tabs open); its requests have all been answered once
	// the page says it ran.
	page := fmt.Sprintf("/devtools.html?net=%d", time.Now().UnixNano())
	if _, perr, code := act(t, "navigate", env.Origin1+page, "--tab", fmt.Sprint(tab)); code != 0 {
		t.Fatalf("navigate: %+v", perr)
	}
	ranOn(t, env, env.Origin1+page)
	res := networkOf(t, tab)
	if !res.Loaded || !strings.Contains(res.Text, "since the page loaded") {
		t.Errorf("the list does not start with the page's load:\n%s", res.Text)
	}
	byURL := map[string]protocol.NetRequest{}
	for _, r := range res.Requests {
		byURL[strings.TrimPrefix(r.URL, env.Origin1)] = r
	}
	doc, ok := byURL[page]
	if !ok || doc.Type != "document" || doc.Status != 200 || doc.Method != "GET" || doc.Bytes == 0 || !doc.Body {
		t.Fatalf("the page's document: %+v\n%s", doc, res.Text)
	}
	top, ok := byURL["/data.txt?from=top"]
	if !ok || top.Type != "fetch" || top.Status != 200 || !top.Body {
		t.Fatalf("the page's fetch: %+v\n%s", top, res.Text)
	}
	if _, ok := byURL["/devtools-worker.js"]; ok || res.Static == 0 {
		t.Errorf("the compact list shows a static script, or does not count it: static %d\n%s", res.Static, res.Text)
	}
	if _, ok := byURL["/home.html"]; ok {
		t.Error("the previous page's request is listed")
	}
	var body protocol.NetworkBody
	if code := env.GripJSON(t, &body, "network", "--body", fmt.Sprint(doc.ID)); code != 0 || !strings.Contains(body.Text, "A page that logs, throws and fetches") {
		t.Errorf("the document's body (exit %d): %.200q", code, body.Text)
	}
	if out := env.MustGrip(t, "network", "--body", fmt.Sprint(top.ID)); !strings.Contains(out, "quarterly numbers") {
		t.Errorf("the fetch's body: %q", out)
	}
	if code := env.GripJSON(t, &body, "network", "--body", fmt.Sprint(doc.ID), "--max-bytes", "10"); code != 0 || !body.Truncated || len(body.Body) != 10 {
		t.Errorf("--max-bytes 10: exit %d, %d bytes, truncated %v", code, len(body.Body), body.Truncated)
	}
	if perr := refusal(t, "network", "--body", "999999"); perr.Code != protocol.CodeBadRequest {
		t.Errorf("unknown id: %+v", perr)
	}
	f := networkOf(t, tab, "--filter", "FROM=TOP")
	if len(f.Requests) != 1 || f.Filtered == 0 {
		t.Errorf("--filter from=top: %+v", f.Requests)
	}
	all := networkOf(t, tab, "--all")
	if len(all.Requests) <= len(res.Requests) {
		t.Errorf("--all lists %d, the compact list %d", len(all.Requests), len(res.Requests))
	}
	// The person's own tab: grip never saw its load.
	mine := personTab(t, fmt.Sprintf("%s/devtools.html?mine=%d", env.Origin1, time.Now().UnixNano()))
	other := networkOf(t, mine)
	if other.Loaded || !strings.Contains(other.Text, "first touched") {
		t.Errorf("a tab grip did not load says it saw the load:\n%s", other.Text)
	}
	for _, r := range other.Requests {
		if strings.Contains(r.URL, "from=top") {
			t.Errorf("a request made before grip touched the tab is listed: %+v", r)
		}
	}
	// Its later requests are.
	if _, perr, code := act(t, "click", "#go", "--tab", fmt.Sprint(mine)); code != 0 {
		t.Fatalf("click: %+v", perr)
	}
	if n := networkOf(t, mine, "--filter", "from=click"); len(n.Requests) != 1 {
		t.Errorf("the click's fetch: %+v", n.Requests)
	}
}

// eval is refused everywhere until the person gives the origin script;
// the record says an eval ran, never its source.
func TestEvalNeedsScriptRule(t *testing.T) {
	browsertest.Need(t, env)
	tab := env.OpenTab(t, env.Origin1+"/devtools.html")
	const secret = "s3cr3t-token-123"
	expr := fmt.Sprintf("(() => { const token = %q; return {title: document.title, n: [1, 2], t: token.length}; })()", secret)
	perr := refusal(t, "eval", expr, "--tab", fmt.Sprint(tab))
	wantPolicyRefusal(t, perr, "act")
	if !strings.Contains(perr.Hint, "script "+env.Origin1) {
		t.Errorf("the hint does not name the line to add: %q", perr.Hint)
	}
	setPolicy(t, "script "+env.Origin1+"\n") // in force at the next call: the host stats the file at each (policy.Store Current)
	var res protocol.EvalResult
	if code := env.GripJSON(t, &res, "eval", expr, "--tab", fmt.Sprint(tab)); code != 0 {
		t.Fatalf("eval with script: exit %d %+v", code, res)
	}
	got, _ := res.Value.(map[string]any)
	if got["title"] != "Devtools" || got["t"] != float64(len(secret)) {
		t.Errorf("eval value %#v", res.Value)
	}
	if out := env.MustGrip(t, "eval", "1 + 1", "--tab", fmt.Sprint(tab)); strings.TrimSpace(out) != "2" {
		t.Errorf("grip eval '1 + 1' printed %q", out)
	}
	if out := env.MustGrip(t, "eval", "await new Promise((r) => setTimeout(() => r('later'), 20))", "--tab", fmt.Sprint(tab)); strings.TrimSpace(out) != `"later"` {
		t.Errorf("top-level await printed %q", out)
	}
	if perr := refusal(t, "eval", "throw new Error('nope')", "--tab", fmt.Sprint(tab)); !strings.Contains(perr.Message, "nope") {
		t.Errorf("a throw: %+v", perr)
	}
	// The record: evals ran, refused and allowed; no source anywhere.
	raw := env.MustGrip(t, "log", "--json", "--tab", fmt.Sprint(tab))
	if !strings.Contains(raw, `"eval"`) || strings.Contains(raw, secret) || strings.Contains(raw, "document.title") {
		t.Errorf("grip log: %s", raw)
	}
	logs, _ := filepath.Glob(filepath.Join(env.StateDir, "logs", "*"))
	for _, l := range logs {
		if b, err := os.ReadFile(l); err == nil && bytes.Contains(b, []byte(secret)) {
			t.Errorf("%s holds the expression's text", l)
		}
	}
	// Another origin still has no script.
	other := env.OpenTab(t, env.Origin2+"/devtools.html")
	wantPolicyRefusal(t, refusal(t, "eval", "1", "--tab", fmt.Sprint(other)), "act")
	// Paused: eval is refused like any action; the reads go on.
	t.Cleanup(func() { unpause(t) })
	env.MustGrip(t, "pause")
	if perr := refusal(t, "eval", "1", "--tab", fmt.Sprint(tab)); perr.Code != protocol.CodePaused || perr.Boundary != protocol.BoundaryUser {
		t.Errorf("eval while paused: %+v", perr)
	}
	if m := findMessage(consoleOf(t, tab), "top error"); m == nil {
		t.Error("the console is not read while paused")
	}
	if n := networkOf(t, tab); len(n.Requests) == 0 {
		t.Error("the network is not read while paused")
	}
	env.MustGrip(t, "pdf", "--tab", fmt.Sprint(tab), "-o", filepath.Join(t.TempDir(), "paused.pdf"))
}

func TestPDFOfTab(t *testing.T) {
	browsertest.Need(t, env)
	tab := env.OpenTab(t, env.Origin1+"/devtools.html")
	out := filepath.Join(t.TempDir(), "page.pdf")
	env.MustGrip(t, "pdf", "--tab", fmt.Sprint(tab), "-o", out)
	b := readFile(t, out)
	if !bytes.HasPrefix(b, []byte("%PDF")) || len(b) < 1000 {
		t.Fatalf("the PDF starts %q, %d bytes", b[:min(len(b), 8)], len(b))
	}
}

// grip screenshot @eN is a PNG of exactly the element's box.
func TestScreenshotOfElement(t *testing.T) {
	browsertest.Need(t, env)
	tab := env.OpenTab(t, env.Origin1+"/devtools.html")
	snap := snapshot(t, tab)
	ref := refOf(snap, "button", "Blue box")
	if ref == "" {
		t.Fatalf("no Blue box:\n%s", snap.Text)
	}
	out := filepath.Join(t.TempDir(), "box.png")
	env.MustGrip(t, "screenshot", ref, "-o", out)
	img := decodePNG(t, out)
	if b := img.Bounds(); b.Dx() != 173 || b.Dy() != 61 {
		t.Errorf("the element's screenshot is %d×%d, want its box 173×61", b.Dx(), b.Dy())
	}
	for _, p := range []image.Point{{2, 2}, {86, 30}, {170, 58}} {
		r, g, b, _ := img.At(p.X, p.Y).RGBA()
		if r>>8 != 0x1e || g>>8 != 0x90 || b>>8 != 0xff {
			t.Errorf("pixel %v is %02x%02x%02x, want the box's 1e90ff", p, r>>8, g>>8, b>>8)
		}
	}
	// One in a cross-origin frame.
	ftab := openDevtools(t)
	fs := snapshot(t, ftab)
	fref := refOf(fs, "button", "Frame button")
	var shot struct {
		Width, Height int
	}
	if code := env.GripJSON(t, &shot, "screenshot", fref, "-o", filepath.Join(t.TempDir(), "f.png")); code != 0 || shot.Width < 20 || shot.Height < 10 || shot.Width > 200 {
		t.Errorf("a frame's button: exit %d, %d×%d", code, shot.Width, shot.Height)
	}
}

// grip screenshot --refs draws the refs of the snapshot taken with it over
// their elements: every element in the viewport, the frame's too, and none
// outside it.
func TestScreenshotWithRefs(t *testing.T) {
	browsertest.Need(t, env)
	tab := openDevtools(t)
	out := filepath.Join(t.TempDir(), "refs.png")
	var res struct {
		Refs     []protocol.DrawnRef `json:"refs"`
		Snapshot protocol.Snapshot   `json:"snapshot"`
		Path     string              `json:"path"`
	}
	if code := env.GripJSON(t, &res, "screenshot", "--refs", "--tab", fmt.Sprint(tab), "-o", out); code != 0 {
		t.Fatalf("screenshot --refs: exit %d", code)
	}
	drawn := map[string]protocol.DrawnRef{}
	for _, r := range res.Refs {
		drawn[r.Ref] = r
	}
	for _, name := range []string{"Log again", "Blue box", "Frame button"} {
		ref := refOf(res.Snapshot, "button", name)
		if ref == "" {
			t.Errorf("the snapshot has no %q:\n%s", name, res.Snapshot.Text)
			continue
		}
		if _, ok := drawn[ref]; !ok {
			t.Errorf("%s (%s) is in view but not drawn: %+v", ref, name, res.Refs)
		}
	}
	if far := refOf(res.Snapshot, "button", "Far below"); far == "" || drawn[far].Ref != "" {
		t.Errorf("the button below the viewport (%s) is drawn, or missing from the snapshot", far)
	}
	// The refs drawn are the snapshot's: the same refs a new snapshot gives.
	again := snapshot(t, tab)
	for ref := range drawn {
		found := false
		for _, f := range again.Frames {
			for _, e := range f.Elements {
				found = found || e.Ref == ref
			}
		}
		if !found {
			t.Errorf("%s is drawn but not in the snapshot", ref)
		}
	}
	box := drawn[refOf(res.Snapshot, "button", "Blue box")]
	if box.X != 40 || box.Y != 120 || box.Width != 173 || box.Height != 61 {
		t.Errorf("the Blue box is drawn at %+v, want 40,120 173×61", box)
	}
	img := decodePNG(t, out)
	r, g, b, _ := img.At(box.X+1, box.Y+box.Height/2).RGBA()
	if r>>8 != 0xd0 || g>>8 != 0 || b>>8 != 0x90 {
		t.Errorf("the Blue box's outline is %02x%02x%02x, want grip's d00090", r>>8, g>>8, b>>8)
	}
	// Its label is the ref as every reply writes it, "@eN": a 5×7 glyph of
	// 2 px dots per character, 12 px apart, on a band 2 px wider whose last
	// two rows are solid, just above the box (the image's pixels are CSS
	// px here, as above, give or take a pixel of rounding).
	ref := refOf(res.Snapshot, "button", "Blue box")
	isLabel := func(x, y int) bool {
		r, g, b, _ := img.At(x, y).RGBA()
		return r>>8 == 0xd0 && g>>8 == 0 && b>>8 == 0x90
	}
	want := len(ref)*12 + 2
	bandX, bandY := -1, -1
	for y := box.Y + 4; y > box.Y-24 && bandY < 0; y-- { // from the box up: the nearest band is its own
		for x0 := box.X - 3; x0 <= box.X+3; x0++ {
			if !isLabel(x0, y) || isLabel(x0-1, y) {
				continue
			}
			n := 0
			for isLabel(x0+n, y) {
				n++
			}
			if n == want {
				bandX, bandY = x0, y
			}
			break
		}
	}
	if bandY < 0 {
		t.Fatalf("no label band %d px wide (%d characters, the @ among them) above %s", want, len(ref), ref)
	}
	// The @'s third row (1, 0, 1, 1, 1) in white dots; the band's last
	// row is 17 px below its top.
	top := bandY - 17
	for col, dot := range []bool{true, false, true, true, true} {
		r, _, _, _ := img.At(bandX+2+col*2, top+2+2*2).RGBA()
		if (r>>8 == 0xff) != dot {
			t.Errorf("the label's first glyph is not an @: dot %d of its third row is %v", col, r>>8 == 0xff)
		}
	}
}

func decodePNG(t *testing.T, path string) image.Image {
	t.Helper()
	img, err := png.Decode(bytes.NewReader(readFile(t, path)))
	if err != nil {
		t.Fatal(err)
	}
	return img
}
