package e2e

import (
	"fmt"
	"net"
	"strings"
	"testing"

	"github.com/grip-dev/grip/internal/browsertest"
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
