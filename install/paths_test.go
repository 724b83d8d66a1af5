package install

import (
	"errors"
	"path"
	"slices"
	"strings"
	"testing"
)

func envMap(m map[string]string) func(string) string {
	return func(k string) string { return m[k] }
}

func TestLocateTable(t *testing.T) {
	const linuxHome, macHome, winHome = "/home/u", "/Users/u", `C:\Users\u`
	winEnv := envMap(map[string]string{"LOCALAPPDATA": `C:\Users\u\AppData\Local`, "ProgramData": `C:\ProgramData`})
	type want struct{ file, regRoot, regKey string }
	tests := []struct {
		goos, browser string
		level         Level
		want          want
	}{
		{"linux", "chrome", User, want{file: "/home/u/.config/google-chrome/NativeMessagingHosts/dev.grip.host.json"}},
		{"linux", "chromium", User, want{file: "/home/u/.config/chromium/NativeMessagingHosts/dev.grip.host.json"}},
		{"linux", "edge", User, want{file: "/home/u/.config/microsoft-edge/NativeMessagingHosts/dev.grip.host.json"}},
		{"linux", "brave", User, want{file: "/home/u/.config/BraveSoftware/Brave-Browser/NativeMessagingHosts/dev.grip.host.json"}},
		{"linux", "vivaldi", User, want{file: "/home/u/.config/vivaldi/NativeMessagingHosts/dev.grip.host.json"}},
		{"linux", "chrome", System, want{file: "/etc/opt/chrome/native-messaging-hosts/dev.grip.host.json"}},
		{"linux", "chromium", System, want{file: "/etc/chromium/native-messaging-hosts/dev.grip.host.json"}},
		{"linux", "edge", System, want{file: "/etc/opt/edge/native-messaging-hosts/dev.grip.host.json"}},
		{"linux", "brave", System, want{file: "/etc/opt/brave/native-messaging-hosts/dev.grip.host.json"}},
		{"linux", "vivaldi", System, want{file: "/etc/opt/vivaldi/native-messaging-hosts/dev.grip.host.json"}},

		{"darwin", "chrome", User, want{file: "/Users/u/Library/Application Support/Google/Chrome/NativeMessagingHosts/dev.grip.host.json"}},
		{"darwin", "chromium", User, want{file: "/Users/u/Library/Application Support/Chromium/NativeMessagingHosts/dev.grip.host.json"}},
		{"darwin", "edge", User, want{file: "/Users/u/Library/Application Support/Microsoft Edge/NativeMessagingHosts/dev.grip.host.json"}},
		{"darwin", "brave", User, want{file: "/Users/u/Library/Application Support/BraveSoftware/Brave-Browser/NativeMessagingHosts/dev.grip.host.json"}},
		{"darwin", "vivaldi", User, want{file: "/Users/u/Library/Application Support/Vivaldi/NativeMessagingHosts/dev.grip.host.json"}},
		{"darwin", "chrome", System, want{file: "/Library/Google/Chrome/NativeMessagingHosts/dev.grip.host.json"}},
		{"darwin", "chromium", System, want{file: "/Library/Application Support/Chromium/NativeMessagingHosts/dev.grip.host.json"}},
		{"darwin", "edge", System, want{file: "/Library/Microsoft/Edge/NativeMessagingHosts/dev.grip.host.json"}},
		{"darwin", "brave", System, want{file: "/Library/Application Support/BraveSoftware/Brave-Browser/NativeMessagingHosts/dev.grip.host.json"}},
		{"darwin", "vivaldi", System, want{file: "/Library/Application Support/Vivaldi/NativeMessagingHosts/dev.grip.host.json"}},

		{"windows", "chrome", User, want{`C:\Users\u\AppData\Local\grip\NativeMessagingHosts\chrome\dev.grip.host.json`, "HKCU", `Software\Google\Chrome\NativeMessagingHosts\dev.grip.host`}},
		{"windows", "chromium", User, want{`C:\Users\u\AppData\Local\grip\NativeMessagingHosts\chromium\dev.grip.host.json`, "HKCU", `Software\Chromium\NativeMessagingHosts\dev.grip.host`}},
		{"windows", "edge", User, want{`C:\Users\u\AppData\Local\grip\NativeMessagingHosts\edge\dev.grip.host.json`, "HKCU", `Software\Microsoft\Edge\NativeMessagingHosts\dev.grip.host`}},
		{"windows", "brave", User, want{`C:\Users\u\AppData\Local\grip\NativeMessagingHosts\brave\dev.grip.host.json`, "HKCU", `Software\BraveSoftware\Brave-Browser\NativeMessagingHosts\dev.grip.host`}},
		{"windows", "vivaldi", User, want{`C:\Users\u\AppData\Local\grip\NativeMessagingHosts\vivaldi\dev.grip.host.json`, "HKCU", `Software\Vivaldi\NativeMessagingHosts\dev.grip.host`}},
		{"windows", "chrome", System, want{`C:\ProgramData\grip\NativeMessagingHosts\chrome\dev.grip.host.json`, "HKLM", `Software\Google\Chrome\NativeMessagingHosts\dev.grip.host`}},
		{"windows", "chromium", System, want{`C:\ProgramData\grip\NativeMessagingHosts\chromium\dev.grip.host.json`, "HKLM", `Software\Chromium\NativeMessagingHosts\dev.grip.host`}},
		{"windows", "edge", System, want{`C:\ProgramData\grip\NativeMessagingHosts\edge\dev.grip.host.json`, "HKLM", `Software\Microsoft\Edge\NativeMessagingHosts\dev.grip.host`}},
		{"windows", "brave", System, want{`C:\ProgramData\grip\NativeMessagingHosts\brave\dev.grip.host.json`, "HKLM", `Software\BraveSoftware\Brave-Browser\NativeMessagingHosts\dev.grip.host`}},
		{"windows", "vivaldi", System, want{`C:\ProgramData\grip\NativeMessagingHosts\vivaldi\dev.grip.host.json`, "HKLM", `Software\Vivaldi\NativeMessagingHosts\dev.grip.host`}},
	}
	seen := map[string]int{}
	for _, tt := range tests {
		seen[tt.goos]++
		t.Run(tt.goos+"/"+tt.browser+"/"+string(tt.level), func(t *testing.T) {
			home, getenv := linuxHome, envMap(nil)
			switch tt.goos {
			case "darwin":
				home = macHome
			case "windows":
				home, getenv = winHome, winEnv
			}
			loc, err := Locate(tt.goos, home, getenv, tt.browser, tt.level)
			if err != nil {
				t.Fatal(err)
			}
			if loc.File != tt.want.file || loc.RegistryRoot != tt.want.regRoot || loc.RegistryKey != tt.want.regKey {
				t.Errorf("Locate = %+v\nwant file %s, registry %s\\%s", loc, tt.want.file, tt.want.regRoot, tt.want.regKey)
			}
			if loc.Browser != tt.browser || loc.Level != tt.level {
				t.Errorf("Locate = %+v, want browser %s level %s", loc, tt.browser, tt.level)
			}
		})
	}
	for _, goos := range []string{"linux", "darwin", "windows"} {
		if seen[goos] != 2*len(Browsers) {
			t.Errorf("%s has %d rows, want %d", goos, seen[goos], 2*len(Browsers))
		}
	}
}

