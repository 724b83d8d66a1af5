// Package editors_test drives real, widely used editors through the grip
// CLI, as an agent would (snapshot → act → snapshot), and checks each
// outcome through the editor's own API, read by an independent observer
// over CDP. The editors are npm packages at the versions package.json
// pins, installed by `npm ci` into the git-ignored node_modules here
// (scripts/setup --js does it); the ES-module ones are bundled with
// esbuild at the start of the run. The host pages in testdata/ set each
// editor up the way its documentation does. Jupyter Notebook, a whole
// application, comes from Debian's package (jupyter_test.go).
package editors_test

import (
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/grip-dev/grip/internal/browsertest"
)

//go:embed testdata
var testdata embed.FS

// env is the one browser every test here shares; nil when the tests skip.
var env *browsertest.Env

// bundleEntries are the ES-module editors' entry files (src/), bundled into
// one script each for the host pages.
var bundleEntries = []string{"src/tiptap.js", "src/codemirror6.js", "src/monaco.js", "src/lexical.js", "src/slate.js"}

func TestMain(m *testing.M) {
	os.Exit(run(m))
}

func run(m *testing.M) int {
	if err := installed("."); err != nil {
		if os.Getenv(browsertest.RequireEnv) != "" {
			fmt.Fprintf(os.Stderr, "e2e/editors: %v; run scripts/setup --js (or npm ci in e2e/editors)\n", err)
			return 1
		}
		fmt.Fprintf(os.Stderr, "e2e/editors: %v; the editor tests skip (scripts/setup --js installs them)\n", err)
		return m.Run()
	}
	bundles, err := os.MkdirTemp("", "grip-editors-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(bundles)
	if err := bundle(bundles); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	pages, err := fs.Sub(testdata, "testdata")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	env = browsertest.ForMain(browsertest.Options{Fixtures: site{
		pages:   pages,
		modules: os.DirFS("node_modules"),
		bundles: os.DirFS(bundles),
	}})
	code := m.Run()
	if env != nil {
		if err := env.Close(); err != nil {
			fmt.Fprintln(os.Stderr, err)
			if code == 0 {
				code = 1
			}
		}
	}
	return code
}

// installed checks that node_modules in dir holds every dependency of
// package.json at the version pinned there (an alias like
// "npm:codemirror@5.65.20" pins the version after the last @).
func installed(dir string) error {
	var pkg struct {
		Dependencies map[string]string `json:"dependencies"`
	}
	b, err := os.ReadFile(filepath.Join(dir, "package.json"))
	if err != nil {
		return err
	}
	if err := json.Unmarshal(b, &pkg); err != nil {
		return fmt.Errorf("package.json: %w", err)
	}
	var problems []string
	for _, name := range slices.Sorted(maps.Keys(pkg.Dependencies)) {
		want := pkg.Dependencies[name]
		if i := strings.LastIndex(want, "@"); strings.HasPrefix(want, "npm:") && i > 0 {
			want = want[i+1:]
		}
		var got struct {
			Version string `json:"version"`
		}
		b, err := os.ReadFile(filepath.Join(dir, "node_modules", name, "package.json"))
		if err == nil {
			err = json.Unmarshal(b, &got)
		}
		switch {
		case errors.Is(err, fs.ErrNotExist):
			problems = append(problems, name+" is not installed")
		case err != nil:
			problems = append(problems, name+": "+err.Error())
		case got.Version != want:
			problems = append(problems, fmt.Sprintf("%s is %s, package.json pins %s", name, got.Version, want))
		}
	}
	if len(problems) > 0 {
		return errors.New(strings.Join(problems, "; "))
	}
	return nil
}

// bundle builds each of bundleEntries into dir with the installed esbuild
// (an entry's stylesheets go beside it, as NAME.css; Monaco's fonts as files).
func bundle(dir string) error {
	args := append([]string{"--bundle", "--format=iife", "--log-level=warning", "--loader:.ttf=file", "--outdir=" + dir}, bundleEntries...)
	cmd := exec.Command(filepath.Join("node_modules", ".bin", "esbuild"), args...)
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("e2e/editors: esbuild: %v\n%s", err, out)
	}
	return nil
}

// site is what the fixture server serves: the host pages at the root, the
// installed packages under /node_modules/ and the bundles under /bundles/.
type site struct {
	pages, modules, bundles fs.FS
}

func (s site) Open(name string) (fs.File, error) {
	if rest, ok := strings.CutPrefix(name, "node_modules/"); ok {
		return s.modules.Open(rest)
	}
	if rest, ok := strings.CutPrefix(name, "bundles/"); ok {
		return s.bundles.Open(rest)
	}
	return s.pages.Open(name)
}
