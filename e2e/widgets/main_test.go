// Package widgets_test drives real, widely used third-party components
// (Tom Select, flatpickr, Pikaday, AG Grid Community, SortableJS, a React list,
// Choices.js, Slim Select, Nice Select 2, Select2, bootstrap-select, Tabulator)
// through the grip CLI only, as an agent would: snapshot, act, snapshot.
// The components come from the npm registry at the versions package.json
// pins (npm ci installs them into the git-ignored node_modules here;
// scripts/setup --js does it), and small host pages in testdata/ load them
// from there. Each test checks its outcome through the component's own API
// or the page's state, read over CDP in the page's main world: an observer
// independent of grip. One browser serves the whole package.
package widgets_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"sync"
	"testing"

	"github.com/grip-dev/grip/internal/browsertest"
)

var env *browsertest.Env

// missing says why the components cannot be served ("" when they can).
var missing string

func TestMain(m *testing.M) {
	missing = checkComponents(".")
	if missing != "" {
		if os.Getenv(browsertest.RequireEnv) != "" {
			fmt.Fprintln(os.Stderr, "widgets: "+missing+"; run scripts/setup --js (npm ci in e2e/widgets)")
			os.Exit(1)
		}
		fmt.Fprintln(os.Stderr, "widgets: "+missing+"; the component tests skip (set "+browsertest.RequireEnv+"=1 to make this a failure)")
		os.Exit(m.Run())
	}
	// Served on both loopback origins: the host pages in testdata/ and the
	// packages in node_modules/.
	env = browsertest.ForMain(browsertest.Options{Fixtures: os.DirFS(".")})
	code := m.Run()
	printTokens()
	if env != nil {
		if err := env.Close(); err != nil {
			fmt.Fprintln(os.Stderr, err)
			if code == 0 {
				code = 1
			}
		}
	}
	os.Exit(code)
}

// need skips t when there is no browser or no components (and neither is
// required: TestMain has already failed the package when they are).
func need(t *testing.T) {
	t.Helper()
	if missing != "" {
		t.Skip(missing)
	}
	browsertest.Need(t, env)
}

// checkComponents says which pinned package is not installed in dir's
// node_modules at the version package.json names, or "".
func checkComponents(dir string) string {
	var pkg struct {
		Dependencies map[string]string `json:"dependencies"`
	}
	b, err := os.ReadFile(filepath.Join(dir, "package.json"))
	if err != nil {
		return err.Error()
	}
	if err := json.Unmarshal(b, &pkg); err != nil {
		return "package.json: " + err.Error()
	}
	names := make([]string, 0, len(pkg.Dependencies))
	for n := range pkg.Dependencies {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, name := range names {
		var got struct {
			Version string `json:"version"`
		}
		b, err := os.ReadFile(filepath.Join(dir, "node_modules", name, "package.json"))
		if err != nil {
			return "component " + name + " is not installed"
		}
		if err := json.Unmarshal(b, &got); err != nil || got.Version != pkg.Dependencies[name] {
			return fmt.Sprintf("component %s is at version %q, package.json pins %q", name, got.Version, pkg.Dependencies[name])
		}
	}
	return ""
}

// tokens is what each test's agent read, by test name.
var tokens = struct {
	sync.Mutex
	byTest map[string]int
}{byTest: map[string]int{}}

// printTokens writes the tokens each test read, for bench/RESULTS.md.
func printTokens() {
	tokens.Lock()
	defer tokens.Unlock()
	if len(tokens.byTest) == 0 {
		return
	}
	names := make([]string, 0, len(tokens.byTest))
	total := 0
	for n, v := range tokens.byTest {
		names = append(names, n)
		total += v
	}
	sort.Strings(names)
	fmt.Fprintln(os.Stderr, "widgets: tokens the agent read (grip's measure, ceil(chars/3) per line):")
	for _, n := range names {
		fmt.Fprintf(os.Stderr, "  %-40s %6d\n", n, tokens.byTest[n])
	}
	fmt.Fprintf(os.Stderr, "  %-40s %6d\n", "total", total)
}
