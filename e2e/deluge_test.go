package e2e

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/cookiejar"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/grip-dev/grip/internal/browsertest"
	"github.com/grip-dev/grip/protocol"
)

// deluge is Deluge 2's daemon and web UI (Debian's deluged and
// deluge-web: an ExtJS 3 app with no ARIA) on loopback ports of their own,
// with a config folder of the test's; the web UI's password is "deluge".
type deluge struct {
	url string // the web UI, http://127.0.0.1:PORT
	dir string // the config folder both share
	api *http.Client
}

// startDeluge starts both for t and stops them when t ends. Without the
// packages it skips, unless a browser is required.
func startDeluge(t *testing.T) *deluge {
	t.Helper()
	browsertest.Need(t, env)
	daemon, err1 := exec.LookPath("deluged")
	web, err2 := exec.LookPath("deluge-web")
	if err1 != nil || err2 != nil {
		if os.Getenv(browsertest.RequireEnv) != "" {
			t.Fatal("Deluge is not installed: apt-get install -y deluged deluge-web (scripts/setup --js does it)")
		}
		t.Skip("Deluge is not installed (apt-get install -y deluged deluge-web)")
	}
	dir := t.TempDir()
	dport, wport := browsertest.FreePort(t), browsertest.FreePort(t)
	run(t, dir, daemon, "-d", "-c", dir, "-p", fmt.Sprint(dport), "-i", "127.0.0.1", "-u", "127.0.0.1", "-L", "error", "-l", filepath.Join(dir, "deluged.log"))
	// The daemon writes its local client's password at start: the web UI
	// connects to it with that, by the host list, as soon as one logs in.
	var pass string
	within(t, 30*time.Second, "deluged's auth file and port", func() bool {
		b, err := os.ReadFile(filepath.Join(dir, "auth"))
		if err != nil {
			return false
		}
		for _, line := range strings.Split(string(b), "\n") {
			if f := strings.Split(line, ":"); len(f) >= 2 && f[0] == "localclient" {
				pass = f[1]
			}
		}
		c, err := net.Dial("tcp", fmt.Sprint("127.0.0.1:", dport))
		if err == nil {
			c.Close()
		}
		return pass != "" && err == nil
	})
	const host = "9e7a0e11c0de4b7e9e7a0e11c0de4b7e"
	write := func(name, head, body string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(head+body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write("hostlist.conf", `{"file": 3, "format": 1}`, fmt.Sprintf(`{"hosts": [[%q, "127.0.0.1", %d, "localclient", %q]]}`, host, dport, pass))
	write("web.conf", `{"file": 2, "format": 1}`, fmt.Sprintf(`{"default_daemon": %q, "first_login": false, "port": %d, "interface": "127.0.0.1"}`, host, wport))
	run(t, dir, web, "-d", "-c", dir, "-p", fmt.Sprint(wport), "-i", "127.0.0.1", "-L", "error", "-l", filepath.Join(dir, "web.log"))
	d := &deluge{url: fmt.Sprint("http://127.0.0.1:", wport), dir: dir}
	jar, _ := cookiejar.New(nil)
	d.api = &http.Client{Jar: jar, Timeout: 10 * time.Second}
	within(t, 30*time.Second, "deluge-web", func() bool {
		r, err := http.Get(d.url + "/")
		if err != nil {
			return false
		}
		r.Body.Close()
		return r.StatusCode == http.StatusOK
	})
	if ok := d.call(t, "auth.login", "deluge"); ok != true {
		t.Fatalf("the web UI refused its password: %v", ok)
	}
	within(t, 30*time.Second, "the web UI connected to the daemon", func() bool {
		if d.call(t, "web.connected") == true {
			return true
		}
		d.call(t, "web.connect", host)
		return false
	})
	return d
}

// call asks the web UI's own JSON-RPC API, as its pages do, and returns
// the result.
func (d *deluge) call(t *testing.T, method string, params ...any) any {
	t.Helper()
	res, err := d.try(method, params...)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// try is call, with its failure returned.
func (d *deluge) try(method string, params ...any) (any, error) {
	if params == nil {
		params = []any{}
	}
	body, _ := json.Marshal(map[string]any{"method": method, "params": params, "id": 1})
	r, err := d.api.Post(d.url+"/json", "application/json", bytes.NewReader(body))
	if err != nil {
		return nil, fmt.Errorf("%s: %v", method, err)
	}
	defer r.Body.Close()
	var out struct {
		Result any `json:"result"`
		Error  any `json:"error"`
	}
	if err := json.NewDecoder(r.Body).Decode(&out); err != nil || out.Error != nil {
		return nil, fmt.Errorf("%s: %v %v", method, err, out.Error)
	}
	return out.Result, nil
}

// torrents are the daemon's torrents' names, by the API.
func (d *deluge) torrents(t *testing.T) []string {
	t.Helper()
	var names []string
	all, _ := d.call(t, "core.get_torrents_status", map[string]any{}, []string{"name"}).(map[string]any)
	for _, v := range all {
		if m, ok := v.(map[string]any); ok {
			names = append(names, fmt.Sprint(m["name"]))
		}
	}
	slices.Sort(names)
	return names
}

// run starts a program in its own process group, killed with it at t's end.
func run(t *testing.T, dir, bin string, args ...string) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Env = append(os.Environ(), "HOME="+dir)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatalf("start %s: %v", bin, err)
	}
	t.Cleanup(func() {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM)
		done := make(chan struct{})
		go func() { cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
			<-done
		}
	})
}

