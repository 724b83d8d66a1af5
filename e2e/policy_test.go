package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/grip-dev/grip/actlog"
	"github.com/grip-dev/grip/client"
	"github.com/grip-dev/grip/internal/browsertest"
	"github.com/grip-dev/grip/policy"
	"github.com/grip-dev/grip/protocol"
	"github.com/grip-dev/grip/statedir"
)

// The person's controls through the whole chain: the policy file, the
// pause, questions answered in the browser, shared tabs and the record of
// what agents did. The package shares one browser and one host: every test
// puts the policy file back and lifts the pause before it ends.

func policyFile() string { return policy.Path(env.StateDir) }

// setPolicy saves text as the policy the way many editors do (a new file
// renamed over the old one) and puts the file back as it was at the end.
func setPolicy(t *testing.T, text string) {
	t.Helper()
	path := policyFile()
	old, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("the host wrote no policy file: %v", err)
	}
	renameSave(t, path, text)
	t.Cleanup(func() { renameSave(t, path, string(old)) })
}

func renameSave(t *testing.T, path, text string) {
	t.Helper()
	tmp := filepath.Join(filepath.Dir(path), ".policy.conf.tmp")
	if err := os.WriteFile(tmp, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, path); err != nil {
		t.Fatal(err)
	}
}

// hostOf is the host part of an origin: 127.0.0.1 or localhost.
func hostOf(origin string) string {
	h := strings.TrimPrefix(origin, "http://")
	return h[:strings.LastIndexByte(h, ':')]
}

// refusal runs grip with --json and returns its error, failing the test
// unless it exits 1 with one.
func refusal(t *testing.T, args ...string) *protocol.Error {
	t.Helper()
	var out struct {
		Error *protocol.Error `json:"error"`
	}
	if code := env.GripJSON(t, &out, args...); code != 1 || out.Error == nil {
		t.Fatalf("grip %s: exit %d, error %+v; want a refusal", strings.Join(args, " "), code, out.Error)
	}
	return out.Error
}

// wantPolicyRefusal checks a refusal names the rule and the file.
func wantPolicyRefusal(t *testing.T, perr *protocol.Error, rule string) {
	t.Helper()
	if perr.Code != protocol.CodePolicy || perr.Boundary != protocol.BoundaryPolicy {
		t.Errorf("refusal %+v, want code policy, boundary policy", perr)
	}
	if !strings.Contains(perr.Message, rule) || !strings.Contains(perr.Message, policyFile()) {
		t.Errorf("refusal %q does not name the rule %q and the file %s", perr.Message, rule, policyFile())
	}
	if perr.Hint == "" {
		t.Errorf("refusal %+v has no hint", perr)
	}
}

func tabsNow(t *testing.T) map[int]protocol.Tab {
	t.Helper()
	var res protocol.TabsResult
	if code := env.GripJSON(t, &res, "tabs"); code != 0 {
		t.Fatalf("grip tabs: exit %d", code)
	}
	out := map[int]protocol.Tab{}
	for _, tb := range res.Tabs {
		out[tb.ID] = tb
	}
	return out
}

