package widgets_test

import (
	"strings"
	"testing"

	"github.com/grip-dev/grip/internal/apptest"
)

// An admin tool's change list (shaped like Django admin's list_editable):
// the fields in the table have no label, only the table's headers say
// what each is. grip names each from its row and column header and says
// the name is inferred; the agent edits one product's price and stock,
// sets another's status, and saves; the form's data says what changed.
func TestAdminTableFieldsNamedByHeaders(t *testing.T) {
	a := suite.Open(t, "/testdata/admin.html")
	snap := a.Until("textbox", "Darjeeling / Price")
	price := a.Find(snap, "textbox", "Darjeeling / Price")
	if !strings.Contains(price.Rest, "value='6.20'") || !strings.Contains(price.Rest, "inferred") {
		t.Errorf("the price field reads %+v, want value='6.20' and inferred", price)
	}
	for _, e := range apptest.Elements(snap) {
		if (e.Role == "textbox" || e.Role == "spinbutton" || e.Role == "combobox") && e.Name == "" {
			t.Errorf("a field without a name: %+v", e)
		}
	}
	stock := a.Find(snap, "spinbutton", "Darjeeling / Stock")
	status := a.Find(snap, "combobox", "Matcha / Status")
	featured := a.Find(snap, "checkbox", "Matcha / Featured")
	a.Must("fill", price.Ref, "5.90")
	a.Must("fill", stock.Ref, "48")
	a.Must("select", status.Ref, "Active")
	a.Must("check", featured.Ref)
	a.Must("click", a.Find(snap, "button", "Save").Ref)
	saved := apptest.Eval[map[string]string](a, "JSON.parse(document.body.dataset.saved || '{}')")
	for k, want := range map[string]string{"form-1-price": "5.90", "form-1-stock": "48", "form-2-status": "active", "form-2-featured": "on", "form-0-price": "4.50"} {
		if saved[k] != want {
			t.Errorf("saved %s = %q, want %q (all: %v)", k, saved[k], want, saved)
		}
	}
}

// Tabulator draws an editor (an input with no label) in a cell when it is
// clicked. The agent reads the table's cells in content mode, clicks one,
// and the editor it opens is named from the cell's row and column; the
// value typed lands in Tabulator's data.
func TestTabulatorCellEditorNamedByHeaders(t *testing.T) {
	a := suite.Open(t, "/testdata/tabulator.html")
	a.Until("row", "Grace Hopper")
	cells := a.Snapshot("--mode", "content")
	cell := a.Find(cells, "gridcell", "grace@example.org")
	out := a.Must("click", cell.Ref)
	editor, ok := apptest.Lookup(out, "textbox", "Grace Hopper / Email")
	if !ok {
		editor = a.Find(a.Snapshot(), "textbox", "Grace Hopper / Email")
	}
	if !strings.Contains(editor.Rest, "value='grace@example.org'") || !strings.Contains(editor.Rest, "inferred") {
		t.Errorf("the cell's editor reads %+v, want its value and inferred", editor)
	}
	// fill ends with a change event, on which Tabulator keeps the value
	// and closes the editor.
	a.Must("fill", editor.Ref, "grace.hopper@example.org")
	if got := apptest.Eval[string](a, "table.getData()[1].email"); got != "grace.hopper@example.org" {
		t.Fatalf("Tabulator holds %q for Grace Hopper's email", got)
	}
	if row := a.Find(a.Snapshot(), "row", "Grace Hopper"); !strings.Contains(row.Name, "grace.hopper@example.org") {
		t.Errorf("after the edit the row reads %+v", row)
	}
}
