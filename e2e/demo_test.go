package e2e

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/grip-dev/grip/internal/browsertest"
	"github.com/grip-dev/grip/launcher"
)

// runGripEnv runs the e2e grip binary with GRIP_STATE_DIR and extra variables.
func runGripEnv(ctx context.Context, stateDir string, extra []string, args ...string) browsertest.Result {
	return browsertest.RunGripEnv(ctx, env.Bin, stateDir, extra, args...)
}

// `grip demo` runs the whole loop on its own browser and bundled shop,
// shows a ✓ for every step, and leaves nothing behind.
func TestDemo(t *testing.T) {
	browsertest.Need(t, env)
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	tmp := t.TempDir()
	start := time.Now()
	r := runGripEnv(ctx, t.TempDir(), []string{"TMPDIR=" + tmp}, "demo")
	took := time.Since(start)
	t.Logf("grip demo: exit %d in %s\n%s", r.Code, took.Round(100*time.Millisecond), r.Stdout)
	if r.Code != 0 {
		t.Fatalf("grip demo: exit %d\nstderr: %s", r.Code, r.Stderr)
	}
	if strings.Contains(r.Stdout, "✗") {
		t.Errorf("a step shows ✗")
	}
	const n = 5
	for i := 1; i <= n; i++ {
		head := fmt.Sprintf("── Step %d/%d ", i, n)
		at := strings.Index(r.Stdout, head)
		if at < 0 {
			t.Errorf("step %d is not shown", i)
			continue
		}
		section := r.Stdout[at:]
		if next := strings.Index(section[len(head):], "── Step "); next >= 0 {
			section = section[:len(head)+next]
		}
		if !strings.Contains(section, "\n✓ ") {
			t.Errorf("step %d has no ✓:\n%s", i, section)
		}
	}
	for _, want := range []string{"$ grip snapshot", "=== Frame: 0 (Top: http://127.0.0.1:", "(http://localhost:",
		"stale_ref", "Payment accepted", "✓ all 5 steps did what they showed"} {
		if !strings.Contains(r.Stdout, want) {
			t.Errorf("output lacks %q", want)
		}
	}
	if took > time.Minute {
		t.Errorf("grip demo took %s, want under a minute", took)
	}
	left, _ := os.ReadDir(tmp)
	for _, e := range left {
		t.Errorf("grip demo left %s behind in its temp dir", e.Name())
	}
}

// A browser without grip's help: no browser found names what to install.
func TestDemoNoBrowser(t *testing.T) {
	browsertest.Need(t, env)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	r := runGripEnv(ctx, t.TempDir(), []string{"PATH=" + t.TempDir(), "GRIP_BROWSER="},
		"demo", "--browser-path", filepath.Join(t.TempDir(), "no-such-browser"))
	if r.Code != 1 || !strings.Contains(r.Stderr, "no_browser") || !strings.Contains(r.Stderr, "--browser-path") {
		t.Fatalf("exit %d, stderr %q; want 1 and a no_browser error naming --browser-path", r.Code, r.Stderr)
	}
}

// launched is what `grip launch --json` prints.
type launched struct {
	BrowserPID      int    `json:"browser_pid"`
	Profile         string `json:"profile"`
	HostPID         int    `json:"host_pid"`
	Socket          string `json:"socket"`
	ProfileDir      string `json:"profile_dir"`
	Sandbox         bool   `json:"sandbox"`
	NoSandboxReason string `json:"no_sandbox_reason"`
	ResumeTokenFile string `json:"resume_token_file"`
	Paused          bool   `json:"paused"`
}

// checkSandbox: a launched browser keeps Chromium's sandbox unless it
// cannot run (root) or GRIP_NO_SANDBOX turns it off, and grip launch says
// so, in --json and on stderr, when it is off.
func checkSandbox(t *testing.T, l launched, stderr string) {
	t.Helper()
	cmdline, err := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", l.BrowserPID))
	if err != nil {
		t.Fatalf("the browser's command line: %v", err)
	}
	off := slices.Contains(strings.Split(string(cmdline), "\x00"), "--no-sandbox")
	wantOff := os.Geteuid() == 0 || os.Getenv(launcher.EnvNoSandbox) != ""
	switch {
	case off != wantOff:
		t.Errorf("--no-sandbox on the command line = %v, want %v (euid %d)", off, wantOff, os.Geteuid())
	case l.Sandbox == off:
		t.Errorf("launch --json says sandbox %v, the command line --no-sandbox %v", l.Sandbox, off)
	case off && (l.NoSandboxReason == "" || !strings.Contains(stderr, "without Chromium's sandbox")):
		t.Errorf("the sandbox is off and launch did not say why: reason %q, stderr %q", l.NoSandboxReason, stderr)
	case !off && strings.Contains(stderr, "sandbox"):
		t.Errorf("the sandbox is on, stderr says: %q", stderr)
	}
}

