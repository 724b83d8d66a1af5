package drawn_test

import (
	"math"
	"strings"
	"testing"

	"github.com/grip-dev/grip/internal/apptest"
)

// JointJS (@joint/core), a flow editor drawn in SVG: the workspace is
// listed as [graphics] with its nodes and their ports, a palette block is
// placed on empty canvas at a point, a wire drawn from one port to
// another, a node moved and renamed — each outcome read from JointJS's
// graph.
func TestJointJSFlowEditor(t *testing.T) {
	a := suite.Open(t, "/testdata/flow.html")
	snap := a.Until("clickable", "Finish: left port")
	canvas := a.Find(snap, "graphics", "")
	if !strings.Contains(canvas.Rest, "box=") {
		t.Errorf("the drawing's line does not say its box: %+v", canvas)
	}
	w, h := box(t, canvas)

	// A Task from the palette, dropped at 60%,40% of the empty canvas.
	task := a.Find(snap, "clickable", "Task")
	out := a.Must("drag", task.Ref, canvas.Ref, "--to", "60%,40%")
	if !strings.Contains(out, "at 60%,40%") {
		t.Errorf("the drag's reply does not name the drop point:\n%s", out)
	}
	c := apptest.Eval[[]float64](a, `(() => { const n = graph.getElements().find((e) => e.attr('label/text') === 'Task 1'); if (!n) return []; const c = n.getBBox().center(); return [c.x, c.y]; })()`)
	if len(c) != 2 || math.Abs(c[0]-0.6*w) > 3 || math.Abs(c[1]-0.4*h) > 3 {
		t.Fatalf("Task 1 is centred at %v, want (%.0f, %.0f): 60%%,40%% of the %.0f×%.0f canvas", c, 0.6*w, 0.4*h, w, h)
	}
	if !strings.Contains(out, "'Task 1'") {
		t.Errorf("the reply does not show the node that appeared:\n%s", out)
	}

	// A wire from Start's output port to Finish's input port.
	snap = a.Snapshot()
	a.Must("drag", a.Find(snap, "clickable", "Start: right port").Ref, a.Find(snap, "clickable", "Finish: left port").Ref)
	link := apptest.Eval[string](a, `graph.getLinks().map((l) => l.source().id + '.' + l.source().port + '>' + l.target().id + '.' + l.target().port).join(' ')`)
	if link != "start.out>finish.in" {
		t.Fatalf("the graph's links are %q, want start.out>finish.in", link)
	}

	// Start moved so that its centre is at 300,60 of the canvas.
	a.Must("drag", a.Find(snap, "clickable", "Start").Ref, canvas.Ref, "--to-offset", "300,60")
	c = apptest.Eval[[]float64](a, `(() => { const c = graph.getCell('start').getBBox().center(); return [c.x, c.y]; })()`)
	if math.Abs(c[0]-300) > 3 || math.Abs(c[1]-60) > 3 {
		t.Fatalf("Start is centred at %v, want (300, 60)", c)
	}

	// A double click opens the app's rename field; Enter keeps the name.
	out = a.Must("dblclick", a.Find(snap, "clickable", "Finish").Ref)
	field := a.Find(out, "textbox", "Node name")
	a.Must("fill", field.Ref, "Done")
	a.Must("press", "Enter", field.Ref)
	if got := apptest.Eval[string](a, `graph.getCell('finish').attr('label/text')`); got != "Done" {
		t.Fatalf("Finish is named %q in the graph, want Done", got)
	}
}
