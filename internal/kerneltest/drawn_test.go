package kerneltest_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/grip-dev/grip/protocol"
)

// The parts of a drawing and of a formula, each acted on with every verb
// the kernel knows: each act works or is refused with a code, never
// internal (SVG and MathML elements have no click(), docs/drawings.md,
// "Drawings and canvases").
var drawnParts = []struct{ sel, id, tag string }{
	{"#n1", "n1", "g"},
	{"#p1", "p1", "rect"},
	{"#wire", "wire", "path"},
	{"#label", "label", "text"},
	{"#fo", "fo", "div"},
	{"#mi", "mi", "mi"},
	{"#link", "link", "a"},
}

func TestActEveryVerbOnDrawnElements(t *testing.T) {
	ctx := newTab(t, "drawn.html")
	verbs := []map[string]any{
		{"action": "click"}, {"action": "dblclick"}, {"action": "hover"}, {"action": "focus"},
		{"action": "type", "text": "a"}, {"action": "fill", "text": "a"}, {"action": "select", "value": "a"},
		{"action": "check"}, {"action": "uncheck"}, {"action": "press", "key": "Enter"},
		{"action": "press", "key": " "}, {"action": "scroll"}, {"action": "find", "text": "Finish"},
		{"action": "drag", "toSelector": "#n2"}, {"action": "upload"},
	}
	for _, p := range drawnParts {
		for _, v := range verbs {
			req := map[string]any{"selector": p.sel}
			for k, x := range v {
				req[k] = x
			}
			if p.sel == "#n2" {
				continue
			}
			r := act(t, ctx, req)
			if r.Error != nil && r.Error.Code == protocol.CodeInternal {
				t.Errorf("%s %v: internal error %q", p.sel, v, r.Error.Message)
			}
			if r.Error == nil && !r.OK {
				t.Errorf("%s %v: neither ok nor an error: %+v", p.sel, v, r)
			}
		}
	}
}

// A click on a part of a drawing is the one a person's press makes: the
// events land on the part under the point (the group's rect or text),
// with the point's coordinates, and bubble to the drawing's handlers.
func TestActClickOnDrawnParts(t *testing.T) {
	ctx := newTab(t, "drawn.html")
	for _, p := range drawnParts {
		eval[any](t, ctx, `window.__log = []`)
		if r := act(t, ctx, map[string]any{"selector": p.sel, "action": "click"}); r.Error != nil {
			t.Errorf("%s: %v", p.sel, r.Error)
			continue
		}
		log := logOf(t, ctx)
		var click string
		for _, l := range log {
			if strings.HasPrefix(l, "click:") {
				click = l
			}
		}
		if click == "" || !strings.HasPrefix(click, "click:"+p.id) {
			t.Errorf("%s: log = %v, want a click on %s", p.sel, log, p.id)
			continue
		}
		if p.tag == "mi" || p.tag == "div" {
			continue // click() on an HTML element, as ever; MathML is laid out inline
		}
		if strings.HasSuffix(click, "@0,0") {
			t.Errorf("%s: click at 0,0 (click() on an HTML element, not the point): %v", p.sel, log)
		}
		if p.sel == "#n1" && !strings.HasPrefix(click, "click:n1:rect") && !strings.HasPrefix(click, "click:n1:text") {
			t.Errorf("#n1: click landed on %q, want the group's rect or text under the point", click)
		}
	}
	eval[any](t, ctx, `window.__log = []`)
	wantOK(t, act(t, ctx, map[string]any{"selector": "#n2", "action": "dblclick"}))
	if log := logOf(t, ctx); !slices.ContainsFunc(log, func(l string) bool { return strings.HasPrefix(l, "dblclick:n2") }) {
		t.Errorf("dblclick on #n2: log = %v", log)
	}
	// An SVG link has no click() either: Enter follows it, as a person's key does.
	eval[any](t, ctx, `location.hash = ''`)
	wantOK(t, act(t, ctx, map[string]any{"selector": "#link", "action": "press", "key": "Enter"}))
	if h := eval[string](t, ctx, `location.hash`); h != "#went" {
		t.Errorf("Enter on an SVG link: location.hash = %q, want #went", h)
	}
	// The formula's identifier is focusable: a press focuses it, as a person's does.
	eval[any](t, ctx, `window.__log = []`)
	wantOK(t, act(t, ctx, map[string]any{"selector": "#mi", "action": "click"}))
	if log := logOf(t, ctx); !slices.Contains(log, "focus:mi") {
		t.Errorf("click on #mi: log = %v, want focus:mi", log)
	}
}

