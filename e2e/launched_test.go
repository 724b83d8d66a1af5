package e2e

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/grip-dev/grip/doctor"
	"github.com/grip-dev/grip/internal/browsertest"
	"github.com/grip-dev/grip/launcher"
	"github.com/grip-dev/grip/policy"
	"github.com/grip-dev/grip/protocol"
)

// A browser grip launch started, headless, as a script or a person who
// would rather not install grip uses it (docs/person.md, "A browser
// grip launched"): doctor judges it by its own profile's manifest, not by
// the installed Chromium's (here someone else's file, which no fix may say
// to overwrite); a pause cannot be lifted by asking (no one could answer)
// but is by the launcher's token; and the pause, kept in the profile,
// outlasts the browser, with the next launch saying so.
func TestLaunchedBrowserDoctorAndPause(t *testing.T) {
	browsertest.Need(t, env)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	state := t.TempDir()
	home := t.TempDir()
	profile := filepath.Join(t.TempDir(), "profile")
	// The machine's Chromium, as doctor finds it in the home folder, holds
	// a dev.grip.host.json grip did not write (another grip's).
	foreign := filepath.Join(home, ".config", "chromium", "NativeMessagingHosts", "dev.grip.host.json")
	foreignText := `{"name":"dev.grip.host","description":"another grip","path":"/opt/another/grip","type":"stdio","allowed_origins":["chrome-extension://bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb/"]}`
	for name, text := range map[string]string{filepath.Join(home, ".config", "chromium", "Local State"): "{}", foreign: foreignText} {
		if err := os.MkdirAll(filepath.Dir(name), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(name, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	extra := []string{"HOME=" + home, "XDG_CONFIG_HOME=" + filepath.Join(home, ".config")}
	grip := func(args ...string) browsertest.Result { return runGripEnv(ctx, state, extra, args...) }
	launch := func() (launched, string) {
		t.Helper()
		r := grip("launch", "--detach", "--profile-dir", profile, "--json")
		var l launched
		if err := json.Unmarshal([]byte(r.Stdout), &l); err != nil || r.Code != 0 {
			t.Fatalf("grip launch --detach --json: exit %d, %v\nstdout: %s\nstderr: %s", r.Code, err, r.Stdout, r.Stderr)
		}
		t.Cleanup(func() { stopLaunched(t, l) })
		return l, r.Stderr
	}
	refused := func(args ...string) protocol.Error {
		t.Helper()
		r := grip(append(args, "--json")...)
		var out struct{ Error *protocol.Error }
		if err := json.Unmarshal([]byte(r.Stdout), &out); err != nil || r.Code != 1 || out.Error == nil {
			t.Fatalf("grip %s: exit %d, %v, want a refusal\nstdout: %s\nstderr: %s", strings.Join(args, " "), r.Code, err, r.Stdout, r.Stderr)
		}
		return *out.Error
	}
	mustOK := func(args ...string) string {
		t.Helper()
		r := grip(args...)
		if r.Code != 0 {
			t.Fatalf("grip %s: exit %d\nstdout: %s\nstderr: %s", strings.Join(args, " "), r.Code, r.Stdout, r.Stderr)
		}
		return r.Stdout
	}

	l, _ := launch()
	if l.ResumeTokenFile != filepath.Join(profile, launcher.ResumeTokenName) || l.Paused {
		t.Fatalf("launch printed %+v", l)
	}
	if st, err := os.Stat(l.ResumeTokenFile); err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("resume token file: %v %v", st, err)
	}

	// Doctor: ready, by the launched profile's own manifest.
	r := grip("doctor", "--json")
	var rep doctor.Report
	if err := json.Unmarshal([]byte(r.Stdout), &rep); err != nil {
		t.Fatalf("grip doctor --json: %v\n%s", err, r.Stdout)
	}
	text := grip("doctor").Stdout
	if r.Code != 0 || !rep.OK {
		t.Fatalf("grip doctor in a launched browser: exit %d\n%s", r.Code, text)
	}
	checks := map[string]doctor.Check{}
	for _, c := range rep.Checks {
		checks[c.Name] = c
	}
	if c := checks["launched profile "+profile+" host manifest"]; !c.OK || c.Warn {
		t.Errorf("the launched profile's manifest: %+v\n%s", c, text)
	}
	if c := checks["extension connected"]; !c.OK || !strings.Contains(c.Detail, "started by grip launch (headless, profile folder "+profile+")") {
		t.Errorf("connected: %+v", c)
	}
	if c := checks["Chromium host manifest"]; !c.Warn || !strings.HasPrefix(c.Fix, "nothing, for the browser grip launch started") || !strings.Contains(c.Fix, "grip did not write "+foreign) {
		t.Errorf("the installed Chromium's (someone else's) manifest: %+v\n%s", c, text)
	}
	if b, _ := os.ReadFile(foreign); string(b) != foreignText {
		t.Errorf("%s changed: %s", foreign, b)
	}

	// The pause: asking is refused at once, the launcher's token lifts it.
	mustOK("pause")
	start := env.Origin1 + "/home.html"
	if e := refused("tabs", "new", start); e.Code != protocol.CodePaused {
		t.Fatalf("an action while paused: %+v", e)
	}
	// Doctor says the browser is ready but paused, and how to lift it.
	if text := grip("doctor").Stdout; !strings.Contains(text, "⚠ paused: ") || !strings.Contains(text, "grip resume --token-file") {
		t.Errorf("doctor while paused does not say so:\n%s", text)
	}
	began := time.Now()
	e := refused("resume")
	if e.Code != protocol.CodeNotConfirmed || e.Boundary != protocol.BoundaryUser || !strings.Contains(e.Message, "headless") || !strings.Contains(e.Hint, "--token-file") {
		t.Errorf("resume without the token in a headless launched browser: %+v", e)
	}
	if took := time.Since(began); took > 20*time.Second {
		t.Errorf("resume without the token took %s: it waited for an answer no one can give", took)
	}
	if r := grip("resume"); r.Code != 1 || strings.Contains(r.Stderr, "allow it in the browser") || !strings.Contains(r.Stderr, "grip: not_confirmed: no one can answer") {
		t.Errorf("plain grip resume: exit %d, stderr %s", r.Code, r.Stderr)
	}
	wrong := filepath.Join(t.TempDir(), "wrong.token")
	if err := os.WriteFile(wrong, []byte(strings.Repeat("0", 64)), 0o600); err != nil {
		t.Fatal(err)
	}
	if e := refused("resume", "--token-file", wrong); e.Code != protocol.CodeNotConfirmed || !strings.Contains(e.Message, "not the one grip launch made") {
		t.Errorf("resume with another token: %+v", e)
	}
	var st protocol.PersonState
	if err := json.Unmarshal([]byte(mustOK("resume", "--token-file", l.ResumeTokenFile, "--json")), &st); err != nil || st.Paused {
		t.Fatalf("resume with the launcher's token: %+v %v", st, err)
	}
	mustOK("tabs", "new", start)
	if out := mustOK("snapshot"); !strings.Contains(out, "[button 'Press me']") {
		t.Errorf("snapshot after resume:\n%s", out)
	}
	var lg protocol.LogResult
	if err := json.Unmarshal([]byte(mustOK("log", "--json")), &lg); err != nil {
		t.Fatal(err)
	}
	var resumes []string
	for _, e := range lg.Entries {
		if e.Action == protocol.OpResume {
			resumes = append(resumes, e.Outcome+" "+e.Detail)
		}
	}
	if strings.Join(resumes, "|") != "not_confirmed |not_confirmed |not_confirmed with the launcher's token|ok with the launcher's token" {
		t.Errorf("resumes on the record: %q", resumes)
	}

	// Paused, the browser closed: the next launch of the profile says so,
	// with a new token; the old one no longer works.
	mustOK("pause")
	old, err := os.ReadFile(l.ResumeTokenFile)
	if err != nil {
		t.Fatal(err)
	}
	stopLaunched(t, l)
	l2, stderr := launch()
	if !l2.Paused || !strings.Contains(stderr, "agents are paused in this browser") || !strings.Contains(stderr, "grip resume --token-file "+l2.ResumeTokenFile) {
		t.Errorf("relaunch of a paused profile: %+v, stderr %s", l2, stderr)
	}
	if err := os.WriteFile(wrong, old, 0o600); err != nil {
		t.Fatal(err)
	}
	if e := refused("resume", "--token-file", wrong); e.Code != protocol.CodeNotConfirmed {
		t.Errorf("the last launch's token: %+v", e)
	}
	mustOK("resume", "--token-file", l2.ResumeTokenFile)
	mustOK("tabs", "new", start)
}

// launchHeadless starts a headless browser with grip launch --detach in
// its own state folder, at start, and stops it at the end of the test.
func launchHeadless(t *testing.T, ctx context.Context, start string) (launched, string) {
	t.Helper()
	state := t.TempDir()
	profile := filepath.Join(t.TempDir(), "profile")
	r := runGripEnv(ctx, state, nil, "launch", "--detach", "--profile-dir", profile, "--json", start)
	var l launched
	if err := json.Unmarshal([]byte(r.Stdout), &l); err != nil || r.Code != 0 {
		t.Fatalf("grip launch --detach --json: exit %d, %v\nstdout: %s\nstderr: %s", r.Code, err, r.Stdout, r.Stderr)
	}
	t.Cleanup(func() { stopLaunched(t, l) })
	return l, state
}

// In a headless browser grip launch started no one can see a question:
// a confirm rule's question and a handoff are refused at once, saying why
// and what the person can do, not after the confirm timeout (which a
// default MCP client's 60 s request timeout would beat).
func TestLaunchedHeadlessRefusesQuestionsAtOnce(t *testing.T) {
	browsertest.Need(t, env)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	_, state := launchHeadless(t, ctx, env.Origin1+"/home.html")
	file := policy.Path(state)
	if err := os.WriteFile(file, []byte("confirm "+hostOf(env.Origin1)+"\nconfirm-timeout = 15s\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	m := startMCPIn(t, state)
	snap := m.must("browser_snapshot", nil)
	press := mcpRefOf(t, snap, "[button 'Press me']")

	began := time.Now()
	text, isErr := m.call("browser_click", map[string]any{"ref": press, "element": "Press me"})
	took := time.Since(began)
	text0 := text
	if !isErr || !strings.HasPrefix(text, "not_confirmed (user): ") || !strings.Contains(text, "headless") ||
		!strings.Contains(text, "no one can see the question") || !strings.Contains(text, "change the rule for this site to act in "+file) ||
		!strings.Contains(text, "grip launch --headed") {
		t.Errorf("click under a confirm rule in a headless launched browser:\n%s", text)
	}
	if took > 5*time.Second {
		t.Errorf("the refusal took %s: it waited for an answer no one can give", took)
	}
	began = time.Now()
	text, isErr = m.call("browser_handoff", map[string]any{"why": "solve the CAPTCHA, then press Done"})
	if !isErr || !strings.HasPrefix(text, "not_confirmed (user): no one can take the step in this headless browser") {
		t.Errorf("handoff in a headless launched browser:\n%s", text)
	}
	if took := time.Since(began); took > 5*time.Second {
		t.Errorf("the handoff's refusal took %s", took)
	}
	t.Logf("click: %s\nhandoff: %s", text0, text)
	log := m.must("browser_status", map[string]any{"show": "log"})
	t.Logf("log:\n%s", log)
	recorded := false
	for _, line := range strings.Split(log, "\n") {
		recorded = recorded || strings.Contains(line, "click "+press+": [button 'Press me']") && strings.Contains(line, "not_confirmed: rule \"confirm ")
	}
	if !recorded || strings.Contains(log, "internal") {
		t.Errorf("the record of the refused click:\n%s", log)
	}
	if strings.Contains(text0, "grip policy") {
		t.Errorf("the refusal names a CLI command over MCP: %s", text0)
	}
}

// An agent's own pause is reported as the agent's, not the person's, with
// how it is lifted in this browser (a headless one grip launch started has
// no popup: the launcher's token lifts it), in the refusals, browser_pause,
// browser_status and grip status alike; a new host still knows whose it is.
func TestAgentPauseSaysWhosePauseItIs(t *testing.T) {
	browsertest.Need(t, env)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	l, state := launchHeadless(t, ctx, env.Origin1+"/home.html")
	grip := func(args ...string) browsertest.Result { return runGripEnv(ctx, state, nil, args...) }
	m := startMCPIn(t, state)
	press := mcpRefOf(t, m.must("browser_snapshot", nil), "[button 'Press me']")

	paused := m.must("browser_pause", nil)
	if !strings.Contains(paused, "Agents are paused by agent session grip-e2e-") || !strings.Contains(paused, "grip resume --token-file") ||
		strings.Contains(paused, "the person resumes") {
		t.Fatalf("browser_pause in a headless launched browser:\n%s", paused)
	}
	t.Logf("browser_pause: %s", paused)
	session := strings.TrimSuffix(strings.Fields(paused[strings.Index(paused, "agent session "):])[2], ":")
	text, isErr := m.call("browser_click", map[string]any{"ref": press, "element": "Press me"})
	if !isErr || !strings.HasPrefix(text, "paused (user): this session ("+session+") paused agents itself, not the person") ||
		strings.Contains(text, "the person paused") || !strings.Contains(text, "no one can resume from a popup in this headless browser") {
		t.Errorf("an action after the agent's own pause:\n%s", text)
	}
	t.Logf("click: %s", text)
	if st := m.must("browser_status", nil); !strings.Contains(st, "Agents are paused by agent session "+session+": every action is refused") {
		t.Errorf("browser_status does not say agents are paused:\n%s", st)
	}
	if r := grip("status"); !strings.Contains(r.Stdout, "agents are paused by agent session "+session+": every action is refused") {
		t.Errorf("grip status: %s %s", r.Stdout, r.Stderr)
	}
	r := grip("click", press)
	if r.Code != 1 || !strings.Contains(r.Stderr, "paused: agent session "+session+" paused agents, not the person") {
		t.Errorf("another session's click: exit %d %s", r.Code, r.Stderr)
	}

	// A new host (the old one killed; the extension starts another) still
	// says whose the pause is: the extension keeps it with the pause.
	if err := syscall.Kill(l.HostPID, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(30 * time.Second)
	for {
		r := grip("status", "--wait", "20s", "--json")
		var st protocol.Status
		if json.Unmarshal([]byte(r.Stdout), &st) == nil && st.Host.PID != l.HostPID && st.Host.PID != 0 {
			if !st.Paused || st.PausedBy != session {
				t.Errorf("the new host's status: paused %v by %q", st.Paused, st.PausedBy)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no new host after the kill: %s %s", r.Stdout, r.Stderr)
		}
		time.Sleep(200 * time.Millisecond)
	}
	if r := grip("resume", "--token-file", l.ResumeTokenFile); r.Code != 0 {
		t.Fatalf("resume with the launcher's token: %s %s", r.Stdout, r.Stderr)
	}
	if st := grip("status").Stdout; strings.Contains(st, "paused") {
		t.Errorf("status after resume: %s", st)
	}
}
