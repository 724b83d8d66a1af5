// Package launcher finds a Chromium-family browser, prepares a profile
// folder with grip installed in it (the host manifest in
// NativeMessagingHosts/ and the embedded extension written out), and runs
// the browser in its own process group so that everything it started can be
// stopped at once. `grip demo`, `grip launch` and the real-browser test
// harness all start browsers through it, with the same flags.
package launcher

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/grip-dev/grip/extension"
	"github.com/grip-dev/grip/manifest"
)

// EnvBrowser names a browser binary to use when no explicit path is given.
const EnvBrowser = "GRIP_BROWSER"

// EnvNoSandbox, when set to anything, adds --no-sandbox to every launch
// (a container whose kernel does not allow Chromium's sandbox).
const EnvNoSandbox = "GRIP_NO_SANDBOX"

// NoSandboxFlag turns Chromium's sandbox off.
const NoSandboxFlag = "--no-sandbox"

// Names are the executables Find looks for on PATH, in order.
var Names = []string{
	"chromium", "chromium-browser", "google-chrome", "google-chrome-stable",
	"microsoft-edge", "microsoft-edge-stable", "brave-browser", "vivaldi", "vivaldi-stable",
}

// finder holds what Find consults, so tests can replace the machine.
type finder struct {
	goos      string
	getenv    func(string) string
	lookPath  func(string) (string, error)
	isFile    func(string) bool
	locations []string
	osRelease string // contents of /etc/os-release, for the install hint
}

func defaultFinder() finder {
	rel, _ := os.ReadFile("/etc/os-release")
	return finder{
		goos: runtime.GOOS, getenv: os.Getenv, lookPath: exec.LookPath,
		isFile: isExecutableFile, locations: append(registeredLocations(), installLocations(runtime.GOOS, os.Getenv)...), osRelease: string(rel),
	}
}

// Find returns the path of a Chromium-family browser: explicit when it is
// not empty (it must exist), else $GRIP_BROWSER, else the first of Names on
// PATH, else the usual install locations of this OS. When there is none,
// the error wraps ErrNotFound and says which package to install.
func Find(explicit string) (string, error) {
	return defaultFinder().find(explicit)
}

func (f finder) find(explicit string) (string, error) {
	if explicit != "" {
		return f.check(explicit, "--browser-path")
	}
	if env := f.getenv(EnvBrowser); env != "" {
		return f.check(env, EnvBrowser)
	}
	for _, name := range Names {
		if p, err := f.lookPath(name); err == nil {
			return p, nil
		}
	}
	for _, p := range f.locations {
		if f.isFile(p) {
			return p, nil
		}
	}
	return "", fmt.Errorf("%w (looked on PATH for %s and in the usual install locations); install one with: %s — or name one with --browser-path",
		ErrNotFound, strings.Join(Names[:4], ", "), InstallHint(f.goos, f.osRelease))
}

