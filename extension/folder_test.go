package extension

import (
	"encoding/json"
	"io/fs"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
)

// A folder rewritten with another build gets another version and a
// worker script named by it, so Chrome installs the new build's service
// worker; the same build keeps its version (and its worker).
func TestForFolderMovesTheVersionOnANewBuild(t *testing.T) {
	build := func(name string) fs.FS {
		return fstest.MapFS{
			"manifest.json":        {Data: []byte(`{"version": "0.1.0", "version_name": "` + name + `", "background": {"service_worker": "worker/background.js", "type": "module"}}`)},
			"worker/background.js": {Data: []byte("// the worker\n")},
		}
	}
	for _, tc := range []struct {
		name, prev, build, want string
	}{
		{"fresh folder", ``, "0.1.0 build 0010aa", "0.1.0.17"},
		{"a folder from before versions moved", `{"version": "0.1.0", "version_name": "0.1.0 build 0010aa"}`, "0.1.0 build 0010aa", "0.1.0.17"},
		{"same build", `{"version": "0.1.0.9", "version_name": "0.1.0 build 0010aa"}`, "0.1.0 build 0010aa", "0.1.0.9"},
		{"new build", `{"version": "0.1.0.9", "version_name": "0.1.0 build 0010aa"}`, "0.1.0 build 0020bb", "0.1.0.10"},
		{"new build at the top", `{"version": "0.1.0.65535", "version_name": "0.1.0 build 0010aa"}`, "0.1.0 build 0020bb", "0.1.0.1"},
		{"another base version", `{"version": "0.0.9.4", "version_name": "0.0.9 build 0010aa"}`, "0.1.0 build 0020bb", "0.1.0.33"},
		{"unreadable manifest", `{`, "0.1.0 build 0020bb", "0.1.0.33"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var prev []byte
			if tc.prev != "" {
				prev = []byte(tc.prev)
			}
			out, err := ForFolder(build(tc.build), prev)
			if err != nil {
				t.Fatal(err)
			}
			b, err := fs.ReadFile(out, "manifest.json")
			if err != nil {
				t.Fatal(err)
			}
			var m struct {
				Version     string `json:"version"`
				VersionName string `json:"version_name"`
				Background  struct {
					ServiceWorker string `json:"service_worker"`
				} `json:"background"`
			}
			if err := json.Unmarshal(b, &m); err != nil {
				t.Fatal(err)
			}
			if m.Version != tc.want || m.VersionName != tc.build {
				t.Errorf("version %q (%q), want %q", m.Version, m.VersionName, tc.want)
			}
			// The worker the manifest names is the version's own, written
			// out with the rest (fs.WalkDir lists it), and runs the build's.
			entry := "worker/background-" + tc.want + ".js"
			if m.Background.ServiceWorker != entry {
				t.Errorf("the manifest's worker is %q, want %q", m.Background.ServiceWorker, entry)
			}
			var walked []string
			if err := fs.WalkDir(out, ".", func(p string, d fs.DirEntry, err error) error {
				if err == nil && !d.IsDir() {
					walked = append(walked, p)
				}
				return err
			}); err != nil {
				t.Fatal(err)
			}
			if want := []string{"manifest.json", "worker/background-" + tc.want + ".js", "worker/background.js"}; !slices.Equal(walked, want) {
				t.Errorf("the folder's files %q, want %q", walked, want)
			}
			if src, err := fs.ReadFile(out, entry); err != nil || !strings.Contains(string(src), "\nimport './background.js';\n") {
				t.Errorf("%s: %q, %v: it does not import the build's worker", entry, src, err)
			}
		})
	}
}
