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
	"os"
	"testing"

	"github.com/grip-dev/grip/internal/apptest"
)

// suite is the package's browser and pinned packages, and the agent that
// drives them (internal/apptest).
var suite = &apptest.Suite{Name: "widgets", What: "component"}

func TestMain(m *testing.M) { os.Exit(suite.Main(m)) }