// TestDelugeAsANewUserFoundIt: Deluge's web UI, driven as an agent did
// it with only the README (helper-40, helper-41): the login by Enter is
// answered with what it showed (the app reads its XHR's answer on a
// 50 ms interval, after the page had changed nothing); the preferences'
// box-and-folder pair is named by its item's label and the two Maximum
// Connections fields told apart by their fieldsets; the torrent list's
// records are rows, selectable, whose right-click opens the app's own
// menu, and its Remove Torrent removes the torrent, by the app's API.
func TestDelugeAsANewUserFoundIt(t *testing.T) {
	d := startDeluge(t)
	for _, magnet := range []string{
		"magnet:?xt=urn:btih:aaaa56789abcdef0123456789abcdef012345678&dn=first-one",
		"magnet:?xt=urn:btih:bbbb56789abcdef0123456789abcdef012345678&dn=second-one",
	} {
		// The web UI learns the daemon's methods a moment after it connects.
		within(t, 20*time.Second, "the daemon's methods in the web UI", func() bool {
			_, err := d.try("core.add_torrent_magnet", magnet, map[string]any{"add_paused": true})
			return err == nil
		})
	}
	tab := env.OpenTab(t, d.url+"/")
	var snap protocol.Snapshot
	within(t, 20*time.Second, "the login window", func() bool {
		snap = snapshot(t, tab)
		return refOf(snap, "textbox", "Password:") != ""
	})
	pw := mustRef(t, snap, "textbox", "Password:")
	if _, perr, code := act(t, "type", pw, "deluge"); code != 0 {
		t.Fatalf("type: %+v", perr)
	}
	res, perr, code := act(t, "press", "Enter", pw)
	if code != 0 || !slices.Contains(res.Changes.Gone, pw) {
		t.Fatalf("the login by Enter: exit %d %+v, gone %v: want the login window gone", code, perr, res.Changes.Gone)
	}

	var row string
	within(t, 20*time.Second, "the torrent list's rows", func() bool {
		snap = snapshot(t, tab)
		for _, f := range snap.Frames {
			for _, e := range f.Elements {
				if e.Role == "row" && strings.Contains(e.Name, "first-one") {
					row = e.Ref
				}
			}
		}
		return row != ""
	})
	if _, perr, code := act(t, "click", row); code != 0 {
		t.Fatalf("click the row: %+v", perr)
	}
	menu, perr, code := act(t, "rightclick", row)
	if code != 0 || refOfList(menu.Changes.Appeared, "link", "Remove Torrent") == "" {
		t.Fatalf("right-click the row: exit %d %+v, appeared %+v: want the app's menu", code, perr, menu.Changes.Appeared)
	}
	dialog, perr, code := act(t, "click", refOfList(menu.Changes.Appeared, "link", "Remove Torrent"))
	if code != 0 {
		t.Fatalf("click Remove Torrent: %+v", perr)
	}
	confirm := refOfList(dialog.Changes.Appeared, "button", "Remove Torrent")
	if confirm == "" {
		t.Fatalf("the remove dialog: appeared %+v", dialog.Changes.Appeared)
	}
	if _, perr, code := act(t, "click", confirm); code != 0 {
		t.Fatalf("confirm the removal: %+v", perr)
	}
	within(t, 10*time.Second, "the torrent removed, by the app's API", func() bool {
		return slices.Equal(d.torrents(t), []string{"second-one"})
	})

	prefs, perr, code := act(t, "click", mustRef(t, snapshot(t, tab), "button", "Preferences"))
	if code != 0 {
		t.Fatalf("Preferences: %+v", perr)
	}
	for _, role := range []string{"checkbox", "textbox"} {
		if refOfList(prefs.Changes.Appeared, role, "Move completed to:") == "" {
			t.Errorf("no [%s 'Move completed to:'] in the preferences: %+v", role, prefs.Changes.Appeared)
		}
	}
	bw, perr, code := act(t, "click", mustRef(t, snapshot(t, tab), "clickable", "Bandwidth"))
	if code != 0 {
		t.Fatalf("Bandwidth: %+v", perr)
	}
	var contexts []string
	for _, e := range bw.Changes.Appeared {
		if e.Role == "textbox" && e.Name == "Maximum Connections:" {
			contexts = append(contexts, e.Context)
		}
	}
	if !slices.Equal(contexts, []string{"Global Bandwidth Usage", "Per Torrent Bandwidth Usage"}) {
		t.Errorf("the two Maximum Connections fields have contexts %q, want their fieldsets'", contexts)
	}
}
