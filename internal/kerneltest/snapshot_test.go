package kerneltest_test

import (
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/grip-dev/grip/internal/kerneltest"
	"github.com/grip-dev/grip/protocol"
)

func TestSnapshotSkipsWhatIsNotThere(t *testing.T) {
	ctx := newTab(t, "skip.html")
	r := snap(t, ctx, "interactive")
	els := r.Elements
	for _, name := range []string{"HiddenAttr", "InertBtn", "AriaHiddenBtn", "DisplayNoneBtn", "DeepNone",
		"VisHiddenBtn", "CollapsedBtn", "InsideClosedDetails", "ShadowHidden", "France"} {
		for _, e := range els {
			if e.Name == name {
				t.Errorf("%q reported, want skipped:\n%s", name, dump(els))
			}
		}
	}
	for _, e := range els {
		if e.Role == "option" && (e.Name == "France" || e.Name == "Germany") {
			t.Errorf("native option reported: %+v", e)
		}
	}
	raw, _ := json.Marshal(r)
	if strings.Contains(string(raw), "secret-hidden-value") {
		t.Errorf("hidden input reported: %s", raw)
	}
	mustFind(t, els, "button", "Visible")
	mustFind(t, els, "button", "VisibleAgain")
	mustFind(t, els, "button", "InContents")
	mustFind(t, els, "button", "ContentsButton")
	mustFind(t, els, "link", "ZeroBoxLink")
	country := mustFind(t, els, "combobox", "Country")
	if country.Value == nil || *country.Value != "Germany" {
		t.Errorf("select value = %v, want Germany", country.Value)
	}
	mustFind(t, els, "listbox", "Fruits")
	apple := mustFind(t, els, "option", "Apple")
	if !reflect.DeepEqual(apple.States, []string{"selected"}) {
		t.Errorf("Apple states = %v, want [selected]", apple.States)
	}
	mustFind(t, els, "option", "Pear")
	more := mustFind(t, els, "button", "More")
	if !reflect.DeepEqual(more.States, []string{"collapsed"}) {
		t.Errorf("summary states = %v, want [collapsed]", more.States)
	}
	if r.URL == "" || r.Title != "Skip rules" || r.Stats == nil || r.Stats.Nodes == 0 {
		t.Errorf("url/title/stats = %q %q %+v", r.URL, r.Title, r.Stats)
	}
}

func TestSnapshotPasswordNeverReported(t *testing.T) {
	ctx := newTab(t, "skip.html")
	r := snap(t, ctx, "interactive")
	pw := mustFind(t, r.Elements, "textbox", "Password")
	if pw.Value != nil {
		t.Errorf("password has a value key: %q", *pw.Value)
	}
	raw := callRaw(t, ctx, map[string]any{"op": "snapshot", "mode": "content"})
	if strings.Contains(string(raw), "hunter2") {
		t.Errorf("password text in snapshot JSON: %s", raw)
	}
	// Typing into it reports nothing of the secret either.
	fill := callRaw(t, ctx, map[string]any{"op": "act", "action": "fill", "id": pw.ID, "text": "s3cr3t-typed"})
	if strings.Contains(string(fill), "s3cr3t") || !strings.Contains(string(fill), `"ok":true`) {
		t.Errorf("fill reply = %s", fill)
	}
	raw = callRaw(t, ctx, map[string]any{"op": "snapshot", "mode": "interactive"})
	if strings.Contains(string(raw), "s3cr3t") {
		t.Errorf("typed password in snapshot JSON: %s", raw)
	}
}

func TestSnapshotOpenShadowRoots(t *testing.T) {
	ctx := newTab(t, "skip.html")
	els := snap(t, ctx, "interactive").Elements
	sb := mustFind(t, els, "button", "Shadow button")
	si := mustFind(t, els, "textbox", "Shadow input")
	sl := mustFind(t, els, "button", "Slotted")
	dl := mustFind(t, els, "link", "Deep shadow link")
	// Flat-tree order: the shadow content, the slotted light child where its slot is, then the nested root.
	if !(sb.ID < si.ID && si.ID < sl.ID && sl.ID < dl.ID) {
		t.Errorf("shadow order: %d %d %d %d\n%s", sb.ID, si.ID, sl.ID, dl.ID, dump(els))
	}
}

