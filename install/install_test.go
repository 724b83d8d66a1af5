package install

import (
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/grip-dev/grip/manifest"
)

const testKey = "MIGfMA0GCSqGSIb3DQEBAQUAA4GNADCBiQKBgQDcBHwzDvyBQ6bDppkIs9MP4ksKqCMyXQ/A52JivHZKh4YO/9vJsT3oaYhSpDCE9RPocOEQvwsHsFReW2nUEc6OLLyoCFFxIb7KkLGsmfakkut/fFdNJYh0xOTbSN8YvLWcqph09XAY2Y/f0AL7vfO1cuCqtkMt8hFrBGWxDdf9CQIDAQAB"
const testID = "knldjmfmopnpolahpmmgbagdohdnhkik"

func testFS() fstest.MapFS {
	return fstest.MapFS{
		"manifest.json":  {Data: []byte(`{"manifest_version":3,"name":"grip","key":"` + testKey + `"}`)},
		"background.js":  {Data: []byte("// worker\n")},
		"popup/menu.js":  {Data: []byte("// popup\n")},
		"popup/menu.css": {Data: []byte("body{}\n")},
	}
}

type fixture struct {
	home, state string
	opt         Options
}

// newFixture makes a fake Linux home with a grip binary and returns
// options that install into it. PATH is empty so nothing on the real
// machine is detected.
func newFixture(t *testing.T) *fixture {
	t.Helper()
	root := t.TempDir()
	home := filepath.Join(root, "home")
	state := filepath.Join(root, "state")
	bin := filepath.Join(root, "bin", "grip")
	mustWrite(t, bin, "#!/bin/sh\n", 0o755)
	if err := os.MkdirAll(home, 0o755); err != nil {
		t.Fatal(err)
	}
	return &fixture{home: home, state: state, opt: Options{
		HostPath:    bin,
		ExtensionFS: testFS(),
		DataDir:     filepath.Join(state, "data"),
		Home:        home,
		GOOS:        "linux",
		Getenv:      envMap(map[string]string{"PATH": ""}),
		// Not the machine's: a system-wide install there must not
		// change these tests.
		SystemRoot: filepath.Join(root, "sys"),
	}}
}

func mustWrite(tb testing.TB, name, data string, mode os.FileMode) {
	tb.Helper()
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		tb.Fatal(err)
	}
	if err := os.WriteFile(name, []byte(data), mode); err != nil {
		tb.Fatal(err)
	}
}

// useBrowser makes the browser's profile look used, so Detect finds it.
func (f *fixture) useBrowser(t *testing.T, dir string) {
	t.Helper()
	mustWrite(t, filepath.Join(f.home, ".config", dir, "Local State"), "{}", 0o600)
}

// snapshot lists every file and folder under the fixture's home and state.
func (f *fixture) snapshot(t *testing.T) []string {
	t.Helper()
	var out []string
	for _, dir := range []string{f.home, f.state} {
		_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err == nil {
				out = append(out, p)
			}
			return nil
		})
	}
	return out
}

func chromeManifest(f *fixture) string {
	return filepath.Join(f.home, ".config", "google-chrome", "NativeMessagingHosts", "dev.grip.host.json")
}

func TestInstallNoBrowser(t *testing.T) {
	f := newFixture(t)
	_, err := Install(f.opt)
	if !errors.Is(err, ErrNoBrowser) {
		t.Fatalf("err = %v, want ErrNoBrowser", err)
	}
	for _, want := range []string{filepath.Join(f.home, ".config", "google-chrome"), "$PATH/chromium", "--browser"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error does not mention %q:\n%v", want, err)
		}
	}
}

