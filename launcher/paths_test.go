package launcher

import (
	"slices"
	"testing"
)

// Where Find looks on each OS when no browser is on PATH. The macOS and
// Windows rows have never run there; they are checked here.
func TestInstallLocationsPerOS(t *testing.T) {
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	tests := []struct {
		goos    string
		env     map[string]string
		has     []string
		count   int
		lacking []string
	}{
		{"linux", nil, []string{"/usr/bin/chromium", "/opt/google/chrome/chrome", "/snap/bin/chromium", "/opt/microsoft/msedge/msedge"}, 13, nil},
		{"freebsd", nil, []string{"/usr/local/bin/chromium"}, 13, nil},
		{"darwin", map[string]string{"HOME": "/Users/u"}, []string{
			"/Applications/Google Chrome.app/Contents/MacOS/Google Chrome",
			"/Applications/Chromium.app/Contents/MacOS/Chromium",
			"/Users/u/Applications/Brave Browser.app/Contents/MacOS/Brave Browser",
		}, 12, nil},
		{"darwin", nil, []string{"/Applications/Vivaldi.app/Contents/MacOS/Vivaldi"}, 6, []string{"Applications/Vivaldi.app/Contents/MacOS/Vivaldi"}},
		{"windows", map[string]string{"ProgramFiles": `C:\Program Files`, "ProgramFiles(x86)": `C:\Program Files (x86)`, "LocalAppData": `C:\Users\u\AppData\Local\`}, []string{
			`C:\Program Files\Google\Chrome\Application\chrome.exe`,
			`C:\Program Files (x86)\Microsoft\Edge\Application\msedge.exe`,
			`C:\Users\u\AppData\Local\Chromium\Application\chrome.exe`,
		}, 15, nil},
		{"windows", map[string]string{"ProgramFiles": `C:\Program Files`}, []string{`C:\Program Files\Vivaldi\Application\vivaldi.exe`}, 5, nil},
	}
	for _, tt := range tests {
		t.Run(tt.goos, func(t *testing.T) {
			got := installLocations(tt.goos, env(tt.env))
			for _, p := range tt.has {
				if !slices.Contains(got, p) {
					t.Errorf("lacks %s: %q", p, got)
				}
			}
			for _, p := range tt.lacking {
				if slices.Contains(got, p) {
					t.Errorf("has %s: %q", p, got)
				}
			}
			if len(got) != tt.count {
				t.Errorf("%d locations, want %d: %q", len(got), tt.count, got)
			}
		})
	}
}