func TestAccessibleNames(t *testing.T) {
	ctx := newTab(t, "names.html")
	els := snap(t, ctx, "interactive").Elements
	for _, tc := range []struct{ role, name string }{
		{"textbox", "Email address"},     // label[for]
		{"textbox", "Full name"},         // wrapping label
		{"textbox", "Billing zip"},       // aria-labelledby
		{"searchbox", "Search the site"}, // aria-label
		{"textbox", "Phone number"},      // title
		{"textbox", "Your city"},         // placeholder
		{"link", "Home page"},            // img alt
		{"button", "Save changes"},       // folded text
		{"button", "Submit"},             // default submit
		{"button", "Send it"},            // submit value
		{"button", "Close dialog"},       // aria-label over text
		{"button", "Visible part"},       // hidden descendants skipped
		{"combobox", "Quantity"},         // wrapping label without the select's own value
		{"textbox", "Comment"},           // textarea placeholder
		{"button", "Tooltip only"},       // title
		{"checkbox", "Subscribe"},        // label[for] after the control
		{"button", "Go"},                 // input type=image alt
		{"slider", "Volume"},
		{"spinbutton", "Count"},
		{"textbox", "Notes"},
		{"searchbox", "Search the wiki"}, // a title that only hints the access key names nothing
		{"textbox", "Go to page"},        // the hint is cut from the title
		{"textbox", "Edit page"},         // an unnamed field by the heading just before it
	} {
		if find(els, tc.role, tc.name) == nil {
			t.Errorf("no [%s %q]", tc.role, tc.name)
		}
	}
	if t.Failed() {
		t.Log("\n" + dump(els))
	}
	for _, tc := range []struct{ role, name, value string }{
		{"slider", "Volume", "30"}, {"spinbutton", "Count", "7"}, {"textbox", "Notes", "Some notes"},
		{"combobox", "Quantity", "2"}, {"textbox", "Name", "Ada"},
	} {
		e := find(els, tc.role, tc.name)
		if e != nil && (e.Value == nil || *e.Value != tc.value) {
			t.Errorf("[%s %q] value = %v, want %q", tc.role, tc.name, e.Value, tc.value)
		}
	}
	if e := find(els, "textbox", "Email address"); e != nil && e.Value != nil {
		t.Errorf("empty textbox has value %q", *e.Value)
	}
}

// byName maps name → id for the elements of a snapshot.
func byName(els []protocol.ExtElement) map[string]int {
	m := map[string]int{}
	for _, e := range els {
		m[e.Name] = e.ID
	}
	return m
}

func TestIDsFollowTheNode(t *testing.T) {
	ctx := newTab(t, "ids.html")
	first := snap(t, ctx, "interactive").Elements
	ids := byName(first)
	if len(ids) != 3 || ids["One"] == 0 || ids["Two"] == 0 || ids["Field"] == 0 {
		t.Fatalf("first snapshot:\n%s", dump(first))
	}

	// Two snapshots in a row are identical.
	again := snap(t, ctx, "interactive").Elements
	if !reflect.DeepEqual(first, again) {
		t.Errorf("second snapshot differs:\n%s\nvs\n%s", dump(first), dump(again))
	}

	// Removed: gone from the snapshot; re-attached: back with its old id.
	eval[any](t, ctx, `detach()`)
	gone := byName(snap(t, ctx, "interactive").Elements)
	if _, ok := gone["Two"]; ok {
		t.Errorf("detached element still reported")
	}
	eval[any](t, ctx, `reattach()`)
	back := byName(snap(t, ctx, "interactive").Elements)
	if back["Two"] != ids["Two"] {
		t.Errorf("re-attached element id = %d, want %d", back["Two"], ids["Two"])
	}

	// A banner above the form: earlier ids stay, the new button gets a higher id.
	eval[any](t, ctx, `banner()`)
	after := snap(t, ctx, "interactive").Elements
	m := byName(after)
	for _, name := range []string{"One", "Two", "Field"} {
		if m[name] != ids[name] {
			t.Errorf("%s: id %d after banner, was %d", name, m[name], ids[name])
		}
	}
	var max int
	for _, id := range ids {
		max = maxInt(max, id)
	}
	if m["Accept cookies"] <= max {
		t.Errorf("banner id %d, want > %d", m["Accept cookies"], max)
	}
	if after[0].Name != "Accept cookies" {
		t.Errorf("banner not first in DOM order:\n%s", dump(after))
	}
}

