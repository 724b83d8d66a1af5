package launcher

import "path/filepath"

// installLocations are the app bundles of the Chromium family, system-wide
// and in the user's own Applications folder.
func installLocations(getenv func(string) string) []string {
	apps := []string{
		"Google Chrome.app/Contents/MacOS/Google Chrome",
		"Chromium.app/Contents/MacOS/Chromium",
		"Microsoft Edge.app/Contents/MacOS/Microsoft Edge",
		"Brave Browser.app/Contents/MacOS/Brave Browser",
		"Vivaldi.app/Contents/MacOS/Vivaldi",
		"Google Chrome Canary.app/Contents/MacOS/Google Chrome Canary",
	}
	var out []string
	for _, root := range []string{"/Applications", filepath.Join(getenv("HOME"), "Applications")} {
		for _, a := range apps {
			out = append(out, filepath.Join(root, a))
		}
	}
	return out
}
