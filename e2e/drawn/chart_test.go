package drawn_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/grip-dev/grip/internal/apptest"
)

// Chart.js, a chart drawn on a canvas: nothing of it is in the
// accessibility tree, so the agent takes a screenshot with coordinates
// (--grid), then clicks at points of the canvas — a legend entry to hide a
// series, a bar to pick it — each outcome read from the chart itself. The
// points come from Chart.js's own layout, as a model reads them off the
// grid.
func TestChartJSCanvas(t *testing.T) {
	a := suite.Open(t, "/testdata/chart.html")
	snap := a.Until("canvas", "")
	canvas := a.Find(snap, "canvas", "")
	if w, h := box(t, canvas); w != 640 || h != 320 {
		t.Errorf("the canvas's box is %v×%v, want 640×320", w, h)
	}
	shot := filepath.Join(t.TempDir(), "chart.png")
	if d := os.Getenv("DRAWN_SHOT_DIR"); d != "" {
		shot = filepath.Join(d, "chart.png")
	}
	out := a.Must("screenshot", canvas.Ref, "--grid", "-o", shot)
	if !strings.Contains(out, "a line every 50 CSS px") || !strings.Contains(out, "grip click "+canvas.Ref+" --at X,Y") {
		t.Errorf("the grid screenshot's reply:\n%s", out)
	}
	if st, err := os.Stat(shot); err != nil || st.Size() < 1000 {
		t.Fatalf("the screenshot: %v", err)
	}

	// The legend entry of Expenses, at the centre of its box.
	at := apptest.Eval[[]float64](a, `(() => { const b = chart.legend.legendHitBoxes[1]; return [Math.round(b.left + b.width / 2), Math.round(b.top + b.height / 2)]; })()`)
	out = a.Must("click", canvas.Ref, "--at", fmt.Sprintf("%.0f,%.0f", at[0], at[1]))
	if !strings.Contains(out, "under the point the element itself, in the frame of http://") {
		t.Errorf("the reply does not name what was under the point and its frame:\n%s", out)
	}
	if apptest.Eval[bool](a, `chart.isDatasetVisible(1)`) {
		t.Fatalf("Expenses is still shown after a click on its legend entry at %v", at)
	}

	// The bar of March's income.
	at = apptest.Eval[[]float64](a, `(() => { const b = chart.getDatasetMeta(0).data[2]; return [Math.round(b.x), Math.round((b.y + b.base) / 2)]; })()`)
	a.Must("click", canvas.Ref, "--at", fmt.Sprintf("%.0f,%.0f", at[0], at[1]))
	if got := apptest.Eval[string](a, `typeof window.picked === 'string' ? window.picked : ''`); got != "Mar Income" {
		t.Fatalf("the chart picked %q, want Mar Income", got)
	}

	// Outside the canvas's box: refused, and nothing picked.
	apptest.Eval[any](a, `window.picked = ''`)
	res, code := a.Run("click", canvas.Ref, "--at", "700,10")
	if code == 0 || !strings.Contains(res, "not_actionable") || !strings.Contains(res, "outside [canvas], whose box is 640×320") {
		t.Errorf("a point outside the canvas: exit %d\n%s", code, res)
	}
	if got := apptest.Eval[string](a, `window.picked`); got != "" {
		t.Errorf("a refused click picked %q", got)
	}
}
