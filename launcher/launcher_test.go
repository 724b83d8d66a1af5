package launcher

import (
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/grip-dev/grip/extension"
	"github.com/grip-dev/grip/manifest"
)

// mustFakeBrowser writes an executable file named name into dir.
func mustFakeBrowser(tb testing.TB, dir, name string) string {
	tb.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte("#!/bin/sh\nexit 0\n"), 0o755); err != nil {
		tb.Fatal(err)
	}
	return p
}

// emptyMachine is a finder that sees no browser anywhere.
func emptyMachine(goos, osRelease string) finder {
	return finder{
		goos:      goos,
		getenv:    func(string) string { return "" },
		lookPath:  func(string) (string, error) { return "", errors.New("not found") },
		isFile:    isExecutableFile,
		locations: []string{"/nonexistent/chromium", "/nonexistent/chrome"},
		osRelease: osRelease,
	}
}

func TestFindExplicit(t *testing.T) {
	dir := t.TempDir()
	fake := mustFakeBrowser(t, dir, "my-chrome")
	f := emptyMachine("linux", "")
	got, err := f.find(fake)
	if err != nil || got != fake {
		t.Fatalf("find(%q) = %q, %v", fake, got, err)
	}
	// An explicit path that does not exist is an error, not a fallback.
	f.lookPath = func(string) (string, error) { return "/usr/bin/chromium", nil }
	_, err = f.find(filepath.Join(dir, "missing"))
	if !errors.Is(err, ErrNotFound) || !strings.Contains(err.Error(), "--browser-path") {
		t.Fatalf("missing explicit path: err = %v, want ErrNotFound naming --browser-path", err)
	}
	// A directory is not a browser.
	if _, err := f.find(dir); !errors.Is(err, ErrNotFound) {
		t.Fatalf("directory: err = %v", err)
	}
}

func TestFindEnv(t *testing.T) {
	fake := mustFakeBrowser(t, t.TempDir(), "env-chrome")
	f := emptyMachine("linux", "")
	f.getenv = func(k string) string {
		if k == EnvBrowser {
			return fake
		}
		return ""
	}
	if got, err := f.find(""); err != nil || got != fake {
		t.Fatalf("find with %s = %q, %v", EnvBrowser, got, err)
	}
}

func TestFindOnPATH(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the fake browser is a shell script")
	}
	tests := []struct {
		name  string
		files []string
		want  string
	}{
		{"chromium", []string{"chromium"}, "chromium"},
		{"chrome only", []string{"google-chrome-stable"}, "google-chrome-stable"},
		{"order wins", []string{"brave-browser", "chromium-browser"}, "chromium-browser"},
		{"edge", []string{"microsoft-edge"}, "microsoft-edge"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			for _, n := range tt.files {
				mustFakeBrowser(t, dir, n)
			}
			t.Setenv("PATH", dir)
			t.Setenv(EnvBrowser, "")
			got, err := Find("")
			if err != nil {
				t.Fatal(err)
			}
			if want := filepath.Join(dir, tt.want); got != want {
				t.Errorf("Find = %q, want %q", got, want)
			}
		})
	}
}

func TestFindInstallLocation(t *testing.T) {
	fake := mustFakeBrowser(t, t.TempDir(), "chrome")
	f := emptyMachine("linux", "")
	f.locations = append(f.locations, fake)
	if got, err := f.find(""); err != nil || got != fake {
		t.Fatalf("find = %q, %v; want the install location %q", got, err, fake)
	}
}

