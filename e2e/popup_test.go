package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image/png"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/grip-dev/grip/extension"
	"github.com/grip-dev/grip/internal/browsertest"
	"github.com/grip-dev/grip/manifest"
	"github.com/grip-dev/grip/protocol"
)

// popupView is what the popup shows, read from its DOM.
type popupView struct {
	State        string            `json:"state"`
	StateError   string            `json:"stateError"`
	Last         map[string]string `json:"last"`
	Figures      string            `json:"figures"`
	Text         string            `json:"text"`
	TextHidden   bool              `json:"textHidden"`
	Images       int               `json:"images"`
	Errors       []string          `json:"errors"`
	Facts        map[string]string `json:"facts"`
	PreChildren  int               `json:"preChildren"`
	PreElemCount int               `json:"preElements"`
}

// readPopupJS reads popupView out of the popup's DOM.
const readPopupJS = `(() => {
  const pairs = (id) => {
    const out = {};
    const dl = document.getElementById(id);
    for (const dt of dl.querySelectorAll('dt')) {
      const dd = dt.nextElementSibling;
      if (dd && dd.tagName === 'DD') out[dt.textContent] = dd.textContent;
    }
    return out;
  };
  const pre = document.getElementById('snapshot-text');
  return {
    state: document.getElementById('state').textContent,
    stateError: document.getElementById('state-error').textContent,
    last: pairs('last-snapshot'),
    facts: pairs('facts'),
    figures: document.getElementById('snapshot-figures').textContent,
    text: pre.textContent,
    textHidden: pre.hidden,
    images: document.querySelectorAll('img').length,
    errors: [...document.querySelectorAll('#errors li')].map((li) => li.textContent),
    preChildren: pre.childNodes.length,
    preElements: pre.children.length,
  };
})()`

// openPopup opens the extension's popup page as a tab whose snapshot
// button reads tab, and returns its URL. It opens it through the DevTools
// protocol, as a person would by hand: agents cannot open or read grip's
// own pages (the policy's built-in rule), or they could click Allow.
func openPopup(t *testing.T, tab int) string {
	t.Helper()
	id, err := manifest.ExtensionID(extension.ManifestJSON)
	if err != nil {
		t.Fatal(err)
	}
	url := fmt.Sprintf("chrome-extension://%s/popup/popup.html?tab=%d", id, tab)
	openCDPTab(t, url)
	return url
}

// openCDPTab opens url in a new tab through the DevTools protocol, not
// through grip; the tab closes at the end of the test.
func openCDPTab(t *testing.T, url string) context.Context {
	t.Helper()
	ctx, cancel := chromedp.NewContext(env.BrowserContext())
	nctx, ncancel := context.WithTimeout(ctx, 30*time.Second)
	defer ncancel()
	if _, err := chromedp.Run(nctx, chromedp.Navigate(url)); err != nil {
		cancel()
		t.Fatalf("open %s: %v", url, err)
	}
	t.Cleanup(cancel) // closes the tab
	return ctx
}