func maxInt(a, b int) int {
	if a > b {
		return a
	}
	return b
}

func TestContentMode(t *testing.T) {
	ctx := newTab(t, "content.html")
	els := snap(t, ctx, "content").Elements
	h := mustFind(t, els, "heading", "Main title")
	if !reflect.DeepEqual(h.States, []string{"level=1"}) {
		t.Errorf("h1 states = %v", h.States)
	}
	ah := mustFind(t, els, "heading", "Aria heading")
	if !reflect.DeepEqual(ah.States, []string{"level=3"}) {
		t.Errorf("aria heading states = %v", ah.States)
	}
	mustFind(t, els, "paragraph", "First paragraph with a link.")
	mustFind(t, els, "link", "a link")
	mustFind(t, els, "listitem", "Item one")
	mustFind(t, els, "listitem", "Item two")
	mustFind(t, els, "listitem", "Nested")
	mustFind(t, els, "alert", "Saved!")
	mustFind(t, els, "text", "Loose text")
	mustFind(t, els, "row", "Name | Price")
	mustFind(t, els, "row", "Tea | 3 €")
	for _, e := range els {
		if e.Name == "" || strings.Contains(e.Name, "Hidden para") || strings.Contains(e.Name, "Styled away") {
			t.Errorf("unexpected %+v", e)
		}
	}
	if t.Failed() {
		t.Log("\n" + dump(els))
	}
	// Interactive mode: the link only.
	inter := snap(t, ctx, "interactive").Elements
	if len(inter) != 1 || inter[0].Role != "link" {
		t.Errorf("interactive on content page:\n%s", dump(inter))
	}
	// The same node keeps its id across modes.
	if inter[0].ID != mustFind(t, els, "link", "a link").ID {
		t.Errorf("link id differs between modes")
	}
}

// A mail client's reading pane: the message body is plain divs and text
// inside regions and an article named by their labels. Content mode
// reports that text; a labelled element's own text goes on its line.
func TestContentModeInsideLabelledRegions(t *testing.T) {
	ctx := newTab(t, "mail.html")
	els := snap(t, ctx, "content").Elements
	mustFind(t, els, "heading", "Quarterly numbers")
	mustFind(t, els, "region", "Message list")
	mustFind(t, els, "article", "Message from Ada Lovelace")
	mustFind(t, els, "text", "Ada Lovelace <ada@example.org>")
	// The body holds text of its own: one line says all of it.
	mustFind(t, els, "text", "Hi Grace, the numbers for Q3 are in the attached sheet. Revenue is up 12% on last year. Talk soon, Ada")
	quoted := mustFind(t, els, "document", "Quoted text")
	if quoted.Value == nil || *quoted.Value != "On Monday, Grace wrote: are the numbers ready?" {
		t.Errorf("the quoted text's line = %+v, want its text as value", quoted)
	}
	if t.Failed() {
		t.Log("\n" + dump(els))
	}
}

func TestCacheReplacedWhenInvalid(t *testing.T) {
	ctx := newTab(t, "ids.html")
	eval[any](t, ctx, `globalThis.__gripRefCache__ = {byNode: 1, byId: {get: 1}, next: NaN}`)
	r := snap(t, ctx, "interactive")
	if len(r.Elements) != 3 || r.Elements[0].ID != 1 {
		t.Fatalf("snapshot with a bogus cache:\n%s", dump(r.Elements))
	}
	ok := eval[bool](t, ctx, `(() => { const c = globalThis.__gripRefCache__; return typeof c.byId.forEach === 'function' && c.next === 4; })()`)
	if !ok {
		t.Errorf("cache not replaced by a valid one")
	}
}

func TestUnknownOp(t *testing.T) {
	ctx := newTab(t, "ids.html")
	wantError(t, call(t, ctx, map[string]any{"op": "nope"}), "bad_request", "document", "unknown op")
}

// The extension asks for the snapshot as one JSON string (cheaper to move
// out of the page); it must say exactly what the object form says.
func TestSnapshotAsJSON(t *testing.T) {
	ctx := newTab(t, "names.html")
	obj := snap(t, ctx, "interactive")
	raw := eval[string](t, ctx, kerneltest.Expr(map[string]any{"op": "snapshot", "mode": "interactive", "asJSON": true}))
	var got kerneltest.Reply
	if err := json.Unmarshal([]byte(raw), &got); err != nil {
		t.Fatalf("asJSON result is not JSON: %v", err)
	}
	got.Stats, obj.Stats = nil, nil
	if !reflect.DeepEqual(got, obj) {
		t.Fatalf("asJSON result differs from the object form:\n%+v\n%+v", got, obj)
	}
}

