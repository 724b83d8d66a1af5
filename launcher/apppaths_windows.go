package launcher

import (
	"errors"

	"golang.org/x/sys/windows/registry"
)

// appPathsKey is where Windows installers register an application's
// executable (what Start → Run and `start chrome` read): Chrome, Edge,
// Brave and Vivaldi record their exe there, in HKCU for a per-user install
// and HKLM for a per-machine one, wherever the person chose to put it.
const appPathsKey = `Software\Microsoft\Windows\CurrentVersion\App Paths\`

// appPathsExes are the executables looked up there, most wanted first.
var appPathsExes = []string{"chrome.exe", "msedge.exe", "brave.exe", "vivaldi.exe"}

// registeredLocations returns the browsers App Paths names, HKCU before
// HKLM, before the fixed install folders (installLocations) are tried.
func registeredLocations() []string {
	var out []string
	for _, exe := range appPathsExes {
		for _, root := range []registry.Key{registry.CURRENT_USER, registry.LOCAL_MACHINE} {
			if p, err := appPath(root, exe); err == nil && p != "" {
				out = append(out, p)
			}
		}
	}
	return out
}

func appPath(root registry.Key, exe string) (string, error) {
	k, err := registry.OpenKey(root, appPathsKey+exe, registry.QUERY_VALUE)
	if err != nil {
		return "", err
	}
	defer k.Close()
	v, _, err := k.GetStringValue("")
	if errors.Is(err, registry.ErrNotExist) {
		return "", nil
	}
	return unquote(v), err
}

// unquote drops the quotes some installers put around the path.
func unquote(p string) string {
	if len(p) >= 2 && p[0] == '"' && p[len(p)-1] == '"' {
		return p[1 : len(p)-1]
	}
	return p
}