func TestInstallDetected(t *testing.T) {
	f := newFixture(t)
	f.useBrowser(t, "google-chrome")
	// A folder holding only NativeMessagingHosts does not count as a browser.
	mustWrite(t, filepath.Join(f.home, ".config", "vivaldi", "NativeMessagingHosts", "other.json"), "{}", 0o644)
	res, err := Install(f.opt)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{chromeManifest(f)}; !slices.Equal(res.Manifests, want) {
		t.Fatalf("Manifests = %v, want %v", res.Manifests, want)
	}
	if res.ExtensionID != testID || res.HostPath != f.opt.HostPath || res.ExtensionDir != filepath.Join(f.state, "data", "extension") {
		t.Errorf("Result = %+v", res)
	}

	fi, err := os.Stat(chromeManifest(f))
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o644 {
		t.Errorf("manifest mode = %v, want 0644", fi.Mode().Perm())
	}
	if fi, err := os.Stat(filepath.Dir(chromeManifest(f))); err != nil || fi.Mode().Perm() != 0o755 {
		t.Errorf("manifest folder: %v, %v", fi, err)
	}
	b, _ := os.ReadFile(chromeManifest(f))
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	if m["name"] != "dev.grip.host" || m["type"] != "stdio" || m["path"] != f.opt.HostPath {
		t.Errorf("manifest = %s", b)
	}
	if o, _ := m["allowed_origins"].([]any); len(o) != 1 || o[0] != "chrome-extension://"+testID+"/" {
		t.Errorf("allowed_origins = %v", m["allowed_origins"])
	}

	for name, file := range testFS() {
		got, err := os.ReadFile(filepath.Join(res.ExtensionDir, filepath.FromSlash(name)))
		if err != nil || string(got) != string(file.Data) {
			t.Errorf("extension file %s = %q, %v", name, got, err)
		}
	}

	js, _ := json.Marshal(res)
	var keys map[string]any
	_ = json.Unmarshal(js, &keys)
	for _, k := range []string{"extension_id", "extension_dir", "host_path", "manifests"} {
		if _, ok := keys[k]; !ok {
			t.Errorf("result JSON %s lacks %q", js, k)
		}
	}
	if !strings.Contains(res.Text(), "Load unpacked") || !strings.Contains(res.Text(), res.ExtensionDir) {
		t.Errorf("Text() = %s", res.Text())
	}
}

func TestInstallIdempotent(t *testing.T) {
	f := newFixture(t)
	f.opt.Browsers = []string{"chrome", "edge"}
	first, err := Install(f.opt)
	if err != nil {
		t.Fatal(err)
	}
	before := f.snapshot(t)
	receipt1, _ := os.ReadFile(filepath.Join(f.state, ReceiptFile))
	manifest1, _ := os.ReadFile(chromeManifest(f))

	second, err := Install(f.opt)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(first.Manifests, second.Manifests) || first.ExtensionDir != second.ExtensionDir {
		t.Errorf("second result %+v differs from first %+v", second, first)
	}
	if after := f.snapshot(t); !slices.Equal(before, after) {
		t.Errorf("files changed:\nbefore %v\nafter  %v", before, after)
	}
	receipt2, _ := os.ReadFile(filepath.Join(f.state, ReceiptFile))
	manifest2, _ := os.ReadFile(chromeManifest(f))
	if string(receipt1) != string(receipt2) || string(manifest1) != string(manifest2) {
		t.Errorf("receipt or manifest changed:\n%s\n%s", receipt1, receipt2)
	}
	rec, ok, err := ReadReceipt(f.state)
	if !ok || err != nil || len(rec.Manifests) != 2 {
		t.Errorf("receipt = %+v, %v, %v; want 2 manifests", rec, ok, err)
	}
}

func TestInstallRemovesStaleExtensionFiles(t *testing.T) {
	f := newFixture(t)
	f.opt.Browsers = []string{"chrome"}
	res, err := Install(f.opt)
	if err != nil {
		t.Fatal(err)
	}
	stale := filepath.Join(res.ExtensionDir, "old", "gone.js")
	mustWrite(t, stale, "x", 0o644)
	fsys := testFS()
	delete(fsys, "popup/menu.css")
	f.opt.ExtensionFS = fsys
	if _, err := Install(f.opt); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{stale, filepath.Dir(stale), filepath.Join(res.ExtensionDir, "popup", "menu.css")} {
		if _, err := os.Lstat(p); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("%s still there (%v)", p, err)
		}
	}
	if _, err := os.Stat(filepath.Join(res.ExtensionDir, "popup", "menu.js")); err != nil {
		t.Error(err)
	}
}

