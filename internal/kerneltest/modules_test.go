package kerneltest_test

// Tests of single kernel modules (names, roles, visibility, states) on
// small DOM fixtures: each case puts its HTML in a blank page's body and
// calls the module's function on the element with id "t", through the
// kernel's object (globalThis.__gripKernel__) that Source installs.

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/grip-dev/grip/internal/kerneltest"
)

// kernelTab opens blank.html with the kernel installed in its main world.
func kernelTab(t *testing.T) context.Context {
	t.Helper()
	ctx := newTab(t, "blank.html")
	eval[bool](t, ctx, "("+kerneltest.Source()+", true)")
	return ctx
}

// onFixture replaces the page's body with html, runs setup (JavaScript,
// may be empty; it may set el), then evaluates expr with K (the kernel's
// object, its cache open and its label index fresh, as at the start of a
// call) and el (what setup chose, else the element with id "t").
func onFixture[T any](t *testing.T, ctx context.Context, html, setup, expr string) T {
	t.Helper()
	body, _ := json.Marshal(html)
	return eval[T](t, ctx, fmt.Sprintf(`(() => {
		document.body.innerHTML = %s;
		let el = null;
		%s;
		el = el || document.getElementById('t');
		if (!el) throw new Error('the fixture has no #t');
		const K = globalThis.__gripKernel__;
		K.openCache();
		K.forgetLabels();
		return (%s);
	})()`, body, setup, expr))
}

// inShadow is a fixture setup that puts a button into an open shadow root
// of the element with id "h" and makes it el.
const inShadow = `el = document.createElement('button'); el.textContent = 'b';
	document.getElementById('h').attachShadow({mode: 'open'}).append(el)`

