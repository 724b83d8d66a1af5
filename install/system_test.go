package install

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/grip-dev/grip/crx"
	"github.com/grip-dev/grip/manifest"
)

// systemFS is an extension with a version (a packed one needs it) and the
// unpacked extension's fixed key.
func systemFS(version, worker string) fstest.MapFS {
	return fstest.MapFS{
		"manifest.json": {Data: []byte(`{"manifest_version":3,"name":"grip","version":"` + version + `","key":"` + testKey + `","host_permissions":["<all_urls>"]}`)},
		"background.js": {Data: []byte(worker)},
		"popup/menu.js": {Data: []byte("// popup\n")},
	}
}

type systemFixture struct {
	root string
	opt  SystemOptions
}

// newSystemFixture makes a fake machine under a temporary root with
// Chromium (Debian's layout) and Chrome installed, and a grip binary.
func newSystemFixture(t *testing.T) *systemFixture {
	t.Helper()
	root := t.TempDir()
	bin := filepath.Join(root, "usr", "local", "bin", "grip")
	mustWrite(t, bin, "#!/bin/sh\n", 0o755)
	mustWrite(t, filepath.Join(root, "usr", "lib", "chromium", "chromium"), "", 0o755)
	mustWrite(t, filepath.Join(root, "opt", "google", "chrome", "chrome"), "", 0o755)
	// Something of someone else's where grip writes too.
	mustWrite(t, filepath.Join(root, "etc", "chromium", "native-messaging-hosts", "com.example.other.json"), "{}", 0o644)
	return &systemFixture{root: root, opt: SystemOptions{
		HostPath: bin, ExtensionFS: systemFS("1.0", "// worker\n"), Root: root, GOOS: "linux",
	}}
}

func (f *systemFixture) path(p string) string { return SystemPath(f.root, p) }

