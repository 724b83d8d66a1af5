package launcher

import "path/filepath"

// installLocations are the per-machine and per-user install folders of the
// Chromium family.
func installLocations(getenv func(string) string) []string {
	exes := []string{
		`Google\Chrome\Application\chrome.exe`,
		`Chromium\Application\chrome.exe`,
		`Microsoft\Edge\Application\msedge.exe`,
		`BraveSoftware\Brave-Browser\Application\brave.exe`,
		`Vivaldi\Application\vivaldi.exe`,
	}
	var out []string
	for _, env := range []string{"ProgramFiles", "ProgramFiles(x86)", "LocalAppData"} {
		root := getenv(env)
		if root == "" {
			continue
		}
		for _, e := range exes {
			out = append(out, filepath.Join(root, e))
		}
	}
	return out
}