// A point inside a canvas: the click lands there, with its coordinates;
// a point outside the box, under another element or over another frame
// is refused, and nothing is clicked.
func TestActClickAtAPoint(t *testing.T) {
	ctx := newTab(t, "drawn.html")
	eval[any](t, ctx, `window.__log = []`)
	r := act(t, ctx, map[string]any{"selector": "#board", "action": "click", "at": map[string]any{"x": 120, "y": 80}})
	wantOK(t, r)
	if !strings.Contains(r.Detail, "at 120,80 of [canvas 'Board']") || !strings.Contains(r.Detail, "in the frame of http://") {
		t.Errorf("detail = %q, want the point, the element and the frame", r.Detail)
	}
	if log := logOf(t, ctx); !slices.Contains(log, "board:120,80:1") {
		t.Errorf("log = %v, want board:120,80:1", log)
	}
	eval[any](t, ctx, `window.__log = []`)
	wantOK(t, act(t, ctx, map[string]any{"selector": "#board", "action": "dblclick", "at": map[string]any{"x": 50, "y": 50, "percent": true}}))
	if log := logOf(t, ctx); !slices.Contains(log, "board-dbl:150,100") || !slices.Contains(log, "board:150,100:2") {
		t.Errorf("log = %v, want a double click at 150,100", log)
	}
	eval[any](t, ctx, `window.__log = []`)
	wantError(t, act(t, ctx, map[string]any{"selector": "#board", "action": "click", "at": map[string]any{"x": 301, "y": 10}}),
		"not_actionable", "point", "outside [canvas 'Board'], whose box is 300×200")
	wantError(t, act(t, ctx, map[string]any{"selector": "#board", "action": "click", "at": map[string]any{"x": 290, "y": 190}}),
		"not_actionable", "point", "occluded by")
	wantError(t, act(t, ctx, map[string]any{"selector": "#board", "action": "click", "at": map[string]any{"x": 10, "y": 190}}),
		"not_actionable", "point", "lands in another frame")
	wantError(t, act(t, ctx, map[string]any{"selector": "#board", "action": "type", "text": "x", "at": map[string]any{"x": 1, "y": 1}}),
		"bad_request", "node", "takes no point")
	if log := logOf(t, ctx); len(log) != 0 {
		t.Errorf("log = %v, want nothing clicked", log)
	}
	// A see-through layer over a canvas takes its input: the click lands
	// on it (and on the tint of a selection), as a person's does.
	eval[any](t, ctx, `window.__log = []`)
	wantOK(t, act(t, ctx, map[string]any{"selector": "#map", "action": "click", "at": map[string]any{"x": 150, "y": 60}}))
	wantOK(t, act(t, ctx, map[string]any{"selector": "#map", "action": "click", "at": map[string]any{"x": 20, "y": 20}}))
	clicks := slices.DeleteFunc(logOf(t, ctx), func(l string) bool { return !strings.HasPrefix(l, "layer:") })
	// offsetX and offsetY are the target's: the tint starts at 10,10.
	if log := clicks; !slices.Equal(log, []string{"layer:150,60", "layer:10,10"}) {
		t.Errorf("log = %v, want two clicks on the map's layer", log)
	}
	// Trusted: the page checks the point and returns it for the real mouse.
	r = act(t, ctx, map[string]any{"selector": "#board", "action": "click", "trusted": true, "at": map[string]any{"x": 10, "y": 20}})
	wantOK(t, r)
	b := eval[[]float64](t, ctx, `(() => { const b = document.getElementById('board').getBoundingClientRect(); return [b.left, b.top]; })()`)
	if r.Point == nil || r.Point.X != b[0]+10 || r.Point.Y != b[1]+20 {
		t.Errorf("trusted point = %+v, want %v + (10, 20)", r.Point, b)
	}
}

// A drop point inside the drop target: a port dragged onto empty canvas
// at 40%,60% of the drawing is released there.
func TestDragToAPoint(t *testing.T) {
	ctx := newTab(t, "drawn.html")
	eval[any](t, ctx, `window.__log = []`)
	r := act(t, ctx, map[string]any{"selector": "#p1", "action": "drag", "toSelector": "#flow", "toAt": map[string]any{"x": 40, "y": 60, "percent": true}})
	wantOK(t, r)
	if !strings.Contains(r.Detail, "at 40%,60%") {
		t.Errorf("detail = %q, want the drop point", r.Detail)
	}
	if log := logOf(t, ctx); !slices.Contains(log, "up:240,180:svg") {
		t.Errorf("log = %v, want the release at 240,180 on the drawing", log)
	}
	eval[any](t, ctx, `window.__log = []`)
	wantOK(t, act(t, ctx, map[string]any{"selector": "#p1", "action": "drag", "toSelector": "#flow", "toAt": map[string]any{"x": 500, "y": 20}}))
	if log := logOf(t, ctx); !slices.Contains(log, "up:500,20:svg") {
		t.Errorf("log = %v, want the release at 500,20", log)
	}
	wantError(t, act(t, ctx, map[string]any{"selector": "#p1", "action": "drag", "toSelector": "#flow", "toAt": map[string]any{"x": 601, "y": 20}}),
		"not_actionable", "point", "the drop target: the point 601,20 is outside")

	// Within one canvas, from one point of it to another (a shape moved).
	eval[any](t, ctx, `window.__log = []`)
	wantOK(t, act(t, ctx, map[string]any{"selector": "#board", "action": "drag", "toSelector": "#board",
		"at": map[string]any{"x": 20, "y": 30}, "toAt": map[string]any{"x": 200, "y": 150}}))
	log := logOf(t, ctx)
	if !slices.Contains(log, "board-down:20,30") || !slices.Contains(log, "board-up:200,150") {
		t.Errorf("log = %v, want the press at 20,30 and the release at 200,150 of the board", log)
	}
	wantError(t, act(t, ctx, map[string]any{"selector": "#board", "action": "drag", "toSelector": "#board", "toAt": map[string]any{"x": 200, "y": 150}}),
		"bad_request", "node", "cannot be dropped on itself")
}

