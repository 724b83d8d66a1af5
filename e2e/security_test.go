package e2e

import (
	"bufio"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/grip-dev/grip/extension"
	"github.com/grip-dev/grip/internal/browsertest"
	"github.com/grip-dev/grip/manifest"
	"github.com/grip-dev/grip/protocol"
	"github.com/grip-dev/grip/statedir"
)

// Security tests on the shared browser: a hostile page
// cannot see or steer grip, cannot message the extension or the host; the
// host refuses foreign origins, listens on no TCP port, is unreachable by
// another uid, and keeps passwords and page text out of snapshots and logs.

// openHostile opens hostile.html and waits for its script to finish.
func openHostile(t *testing.T) (tab int, url string) {
	t.Helper()
	id, err := manifest.ExtensionID(extension.ManifestJSON)
	if err != nil {
		t.Fatal(err)
	}
	url = env.Origin1 + "/hostile.html?ext=" + id
	tab = env.OpenTab(t, url)
	deadline := time.Now().Add(15 * time.Second)
	for !browsertest.Eval[bool](t, env, url, "!!window.__ready && window.__sendResult !== 'pending'") {
		if time.Now().After(deadline) {
			t.Fatal("hostile.html never finished loading")
		}
		time.Sleep(100 * time.Millisecond)
	}
	return tab, url
}

// pageState is what the hostile page can observe of itself.
type pageState struct {
	Calls      map[string]int `json:"calls"`
	Log        []string       `json:"log"`
	Owner      string         `json:"owner"`
	CacheKeys  []string       `json:"cacheKeys"`
	CacheType  string         `json:"cacheType"`
	NewGlobals []string       `json:"newGlobals"`
	HTML       string         `json:"html"`
	GripAttrs  int            `json:"gripAttrs"`
	Messages   int            `json:"messages"`
	SendResult string         `json:"sendResult"`
}

// Read without calling anything the page patched (no JSON.stringify, no
// querySelectorAll on document: Element's own would count too, so use
// getElementsByTagName and the attribute lists).
const readPageState = `(() => {
  const c = window.__gripRefCache__;
  const before = new Set(window.__globals);
  let gripAttrs = 0;
  for (const el of document.getElementsByTagName('*')) {
    for (const a of el.attributes) if (/grip/i.test(a.name) || /grip/i.test(a.value)) gripAttrs++;
  }
  return {
    calls: Object.assign({}, window.__calls),
    log: window.__log.slice(),
    owner: c && c.owner || '',
    cacheKeys: c ? Object.keys(c).sort() : [],
    cacheType: typeof c,
    newGlobals: Object.getOwnPropertyNames(window).filter((n) => !before.has(n)),
    html: document.documentElement.outerHTML,
    gripAttrs,
    messages: window.__messages.length,
    sendResult: window.__sendResult,
  };
})()`

func hostileState(t *testing.T, url string) pageState {
	t.Helper()
	return browsertest.Eval[pageState](t, env, url, readPageState)
}