func TestFindNoneNamesThePackage(t *testing.T) {
	tests := []struct {
		goos, osRelease, want string
	}{
		{"linux", "ID=debian\nVERSION_ID=\"12\"\n", "sudo apt-get install chromium"},
		{"linux", "ID=linuxmint\nID_LIKE=\"ubuntu debian\"\n", "sudo apt-get install chromium"},
		{"linux", "ID=ubuntu\nID_LIKE=debian\n", "sudo snap install chromium"},
		{"linux", "ID=fedora\n", "sudo dnf install chromium"},
		{"linux", "ID=arch\n", "sudo pacman -S chromium"},
		{"linux", "ID=\"opensuse-tumbleweed\"\nID_LIKE=\"opensuse suse\"\n", "sudo zypper install chromium"},
		{"linux", "", "sudo apt-get install chromium"},
		{"darwin", "", "brew install --cask chromium"},
		{"windows", "", "winget install Google.Chrome"},
	}
	for _, tt := range tests {
		t.Run(tt.goos+"/"+strings.SplitN(tt.osRelease, "\n", 2)[0], func(t *testing.T) {
			_, err := emptyMachine(tt.goos, tt.osRelease).find("")
			if !errors.Is(err, ErrNotFound) {
				t.Fatalf("err = %v, want ErrNotFound", err)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error does not name %q:\n%v", tt.want, err)
			}
			if !strings.Contains(err.Error(), "--browser-path") {
				t.Errorf("error does not mention --browser-path:\n%v", err)
			}
		})
	}
}

func TestFlags(t *testing.T) {
	defer func(f func() bool) { isRoot = f }(isRoot)
	base := []string{
		"--user-data-dir=/p", "--load-extension=/x", "--disable-extensions-except=/x",
		"--no-first-run", "--no-default-browser-check", "--disable-gpu", "--disable-quic",
		"--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--disable-dev-shm-usage",
	}
	// The sandbox stays on unless it cannot work (root) or the user turns
	// it off (GRIP_NO_SANDBOX, or --no-sandbox: Options.NoSandbox):
	// headless or not, this browser keeps logins and opens ordinary sites.
	tests := []struct {
		name          string
		headed, root  bool
		noSandboxEnv  string
		headless, nsb bool
		why           string // NoSandboxReason's gist; "" when sandboxed
	}{
		{"headless user keeps the sandbox", false, false, "", true, false, ""},
		{"headless root", false, true, "", true, true, "root"},
		{"headed user keeps the sandbox", true, false, "", false, false, ""},
		{"headed root", true, true, "", false, true, "root"},
		{"headed user, GRIP_NO_SANDBOX", true, false, "1", false, true, EnvNoSandbox},
		{"headless user, GRIP_NO_SANDBOX", false, false, "1", true, true, EnvNoSandbox},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			isRoot = func() bool { return tt.root }
			t.Setenv(EnvNoSandbox, tt.noSandboxEnv)
			why := NoSandboxReason(false)
			if (why == "") != (tt.why == "") || !strings.Contains(why, tt.why) {
				t.Errorf("NoSandboxReason = %q, want one naming %q", why, tt.why)
			}
			if asked := NoSandboxReason(true); !strings.Contains(asked, "--no-sandbox") {
				t.Errorf("NoSandboxReason(asked) = %q, want it to name --no-sandbox", asked)
			}
			got := Flags("/p", "/x", tt.headed)
			for _, f := range base {
				if !slices.Contains(got, f) {
					t.Errorf("missing %s in %q", f, got)
				}
			}
			if slices.Contains(got, "--headless=new") != tt.headless {
				t.Errorf("--headless=new present = %v, want %v: %q", !tt.headless, tt.headless, got)
			}
			if slices.Contains(got, "--no-sandbox") != tt.nsb {
				t.Errorf("--no-sandbox present = %v, want %v: %q", !tt.nsb, tt.nsb, got)
			}
			for _, f := range got {
				if !strings.HasPrefix(f, "--") {
					t.Errorf("flag %q does not start with --", f)
				}
			}
		})
	}
}

func TestSplitFlag(t *testing.T) {
	tests := []struct {
		in   string
		name string
		val  any
	}{
		{"--no-sandbox", "no-sandbox", true},
		{"--headless=new", "headless", "new"},
		{"--user-data-dir=/a=b", "user-data-dir", "/a=b"},
	}
	for _, tt := range tests {
		n, v := SplitFlag(tt.in)
		if n != tt.name || v != tt.val {
			t.Errorf("SplitFlag(%q) = %q, %v; want %q, %v", tt.in, n, v, tt.name, tt.val)
		}
	}
}

