package install

import (
	"fmt"
	"path"
	"strings"

	"github.com/grip-dev/grip/internal/winpath"
	"github.com/grip-dev/grip/manifest"
)

// Level says whether a manifest location serves one user or every user of
// the machine.
type Level string

// The two levels Chrome reads. On Linux and macOS Chrome reads the system
// folder first and the user folder second; on Windows HKCU before HKLM.
const (
	User   Level = "user"
	System Level = "system"
)

// Browsers are the browsers grip installs for, in the order it lists them.
var Browsers = []string{"chrome", "chromium", "edge", "brave", "vivaldi"}

// Location is where one browser looks for grip's host manifest.
type Location struct {
	Browser     string `json:"browser,omitempty"`       // "" for a custom --user-data-dir
	UserDataDir string `json:"user_data_dir,omitempty"` // set for a custom --user-data-dir
	Level       Level  `json:"level"`
	// File is the manifest file. On Linux and macOS the browser reads it
	// there; on Windows the browser reads the registry value, which names
	// this file.
	File string `json:"file"`
	// RegistryRoot ("HKCU" or "HKLM") and RegistryKey locate, on Windows
	// only, the key whose default value is File.
	RegistryRoot string `json:"registry_root,omitempty"`
	RegistryKey  string `json:"registry_key,omitempty"`
}