func TestUninstallRemovesExactlyWhatInstallWrote(t *testing.T) {
	f := newFixture(t)
	f.useBrowser(t, "google-chrome")
	foreign := filepath.Join(filepath.Dir(chromeManifest(f)), "com.other.host.json")
	mustWrite(t, foreign, `{"name":"com.other.host"}`, 0o644)
	before := f.snapshot(t)

	f.opt.Browsers = []string{"chrome", "brave"}
	res, err := Install(f.opt)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Manifests) != 2 {
		t.Fatalf("Manifests = %v, want chrome and brave", res.Manifests)
	}
	custom := f.opt
	custom.UserDataDir = filepath.Join(f.home, "profiles", "test")
	if res, err = Install(custom); err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(custom.UserDataDir, "NativeMessagingHosts", "dev.grip.host.json"); len(res.Manifests) != 1 || res.Manifests[0] != want {
		t.Errorf("custom manifests = %v, want only %s", res.Manifests, want)
	}

	f.opt.Browsers = nil
	removed, err := Uninstall(f.opt)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(removed, chromeManifest(f)) || !slices.Contains(removed, filepath.Join(f.state, ReceiptFile)) {
		t.Errorf("removed = %v", removed)
	}
	after := f.snapshot(t)
	// The state root itself was created by Install; everything else is as before.
	after = slices.DeleteFunc(after, func(p string) bool { return p == f.state || p == filepath.Join(f.state, "data") })
	if !slices.Equal(before, after) {
		t.Errorf("uninstall left a different tree:\nbefore %v\nafter  %v", before, after)
	}
	if _, err := os.Stat(foreign); err != nil {
		t.Errorf("foreign manifest removed: %v", err)
	}
	// Nothing is left, so a second uninstall removes nothing.
	if again, err := Uninstall(f.opt); err != nil || len(again) != 0 {
		t.Errorf("second Uninstall = %v, %v; want nothing removed", again, err)
	}
}

func TestUninstallLeavesChangedManifest(t *testing.T) {
	f := newFixture(t)
	f.opt.Browsers = []string{"chrome"}
	if _, err := Install(f.opt); err != nil {
		t.Fatal(err)
	}
	h, _ := manifest.NewHost("/opt/other/grip", testID)
	b, _ := h.Marshal()
	mustWrite(t, chromeManifest(f), string(b), 0o644)

	removed, err := Uninstall(Options{DataDir: f.opt.DataDir, Home: f.home, GOOS: "linux", Getenv: f.opt.Getenv})
	if !errors.Is(err, ErrLeftAlone) {
		t.Fatalf("err = %v, want ErrLeftAlone", err)
	}
	var left *LeftAloneError
	if !errors.As(err, &left) || left.Path != chromeManifest(f) || !strings.Contains(left.Reason, "/opt/other/grip") {
		t.Errorf("err = %v", err)
	}
	if _, err := os.Stat(chromeManifest(f)); err != nil {
		t.Errorf("changed manifest removed: %v", err)
	}
	if slices.Contains(removed, chromeManifest(f)) {
		t.Errorf("removed = %v", removed)
	}
	if _, err := os.Stat(filepath.Join(f.state, "data", "extension")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("extension folder still there: %v", err)
	}
}

func TestUninstallOneBrowser(t *testing.T) {
	f := newFixture(t)
	f.opt.Browsers = []string{"chrome", "edge"}
	if _, err := Install(f.opt); err != nil {
		t.Fatal(err)
	}
	opt := f.opt
	opt.Browsers = []string{"edge"}
	if _, err := Uninstall(opt); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(chromeManifest(f)); err != nil {
		t.Errorf("chrome manifest gone: %v", err)
	}
	rec, ok, _ := ReadReceipt(f.state)
	if !ok || len(rec.Manifests) != 1 || rec.Manifests[0].Browser != "chrome" {
		t.Errorf("receipt = %+v", rec)
	}
}

func TestUninstallWithoutReceipt(t *testing.T) {
	f := newFixture(t)
	f.opt.Browsers = []string{"chrome"}
	if _, err := Install(f.opt); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(f.state, ReceiptFile)); err != nil {
		t.Fatal(err)
	}
	opt := f.opt
	opt.Browsers = nil
	removed, err := Uninstall(opt)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(removed, chromeManifest(f)) {
		t.Errorf("removed = %v", removed)
	}
}