// stopLaunched kills a launched browser's process group and waits for it
// and its host to be gone.
func stopLaunched(t *testing.T, l launched) {
	t.Helper()
	if l.BrowserPID > 0 {
		_ = syscall.Kill(-l.BrowserPID, syscall.SIGKILL)
	}
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) && (launcher.Alive(l.BrowserPID) || launcher.Alive(l.HostPID) || launcher.GroupAlive(l.BrowserPID)) {
		time.Sleep(100 * time.Millisecond)
	}
	if launcher.Alive(l.HostPID) {
		t.Errorf("host %d still runs after its browser was killed", l.HostPID)
	}
}

// `grip launch --detach` leaves a connected browser behind, and grip
// commands with the same GRIP_STATE_DIR drive it.
func TestLaunchDetach(t *testing.T) {
	browsertest.Need(t, env)
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	state := t.TempDir()
	profile := filepath.Join(t.TempDir(), "profile")
	start := env.Origin2 + "/home.html"
	r := runGripEnv(ctx, state, nil, "launch", "--detach", "--profile-dir", profile, "--json", start)
	var l launched
	if err := json.Unmarshal([]byte(r.Stdout), &l); err != nil || r.Code != 0 {
		t.Fatalf("grip launch --detach --json: exit %d, %v\nstdout: %s\nstderr: %s", r.Code, err, r.Stdout, r.Stderr)
	}
	t.Cleanup(func() { stopLaunched(t, l) })
	// The start URL's tab is one grip reads at once (a tab the browser
	// opened before the extension ran once was not).
	if r := browsertest.RunGrip(ctx, env.Bin, state, "snapshot"); r.Code != 0 || !strings.Contains(r.Stdout, "[button 'Press me']") || !strings.Contains(r.Stdout, start) {
		t.Fatalf("grip snapshot of the start URL: exit %d\nstdout: %s\nstderr: %s", r.Code, r.Stdout, r.Stderr)
	}
	if l.BrowserPID <= 0 || l.HostPID <= 0 || l.Profile == "" || l.Socket == "" || l.ProfileDir != profile {
		t.Fatalf("launch printed %+v", l)
	}
	checkSandbox(t, l, r.Stderr)
	if !launcher.Alive(l.BrowserPID) {
		t.Fatalf("the browser (pid %d) did not outlive grip launch --detach", l.BrowserPID)
	}
	if _, err := os.Stat(filepath.Join(profile, "NativeMessagingHosts", "dev.grip.host.json")); err != nil {
		t.Errorf("no host manifest in the profile: %v", err)
	}
	// Its crash reports are the profile's, not ~/.config/chromium's (launcher.Env).
	if _, err := os.Stat(filepath.Join(profile, "Crash Reports", "settings.dat")); err != nil {
		t.Errorf("the launched browser's crash reports are not in its profile: %v", err)
	}
	url := env.Origin1 + "/home.html"
	if r := browsertest.RunGrip(ctx, env.Bin, state, "tabs", "new", url); r.Code != 0 {
		t.Fatalf("grip tabs new: exit %d\nstdout: %s\nstderr: %s", r.Code, r.Stdout, r.Stderr)
	}
	r = browsertest.RunGrip(ctx, env.Bin, state, "snapshot")
	if r.Code != 0 {
		t.Fatalf("grip snapshot: exit %d\nstdout: %s\nstderr: %s", r.Code, r.Stdout, r.Stderr)
	}
	for _, want := range []string{"Fixture Home", url, "[button 'Press me']"} {
		if !strings.Contains(r.Stdout, want) {
			t.Errorf("snapshot lacks %q:\n%s", want, r.Stdout)
		}
	}
}

// `grip launch` by a user who is not root keeps Chromium's sandbox, and
// grip's extension and host still work in it. Run as uid 65534 (setpriv)
// when the tests run as root; skipped where that is not possible.
func TestLaunchKeepsSandboxAsUser(t *testing.T) {
	browsertest.Need(t, env)
	const nobody = 65534
	if os.Getenv(launcher.EnvNoSandbox) != "" {
		t.Skipf("%s is set", launcher.EnvNoSandbox)
	}
	var prefix []string
	if os.Geteuid() == 0 {
		setpriv, err := exec.LookPath("setpriv")
		if err != nil {
			t.Skip("setpriv (util-linux) not installed: cannot launch as a user other than root")
		}
		prefix = []string{setpriv, fmt.Sprintf("--reuid=%d", nobody), fmt.Sprintf("--regid=%d", nobody), "--clear-groups", "--"}
	}
	// A folder the other user can reach, holding a copy of grip and grip-host (the test
	// build's lies in root's private cache) and the user's own folders.
	root, err := os.MkdirTemp("", "gripsbx")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(root) })
	if err := os.Chmod(root, 0o755); err != nil {
		t.Fatal(err)
	}
	// grip and the grip-host beside it, which launch is handed to.
	bin := filepath.Join(root, "grip")
	for _, name := range []string{"grip", "grip-host"} {
		src, err := os.ReadFile(filepath.Join(filepath.Dir(env.Bin), name))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, name), src, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	home := filepath.Join(root, "home")
	if err := os.Mkdir(home, 0o700); err != nil {
		t.Fatal(err)
	}
	if prefix != nil {
		if err := os.Chown(home, nobody, nobody); err != nil {
			t.Fatal(err)
		}
	}
	state, profile := filepath.Join(home, "state"), filepath.Join(home, "profile")
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	args := append(prefix, bin, "launch", "--detach", "--json", "--profile-dir", profile)
	cmd := exec.CommandContext(ctx, args[0], args[1:]...)
	cmd.Dir = home
	cmd.Env = []string{"HOME=" + home, "PATH=/usr/bin:/bin", "GRIP_STATE_DIR=" + state, "TMPDIR=" + home,
		launcher.EnvBrowser + "=" + browsertest.FindBrowser()}
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	runErr := cmd.Run()
	var l launched
	if err := json.Unmarshal(out.Bytes(), &l); err != nil || runErr != nil {
		t.Fatalf("grip launch as uid %d: %v, %v\nstdout: %s\nstderr: %s", nobody, runErr, err, out.String(), errb.String())
	}
	t.Cleanup(func() { stopLaunched(t, l) })
	cmdline, err := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", l.BrowserPID))
	if err != nil {
		t.Fatal(err)
	}
	if slices.Contains(strings.Split(string(cmdline), "\x00"), "--no-sandbox") {
		t.Errorf("the browser of a user runs with --no-sandbox: %q", strings.ReplaceAll(string(cmdline), "\x00", " "))
	}
	if !l.Sandbox || l.NoSandboxReason != "" || strings.Contains(errb.String(), "sandbox") {
		t.Errorf("launch says sandbox %v (%q), stderr %q", l.Sandbox, l.NoSandboxReason, errb.String())
	}
	if l.HostPID <= 0 || l.Socket == "" {
		t.Errorf("no host connected: %+v", l)
	}
}

