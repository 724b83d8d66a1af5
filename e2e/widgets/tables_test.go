package widgets_test

import (
	"strings"
	"testing"
)

// An admin tool's change list (shaped like Django admin's list_editable):
// the fields in the table have no label, only the table's headers say
// what each is. grip names each from its row and column header and says
// the name is inferred; the agent edits one product's price and stock,
// sets another's status, and saves; the form's data says what changed.
func TestAdminTableFieldsNamedByHeaders(t *testing.T) {
	a := open(t, "/testdata/admin.html")
	snap := a.until("textbox", "Darjeeling / Price")
	price := a.find(snap, "textbox", "Darjeeling / Price")
	if !strings.Contains(price.rest, "value='6.20'") || !strings.Contains(price.rest, "inferred") {
		t.Errorf("the price field reads %+v, want value='6.20' and inferred", price)
	}
	for _, e := range elements(snap) {
		if (e.role == "textbox" || e.role == "spinbutton" || e.role == "combobox") && e.name == "" {
			t.Errorf("a field without a name: %+v", e)
		}
	}
	stock := a.find(snap, "spinbutton", "Darjeeling / Stock")
	status := a.find(snap, "combobox", "Matcha / Status")
	featured := a.find(snap, "checkbox", "Matcha / Featured")
	a.must("fill", price.ref, "5.90")
	a.must("fill", stock.ref, "48")
	a.must("select", status.ref, "Active")
	a.must("check", featured.ref)
	a.must("click", a.find(snap, "button", "Save").ref)
	saved := eval[map[string]string](a, "JSON.parse(document.body.dataset.saved || '{}')")
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
	a := open(t, "/testdata/tabulator.html")
	a.until("row", "Grace Hopper")
	cells := a.snapshot("--mode", "content")
	cell := a.find(cells, "gridcell", "grace@example.org")
	out := a.must("click", cell.ref)
	editor, ok := lookup(out, "textbox", "Grace Hopper / Email")
	if !ok {
		editor = a.find(a.snapshot(), "textbox", "Grace Hopper / Email")
	}
	if !strings.Contains(editor.rest, "value='grace@example.org'") || !strings.Contains(editor.rest, "inferred") {
		t.Errorf("the cell's editor reads %+v, want its value and inferred", editor)
	}
	// fill ends with a change event, on which Tabulator keeps the value
	// and closes the editor.
	a.must("fill", editor.ref, "grace.hopper@example.org")
	if got := eval[string](a, "table.getData()[1].email"); got != "grace.hopper@example.org" {
		t.Fatalf("Tabulator holds %q for Grace Hopper's email", got)
	}
	if row := a.find(a.snapshot(), "row", "Grace Hopper"); !strings.Contains(row.name, "grace.hopper@example.org") {
		t.Errorf("after the edit the row reads %+v", row)
	}
}