// waitPopup re-reads the popup until ok accepts what it shows.
func waitPopup(t *testing.T, url string, timeout time.Duration, what string, ok func(popupView) bool) popupView {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		v := browsertest.Eval[popupView](t, env, url, readPopupJS)
		if ok(v) {
			return v
		}
		if time.Now().After(deadline) {
			b, _ := json.MarshalIndent(v, "", "  ")
			t.Fatalf("popup never showed %s within %s; it shows:\n%s", what, timeout, b)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

func TestPopupShowsConnectionAndLastSnapshot(t *testing.T) {
	browsertest.Need(t, env)
	tab := env.OpenTab(t, env.Origin1+"/checkout.html?card="+env.Origin2)
	// Wait for the card frame, so the snapshot reads both frames.
	waitSnapshot(t, tab, "Card number")
	var snap protocol.Snapshot
	if code := env.GripJSON(t, &snap, "snapshot", "--tab", fmt.Sprint(tab)); code != 0 {
		t.Fatalf("grip snapshot: exit %d: %+v", code, snap)
	}
	elements := 0
	for _, f := range snap.Frames {
		elements += len(f.Elements)
	}
	want := map[string]string{
		"tab":             fmt.Sprint(tab),
		"frames answered": fmt.Sprint(len(snap.Frames)),
		"frames skipped":  fmt.Sprint(len(snap.SkippedFrames)),
		"elements":        fmt.Sprint(elements),
		"tokens":          fmt.Sprintf("%d of %d", snap.Tokens, snap.Budget),
		"omitted":         fmt.Sprint(snap.Omitted),
	}
	if len(snap.Frames) < 2 || elements == 0 {
		t.Fatalf("snapshot reads %d frames, %d elements; want the page and its card frame", len(snap.Frames), elements)
	}

	url := openPopup(t, tab)
	v := waitPopup(t, url, 15*time.Second, "connected with the last snapshot", func(v popupView) bool {
		return v.State == "connected" && v.Last["elements"] != ""
	})
	for k, w := range want {
		if got := v.Last[k]; got != w {
			t.Errorf("popup's last snapshot %q = %q, want %q (from grip snapshot)", k, got, w)
		}
	}
	if v.StateError != "" {
		t.Errorf("popup shows a connection error while connected: %q", v.StateError)
	}
	for _, e := range v.Errors {
		if strings.Contains(e, "storage") || strings.Contains(e, "import") {
			t.Errorf("popup lists an error of its own: %q", e)
		}
	}
	if v.Facts["host pid"] == "" || v.Facts["protocol"] != fmt.Sprint(protocol.Version) {
		t.Errorf("popup facts lack the host: %v", v.Facts)
	}

	// "Snapshot this tab" reads the ?tab= tab and shows its text and figures.
	browsertest.Eval[bool](t, env, url, `document.getElementById('snapshot').click(), true`)
	v = waitPopup(t, url, 30*time.Second, "the snapshot text", func(v popupView) bool {
		return !v.TextHidden && v.Text != "" || strings.Contains(v.Figures, "failed")
	})
	if strings.Contains(v.Figures, "failed") {
		t.Fatalf("Snapshot this tab: %s", v.Figures)
	}
	if !strings.Contains(v.Text, "Checkout — Shop") || !strings.Contains(v.Text, "Card number") {
		t.Errorf("popup's snapshot text lacks the checkout page and its card frame:\n%s", v.Text)
	}
	if !strings.HasPrefix(v.Figures, fmt.Sprintf("%d tokens of %d", tokensOf(t, v.Figures), snap.Budget)) {
		t.Errorf("popup's figures %q do not give the tokens of the default budget %d", v.Figures, snap.Budget)
	}
	// The popup's own snapshot is now the last one, and it says so.
	waitPopup(t, url, 10*time.Second, "its own snapshot as the last one", func(v popupView) bool {
		return strings.HasPrefix(v.Figures, strings.Split(v.Last["tokens"], " of ")[0]+" tokens of ")
	})

	// A screenshot of the popup page, as a person sees it.
	ctx, cancel := env.TabContext(t, url)
	defer cancel()
	sctx, scancel := context.WithTimeout(ctx, 30*time.Second)
	defer scancel()
	shot, err := chromedp.Run(sctx, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatalf("screenshot of the popup: %v", err)
	}
	img, err := png.Decode(bytes.NewReader(shot))
	if err != nil {
		t.Fatalf("popup screenshot is not a PNG: %v", err)
	}
	if b := img.Bounds(); b.Dx() < 100 || b.Dy() < 100 {
		t.Errorf("popup screenshot is %v", b)
	}
	// Kept with `go test -artifacts`, for a person to look at.
	file := filepath.Join(t.ArtifactDir(), "popup.png")
	if err := os.WriteFile(file, shot, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("popup screenshot: %s (%d bytes, %v)", file, len(shot), img.Bounds())
}

// tokensOf returns the token count at the start of the popup's figures.
func tokensOf(t *testing.T, figures string) int {
	t.Helper()
	var n int
	if _, err := fmt.Sscanf(figures, "%d tokens", &n); err != nil || n <= 0 {
		t.Fatalf("popup figures %q do not start with a token count", figures)
	}
	return n
}

// waitSnapshot takes snapshots of tab until one contains want.
func waitSnapshot(t *testing.T, tab int, want string) {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for {
		var snap protocol.Snapshot
		if code := env.GripJSON(t, &snap, "snapshot", "--tab", fmt.Sprint(tab)); code == 0 && strings.Contains(snap.Text, want) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("tab %d never showed %q", tab, want)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// Page text reaches the popup as text: a title and a button that look like
// markup are shown literally, and no element is made from them.
func TestPopupShowsPageTextAsText(t *testing.T) {
	browsertest.Need(t, env)
	const evil = `<img src=x onerror="document.title='pwned'">`
	tab := env.OpenTab(t, env.Origin1+"/home.html?markup")
	browsertest.Eval[bool](t, env, env.Origin1+"/home.html?markup", fmt.Sprintf(`(() => {
	  document.title = %q;
	  const b = document.createElement('button');
	  b.textContent = %q;
	  document.body.append(b);
	  return true;
	})()`, evil, evil))
	url := openPopup(t, tab)
	waitPopup(t, url, 15*time.Second, "connected", func(v popupView) bool { return v.State == "connected" })
	browsertest.Eval[bool](t, env, url, `document.getElementById('snapshot').click(), true`)
	v := waitPopup(t, url, 30*time.Second, "the snapshot text", func(v popupView) bool {
		return !v.TextHidden && v.Text != "" || strings.Contains(v.Figures, "failed")
	})
	if strings.Contains(v.Figures, "failed") {
		t.Fatalf("Snapshot this tab: %s", v.Figures)
	}
	if !strings.Contains(v.Text, strings.ReplaceAll(evil, "'", `\'`)) { // quoted, as every page text grip prints
		t.Errorf("popup's snapshot text does not show the markup literally:\n%s", v.Text)
	}
	if v.Images != 0 || v.PreElemCount != 0 {
		t.Errorf("popup made elements from page text: %d <img>, %d elements in the <pre>", v.Images, v.PreElemCount)
	}
	if title := browsertest.Eval[string](t, env, url, `document.title`); title != "grip" {
		t.Errorf("popup's title became %q", title)
	}
}

// Reconnect drops the native port and connects again.
func TestPopupReconnect(t *testing.T) {
	browsertest.Need(t, env)
	tab := env.OpenTab(t, env.Origin1+"/home.html")
	url := openPopup(t, tab)
	before := waitPopup(t, url, 15*time.Second, "connected", func(v popupView) bool {
		return v.State == "connected" && v.Facts["host pid"] != ""
	})
	browsertest.Eval[bool](t, env, url, `document.getElementById('reconnect').click(), true`)
	after := waitPopup(t, url, 10*time.Second, "connected to a new host", func(v popupView) bool {
		return v.State == "connected" && v.Facts["host pid"] != "" && v.Facts["host pid"] != before.Facts["host pid"]
	})
	t.Logf("host pid %s → %s", before.Facts["host pid"], after.Facts["host pid"])
	// grip itself works through the new host.
	if code := env.GripJSON(t, &protocol.TabsResult{}, "tabs"); code != 0 {
		t.Errorf("grip tabs after Reconnect: exit %d", code)
	}
}

// The popup's part for the person's controls, as a person sees it: a
// question with Allow and Deny (also raised as a notification), the
// policy's error while the last good policy stays in force, this tab's
// rule, what agents did here; then the pause, from its own button.
func TestPopupShowsThePersonsControls(t *testing.T) {
	browsertest.Need(t, env)
	tab, snap := openAct(t)
	t.Cleanup(func() { unpause(t) }) // before the tab's close, which a pause refuses
	if _, perr, code := act(t, "fill", mustRef(t, snap, "textbox", "Name"), "Ada"); code != 0 {
		t.Fatalf("fill: %+v", perr)
	}
	setPolicy(t, "confirm "+hostOf(env.Origin1)+"\nconfirm-timeout = 60s\n")
	url := openPopup(t, tab)
	waitPopupUser(t, url, "this tab's rule", func(v userView) bool {
		return slicesContain(v.Policy, "this tab: confirm — rule \"confirm "+hostOf(env.Origin1)+"\" (line 1)")
	})
	// A broken save: the popup says so, the confirm rule stays.
	if err := os.WriteFile(policyFile(), []byte("confirm "+hostOf(env.Origin1)+"\nconfirm-timeout = 60s\nblock bank.example/login\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	beta := mustRef(t, snap, "button", "Beta")
	res := gripAsync(t, env, "click", beta, "--json")
	q := waitQuestion(t, url, "click "+beta)
	v := waitPopupUser(t, url, "the policy's error", func(v userView) bool { return strings.Contains(v.PolicyError, "line 3") })
	if !strings.Contains(v.PolicyError, "not a path") || !strings.Contains(v.PolicyError, "last good policy stays in force") {
		t.Errorf("policy error %q", v.PolicyError)
	}
	if len(v.Log) == 0 || !strings.Contains(v.Log[0], "fill") || strings.Contains(strings.Join(v.Log, " "), "Ada") {
		t.Errorf("popup log %q", v.Log)
	}
	notes := browsertest.Eval[map[string]bool](t, env, url, `chrome.notifications.getAll()`)
	raised := false
	for id := range notes {
		raised = raised || strings.HasPrefix(id, "grip-question-")
	}
	if !raised {
		t.Errorf("no notification for the question: %v", notes)
	}
	popupShot(t, url, "popup-question.png")
	clickAnswer(t, url, q, false)
	if r := <-res; r.Code != 1 || !strings.Contains(r.Stdout, "not_confirmed") {
		t.Errorf("denied click: exit %d %s", r.Code, r.Stdout)
	}
	notes = browsertest.Eval[map[string]bool](t, env, url, `chrome.notifications.getAll()`)
	for id := range notes {
		if strings.HasPrefix(id, "grip-question-") {
			t.Errorf("the answered question's notification %s is still shown", id)
		}
	}

	browsertest.Eval[bool](t, env, url, `document.getElementById('pause').click(), true`)
	v = waitPopupUser(t, url, "paused", func(v userView) bool { return v.PauseState == "agents paused" && v.PauseButton == "Resume agents" })
	if len(v.Questions) != 0 {
		t.Errorf("questions left: %v", v.Questions)
	}
	waitPopupUser(t, url, "the refused click in this tab's log", func(v userView) bool {
		return len(v.Log) > 0 && strings.Contains(v.Log[0], "not_confirmed")
	})
	popupShot(t, url, "popup-paused.png")
}

func slicesContain(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// popupShot saves a screenshot of the popup page as a test artifact.
func popupShot(t *testing.T, url, name string) {
	t.Helper()
	ctx, cancel := env.TabContext(t, url)
	defer cancel()
	sctx, scancel := context.WithTimeout(ctx, 30*time.Second)
	defer scancel()
	shot, err := chromedp.Run(sctx, chromedp.FullScreenshot(90))
	if err != nil {
		t.Fatalf("screenshot of the popup: %v", err)
	}
	if len(shot) < 1000 {
		t.Errorf("popup screenshot is %d bytes", len(shot))
	}
	file := filepath.Join(t.ArtifactDir(), name)
	if err := os.WriteFile(file, shot, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("popup screenshot: %s (%d bytes)", file, len(shot))
}

// The popup reads well at its own width (380 px): nothing scrolls
// sideways, and words wrap between words, not inside them (long URLs may
// break anywhere). With GRIP_SHOT_DIR set it also writes what it looks
// like there (run the e2e headed with GRIP_E2E_HEADED=1 under xvfb-run).
func TestPopupFitsItsWidth(t *testing.T) {
	browsertest.Need(t, env)
	openSessionTab(t, "a-session-with-a-rather-long-name", env.Origin1+"/guest.html?popupwidth")
	id, err := manifest.ExtensionID(extension.ManifestJSON)
	if err != nil {
		t.Fatal(err)
	}
	// Without ?tab the popup is about the tab in front: itself, an
	// extension page, which falls under the built-in rule.
	url := fmt.Sprintf("chrome-extension://%s/popup/popup.html", id)
	openCDPTab(t, url)
	ctx, cancel := env.TabContext(t, url)
	defer cancel()
	if _, err := chromedp.Run(ctx, chromedp.EmulateViewport(380, 900)); err != nil {
		t.Fatal(err)
	}
	// An ended session too, with its Let back in button.
	browsertest.Eval[any](t, env, url, `chrome.runtime.sendMessage({type: 'end_session', session: 'an-ended-session'}).then(() => null)`)
	t.Cleanup(func() {
		browsertest.Eval[any](t, env, url, `chrome.runtime.sendMessage({type: 'allow_session', session: 'an-ended-session'}).then(() => null)`)
	})
	waitPopupUser(t, url, "the built-in rule and the sessions", func(v userView) bool {
		return strings.Contains(strings.Join(v.Policy, "\n"), "built-in") &&
			browsertest.Eval[bool](t, env, url, `document.querySelector('#sessions li.session') !== null && document.querySelector('#sessions button.allow') !== null`)
	})
	type fit struct {
		ScrollWidth, ClientWidth int
		Broken                   []string
	}
	got := browsertest.Eval[fit](t, env, url, `(() => {
  const broken = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    if (!n.parentElement || n.parentElement.closest('[hidden]')) continue;
    const re = /[A-Za-z]{2,}/g;
    for (let m = re.exec(n.data); m; m = re.exec(n.data)) {
      const r = document.createRange();
      r.setStart(n, m.index);
      r.setEnd(n, m.index + m[0].length);
      const lines = new Set([...r.getClientRects()].filter((q) => q.width > 0).map((q) => Math.round(q.top)));
      if (lines.size > 1) broken.push(m[0]);
    }
  }
  return { scrollWidth: document.documentElement.scrollWidth, clientWidth: document.documentElement.clientWidth, broken };
})()`)
	if got.ScrollWidth > got.ClientWidth {
		t.Errorf("the popup scrolls sideways at 380 px: %d px of content in %d", got.ScrollWidth, got.ClientWidth)
	}
	if len(got.Broken) > 0 {
		t.Errorf("words broken across lines at 380 px: %v", got.Broken)
	}
	if dir := os.Getenv("GRIP_SHOT_DIR"); dir != "" {
		shot, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "popup-380.png"), shot, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// The popup asks the worker again every second and after every click;
// an answer that comes back late must not be drawn over a newer one (a
// question the person is about to answer taken away, one answered shown
// again). So a refresh waits for the one before it: while the worker's
// answer to one is held here, the popup asks nothing more, and it asks
// again once that answer is drawn.
func TestPopupDrawsAnswersInTheOrderAsked(t *testing.T) {
	browsertest.Need(t, env)
	tab, _ := openAct(t)
	url := openPopup(t, tab)
	waitPopupUser(t, url, "drawn once", func(v userView) bool { return v.PauseButton != "" })
	// Hold the worker's answer to the next 'person' request until released.
	browsertest.Eval[bool](t, env, url, `(() => {
  const send = chrome.runtime.sendMessage.bind(chrome.runtime);
  window.__events = [];
  window.__hold = true;
  let n = 0;
  chrome.runtime.sendMessage = (msg) => {
    if (!msg || msg.type !== 'person') return send(msg);
    const i = ++n, held = window.__hold;
    window.__hold = false;
    window.__events.push('ask ' + i + (held ? ' held' : ''));
    const reply = send(msg);
    if (!held) return reply.then((r) => { window.__events.push('reply ' + i); return r; });
    return new Promise((resolve) => { window.__release = () => reply.then((r) => { window.__events.push('reply ' + i); resolve(r); }); });
  };
  return true;
})()`)
	events := func() []string { return browsertest.Eval[[]string](t, env, url, `window.__events`) }
	until := func(bound time.Duration, ok func([]string) bool) bool {
		for deadline := time.Now().Add(bound); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
			if ok(events()) {
				return true
			}
		}
		return false
	}
	held := func(e []string) bool {
		return slices.ContainsFunc(e, func(s string) bool { return strings.HasSuffix(s, " held") })
	}
	if !until(10*time.Second, held) {
		t.Fatalf("the popup asked the worker nothing in 10 s: %v", events())
	}
	// Give the popup's timer its chance to ask again while the answer is
	// held (it must not): up to three of its seconds, less if it does.
	until(3*time.Second, func(e []string) bool { return len(e) > 1 })
	browsertest.Eval[bool](t, env, url, `(window.__release(), true)`)
	if !until(10*time.Second, func(e []string) bool {
		return slices.ContainsFunc(e, func(s string) bool { return strings.HasPrefix(s, "ask ") && !strings.HasSuffix(s, " held") })
	}) {
		t.Fatalf("the popup never asked again after the held answer: %v", events())
	}
	e := events()
	if len(e) < 3 || !strings.HasSuffix(e[0], " held") || !strings.HasPrefix(e[1], "reply 1") {
		t.Errorf("the popup asked again before the answer it waited for came back: %v", e)
	}
}