func TestLocateEnvironment(t *testing.T) {
	tests := []struct {
		name, goos, home string
		env              map[string]string
		want             string
	}{
		{"xdg config home", "linux", "/home/u", map[string]string{"XDG_CONFIG_HOME": "/cfg"}, "/cfg/google-chrome/NativeMessagingHosts/dev.grip.host.json"},
		{"relative xdg ignored", "linux", "/home/u", map[string]string{"XDG_CONFIG_HOME": "cfg"}, "/home/u/.config/google-chrome/NativeMessagingHosts/dev.grip.host.json"},
		{"chrome config home wins", "linux", "/home/u", map[string]string{"XDG_CONFIG_HOME": "/cfg", "CHROME_CONFIG_HOME": "/cc"}, "/cc/google-chrome/NativeMessagingHosts/dev.grip.host.json"},
		{"windows without LOCALAPPDATA", "windows", `C:\Users\u`, nil, `C:\Users\u\AppData\Local\grip\NativeMessagingHosts\chrome\dev.grip.host.json`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			loc, err := Locate(tt.goos, tt.home, envMap(tt.env), "chrome", User)
			if err != nil {
				t.Fatal(err)
			}
			if loc.File != tt.want {
				t.Errorf("File = %s, want %s", loc.File, tt.want)
			}
		})
	}
}

