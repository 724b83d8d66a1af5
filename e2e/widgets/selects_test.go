package widgets_test

import (
	"strings"
	"testing"

	"github.com/grip-dev/grip/internal/apptest"
)

// Custom selects keep a native <select> out of sight and show a control
// of their own in front of it. That control reads as a combobox named by
// the select's label, whose value is the option chosen (not the text of
// every option it draws); grip select opens it and clicks the option, and
// the component's own value changes.
func TestWrappedSelects(t *testing.T) {
	for _, c := range []struct {
		name, page string
		// field: the label; before: its value on load ("" for none); pick:
		// the option to choose; read: the component's value, read back
		// through its own API; want: what read says after the choice.
		field, before, pick, read, want string
	}{
		{"Choices.js", "/testdata/choices.html", "Priority", "Normal", "Urgent", "priority.getValue(true)", "urgent"},
		{"Choices.js searchable", "/testdata/choices.html", "Team", "", "Infrastructure", "team.getValue(true)", "infra"},
		{"Slim Select", "/testdata/slimselect.html", "Carrier", "Royal Mail", "UPS", "carrier.getSelected().join()", "ups"},
		{"Slim Select without search", "/testdata/slimselect.html", "Time slot", "Morning (8–12)", "Evening (17–21)", "slot.getSelected().join()", "eve"},
		{"Nice Select 2", "/testdata/niceselect.html", "Language", "English", "Deutsch", "document.getElementById('language').value", "de"},
		{"Nice Select 2 searchable", "/testdata/niceselect.html", "Time zone", "UTC", "Asia/Tokyo", "document.getElementById('tz').value + ' ' + document.querySelector('#tz + .nice-select .current').textContent", "tok Asia/Tokyo"},
		{"Select2", "/testdata/select2.html", "Size", "Medium", "Large", "$('#size').val()", "l"},
		{"bootstrap-select", "/testdata/bootstrap-select.html", "Sauce", "Mustard", "Relish", "$('#sauce').selectpicker('val')", "Relish"},
	} {
		t.Run(c.name, func(t *testing.T) {
			a := suite.Open(t, c.page)
			snap := a.Until("combobox", c.field)
			box := a.Find(snap, "combobox", c.field)
			if box.Name != c.field {
				t.Errorf("the combobox is named %q, want %q (its select's label)", box.Name, c.field)
			}
			value := ""
			if i := strings.Index(box.Rest, "value='"); i >= 0 {
				value = box.Rest[i+len("value='"):]
				value = value[:strings.Index(value, "'")]
			}
			if value != c.before {
				t.Errorf("before the choice the combobox's value is %q, want %q: %+v", value, c.before, box)
			}
			for _, e := range apptest.Elements(snap) {
				if e.Role == "combobox" && e.Name == "" {
					t.Errorf("an unnamed combobox is listed (the hidden select?): %+v\n%s", e, snap)
				}
			}
			out := a.Must("select", box.Ref, c.pick)
			if !strings.Contains(out, "selected '"+c.pick+"'") {
				t.Errorf("select's reply does not say what it chose:\n%s", out)
			}
			if got := apptest.Eval[string](a, c.read); got != c.want {
				t.Fatalf("%s = %q, want %q", c.read, got, c.want)
			}
			if after := a.Find(a.Snapshot(), "combobox", c.field); !strings.Contains(after.Rest, "value='"+c.pick+"'") {
				t.Errorf("after the choice the combobox reads %+v, want value=%q", after, c.pick)
			}
		})
	}
}