// TestHostilePageCannotSeeOrSteerGrip: the page defines a fake
// __gripRefCache__, patches Element/HTMLElement/EventTarget/WeakMap/Map/
// document/JSON, fires fake events and messages. grip still reads the real
// elements with stable refs, clicks the real button, never calls one of
// the page's functions, and leaves no trace the page can see.
func TestHostilePageCannotSeeOrSteerGrip(t *testing.T) {
	browsertest.Need(t, env)
	tab, url := openHostile(t)
	before := hostileState(t, url)
	if before.Owner != "page" || before.CacheType != "object" {
		t.Fatalf("fixture did not install its fake cache: %+v", before)
	}
	// The page's own load-time calls are counted: make sure the patches
	// work at all, or the zero-delta check below proves nothing.
	if before.Calls["EventTarget.dispatchEvent"] == 0 || len(before.Log) == 0 {
		t.Fatalf("fixture patches not active: calls %v log %v", before.Calls, before.Log)
	}

	snap1 := snapshot(t, tab)
	snap2 := snapshot(t, tab)
	for _, want := range []struct{ role, name string }{
		{"button", "Real button"}, {"button", "Decoy button"}, {"textbox", "Your name"}, {"textbox", "Secret password"},
	} {
		r1, r2 := mustRef(t, snap1, want.role, want.name), mustRef(t, snap2, want.role, want.name)
		if r1 != r2 {
			t.Errorf("[%s '%s'] changed ref between snapshots: %s then %s", want.role, want.name, r1, r2)
		}
	}
	if snap1.Text != snap2.Text {
		t.Errorf("same page, different text:\n%s\n---\n%s", snap1.Text, snap2.Text)
	}
	real := mustRef(t, snap2, "button", "Real button")
	decoyRef := mustRef(t, snap2, "button", "Decoy button")
	if real == decoyRef {
		t.Fatalf("real and decoy share a ref: %s", real)
	}

	res, perr, code := act(t, "click", real)
	if code != 0 || !res.OK {
		t.Fatalf("click %s: exit %d %+v %+v", real, code, res, perr)
	}
	after := hostileState(t, url)

	// The click landed on the real button, through no page function.
	delta := after.Log[len(before.Log):]
	if strings.Join(delta, ",") != "real:synthetic" && strings.Join(delta, ",") != "real" {
		t.Errorf("page log after grip's click = %v, want exactly the real button (HIJACK means the page's click() ran; decoy means the fake cache was used)", delta)
	}
	for name, n := range after.Calls {
		if n != before.Calls[name] {
			t.Errorf("grip called the page's patched %s (%d → %d times)", name, before.Calls[name], n)
		}
	}
	// The page's fake cache is untouched and grip's is invisible.
	if after.Owner != "page" || strings.Join(after.CacheKeys, ",") != strings.Join(before.CacheKeys, ",") {
		t.Errorf("the page's __gripRefCache__ changed: %+v → %+v", before.CacheKeys, after.CacheKeys)
	}
	if len(after.NewGlobals) != len(before.NewGlobals) {
		t.Errorf("new globals in the page's world after grip ran: %v (before %v)", after.NewGlobals, before.NewGlobals)
	}
	if after.GripAttrs != 0 {
		t.Errorf("grip left %d attributes the page can see", after.GripAttrs)
	}
	if after.HTML != before.HTML {
		t.Errorf("grip changed the page's DOM markup:\nbefore: %s\nafter:  %s", before.HTML, after.HTML)
	}
	// No real Element is reachable from the page's globals through a Map
	// or WeakMap-like cache that grip filled.
	leaked := browsertest.Eval[[]string](t, env, url, `(() => {
	  const out = [];
	  for (const n of Object.getOwnPropertyNames(window)) {
	    let v; try { v = window[n]; } catch (_) { continue; }
	    if (v && typeof v === 'object' && v.byId && v.byId instanceof Map) out.push(n);
	    if (v instanceof Map) for (const x of v.values()) if (x instanceof Element) { out.push(n); break; }
	  }
	  return out;
	})()`)
	if len(leaked) > 0 {
		t.Errorf("element caches visible in the page's world: %v", leaked)
	}
	// The page's messages reached nothing: no reply came back.
	if after.Messages != 0 {
		t.Errorf("the page received %d messages from elsewhere", after.Messages)
	}
	if strings.HasPrefix(after.SendResult, "response:") {
		t.Errorf("the page messaged the extension and got an answer: %s", after.SendResult)
	}
	t.Logf("page's sendMessage to grip: %s", after.SendResult)

	// A fresh snapshot still sees the real elements under the same refs.
	snap3 := snapshot(t, tab)
	if got := mustRef(t, snap3, "button", "Real button"); got != real {
		t.Errorf("real button ref moved after the click: %s → %s", real, got)
	}
}