func TestInstallRefusesHostPath(t *testing.T) {
	f := newFixture(t)
	f.opt.Browsers = []string{"chrome"}
	tests := []struct {
		path string
		want error
	}{
		{"grip", ErrHostPathRelative},
		{filepath.Join(os.TempDir(), "go-build1234", "b001", "exe", "grip"), ErrHostPathTemporary},
		{filepath.Join(f.home, "nope", "grip"), ErrHostPathMissing},
	}
	for _, tt := range tests {
		opt := f.opt
		opt.HostPath = tt.path
		if _, err := Install(opt); !errors.Is(err, tt.want) {
			t.Errorf("HostPath %q: err = %v, want %v", tt.path, err, tt.want)
		}
	}
	if _, err := os.Stat(filepath.Join(f.state, ReceiptFile)); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a refused install wrote a receipt: %v", err)
	}
}

func TestInstallExtensionIDMismatch(t *testing.T) {
	f := newFixture(t)
	f.opt.Browsers = []string{"chrome"}
	f.opt.ExtensionID = strings.Repeat("a", 32)
	if _, err := Install(f.opt); !errors.Is(err, ErrBadOptions) {
		t.Errorf("err = %v, want ErrBadOptions", err)
	}
}

func TestDetect(t *testing.T) {
	home := t.TempDir()
	bin := t.TempDir()
	mustWrite(t, filepath.Join(bin, "brave-browser"), "", 0o755)
	mustWrite(t, filepath.Join(bin, "vivaldi"), "", 0o644) // not executable
	mustWrite(t, filepath.Join(home, ".config", "chromium", "Default", "Preferences"), "{}", 0o600)
	found, looked := Detect("linux", home, envMap(map[string]string{"PATH": bin}))
	var names []string
	for _, f := range found {
		names = append(names, f.Browser)
	}
	if want := []string{"chromium", "brave"}; !slices.Equal(names, want) {
		t.Errorf("found %v, want %v", found, want)
	}
	if len(looked) == 0 {
		t.Error("looked nowhere")
	}
	winHome := t.TempDir()
	mustWrite(t, filepath.Join(winHome, `Microsoft\Edge\User Data`, "Local State"), "{}", 0o600)
	found, _ = Detect("windows", `C:\Users\u`, envMap(map[string]string{"LOCALAPPDATA": winHome}))
	// On a non-Windows machine the backslash path is one odd folder name;
	// either way Detect must not panic and finds at most Edge.
	for _, f := range found {
		if f.Browser != "edge" {
			t.Errorf("windows found %v", f)
		}
	}
}

// A custom profile's install writes only what that profile's browser reads
// (its user-data dir's NativeMessagingHosts): the default profile's
// manifest, here one that starts another grip, is not touched, even with
// --browser naming the profile's browser.
func TestInstallCustomProfileLeavesTheDefaultProfile(t *testing.T) {
	f := newFixture(t)
	f.useBrowser(t, "chromium")
	other := filepath.Join(filepath.Dir(f.opt.HostPath), "other-grip")
	mustWrite(t, other, "#!/bin/sh\n", 0o755)
	def := filepath.Join(f.home, ".config", "chromium", "NativeMessagingHosts", "dev.grip.host.json")
	theirs := `{"name":"dev.grip.host","description":"grip","path":"` + other + `","type":"stdio","allowed_origins":["chrome-extension://` + testID + `/"]}`
	mustWrite(t, def, theirs, 0o644)

	f.opt.Browsers = []string{"chromium"}
	f.opt.UserDataDir = filepath.Join(f.home, "profiles", "test")
	res, err := Install(f.opt)
	if err != nil {
		t.Fatal(err)
	}
	want := filepath.Join(f.opt.UserDataDir, "NativeMessagingHosts", "dev.grip.host.json")
	if len(res.Manifests) != 1 || res.Manifests[0] != want || len(res.Notes) != 0 {
		t.Fatalf("Manifests = %v, notes %v; want only %s", res.Manifests, res.Notes, want)
	}
	if b, _ := os.ReadFile(def); string(b) != theirs {
		t.Errorf("the default profile's manifest changed:\n%s", b)
	}
	if _, err := Uninstall(f.opt); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(def); string(b) != theirs {
		t.Errorf("uninstall changed the default profile's manifest:\n%s", b)
	}
}

