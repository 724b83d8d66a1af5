package kerneltest_test

import (
	"slices"
	"testing"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
)

// TestFarOffIsNotListed: what renders where no scrolling brings it — a
// menu bar's dropdowns at left:-999em, a context menu at top:-900000px —
// is not listed until it comes into reach
// (the menu hovered, the context menu moved to the pointer); a control
// moved off the page by itself (a skip link for screen readers) is still
// listed, as only boxes out of the flow with boxes inside are read; a checkbox
// kept off the page behind its shown label is still listed, and so is
// what a scrolled strip scrolled past. An image beside its own caption
// does not say the caption twice (docs/snapshot.md).
func TestFarOffIsNotListed(t *testing.T) {
	ctx := newTab(t, "faroff.html")
	els := snap(t, ctx, "interactive").Elements
	for _, name := range []string{"Open file", "Quit", "Pause torrent", "Remove torrent"} {
		if e := find(els, "link", name); e != nil {
			t.Errorf("[link %q] listed, out of every scroll's reach:\n%s", name, dump(els))
		}
	}
	// A box that clips what it holds, itself off the page: scrolling it
	// brings nothing into reach (DokuWiki's closed pickers).
	for _, name := range []string{"Level 1 Headline", "Level 2 Headline"} {
		if e := find(els, "button", name); e != nil {
			t.Errorf("[button %q] listed, in a clipping box out of every scroll's reach:\n%s", name, dump(els))
		}
	}
	for _, want := range [][2]string{{"link", "Skip to content"}, {"link", "All (3)"}, {"link", "Download speed 0 B/s"}, {"checkbox", "Agree to the terms"},
		{"button", "First in strip"}, {"button", "Second in strip"}, {"button", "Third in strip"}} {
		if find(els, want[0], want[1]) == nil {
			t.Errorf("no [%s %q]:\n%s", want[0], want[1], dump(els))
		}
	}

	// Hovered, the dropdown comes into reach: the kept walk does not answer.
	x := eval[float64](t, ctx, `(() => { const r = document.querySelector('#bar .top').getBoundingClientRect(); return r.left + r.width / 2; })()`)
	y := eval[float64](t, ctx, `(() => { const r = document.querySelector('#bar .top').getBoundingClientRect(); return r.top + r.height / 2; })()`)
	if err := chromedp.Do(ctx, chromedp.MouseEvent(input.DispatchMouseEventTypeMouseMoved, x, y)); err != nil {
		t.Fatal(err)
	}
	els = snap(t, ctx, "interactive").Elements
	if find(els, "link", "Open file") == nil || find(els, "link", "Quit") == nil {
		t.Errorf("the hovered menu's items are not listed:\n%s", dump(els))
	}
	if find(els, "link", "Pause torrent") != nil {
		t.Errorf("the context menu is listed before it opened")
	}
	eval[bool](t, ctx, `(() => { const m = document.getElementById('ctx'); m.style.top = '120px'; m.style.left = '300px'; return true; })()`)
	els = snap(t, ctx, "interactive").Elements
	if find(els, "link", "Pause torrent") == nil || find(els, "link", "Remove torrent") == nil {
		t.Errorf("the opened context menu's items are not listed:\n%s", dump(els))
	}
	eval[bool](t, ctx, `document.getElementById('picker').classList.remove('a11y'), true`)
	els = snap(t, ctx, "interactive").Elements
	if find(els, "button", "Level 1 Headline") == nil || find(els, "button", "Level 2 Headline") == nil {
		t.Errorf("the opened picker's buttons are not listed:\n%s", dump(els))
	}
}

// TestPointerOnHoverIsClickable: an element the page's style gives a
// pointer only under the pointer (`#list tr:hover {cursor: pointer}`,
// qBittorrent's torrent rows) is listed as clickable, as one whose cursor
// is a pointer now is; a rule that gives every div one says nothing.
func TestPointerOnHoverIsClickable(t *testing.T) {
	ctx := newTab(t, "hovercursor.html")
	els := snap(t, ctx, "interactive").Elements
	var clickables []string
	for _, e := range els {
		if e.Role == "clickable" {
			clickables = append(clickables, e.Name)
		}
	}
	want := []string{"# Name", "1 debian.iso", "2 ubuntu.iso", "Open card"}
	if !slices.Equal(clickables, want) {
		t.Errorf("clickables %q, want %q:\n%s", clickables, want, dump(els))
	}
}

// TestCaptionBeforeNamesAField: a field nothing names is named by the
// short text right before it that ends in a colon (qBittorrent's tag
// dialog), inferred; a text that is no caption names nothing.
func TestCaptionBeforeNamesAField(t *testing.T) {
	ctx := kernelTab(t)
	const lines = `K.run({op: 'snapshot', mode: 'interactive'}).elements.map((e) => e.role + " '" + e.name + "'" + ((e.states || []).includes('inferred') ? ' inferred' : '')).join(' | ')`
	for _, c := range []struct{ name, html, want string }{
		{"a caption", `<div><p>Comma-separated tags:</p><input type="text"><input type="button" value="Add"></div>`,
			"textbox 'Comma-separated tags:' inferred | button 'Add'"},
		{"no colon", `<div><p>Some words about tags</p><input type="text"></div>`, "textbox ''"},
		{"a field inside", `<div><p>Size: <input type="number"></p><input type="text"></div>`, "spinbutton '' | textbox ''"},
		{"text between", `<div><p>Tags:</p>and more<input type="text"></div>`, "textbox ''"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := onFixture[string](t, ctx, c.html, "el = document.body", lines); got != c.want {
				t.Errorf("%s\n got: %s\nwant: %s", c.html, got, c.want)
			}
		})
	}
}

// TestHeaderRowByClassNamesFields: a table of fields under a first row of
// cells classed as its header (phpLiteAdmin's form to insert a row: td
// class=tdheader, "Field | Type | Function | Null | Value") names each
// field by its row and its column, not by its row alone; a first row of
// plain cells heads nothing.
func TestHeaderRowByClassNamesFields(t *testing.T) {
	ctx := kernelTab(t)
	const lines = `K.run({op: 'snapshot', mode: 'interactive'}).elements.map((e) => e.role + " '" + e.name + "'" + ((e.states || []).includes('inferred') ? ' inferred' : '')).join(' | ')`
	for _, c := range []struct{ name, html, want string }{
		{"header row by class", `<table><tr><td class="tdheader">Field</td><td class="tdheader">Null</td><td class="tdheader">Value</td></tr>` +
			`<tr><td class="td1">name</td><td class="td1"><input type="checkbox"></td><td class="td1"><input type="text"></td></tr>` +
			`<tr><td class="td2">price</td><td class="td2"><input type="checkbox"></td><td class="td2"><input type="text"></td></tr></table>`,
			"checkbox 'name / Null' inferred | textbox 'name / Value' inferred | checkbox 'price / Null' inferred | textbox 'price / Value' inferred"},
		{"a first row of plain cells", `<table><tr><td>Field</td><td>Value</td></tr><tr><td>name</td><td><input type="text"></td></tr></table>`,
			"textbox 'name' inferred"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := onFixture[string](t, ctx, c.html, "el = document.body", lines); got != c.want {
				t.Errorf("%s\n got: %s\nwant: %s", c.html, got, c.want)
			}
		})
	}
}