// check resolves a browser named by the user: a path, or a name on PATH.
func (f finder) check(p, from string) (string, error) {
	if !strings.ContainsAny(p, `/\`) {
		if lp, err := f.lookPath(p); err == nil {
			return lp, nil
		}
	}
	if f.isFile(p) {
		if abs, err := filepath.Abs(p); err == nil {
			return abs, nil
		}
		return p, nil
	}
	return "", fmt.Errorf("%w: %s %q is not an executable file (to install one: %s)", ErrNotFound, from, p, InstallHint(f.goos, f.osRelease))
}

func isExecutableFile(p string) bool {
	st, err := os.Stat(p)
	if err != nil || st.IsDir() {
		return false
	}
	return runtime.GOOS == "windows" || st.Mode().Perm()&0o111 != 0
}

// InstallHint says how to install Chromium on goos; osRelease is the text
// of /etc/os-release on Linux (it picks the package manager).
func InstallHint(goos, osRelease string) string {
	switch goos {
	case "darwin":
		return "brew install --cask chromium (or install Google Chrome from google.com/chrome)"
	case "windows":
		return "winget install Google.Chrome"
	case "linux":
		ids := osReleaseIDs(osRelease)
		switch {
		case ids["id=ubuntu"]:
			return "sudo snap install chromium (or sudo apt-get install chromium-browser)"
		case ids["debian"] || ids["ubuntu"]:
			return "sudo apt-get install chromium"
		case ids["fedora"] || ids["rhel"] || ids["centos"]:
			return "sudo dnf install chromium"
		case ids["arch"]:
			return "sudo pacman -S chromium"
		case ids["opensuse"] || ids["suse"]:
			return "sudo zypper install chromium"
		case ids["alpine"]:
			return "sudo apk add chromium"
		}
		return "your package manager's chromium package (Debian/Ubuntu: sudo apt-get install chromium)"
	}
	return "a Chromium-family browser (chromium, google-chrome)"
}

// osReleaseIDs returns the words of ID and ID_LIKE in /etc/os-release, and
// "id=X" for ID itself.
func osReleaseIDs(text string) map[string]bool {
	ids := map[string]bool{}
	for _, line := range strings.Split(text, "\n") {
		k, v, ok := strings.Cut(strings.TrimSpace(line), "=")
		if !ok || (k != "ID" && k != "ID_LIKE") {
			continue
		}
		v = strings.Trim(v, `"'`)
		for _, w := range strings.Fields(v) {
			w = strings.ToLower(w)
			ids[w] = true
			if k == "ID" {
				ids["id="+w] = true
			}
		}
	}
	return ids
}

// ExtensionDirName is the folder PrepareProfile writes the extension to,
// inside the profile folder.
const ExtensionDirName = "grip-extension"

// PrepareProfile makes dir a browser profile with grip installed: the host
// manifest, starting gripBin, in dir/NativeMessagingHosts (where Chromium
// looks for a custom --user-data-dir), and the embedded extension written
// to dir/grip-extension, whose path it returns for Flags. It rewrites both
// each time, so a profile follows the running grip binary.
func PrepareProfile(dir, gripBin string) (extDir string, err error) {
	dir, err = filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", err
	}
	if err := WriteHostManifest(dir, gripBin); err != nil {
		return "", err
	}
	extDir = filepath.Join(dir, ExtensionDirName)
	if err := ReplaceExtension(extDir, extension.Files()); err != nil {
		return "", err
	}
	return extDir, nil
}

// ReplaceExtension writes fsys, a build of the extension, over the
// unpacked extension in dir, which a kept profile loads: its manifest's
// version is moved on when the build differs from the one dir held
// (extension.ForFolder), or Chrome would go on running the old build's
// service worker.
func ReplaceExtension(dir string, fsys fs.FS) error {
	prev, _ := os.ReadFile(filepath.Join(dir, "manifest.json"))
	files, err := extension.ForFolder(fsys, prev)
	if err != nil {
		return err
	}
	if err := os.RemoveAll(dir); err != nil {
		return err
	}
	return writeFiles(dir, files)
}

// WriteHostManifest writes grip's host manifest, starting gripBin for the
// embedded extension, to profileDir/NativeMessagingHosts/.
func WriteHostManifest(profileDir, gripBin string) error {
	id, err := manifest.ExtensionID(extension.ManifestJSON)
	if err != nil {
		return err
	}
	if gripBin, err = filepath.Abs(gripBin); err != nil {
		return err
	}
	m, err := manifest.NewHost(gripBin, id)
	if err != nil {
		return err
	}
	b, err := m.Marshal()
	if err != nil {
		return err
	}
	dir := filepath.Join(profileDir, "NativeMessagingHosts")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, manifest.FileName), b, 0o644)
}

// WriteExtension writes the embedded extension's files to dir.
func WriteExtension(dir string) error { return writeFiles(dir, extension.Files()) }

// writeFiles writes files to dir.
func writeFiles(dir string, files fs.FS) error {
	return fs.WalkDir(files, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		target := filepath.Join(dir, filepath.FromSlash(p))
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		b, err := fs.ReadFile(files, p)
		if err != nil {
			return err
		}
		return os.WriteFile(target, b, 0o644)
	})
}

