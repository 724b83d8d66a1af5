package drawn_test

import (
	"strings"
	"testing"

	"github.com/grip-dev/grip/internal/apptest"
)

// x-data-spreadsheet, a sheet drawn on a canvas: the agent selects a cell
// by a point of the canvas (its column and row sizes are the sheet's:
// a 60 px row index, 100 px columns, 25 px rows), opens its editor with a
// double click, types the amount and presses Enter, then chooses a range
// by a drag from one point of the canvas to another; the amount and the
// range are read from the sheet's own data.
func TestXSpreadsheetCanvasGrid(t *testing.T) {
	a := suite.Open(t, "/testdata/sheet.html")
	snap := a.Until("canvas", "")
	canvas := a.Find(snap, "canvas", "")
	// B2, the amount of Rent: column B spans 160–260, row 2 spans 50–75.
	out := a.Must("dblclick", canvas.Ref, "--at", "210,62")
	if !strings.Contains(out, "at 210,62 of [canvas]") {
		t.Errorf("the reply does not name the point:\n%s", out)
	}
	if got := apptest.Eval[[]int](a, `(() => { const s = xs.sheet.data.selector; return [s.ri, s.ci]; })()`); len(got) != 2 || got[0] != 1 || got[1] != 1 {
		t.Fatalf("the sheet selected row,col %v, want 1,1 (B2)", got)
	}
	field := a.Find(a.Snapshot(), "textbox", "")
	a.Must("type", field.Ref, "1200")
	a.Must("press", "Enter", field.Ref)
	if got := apptest.Eval[string](a, `((xs.getData()[0].rows[1] || {}).cells || {})[1]?.text || ''`); got != "1200" {
		t.Fatalf("B2 holds %q in the sheet's data, want 1200", got)
	}

	// B2:C4 chosen by a drag within the canvas, from B2 to C4 (260–360, 100–125).
	a.Must("drag", canvas.Ref, canvas.Ref, "--at", "210,62", "--to-offset", "310,112")
	if got := apptest.Eval[[]int](a, `(() => { const r = xs.sheet.data.selector.range; return [r.sri, r.sci, r.eri, r.eci]; })()`); len(got) != 4 || got[0] != 1 || got[1] != 1 || got[2] != 3 || got[3] != 2 {
		t.Fatalf("the sheet's selection is rows,cols %v, want 1,1 to 3,2 (B2:C4)", got)
	}
}
