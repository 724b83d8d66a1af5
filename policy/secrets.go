package policy

import (
	"os"
	"path/filepath"
	"strings"
)

// Places where secrets are kept wherever they lie, closed to uploads
// unless an upload-from folder is at or inside them (policy/uploads.go):
// a browser's profile — its cookies and saved passwords are the person's
// sessions on every site — and the stores of credentials tools keep.

// secretFolders are folders that are credential stores by their name.
var secretFolders = map[string]string{
	".ssh":            "SSH keys",
	".aws":            "AWS credentials",
	".azure":          "Azure credentials",
	".kube":           "Kubernetes credentials",
	".gnupg":          "GnuPG keys",
	".docker":         "Docker registry credentials",
	".password-store": "a password store",
	"keyrings":        "a keyring",
	"Keychains":       "a keychain",
	".pki":            "certificates and keys",
}

// secretFolderPairs are folders that are credential stores by their name
// and their parent's.
var secretFolderPairs = map[[2]string]string{
	{".config", "gcloud"}: "Google Cloud credentials",
	{".config", "gh"}:     "GitHub credentials",
	{".config", "doctl"}:  "DigitalOcean credentials",
	{".config", "op"}:     "1Password's CLI session",
	{".config", "hub"}:    "GitHub credentials",
	{".config", "rclone"}: "rclone credentials",
}

// secretFiles are files that hold credentials by their name.
var secretFiles = map[string]string{
	".netrc":           "a .netrc",
	"_netrc":           "a .netrc",
	".pgpass":          "a PostgreSQL password file",
	".git-credentials": "Git credentials",
	".npmrc":           "an npm token file",
	".pypirc":          "a PyPI token file",
	".my.cnf":          "a MySQL password file",
	".Xauthority":      "an X11 authority file",
	"id_rsa":           "a private key",
	"id_dsa":           "a private key",
	"id_ecdsa":         "a private key",
	"id_ed25519":       "a private key",
	"id_ecdsa_sk":      "a private key",
	"id_ed25519_sk":    "a private key",
	// A browser's cookies, passwords and keys, also copied out of its
	// profile.
	"Cookies":                "a browser's cookies",
	"Login Data":             "a browser's saved passwords",
	"Login Data For Account": "a browser's saved passwords",
	"cookies.sqlite":         "a browser's cookies",
	"logins.json":            "a browser's saved passwords",
	"key4.db":                "a browser's keys",
	"key3.db":                "a browser's keys",
}

// secretSuffixes are file name endings of credential stores.
var secretSuffixes = map[string]string{
	".keyring":     "a keyring",
	".keychain":    "a keychain",
	".keychain-db": "a keychain",
	".kdbx":        "a KeePass database",
	".kwl":         "a KWallet",
}

// profileMarks tell a browser's profile folder by what it holds: Chrome's
// (Chromium, Edge, Brave) user data folder by its Local State, a profile
// by its Preferences with its cookies, passwords or network state beside
// them, Firefox's by prefs.js with its cookies, logins or keys. One file
// alone (a download named Cookies) does not make its folder a profile;
// that file is closed by its name (secretFiles).
var profileMarks = []struct{ need, any []string }{
	{need: []string{"Local State"}},
	{need: []string{"Preferences"}, any: []string{"Cookies", "Login Data", "Web Data", "Network", "History"}},
	{need: []string{"prefs.js"}, any: []string{"cookies.sqlite", "logins.json", "key4.db", "key3.db", "places.sqlite"}},
}

// maxDepth bounds the walk up from a file to the root.
const maxDepth = 64

// secretPlaces are the browser profiles and credential stores path is
// in, or is.
func secretPlaces(path string) []closedPlace {
	var out []closedPlace
	parts := strings.Split(filepath.ToSlash(path), "/")
	for i, c := range parts {
		if i == 0 || c == "" {
			continue
		}
		dir := filepath.FromSlash(strings.Join(parts[:i+1], "/"))
		last := i == len(parts)-1
		if what, ok := secretFolders[c]; ok && !last {
			out = append(out, closedPlace{dir: dir, name: dir + ", " + what})
		}
		if what := secretFolderPairs[[2]string{parts[i-1], c}]; what != "" {
			out = append(out, closedPlace{dir: dir, name: dir + ", " + what})
		}
		if !last {
			continue
		}
		if what, ok := secretFiles[c]; ok {
			out = append(out, closedPlace{dir, dir + ", " + what, true})
		}
		if strings.HasPrefix(c, "krb5cc") {
			out = append(out, closedPlace{dir, dir + ", a Kerberos ticket cache", true})
		}
		for suffix, what := range secretSuffixes {
			if strings.HasSuffix(strings.ToLower(c), suffix) {
				out = append(out, closedPlace{dir, dir + ", " + what, true})
			}
		}
	}
	// A browser's profile: the highest folder on the way up that holds
	// what a browser keeps there.
	dir := filepath.Dir(path)
	var profile string
	for range maxDepth {
		if isProfile(dir) {
			profile = dir
		}
		up := filepath.Dir(dir)
		if up == dir {
			break
		}
		dir = up
	}
	if profile != "" {
		out = append(out, closedPlace{dir: profile, name: profile + ", a browser's profile folder (its cookies and saved passwords)"})
	}
	return out
}

// isProfile reports whether dir is a browser's profile folder
// (profileMarks).
func isProfile(dir string) bool {
	has := func(name string) bool {
		_, err := os.Lstat(filepath.Join(dir, name))
		return err == nil
	}
	for _, m := range profileMarks {
		ok := true
		for _, n := range m.need {
			ok = ok && has(n)
		}
		if !ok {
			continue
		}
		if len(m.any) == 0 {
			return true
		}
		for _, n := range m.any {
			if has(n) {
				return true
			}
		}
	}
	return false
}