// A list item that says only what its one control says (a menu's item
// around its link) is left to the control; one that says more stays.
func TestContentModeListItemAroundOneControl(t *testing.T) {
	ctx := newTab(t, "content.html")
	eval[any](t, ctx, `(() => {
		const ul = document.createElement('ul');
		ul.innerHTML = '<li><a href="#n">New Notebook</a></li><li><a href="#o">Open</a> a file from disk</li><li><button>Cut</button><button>Copy</button></li>';
		document.body.append(ul);
		return null;
	})()`)
	els := snap(t, ctx, "content").Elements
	mustFind(t, els, "link", "New Notebook")
	if find(els, "listitem", "New Notebook") != nil {
		t.Errorf("the list item around the link is listed too:\n%s", dump(els))
	}
	mustFind(t, els, "link", "Open")
	if find(els, "listitem", "Open a file from disk") == nil {
		t.Errorf("the list item that says more than its link is gone:\n%s", dump(els))
	}
	mustFind(t, els, "button", "Cut")
	mustFind(t, els, "button", "Copy")
}

// A field nothing names is named, inferred, by the label before it that
// is tied to no control, where that label and the field are the one pair
// of their nearest common container (Syncthing's Bootstrap form groups);
// never by a label that names another control, a label of another group
// or one after it, and never over a name of its own. docs/snapshot.md,
// "Snapshot format".
func TestUntiedLabelNamesItsField(t *testing.T) {
	ctx := newTab(t, "orphans.html")
	els := snap(t, ctx, "interactive").Elements
	for _, want := range []struct{ role, name, value string }{
		{"combobox", "Folder Type", "Send & Receive"},
		{"textbox", "API Key", "jm3AqYkP2vR8"},
		{"spinbutton", "Rescan Interval", "3600"}, // its hidden twin is no second field
		{"textbox", "Device Name", "laptop"},
	} {
		e := find(els, want.role, want.name)
		if e == nil {
			t.Errorf("no [%s %q]", want.role, want.name)
			continue
		}
		if e.Value == nil || *e.Value != want.value || !slices.Contains(e.States, "inferred") {
			t.Errorf("[%s %q]: value %v, states %v; want %q, inferred", want.role, want.name, e.Value, e.States, want.value)
		}
	}
	for _, name := range []string{"Port Range", "Colour", "After", "Host"} {
		for _, e := range els {
			if e.Name == name {
				t.Errorf("%q names a field it is not the one label of: %+v", name, e)
			}
		}
	}
	for _, e := range els {
		if e.Name == "Nickname" && (e.Value == nil || *e.Value != "the nickname") {
			t.Errorf("the label for #elsewhere names the field beside it: %+v", e)
		}
	}
	if e := find(els, "textbox", "Nickname"); e == nil || slices.Contains(e.States, "inferred") {
		t.Errorf("the field the label is for is not named by it, as the page's own name: %+v", e)
	}
	if e := find(els, "textbox", "e.g. Paris"); e == nil || slices.Contains(e.States, "inferred") {
		t.Errorf("the field named by its placeholder lost that name: %+v", e)
	}
	unnamed := 0
	for _, e := range els {
		if e.Name == "" && (e.Role == "textbox" || e.Role == "spinbutton") {
			unnamed++
		}
	}
	// Port Range's two, the ones beside Nickname and Colour, before After, the one beside Host's group.
	if unnamed != 6 {
		t.Errorf("%d unnamed fields, want 6", unnamed)
	}
	if t.Failed() {
		t.Log("\n" + dump(els))
	}
}

