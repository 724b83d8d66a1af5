package doctor

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/grip-dev/grip/install"
	"github.com/grip-dev/grip/internal/winpipe"
	"github.com/grip-dev/grip/manifest"
	"github.com/grip-dev/grip/policy"
	"github.com/grip-dev/grip/protocol"
	"github.com/grip-dev/grip/statedir"
)

const (
	testKey = "MIGfMA0GCSqGSIb3DQEBAQUAA4GNADCBiQKBgQDcBHwzDvyBQ6bDppkIs9MP4ksKqCMyXQ/A52JivHZKh4YO/9vJsT3oaYhSpDCE9RPocOEQvwsHsFReW2nUEc6OLLyoCFFxIb7KkLGsmfakkut/fFdNJYh0xOTbSN8YvLWcqph09XAY2Y/f0AL7vfO1cuCqtkMt8hFrBGWxDdf9CQIDAQAB"
	testID  = "knldjmfmopnpolahpmmgbagdohdnhkik"
)

func mustWrite(tb testing.TB, name, data string, mode os.FileMode) {
	tb.Helper()
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		tb.Fatal(err)
	}
	if err := os.WriteFile(name, []byte(data), mode); err != nil {
		tb.Fatal(err)
	}
}

func connected(ctx context.Context) ([]protocol.HostInfo, []error) {
	return []protocol.HostInfo{{Protocol: protocol.Version, Profile: "p1", Browser: "chrome", ExtensionID: testID, PID: 42}}, nil
}

// mustInstall installs grip for Chrome into a fake Linux home and returns
// the doctor Env that sees it, fully working.
func mustInstall(t *testing.T) Env {
	t.Helper()
	root := t.TempDir()
	home := filepath.Join(root, "home")
	state := filepath.Join(root, "state")
	bin := filepath.Join(root, "bin", "grip")
	mustWrite(t, bin, "#!/bin/sh\n", 0o755)
	mustWrite(t, filepath.Join(home, ".config", "google-chrome", "Local State"), "{}", 0o600)
	getenv := func(k string) string { return "" }
	_, err := install.Install(install.Options{
		Browsers: []string{"chrome"},
		HostPath: bin,
		ExtensionFS: fstest.MapFS{
			"manifest.json": {Data: []byte(`{"key":"` + testKey + `"}`)},
		},
		DataDir: statedir.At(state).Data,
		Home:    home,
		GOOS:    "linux",
		Getenv:  getenv,
		// Not the machine's: a system-wide install there must not change
		// these tests.
		SystemRoot: filepath.Join(root, "sys"),
	})
	if err != nil {
		t.Fatal(err)
	}
	return Env{
		Home: home, GOOS: "linux", Executable: bin, StateRoot: state,
		ExtensionID: testID, Probe: connected, Getenv: getenv,
		SystemRoot: filepath.Join(root, "sys"),
	}
}

func chromeManifest(env Env) string {
	return filepath.Join(env.Home, ".config", "google-chrome", "NativeMessagingHosts", manifest.FileName)
}

// find returns the check named name.
func find(t *testing.T, r Report, name string) Check {
	t.Helper()
	for _, c := range r.Checks {
		if c.Name == name {
			return c
		}
	}
	t.Fatalf("no check %q in\n%s", name, r.Text())
	return Check{}
}

