package launcher

import (
	"path"
	"strings"
)

// installLocations are where goos's packages put a Chromium-family browser
// when it is not on PATH (a cron job, a desktop launcher with a short
// PATH): on Linux and the BSDs the packages' own paths; on macOS the app
// bundles, system-wide and in the user's own Applications folder; on
// Windows the per-machine and per-user install folders. getenv reads the
// environment (HOME, %ProgramFiles%…), so one OS's tests check every row.
func installLocations(goos string, getenv func(string) string) []string {
	switch goos {
	case "darwin":
		apps := []string{
			"Google Chrome.app/Contents/MacOS/Google Chrome",
			"Chromium.app/Contents/MacOS/Chromium",
			"Microsoft Edge.app/Contents/MacOS/Microsoft Edge",
			"Brave Browser.app/Contents/MacOS/Brave Browser",
			"Vivaldi.app/Contents/MacOS/Vivaldi",
			"Google Chrome Canary.app/Contents/MacOS/Google Chrome Canary",
		}
		roots := []string{"/Applications"}
		if home := getenv("HOME"); home != "" {
			roots = append(roots, path.Join(home, "Applications"))
		}
		var out []string
		for _, root := range roots {
			for _, a := range apps {
				out = append(out, path.Join(root, a))
			}
		}
		return out
	case "windows":
		exes := []string{
			`Google\Chrome\Application\chrome.exe`,
			`Chromium\Application\chrome.exe`,
			`Microsoft\Edge\Application\msedge.exe`,
			`BraveSoftware\Brave-Browser\Application\brave.exe`,
			`Vivaldi\Application\vivaldi.exe`,
		}
		var out []string
		for _, env := range []string{"ProgramFiles", "ProgramFiles(x86)", "LocalAppData"} {
			root := strings.TrimRight(getenv(env), `\`)
			if root == "" {
				continue
			}
			for _, e := range exes {
				out = append(out, root+`\`+e)
			}
		}
		return out
	}
	return []string{
		"/usr/bin/chromium", "/usr/bin/chromium-browser",
		"/usr/bin/google-chrome", "/usr/bin/google-chrome-stable",
		"/usr/local/bin/chromium",
		"/snap/bin/chromium",
		"/opt/google/chrome/chrome", "/opt/google/chrome/google-chrome",
		"/opt/microsoft/msedge/msedge",
		"/opt/brave.com/brave/brave-browser",
		"/opt/vivaldi/vivaldi",
		"/var/lib/flatpak/exports/bin/org.chromium.Chromium",
		"/var/lib/flatpak/exports/bin/com.google.Chrome",
	}
}
