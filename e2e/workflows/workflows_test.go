package workflows_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/grip-dev/grip/internal/browsertest"
	"github.com/grip-dev/grip/workflow"
)

// refOf returns the ref of the first snapshot line that holds what.
func refOf(t *testing.T, snap, what string) string {
	t.Helper()
	for _, l := range strings.Split(snap, "\n") {
		if m := regexp.MustCompile(`^(@e\d+): (.*)$`).FindStringSubmatch(l); m != nil && strings.Contains(m[2], what) {
			return m[1]
		}
	}
	t.Fatalf("no line with %q in:\n%s", what, snap)
	return ""
}

// grip runs grip and returns stdout, stderr and the exit code.
func grip(args ...string) browsertest.Result {
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	return env.Grip(ctx, args...)
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestRecordSignInThenReplayWithOtherParameters: an agent signs in on a
// form, marking the email as a parameter; the password field's text is a
// secret, recorded only as a placeholder. The replay with other values
// fills and submits the form as the recording did; on a changed page it
// stops at the button that is no longer there and clicks nothing.
func TestRecordSignInThenReplayWithOtherParameters(t *testing.T) {
	browsertest.Need(t, env)
	login := env.Origin1 + "/testdata/login.html"
	tab := fmt.Sprint(env.OpenTab(t, login))
	file := filepath.Join(t.TempDir(), "signin.grip")

	env.MustGrip(t, "record", "start", file)
	if out := env.MustGrip(t, "record", "status"); !strings.Contains(out, "recording into "+file) {
		t.Fatalf("record status: %s", out)
	}
	snap := env.MustGrip(t, "snapshot", "--tab", tab)
	env.MustGrip(t, "fill", refOf(t, snap, "[textbox 'Email'"), "ann@example.com", "--param", "EMAIL")
	env.MustGrip(t, "fill", refOf(t, snap, "[textbox 'Password'"), "hunter2-s3cret")
	env.MustGrip(t, "select", refOf(t, snap, "[combobox 'Branch'"), "South")
	// A refused action is no step, and stop says one was left out.
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if r := env.Grip(ctx, "click", "#no-such-button", "--tab", tab); r.Code == 0 {
		t.Fatalf("a click on nothing succeeded: %s", r.Stdout)
	}
	env.MustGrip(t, "click", refOf(t, snap, "[button 'Sign in'"))
	out := env.MustGrip(t, "record", "stop")
	if !strings.Contains(out, "wrote 4 steps to "+file) || !strings.Contains(out, "EMAIL, PASSWORD") || !strings.Contains(out, "1 action refused while recording is not in it") {
		t.Fatalf("record stop: %s", out)
	}
	text := readFile(t, file)
	t.Logf("the recorded workflow:\n%s", text)
	for _, secret := range []string{"hunter2-s3cret", "ann@example.com"} {
		if strings.Contains(text, secret) {
			t.Fatalf("the workflow holds %q:\n%s", secret, text)
		}
	}
	origin := strings.TrimSuffix(env.Origin1, "/")
	for _, want := range []string{
		"fill textbox 'Email' with '{{EMAIL}}' at " + origin,
		"fill textbox 'Password' with '{{PASSWORD}}' at " + origin,
		"select combobox 'Branch' with 'South' at " + origin,
		"click button 'Sign in' at " + origin + " then url '" + origin + "/testdata/welcome.html'",
	} {
		if !strings.Contains(text, want+"\n") {
			t.Errorf("the workflow lacks the line %q:\n%s", want, text)
		}
	}
	w, err := workflow.Parse(strings.NewReader(text))
	if err != nil || len(w.Steps) != 4 {
		t.Fatalf("the file does not parse back: %v", err)
	}

	// Replayed with other values, by a run with no model.
	env.MustGrip(t, "navigate", "--tab", tab, login)
	out = env.MustGrip(t, "replay", file, "--tab", tab, "--param", "EMAIL=bob@example.com", "--param", "PASSWORD=pw-two")
	if !strings.Contains(out, "replayed 4 steps") {
		t.Fatalf("replay: %s", out)
	}
	url := env.TabURL(t, mustAtoi(t, tab))
	if !strings.Contains(url, "/testdata/welcome.html") {
		t.Fatalf("after the replay the tab is at %s", url)
	}
	submitted := browsertest.Eval[string](t, env, url, `sessionStorage.getItem('submitted')`)
	if submitted != `{"email":"bob@example.com","password":"pw-two","branch":"south"}` {
		t.Fatalf("the form got %s", submitted)
	}

	// The page changed: its button now says "Log in". The replay stops
	// there, says what it expected and what is closest, and clicks nothing.
	env.MustGrip(t, "navigate", "--tab", tab, login)
	browsertest.Eval[any](t, env, login, `(() => { sessionStorage.clear(); localStorage.setItem('variant', 'renamed'); location.reload(); return null })()`)
	env.MustGrip(t, "wait", "--tab", tab, "--text", "Log in")
	var res struct {
		Steps, Done int
		Diverged    *workflow.Divergence
		Error       struct{ Code string }
	}
	code := env.GripJSON(t, &res, "replay", file, "--tab", tab, "--param", "EMAIL=carl@example.com", "--param", "PASSWORD=pw-three")
	if code != 1 || res.Error.Code != "replay_diverged" || res.Diverged == nil {
		t.Fatalf("replay on the changed page: exit %d, %+v", code, res)
	}
	d := res.Diverged
	if res.Done != 3 || d.Step != 4 || !strings.Contains(d.Expected, "button 'Sign in'") {
		t.Fatalf("divergence %+v (done %d)", d, res.Done)
	}
	if len(d.Candidates) == 0 || !strings.Contains(d.Candidates[0], "[button 'Log in']") {
		t.Fatalf("the closest candidates %q do not start with the renamed button", d.Candidates)
	}
	clicks := browsertest.Eval[string](t, env, login, `sessionStorage.getItem('clicks') || '[]'`)
	submitted = browsertest.Eval[string](t, env, login, `String(sessionStorage.getItem('submitted'))`)
	if clicks != "[]" || submitted != "null" {
		t.Fatalf("after the divergence the page saw clicks %s and a submission %s", clicks, submitted)
	}
	browsertest.Eval[any](t, env, login, `(() => { localStorage.removeItem('variant'); return null })()`)

	// Under the person's rules: with the site read-only for agents, the
	// replay is refused at its first step, as the agent itself would be,
	// and the refusal is in the person's record.
	env.MustGrip(t, "navigate", "--tab", tab, login)
	conf := filepath.Join(env.StateDir, "policy.conf")
	if err := os.WriteFile(conf, []byte("read "+origin+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Remove(conf) })
	deadline := time.Now().Add(10 * time.Second)
	for !strings.Contains(env.MustGrip(t, "policy", login), ": read") {
		if time.Now().After(deadline) {
			t.Fatal("the policy did not load")
		}
		time.Sleep(100 * time.Millisecond)
	}
	res.Diverged, res.Done = nil, -1
	code = env.GripJSON(t, &res, "replay", file, "--tab", tab, "--param", "EMAIL=dan@example.com", "--param", "PASSWORD=pw-four")
	if code != 1 || res.Error.Code != "policy" || res.Done != 0 || res.Diverged != nil {
		t.Fatalf("replay on a read-only site: exit %d, %+v", code, res)
	}
	if log := env.MustGrip(t, "log", "--tab", tab, "--limit", "1"); !strings.Contains(log, "policy") {
		t.Fatalf("the refused step is not in the log:\n%s", log)
	}
	if got := browsertest.Eval[string](t, env, login, `String(sessionStorage.getItem('submitted'))`); got != "null" {
		t.Fatalf("the read-only site got a submission: %s", got)
	}
}

func mustAtoi(t *testing.T, s string) int {
	t.Helper()
	var n int
	if _, err := fmt.Sscan(s, &n); err != nil {
		t.Fatal(err)
	}
	return n
}

// wiki is a TiddlyWiki server on loopback, keeping its tiddlers as files
// in dir/tiddlers.
type wiki struct {
	url string
	dir string
}

func startWiki(t *testing.T) *wiki {
	t.Helper()
	browsertest.Need(t, env)
	if wikiMissing != "" {
		t.Skip(wikiMissing)
	}
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed")
	}
	dir := filepath.Join(t.TempDir(), "wiki")
	tw, _ := filepath.Abs(filepath.Join("node_modules", "tiddlywiki", "tiddlywiki.js"))
	if out, err := exec.Command(node, tw, dir, "--init", "server").CombinedOutput(); err != nil {
		t.Fatalf("tiddlywiki --init: %v\n%s", err, out)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	cmd := exec.Command(node, tw, dir, "--listen", fmt.Sprint("port=", port), "host=127.0.0.1")
	logf, err := os.Create(filepath.Join(t.TempDir(), "wiki.log"))
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stdout, cmd.Stderr = logf, logf
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL); cmd.Wait(); logf.Close() })
	w := &wiki{url: fmt.Sprintf("http://127.0.0.1:%d/", port), dir: dir}
	deadline := time.Now().Add(30 * time.Second)
	for {
		if resp, err := http.Get(w.url + "status"); err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return w
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("TiddlyWiki did not answer within 30 s:\n%s", readFile(t, logf.Name()))
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// tiddler reads a tiddler through the wiki's own HTTP API ("" when it
// does not exist).
func (w *wiki) tiddler(t *testing.T, title string) (text string, ok bool) {
	t.Helper()
	resp, err := http.Get(w.url + "recipes/default/tiddlers/" + strings.ReplaceAll(title, " ", "%20"))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode == http.StatusNotFound {
		return "", false
	}
	var td struct{ Text string }
	if err := json.NewDecoder(resp.Body).Decode(&td); err != nil {
		t.Fatalf("tiddler %q: %v", title, err)
	}
	return td.Text, true
}

// put writes a tiddler through the wiki's HTTP API (the test changing the
// wiki, as its owner would).
func (w *wiki) put(t *testing.T, title, text string) {
	t.Helper()
	body, _ := json.Marshal(map[string]string{"title": title, "text": text})
	req, _ := http.NewRequest(http.MethodPut, w.url+"recipes/default/tiddlers/"+strings.ReplaceAll(title, " ", "%20"), strings.NewReader(string(body)))
	req.Header.Set("X-Requested-With", "TiddlyWiki")
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		t.Fatalf("PUT %s: %s", title, resp.Status)
	}
}

