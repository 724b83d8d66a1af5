package widgets_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/grip-dev/grip/internal/apptest"
)

// Tom Select turns a <select> into a combobox with a listbox of options.
// The task: choose a country by its label with grip select.
func TestTomSelectChoosesCountryByLabel(t *testing.T) {
	a := suite.Open(t, "/testdata/tomselect.html")
	snap := a.Until("combobox", "Country")
	country := a.Find(snap, "combobox", "Country")
	if !strings.Contains(country.Rest, "collapsed") {
		t.Errorf("the combobox's line does not say it is collapsed: %+v", country)
	}
	out := a.Must("select", country.Ref, "Japan")
	if !strings.Contains(out, "selected 'Japan'") {
		t.Errorf("select's reply does not say what it chose:\n%s", out)
	}
	if got := apptest.Eval[string](a, "ts.getValue()"); got != "JP" {
		t.Fatalf("Tom Select's value is %q, want JP", got)
	}
	if got := apptest.Eval[string](a, "document.getElementById('country').value"); got != "JP" {
		t.Errorf("the underlying select's value is %q, want JP", got)
	}
	// The combobox itself says what it holds (its input is empty: Tom
	// Select shows the choice beside it, and marks the option selected).
	if c := a.Find(a.Snapshot(), "combobox", "Country"); !strings.Contains(c.Rest, "value='Japan'") || !strings.Contains(c.Rest, "collapsed") {
		t.Errorf("after the choice the combobox reads %+v, want value='Japan' collapsed", c)
	}
	// An option that is not there: refused, naming the options, and
	// nothing changes.
	out, code := a.Run("select", country.Ref, "Narnia")
	if code != 1 || !strings.Contains(out, "no option 'Narnia'") || !strings.Contains(out, "'Argentina'") {
		t.Errorf("select of a missing option: exit %d\n%s", code, out)
	}
	if got := apptest.Eval[string](a, "ts.getValue()"); got != "JP" {
		t.Errorf("after the refusal Tom Select's value is %q, want JP still", got)
	}
}

// A searchable Tom Select shows 8 of its 40 cities until one types: grip
// select types the option's text when it is not among those shown.
func TestTomSelectSearchesForAnOptionNotShown(t *testing.T) {
	a := suite.Open(t, "/testdata/tomselect.html")
	snap := a.Until("combobox", "City")
	city := a.Find(snap, "combobox", "City")
	a.Must("click", city.Ref)
	if _, ok := apptest.Lookup(a.Snapshot(), "option", "Porto"); ok {
		t.Fatalf("Porto is shown before any search; the test proves nothing")
	}
	a.Must("press", "Escape", city.Ref)
	out := a.Must("select", city.Ref, "Porto")
	if !strings.Contains(out, "selected 'Porto'") {
		t.Errorf("select's reply:\n%s", out)
	}
	if got := apptest.Eval[string](a, "cityTs.getValue()"); got != "porto" {
		t.Fatalf("Tom Select's value is %q, want porto", got)
	}
	out, code := a.Run("select", city.Ref, "Atlantis")
	if code != 1 || !strings.Contains(out, "no option 'Atlantis'") {
		t.Errorf("select of a missing city: exit %d\n%s", code, out)
	}
	if got := apptest.Eval[string](a, "cityTs.getValue() + '|' + cityTs.control_input.value"); got != "porto|" {
		t.Errorf("after the refusal value|search = %q, want porto| (the search left empty)", got)
	}
}

// flatpickr's calendar days are spans with a pointer cursor and no role:
// grip lists them as clickable. The task: pick 15 September 2026, starting
// from June, through the month select and the day.
func TestFlatpickrPicksADateInAnotherMonth(t *testing.T) {
	a := suite.Open(t, "/testdata/flatpickr.html")
	snap := a.Until("textbox", "Date")
	a.Must("click", a.Find(snap, "textbox", "Date").Ref)
	snap = a.Snapshot()
	month := a.Find(snap, "combobox", "Month")
	if !strings.Contains(month.Rest, "value='June'") {
		t.Fatalf("the calendar does not open on June: %+v", month)
	}
	if _, ok := apptest.Lookup(snap, "clickable", "June 10, 2026"); !ok {
		t.Fatalf("the days are not listed as clickable:\n%s", snap)
	}
	a.Must("select", month.Ref, "September")
	snap = a.Snapshot()
	day := a.Find(snap, "clickable", "September 15, 2026")
	a.Must("click", day.Ref)
	if got := apptest.Eval[string](a, "fp.selectedDates.length ? fp.formatDate(fp.selectedDates[0], 'Y-m-d') : ''"); got != "2026-09-15" {
		t.Fatalf("flatpickr's selected date is %q, want 2026-09-15", got)
	}
	after := a.Snapshot()
	if date := a.Find(after, "textbox", "Date"); !strings.Contains(date.Rest, "value='2026-09-15'") {
		t.Errorf("the field does not show the date: %+v", date)
	}
}