func TestNames(t *testing.T) {
	ctx := kernelTab(t)
	long := strings.Repeat("x", 400)
	for _, c := range []struct {
		name, html, setup, want string
	}{
		{"aria-label", `<button id="t" aria-label="Close dialog">×</button>`, "", "Close dialog"},
		{"aria-label blank is ignored", `<button id="t" aria-label="  ">Text</button>`, "", "Text"},
		{"aria-labelledby joins its ids", `<span id="a">Billing</span> <span id="b">zip</span><input id="t" aria-labelledby="a b">`, "", "Billing zip"},
		{"aria-labelledby beats aria-label", `<span id="a">From ref</span><button id="t" aria-labelledby="a" aria-label="Own">x</button>`, "", "From ref"},
		{"aria-labelledby reads hidden targets", `<span id="a" hidden>Hidden label</span><input id="t" aria-labelledby="a">`, "", "Hidden label"},
		{"aria-labelledby uses a target's aria-label", `<span id="a" aria-label="Labelled">text</span><input id="t" aria-labelledby="a">`, "", "Labelled"},
		{"aria-labelledby to nothing falls through", `<input id="t" aria-labelledby="nope" aria-label="Fallback">`, "", "Fallback"},
		{"label for", `<label for="t">Email address</label><input id="t">`, "", "Email address"},
		{"wrapping label without the control's text", `<label>Full name <input id="t" value="Ada"></label>`, "", "Full name"},
		{"wrapping label around a select", `<label>Quantity <select id="t"><option>1</option><option selected>2</option></select></label>`, "", "Quantity"},
		{"two labels", `<label for="t">First</label><input id="t"><label for="t">Second</label>`, "", "First Second"},
		{"label beats title", `<label for="t">Label</label><input id="t" title="Title">`, "", "Label"},
		{"hidden part of a label", `<label for="t">Shown<span style="display:none"> gone</span></label><input id="t">`, "", "Shown"},
		{"img alt", `<img id="t" alt="Logo" src="data:,">`, "", "Logo"},
		{"link named by its image", `<a id="t" href="/home"><img src="data:," alt="Home page"></a>`, "", "Home page"},
		{"content folded", "<button id=\"t\">  Save\n   changes </button>", "", "Save changes"},
		{"content without hidden parts", `<button id="t"><span hidden>secret</span>Visible part<span style="display:none">gone</span></button>`, "", "Visible part"},
		{"a part shown apart: floated", `<a id="t" href="#">Restart<span style="float:right">0,0</span></a>`, "", "Restart 0,0"},
		{"a part shown apart: a block", `<button id="t">Save<span style="display:block">draft</span></button>`, "", "Save draft"},
		{"a part shown apart: a shortcut", `<a id="t" href="#">Copy<kbd>Ctrl+C</kbd></a>`, "", "Copy Ctrl+C"},
		{"inline parts stay one word", `<button id="t">Sav<b>e</b>d</button>`, "", "Saved"},
		{"descendant aria-label", `<button id="t"><span aria-label="Settings">⚙</span></button>`, "", "Settings"},
		{"content through a shadow root", `<button id="t"><span id="h"></span></button>`,
			`document.getElementById('h').attachShadow({mode: 'open'}).textContent = 'From shadow'`, "From shadow"},
		{"submit default", `<input id="t" type="submit">`, "", "Submit"},
		{"submit value", `<input id="t" type="submit" value="Send it">`, "", "Send it"},
		{"reset default", `<input id="t" type="reset">`, "", "Reset"},
		{"image input alt", `<input id="t" type="image" alt="Go" src="data:,">`, "", "Go"},
		{"image input without alt", `<input id="t" type="image" src="data:,">`, "", "Submit"},
		{"file input", `<input id="t" type="file">`, "", "Choose file"},
		{"title", `<input id="t" type="tel" title="Phone number">`, "", "Phone number"},
		{"title beats placeholder", `<input id="t" title="Title" placeholder="Placeholder">`, "", "Title"},
		{"placeholder", `<input id="t" placeholder="Your city">`, "", "Your city"},
		{"textarea placeholder", `<textarea id="t" placeholder="Comment"></textarea>`, "", "Comment"},
		{"aria-placeholder", `<div id="t" role="textbox" aria-placeholder="Type here"></div>`, "", "Type here"},
		{"empty div button, title", `<div id="t" role="button" tabindex="0" title="Tooltip only"></div>`, "", "Tooltip only"},
		{"table row", `<table><tr id="t"><td>Ada</td><td hidden>x</td><td>Lovelace</td></tr></table>`, "", "Ada | Lovelace"},
		{"heading", `<h2 id="t">Results <small>(3)</small></h2>`, "", "Results (3)"},
		{"nothing", `<input id="t">`, "", ""},
		{"Editor.js's placeholder", `<div id="t" contenteditable="true" data-placeholder-active="Tell your story…"></div>`, "", "Tell your story…"},
		{"an editable's aria-placeholder, kept once text hides it (Slate)", `<div id="t" contenteditable="true" aria-placeholder="Describe the bug…"></div>`,
			"const e = document.getElementById('t'); globalThis.__gripKernel__.nameOf(e, 'textbox'); e.removeAttribute('aria-placeholder'); e.textContent = 'It crashes'",
			"Describe the bug…"},
		{"a field named by its row and column headers", adminTable, "el = document.querySelector('[name=price-2]')", "Darjeeling / Price"},
		{"a select in a table", adminTable, "el = document.querySelector('[name=status-1]')", "Earl Grey / Status"},
		{"a row's checkbox, by its row header alone", adminTable, "el = document.querySelector('[name=pick-2]')", "Darjeeling"},
		{"a label still wins over headers", adminTable, "el = document.querySelector('[name=stock-1]')", "Stock of Earl Grey"},
		{"headers attribute", `<table><tr><th id="h1">Qty</th><th id="h2">Apples</th></tr><tr><td headers="h2 h1"><input id="t"></td></tr></table>`, "", "Apples Qty"},
		{"no row header: the row's first cell with text", `<table><thead><tr><th>Setting</th><th>Value</th></tr></thead><tbody><tr><td>Timeout</td><td><input id="t"></td></tr></tbody></table>`, "", "Timeout / Value"},
		{"a header row of th without thead", `<table><tr><th>Key</th><th>Value</th></tr><tr><td><input id="t"></td><td>x</td></tr></table>`, "", "x / Key"},
		{"colspan counted", `<table><thead><tr><th colspan="2">Name</th><th>Age</th></tr></thead><tbody><tr><th>Ada</th><td>L</td><td><input id="t"></td></tr></tbody></table>`, "", "Ada / Age"},
		{"a row of filters under the headers", `<table><thead><tr><th>Name</th><th>City</th></tr><tr><td><input></td><td><input id="t"></td></tr></thead></table>`, "", "City"},
		{"an ARIA grid by aria-colindex", `<div role="grid"><div role="row"><div role="columnheader" aria-colindex="1">Name</div><div role="columnheader" aria-colindex="2">Email</div></div>` +
			`<div role="row"><div role="gridcell" aria-colindex="2"><input id="t"></div><div role="gridcell" aria-colindex="1">Ada</div></div></div>`, "", "Ada / Email"},
		{"an ARIA grid by position", `<div role="grid"><div role="row"><div role="columnheader">Name</div><div role="columnheader">Email</div></div>` +
			`<div role="row"><div role="gridcell">Ada</div><div role="gridcell"><input id="t"></div></div></div>`, "", "Ada / Email"},
		{"a button is no field", `<table><tr><th>Do</th></tr><tr><td><button id="t"></button></td></tr></table>`, "", ""},
		{"a field outside tables", `<div><input id="t"></div>`, "", ""},
		{"cut at 300", `<button id="t" aria-label="` + long + `">x</button>`, "", long[:300]},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := onFixture[string](t, ctx, c.html, c.setup, `K.nameOf(el, K.roleOf(el))`)
			if got != c.want {
				t.Errorf("name = %q, want %q\n%s", got, c.want, c.html)
			}
		})
	}
}