// A manifest written by the grip of before the split (it named grip, which
// now hands the host to the grip-host beside it) is this install's own:
// replaced without --force, and the note says so.
func TestInstallOverTheGripBesideIt(t *testing.T) {
	f := newFixture(t)
	f.opt.HostPath = filepath.Join(filepath.Dir(f.opt.HostPath), "grip-host")
	mustWrite(t, f.opt.HostPath, "#!/bin/sh\n", 0o755)
	old := filepath.Join(filepath.Dir(f.opt.HostPath), "grip")
	mustWrite(t, chromeManifest(f), `{"name":"dev.grip.host","description":"grip","path":"`+old+`","type":"stdio","allowed_origins":["chrome-extension://`+testID+`/"]}`, 0o644)
	f.opt.Browsers = []string{"chrome"}
	res, err := Install(f.opt)
	if err != nil {
		t.Fatalf("Install over the manifest of the grip beside grip-host: %v", err)
	}
	if len(res.Notes) != 1 || !strings.Contains(res.Notes[0], "grip-host beside it") {
		t.Errorf("notes = %v, want one saying it now starts grip-host", res.Notes)
	}
	if h := readHost(t, chromeManifest(f)); h.Path != f.opt.HostPath {
		t.Errorf("manifest starts %s, want %s", h.Path, f.opt.HostPath)
	}
}

// A manifest that starts another grip binary is another install's:
// replacing it needs Force, and the note says whose it was. One whose
// binary is gone is replaced with a note.
func TestInstallReplacesAnotherGripOnlyWithForce(t *testing.T) {
	f := newFixture(t)
	other := filepath.Join(filepath.Dir(f.opt.HostPath), "other-grip")
	mustWrite(t, other, "#!/bin/sh\n", 0o755)
	theirs := `{"name":"dev.grip.host","description":"grip","path":"` + other + `","type":"stdio","allowed_origins":["chrome-extension://` + testID + `/"]}`
	mustWrite(t, chromeManifest(f), theirs, 0o644)
	f.opt.Browsers = []string{"chrome"}

	_, err := Install(f.opt)
	if !errors.Is(err, ErrOtherInstall) || !strings.Contains(err.Error(), other) || !strings.Contains(err.Error(), "--force") {
		t.Fatalf("Install over another grip's manifest: %v, want ErrOtherInstall naming %s and --force", err, other)
	}
	if b, _ := os.ReadFile(chromeManifest(f)); string(b) != theirs {
		t.Fatalf("refused install still changed the manifest:\n%s", b)
	}
	// Refused before anything was written: no extension, no receipt.
	if _, err := os.Lstat(f.state); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a refused install wrote %s (%v)", f.state, err)
	}

	f.opt.Force = true
	res, err := Install(f.opt)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Notes) != 1 || !strings.Contains(res.Notes[0], other) {
		t.Errorf("notes = %v, want one naming %s", res.Notes, other)
	}
	h := readHost(t, chromeManifest(f))
	if h.Path != f.opt.HostPath {
		t.Errorf("manifest starts %s, want %s", h.Path, f.opt.HostPath)
	}

	// The other binary gone: no --force needed.
	mustWrite(t, chromeManifest(f), theirs, 0o644)
	if err := os.Remove(other); err != nil {
		t.Fatal(err)
	}
	f.opt.Force = false
	if res, err = Install(f.opt); err != nil || len(res.Notes) != 1 || !strings.Contains(res.Notes[0], "no longer there") {
		t.Errorf("over a gone grip's manifest: %v, notes %v", err, res.Notes)
	}
}

// --extension-id adds an ID the manifests allow, recorded in the receipt
// for the host (AllowedExtensionIDs); a malformed one is refused.
func TestInstallExtraExtensionID(t *testing.T) {
	f := newFixture(t)
	f.opt.Browsers = []string{"chrome"}
	const store = "abcdefghijklmnopabcdefghijklmnop"
	f.opt.ExtraExtensionIDs = []string{store}
	res, err := Install(f.opt)
	if err != nil {
		t.Fatal(err)
	}
	h := readHost(t, chromeManifest(f))
	if !slices.Equal(h.AllowedOrigins, []string{"chrome-extension://" + testID + "/", "chrome-extension://" + store + "/"}) {
		t.Errorf("allowed_origins = %v", h.AllowedOrigins)
	}
	if !slices.Equal(res.ExtraExtensionIDs, []string{store}) {
		t.Errorf("result's extra IDs = %v", res.ExtraExtensionIDs)
	}
	if got := AllowedExtensionIDs(f.state); !slices.Equal(got, []string{store}) {
		t.Errorf("AllowedExtensionIDs = %v, want [%s]", got, store)
	}
	f.opt.ExtraExtensionIDs = []string{"not-an-id"}
	if _, err := Install(f.opt); !errors.Is(err, ErrBadOptions) {
		t.Errorf("bad --extension-id: %v, want ErrBadOptions", err)
	}
}