// tree maps every file and folder under the root to its mode and content.
func (f *systemFixture) tree(t *testing.T) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(f.root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		out[p] = fi.Mode().String()
		if !d.IsDir() {
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			out[p] += " " + string(b)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func mustInstallSystem(t *testing.T, opt SystemOptions) SystemResult {
	t.Helper()
	res, err := InstallSystem(opt)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func TestInstallSystem(t *testing.T) {
	f := newSystemFixture(t)
	res := mustInstallSystem(t, f.opt)

	if !slices.Equal(res.Browsers, []string{"chrome", "chromium"}) {
		t.Errorf("Browsers = %v, want the two installed", res.Browsers)
	}
	// The key: private to root, and the packed extension's ID is its.
	keyFile := f.path("/var/lib/grip/extension-key.pem")
	fi, err := os.Stat(keyFile)
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("key %s: %v, %v", keyFile, fi, err)
	}
	key, err := crx.ParseKey(readFile(t, keyFile))
	if err != nil {
		t.Fatal(err)
	}
	if id, _ := crx.ID(&key.PublicKey); res.ExtensionID != id || id == testID {
		t.Errorf("ExtensionID = %s, the key's is %s (the unpacked one's %s)", res.ExtensionID, id, testID)
	}
	// The CRX verifies, names that ID, and its manifest agrees.
	if res.CRX != f.path("/var/lib/grip/grip.crx") || res.ExtensionVersion != "1.0.0" {
		t.Errorf("CRX %s version %s", res.CRX, res.ExtensionVersion)
	}
	file, err := crx.Verify(readFile(t, res.CRX))
	if err != nil || file.ID != res.ExtensionID {
		t.Fatalf("Verify: %v, ID %s want %s", err, file.ID, res.ExtensionID)
	}
	mj, err := file.ReadManifest()
	if err != nil {
		t.Fatal(err)
	}
	if id, err := manifest.ExtensionID(mj); err != nil || id != res.ExtensionID {
		t.Errorf("the packed manifest's key gives %s (%v), want %s", id, err, res.ExtensionID)
	}
	var m map[string]any
	_ = json.Unmarshal(mj, &m)
	if m["version"] != "1.0.0" || !strings.Contains(string(mj), `"<all_urls>"`) {
		t.Errorf("packed manifest.json:\n%s", mj)
	}
	if base64.StdEncoding.EncodeToString(file.PublicKey) != m["key"] {
		t.Error("the packed manifest's key is not the CRX's key")
	}

	// Each browser lists it, beside its binary.
	wantExt := []string{
		f.path("/opt/google/chrome/extensions/" + res.ExtensionID + ".json"),
		f.path("/usr/lib/chromium/extensions/" + res.ExtensionID + ".json"),
	}
	if !slices.Equal(res.ExternalExtensions, wantExt) {
		t.Errorf("ExternalExtensions = %q, want %q", res.ExternalExtensions, wantExt)
	}
	for _, p := range wantExt {
		var ext map[string]string
		if err := json.Unmarshal(readFile(t, p), &ext); err != nil {
			t.Fatal(err)
		}
		if want := map[string]string{"external_crx": res.CRX, "external_version": "1.0.0"}; !maps.Equal(ext, want) {
			t.Errorf("%s = %v, want %v", p, ext, want)
		}
	}
	// The system-wide host manifests allow the packed extension only: the
	// unpacked one's ID comes from a public key any extension can copy.
	wantManifests := []string{
		f.path("/etc/opt/chrome/native-messaging-hosts/dev.grip.host.json"),
		f.path("/etc/chromium/native-messaging-hosts/dev.grip.host.json"),
	}
	if !slices.Equal(res.Manifests, wantManifests) {
		t.Errorf("Manifests = %q, want %q", res.Manifests, wantManifests)
	}
	for _, p := range wantManifests {
		h, err := manifest.Parse(readFile(t, p))
		if err != nil || h.Path != f.opt.HostPath ||
			!slices.Equal(h.AllowedOrigins, []string{manifest.Origin(res.ExtensionID)}) {
			t.Errorf("%s = %+v, %v; want only the packed extension allowed", p, h, err)
		}
		if fi, _ := os.Stat(p); fi.Mode().Perm() != 0o644 {
			t.Errorf("%s mode %v", p, fi.Mode().Perm())
		}
	}
	rec, ok, err := ReadSystemReceipt(f.root)
	if err != nil || !ok || rec.ExtensionID != res.ExtensionID || len(rec.Files) != 2+2+2 {
		t.Errorf("receipt = %+v, %v, %v", rec, ok, err)
	}
}

func TestInstallSystemAgain(t *testing.T) {
	f := newSystemFixture(t)
	first := mustInstallSystem(t, f.opt)
	before := f.tree(t)
	again := mustInstallSystem(t, f.opt)
	if again.ExtensionID != first.ExtensionID || again.ExtensionVersion != first.ExtensionVersion {
		t.Errorf("second install %+v, first %+v", again, first)
	}
	if after := f.tree(t); !maps.Equal(after, before) {
		t.Error("installing again changed files")
	}

	// New content: same ID (the key is kept), a higher version, which
	// browsers install over the old one.
	f.opt.ExtensionFS = systemFS("1.0", "// worker, changed\n")
	upgraded := mustInstallSystem(t, f.opt)
	if upgraded.ExtensionID != first.ExtensionID || upgraded.ExtensionVersion != "1.0.1" {
		t.Errorf("after a change: %s %s, want %s 1.0.1", upgraded.ExtensionID, upgraded.ExtensionVersion, first.ExtensionID)
	}
	ext := readFile(t, upgraded.ExternalExtensions[0])
	if !strings.Contains(string(ext), `"external_version": "1.0.1"`) {
		t.Errorf("external listing not updated:\n%s", ext)
	}
	// A new base version starts the builds again.
	f.opt.ExtensionFS = systemFS("1.1", "// worker, changed\n")
	if r := mustInstallSystem(t, f.opt); r.ExtensionVersion != "1.1.0" {
		t.Errorf("version %s, want 1.1.0", r.ExtensionVersion)
	}
	// A four-number version is used as it is.
	f.opt.ExtensionFS = systemFS("1.2.3.4", "// worker\n")
	if r := mustInstallSystem(t, f.opt); r.ExtensionVersion != "1.2.3.4" {
		t.Errorf("version %s, want 1.2.3.4", r.ExtensionVersion)
	}
}

func TestUninstallSystemRemovesExactlyWhatInstallWrote(t *testing.T) {
	f := newSystemFixture(t)
	before := f.tree(t)
	res := mustInstallSystem(t, f.opt)
	installed := f.tree(t)
	removed, err := UninstallSystem(f.opt)
	if err != nil {
		t.Fatal(err)
	}
	if after := f.tree(t); !maps.Equal(after, before) {
		for p := range after {
			if _, ok := before[p]; !ok {
				t.Errorf("left behind: %s", p)
			}
		}
		for p := range before {
			if _, ok := after[p]; !ok {
				t.Errorf("removed something install did not write: %s", p)
			}
		}
	}
	for _, p := range removed {
		if _, ok := installed[p]; !ok {
			t.Errorf("reported removing %s, which install did not write", p)
		}
		if _, ok := before[p]; ok {
			t.Errorf("removed %s, which was there before", p)
		}
	}
	for _, p := range append(append([]string{res.CRX}, res.ExternalExtensions...), res.Manifests...) {
		if !slices.Contains(removed, p) {
			t.Errorf("removed = %q lacks %s", removed, p)
		}
	}
	if again, err := UninstallSystem(f.opt); err != nil || len(again) != 0 {
		t.Errorf("uninstall again: %q, %v", again, err)
	}
}

// A folder Chromium made 0700 (it does when run as root) is opened for
// the browsers of other users, and closed again by uninstall; folders
// install creates get 0755 whatever the umask.
func TestInstallSystemFolderModes(t *testing.T) {
	f := newSystemFixture(t)
	extDir := f.path("/usr/lib/chromium/extensions")
	if err := os.Mkdir(extDir, 0o700); err != nil {
		t.Fatal(err)
	}
	old := syscallUmask(0o077)
	defer syscallUmask(old)
	res := mustInstallSystem(t, f.opt)
	for _, d := range []string{extDir, f.path("/var/lib/grip"), f.path("/opt/google/chrome/extensions"), filepath.Dir(res.Manifests[0])} {
		if fi, err := os.Stat(d); err != nil || fi.Mode().Perm() != 0o755 {
			t.Errorf("%s: %v, %v; want 0755", d, fi.Mode().Perm(), err)
		}
	}
	if _, err := UninstallSystem(f.opt); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(extDir); err != nil || fi.Mode().Perm() != 0o700 {
		t.Errorf("%s after uninstall: %v, %v; want 0700 again", extDir, fi.Mode().Perm(), err)
	}
}

func TestUninstallSystemLeavesChangedFile(t *testing.T) {
	f := newSystemFixture(t)
	res := mustInstallSystem(t, f.opt)
	changed := res.Manifests[1]
	mustWrite(t, changed, `{"name":"dev.grip.host","path":"/elsewhere","type":"stdio"}`, 0o644)
	removed, err := UninstallSystem(f.opt)
	var la *LeftAloneError
	if !errors.As(err, &la) || la.Path != changed {
		t.Fatalf("err = %v, want a LeftAloneError for %s", err, changed)
	}
	if slices.Contains(removed, changed) {
		t.Error("reported removing the changed file")
	}
	if _, err := os.Stat(changed); err != nil {
		t.Errorf("the changed file is gone: %v", err)
	}
	if _, err := os.Stat(res.CRX); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the rest stays: %v", err)
	}
}

func TestInstallSystemBrowsers(t *testing.T) {
	f := newSystemFixture(t)
	// Only the one named.
	f.opt.Browsers = []string{"chromium"}
	res := mustInstallSystem(t, f.opt)
	if !slices.Equal(res.Browsers, []string{"chromium"}) || len(res.Manifests) != 1 {
		t.Errorf("res = %+v", res)
	}
	// Named but not installed.
	f.opt.Browsers = []string{"brave"}
	if _, err := InstallSystem(f.opt); !errors.Is(err, ErrNoBrowser) || !strings.Contains(err.Error(), f.path("/opt/brave.com/brave")) {
		t.Errorf("brave: %v", err)
	}
	f.opt.Browsers = []string{"netscape"}
	if _, err := InstallSystem(f.opt); !errors.Is(err, ErrUnknownBrowser) {
		t.Errorf("netscape: %v", err)
	}
	// Nothing installed.
	empty := SystemOptions{HostPath: f.opt.HostPath, ExtensionFS: f.opt.ExtensionFS, Root: t.TempDir(), GOOS: "linux"}
	if _, err := InstallSystem(empty); !errors.Is(err, ErrNoBrowser) || !strings.Contains(err.Error(), "/usr/lib/chromium") {
		t.Errorf("no browser: %v", err)
	}
	for _, goos := range []string{"darwin", "windows"} {
		o := f.opt
		o.GOOS = goos
		if _, err := InstallSystem(o); !errors.Is(err, ErrSystemUnsupported) || !strings.Contains(err.Error(), "unpacked") {
			t.Errorf("%s: %v", goos, err)
		}
	}
}

// The host and user-level installs trust the machine's extension ID only
// from a receipt root owns and nobody else can write.
func TestSystemExtensionID(t *testing.T) {
	f := newSystemFixture(t)
	res := mustInstallSystem(t, f.opt)
	defer func(o func(fs.FileInfo) bool) { ownedByAdmin = o }(ownedByAdmin)

	ownedByAdmin = func(fs.FileInfo) bool { return true }
	if got := SystemExtensionID(f.root); got != res.ExtensionID {
		t.Errorf("SystemExtensionID = %q, want %q", got, res.ExtensionID)
	}
	receipt := f.path("/var/lib/grip/install.json")
	if err := os.Chmod(receipt, 0o666); err != nil {
		t.Fatal(err)
	}
	if got := SystemExtensionID(f.root); got != "" {
		t.Errorf("a world-writable receipt is trusted: %q", got)
	}
	if err := os.Chmod(receipt, 0o644); err != nil {
		t.Fatal(err)
	}
	ownedByAdmin = func(fs.FileInfo) bool { return false }
	if got := SystemExtensionID(f.root); got != "" {
		t.Errorf("a receipt root does not own is trusted: %q", got)
	}
	if got := SystemExtensionID(t.TempDir()); got != "" {
		t.Errorf("no receipt: %q", got)
	}
}

// A user's own manifest, which the browser reads first, allows the
// system-wide extension too.
func TestInstallAllowsSystemExtension(t *testing.T) {
	sys := newSystemFixture(t)
	res := mustInstallSystem(t, sys.opt)
	defer func(o func(fs.FileInfo) bool) { ownedByAdmin = o }(ownedByAdmin)
	ownedByAdmin = func(fs.FileInfo) bool { return true }

	f := newFixture(t)
	f.opt.ExtensionFS = systemFS("1.0", "")
	f.opt.Browsers = []string{"chromium"}
	f.opt.SystemRoot = sys.root
	user, err := Install(f.opt)
	if err != nil {
		t.Fatal(err)
	}
	if user.SystemExtensionID != res.ExtensionID {
		t.Errorf("SystemExtensionID = %q, want %q", user.SystemExtensionID, res.ExtensionID)
	}
	h, err := manifest.Parse(readFile(t, user.Manifests[0]))
	if err != nil || !slices.Equal(h.AllowedOrigins, []string{manifest.Origin(testID), manifest.Origin(res.ExtensionID)}) {
		t.Errorf("user manifest allows %v (%v)", h.AllowedOrigins, err)
	}
}

func TestWorldExecutableNote(t *testing.T) {
	dir := t.TempDir()
	private := filepath.Join(dir, "private")
	bin := filepath.Join(private, "grip")
	mustWrite(t, bin, "", 0o755)
	if err := os.Chmod(private, 0o700); err != nil {
		t.Fatal(err)
	}
	blames := func(note, dir string) bool { return strings.Contains(note, "("+dir+" is mode") }
	if note := worldExecutableNote(bin); !blames(note, private) || !strings.Contains(note, "/usr/local/bin/grip") {
		t.Errorf("note = %q", note)
	}
	if err := os.Chmod(private, 0o755); err != nil {
		t.Fatal(err)
	}
	// (A folder above may still be private: t.TempDir's parent is.)
	if note := worldExecutableNote(bin); blames(note, private) {
		t.Errorf("blames a folder others can enter: %q", note)
	}
}

func TestValidVersion(t *testing.T) {
	for v, want := range map[string]bool{
		"1": true, "0.1.0": true, "1.2.3.4": true, "65535.0": true,
		"": false, "1.2.3.4.5": false, "01.2": false, "1.a": false, "65536": false, "-1": false, "1..2": false,
	} {
		if got := validVersion(v); got != want {
			t.Errorf("validVersion(%q) = %v, want %v", v, got, want)
		}
	}
}

func readFile(tb testing.TB, p string) []byte {
	tb.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		tb.Fatal(err)
	}
	return b
}
