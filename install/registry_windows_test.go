//go:build windows

package install

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/grip-dev/grip/internal/wintest"
	"github.com/grip-dev/grip/manifest"
)

// windowsFixture installs for a user "Zoë Smith" whose %LocalAppData% is
// under a test folder, with grip.exe under a folder with a space in it.
// It writes HKCU keys, so it runs only under Wine (scripts/test-windows
// gives it a prefix of its own), never in a person's own registry.
func windowsFixture(t *testing.T) (Options, string) {
	t.Helper()
	if !wintest.Wine() {
		t.Skip("writes HKCU\\Software\\...\\NativeMessagingHosts: run under Wine (scripts/test-windows), not in a person's own registry")
	}
	root := wintest.TempDir(t)
	home := filepath.Join(root, "Users", "Zoë Smith")
	lad := filepath.Join(home, "AppData", "Local")
	exe := filepath.Join(root, "Program Files", "grip", "grip.exe")
	mustWrite(t, exe, "MZ", 0o755)
	state := filepath.Join(lad, "grip")
	for _, b := range Browsers {
		loc, _ := Locate("windows", home, nil, b, User)
		_ = deleteRegistryKey(loc.RegistryRoot, loc.RegistryKey)
	}
	return Options{
		Browsers: []string{"all"}, HostPath: exe, ExtensionFS: testFS(),
		DataDir: filepath.Join(state, "data"), StateRoot: state, Home: home, GOOS: "windows",
		Getenv: envMap(map[string]string{"LOCALAPPDATA": lad, "PATH": ""}),
	}, lad
}

// Install writes each browser's HKCU key naming a manifest under
// %LocalAppData%\grip that starts grip.exe (a path with a space and a
// non-ASCII letter, escaped right in JSON), and Uninstall removes exactly
// those keys and files.
func TestWindowsInstallRegistry(t *testing.T) {
	opt, lad := windowsFixture(t)
	res, err := Install(opt)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Manifests) != len(Browsers) {
		t.Fatalf("Manifests = %v", res.Manifests)
	}
	vendors := map[string]string{"chrome": `Google\Chrome`, "chromium": `Chromium`, "edge": `Microsoft\Edge`,
		"brave": `BraveSoftware\Brave-Browser`, "vivaldi": `Vivaldi`}
	for _, b := range Browsers {
		key := `Software\` + vendors[b] + `\NativeMessagingHosts\dev.grip.host`
		file, ok, err := registryDefault("HKCU", key)
		if err != nil || !ok {
			t.Fatalf("HKCU\\%s: %v, %v", key, ok, err)
		}
		if want := filepath.Join(lad, "grip", "NativeMessagingHosts", b, "dev.grip.host.json"); file != want {
			t.Errorf("HKCU\\%s = %s, want %s", key, file, want)
		}
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		h, err := manifest.Parse(data)
		if err != nil || h.Path != opt.HostPath {
			t.Errorf("%s starts %q (%v), want %s", file, h.Path, err, opt.HostPath)
		}
	}
	removed, err := Uninstall(Options{HostPath: opt.HostPath, DataDir: opt.DataDir, StateRoot: opt.StateRoot, Home: opt.Home, GOOS: "windows", Getenv: opt.Getenv})
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range Browsers {
		key := `HKCU\Software\` + vendors[b] + `\NativeMessagingHosts\dev.grip.host`
		if !slices.Contains(removed, key) {
			t.Errorf("removed %v, not %s", removed, key)
		}
		if _, ok, _ := registryDefault("HKCU", strings.TrimPrefix(key, `HKCU\`)); ok {
			t.Errorf("%s still there", key)
		}
	}
	if _, err := os.Stat(filepath.Join(lad, "grip", "NativeMessagingHosts")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("manifest folder left behind: %v", err)
	}
}

// A key that names another grip's manifest is another install's: Install
// refuses without Force and says whose it was; Uninstall leaves a key
// someone changed since.
func TestWindowsInstallKeepsAnotherGripsKey(t *testing.T) {
	opt, lad := windowsFixture(t)
	opt.Browsers = []string{"edge"}
	other := filepath.Join(lad, "Programs", "other grip", "grip.exe")
	mustWrite(t, other, "MZ", 0o755)
	h, err := manifest.NewHost(other, testID)
	if err != nil {
		t.Fatal(err)
	}
	data, _ := h.Marshal()
	theirs := filepath.Join(lad, "other", "dev.grip.host.json")
	mustWrite(t, theirs, string(data), 0o644)
	const key = `Software\Microsoft\Edge\NativeMessagingHosts\dev.grip.host`
	if err := setRegistryDefault("HKCU", key, theirs); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = deleteRegistryKey("HKCU", key) })
	if _, err := Install(opt); !errors.Is(err, ErrOtherInstall) || !strings.Contains(err.Error(), other) {
		t.Fatalf("Install over another grip's key: %v, want ErrOtherInstall naming %s", err, other)
	}
	if v, _, _ := registryDefault("HKCU", key); v != theirs {
		t.Fatalf("refused install changed the key to %s", v)
	}
	opt.Force = true
	res, err := Install(opt)
	if err != nil || len(res.Notes) != 1 || !strings.Contains(res.Notes[0], other) {
		t.Fatalf("Install --force: %v, notes %v", err, res.Notes)
	}
	// Someone points the key elsewhere again: uninstall leaves it.
	if err := setRegistryDefault("HKCU", key, theirs); err != nil {
		t.Fatal(err)
	}
	if _, err := Uninstall(opt); !errors.Is(err, ErrLeftAlone) {
		t.Errorf("Uninstall of a changed key: %v, want ErrLeftAlone", err)
	}
	if v, _, _ := registryDefault("HKCU", key); v != theirs {
		t.Errorf("uninstall changed the key to %s", v)
	}
}
