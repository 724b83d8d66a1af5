package drawn_test

import (
	"context"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/grip-dev/grip/internal/apptest"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// Over `grip mcp`: browser_drag with a drop point (to, in percent) places a
// palette block on JointJS's empty canvas, browser_take_screenshot with
// grid draws the canvas's coordinates, and browser_click with at clicks a
// Chart.js legend entry — each read from the app.
func TestMCPPointsOnDrawnApps(t *testing.T) {
	a := suite.Open(t, "/testdata/flow.html")
	snap := a.Until("clickable", "Finish: left port")
	canvas := a.Find(snap, "graphics", "")
	task := a.Find(snap, "clickable", "Task")
	w, h := box(t, canvas)

	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cs, stderr := suite.MCP(ctx, t, "grip-drawn")
	call := func(name string, args map[string]any) (string, bool) {
		t.Helper()
		res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: name, Arguments: args})
		if err != nil {
			t.Fatalf("%s: %v\n%s", name, err, stderr.String())
		}
		var text strings.Builder
		images := 0
		for _, c := range res.Content {
			switch c := c.(type) {
			case *sdk.TextContent:
				text.WriteString(c.Text)
			case *sdk.ImageContent:
				images++
			}
		}
		if images > 0 {
			text.WriteString("\n[image]")
		}
		return text.String(), res.IsError
	}

	out, isErr := call("browser_drag", map[string]any{"startRef": task.Ref, "startElement": "Task", "endRef": canvas.Ref, "endElement": "the canvas", "to": map[string]any{"x": 25, "y": 75}})
	if isErr || !strings.Contains(out, "at 25%,75%") {
		t.Fatalf("browser_drag with to (error %v):\n%s", isErr, out)
	}
	c := apptest.Eval[[]float64](a, `(() => { const n = graph.getElements().find((e) => e.attr('label/text') === 'Task 1'); if (!n) return []; const c = n.getBBox().center(); return [c.x, c.y]; })()`)
	if len(c) != 2 || math.Abs(c[0]-0.25*w) > 3 || math.Abs(c[1]-0.75*h) > 3 {
		t.Fatalf("Task 1 is centred at %v, want 25%%,75%% of %v×%v", c, w, h)
	}

	b := suite.Open(t, "/testdata/chart.html")
	chart := b.Find(b.Until("canvas", ""), "canvas", "")
	out, isErr = call("browser_take_screenshot", map[string]any{"ref": chart.Ref, "grid": true})
	if isErr || !strings.Contains(out, "a line every 50 CSS px") || !strings.Contains(out, "[image]") {
		t.Fatalf("browser_take_screenshot with grid (error %v):\n%s", isErr, out)
	}
	at := apptest.Eval[[]float64](b, `(() => { const h = chart.legend.legendHitBoxes[0]; return [Math.round(h.left + h.width / 2), Math.round(h.top + h.height / 2)]; })()`)
	out, isErr = call("browser_click", map[string]any{"ref": chart.Ref, "element": "the chart", "at": map[string]any{"x": at[0], "y": at[1]}})
	if isErr || !strings.Contains(out, "under the point") {
		t.Fatalf("browser_click with at (error %v):\n%s", isErr, out)
	}
	if apptest.Eval[bool](b, `chart.isDatasetVisible(0)`) {
		t.Fatalf("Income is still shown after a click on its legend entry at %v", at)
	}
	// Outside the canvas: refused with a code.
	out, isErr = call("browser_click", map[string]any{"ref": chart.Ref, "at": map[string]any{"x": 900, "y": 10}})
	if !isErr || !strings.Contains(out, "not_actionable") {
		t.Errorf("a point outside the canvas (error %v):\n%s", isErr, out)
	}
}
