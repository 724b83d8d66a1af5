//go:build !windows && !darwin

package launcher

// installLocations are where Linux and BSD packages put a browser when it
// is not on PATH (a cron job, a desktop launcher with a short PATH).
func installLocations(getenv func(string) string) []string {
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