func TestPrepareProfile(t *testing.T) {
	dir := t.TempDir()
	bin := mustFakeBrowser(t, t.TempDir(), "grip")
	extDir, err := PrepareProfile(dir, bin)
	if err != nil {
		t.Fatal(err)
	}
	if extDir != filepath.Join(dir, ExtensionDirName) {
		t.Errorf("extDir = %q", extDir)
	}
	type versions struct{ Version, VersionName string }
	read := func(fsys fs.FS) versions {
		t.Helper()
		var v struct {
			Version     string `json:"version"`
			VersionName string `json:"version_name"`
		}
		b, err := fs.ReadFile(fsys, "manifest.json")
		if err != nil || json.Unmarshal(b, &v) != nil {
			t.Fatalf("extension manifest not written: %v %s", err, b)
		}
		return versions{v.Version, v.VersionName}
	}
	got, embedded := read(os.DirFS(extDir)), read(extension.Files())
	// It carries grip's build, and a version of its own (extension.ForFolder).
	if got.VersionName != embedded.VersionName || !strings.HasPrefix(got.Version, embedded.Version+".") {
		t.Fatalf("extension manifest written %+v, the embedded one %+v", got, embedded)
	}
	b, err := os.ReadFile(filepath.Join(dir, "NativeMessagingHosts", manifest.FileName))
	if err != nil {
		t.Fatal(err)
	}
	var h manifest.Host
	if err := json.Unmarshal(b, &h); err != nil {
		t.Fatal(err)
	}
	id, _ := manifest.ExtensionID(extension.ManifestJSON)
	if h.Path != bin || h.Name != manifest.HostName || len(h.AllowedOrigins) != 1 || h.AllowedOrigins[0] != manifest.Origin(id) {
		t.Errorf("host manifest = %+v", h)
	}
	// A second run rewrites, and drops files the extension no longer has.
	stale := filepath.Join(extDir, "old.js")
	if err := os.WriteFile(stale, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := PrepareProfile(dir, bin); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(stale); !os.IsNotExist(err) {
		t.Errorf("stale extension file survived: %v", err)
	}
	// The same build keeps its version: Chrome keeps its worker, the same.
	if again := read(os.DirFS(extDir)); again != got {
		t.Errorf("the same build rewritten: %+v, was %+v", again, got)
	}
}

func TestSandboxHint(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		log  string
		hint bool
	}{
		{"[1:1:FATAL:zygote_host_impl_linux.cc(128)] No usable sandbox! If you are running on Ubuntu 23.10+ …\n", true},
		{"DevTools listening on ws://127.0.0.1:9222/devtools/browser/x\n", false},
		{strings.Repeat("x", 200<<10) + "No usable sandbox!\n", true},
	} {
		p := filepath.Join(dir, "browser.log")
		if err := os.WriteFile(p, []byte(tc.log), 0o600); err != nil {
			t.Fatal(err)
		}
		got := SandboxHint(p)
		if (got != "") != tc.hint || tc.hint && !strings.Contains(got, NoSandboxFlag) {
			t.Errorf("SandboxHint(%.40q…) = %q", tc.log, got)
		}
	}
	if SandboxHint(filepath.Join(dir, "none")) != "" {
		t.Error("a missing log gave a hint")
	}
}

// Without an extension folder the browser gets no --load-extension and no
// --disable-extensions-except, which would turn off an extension `grip
// install --system` registered.
func TestFlagsNoExtension(t *testing.T) {
	got := Flags("/p", "", false)
	for _, f := range got {
		if strings.HasPrefix(f, "--load-extension") || strings.HasPrefix(f, "--disable-extensions-except") {
			t.Errorf("Flags(\"/p\", \"\", false) has %s: %q", f, got)
		}
	}
	if !slices.Contains(got, "--user-data-dir=/p") || !slices.Contains(got, "--no-first-run") {
		t.Errorf("Flags lost the profile or the quiet flags: %q", got)
	}
}