func TestLocateUserDataDir(t *testing.T) {
	tests := []struct {
		goos, dir, want string
		err             error
	}{
		{"linux", "/tmp/profile", "/tmp/profile/NativeMessagingHosts/dev.grip.host.json", nil},
		{"linux", "/tmp/profile/", "/tmp/profile/NativeMessagingHosts/dev.grip.host.json", nil},
		{"darwin", "/Users/u/p", "/Users/u/p/NativeMessagingHosts/dev.grip.host.json", nil},
		{"linux", "profile", "", ErrBadOptions},
		{"windows", `C:\p`, "", ErrUnsupportedOS},
		{"plan9", "/p", "", ErrUnsupportedOS},
	}
	for _, tt := range tests {
		t.Run(tt.goos+" "+tt.dir, func(t *testing.T) {
			loc, err := LocateUserDataDir(tt.goos, tt.dir)
			if !errors.Is(err, tt.err) || (tt.err == nil) != (err == nil) {
				t.Fatalf("err = %v, want %v", err, tt.err)
			}
			if loc.File != tt.want {
				t.Errorf("File = %s, want %s", loc.File, tt.want)
			}
		})
	}
}

func TestLocateErrors(t *testing.T) {
	if _, err := Locate("linux", "/home/u", nil, "firefox", User); !errors.Is(err, ErrUnknownBrowser) {
		t.Errorf("unknown browser: err = %v", err)
	}
	if _, err := Locate("plan9", "/home/u", nil, "chrome", User); !errors.Is(err, ErrUnsupportedOS) {
		t.Errorf("unknown OS: err = %v", err)
	}
	if _, err := Locate("linux", "/home/u", nil, "chrome", "everyone"); !errors.Is(err, ErrBadOptions) {
		t.Errorf("bad level: err = %v", err)
	}
}

func TestExpandBrowsers(t *testing.T) {
	got, err := expandBrowsers([]string{"edge,Chrome", "chrome", " brave "})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"edge", "chrome", "brave"}; !equal(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
	got, _ = expandBrowsers([]string{"all"})
	if !equal(got, Browsers) {
		t.Errorf("all = %v", got)
	}
	if _, err := expandBrowsers([]string{"firefox"}); !errors.Is(err, ErrUnknownBrowser) {
		t.Errorf("firefox: err = %v", err)
	}
}

func equal(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestCheckHostPath(t *testing.T) {
	tests := []struct {
		path string
		want error
	}{
		{"/usr/local/bin/grip", nil},
		{"/home/u/go/bin/grip", nil},
		{"/home/u/go-builds/grip", nil},
		{"grip", ErrHostPathRelative},
		{"/tmp/go-build123456789/b001/exe/grip", ErrHostPathTemporary},
		{"/var/folders/xy/T/go-build42/b001/exe/grip", ErrHostPathTemporary},
		// Go 1.24+ runs a repeated `go run` from the build cache.
		{"/home/u/.cache/go-build/7b/7b490b89e42e90c93771cfae099a36ddd0f6888a177ab5d178da17750395d0de-d/grip", ErrHostPathTemporary},
		{"/tmp/grip-e2e-123/bin/grip", nil},
		{"/home/u/7b/7b49-d/grip", nil},
	}
	for _, tt := range tests {
		err := CheckHostPath(tt.path)
		if !errors.Is(err, tt.want) || (tt.want == nil) != (err == nil) {
			t.Errorf("CheckHostPath(%q) = %v, want %v", tt.path, err, tt.want)
		}
	}
}

// SystemFolders names every folder the system-wide install writes: its own,
// and for every browser the host manifest folder Locate gives and each
// extensions/ folder SystemExtensionsDir may pick.
func TestSystemFolders(t *testing.T) {
	got := SystemFolders("")
	has := func(p string) bool { return slices.Contains(got, p) }
	for _, want := range []string{"/var/lib/grip", "/etc/chromium/native-messaging-hosts", "/usr/lib/chromium/extensions",
		"/usr/lib64/chromium-browser/extensions", "/etc/opt/chrome/native-messaging-hosts", "/opt/google/chrome/extensions"} {
		if !has(want) {
			t.Errorf("SystemFolders lacks %s: %q", want, got)
		}
	}
	for _, b := range Browsers {
		loc, err := Locate("linux", "/home/u", nil, b, System)
		if err != nil {
			t.Fatal(err)
		}
		if !has(path.Dir(loc.File)) {
			t.Errorf("SystemFolders lacks %s's host manifest folder %s", b, path.Dir(loc.File))
		}
		for _, d := range browserTable[b].linuxInstallDirs {
			if !has(path.Join(d, "extensions")) {
				t.Errorf("SystemFolders lacks %s's %s/extensions", b, d)
			}
		}
	}
	root := t.TempDir()
	for _, p := range SystemFolders(root) {
		if !strings.HasPrefix(p, root+"/") {
			t.Errorf("SystemFolders(%s) has %s, outside the root", root, p)
		}
	}
}
