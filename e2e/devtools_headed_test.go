package e2e

import (
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"

	"github.com/grip-dev/grip/internal/browsertest"
	"github.com/grip-dev/grip/protocol"
)

// What a person sees while grip reads a page's console and requests, in a
// headed Chromium under Xvfb (docs/devtools.md, "Developer tools"):
// reading them attaches the debugger as a snapshot does; a console read
// replays what the page logged before grip came; a PDF and an element's
// screenshot of a tab behind another work or are refused in seconds. With GRIP_SHOT_DIR set,
// the screen is saved before and after (ImageMagick's import), to look at.
func TestDevtoolsBarInHeadedBrowser(t *testing.T) {
	browsertest.Need(t, env)
	fixtures, err := fs.Sub(testdata, "testdata")
	if err != nil {
		t.Fatal(err)
	}
	e := browsertest.StartHeaded(t, "headless Chromium shows no debugging bar", browsertest.Options{Fixtures: fixtures, Bin: env.Bin})
	shot := func(name string) {
		dir := os.Getenv("GRIP_SHOT_DIR")
		if dir == "" {
			return
		}
		if out, err := exec.Command("import", "-window", "root", filepath.Join(dir, name+".png")).CombinedOutput(); err != nil {
			t.Logf("import: %v %s", err, out)
		}
	}
	page := e.Origin1 + "/devtools.html?frame=" + e.Origin2
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
	// The height before grip is read once the page has loaded and run
	// all it logs (its window.ran, which waits for its frame and worker
	// too), not after a second "long enough": a read while the tab still
	// showed its first about:blank, or before the page had logged what
	// the console must replay, was the sleep's premise.
	before := browsertest.Eval[float64](t, e, page, `new Promise((resolve) => {
  const loaded = () => window.ran.then(() => resolve(innerHeight));
  if (document.readyState === 'complete') loaded(); else addEventListener('load', loaded, {once: true});
})`)
	shot("1-before-grip")
	var res protocol.ConsoleResult
	if code := gripOn(t, e, &res, "console", "--tab", fmt.Sprint(tab), "--level", "debug"); code != 0 {
		t.Fatalf("grip console: exit %d", code)
	}
	if !strings.Contains(res.Text, "boom at the top") || !strings.Contains(res.Text, "frame secret log") {
		t.Errorf("the console of a headed browser misses what was logged before grip came:\n%s", res.Text)
	}
	// The bar slides in over several frames after the attach: the height
	// after grip is read once the page has got shorter by at least half
	// the bar, not 500 ms later (the bar may not have moved by then on a
	// busy machine). Within a bound: a page that never gets shorter has
	// no bar, which is the failure below.
	after := before
	for deadline := time.Now().Add(20 * time.Second); before-after < 28 && time.Now().Before(deadline); {
		after = browsertest.Eval[float64](t, e, page, `new Promise((resolve) => requestAnimationFrame(() => resolve(innerHeight)))`)
		if before-after < 28 {
			time.Sleep(50 * time.Millisecond)
		}
	}
	shot("2-after-console")
	var net protocol.NetworkResult
	if code := gripOn(t, e, &net, "network", "--tab", fmt.Sprint(tab)); code != 0 {
		t.Fatalf("grip network: exit %d", code)
	}
	// A PDF and an element's screenshot of the tab, headed, while another
	// tab is in front: neither brings it forward.
	e.OpenTab(t, e.Origin1+"/home.html")
	out := filepath.Join(t.TempDir(), "headed.pdf")
	if r := e.Grip(t.Context(), "pdf", "--tab", fmt.Sprint(tab), "-o", out); r.Code != 0 {
		t.Errorf("grip pdf, headed: exit %d %s", r.Code, r.Stderr)
	} else if b, err := os.ReadFile(out); err != nil || !strings.HasPrefix(string(b), "%PDF") {
		t.Errorf("the headed PDF starts %.8q (%v)", b, err)
	}
	var snap protocol.Snapshot
	gripOn(t, e, &snap, "snapshot", "--tab", fmt.Sprint(tab))
	box := refOf(snap, "button", "Blue box")
	// A headed window may draw no frame of a tab behind another: the
	// screenshot is then refused within seconds, saying what to do.
	start := time.Now()
	r := e.Grip(t.Context(), "screenshot", box, "--json", "-o", filepath.Join(t.TempDir(), "bg.png"))
	switch {
	case r.Code == 0 && strings.Contains(r.Stdout, `"width":173`) && strings.Contains(r.Stdout, `"height":61`):
		t.Logf("element screenshot of the background tab: taken in %v", time.Since(start))
	case r.Code == 1 && strings.Contains(r.Stdout, `"not_actionable"`) && strings.Contains(r.Stdout, "tabs select") && time.Since(start) < 12*time.Second:
		t.Logf("element screenshot of the background tab: refused in %v: %s", time.Since(start), r.Stdout)
	default:
		t.Errorf("an element screenshot of a background tab, headed, after %v: exit %d: %s%s", time.Since(start), r.Code, r.Stdout, r.Stderr)
	}
	shot("3-after-pdf-and-shot")
	// The harness's browser, like the person's own Chrome, shows the
	// debugging bar once grip attaches (docs/debugger.md, "The
	// debugger"): the page gets shorter by the bar's height, and nothing
	// else of the page changes.
	t.Logf("innerHeight before grip %v, after grip console %v", before, after)
	if after >= before || before-after > 80 {
		t.Errorf("innerHeight %v → %v: want the debugging bar's height (about 56 px) taken from the page", before, after)
	}
}
