package e2e

import (
	"fmt"
	"io/fs"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/grip-dev/grip/internal/browsertest"
	"github.com/grip-dev/grip/policy"
	"github.com/grip-dev/grip/protocol"
)

// tabURL is the URL Chrome shows in tab, read through grip tabs.
func tabURL(t *testing.T, tab int) string {
	t.Helper()
	var tabs protocol.TabsResult
	if code := env.GripJSON(t, &tabs, "tabs"); code != 0 {
		t.Fatalf("grip tabs: exit %d", code)
	}
	for _, tb := range tabs.Tabs {
		if tb.ID == tab {
			return tb.URL
		}
	}
	t.Fatalf("tab %d is not listed", tab)
	return ""
}

// TestNavigateReadsURLsAsChrome: each way of writing the blocked origin
// that Chrome opens as that origin is refused by its rule, and the tab
// stays where it was; a string Chrome cannot load is bad_request, never a
// page of grip's own.
func TestNavigateReadsURLsAsChrome(t *testing.T) {
	browsertest.Need(t, env)
	tab := env.OpenTab(t, env.Origin2+"/home.html")
	start := tabURL(t, tab)
	port := env.Origin1[strings.LastIndexByte(env.Origin1, ':')+1:]
	setPolicy(t, "block 127.0.0.1\n")
	for _, u := range []string{
		"http:127.0.0.1:" + port + "/home.html",
		`http:\\127.0.0.1:` + port + `\home.html`,
		"http://127.0.0\t.1:" + port + "/home.html",
		"http://127.0.0.1\n:" + port + "/home.html",
		"http://127.0.0.%31:" + port + "/home.html",
		"http://１２７.０.０.１:" + port + "/home.html",
		"http://0x7f.1:" + port + "/home.html",
		"http://2130706433:" + port + "/home.html",
		"http://0177.0.0.1:" + port + "/home.html",
		"HTTP://127.0.0.1.:" + port + "/home.html",
	} {
		perr := refusal(t, "navigate", u, "--tab", fmt.Sprint(tab))
		wantPolicyRefusal(t, perr, `rule "block 127.0.0.1" (line 1)`)
		perr = refusal(t, "tabs", "new", u)
		wantPolicyRefusal(t, perr, `rule "block 127.0.0.1" (line 1)`)
	}
	for _, u := range []string{"not a url", "home.html", "//127.0.0.1/", ""} {
		perr := refusal(t, "navigate", u, "--tab", fmt.Sprint(tab))
		if perr.Code != protocol.CodeBadRequest || perr.Hint == "" {
			t.Errorf("navigate %q: %+v, want bad_request with a hint", u, perr)
		}
	}
	if got := tabURL(t, tab); got != start {
		t.Errorf("the tab went to %s, want it left on %s", got, start)
	}
}

// TestLocalFilesClosedByDefault: file:// is blocked under a policy that
// does not name it, by navigate and by tabs new.
func TestLocalFilesClosedByDefault(t *testing.T) {
	browsertest.Need(t, env)
	tab := env.OpenTab(t, env.Origin1+"/home.html")
	perr := refusal(t, "navigate", "file:///etc/hostname", "--tab", fmt.Sprint(tab))
	wantPolicyRefusal(t, perr, "file://")
	perr = refusal(t, "tabs", "new", "file:///etc/hostname")
	wantPolicyRefusal(t, perr, "file://")
	if got := tabURL(t, tab); strings.HasPrefix(got, "file:") {
		t.Errorf("the tab went to %s", got)
	}
}

// TestNavigationFailuresSaySo: a refused connection and an HTTP error
// answer navigation_failed with the status, for navigate and tabs new; an
// unknown tab id is bad_request with the hint to list tabs.
func TestNavigationFailuresSaySo(t *testing.T) {
	browsertest.Need(t, env)
	tab := env.OpenTab(t, env.Origin1+"/home.html")
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := "http://" + l.Addr().String() + "/"
	l.Close()
	for _, tt := range []struct{ url, status, says string }{
		{"http://127.0.0.1:1/", "net::ERR_UNSAFE_PORT", "did not load"},
		{closed, "net::ERR_CONNECTION_REFUSED", "did not load"},
		{env.Origin1 + "/no-such-page.html", "404", "HTTP 404"},
	} {
		for _, args := range [][]string{{"navigate", tt.url, "--tab", fmt.Sprint(tab)}, {"tabs", "new", tt.url}} {
			perr := refusal(t, args...)
			if perr.Code != protocol.CodeNavigationFailed || perr.Status != tt.status || !strings.Contains(perr.Message, tt.says) || perr.Hint == "" {
				t.Errorf("grip %s: %+v, want navigation_failed with status %s", strings.Join(args, " "), perr, tt.status)
			}
			if args[0] == "tabs" {
				var id int
				if _, err := fmt.Sscanf(perr.Message, "tab %d opened", &id); err != nil {
					t.Errorf("tabs new's failure does not name the tab it opened: %q", perr.Message)
				} else {
					env.MustGrip(t, "tabs", "close", fmt.Sprint(id))
				}
			}
		}
	}
	// A page that loads says ok.
	if _, perr, code := act(t, "navigate", env.Origin1+"/home.html", "--tab", fmt.Sprint(tab)); code != 0 {
		t.Errorf("navigate to a page that loads: %+v", perr)
	}
	for _, args := range [][]string{{"tabs", "select", "424242"}, {"navigate", env.Origin1 + "/home.html", "--tab", "424242"}, {"snapshot", "--tab", "424242"}} {
		perr := refusal(t, args...)
		if perr.Code != protocol.CodeBadRequest || !strings.Contains(perr.Message, "424242") || !strings.Contains(perr.Hint, "grip tabs") {
			t.Errorf("grip %s: %+v, want bad_request naming the tab, with the hint to list tabs", strings.Join(args, " "), perr)
		}
	}
}

