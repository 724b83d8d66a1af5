package install

import (
	"os"
	"path"
	"path/filepath"
	"strings"
)

// Found is a browser Detect found and what showed it.
type Found struct {
	Browser  string `json:"browser"`
	Evidence string `json:"evidence"` // the folder or binary that showed it
}

// Detect returns the supported browsers installed for the user at home on
// goos, and every place it looked. A browser counts as installed when:
//   - Linux: its user data dir holds something besides a NativeMessagingHosts
//     folder (which an installer such as grip may have created alone), or one
//     of its commands is on $PATH;
//   - macOS: /Applications/X.app or ~/Applications/X.app exists, or its user
//     data dir does;
//   - Windows: its user data dir under %LocalAppData% exists.
func Detect(goos, home string, getenv func(string) string) (found []Found, looked []string) {
	for _, name := range Browsers {
		b := browserTable[name]
		var candidates []string
		if dir, err := UserDataDir(goos, home, getenv, name); err == nil {
			candidates = append(candidates, dir)
		}
		if goos == "darwin" {
			candidates = append(candidates, path.Join("/Applications", b.macApp), path.Join(home, "Applications", b.macApp))
		}
		hit := ""
		for _, c := range candidates {
			looked = append(looked, c)
			if hit == "" && usedDir(c) {
				hit = c
			}
		}
		if hit == "" && goos != "darwin" && goos != "windows" {
			for _, bin := range b.linuxBinaries {
				looked = append(looked, "$PATH/"+bin)
				if p := lookPath(lookup(getenv, "PATH"), bin); p != "" && hit == "" {
					hit = p
				}
			}
		}
		if hit != "" {
			found = append(found, Found{Browser: name, Evidence: hit})
		}
	}
	return found, looked
}

// usedDir reports whether dir exists and holds anything other than a
// NativeMessagingHosts folder (an application bundle always does).
func usedDir(dir string) bool {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return false
	}
	for _, e := range entries {
		if e.Name() != "NativeMessagingHosts" {
			return true
		}
	}
	return false
}

// lookPath finds an executable named bin in the folders of pathList, like
// exec.LookPath but against a given $PATH so tests control it.
func lookPath(pathList, bin string) string {
	for _, dir := range filepath.SplitList(pathList) {
		if dir == "" || !filepath.IsAbs(dir) {
			continue
		}
		p := filepath.Join(dir, bin)
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() && fi.Mode()&0o111 != 0 {
			return p
		}
	}
	return ""
}

// expandBrowsers turns --browser values (each may be a comma list, or
// "all") into known browser names without duplicates.
func expandBrowsers(values []string) ([]string, error) {
	var out []string
	seen := map[string]bool{}
	add := func(b string) {
		if !seen[b] {
			seen[b] = true
			out = append(out, b)
		}
	}
	for _, v := range values {
		for _, b := range strings.Split(v, ",") {
			b = strings.ToLower(strings.TrimSpace(b))
			switch {
			case b == "":
			case b == "all":
				for _, x := range Browsers {
					add(x)
				}
			case KnownBrowser(b):
				add(b)
			default:
				return nil, &unknownBrowserError{b}
			}
		}
	}
	return out, nil
}

type unknownBrowserError struct{ name string }

func (e *unknownBrowserError) Error() string {
	return ErrUnknownBrowser.Error() + " " + `"` + e.name + `" (want one of ` + strings.Join(Browsers, ", ") + `, or all)`
}

func (e *unknownBrowserError) Unwrap() error { return ErrUnknownBrowser }