// A blocked origin is neither read nor acted on, its tab shows only as
// blocked, and a blocked cross-origin frame is left out of a snapshot of
// an allowed page and counted on the closing line.
func TestPolicyBlock(t *testing.T) {
	browsertest.Need(t, env)
	page := env.OpenTab(t, env.Origin2+"/home.html")
	tab, _ := openAct(t) // Origin1, with its card frame on Origin2
	setPolicy(t, "# the card frame's origin, and the home page's\nblock "+hostOf(env.Origin2)+"\n")
	rule := `rule "block ` + hostOf(env.Origin2) + `" (line 2)`

	tabs := tabsNow(t)
	if got := tabs[page]; !got.Blocked || got.URL != "" || got.Title != "" {
		t.Errorf("blocked tab listed as %+v, want blocked with no URL or title", got)
	}
	if got := tabs[tab]; got.Blocked || !strings.HasPrefix(got.URL, env.Origin1) {
		t.Errorf("allowed tab listed as %+v", got)
	}
	if r := env.MustGrip(t, "tabs"); !strings.Contains(r, fmt.Sprintf("%d\t(blocked by the policy)", page)) || strings.Contains(r, "Fixture Home") {
		t.Errorf("plain grip tabs:\n%s", r)
	}

	perr := refusal(t, "snapshot", "--tab", fmt.Sprint(page))
	wantPolicyRefusal(t, perr, rule)
	if strings.Contains(perr.Message, env.Origin2) {
		t.Errorf("the refusal names the blocked page's origin: %q", perr.Message)
	}
	wantPolicyRefusal(t, refusal(t, "click", "#b1", "--tab", fmt.Sprint(page)), rule)
	var lg protocol.LogResult
	env.GripJSON(t, &lg, "log", "--tab", fmt.Sprint(page), "--limit", "1")
	if len(lg.Entries) != 1 || lg.Entries[0].Outcome != "policy" || lg.Entries[0].Origin != "" || !strings.Contains(lg.Entries[0].Rule, rule) {
		t.Errorf("the record of the refused click: %+v", lg.Entries)
	}
	wantPolicyRefusal(t, refusal(t, "tabs", "new", env.Origin2+"/home.html"), rule)
	wantPolicyRefusal(t, refusal(t, "navigate", env.Origin2+"/home.html", "--tab", fmt.Sprint(tab)), rule)
	wantPolicyRefusal(t, refusal(t, "screenshot", "--tab", fmt.Sprint(tab), "-o", filepath.Join(t.TempDir(), "x.png")), rule)
	wantPolicyRefusal(t, refusal(t, "wait", "--text", "Card number", "--tab", fmt.Sprint(tab)), rule)

	snap := snapshot(t, tab)
	if strings.Contains(snap.Text, "Card number") || refOf(snap, "textbox", "Card number") != "" {
		t.Errorf("the blocked card frame's content is in the snapshot:\n%s", snap.Text)
	}
	if !strings.Contains(snap.Text, "(1 frame blocked by policy)") {
		t.Errorf("the snapshot does not count the blocked frame:\n%s", snap.Text)
	}
	blocked := 0
	for _, f := range snap.SkippedFrames {
		if f.Reason == "blocked by policy" {
			blocked++
		}
	}
	if blocked != 1 || mustRef(t, snap, "button", "Beta") == "" {
		t.Errorf("skipped frames %+v", snap.SkippedFrames)
	}
	// The rest of the page still works.
	if _, perr, code := act(t, "click", mustRef(t, snap, "button", "Beta")); code != 0 {
		t.Errorf("click on the allowed page: %+v", perr)
	}
	var pr protocol.PolicyResult
	if code := env.GripJSON(t, &pr, "policy", env.Origin2+"/card.html?x=1"); code != 0 || pr.Rule == nil || pr.Rule.Rule != "block" || pr.Rule.Line != 2 {
		t.Errorf("grip policy URL: exit %d %+v %+v", code, pr, pr.Rule)
	}
	if out := env.MustGrip(t, "policy"); !strings.Contains(out, "block    "+hostOf(env.Origin2)) || !strings.Contains(out, policyFile()) {
		t.Errorf("grip policy:\n%s", out)
	}
}

// read allows snapshots and refuses every action; act (and a default of
// block for the rest) allows both.
func TestPolicyReadAndAct(t *testing.T) {
	browsertest.Need(t, env)
	tab, snap := openAct(t)
	beta := mustRef(t, snap, "button", "Beta")
	setPolicy(t, "read "+env.Origin1+"\n")
	rule := `rule "read ` + env.Origin1 + `" (line 1)`
	if s := snapshot(t, tab); refOf(s, "button", "Beta") != beta || !strings.Contains(s.Text, "Card number") {
		t.Errorf("read: the snapshot lacks the page:\n%s", s.Text)
	}
	wantPolicyRefusal(t, refusal(t, "click", beta), rule)
	wantPolicyRefusal(t, refusal(t, "press", "Enter", "--tab", fmt.Sprint(tab)), rule)
	wantPolicyRefusal(t, refusal(t, "reload", "--tab", fmt.Sprint(tab)), rule)
	if got := pageLog(t, tab); len(got) != 0 {
		t.Errorf("page log %v after refused actions", got)
	}
	// The card frame is on another origin, which read does not cover.
	if _, perr, code := act(t, "fill", mustRef(t, snap, "textbox", "Card number"), "4242"); code != 0 {
		t.Errorf("fill in the card frame (act by default): %+v", perr)
	}

	setPolicy(t, "default = block\nact "+hostOf(env.Origin1)+"\n")
	if _, perr, code := act(t, "click", beta); code != 0 {
		t.Fatalf("act: click refused: %+v", perr)
	}
	if got := pageLog(t, tab); strings.Join(got, ",") != "b" {
		t.Errorf("page log %v, want [b]", got)
	}
	s := snapshot(t, tab)
	if !strings.Contains(s.Text, "(1 frame blocked by policy)") {
		t.Errorf("default = block: the card frame is not left out:\n%s", s.Text)
	}
}