// adminTable is an admin tool's change list: the fields have no label but
// the table's headers (one has a label of its own).
const adminTable = `<table><thead><tr><th><input type="checkbox" aria-label="Select all"></th><th>Name</th><th>Price</th><th>Stock</th><th>Status</th></tr></thead><tbody>
	<tr><td><input type="checkbox" name="pick-1"></td><th><a href="/p/1">Earl Grey</a></th><td><input name="price-1" value="4.50"></td>
		<td><label>Stock of Earl Grey<input name="stock-1" type="number"></label></td><td><select name="status-1"><option>Draft</option></select></td></tr>
	<tr><td><input type="checkbox" name="pick-2"></td><th><a href="/p/2">Darjeeling</a></th><td><input name="price-2" value="6.20"></td>
		<td><input name="stock-2" type="number"></td><td><select name="status-2"><option>Active</option></select></td></tr>
</tbody></table>`

func TestRoles(t *testing.T) {
	ctx := kernelTab(t)
	for _, c := range []struct{ html, want string }{
		// implicit
		{`<a id="t" href="/x">x</a>`, "link"},
		{`<a id="t">no href</a>`, ""},
		{`<button id="t">b</button>`, "button"},
		{`<details><summary id="t">More</summary></details>`, "button"},
		{`<input id="t">`, "textbox"},
		{`<input id="t" type="email">`, "textbox"},
		{`<input id="t" type="password">`, "textbox"},
		{`<input id="t" type="search">`, "searchbox"},
		{`<input id="t" type="checkbox">`, "checkbox"},
		{`<input id="t" type="radio">`, "radio"},
		{`<input id="t" type="range">`, "slider"},
		{`<input id="t" type="number">`, "spinbutton"},
		{`<input id="t" type="submit">`, "button"},
		{`<input id="t" type="file">`, "button"},
		{`<input id="t" type="hidden">`, ""},
		{`<input id="t" list="l"><datalist id="l"></datalist>`, "combobox"},
		{`<input id="t" type="password" list="l"><datalist id="l"></datalist>`, "textbox"},
		{`<input id="t" type="bogus">`, "textbox"},
		{`<select id="t"><option>a</option></select>`, "combobox"},
		{`<select id="t" multiple><option>a</option></select>`, "listbox"},
		{`<select id="t" size="3"><option>a</option></select>`, "listbox"},
		{`<textarea id="t"></textarea>`, "textbox"},
		{`<h3 id="t">h</h3>`, "heading"},
		{`<img id="t" src="data:," alt="">`, "img"},
		{`<table><tr><th id="t">h</th></tr></table>`, "columnheader"},
		{`<table><tr><th id="t" scope="row">h</th></tr></table>`, "rowheader"},
		{`<table><tr id="t"><td>c</td></tr></table>`, "row"},
		{`<table><tr><td id="t">c</td></tr></table>`, "cell"},
		{`<p id="t">p</p>`, "paragraph"},
		{`<ul><li id="t">i</li></ul>`, "listitem"},
		{`<dl><dt id="t">t</dt></dl>`, "term"},
		{`<dl><dd id="t">d</dd></dl>`, "definition"},
		{`<div id="t" contenteditable="true">e</div>`, "textbox"},
		{`<div contenteditable="true"><span id="t" contenteditable="true">inside</span></div>`, ""},
		// an editable region is typed into, whatever it is or declares
		{`<p id="t" contenteditable="true">block</p>`, "textbox"},
		{`<h2 id="t" contenteditable="true">Title</h2>`, "textbox"},
		{`<div id="t" contenteditable="true" role="document">d</div>`, "textbox"},
		{`<div id="t" contenteditable="plaintext-only" role="group">g</div>`, "textbox"},
		{`<div id="t" contenteditable="" role="paragraph">p</div>`, "textbox"},
		{`<div id="t" contenteditable="true" role="searchbox">s</div>`, "searchbox"},
		{`<div id="t" contenteditable="true" role="combobox">c</div>`, "combobox"},
		{`<p id="t" contenteditable="false">not editable</p>`, "paragraph"},
		{`<div contenteditable="true"><p id="t" contenteditable="true">a block inside the region</p></div>`, "paragraph"},
		{`<div contenteditable="true"><figure contenteditable="false"><figcaption id="t" contenteditable="true">an island in it</figcaption></figure></div>`, "caption"},
		{`<div id="t">d</div>`, ""},
		// declared
		{`<div id="t" role="button">d</div>`, "button"},
		{`<div id="t" role="  Tab extra">d</div>`, "tab"},
		{`<span id="t" role="">s</span>`, ""},
		{`<a id="t" href="/x" role="menuitem">m</a>`, "menuitem"},
		// presentation, none and generic keep the implicit role
		{`<button id="t" role="presentation">b</button>`, "button"},
		{`<h1 id="t" role="none">h</h1>`, "heading"},
		{`<a id="t" href="/x" role="generic">x</a>`, "link"},
		{`<div id="t" role="none">d</div>`, ""},
	} {
		t.Run(c.html, func(t *testing.T) {
			got := onFixture[string](t, ctx, c.html, "", `K.roleOf(el)`)
			if got != c.want {
				t.Errorf("role = %q, want %q", got, c.want)
			}
		})
	}
}

