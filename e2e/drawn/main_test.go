// Package drawn_test drives real, widely used apps whose interface is
// drawn rather than built from controls — a JointJS flow editor (SVG), a
// Chart.js chart and an x-data-spreadsheet sheet (both drawn on canvas) —
// through the grip CLI only, as an agent would (docs/drawings.md,
// "Drawings and canvases"). The apps come from the npm registry at the
// versions package.json pins (npm ci installs them into the git-ignored
// node_modules here; scripts/setup --js does it), and small host pages in
// testdata/ load them from there. Each test reads its outcome from the
// app's own state (the graph, the chart, the sheet's data) over CDP in the
// page's main world: an observer independent of grip.
package drawn_test

import (
	"os"
	"testing"

	"github.com/grip-dev/grip/internal/apptest"
)

// suite is the package's browser and pinned packages, and the agent that
// drives them (internal/apptest).
var suite = &apptest.Suite{Name: "drawn", What: "app"}

func TestMain(m *testing.M) { os.Exit(suite.Main(m)) }