func TestAllFine(t *testing.T) {
	env := mustInstall(t)
	r := Run(context.Background(), env)
	if !r.OK {
		t.Fatalf("not OK:\n%s", r.Text())
	}
	text := r.Text()
	for _, want := range []string{"✓ grip binary", "✓ Google Chrome host manifest", "✓ extension connected: chrome, profile p1", "✓ ledger", "✓ host log", "grip is ready"} {
		if !strings.Contains(text, want) {
			t.Errorf("text lacks %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, "✗") {
		t.Errorf("a ✗ in a working setup:\n%s", text)
	}
	b, _ := json.Marshal(r)
	var m struct {
		OK     bool
		Checks []map[string]any
	}
	if err := json.Unmarshal(b, &m); err != nil || !m.OK || m.Checks[0]["name"] != "grip binary" {
		t.Errorf("JSON = %s", b)
	}
}

func TestFailures(t *testing.T) {
	tests := []struct {
		name   string
		break_ func(t *testing.T, env *Env)
		check  string // the check that must fail
		detail string // words its detail must hold
	}{
		{
			name:   "manifest removed",
			break_: func(t *testing.T, env *Env) { os.Remove(chromeManifest(*env)) },
			check:  "Google Chrome host manifest", detail: "no manifest at",
		},
		{
			name: "manifest points at a missing binary",
			break_: func(t *testing.T, env *Env) {
				h, _ := manifest.NewHost("/nonexistent/grip", testID)
				b, _ := h.Marshal()
				mustWrite(t, chromeManifest(*env), string(b), 0o644)
			},
			check: "Google Chrome host manifest", detail: "/nonexistent/grip, which does not exist",
		},
		{
			name: "manifest points at a file that is not executable",
			break_: func(t *testing.T, env *Env) {
				os.Chmod(env.Executable, 0o644)
			},
			check: "Google Chrome host manifest", detail: "is not executable",
		},
		{
			name: "manifest allows another extension",
			break_: func(t *testing.T, env *Env) {
				h, _ := manifest.NewHost(env.Executable, strings.Repeat("a", 32))
				b, _ := h.Marshal()
				mustWrite(t, chromeManifest(*env), string(b), 0o644)
			},
			check: "Google Chrome host manifest", detail: "not the grip extension",
		},
		{
			name: "no browser connected",
			break_: func(t *testing.T, env *Env) {
				env.Probe = func(context.Context) ([]protocol.HostInfo, []error) { return nil, nil }
			},
			check: "extension connected", detail: "no browser has grip's extension connected",
		},
		{
			name: "only a dead socket",
			break_: func(t *testing.T, env *Env) {
				env.Probe = func(context.Context) ([]protocol.HostInfo, []error) {
					return nil, []error{errors.New("profile p1: connection refused")}
				}
			},
			check: "extension connected", detail: "connection refused",
		},
		{
			name:   "go run binary",
			break_: func(t *testing.T, env *Env) { env.Executable = "/tmp/go-build99/b001/exe/grip" },
			check:  "grip binary", detail: "go run",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env := mustInstall(t)
			tt.break_(t, &env)
			r := Run(context.Background(), env)
			if r.OK {
				t.Errorf("OK despite the fault:\n%s", r.Text())
			}
			c := find(t, r, tt.check)
			if c.OK || c.Warn {
				t.Errorf("check %+v, want a ✗", c)
			}
			if !strings.Contains(c.Detail, tt.detail) {
				t.Errorf("detail %q lacks %q", c.Detail, tt.detail)
			}
			if c.Fix == "" {
				t.Errorf("✗ without a fix: %+v", c)
			}
			text := r.Text()
			if !strings.Contains(text, "✗ "+tt.check) || !strings.Contains(text, "    fix: "+c.Fix) {
				t.Errorf("text lacks the ✗ line and its fix:\n%s", text)
			}
		})
	}
}

func TestProtocolMismatch(t *testing.T) {
	env := mustInstall(t)
	env.Probe = func(context.Context) ([]protocol.HostInfo, []error) {
		return []protocol.HostInfo{{Protocol: protocol.Version + 1, Profile: "old"}}, nil
	}
	r := Run(context.Background(), env)
	if r.OK {
		t.Fatalf("OK with only a mismatched host:\n%s", r.Text())
	}
	if c := find(t, r, "host old"); c.OK || !strings.Contains(c.Detail, "protocol") {
		t.Errorf("check = %+v", c)
	}
}

func TestWarningsKeepOK(t *testing.T) {
	env := mustInstall(t)
	dirs := statedir.At(env.StateRoot)
	mustWrite(t, filepath.Join(dirs.Ledger, "p1.json"), `{"next":3}`, 0o600)
	mustWrite(t, filepath.Join(dirs.Ledger, "p1.json.bad-20250101T000000"), `{`, 0o600)
	mustWrite(t, filepath.Join(dirs.Logs, "host.log"), "started\nnative: read error: EOF\nsnapshot ok\n", 0o600)
	// A browser grip was never installed for is a warning, not a fault.
	mustWrite(t, filepath.Join(env.Home, ".config", "chromium", "Local State"), "{}", 0o600)

	r := Run(context.Background(), env)
	if !r.OK {
		t.Fatalf("not OK:\n%s", r.Text())
	}
	if c := find(t, r, "ledger file moved aside"); !c.Warn || !strings.Contains(c.Detail, ".bad-") {
		t.Errorf("moved-aside check = %+v", c)
	}
	if c := find(t, r, "host log"); !c.Warn || !strings.Contains(c.Detail, "native: read error: EOF") {
		t.Errorf("host log check = %+v", c)
	}
	if c := find(t, r, "Chromium host manifest"); !c.Warn {
		t.Errorf("chromium check = %+v", c)
	}
	if c := find(t, r, "ledger"); !c.OK || c.Warn {
		t.Errorf("ledger check = %+v", c)
	}
	if strings.Contains(r.Text(), "✗") {
		t.Errorf("a ✗ among warnings:\n%s", r.Text())
	}
}

func TestBadLedger(t *testing.T) {
	env := mustInstall(t)
	mustWrite(t, filepath.Join(statedir.At(env.StateRoot).Ledger, "p1.json"), `{"next":`, 0o600)
	r := Run(context.Background(), env)
	if c := find(t, r, "ledger"); c.OK || !strings.Contains(c.Detail, "not valid JSON") {
		t.Errorf("ledger check = %+v", c)
	}
}

func TestAnotherGrip(t *testing.T) {
	env := mustInstall(t)
	other := filepath.Join(t.TempDir(), "grip")
	mustWrite(t, other, "#!/bin/sh\n", 0o755)
	env.Executable = other
	r := Run(context.Background(), env)
	if !r.OK {
		t.Fatalf("not OK:\n%s", r.Text())
	}
	if c := find(t, r, "Google Chrome host manifest"); !c.OK || !c.Warn || !strings.Contains(c.Detail, "another grip") {
		t.Errorf("check = %+v", c)
	}
}

func TestNoBrowserAtAll(t *testing.T) {
	env := Env{
		Home: t.TempDir(), GOOS: "linux", Executable: "/usr/local/bin/grip", StateRoot: t.TempDir(),
		ExtensionID: testID, Probe: connected, Getenv: func(string) string { return "" },
		SystemRoot: t.TempDir(),
	}
	r := Run(context.Background(), env)
	if r.OK {
		t.Fatalf("OK without a browser:\n%s", r.Text())
	}
	if c := find(t, r, "browsers"); c.OK || c.Fix == "" {
		t.Errorf("check = %+v", c)
	}
}

// A profile named with --user-data-dir must work itself: Chrome's own
// manifest does not help a browser started with that profile.
func TestNamedProfile(t *testing.T) {
	env := mustInstall(t)
	profile := filepath.Join(t.TempDir(), "profile")
	env.UserDataDir = profile
	file := filepath.Join(profile, "NativeMessagingHosts", manifest.FileName)
	r := Run(context.Background(), env)
	c := find(t, r, "profile "+profile+" host manifest")
	if r.OK || c.OK || c.Warn || !strings.Contains(c.Detail, file) {
		t.Fatalf("missing manifest of the named profile: OK %v, check %+v\n%s", r.OK, c, r.Text())
	}
	if !strings.Contains(r.Text(), "✗ profile "+profile+" host manifest") {
		t.Errorf("no ✗ line for the named profile:\n%s", r.Text())
	}
	h, err := manifest.NewHost(env.Executable, testID)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := h.Marshal()
	mustWrite(t, file, string(b), 0o644)
	if r := Run(context.Background(), env); !r.OK {
		t.Errorf("named profile set up, still not OK:\n%s", r.Text())
	}

	// A relative --user-data-dir names a folder under the working directory.
	t.Chdir(filepath.Dir(profile))
	env.UserDataDir = "profile"
	if r := Run(context.Background(), env); !r.OK || !strings.Contains(r.Text(), "✓ profile "+profile+" host manifest") {
		t.Errorf("relative --user-data-dir not checked as %s:\n%s", profile, r.Text())
	}
}

// An extension from another build of grip is a ✗ with the fix.
func TestBuildMismatch(t *testing.T) {
	env := mustInstall(t)
	env.Probe = func(ctx context.Context) ([]protocol.HostInfo, []error) {
		hosts, errs := connected(ctx)
		hosts[0].Warning = "the extension (build aaaaaaaaaaaa) and grip (build bbbbbbbbbbbb) come from different builds: run grip install again"
		return hosts, errs
	}
	r := Run(context.Background(), env)
	if r.OK {
		t.Fatalf("OK with an extension from another build:\n%s", r.Text())
	}
	c := find(t, r, "host p1")
	if c.OK || !strings.Contains(c.Detail, "different builds") || !strings.Contains(c.Fix, "grip install") {
		t.Errorf("check %+v", c)
	}
}

func TestPolicy(t *testing.T) {
	env := mustInstall(t)
	r := Run(context.Background(), env)
	if c := find(t, r, "policy"); !c.OK || !strings.Contains(c.Detail, "no policy file yet") {
		t.Errorf("no file: %+v", c)
	}
	path := policy.Path(env.StateRoot)
	mustWrite(t, path, "block *.bank.example\ntabs = shared\n", 0o600)
	r = Run(context.Background(), env)
	if c := find(t, r, "policy"); !c.OK || !strings.Contains(c.Detail, "1 rule(s), default act, tabs shared") {
		t.Errorf("good file: %+v", c)
	}
	mustWrite(t, path, "block *.bank.example\nblok x.example\n", 0o600)
	r = Run(context.Background(), env)
	c := find(t, r, "policy")
	if c.OK || !strings.Contains(c.Detail, "line 2") || !strings.Contains(c.Detail, "last policy that read well") || c.Fix == "" {
		t.Errorf("broken file: %+v", c)
	}
	if r.OK {
		t.Errorf("a broken policy leaves the verdict ready:\n%s", r.Text())
	}
}

// launchedEnv is a machine where grip was never installed, Chromium is
// (its folder holds someone else's dev.grip.host.json, which grip did not
// write), and a browser `grip launch` started is connected with its own
// profile's manifest.
func launchedEnv(t *testing.T) (env Env, profile, foreign string) {
	t.Helper()
	root := t.TempDir()
	home := filepath.Join(root, "home")
	bin := filepath.Join(root, "bin", "grip")
	mustWrite(t, bin, "#!/bin/sh\n", 0o755)
	mustWrite(t, filepath.Join(home, ".config", "chromium", "Local State"), "{}", 0o600)
	foreign = filepath.Join(home, ".config", "chromium", "NativeMessagingHosts", manifest.FileName)
	h, _ := manifest.NewHost("/opt/someone-else/grip", strings.Repeat("b", 32))
	b, _ := h.Marshal()
	mustWrite(t, foreign, string(b), 0o644)
	profile = filepath.Join(root, "state", "launch-profile")
	h, _ = manifest.NewHost(bin, testID)
	b, _ = h.Marshal()
	mustWrite(t, filepath.Join(profile, "NativeMessagingHosts", manifest.FileName), string(b), 0o644)
	env = Env{
		Home: home, GOOS: "linux", Executable: bin, StateRoot: filepath.Join(root, "state"),
		ExtensionID: testID, Getenv: func(string) string { return "" }, SystemRoot: filepath.Join(root, "sys"),
		Probe: func(context.Context) ([]protocol.HostInfo, []error) {
			return []protocol.HostInfo{{Protocol: protocol.Version, Profile: "l1", ExtensionID: testID, PID: 43,
				Launched: &protocol.LaunchedBrowser{ProfileDir: profile, Headless: true, Resume: true}}}, nil
		},
	}
	return env, profile, foreign
}

// A browser grip launch started reads its own profile's manifest: doctor
// checks that one, the installed Chromium's is none of its business, and
// no fix says to overwrite a file grip did not write.
func TestLaunchedBrowser(t *testing.T) {
	env, profile, foreign := launchedEnv(t)
	before, _ := os.ReadFile(foreign)
	r := Run(context.Background(), env)
	if !r.OK {
		t.Fatalf("not ready with the launched browser connected and working:\n%s", r.Text())
	}
	if c := find(t, r, "launched profile "+profile+" host manifest"); !c.OK || c.Warn {
		t.Errorf("launched profile's manifest: %+v", c)
	}
	c := find(t, r, "Chromium host manifest")
	if c.OK && !c.Warn || !c.Warn || !strings.Contains(c.Detail, "the browser grip launch started does not read it") {
		t.Errorf("the installed Chromium's manifest: %+v, want a warning saying the launched browser does not read it", c)
	}
	if !strings.HasPrefix(c.Fix, "nothing, for the browser grip launch started") || !strings.Contains(c.Fix, "grip did not write "+foreign) || strings.HasPrefix(c.Fix, "run `grip install") {
		t.Errorf("the fix for someone else's file: %q", c.Fix)
	}
	if c := find(t, r, "extension connected"); !c.OK || !strings.Contains(c.Detail, "started by grip launch (headless, profile folder "+profile+")") {
		t.Errorf("connected: %+v", c)
	}
	if after, _ := os.ReadFile(foreign); string(after) != string(before) {
		t.Errorf("doctor changed %s", foreign)
	}

	// The launched profile's own manifest broken: that is a fault, and its
	// fix is grip launch, which writes it.
	os.Remove(filepath.Join(profile, "NativeMessagingHosts", manifest.FileName))
	r = Run(context.Background(), env)
	c = find(t, r, "launched profile "+profile+" host manifest")
	if r.OK || c.OK || c.Warn || !strings.Contains(c.Fix, "grip launch --profile-dir "+profile) {
		t.Errorf("launched profile without its manifest: OK %v, %+v", r.OK, c)
	}
}

// The installed browser connected too: its manifest is a fault again, as
// in TestFailures; and someone else's broken file there is a ✗ whose fix
// does not say to overwrite it.
func TestLaunchedBesideTheInstalledBrowser(t *testing.T) {
	env := mustInstall(t)
	profile := filepath.Join(t.TempDir(), "launch-profile")
	h, _ := manifest.NewHost(env.Executable, testID)
	b, _ := h.Marshal()
	mustWrite(t, filepath.Join(profile, "NativeMessagingHosts", manifest.FileName), string(b), 0o644)
	env.Probe = func(ctx context.Context) ([]protocol.HostInfo, []error) {
		hosts, _ := connected(ctx)
		return append(hosts, protocol.HostInfo{Protocol: protocol.Version, Profile: "l1", ExtensionID: testID, PID: 43,
			Launched: &protocol.LaunchedBrowser{ProfileDir: profile}}), nil
	}
	if r := Run(context.Background(), env); !r.OK {
		t.Fatalf("not ready:\n%s", r.Text())
	}
	os.Remove(chromeManifest(env))
	r := Run(context.Background(), env)
	if c := find(t, r, "Google Chrome host manifest"); r.OK || c.OK || c.Warn || !strings.Contains(c.Fix, "grip install --browser chrome") {
		t.Errorf("the installed, connected Chrome without its manifest: OK %v, %+v", r.OK, c)
	}

	// A file grip did not write, broken, for a browser that is in use.
	foreign := filepath.Join(env.Home, ".config", "chromium", "NativeMessagingHosts", manifest.FileName)
	mustWrite(t, filepath.Join(env.Home, ".config", "chromium", "Local State"), "{}", 0o600)
	mustWrite(t, foreign, `{"name":"dev.grip.host","type":"stdio","path":"/nonexistent/grip","allowed_origins":["chrome-extension://`+testID+`/"]}`, 0o644)
	r = Run(context.Background(), env)
	c := find(t, r, "Chromium host manifest")
	if c.OK || !strings.HasPrefix(c.Fix, "grip did not write "+foreign) {
		t.Errorf("someone else's broken manifest: %+v", c)
	}
}

// A paused launched browser is ready but says it is paused, and how the
// launcher lifts it; once it is gone, the fix is to launch it again.
func TestLaunchedBrowserPausedThenGone(t *testing.T) {
	env, profile, _ := launchedEnv(t)
	probe := env.Probe
	env.Probe = func(ctx context.Context) ([]protocol.HostInfo, []error) {
		hosts, errs := probe(ctx)
		for i := range hosts {
			hosts[i].Paused = true
		}
		return hosts, errs
	}
	r := Run(context.Background(), env)
	c := find(t, r, "paused")
	if !r.OK || !c.Warn || !strings.Contains(c.Detail, "every action is refused") || !strings.Contains(c.Fix, "grip resume --token-file "+filepath.Join(profile, "grip-resume.token")) {
		t.Errorf("a paused launched browser: ready %v, %+v", r.OK, c)
	}

	env.Probe = func(context.Context) ([]protocol.HostInfo, []error) { return nil, nil }
	env.LastLeft = func() (protocol.HostInfo, bool) {
		return protocol.HostInfo{Profile: "l1", Left: "2026-12-01T12:00:00Z", Launched: &protocol.LaunchedBrowser{ProfileDir: profile}}, true
	}
	r = Run(context.Background(), env)
	c = find(t, r, "extension connected")
	if r.OK || c.OK || !strings.HasPrefix(c.Fix, "start it again with `grip launch`") || !strings.Contains(c.Detail, profile) {
		t.Errorf("the launched browser gone: ready %v, %+v", r.OK, c)
	}
}

// On Windows (and macOS) the fix for a missing connection names the
// store's way too; on Windows a folder's rights are checked with icacls,
// not a Unix mode.
func TestWindowsFixes(t *testing.T) {
	if fix := connectFix("windows", systemState{}); !strings.Contains(fix, "grip install --extension-id ID") {
		t.Errorf("connectFix(windows) = %q", fix)
	}
	if fix := permFix("windows", `C:\Users\Zoë\AppData\Local\grip\ledger`); !strings.Contains(fix, `icacls "C:\Users\Zoë\AppData\Local\grip\ledger"`) || strings.Contains(fix, "0700") {
		t.Errorf("permFix(windows) = %q", fix)
	}
	if fix := permFix("linux", "/x"); !strings.Contains(fix, "0700") {
		t.Errorf("permFix(linux) = %q", fix)
	}
}

// A host's pipe served by another user's process (Windows) is its own
// failing check, with how to end that process, not a stale host.
func TestWindowsPipeOfAnotherUser(t *testing.T) {
	err := fmt.Errorf("host of profile p (pid 7) does not answer: %w",
		fmt.Errorf(`\\.\pipe\grip-x-p is served by process 99: %w: S-1-5-21-9, not S-1-5-21-1`, winpipe.ErrNotOwner))
	checks := checkConnected(Env{GOOS: "windows", Probe: func(context.Context) ([]protocol.HostInfo, []error) { return nil, nil }}, systemState{}, nil, []error{err})
	var pipe *Check
	for i := range checks {
		if checks[i].Name == "agents' pipe" {
			pipe = &checks[i]
		}
	}
	if pipe == nil || pipe.OK || !strings.Contains(pipe.Detail, "process 99") || !strings.Contains(pipe.Fix, "taskkill") {
		t.Fatalf("checks = %+v", checks)
	}
}

// The grip beside grip-host: the same build is a ✓; another build, or none,
// a ⚠ with the fix, and grip is still ready (the host works either way).
func TestCompanion(t *testing.T) {
	for _, c := range []struct {
		version string
		err     error
		want    string
	}{
		{"grip v1 (protocol 1)\n", nil, "✓ grip beside grip-host: /b/grip, the same build"},
		{"grip v0 (protocol 1)\n", nil, `⚠ grip beside grip-host: /b/grip is "grip v0 (protocol 1)", this grip-host "grip v1 (protocol 1)"`},
		{"", errors.New("no grip beside /b/grip-host"), "⚠ grip beside grip-host: no grip beside /b/grip-host\n    fix: build both from the same source"},
	} {
		env := mustInstall(t)
		env.Version = "grip v1 (protocol 1)\n"
		env.Companion = func() (string, string, error) { return "/b/grip", c.version, c.err }
		r := Run(context.Background(), env)
		if text := r.Text(); !strings.Contains(text, c.want) || !r.OK {
			t.Errorf("companion %q, %v: OK %v, want a line %q in\n%s", c.version, c.err, r.OK, c.want, text)
		}
	}
}