// A drawing is listed as one element with the size of its box, its parts
// after it: nodes by their text, ports by their node and side, the wire,
// content of a foreignObject as any page's; a canvas with its box. Each is
// acted on by its id with the meaning check passing (describe agrees with
// the walk).
func TestSnapshotListsADrawingAndItsParts(t *testing.T) {
	ctx := newTab(t, "drawn.html")
	els := snap(t, ctx, "interactive").Elements
	want := []struct {
		role, name string
		states     []string
	}{
		{"graphics", "Flow 1", []string{"box=600x300"}},
		{"clickable", "Start", []string{"draggable"}},
		{"clickable", "Start: right port", []string{"inferred"}},
		{"clickable", "Finish", []string{"draggable"}},
		{"clickable", "Finish: left port", []string{"inferred"}},
		{"clickable", "", nil},
		{"clickable", "Zoom", nil},
		{"link", "Go there", nil},
		{"clickable", "Inside foreign", nil},
		{"clickable", "x", nil},
		{"canvas", "Board", []string{"box=300x200"}},
	}
	var got []protocol.ExtElement
	for _, e := range els {
		if e.Role == "graphics" || len(got) > 0 && len(got) < len(want) {
			got = append(got, e)
		}
	}
	if len(got) < len(want) {
		t.Fatalf("snapshot:\n%s", dump(els))
	}
	for i, w := range want {
		if got[i].Role != w.role || got[i].Name != w.name || !slices.Equal(got[i].States, w.states) {
			t.Errorf("line %d = [%s %q %v], want [%s %q %v]\n%s", i, got[i].Role, got[i].Name, got[i].States, w.role, w.name, w.states, dump(els))
		}
	}
	for _, e := range got {
		eval[any](t, ctx, `window.__log = []`)
		if r := act(t, ctx, map[string]any{"id": e.ID, "action": "hover"}); r.Error != nil {
			t.Errorf("hover [%s %q]: %v", e.Role, e.Name, r.Error)
		}
	}
	// A drawing without parts (an icon, a static chart) is not listed.
	eval[any](t, ctx, `document.querySelectorAll('#flow *').forEach((e) => { e.style.cursor = 'default'; }), document.getElementById('link').removeAttribute('href'), null`)
	if els := snap(t, ctx, "interactive").Elements; find(els, "graphics", "Flow 1") != nil {
		t.Errorf("a drawing without parts is listed:\n%s", dump(els))
	}
}

// A fill is a person's paste: a form that checks its field only on keyup
// or paste enables its button, and the paste carries the text.
func TestFillIsAPaste(t *testing.T) {
	ctx := newTab(t, "paste.html")
	id := ref(t, ctx, "textbox", "Data to import")
	wantOK(t, act(t, ctx, map[string]any{"id": id, "action": "fill", "text": "a,b\n1,2"}))
	if got := eval[string](t, ctx, `window.pasted`); got != "a,b\n1,2" {
		t.Errorf("the paste carried %q", got)
	}
	if !eval[bool](t, ctx, `new Promise((r) => setTimeout(() => r(!document.getElementById('import').disabled), 0))`) {
		t.Errorf("Import is still disabled after the fill")
	}
	if got := eval[string](t, ctx, `document.getElementById('data').value`); got != "a,b\n1,2" {
		t.Errorf("value = %q", got)
	}
}

// A toast on its way out that still covers the button once the action's
// wait for a moving page is over: the refusal says it is fading out and
// when its animation ends. One that stands still is refused as ever.
func TestOccludedByAFadingToast(t *testing.T) {
	ctx := newTab(t, "act.html")
	id := ref(t, ctx, "button", "Covered")
	eval[any](t, ctx, `(() => {
		const o = document.getElementById('overlay');
		o.style.display = 'block';
		o.getBoundingClientRect();
		// Far longer than the action waits (2 s): still there when it is refused.
		o.style.transition = 'opacity 20s linear';
		o.style.opacity = '0';
		return null;
	})()`)
	wantError(t, act(t, ctx, map[string]any{"id": id, "action": "click"}), "not_actionable", "point",
		"occluded by [button 'Accept cookies'], which is fading out (its animation ends in 1")
	eval[any](t, ctx, `(() => { const o = document.getElementById('overlay'); o.style.transition = ''; o.style.opacity = '.5'; return null; })()`)
	r := act(t, ctx, map[string]any{"id": id, "action": "click"})
	wantError(t, r, "not_actionable", "point", "occluded by [button 'Accept cookies']")
	if strings.Contains(r.Error.Message, "fading") {
		t.Errorf("a toast that stands still is said to fade: %q", r.Error.Message)
	}
}