// questionView is the popup's open question: its first line and the rest.
type questionView struct {
	First  string `json:"first"`
	Where  string `json:"where"`
	What   string `json:"what"`
	Top    int    `json:"top"`
	Bottom int    `json:"bottom"`
}

// TestQuestionPutsTheSiteFirst: the person's question names the site
// before anything the page controls, on a line of its own, and shows it
// in view however long the element's name is.
func TestQuestionPutsTheSiteFirst(t *testing.T) {
	browsertest.Need(t, env)
	tab := env.OpenTab(t, env.Origin1+"/longname.html")
	snap := snapshot(t, tab)
	pay := refOf(snap, "button", "")
	for _, e := range snap.Frames[0].Elements {
		if e.Role == "button" {
			pay = e.Ref
		}
	}
	setPolicy(t, "confirm "+hostOf(env.Origin1)+"\n")
	url := openPopup(t, tab)
	res := gripAsync(env, "click", pay, "--json")
	q := waitQuestion(t, url, "click "+pay)
	v := browsertest.Eval[questionView](t, env, url, `(() => {
  const p = document.querySelector('#questions .question > p');
  const where = p.firstElementChild;
  const r = where.getBoundingClientRect();
  return { first: p.firstChild === where ? 'origin' : 'other', where: where.textContent, what: p.lastElementChild.textContent,
    top: Math.round(r.top), bottom: Math.round(r.bottom) };
})()`)
	if v.First != "origin" || v.Where != "On "+env.Origin1 || !strings.HasPrefix(v.What, "Allow ") || !strings.Contains(v.What, "Pay the invoice") {
		t.Errorf("question %+v, want the site first on its own line", v)
	}
	if v.Top < 0 || v.Bottom <= v.Top {
		t.Errorf("the site's line is not in view: %+v", v)
	}
	popupShot(t, url, "question-site-first.png")
	clickAnswer(t, url, q, false)
	if r := <-res; r.Code != 1 {
		t.Errorf("denied click: exit %d %s", r.Code, r.Stdout)
	}
}

// TestQuestionHeadedShowsTheSite: in a headed browser under Xvfb, the
// person's question — the notification Chrome draws and the popup — shows
// the site before the element's long name. The screen is saved as an
// artifact (go test -artifacts) to look at; skipped without Xvfb.
func TestQuestionHeadedShowsTheSite(t *testing.T) {
	browsertest.Need(t, env)
	xvfb, err := exec.LookPath("Xvfb")
	if err != nil {
		t.Skip("Xvfb is not installed: no headed browser to look at")
	}
	display := startXvfb(t, xvfb)
	t.Setenv("DISPLAY", display)
	fixtures, err := fs.Sub(testdata, "testdata")
	if err != nil {
		t.Fatal(err)
	}
	e, err := browsertest.Start(browsertest.Options{Fixtures: fixtures, Bin: env.Bin, Headed: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := e.Close(); err != nil {
			t.Error(err)
		}
	})
	var opened protocol.ActionResult
	if code := gripOn(t, e, &opened, "tabs", "new", e.Origin1+"/longname.html"); code != 0 {
		t.Fatalf("tabs new: exit %d", code)
	}
	var snap protocol.Snapshot
	gripOn(t, e, &snap, "snapshot", "--tab", fmt.Sprint(opened.Tab.ID))
	pay := ""
	for _, el := range snap.Frames[0].Elements {
		if el.Role == "button" {
			pay = el.Ref
		}
	}
	if err := os.MkdirAll(e.StateDir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(policy.Path(e.StateDir), []byte("confirm "+hostOf(e.Origin1)+"\nconfirm-timeout = 8s\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	time.Sleep(1500 * time.Millisecond) // the host reads the policy again
	res := gripAsync(e, "click", pay, "--json")
	time.Sleep(2 * time.Second) // the notification slides in
	shot := filepath.Join(t.ArtifactDir(), "question-headed.png")
	if out, err := exec.Command("import", "-display", display, "-window", "root", shot).CombinedOutput(); err != nil {
		t.Logf("no X screenshot (ImageMagick's import): %v %s", err, out)
	} else {
		t.Logf("headed screen with the question: %s", shot)
	}
	if r := <-res; r.Code != 1 || !strings.Contains(r.Stdout, "not_confirmed") {
		t.Errorf("unanswered click: exit %d %s", r.Code, r.Stdout)
	}
}