// Pikaday draws its month as an ARIA grid (a table role=grid labelled by
// the month's title) of day buttons. The task: pick 15 September 2026
// from June, through the month select in the title, then the day.
func TestPikadayPicksADayInItsGrid(t *testing.T) {
	a := suite.Open(t, "/testdata/pikaday.html")
	snap := a.Until("textbox", "Delivery day")
	a.Must("click", a.Find(snap, "textbox", "Delivery day").Ref)
	snap = a.Snapshot()
	grid := a.Find(snap, "grid", "June")
	if !strings.Contains(grid.Name, "2026") {
		t.Errorf("the calendar grid is not named by its month and year: %+v", grid)
	}
	if _, ok := apptest.Lookup(snap, "row", ""); ok {
		t.Errorf("the weeks are listed as rows beside their day buttons:\n%s", snap)
	}
	month := a.Find(snap, "combobox", "")
	for _, e := range apptest.Elements(snap) {
		if e.Role == "combobox" && strings.Contains(e.Rest, "value='June'") {
			month = e
		}
	}
	a.Must("select", month.Ref, "September")
	snap = a.Snapshot()
	a.Find(snap, "grid", "September")
	a.Must("click", a.Find(snap, "button", "15").Ref)
	got := apptest.Eval[string](a, "(d => d ? [d.getFullYear(), d.getMonth() + 1, d.getDate()].join('-') : '')(picker.getDate())")
	if got != "2026-9-15" {
		t.Fatalf("Pikaday's date is %q, want 2026-9-15", got)
	}
}

// AG Grid renders only the rows in view. The task: select order ORD-0040,
// which is not rendered until the grid scrolls.
func TestAGGridScrollsToARowNotRenderedYet(t *testing.T) {
	a := suite.Open(t, "/testdata/aggrid.html")
	snap := a.Until("row", "ORD-0001")
	grid := a.Find(snap, "grid", "")
	if !strings.Contains(grid.Rest, "more-below") || !strings.Contains(grid.Rest, "/1001") {
		t.Fatalf("the grid's line does not say there is more to scroll, of how many rows: %+v", grid)
	}
	if _, ok := apptest.Lookup(snap, "row", "ORD-0040"); ok {
		t.Fatalf("ORD-0040 is rendered before any scroll; the test proves nothing:\n%s", snap)
	}
	var row apptest.El
	for i := 0; ; i++ {
		if i == 20 {
			t.Fatalf("ORD-0040 never came after 20 scrolls:\n%s", snap)
		}
		a.Must("scroll", grid.Ref)
		snap = a.Snapshot()
		if r, ok := apptest.Lookup(snap, "row", "ORD-0040"); ok {
			row = r
			break
		}
	}
	if g := a.Find(snap, "grid", ""); !strings.Contains(g.Rest, "more-above") {
		t.Errorf("after scrolling down the grid's line does not say there is more above: %+v", g)
	}
	a.Must("click", row.Ref)
	got := apptest.Eval[[]string](a, "gridApi.getSelectedRows().map((r) => r.order)")
	if !slices.Equal(got, []string{"ORD-0040"}) {
		t.Fatalf("AG Grid's selected rows are %v, want [ORD-0040]", got)
	}
	if r := a.Find(a.Snapshot(), "row", "ORD-0040"); !strings.Contains(r.Rest, "selected") {
		t.Errorf("the row's line does not say it is selected: %+v", r)
	}
}

// SortableJS in its default mode uses HTML5 drag and drop (it makes the
// item draggable on pointerdown). The task: move "Write the report" to
// where "Answer email" is.
func TestSortableReordersByHTML5DragAndDrop(t *testing.T) {
	dragInSortable(t, "/testdata/sortable.html", "HTML5 drag and drop")
}