// waitTiddler waits for the wiki to have saved title (its syncer saves a
// moment after the change).
func (w *wiki) waitTiddler(t *testing.T, title string) string {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for {
		if text, ok := w.tiddler(t, title); ok {
			return text
		}
		if time.Now().After(deadline) {
			t.Fatalf("the wiki never saved %q", title)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// waitSynced waits until the wiki's page in e has saved to the server all
// it holds: TiddlyWiki's syncer ($tw.syncer) has no change left unsaved and
// no save under way. A tiddler the page does not hold then, the server
// does not get (no interval to wait out).
func (w *wiki) waitSynced(t *testing.T, e *browsertest.Env) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !browsertest.Eval[bool](t, e, w.url, `(() => { const s = $tw.syncer; return !!s && !s.isDirty() && s.numTasksInProgress === 0; })()`) {
		if time.Now().After(deadline) {
			t.Fatal("the wiki's page still has changes to save 30 s on")
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// draftText reads, through the wiki's HTTP API, the text of the draft the
// server holds of a tiddler being edited to be called title.
func (w *wiki) draftText(t *testing.T, title string) (text string, ok bool) {
	t.Helper()
	resp, err := http.Get(w.url + "recipes/default/tiddlers.json")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var list []map[string]any
	if err := json.NewDecoder(resp.Body).Decode(&list); err != nil {
		t.Fatalf("the wiki's tiddler list: %v", err)
	}
	for _, td := range list {
		if td["draft.title"] == title {
			name, _ := td["title"].(string)
			return w.tiddler(t, name)
		}
	}
	return "", false
}

// TestTiddlyWikiWorkflow: on a real application, an agent creates a
// tiddler with a title and a text it marks as parameters; the workflow
// replays with other values and the wiki saves the new tiddler; after the
// wiki's owner hides the button that confirms an edit, the replay stops at
// that step and no tiddler of that title is saved.
func TestTiddlyWikiWorkflow(t *testing.T) {
	w := startWiki(t)
	tab := fmt.Sprint(env.OpenTab(t, w.url))
	env.MustGrip(t, "wait", "--tab", tab, "--text", "GettingStarted")
	file := filepath.Join(t.TempDir(), "new-tiddler.grip")

	env.MustGrip(t, "record", "start", file)
	snap := env.MustGrip(t, "snapshot", "--tab", tab)
	env.MustGrip(t, "click", refOf(t, snap, "[button 'new tiddler'"))
	snap = env.MustGrip(t, "snapshot", "--tab", tab)
	env.MustGrip(t, "fill", refOf(t, snap, "[textbox value='New Tiddler'"), "Meeting notes", "--param", "TITLE")
	env.MustGrip(t, "fill", refOf(t, snap, "[textbox 'Type the text for this tiddler'"), "Agenda: the budget", "--param", "BODY")
	env.MustGrip(t, "click", refOf(t, snap, "[button 'Confirm changes to this tiddler'"))
	env.MustGrip(t, "record", "stop")
	text := readFile(t, file)
	t.Logf("the recorded workflow:\n%s", text)
	if strings.Contains(text, "Meeting notes") || strings.Contains(text, "Agenda") {
		t.Fatalf("a parameter's value is in the workflow:\n%s", text)
	}
	if got := w.waitTiddler(t, "Meeting notes"); got != "Agenda: the budget" {
		t.Fatalf("the recorded run saved %q", got)
	}

	out := env.MustGrip(t, "replay", file, "--tab", tab, "--param", "TITLE=Weekly report", "--param", "BODY=Numbers are up")
	if !strings.Contains(out, "replayed 4 steps") {
		t.Fatalf("replay: %s", out)
	}
	if got := w.waitTiddler(t, "Weekly report"); got != "Numbers are up" {
		t.Fatalf("the replay saved %q", got)
	}

	// The wiki's owner hides the edit toolbar's confirm button.
	w.put(t, "$:/config/EditToolbarButtons/Visibility/$:/core/ui/Buttons/save", "hide")
	// The wiki asks before it is left while a change is being saved: the
	// test, as the wiki's owner, lets it go.
	if out := env.MustGrip(t, "reload", "--tab", tab); strings.Contains(out, "beforeunload") {
		env.MustGrip(t, "dialog", "accept", "--tab", tab)
	}
	env.MustGrip(t, "wait", "--tab", tab, "--text", "GettingStarted")
	var res struct {
		Done     int
		Diverged *workflow.Divergence
		Error    struct{ Code string }
	}
	code := env.GripJSON(t, &res, "replay", file, "--tab", tab, "--param", "TITLE=Third", "--param", "BODY=never saved")
	if code != 1 || res.Error.Code != "replay_diverged" || res.Diverged == nil || res.Diverged.Step != 4 || res.Done != 3 {
		t.Fatalf("replay with the button hidden: exit %d, %+v", code, res)
	}
	t.Logf("diverged: %+v", res.Diverged)
	// What the wiki would save, it has: the replay's draft, with the text
	// it typed, and nothing more.
	w.waitSynced(t, env)
	if text, ok := w.draftText(t, "Third"); !ok || text != "never saved" {
		t.Fatalf("the server holds no draft of the replay's tiddler with its text (%v, %q)", ok, text)
	}
	if _, ok := w.tiddler(t, "Third"); ok {
		t.Fatal("the tiddler was saved although the replay stopped before confirming it")
	}
}