// visibility is what visibility.js says of one element, and whether a
// snapshot reports it.
type visibility struct {
	Visible  bool   `json:"visible"`
	NoBox    bool   `json:"noBox"`
	Hidden   bool   `json:"hidden"` // isHiddenAttr: by what it is, itself
	Reason   string `json:"reason"` // hiddenReason: by what it or an ancestor is
	Reported bool   `json:"reported"`
}

func TestVisibility(t *testing.T) {
	ctx := kernelTab(t)
	const (
		inert  = "element is inert"
		hidden = "element is hidden (hidden attribute)"
		aria   = "element is hidden from assistive technology (aria-hidden)"
	)
	for _, c := range []struct {
		name, html, setup string
		want              visibility
	}{
		{"plain", `<button id="t">b</button>`, "", visibility{Visible: true, Reported: true}},
		{"display none", `<button id="t" style="display:none">b</button>`, "", visibility{NoBox: true}},
		{"display none above", `<div style="display:none"><div><button id="t">b</button></div></div>`, "", visibility{NoBox: true}},
		{"visibility hidden", `<button id="t" style="visibility:hidden">b</button>`, "", visibility{}},
		{"visibility hidden above", `<div style="visibility:hidden"><button id="t">b</button></div>`, "", visibility{}},
		{"visible again under visibility hidden", `<div style="visibility:hidden"><button id="t" style="visibility:visible">b</button></div>`, "",
			visibility{Visible: true, Reported: true}},
		{"visibility collapse", `<table><tr style="visibility:collapse"><td><button id="t">b</button></td></tr></table>`, "", visibility{}},
		{"hidden attribute", `<button id="t" hidden>b</button>`, "", visibility{NoBox: true, Hidden: true, Reason: hidden}},
		{"hidden attribute above", `<div hidden><button id="t">b</button></div>`, "", visibility{NoBox: true, Reason: hidden}},
		{"hidden until found", `<div hidden="until-found"><button id="t">b</button></div>`, "", visibility{NoBox: true, Reason: hidden}},
		{"inert", `<button id="t" inert>b</button>`, "", visibility{Visible: true, Hidden: true, Reason: inert}},
		{"inert above", `<div inert><button id="t">b</button></div>`, "", visibility{Visible: true, Reason: inert}},
		{"aria-hidden", `<button id="t" aria-hidden="true">b</button>`, "", visibility{Visible: true, Hidden: true, Reason: aria}},
		{"aria-hidden above", `<div aria-hidden="true"><button id="t">b</button></div>`, "", visibility{Visible: true, Reason: aria}},
		{"aria-hidden false", `<div aria-hidden="false"><button id="t">b</button></div>`, "", visibility{Visible: true, Reported: true}},
		{"inert above a shadow host", `<div inert><span id="h"></span></div>`, inShadow, visibility{Visible: true, Reason: inert}},
		{"in a shadow root", `<div><span id="h"></span></div>`, inShadow, visibility{Visible: true, Reported: true}},
		{"content-visibility hidden above", `<div style="content-visibility:hidden"><button id="t">b</button></div>`, "", visibility{NoBox: true}},
		{"content-visibility hidden itself", `<div id="t" role="button" style="content-visibility:hidden">b</div>`, "", visibility{Visible: true, Reported: true}},
		{"closed details", `<details><summary>More</summary><button id="t">b</button></details>`, "", visibility{NoBox: true}},
		{"open details", `<details open><summary>More</summary><button id="t">b</button></details>`, "", visibility{Visible: true, Reported: true}},
		{"display contents", `<button id="t" style="display:contents">b</button>`, "", visibility{Visible: true, Reported: true}},
		{"inside display contents", `<div style="display:contents"><button id="t">b</button></div>`, "", visibility{Visible: true, Reported: true}},
		{"zero size still renders", `<div style="width:0;height:0;overflow:hidden"><a id="t" href="#z">z</a></div>`, "", visibility{Visible: true, Reported: true}},
		{"opacity 0 still renders", `<button id="t" style="opacity:0">b</button>`, "", visibility{Visible: true, Reported: true}},
		{"display none around a shadow host", `<div style="display:none"><span id="h"></span></div>`, inShadow, visibility{NoBox: true}},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := onFixture[visibility](t, ctx, c.html, c.setup, `(() => {
				const out = {visible: K.isVisible(el), noBox: K.noBox(el), hidden: K.isHiddenAttr(el), reason: K.hiddenReason(el)};
				const snap = K.run({op: 'snapshot', mode: 'interactive'});
				out.reported = snap.elements.some((e) => e.id === K.idOf(el));
				return out;
			})()`)
			if got != c.want {
				t.Errorf("got %+v\nwant %+v\n%s", got, c.want, c.html)
			}
		})
	}
}

