package extension

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"path"
	"strconv"
	"strings"
)

// ForFolder returns fsys, a build of the extension (Files, or another
// build a test makes), as it is to be written over a folder of an
// unpacked extension whose manifest.json held prev (nil: there was none).
//
// Chrome starts a kept profile's unpacked extension from the service
// worker it registered before, and registers the worker again only when
// the manifest's version differs from the one it registered; even then a
// registration of the same script URL is kept as it is (the Service
// Worker spec's Register: an active worker of that URL is the answer), so
// the folder rewritten with a new build went on running the old build's
// worker. So when prev names another build, the version written gets a
// fourth number one above prev's (from the build's hash when prev has
// none), and the manifest's worker is a file named by that version that
// imports the build's own (worker/background-0.1.0.18.js importing
// ./background.js): a new URL, which Chrome installs, and the new worker
// takes over from the old at once (background.js skips waiting). The same
// build keeps prev's version, and its worker. A base version of four
// numbers already is left as it is. See docs/versions.md, "Versions".
func ForFolder(fsys fs.FS, prev []byte) (fs.FS, error) {
	raw, err := fs.ReadFile(fsys, "manifest.json")
	if err != nil {
		return nil, fmt.Errorf("extension: no manifest.json: %w", err)
	}
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, fmt.Errorf("extension: manifest.json: %w", err)
	}
	base, _ := m["version"].(string)
	name, _ := m["version_name"].(string)
	if strings.Count(base, ".") != 2 {
		return fsys, nil
	}
	var old struct {
		Version     string `json:"version"`
		VersionName string `json:"version_name"`
	}
	_ = json.Unmarshal(prev, &old) // a folder's unreadable manifest is no build
	switch n, ok := fourth(base, old.Version); {
	case ok && old.VersionName == name && name != "":
		m["version"] = old.Version
	case ok:
		m["version"] = base + "." + strconv.Itoa(n%65535+1)
	default:
		m["version"] = base + "." + strconv.Itoa(hashNumber(name))
	}
	added := map[string][]byte{}
	if bg, ok := m["background"].(map[string]any); ok && bg["type"] == "module" {
		if script, ok := bg["service_worker"].(string); ok && strings.HasSuffix(script, ".js") {
			entry := strings.TrimSuffix(script, ".js") + "-" + m["version"].(string) + ".js"
			bg["service_worker"] = entry
			added[entry] = fmt.Appendf(nil, "// The service worker of version %s of this folder: a URL of its own, so\n"+
				"// Chrome installs this build's worker in place of the one it had.\nimport './%s';\n",
				m["version"], path.Base(script))
		}
	}
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return nil, err
	}
	added["manifest.json"] = append(b, '\n')
	return overlay{FS: fsys, files: added}, nil
}

// fourth returns the fourth number of v when v is base with one more.
func fourth(base, v string) (int, bool) {
	rest, ok := strings.CutPrefix(v, base+".")
	if !ok {
		return 0, false
	}
	n, err := strconv.Atoi(rest)
	if err != nil || n < 0 || n > 65535 {
		return 0, false
	}
	return n, true
}

// hashNumber is 1 to 65535 from the build named in version_name ("0.1.0
// build 1a2b…"), 1 when it names none.
func hashNumber(name string) int {
	_, hash, _ := strings.Cut(name, " build ")
	if len(hash) < 4 {
		return 1
	}
	n, err := strconv.ParseUint(hash[:4], 16, 32)
	if err != nil {
		return 1
	}
	return int(n)%65535 + 1
}