// TestExtensionNotReachableFromPages: no externally_connectable, no
// external listener, and the one runtime.onMessage listener checks that
// the sender is one of the extension's own pages (not a tab).
func TestExtensionNotReachableFromPages(t *testing.T) {
	var m map[string]any
	if err := json.Unmarshal(extension.ManifestJSON, &m); err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{"externally_connectable", "content_scripts", "web_accessible_resources"} {
		if _, ok := m[key]; ok {
			t.Errorf("manifest declares %s: pages could reach the extension", key)
		}
	}
	external := regexp.MustCompile(`onMessageExternal|onConnectExternal|onUserScriptMessage|onUserScriptConnect`)
	onMessage := regexp.MustCompile(`runtime\.onMessage\.addListener\(`)
	onConnect := regexp.MustCompile(`runtime\.onConnect\.addListener\(`)
	keeperCheck := regexp.MustCompile(`^\(?port\)?\s*=>\s*\{\s*if\s*\(\s*!isKeeperPort\(port\)\s*\)\s*\{\s*port\.disconnect\(\);\s*return;`)
	// The listener's first statement: if (sender.id !== chrome.runtime.id
	// || <not one of our pages: sender.tab / sender.url / sender.origin>) return …
	senderCheck := regexp.MustCompile(`^[^{]*\{\s*if\s*\(\s*sender\.id\s*!==\s*chrome\.runtime\.id\s*\|\|[^;{]*sender\.(tab|url|origin)[^;{]*\)\s*return\b`)
	listeners := 0
	err := fs.WalkDir(extension.Files(), ".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".js") {
			return err
		}
		b, err := fs.ReadFile(extension.Files(), path)
		if err != nil {
			return err
		}
		src := string(b)
		if loc := external.FindStringIndex(src); loc != nil {
			t.Errorf("%s listens for other extensions or pages: %s", path, src[loc[0]:loc[1]])
		}
		if i := strings.Index(src, "export function isKeeperPort("); i >= 0 {
			body := src[i:min(len(src), i+400)]
			if !strings.Contains(body, "s.id === chrome.runtime.id") || !strings.Contains(body, "s.url === chrome.runtime.getURL(") {
				t.Errorf("%s: isKeeperPort does not check that the port comes from our own keeper page:\n%s", path, body)
			}
		}
		for _, loc := range onConnect.FindAllStringIndex(src, -1) {
			// The one port grip takes is its keeper document's
			// (extension/worker/lifetime.js): the listener must refuse every
			// other port first.
			body := src[loc[1]:min(len(src), loc[1]+120)]
			if !keeperCheck.MatchString(body) {
				t.Errorf("%s accepts runtime.onConnect ports without refusing senders that are not our keeper page first:\n%s", path, body)
			}
		}
		for _, loc := range onMessage.FindAllStringIndex(src, -1) {
			listeners++
			// The sender check must open the listener's body.
			body := src[loc[1]:min(len(src), loc[1]+200)]
			if !senderCheck.MatchString(body) {
				t.Errorf("%s: runtime.onMessage listener does not refuse senders outside the extension first:\n%s", path, body)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if listeners == 0 {
		t.Log("no runtime.onMessage listener at all")
	}
}

// TestHostRefusesForeignOrigin: the host will not run for an extension it
// does not know: exit 2, a message on stderr, nothing on stdout (which
// belongs to Chrome's framing).
func TestHostRefusesForeignOrigin(t *testing.T) {
	bin := env.BinOrSkip(t)
	state := t.TempDir()
	for _, origin := range []string{
		"chrome-extension://aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa/",
		"chrome-extension://not-an-id/",
		"chrome-extension://",
	} {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		r := browsertest.RunGrip(ctx, bin, state, origin)
		cancel()
		if r.Code != 2 {
			t.Errorf("%s: exit %d, want 2 (stderr %q)", origin, r.Code, r.Stderr)
		}
		if r.Stdout != "" {
			t.Errorf("%s: wrote %q on stdout", origin, r.Stdout)
		}
		if !strings.Contains(r.Stderr, "refusing") || !strings.Contains(r.Stderr, origin) {
			t.Errorf("%s: stderr does not say why: %q", origin, r.Stderr)
		}
	}
	// No socket was published for it.
	if hosts, _ := filepath.Glob(filepath.Join(statedir.At(state).Runtime, "*.sock")); len(hosts) > 0 {
		t.Errorf("a refused host opened sockets: %v", hosts)
	}
}

// liveHost returns the info of the shared env's connected host.
func liveHost(t *testing.T) protocol.HostInfo {
	t.Helper()
	var tabs protocol.TabsResult
	if code := env.GripJSON(t, &tabs, "tabs"); code != 0 {
		t.Fatalf("grip tabs: exit %d", code)
	}
	files, _ := filepath.Glob(filepath.Join(statedir.At(env.StateDir).Runtime, "*.json"))
	for _, f := range files {
		var info protocol.HostInfo
		if b, err := os.ReadFile(f); err == nil && json.Unmarshal(b, &info) == nil && info.PID > 0 {
			if _, err := os.Stat(fmt.Sprintf("/proc/%d", info.PID)); err == nil {
				return info
			}
		}
	}
	t.Fatalf("no live host published in %s", env.StateDir)
	return protocol.HostInfo{}
}

// TestHostListensOnNoTCPPort: the real host, started by Chromium and
// serving, holds no listening TCP socket (only its unix socket).
func TestHostListensOnNoTCPPort(t *testing.T) {
	browsertest.Need(t, env)
	info := liveHost(t)
	fds, err := os.ReadDir(fmt.Sprintf("/proc/%d/fd", info.PID))
	if err != nil {
		t.Skipf("cannot read the host's fds: %v", err)
	}
	inodes := map[string]bool{}
	sockets := 0
	for _, fd := range fds {
		link, err := os.Readlink(fmt.Sprintf("/proc/%d/fd/%s", info.PID, fd.Name()))
		if err == nil && strings.HasPrefix(link, "socket:[") {
			inodes[strings.TrimSuffix(strings.TrimPrefix(link, "socket:["), "]")] = true
			sockets++
		}
	}
	if sockets == 0 {
		t.Fatalf("host %d holds no socket at all: the scan is wrong", info.PID)
	}
	for _, table := range []string{"/proc/net/tcp", "/proc/net/tcp6"} {
		f, err := os.Open(table)
		if err != nil {
			continue
		}
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			fields := strings.Fields(sc.Text())
			if len(fields) >= 10 && fields[3] == "0A" && inodes[fields[9]] {
				t.Errorf("host %d listens on TCP: %s %s", info.PID, table, fields[1])
			}
		}
		f.Close()
	}
	// And the unix socket is where it should be, 0600 in a 0700 dir.
	for path, want := range map[string]os.FileMode{filepath.Dir(info.Socket): 0o700, info.Socket: 0o600} {
		st, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		if st.Mode().Perm() != want {
			t.Errorf("%s mode %v, want %v", path, st.Mode().Perm(), want)
		}
	}
}

// TestOtherUserCannotUseTheHost: grip run as uid 65534 (setpriv) against
// the owner's state dir reaches neither the socket nor the host. The
// peer-uid check behind the file permissions is tested in package host
// (TestSocketRefusesOtherUID).
func TestOtherUserCannotUseTheHost(t *testing.T) {
	browsertest.Need(t, env)
	info := liveHost(t)
	setpriv, err := exec.LookPath("setpriv")
	if err != nil {
		t.Skip("setpriv (util-linux) not installed")
	}
	if os.Getuid() != 0 {
		t.Skipf("running as uid %d: switching to uid 65534 needs root", os.Getuid())
	}
	dir, err := os.MkdirTemp("", "gripsec")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)
	os.Chmod(dir, 0o755)
	bin := filepath.Join(dir, "grip")
	copyFile(t, env.Bin, bin, 0o755)
	// Open the test's own temp dirs above grip's, so what stops uid 65534
	// is grip's runtime dir (0700), not the harness's private temp root.
	for _, d := range []string{env.Root, env.StateDir} {
		st, err := os.Stat(d)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(d, 0o711); err != nil {
			t.Fatal(err)
		}
		defer os.Chmod(d, st.Mode().Perm())
	}
	for _, args := range [][]string{{"tabs", "--json", "--wait", "1s"}, {"status", "--json", "--wait", "1s"}} {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		cmd := exec.CommandContext(ctx, setpriv, append([]string{"--reuid=65534", "--regid=65534", "--clear-groups", "--", bin}, args...)...)
		cmd.Dir = dir
		cmd.Env = []string{"GRIP_STATE_DIR=" + env.StateDir, "HOME=" + dir, "PATH=/usr/bin:/bin"}
		out, err := cmd.CombinedOutput()
		cancel()
		if err == nil {
			t.Fatalf("grip %v as uid 65534 succeeded against %s:\n%s", args, info.Socket, out)
		}
		if strings.Contains(string(out), "operation not permitted") && strings.Contains(string(out), "setpriv") {
			t.Skipf("setpriv cannot switch uid here: %s", out)
		}
		if strings.Contains(string(out), info.Profile) || strings.Contains(string(out), `"tabs"`) {
			t.Errorf("grip %v as uid 65534 got an answer:\n%s", args, out)
		}
		if !strings.Contains(string(out), "permission denied") && !strings.Contains(string(out), "operation not permitted") {
			t.Errorf("grip %v as uid 65534 failed, but not by permission:\n%s", args, out)
		}
		t.Logf("grip %v as uid 65534: %s", args, strings.TrimSpace(string(out)))
	}
	// A raw connect to the socket itself, bypassing grip's CLI.
	// (A system python3 other users may run: not a shim under /root.)
	if py := worldExecutable("/usr/bin/python3", "/usr/local/bin/python3"); py == "" {
		t.Log("no system python3: raw connect as uid 65534 not tried (package host tests it)")
	} else {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		cmd := exec.CommandContext(ctx, setpriv, "--reuid=65534", "--regid=65534", "--clear-groups", "--", py, "-c",
			"import socket,sys\ns=socket.socket(socket.AF_UNIX)\ntry:\n s.connect(sys.argv[1]); print('CONNECTED')\nexcept OSError as e:\n print('REFUSED', e)", info.Socket)
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		cancel()
		if err != nil || !strings.Contains(string(out), "REFUSED") || !strings.Contains(string(out), "Permission denied") {
			t.Errorf("raw connect to %s as uid 65534: %v\n%s", info.Socket, err, out)
		}
		t.Logf("raw connect as uid 65534: %s", strings.TrimSpace(string(out)))
	}
	// The owner still is served.
	liveHost(t)
}