// The policy follows the file: the next call after a save obeys it; a
// broken save keeps the last good policy and doctor and status say so.
func TestPolicyLiveReload(t *testing.T) {
	browsertest.Need(t, env)
	tab := env.OpenTab(t, env.Origin1+"/home.html")
	setPolicy(t, "block "+hostOf(env.Origin1)+"\n")
	wantPolicyRefusal(t, refusal(t, "snapshot", "--tab", fmt.Sprint(tab)), "line 1")

	renameSave(t, policyFile(), "read "+hostOf(env.Origin1)+"\n")
	snapshot(t, tab)
	wantPolicyRefusal(t, refusal(t, "click", "#b1", "--tab", fmt.Sprint(tab)), `rule "read `+hostOf(env.Origin1)+`"`)

	// A broken edit, written in place: the read rule stays in force.
	if err := os.WriteFile(policyFile(), []byte("read "+hostOf(env.Origin1)+"\nallow everything\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	wantPolicyRefusal(t, refusal(t, "click", "#b1", "--tab", fmt.Sprint(tab)), `rule "read `+hostOf(env.Origin1)+`"`)
	var st protocol.Status
	if code := env.GripJSON(t, &st, "status"); code != 0 || st.Policy == nil || !strings.Contains(st.Policy.Error, "line 2") {
		t.Errorf("status after a broken edit: %+v", st.Policy)
	}
	var doc struct {
		Checks []struct {
			Name   string `json:"name"`
			OK     bool   `json:"ok"`
			Detail string `json:"detail"`
		} `json:"checks"`
	}
	env.GripJSON(t, &doc, "doctor")
	found := false
	for _, c := range doc.Checks {
		if c.Name == "policy" {
			found = true
			if c.OK || !strings.Contains(c.Detail, "line 2") || !strings.Contains(c.Detail, `"allow" is not a rule`) {
				t.Errorf("doctor's policy check: %+v", c)
			}
		}
	}
	if !found {
		t.Errorf("doctor has no policy check: %+v", doc)
	}

	// The host's watcher applies a save with no call in between: its
	// last-good copy holds the new policy. Waited for within a bound a
	// busy machine does not reach; how long it took is logged, not judged
	// (it was held to 1.5 s here, a speed target in a timed test, which
	// failed under load).
	before := time.Now()
	renameSave(t, policyFile(), "act "+hostOf(env.Origin1)+"\n")
	deadline := time.Now().Add(20 * time.Second)
	for {
		b, _ := os.ReadFile(policy.LastGoodPath(policyFile()))
		if bytes.Contains(b, []byte("act "+hostOf(env.Origin1))) {
			t.Logf("the host read the saved policy after %s", time.Since(before).Round(time.Millisecond))
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the host did not read the saved policy within 20 s (its last-good copy holds %q)", b)
		}
		time.Sleep(20 * time.Millisecond)
	}
	if _, perr, code := act(t, "click", "#b1", "--tab", fmt.Sprint(tab)); code != 0 {
		t.Errorf("click after the fix: %+v", perr)
	}
}

// unpause lifts the pause the way the person does, from the popup, if a
// test left it on.
func unpause(t *testing.T) {
	t.Helper()
	var st protocol.Status
	if code := env.GripJSON(t, &st, "status"); code != 0 || !st.Paused {
		return
	}
	url := openPopup(t, 0)
	browsertest.Eval[bool](t, env, url, `(async () => { await chrome.runtime.sendMessage({type: 'set_paused', paused: false}); return true })()`)
}

// badge reads the extension's icon badge (global, or a tab's) from one of
// its pages.
func badge(t *testing.T, popupURL string, tab int) string {
	t.Helper()
	arg := "{}"
	if tab > 0 {
		arg = fmt.Sprintf("{tabId: %d}", tab)
	}
	return browsertest.Eval[string](t, env, popupURL, "chrome.action.getBadgeText("+arg+")")
}

// While paused every action is refused with code paused, reads go on, the
// badge says so, and the pause outlasts the host; resume needs the
// person's Allow.
func TestPauseResume(t *testing.T) {
	browsertest.Need(t, env)
	tab, snap := openAct(t)
	beta := mustRef(t, snap, "button", "Beta")
	url := openPopup(t, tab)
	// Cleanups run last first: this one before the tab's close, which a
	// pause would refuse, leaving a tab of the same URL for later tests.
	t.Cleanup(func() { unpause(t) })

	var st protocol.PersonState
	if code := env.GripJSON(t, &st, "pause"); code != 0 || !st.Paused {
		t.Fatalf("grip pause: exit %d %+v", code, st)
	}
	perr := refusal(t, "click", beta)
	if perr.Code != protocol.CodePaused || perr.Boundary != protocol.BoundaryUser || perr.Hint == "" {
		t.Errorf("click while paused: %+v, want paused (user)", perr)
	}
	if refusal(t, "tabs", "new", env.Origin1+"/home.html").Code != protocol.CodePaused {
		t.Error("tabs new while paused is not refused as paused")
	}
	snapshot(t, tab) // reads follow the policy
	if got := pageLog(t, tab); len(got) != 0 {
		t.Errorf("page log %v while paused", got)
	}
	waitPopupUser(t, url, "paused, with the badge", func(v userView) bool {
		return v.PauseState == "agents paused" && v.PauseButton == "Resume agents"
	})
	if b := badge(t, url, 0); b != "||" {
		t.Errorf("badge while paused = %q, want ||", b)
	}

	// A new host (the old one killed) starts paused: the extension's hello
	// carries the pause.
	before := currentHost(t)
	if err := syscall.Kill(before.PID, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(20 * time.Second)
	for currentHost(t).PID == before.PID {
		if time.Now().After(deadline) {
			t.Fatal("no new host after the kill")
		}
		time.Sleep(200 * time.Millisecond)
	}
	if perr := refusal(t, "click", beta); perr.Code != protocol.CodePaused {
		t.Errorf("click on the new host: %+v, want paused", perr)
	}

	// grip resume asks the person; Deny keeps the pause.
	res := gripAsync(t, env, "resume", "--json")
	q := waitQuestion(t, url, "resume")
	clickAnswer(t, url, q, false)
	r := <-res
	if r.Code != 1 || !strings.Contains(r.Stdout, `"not_confirmed"`) {
		t.Fatalf("resume denied: exit %d %s %s", r.Code, r.Stdout, r.Stderr)
	}
	if refusal(t, "click", beta).Code != protocol.CodePaused {
		t.Error("a denied resume lifted the pause")
	}
	// Allow lifts it.
	res = gripAsync(t, env, "resume", "--json")
	clickAnswer(t, url, waitQuestion(t, url, "resume"), true)
	if r := <-res; r.Code != 0 || !strings.Contains(r.Stdout, `"paused":false`) && strings.Contains(r.Stdout, `"paused":true`) {
		t.Fatalf("resume allowed: exit %d %s %s", r.Code, r.Stdout, r.Stderr)
	}
	if _, perr, code := act(t, "click", beta); code != 0 {
		t.Fatalf("click after resume: %+v", perr)
	}
	if b := badge(t, url, 0); b != "" {
		t.Errorf("badge after resume = %q", b)
	}

	// The popup's button pauses and resumes at once (it is the person).
	waitPopupUser(t, url, "resumed", func(v userView) bool { return v.PauseButton == "Pause agents" })
	browsertest.Eval[bool](t, env, url, `document.getElementById('pause').click(), true`)
	waitPopupUser(t, url, "paused from its button", func(v userView) bool { return v.PauseState == "agents paused" })
	if perr := refusal(t, "click", beta); perr.Code != protocol.CodePaused || !strings.HasPrefix(perr.Message, "the person paused agents") ||
		!strings.Contains(perr.Hint, "the person resumes from grip's popup") {
		t.Errorf("click after the popup's pause: %+v", perr)
	}
	// The worker stopping does not lose it (chrome.storage).
	stopServiceWorker(t, env)
	waitPopupUser(t, url, "still paused after the worker stopped", func(v userView) bool { return v.PauseState == "agents paused" })
	if perr := refusalPatient(t, "click", beta); perr.Code != protocol.CodePaused {
		t.Errorf("click after the worker stopped: %+v", perr)
	}
	browsertest.Eval[bool](t, env, url, `document.getElementById('pause').click(), true`)
	waitPopupUser(t, url, "resumed from its button", func(v userView) bool { return v.PauseState == "agents may act" })
	if _, perr, code := act(t, "click", beta); code != 0 {
		t.Errorf("click after the popup's resume: %+v", perr)
	}
}

// refusalPatient is refusal with a long --wait, for a host that restarts.
func refusalPatient(t *testing.T, args ...string) *protocol.Error {
	t.Helper()
	return refusal(t, append(args, "--wait", "40s")...)
}

// confirm: each action waits for the person; Allow lets it through,
// Deny and no answer refuse it with not_confirmed.
func TestConfirmAllowDenyTimeout(t *testing.T) {
	browsertest.Need(t, env)
	tab, snap := openAct(t)
	beta, gamma := mustRef(t, snap, "button", "Beta"), mustRef(t, snap, "button", "Gamma")
	url := openPopup(t, tab)
	setPolicy(t, "confirm "+hostOf(env.Origin1)+"\nconfirm-timeout = 30s\n")

	res := gripAsync(t, env, "click", beta, "--json")
	q := waitQuestion(t, url, "click")
	if q != "On "+env.Origin1+"Allow cli to click "+beta+": [button 'Beta']?" { // two lines, the site first
		t.Errorf("the question reads %q", q)
	}
	if b := badge(t, url, 0); b != "?" {
		t.Errorf("badge while a question waits = %q, want ?", b)
	}
	if got := pageLog(t, tab); len(got) != 0 {
		t.Fatalf("clicked before the person allowed it: %v", got)
	}
	clickAnswer(t, url, q, true)
	if r := <-res; r.Code != 0 {
		t.Fatalf("allowed click: exit %d %s %s", r.Code, r.Stdout, r.Stderr)
	}
	if got := pageLog(t, tab); strings.Join(got, ",") != "b" {
		t.Errorf("page log %v, want [b]", got)
	}

	res = gripAsync(t, env, "click", gamma, "--json")
	clickAnswer(t, url, waitQuestion(t, url, "click "+gamma), false)
	r := <-res
	var out struct{ Error *protocol.Error }
	json.Unmarshal([]byte(r.Stdout), &out)
	if r.Code != 1 || out.Error == nil || out.Error.Code != protocol.CodeNotConfirmed || out.Error.Boundary != protocol.BoundaryUser ||
		!strings.Contains(out.Error.Message, "denied") {
		t.Errorf("denied click: exit %d %+v", r.Code, out.Error)
	}
	if got := pageLog(t, tab); strings.Join(got, ",") != "b" {
		t.Errorf("page log %v after a denied click, want [b]", got)
	}

	renameSave(t, policyFile(), "confirm "+hostOf(env.Origin1)+"\nconfirm-timeout = 2s\n")
	start := time.Now()
	perr := refusal(t, "click", gamma)
	if perr.Code != protocol.CodeNotConfirmed || !strings.Contains(perr.Message, "did not answer within 2s") {
		t.Errorf("unanswered click: %+v", perr)
	}
	if d := time.Since(start); d < 2*time.Second || d > 10*time.Second {
		t.Errorf("the unanswered question took %s, want about 2 s", d)
	}
	if got := pageLog(t, tab); strings.Join(got, ",") != "b" {
		t.Errorf("page log %v after an unanswered click", got)
	}
	waitPopupUser(t, url, "no question left", func(v userView) bool { return len(v.Questions) == 0 })

	// The record says who allowed what.
	var lg protocol.LogResult
	env.GripJSON(t, &lg, "log", "--tab", fmt.Sprint(tab))
	var outcomes []string
	for _, e := range lg.Entries {
		if e.Action == "click" {
			outcomes = append(outcomes, fmt.Sprintf("%s/%v", e.Outcome, e.Confirmed))
		}
	}
	if strings.Join(outcomes, ",") != "ok/true,not_confirmed/false,not_confirmed/false" {
		t.Errorf("log outcomes %v", outcomes)
	}
}

// The record of what agents did: every action with its target's line and
// client, never the text typed; the popup shows this tab's and a count of
// the others'; the badge marks the tab an agent just acted on.
func TestLogHoldsNoTypedText(t *testing.T) {
	browsertest.Need(t, env)
	const secret = "Sw0rdfish-7f3a9c-do-not-log"
	tab, snap := openAct(t)
	name := mustRef(t, snap, "textbox", "Name")
	url := openPopup(t, tab)
	if _, perr, code := act(t, "fill", name, secret); code != 0 {
		t.Fatalf("fill: %+v", perr)
	}
	if got := browsertest.Eval[string](t, env, env.TabURL(t, tab), "reactState()"); got != secret {
		t.Fatalf("the page holds %q", got)
	}
	// The host's view now holds the value; a second action on the field
	// must not copy it into the record either.
	snapshot(t, tab)
	if _, perr, code := act(t, "type", name, secret+"-again"); code != 0 {
		t.Fatalf("type: %+v", perr)
	}
	if _, perr, code := act(t, "press", "Enter", name); code != 0 {
		t.Fatalf("press: %+v", perr)
	}
	if _, perr, code := act(t, "select", mustRef(t, snap, "combobox", "Fruit"), "Cherry"); code != 0 {
		t.Fatalf("select: %+v", perr)
	}
	if b := badge(t, url, tab); b != "●" {
		t.Errorf("the acted-on tab's badge = %q, want ●", b)
	}

	logs := statedir.At(env.StateDir).Logs
	path := filepath.Join(logs, actlog.FileName)
	data := readFile(t, path)
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("log file mode: %v %v", err, fi.Mode())
	}
	r := env.Grip(t.Context(), "log", "--json", "--limit", "0")
	plain := env.MustGrip(t, "log", "--tab", fmt.Sprint(tab))
	for what, text := range map[string]string{"the log file": string(data), "grip log --json": r.Stdout, "grip log": plain} {
		if strings.Contains(text, "Sw0rdfish") || strings.Contains(text, "Cherry") {
			t.Errorf("%s holds typed text or a chosen value", what)
		}
	}
	var lg protocol.LogResult
	if err := json.Unmarshal([]byte(r.Stdout), &lg); err != nil {
		t.Fatal(err)
	}
	var mine []protocol.LogEntry
	for _, e := range lg.Entries {
		if e.Tab == tab && e.Action != "tab_new" { // openAct opened it
			mine = append(mine, e)
		}
	}
	if len(mine) != 4 {
		t.Fatalf("log for tab %d: %+v", tab, mine)
	}
	fill := mine[0]
	if fill.Action != "fill" || fill.Target != name+": [textbox 'Name']" || fill.Outcome != "ok" || fill.Client != "cli" ||
		fill.Origin != env.Origin1 || fill.Time == "" {
		t.Errorf("fill entry %+v", fill)
	}
	if typ := mine[1]; typ.Target != name+": [textbox 'Name']" {
		t.Errorf("type entry %+v: the target's line must leave out the value", typ)
	}
	if press := mine[2]; press.Detail != "Enter" {
		t.Errorf("press entry %+v", press)
	}
	if !strings.Contains(plain, "fill "+name+": [textbox 'Name']  ok  (cli)") {
		t.Errorf("grip log:\n%s", plain)
	}

	// The latest first.
	v := waitPopupUser(t, url, "this tab's latest actions", func(v userView) bool { return len(v.Log) >= 4 && strings.Contains(v.Log[0], "select") })
	if !strings.Contains(v.Log[3], "fill "+name+": [textbox 'Name'] — ok (cli)") || !strings.Contains(v.Log[0], "select") {
		t.Errorf("popup's log %q", v.Log)
	}
	for _, l := range v.Log {
		if strings.Contains(l, "Sw0rdfish") {
			t.Errorf("the popup shows typed text: %q", l)
		}
	}
}

// With tabs = shared, agents see only the tabs the person shared from the
// popup and the tabs they opened; the rest are absent, refused by id, and
// skipped as the default tab.
func TestSharedTabs(t *testing.T) {
	browsertest.Need(t, env)
	mine := env.OpenTab(t, env.Origin1+"/act.html?shared") // opened by an agent
	// A tab the person opened: through the DevTools protocol.
	theirsURL := env.Origin1 + "/home.html?person"
	theirs := openPersonTab(t, theirsURL)
	setPolicy(t, "tabs = shared\n")

	tabs := tabsNow(t)
	if _, ok := tabs[theirs]; ok {
		t.Errorf("the person's tab %d is listed: %+v", theirs, tabs)
	}
	if _, ok := tabs[mine]; !ok {
		t.Errorf("the agent's own tab %d is not listed", mine)
	}
	wantPolicyRefusal(t, refusal(t, "snapshot", "--tab", fmt.Sprint(theirs)), "tabs = shared")
	wantPolicyRefusal(t, refusal(t, "click", "#b1", "--tab", fmt.Sprint(theirs)), "tabs = shared")
	// The person's tab is the active one; the default skips it.
	s := snapshot(t, 0)
	if s.Tab.ID == theirs {
		t.Errorf("the default tab is the person's unshared tab")
	}

	// The person shares it from the popup.
	url := openPopup(t, theirs)
	waitPopupUser(t, url, "the share button", func(v userView) bool { return v.ShareButton == "Let agents use this tab" })
	browsertest.Eval[bool](t, env, url, `document.getElementById('share').click(), true`)
	waitPopupUser(t, url, "shared", func(v userView) bool { return v.ShareButton == "Stop sharing this tab" })
	if _, ok := tabsNow(t)[theirs]; !ok {
		t.Fatalf("the shared tab is not listed")
	}
	if s := snapshot(t, theirs); !strings.Contains(s.Text, "Press me") {
		t.Errorf("the shared tab's snapshot:\n%s", s.Text)
	}
	browsertest.Eval[bool](t, env, url, `document.getElementById('share').click(), true`)
	waitPopupUser(t, url, "unshared", func(v userView) bool { return v.ShareButton == "Let agents use this tab" })
	if _, ok := tabsNow(t)[theirs]; ok {
		t.Errorf("the unshared tab is still listed")
	}
}

// openPersonTab opens url as the person would (not through grip) and
// returns its tab id; the tab closes at the end of the test.
func openPersonTab(t *testing.T, url string) int {
	t.Helper()
	before := tabsNow(t)
	openCDPTab(t, url)
	deadline := time.Now().Add(10 * time.Second)
	for {
		for id, tb := range tabsNow(t) {
			if _, old := before[id]; !old && tb.URL == url {
				return id
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("the tab at %s never showed in grip tabs", url)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// userView is what the popup shows of the person's controls.
type userView struct {
	PauseState  string   `json:"pauseState"`
	PauseButton string   `json:"pauseButton"`
	ShareButton string   `json:"shareButton"`
	Questions   []string `json:"questions"`
	Policy      []string `json:"policy"`
	PolicyError string   `json:"policyError"`
	Log         []string `json:"log"`
	Others      string   `json:"others"`
	Acted       string   `json:"acted"`
}

const readUserJS = `(() => {
  const t = (id) => document.getElementById(id);
  const share = t('share');
  return {
    pauseState: t('pause-state').textContent,
    pauseButton: t('pause').textContent,
    shareButton: share.hidden ? '' : share.textContent,
    questions: [...document.querySelectorAll('#questions .question > p:first-child')].map((p) => p.textContent),
    policy: [...document.querySelectorAll('#policy-facts dt')].map((dt) => dt.textContent + ': ' + dt.nextElementSibling.textContent),
    policyError: t('policy-error').hidden ? '' : t('policy-error').textContent,
    log: [...document.querySelectorAll('#agent-log li')].map((li) => li.textContent).filter((s) => s !== 'none'),
    others: t('agent-log-others').textContent,
    acted: t('acted').hidden ? '' : t('acted').textContent,
  };
})()`

func waitPopupUser(t *testing.T, url, what string, ok func(userView) bool) userView {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		v := browsertest.Eval[userView](t, env, url, readUserJS)
		if ok(v) {
			return v
		}
		if time.Now().After(deadline) {
			b, _ := json.MarshalIndent(v, "", "  ")
			t.Fatalf("popup never showed %s; it shows:\n%s", what, b)
		}
		time.Sleep(150 * time.Millisecond)
	}
}

// waitQuestion waits for the popup to show a question containing want and
// returns its text.
func waitQuestion(t *testing.T, url, want string) string {
	t.Helper()
	v := waitPopupUser(t, url, "a question about "+want, func(v userView) bool {
		for _, q := range v.Questions {
			if strings.Contains(q, want) {
				return true
			}
		}
		return false
	})
	for _, q := range v.Questions {
		if strings.Contains(q, want) {
			return q
		}
	}
	return ""
}

// clickAnswer clicks Allow or Deny on the popup's question q.
func clickAnswer(t *testing.T, url, q string, allow bool) {
	t.Helper()
	button := "deny"
	if allow {
		button = "allow"
	}
	ok := browsertest.Eval[bool](t, env, url, fmt.Sprintf(`(() => {
  for (const div of document.querySelectorAll('#questions .question')) {
    if (div.querySelector('p').textContent === %q) { div.querySelector('button.%s').click(); return true; }
  }
  return false;
})()`, q, button))
	if !ok {
		t.Fatalf("no question %q to answer", q)
	}
}

// An action through grip mcp is recorded under the MCP client's own name,
// from its initialize.
func TestLogNamesTheMCPClient(t *testing.T) {
	browsertest.Need(t, env)
	tab, snap := openAct(t)
	m := startMCP(t)
	m.must("browser_click", map[string]any{"ref": mustRef(t, snap, "button", "Alpha"), "element": "Alpha"})
	var lg protocol.LogResult
	env.GripJSON(t, &lg, "log", "--all", "--tab", fmt.Sprint(tab), "--limit", "1") // the MCP session's entry
	if len(lg.Entries) != 1 || lg.Entries[0].Client != "grip-e2e" || lg.Entries[0].Action != "click" {
		t.Errorf("log %+v, want the click by the MCP client grip-e2e", lg.Entries)
	}
}

// A confirm whose client goes away while the question waits (the agent's
// MCP client timed out, the CLI was killed) is recorded as cancelled, not
// as an internal error of grip's.
func TestConfirmCancelledByItsClientIsRecordedSo(t *testing.T) {
	browsertest.Need(t, env)
	tab, snap := openAct(t)
	beta := mustRef(t, snap, "button", "Beta")
	url := openPopup(t, tab)
	setPolicy(t, "confirm "+hostOf(env.Origin1)+"\nconfirm-timeout = 30s\n")

	ctx, kill := context.WithCancel(context.Background())
	defer kill()
	done := make(chan browsertest.Result, 1)
	go func() { done <- env.Grip(ctx, "click", beta) }()
	waitQuestion(t, url, "click "+beta)
	kill() // SIGKILL: the client's connection closes with the question open
	<-done
	deadline := time.Now().Add(10 * time.Second)
	for {
		var lg protocol.LogResult
		env.GripJSON(t, &lg, "log", "--tab", fmt.Sprint(tab), "--limit", "1")
		if n := len(lg.Entries); n == 1 && lg.Entries[0].Action == "click" {
			if e := lg.Entries[0]; e.Outcome == "cancelled" && !e.Confirmed && strings.Contains(e.Rule, "confirm") {
				break
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("the record of the click whose client went away: %+v", lg.Entries)
		}
		time.Sleep(200 * time.Millisecond)
	}
	if got := pageLog(t, tab); len(got) != 0 {
		t.Errorf("page log %v: the cancelled click landed", got)
	}
	// The question stays until its timeout (the extension is not told its
	// asker went away): deny it, so no later test finds it.
	clickAnswer(t, url, waitQuestion(t, url, "click "+beta), false)
	waitPopupUser(t, url, "no question left", func(v userView) bool { return len(v.Questions) == 0 })
	if got := pageLog(t, tab); len(got) != 0 {
		t.Errorf("page log %v: the cancelled click landed once the person answered", got)
	}
}

// A client that gives up on a call whose confirm is still open (an MCP
// client's notifications/cancelled, a deadline) while its connection
// stays: the host ends that call too (protocol.OpCancel), so the person's
// Allow, given later, acts for no one who was told it failed.
func TestConfirmGivenUpOnByItsClientNeverActs(t *testing.T) {
	browsertest.Need(t, env)
	tab, snap := openAct(t)
	beta := mustRef(t, snap, "button", "Beta")
	url := openPopup(t, tab)
	setPolicy(t, "confirm "+hostOf(env.Origin1)+"\nconfirm-timeout = 30s\n")

	c, err := client.Connect(t.Context(), client.Options{RuntimeDir: statedir.At(env.StateDir).Runtime, Wait: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	ctx, giveUp := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() {
		done <- c.Call(ctx, protocol.OpAct, protocol.ActArgs{Action: "click", Target: beta, Tab: tab}, &protocol.ActionResult{})
	}()
	q := waitQuestion(t, url, "click "+beta)
	giveUp()
	if err := <-done; err != context.Canceled {
		t.Fatalf("the given-up call returned %v", err)
	}
	// The host ends the call: the log says cancelled, on the same connection.
	deadline := time.Now().Add(10 * time.Second)
	for {
		var lg protocol.LogResult
		env.GripJSON(t, &lg, "log", "--all", "--tab", fmt.Sprint(tab), "--limit", "1") // every session's, as the person reads it
		if n := len(lg.Entries); n == 1 && lg.Entries[0].Action == "click" && lg.Entries[0].Outcome == "cancelled" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the given-up click is not recorded cancelled: %+v", lg.Entries)
		}
		time.Sleep(200 * time.Millisecond)
	}
	// The person allows it now: nothing acts. The next action on the tab,
	// on the same connection (which still works), takes the tab after the
	// Allow has been taken in (one operation at a time per tab, host/act.go),
	// so its reply comes after anything the Allow could have set going:
	// the page then has that click alone.
	clickAnswer(t, url, q, true)
	waitPopupUser(t, url, "no question left", func(v userView) bool { return len(v.Questions) == 0 })
	setPolicy(t, "")
	alpha := mustRef(t, snap, "button", "Alpha")
	if err := c.Call(t.Context(), protocol.OpAct, protocol.ActArgs{Action: "click", Target: alpha, Tab: tab}, &protocol.ActionResult{}); err != nil {
		t.Fatalf("a click on the same connection after the cancel: %v", err)
	}
	if got := pageLog(t, tab); !slices.Equal(got, []string{"a"}) {
		t.Errorf("page log %v, want the later click alone: the click its client gave up on landed once the person allowed it", got)
	}
}