// Registry returns the full registry path, e.g.
// HKCU\Software\Google\Chrome\NativeMessagingHosts\dev.grip.host, or "".
func (l Location) Registry() string {
	if l.RegistryKey == "" {
		return ""
	}
	return l.RegistryRoot + `\` + l.RegistryKey
}

// browserInfo holds what grip knows about one browser on each OS.
//
// Sources: the Chrome and Chromium rows come from Chromium's
// chrome/common/chrome_paths.cc (DIR_NATIVE_MESSAGING is fixed per brand;
// DIR_USER_NATIVE_MESSAGING is the user data dir + "NativeMessagingHosts" on
// Linux and macOS) and the Chrome native messaging docs. The Edge, Brave and
// Vivaldi rows follow the forks' own user data dirs and what widely used
// installers (browserpass-native, KeePassXC) write; their system-level
// folders are not verified against each browser's source.
type browserInfo struct {
	display string
	// linuxConfig is the user data dir under ~/.config (or $XDG_CONFIG_HOME).
	linuxConfig string
	// linuxSystem is the system-wide host manifest folder on Linux.
	linuxSystem string
	// linuxBinaries are commands whose presence on PATH shows the browser.
	linuxBinaries []string
	// linuxInstallDirs are the folders the browser's binary is installed
	// in by its Linux packages, most common first. Chromium reads
	// external-extension files (<extension-id>.json) from the "extensions"
	// folder beside its binary on Linux (DIR_EXTERNAL_EXTENSIONS =
	// DIR_MODULE/extensions in chrome/common/chrome_paths.cc), whatever the
	// brand, so `grip install --system` writes there; see
	// SystemExtensionsDir.
	linuxInstallDirs []string
	// macConfig is the user data dir under ~/Library/Application Support.
	macConfig string
	// macSystem is the system-wide host manifest folder on macOS.
	macSystem string
	// macApp is the application bundle name under /Applications.
	macApp string
	// winVendor is the vendor path shared by the registry key (under
	// Software\) and the user data dir (under %LocalAppData%\, + "User Data").
	winVendor string
}

var browserTable = map[string]browserInfo{
	"chrome": {
		display:       "Google Chrome",
		linuxConfig:   "google-chrome",
		linuxSystem:   "/etc/opt/chrome/native-messaging-hosts",
		linuxBinaries: []string{"google-chrome", "google-chrome-stable"},
		// Chrome's own docs ("Alternative extension distribution options")
		// list /opt/google/chrome/extensions.
		linuxInstallDirs: []string{"/opt/google/chrome"},
		macConfig:        "Google/Chrome",
		macSystem:        "/Library/Google/Chrome/NativeMessagingHosts",
		macApp:           "Google Chrome.app",
		winVendor:        `Google\Chrome`,
	},
	"chromium": {
		display:     "Chromium",
		linuxConfig: "chromium",
		linuxSystem: "/etc/chromium/native-messaging-hosts",
		// A snap-packaged Chromium keeps its profile under ~/snap and its
		// confinement blocks most native hosts; it is not handled here.
		linuxBinaries: []string{"chromium", "chromium-browser"},
		// Debian and Arch, Fedora, older Ubuntu debs.
		linuxInstallDirs: []string{"/usr/lib/chromium", "/usr/lib64/chromium-browser", "/usr/lib/chromium-browser"},
		macConfig:        "Chromium",
		macSystem:        "/Library/Application Support/Chromium/NativeMessagingHosts",
		macApp:           "Chromium.app",
		winVendor:        `Chromium`,
	},
	"edge": {
		display:       "Microsoft Edge",
		linuxConfig:   "microsoft-edge",
		linuxSystem:   "/etc/opt/edge/native-messaging-hosts", // per installers, unverified
		linuxBinaries: []string{"microsoft-edge", "microsoft-edge-stable"},
		// Microsoft's "Alternative ways to distribute an extension" names
		// /usr/share/microsoft-edge/extensions; Edge, a Chromium, also reads
		// the folder beside its binary.
		linuxInstallDirs: []string{"/opt/microsoft/msedge"},
		macConfig:        "Microsoft Edge",
		macSystem:        "/Library/Microsoft/Edge/NativeMessagingHosts", // per installers, unverified
		macApp:           "Microsoft Edge.app",
		winVendor:        `Microsoft\Edge`,
	},
	"brave": {
		display:          "Brave",
		linuxConfig:      "BraveSoftware/Brave-Browser",
		linuxSystem:      "/etc/opt/brave/native-messaging-hosts", // per browserpass-native, unverified
		linuxBinaries:    []string{"brave-browser", "brave-browser-stable", "brave"},
		linuxInstallDirs: []string{"/opt/brave.com/brave"},
		macConfig:        "BraveSoftware/Brave-Browser",
		macSystem:        "/Library/Application Support/BraveSoftware/Brave-Browser/NativeMessagingHosts", // per browserpass-native, unverified
		macApp:           "Brave Browser.app",
		winVendor:        `BraveSoftware\Brave-Browser`,
	},
	"vivaldi": {
		display:          "Vivaldi",
		linuxConfig:      "vivaldi",
		linuxSystem:      "/etc/opt/vivaldi/native-messaging-hosts", // per browserpass-native, unverified
		linuxBinaries:    []string{"vivaldi", "vivaldi-stable"},
		linuxInstallDirs: []string{"/opt/vivaldi"},
		macConfig:        "Vivaldi",
		macSystem:        "/Library/Application Support/Vivaldi/NativeMessagingHosts", // per browserpass-native, unverified
		macApp:           "Vivaldi.app",
		winVendor:        `Vivaldi`,
	},
}

// DisplayName returns a browser's name as people write it ("Google
// Chrome"), or the argument itself when grip does not know it.
func DisplayName(browser string) string {
	if b, ok := browserTable[browser]; ok {
		return b.display
	}
	return browser
}

// KnownBrowser reports whether grip knows where browser looks.
func KnownBrowser(browser string) bool {
	_, ok := browserTable[browser]
	return ok
}

// lookup wraps a possibly nil getenv.
func lookup(getenv func(string) string, name string) string {
	if getenv == nil {
		return ""
	}
	return getenv(name)
}

// UserDataDir returns a browser's default user data dir (its profile
// folder) for goos: on Linux under $CHROME_CONFIG_HOME, $XDG_CONFIG_HOME or
// ~/.config (in that order, as chrome_paths_linux.cc does), on macOS under
// ~/Library/Application Support, on Windows under %LocalAppData% with
// "User Data" appended.
func UserDataDir(goos, home string, getenv func(string) string, browser string) (string, error) {
	b, ok := browserTable[browser]
	if !ok {
		return "", fmt.Errorf("%w: %q (want one of %s)", ErrUnknownBrowser, browser, strings.Join(Browsers, ", "))
	}
	switch goos {
	case "linux", "freebsd", "openbsd", "netbsd", "dragonfly":
		return path.Join(linuxConfigHome(home, getenv), b.linuxConfig), nil
	case "darwin":
		return path.Join(home, "Library", "Application Support", b.macConfig), nil
	case "windows":
		return winpath.Join(localAppData(home, getenv), b.winVendor, "User Data"), nil
	}
	return "", fmt.Errorf("%w: %s", ErrUnsupportedOS, goos)
}

func linuxConfigHome(home string, getenv func(string) string) string {
	if d := lookup(getenv, "CHROME_CONFIG_HOME"); d != "" && strings.HasPrefix(d, "/") {
		return path.Clean(d)
	}
	if d := lookup(getenv, "XDG_CONFIG_HOME"); d != "" && strings.HasPrefix(d, "/") {
		return path.Clean(d)
	}
	return path.Join(home, ".config")
}

func localAppData(home string, getenv func(string) string) string {
	if d := lookup(getenv, "LOCALAPPDATA"); d != "" {
		return d
	}
	return winpath.Join(home, "AppData", "Local")
}

func programData(getenv func(string) string) string {
	if d := lookup(getenv, "ProgramData"); d != "" {
		return d
	}
	if d := lookup(getenv, "PROGRAMDATA"); d != "" {
		return d
	}
	return `C:\ProgramData`
}

// Locate returns where browser looks for grip's host manifest on goos at
// level. It reads nothing from the machine: home and getenv (which may be
// nil) stand for the user's home and environment.
//
// On Windows the browser finds the manifest through the registry;
// File is where grip keeps the file the registry value names:
// %LocalAppData%\grip\NativeMessagingHosts\<browser>\dev.grip.host.json for
// the user, %ProgramData%\grip\... for the machine.
func Locate(goos, home string, getenv func(string) string, browser string, level Level) (Location, error) {
	b, ok := browserTable[browser]
	if !ok {
		return Location{}, fmt.Errorf("%w: %q (want one of %s)", ErrUnknownBrowser, browser, strings.Join(Browsers, ", "))
	}
	if level != User && level != System {
		return Location{}, fmt.Errorf("%w: level %q", ErrBadOptions, level)
	}
	loc := Location{Browser: browser, Level: level}
	switch goos {
	case "linux", "freebsd", "openbsd", "netbsd", "dragonfly":
		if level == System {
			loc.File = path.Join(b.linuxSystem, manifest.FileName)
		} else {
			loc.File = path.Join(linuxConfigHome(home, getenv), b.linuxConfig, "NativeMessagingHosts", manifest.FileName)
		}
	case "darwin":
		if level == System {
			loc.File = path.Join(b.macSystem, manifest.FileName)
		} else {
			loc.File = path.Join(home, "Library", "Application Support", b.macConfig, "NativeMessagingHosts", manifest.FileName)
		}
	case "windows":
		base, root := localAppData(home, getenv), "HKCU"
		if level == System {
			base, root = programData(getenv), "HKLM"
		}
		loc.File = winpath.Join(base, "grip", "NativeMessagingHosts", browser, manifest.FileName)
		loc.RegistryRoot = root
		loc.RegistryKey = winpath.Join("Software", b.winVendor, "NativeMessagingHosts", manifest.HostName)
	default:
		return Location{}, fmt.Errorf("%w: %s", ErrUnsupportedOS, goos)
	}
	return loc, nil
}

// LocateUserDataDir returns where a browser started with --user-data-dir=dir
// looks for grip's host manifest: dir/NativeMessagingHosts on Linux and
// macOS. Windows browsers read only the registry whatever the profile dir,
// so there it returns ErrUnsupportedOS; install for a browser instead.
func LocateUserDataDir(goos, dir string) (Location, error) {
	switch goos {
	case "windows":
		return Location{}, fmt.Errorf("%w: on Windows browsers find native hosts only through the registry, not in --user-data-dir; use --browser", ErrUnsupportedOS)
	case "darwin", "linux", "freebsd", "openbsd", "netbsd", "dragonfly":
		if !strings.HasPrefix(dir, "/") {
			return Location{}, fmt.Errorf("%w: --user-data-dir %q must be an absolute path", ErrBadOptions, dir)
		}
		return Location{UserDataDir: path.Clean(dir), Level: User, File: path.Join(dir, "NativeMessagingHosts", manifest.FileName)}, nil
	}
	return Location{}, fmt.Errorf("%w: %s", ErrUnsupportedOS, goos)
}

// RegisteredFile returns the manifest file the browser reads for loc: on
// Windows the file named by the registry key (ok is false when the key is
// missing), elsewhere loc.File itself.
func RegisteredFile(loc Location) (file string, ok bool, err error) {
	if loc.RegistryKey == "" {
		return loc.File, true, nil
	}
	return registryDefault(loc.RegistryRoot, loc.RegistryKey)
}

// SystemFolders returns, under root ("" for the machine's own), every
// folder `grip install --system` may write on Linux: SystemDir, each
// browser's system-wide host manifest folder, and the extensions/ folder
// beside each folder its packages install it in. Tests that must not see
// a system-wide install hide these.
func SystemFolders(root string) []string {
	out := []string{SystemPath(root, SystemDir)}
	for _, name := range Browsers {
		b := browserTable[name]
		out = append(out, SystemPath(root, b.linuxSystem))
		for _, d := range b.linuxInstallDirs {
			out = append(out, SystemPath(root, path.Join(d, "extensions")))
		}
	}
	return out
}