// With forceFallback SortableJS follows pointer events instead.
func TestSortableReordersByPointerMoves(t *testing.T) {
	dragInSortable(t, "/testdata/sortable.html?fallback", "pointer moves")
}

func dragInSortable(t *testing.T, path, mode string) {
	a := suite.Open(t, path)
	snap := a.Until("clickable", "Write the report")
	src := a.Find(snap, "clickable", "Write the report")
	dst := a.Find(snap, "clickable", "Answer email")
	if !strings.Contains(src.Rest, "draggable") {
		t.Errorf("the item's line does not say it can be dragged: %+v", src)
	}
	out := a.Must("drag", src.Ref, dst.Ref)
	if !strings.Contains(out, mode) {
		t.Errorf("drag's reply does not say it used %s:\n%s", mode, out)
	}
	got := apptest.Eval[[]string](a, "sortable.toArray()")
	want := []string{"review", "plan", "email", "write", "deploy"}
	if !slices.Equal(got, want) {
		t.Fatalf("SortableJS's order is %v, want %v", got, want)
	}
}

// Both ends of a drag are checked before anything moves: a drop target
// that left the page is refused, and so is one in another document.
func TestDragChecksBothEndsFirst(t *testing.T) {
	a := suite.Open(t, "/testdata/sortable.html")
	snap := a.Until("clickable", "Deploy the release")
	src := a.Find(snap, "clickable", "Write the report")
	dst := a.Find(snap, "clickable", "Deploy the release")
	apptest.Eval[bool](a, "(document.querySelector('[data-id=deploy]').remove(), true)")
	out, code := a.Run("drag", src.Ref, dst.Ref)
	if code != 1 || !strings.Contains(out, "stale_ref") || !strings.Contains(out, "drop target") {
		t.Errorf("drag onto a removed element: exit %d\n%s", code, out)
	}
	if got := apptest.Eval[[]string](a, "sortable.toArray()"); !slices.Equal(got, []string{"write", "review", "plan", "email"}) {
		t.Errorf("something moved after the refusal: %v", got)
	}
	other := suite.Open(t, "/testdata/react-list.html")
	far := other.Find(other.Until("clickable", "Archive all"), "clickable", "Archive all")
	out, code = a.Run("drag", src.Ref, far.Ref)
	if code != 1 || !strings.Contains(out, "same document") {
		t.Errorf("drag onto an element of another tab: exit %d\n%s", code, out)
	}
	out, code = a.Run("drag", src.Ref)
	if code != 2 || !strings.Contains(out, "usage: grip drag SOURCE TARGET") {
		t.Errorf("drag with one element: exit %d\n%s", code, out)
	}
}

// A React list whose rows act on click through React's root listener (no
// role, no tabindex, no onclick attribute: only the cursor says it), and a
// div with an onclick attribute. Each is listed once, by its text.
func TestClickableElementsWithNoRole(t *testing.T) {
	a := suite.Open(t, "/testdata/react-list.html")
	snap := a.Until("clickable", "Brook")
	var names []string
	for _, e := range apptest.Elements(snap) {
		if e.Role == "clickable" {
			names = append(names, e.Name)
		}
	}
	want := []string{"Ada Quarterly numbers", "Brook Lunch on Friday?", "Cruz Release checklist", "Archive all"}
	if !slices.Equal(names, want) {
		t.Fatalf("clickables %q, want %q (once each, not their children)\n%s", names, want, snap)
	}
	a.Must("click", a.Find(snap, "clickable", "Brook").Ref)
	if got := apptest.Eval[float64](a, "window.__openMail"); got != 2 {
		t.Errorf("React's state says mail %v is open, want 2", got)
	}
	a.Must("click", a.Find(snap, "clickable", "Archive all").Ref)
	if got := apptest.Eval[string](a, "document.getElementById('legacy').textContent"); got != "archived" {
		t.Errorf("the onclick attribute's handler did not run: %q", got)
	}
	content := a.Snapshot("--mode", "content")
	if !strings.Contains(content, "'Reading: Lunch on Friday?'") {
		t.Errorf("the page does not show the mail opened:\n%s", content)
	}
}