// state is what states.js says of one element.
type state struct {
	Value  string   `json:"value"`
	States []string `json:"states"`
}

func TestStates(t *testing.T) {
	ctx := kernelTab(t)
	for _, c := range []struct {
		name, html, setup string
		content           bool
		want              state
	}{
		{"text value", `<input id="t" value="Ada">`, "", false, state{Value: "Ada"}},
		{"password value never", `<input id="t" type="password" value="hunter2">`, "", false, state{States: []string{"filled"}}},
		{"current-password never", `<input id="t" autocomplete="current-password" value="hunter2">`, "", false, state{States: []string{"filled"}}},
		{"new-password never", `<input id="t" autocomplete="section-a new-password" value="hunter2">`, "", false, state{States: []string{"filled"}}},
		{"one-time code never", `<input id="t" autocomplete="one-time-code" value="123456">`, "", false, state{States: []string{"filled"}}},
		{"card number never", `<input id="t" autocomplete="cc-number" value="4242424242424242">`, "", false, state{States: []string{"filled"}}},
		{"card security code never", `<input id="t" autocomplete="billing cc-csc" value="123">`, "", false, state{States: []string{"filled"}}},
		{"masked by text-security never", `<input id="t" style="-webkit-text-security: disc" value="hunter2">`, "", false, state{States: []string{"filled"}}},
		{"a shown password stays secret", `<input id="t" type="password" value="hunter2">`,
			`globalThis.__gripKernel__.valueText(document.getElementById('t'), 'textbox'); document.getElementById('t').type = 'text'`, false, state{States: []string{"filled"}}},
		{"an empty secret is not filled", `<input id="t" type="password">`, "", false, state{}},
		{"card expiry is not secret", `<input id="t" autocomplete="cc-exp" value="12/29">`, "", false, state{Value: "12/29"}},
		{"textarea value", `<textarea id="t">Line one</textarea>`, "", false, state{Value: "Line one"}},
		{"select value", `<select id="t"><option>One</option><option selected label="Two!">2</option></select>`, "", false, state{Value: "Two!"}},
		{"select multiple value", `<select id="t" multiple><option selected>A</option><option>B</option><option selected>C</option></select>`, "", false, state{Value: "A, C"}},
		{"slider valuetext", `<div id="t" role="slider" aria-valuenow="5" aria-valuetext="five stars"></div>`, "", false, state{Value: "five stars"}},
		{"slider valuenow", `<div id="t" role="slider" aria-valuenow="5"></div>`, "", false, state{Value: "5"}},
		{"contenteditable value", `<div id="t" contenteditable="true">Some <b>notes</b></div>`, "", false, state{Value: "Some notes"}},
		{"checked", `<input id="t" type="checkbox" checked>`, "", false, state{States: []string{"checked"}}},
		{"indeterminate", `<input id="t" type="checkbox">`, `document.getElementById('t').indeterminate = true`, false, state{States: []string{"mixed"}}},
		{"aria-checked mixed", `<div id="t" role="checkbox" aria-checked="mixed"></div>`, "", false, state{States: []string{"mixed"}}},
		{"aria-checked on a button is no state", `<button id="t" aria-checked="true">b</button>`, "", false, state{}},
		{"selected option", `<div role="listbox"><div id="t" role="option" aria-selected="true">o</div></div>`, "", false, state{States: []string{"selected"}}},
		{"expanded", `<button id="t" aria-expanded="true">b</button>`, "", false, state{States: []string{"expanded"}}},
		{"collapsed", `<button id="t" aria-expanded="false">b</button>`, "", false, state{States: []string{"collapsed"}}},
		{"closed details", `<details><summary id="t">More</summary></details>`, "", false, state{States: []string{"collapsed"}}},
		{"open details", `<details open><summary id="t">More</summary></details>`, "", false, state{States: []string{"expanded"}}},
		{"disabled", `<button id="t" disabled>b</button>`, "", false, state{States: []string{"disabled"}}},
		{"disabled fieldset", `<fieldset disabled><input id="t"></fieldset>`, "", false, state{States: []string{"disabled"}}},
		{"aria-disabled", `<div id="t" role="button" aria-disabled="true">b</div>`, "", false, state{States: []string{"disabled"}}},
		{"required", `<input id="t" required>`, "", false, state{States: []string{"required"}}},
		{"aria-required", `<div id="t" role="textbox" aria-required="true"></div>`, "", false, state{States: []string{"required"}}},
		{"readonly", `<input id="t" readonly value="x">`, "", false, state{Value: "x", States: []string{"readonly"}}},
		{"readonly checkbox is not a state", `<input id="t" type="checkbox" readonly>`, "", false, state{}},
		{"heading level from the tag", `<h3 id="t">h</h3>`, "", true, state{States: []string{"level=3"}}},
		{"heading level from aria-level", `<div id="t" role="heading" aria-level="4">h</div>`, "", true, state{States: []string{"level=4"}}},
		{"heading level default", `<div id="t" role="heading">h</div>`, "", true, state{States: []string{"level=2"}}},
		{"heading level only in content mode", `<h3 id="t">h</h3>`, "", false, state{}},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := onFixture[state](t, ctx, c.html, c.setup, fmt.Sprintf(`(() => {
				const role = K.roleOf(el);
				return {value: K.valueText(el, role), states: K.statesOf(el, role, %v)};
			})()`, c.content))
			if got.Value != c.want.Value || strings.Join(got.States, " ") != strings.Join(c.want.States, " ") {
				t.Errorf("got %+v, want %+v\n%s", got, c.want, c.html)
			}
		})
	}
}