// Env is what the browser's environment must add for profileDir: its crash
// reports go to PROFILE/Crash Reports. Chromium on Linux keeps them under
// the default profile's folder (~/.config/chromium/Crash Reports) whatever
// --user-data-dir says, and takes no flag for it, only this variable; a
// browser grip starts must not write into the person's own browser folders.
func Env(profileDir string) []string {
	return []string{"BREAKPAD_DUMP_LOCATION=" + filepath.Join(profileDir, "Crash Reports")}
}

// Flags returns the browser's command line, without the program and the
// start URL: a dedicated profile with only grip's extension loaded, no
// first-run UI, nothing that talks to the network on its own, and
// headless unless headed. Chromium's sandbox stays on, headless or not:
// this browser keeps logins and opens ordinary sites, so a renderer bug on
// a hostile page must stay inside the sandbox. --no-sandbox is added only
// where NoSandboxReason(false) gives a reason; Options.NoSandbox adds it
// when the user asks.
//
// An empty extDir loads no unpacked extension and leaves out
// --disable-extensions-except, so the browser loads what it would anyway:
// an extension `grip install --system` registered, for one.
func Flags(profileDir, extDir string, headed bool) []string {
	flags := []string{"--user-data-dir=" + profileDir}
	if extDir != "" {
		flags = append(flags, "--load-extension="+extDir, "--disable-extensions-except="+extDir)
	}
	flags = append(flags,
		"--no-first-run",
		"--no-default-browser-check",
		"--disable-gpu",
		"--disable-quic",
		"--disable-background-networking",
		"--disable-component-update",
		"--disable-sync",
		"--disable-dev-shm-usage",
	)
	if !headed {
		flags = append(flags, "--headless=new")
	}
	if NoSandboxReason(false) != "" {
		flags = append(flags, NoSandboxFlag)
	}
	return flags
}

// NoSandboxReason says why a browser started now runs without Chromium's
// sandbox, or "" when it keeps it. asked is the user's own request (grip
// launch --no-sandbox); otherwise the sandbox is off only as root, where
// Chromium refuses to start with it, or when GRIP_NO_SANDBOX is set.
func NoSandboxReason(asked bool) string {
	switch {
	case asked:
		return "asked for with " + NoSandboxFlag
	case isRoot():
		return "running as root, where Chromium's sandbox cannot start"
	case os.Getenv(EnvNoSandbox) != "":
		return EnvNoSandbox + " is set"
	}
	return ""
}

// SandboxHint returns advice when the browser's log (the file given as
// Options.Output) says Chromium found no usable sandbox, and "" otherwise.
// It reads at most the last 64 KiB.
func SandboxHint(logPath string) string {
	f, err := os.Open(logPath)
	if err != nil {
		return ""
	}
	defer f.Close()
	const tail = 64 << 10
	if st, err := f.Stat(); err == nil && st.Size() > tail {
		_, _ = f.Seek(st.Size()-tail, io.SeekStart)
	}
	b, _ := io.ReadAll(io.LimitReader(f, tail))
	if !strings.Contains(string(b), "No usable sandbox") {
		return ""
	}
	return "Chromium's sandbox cannot run on this machine (no user namespaces and no setuid chrome-sandbox); " +
		"install a browser whose sandbox works here, or accept the risk with " + NoSandboxFlag + " (or " + EnvNoSandbox + "=1): " +
		"without it, a bug in a page's renderer runs as you"
}

// SplitFlag splits "--name=value" into ("name", "value") and "--name" into
// ("name", true): the form chromedp.Flag takes.
func SplitFlag(flag string) (name string, value any) {
	flag = strings.TrimLeft(flag, "-")
	if n, v, ok := strings.Cut(flag, "="); ok {
		return n, v
	}
	return flag, true
}

// isRoot is runningAsRoot; tests replace it.
var isRoot = runningAsRoot

// errNoPath is returned by Start without a browser path.
var errNoPath = errors.New("browser: no browser path (use Find)")