// `grip launch` without --detach runs until interrupted, then stops its
// browser.
func TestLaunchStopsOnInterrupt(t *testing.T) {
	browsertest.Need(t, env)
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	state := t.TempDir()
	cmd := exec.CommandContext(ctx, env.Bin, "launch", "--json", "--profile-dir", filepath.Join(t.TempDir(), "p"))
	cmd.Env = append(os.Environ(), "GRIP_STATE_DIR="+state)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var errb bytes.Buffer
	cmd.Stderr = &errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var l launched
	if err := json.NewDecoder(stdout).Decode(&l); err != nil {
		cmd.Process.Kill()
		cmd.Wait()
		t.Fatalf("grip launch --json printed no JSON: %v\nstderr: %s", err, errb.String())
	}
	t.Cleanup(func() { stopLaunched(t, l) })
	if !launcher.Alive(l.BrowserPID) {
		t.Fatalf("browser %d is not running", l.BrowserPID)
	}
	if err := cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("grip launch after Ctrl-C: %v\nstderr: %s", err, errb.String())
	}
	if launcher.Alive(l.BrowserPID) || launcher.GroupAlive(l.BrowserPID) {
		t.Errorf("the browser's process group %d outlived grip launch", l.BrowserPID)
	}
}

// Ctrl-C in the middle of the demo stops its browser and removes its
// files.
func TestDemoInterrupted(t *testing.T) {
	browsertest.Need(t, env)
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	tmp := t.TempDir()
	cmd := exec.CommandContext(ctx, env.Bin, "demo")
	cmd.Env = append(os.Environ(), "GRIP_STATE_DIR="+t.TempDir(), "TMPDIR="+tmp)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var errb bytes.Buffer
	cmd.Stderr = &errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// Interrupt in the middle of the walk, once the browser is connected.
	pid := 0
	sc := bufio.NewScanner(stdout)
	for sc.Scan() {
		if _, after, ok := strings.Cut(sc.Text(), ", pid "); ok && pid == 0 {
			fmt.Sscanf(after, "%d", &pid)
		}
		if strings.HasPrefix(sc.Text(), "── Step 1/") {
			break
		}
	}
	if pid == 0 {
		cmd.Process.Kill()
		cmd.Wait()
		t.Fatalf("grip demo printed no browser pid; stderr: %s", errb.String())
	}
	if err := cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	go io.Copy(io.Discard, stdout)
	err = cmd.Wait()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 1 {
		t.Errorf("grip demo after Ctrl-C: %v, want exit 1; stderr: %s", err, errb.String())
	}
	if launcher.GroupAlive(pid) {
		t.Errorf("the demo's browser (process group %d) outlived it", pid)
		_ = syscall.Kill(-pid, syscall.SIGKILL)
	}
	left, _ := os.ReadDir(tmp)
	for _, e := range left {
		t.Errorf("grip demo left %s behind after Ctrl-C", e.Name())
	}
}

// The tests' browser keeps its crash reports in its own profile: Chromium
// on Linux would write them under ~/.config/chromium whatever its
// --user-data-dir (launcher.Env), and tests leave the machine's browser
// folders alone.
func TestTestBrowserKeepsItsCrashReportsInItsProfile(t *testing.T) {
	browsertest.Need(t, env)
	if _, err := os.Stat(filepath.Join(env.ProfileDir, "Crash Reports", "settings.dat")); err != nil {
		t.Errorf("the test browser's crash reports are not in its profile: %v", err)
	}
}