// worldExecutable returns the first of paths that any user may execute.
func worldExecutable(paths ...string) string {
	for _, p := range paths {
		if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() && st.Mode().Perm()&0o001 != 0 {
			return p
		}
	}
	return ""
}

func copyFile(t *testing.T, from, to string, mode os.FileMode) {
	t.Helper()
	src, err := os.Open(from)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	dst, err := os.OpenFile(to, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, mode)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(dst, src); err != nil {
		t.Fatal(err)
	}
	if err := dst.Close(); err != nil {
		t.Fatal(err)
	}
}

func marker(t *testing.T, prefix string) string {
	t.Helper()
	b := make([]byte, 6)
	if _, err := rand.Read(b); err != nil {
		t.Fatal(err)
	}
	return prefix + hex.EncodeToString(b)
}

// TestSecretsStayOutOfSnapshotsAndLogs: a password typed through grip
// never appears in a snapshot (JSON or text); typed text may appear as
// the field's value in a snapshot (that is what the agent reads) but never
// in the host's log, and neither does any page text unless GRIP_DEBUG is
// set for the host.
func TestSecretsStayOutOfSnapshotsAndLogs(t *testing.T) {
	browsertest.Need(t, env)
	tab, url := openHostile(t)
	pw, typed := marker(t, "pw-"), marker(t, "tx-")
	snap := snapshot(t, tab)
	pwRef := mustRef(t, snap, "textbox", "Secret password")
	nameRef := mustRef(t, snap, "textbox", "Your name")
	for _, a := range [][]string{{"fill", pwRef, pw}, {"fill", nameRef, typed}, {"type", pwRef, "+more"}} {
		if _, perr, code := act(t, a...); code != 0 {
			t.Fatalf("grip %v: exit %d %+v", a, code, perr)
		}
	}
	// Not vacuous: the page really holds both values.
	if got := browsertest.Eval[string](t, env, url, `document.getElementById('pw').value + '|' + document.getElementById('name').value`); got != pw+"+more|"+typed {
		t.Fatalf("page values = %q, want %q", got, pw+"+more|"+typed)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	var outputs []string
	for _, args := range [][]string{
		{"snapshot", "--tab", fmt.Sprint(tab), "--json"},
		{"snapshot", "--tab", fmt.Sprint(tab)},
		{"snapshot", "--tab", fmt.Sprint(tab), "--mode", "content", "--json"},
		{"snapshot", "--tab", fmt.Sprint(tab), "--mode", "content"},
	} {
		r := env.Grip(ctx, args...)
		if r.Code != 0 {
			t.Fatalf("grip %v: exit %d: %s", args, r.Code, r.Stderr)
		}
		outputs = append(outputs, r.Stdout)
		if strings.Contains(r.Stdout, pw) || strings.Contains(r.Stderr, pw) {
			t.Errorf("grip %v shows the password:\n%s", args, r.Stdout)
		}
	}
	// The text field's value is what the agent reads: it must be there,
	// or the password check above could pass by reporting no values at all.
	if !strings.Contains(outputs[1], "value='"+typed+"'") {
		t.Errorf("typed text missing from the snapshot (values not reported at all?):\n%s", outputs[1])
	}
	if !strings.Contains(outputs[3], "Hx7-heading-text") {
		t.Errorf("content snapshot lacks the heading, so the log check below proves nothing:\n%s", outputs[3])
	}
	if os.Getenv("GRIP_DEBUG") != "" {
		t.Skip("GRIP_DEBUG is set for the host: its log may hold page text")
	}
	logPath := filepath.Join(statedir.At(env.StateDir).Logs, "host.log")
	logs := readFile(t, logPath)
	if len(logs) == 0 {
		t.Fatalf("%s is empty: the host logs nothing, so this test proves nothing", logPath)
	}
	for _, secret := range []string{pw, typed, "Hx7-heading-text", "Px7-prose-text", "Real button", "Secret password", "Your name"} {
		if strings.Contains(string(logs), secret) {
			t.Errorf("host log holds %q", secret)
		}
	}
}