// TestExtJSFormsNamesAndContexts: the shapes of an ExtJS 3 form (Deluge's
// preferences). A box to tick and the folder it turns on, under a form
// item's label that names no element, are both named by it, inferred;
// two fields under one such label, or a lone field too far below it, are
// not. Fields of the same name in two fieldsets take their legends as
// context, not the first label of the box around them, and buttons of
// the same name in two windows their titles. A focus anchor (an
// empty link of 1×1 px) is not listed; an unnamed link one can press is.
func TestExtJSFormsNamesAndContexts(t *testing.T) {
	ctx := newTab(t, "extforms.html")
	els := snap(t, ctx, "interactive").Elements
	defer func() {
		if t.Failed() {
			t.Log("\n" + dump(els))
		}
	}()
	for _, role := range []string{"checkbox", "textbox"} {
		if e := find(els, role, "Move completed to:"); e == nil || !slices.Contains(e.States, "inferred") {
			t.Errorf("[%s 'Move completed to:'] = %+v, want it named by the item's label, inferred", role, e)
		}
	}
	for _, e := range els {
		if e.Name == "Port range:" || e.Name == "Cache size:" {
			t.Errorf("%q names a field it is not the one label of: %+v", e.Name, e)
		}
	}
	byValue := map[string]protocol.ExtElement{}
	for _, e := range els {
		if e.Value != nil {
			byValue[e.Role+" "+e.Name+" "+*e.Value] = e
		}
	}
	for _, want := range []struct{ name, value, ctx string }{
		{"Maximum Connections:", "200", "Global Bandwidth Usage"},
		{"Maximum Connections:", "-1", "Per Torrent Bandwidth Usage"},
	} {
		if e, ok := byValue["textbox "+want.name+" "+want.value]; !ok || e.Context != want.ctx {
			t.Errorf("[textbox %q value=%s] context %q, want %q", want.name, want.value, e.Context, want.ctx)
		}
	}
	var adds []string
	for _, e := range els {
		if e.Role == "button" && e.Name == "Add" {
			adds = append(adds, e.Context)
		}
	}
	if !slices.Equal(adds, []string{"Add Torrents", "Add from Url"}) {
		t.Errorf("the windows' Add buttons have contexts %q, want their windows' titles", adds)
	}
	links := 0
	for _, e := range els {
		if e.Role == "link" {
			links++
		}
	}
	if links != 1 {
		t.Errorf("%d links listed, want 1: the unnamed one to press, not the two focus anchors", links)
	}
	// ExtJS 3's grid is a grid of its records, the chosen one selected, in
	// both modes, each record once (not again as its table's row).
	for _, mode := range []string{"interactive", "content"} {
		got := snap(t, ctx, mode).Elements
		if find(got, "grid", "") == nil {
			t.Errorf("%s: no grid", mode)
		}
		for _, want := range []struct {
			file, name string
			selected   bool
		}{{"ubuntu.iso", "1 | ubuntu.iso", true}, {"debian.iso", "2 | debian.iso", false}} {
			n := 0
			for _, e := range got {
				if e.Role != "row" || !strings.Contains(e.Name, want.file) {
					continue
				}
				n++
				if e.Name != want.name || slices.Contains(e.States, "selected") != want.selected {
					t.Errorf("%s: %+v, want [row %q] selected=%v", mode, e, want.name, want.selected)
				}
			}
			if n != 1 {
				t.Errorf("%s: %d rows of %s, want 1\n%s", mode, n, want.file, dump(got))
			}
		}
	}
}

// TestLayoutRowIsNoContext: a page laid out as one table row gives its
// links no context from the row's first text, a bar between links
// (phpLiteAdmin's `[link 'shop.sqlite' in '|']`), nor does a list item
// whose first text is an arrow or a bar; the rows of a data table still
// name what their links are about.
func TestLayoutRowIsNoContext(t *testing.T) {
	ctx := newTab(t, "layoutrow.html")
	els := snap(t, ctx, "interactive").Elements
	contexts := func(role, name string) []string {
		var out []string
		for _, e := range els {
			if e.Role == role && e.Name == name {
				out = append(out, e.Context)
			}
		}
		return out
	}
	if got := contexts("link", "shop.sqlite"); !slices.Equal(got, []string{"Change Database", ""}) {
		t.Errorf("the two shop.sqlite links have contexts %q, want the fieldset's and none\n%s", got, dump(els))
	}
	if got := contexts("link", "Edit"); !slices.Equal(got, []string{"Tea", "Cocoa"}) {
		t.Errorf("the Edit links have contexts %q, want their rows'\n%s", got, dump(els))
	}
	for _, c := range contexts("link", "Help") {
		if c == "|" || c == "↑" {
			t.Errorf("a Help link has the context %q, a separator\n%s", c, dump(els))
		}
	}
}