func readHost(t *testing.T, file string) manifest.Host {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	h, err := manifest.Parse(b)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// A build of the extension as grip embeds it: three version numbers, a
// build named in version_name, a module worker.
func buildFS(hash, worker string) fstest.MapFS {
	fsys := testFS()
	fsys["manifest.json"] = &fstest.MapFile{Data: []byte(`{"manifest_version":3,"name":"grip","key":"` + testKey + `","version":"0.1.0","version_name":"0.1.0 build ` + hash + `","background":{"service_worker":"worker/background.js","type":"module"}}`)}
	fsys["worker/background.js"] = &fstest.MapFile{Data: []byte(worker)}
	return fsys
}

// Install writes the folder a person loads unpacked as a kept profile's
// folder is written (extension.ForFolder): over another build, the
// manifest's version moves on and names a worker file of its own, so the
// browser installs the new build's worker in place of the one it had
// registered; the same build again changes nothing; the receipt lists the
// worker file, and the last one is removed.
func TestInstallUpgradeGivesTheWorkerANewFile(t *testing.T) {
	f := newFixture(t)
	f.opt.Browsers = []string{"chrome"}
	manifestOf := func(dir string) (version, worker string) {
		t.Helper()
		var m struct {
			Version    string `json:"version"`
			Background struct {
				ServiceWorker string `json:"service_worker"`
			} `json:"background"`
		}
		b, err := os.ReadFile(filepath.Join(dir, "manifest.json"))
		if err != nil || json.Unmarshal(b, &m) != nil {
			t.Fatalf("manifest.json: %v\n%s", err, b)
		}
		return m.Version, m.Background.ServiceWorker
	}
	f.opt.ExtensionFS = buildFS("aaaa1111", "// build A\n")
	res, err := Install(f.opt)
	if err != nil {
		t.Fatal(err)
	}
	v1, w1 := manifestOf(res.ExtensionDir)
	if !strings.HasPrefix(v1, "0.1.0.") || w1 != "worker/background-"+v1+".js" {
		t.Fatalf("first install: version %q, worker %q; want 0.1.0.N and worker/background-0.1.0.N.js", v1, w1)
	}
	if b, err := os.ReadFile(filepath.Join(res.ExtensionDir, filepath.FromSlash(w1))); err != nil || !strings.Contains(string(b), "import './background.js'") {
		t.Fatalf("%s: %v\n%s", w1, err, b)
	}

	again, err := Install(f.opt)
	if err != nil {
		t.Fatal(err)
	}
	if v, w := manifestOf(again.ExtensionDir); v != v1 || w != w1 {
		t.Errorf("the same build again: version %q worker %q, want %q %q", v, w, v1, w1)
	}

	f.opt.ExtensionFS = buildFS("bbbb2222", "// build B\n")
	up, err := Install(f.opt)
	if err != nil {
		t.Fatal(err)
	}
	v2, w2 := manifestOf(up.ExtensionDir)
	if v2 == v1 || w2 == w1 || w2 != "worker/background-"+v2+".js" {
		t.Errorf("upgraded: version %q worker %q after %q %q: want a new version and a worker file of its own", v2, w2, v1, w1)
	}
	if _, err := os.Lstat(filepath.Join(up.ExtensionDir, filepath.FromSlash(w1))); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the last build's worker file %s is still there (%v)", w1, err)
	}
	if b, _ := os.ReadFile(filepath.Join(up.ExtensionDir, "worker", "background.js")); string(b) != "// build B\n" {
		t.Errorf("worker/background.js = %q, want build B's", b)
	}
	rec, ok, err := ReadReceipt(f.state)
	if !ok || err != nil || !slices.Contains(rec.ExtensionFiles, w2) || slices.Contains(rec.ExtensionFiles, w1) {
		t.Errorf("receipt files %q (%v %v): want %s and not %s", rec.ExtensionFiles, ok, err, w2, w1)
	}
}
