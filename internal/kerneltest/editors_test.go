package kerneltest_test

import "testing"

// Editors as the kernel reads them (extension/kernel/editors.js, names.js).
func TestEditorNamesAndText(t *testing.T) {
	ctx := kernelTab(t)
	for _, c := range []struct {
		name, html, setup, expr, want string
	}{
		{"data-placeholder names an editable", `<div id="t" contenteditable="true" data-placeholder="Say something"></div>`, "",
			"K.nameOf(el, 'textbox')", "Say something"},
		{"its first block's placeholder too (Tiptap)", `<div id="t" contenteditable="true"><p data-placeholder="Write a comment…" class="is-editor-empty"><br></p></div>`, "",
			"K.nameOf(el, 'textbox')", "Write a comment…"},
		{"and it keeps naming it once text hides it",
			`<div id="t" contenteditable="true"><p data-placeholder="Write a comment…"><br></p></div>`,
			"const e = document.getElementById('t'); globalThis.__gripKernel__.nameOf(e, 'textbox'); e.firstElementChild.removeAttribute('data-placeholder'); e.firstElementChild.textContent = 'hi'",
			"K.nameOf(el, 'textbox')", "Write a comment…"},
		{"a label still wins", `<div id="t" contenteditable="true" aria-label="Body" data-placeholder="Say something"></div>`, "",
			"K.nameOf(el, 'textbox')", "Body"},
		{"blocks apart, no zero-width holders", "<div id=\"t\" contenteditable=\"true\"><p>One</p><p>\u2060\u2060Two\u200b</p><p><br></p></div>", "",
			"K.editorText(el)", "One Two"},
		{"a hidden textarea's value is its editor's text (CodeMirror 5)", cm5Like, "",
			"K.valueText(el, 'textbox')", "x = 1 print(x)"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := onFixture[string](t, ctx, c.html, c.setup, c.expr); got != c.want {
				t.Errorf("%s = %q, want %q", c.expr, got, c.want)
			}
		})
	}
}

// cm5Like is CodeMirror 5's structure: the textarea in a 3×0 clipping box,
// the lines drawn beside it, line numbers hidden from everyone.
const cm5Like = `<div class="CodeMirror" style="position:relative;width:400px;height:100px">
	<div style="overflow:hidden;position:relative;width:3px;height:0px"><textarea id="t" style="position:absolute;width:1000px;height:1em"></textarea></div>
	<div class="lines"><pre><span aria-hidden="true">1</span><span>x = 1</span></pre><pre><span aria-hidden="true">2</span><span>print(x)</span></pre><pre><span>` + "\u200b" + `</span></pre></div>
</div>`

func TestEditorSurfaces(t *testing.T) {
	ctx := kernelTab(t)
	for _, c := range []struct {
		name, html, expr string
		want             bool
	}{
		{"a textarea clipped to nothing stands for its editor", cm5Like, "K.surfaceOf(el) === el.closest('.CodeMirror')", true},
		{"a transparent one too (Ace)", `<div style="width:300px;height:80px"><textarea id="t" style="opacity:0"></textarea><div>code</div></div>`, "K.surfaceOf(el) === el.parentElement", true},
		{"a textarea people see is itself", `<div><textarea id="t"></textarea></div>`, "K.surfaceOf(el) === null", true},
		{"a hidden one among other fields stands for nothing", `<div style="width:300px;height:80px"><input name="n"><textarea id="t" style="width:1px;height:1px"></textarea></div>`, "K.surfaceOf(el) === null", true},
		{"the editor's lines are its own part", cm5Like, "K.ownPart(el, el.closest('.CodeMirror').querySelector('pre'))", true},
		{"a tooltip layer inside the editor's box is its own part",
			`<div style="position:relative;width:400px;height:100px"><div id="t" contenteditable="true" style="height:90px">x</div><div class="tip" style="position:absolute;top:10px;left:10px">tip</div></div>`,
			"K.ownPart(el, el.parentElement.querySelector('.tip'))", true},
		{"a banner elsewhere in the page is not",
			`<div id="t" contenteditable="true" style="width:200px;height:50px">x</div><div class="banner" style="position:fixed;inset:0">cookies</div>`,
			"K.ownPart(el, document.querySelector('.banner'))", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := onFixture[bool](t, ctx, c.html, "", c.expr); got != c.want {
				t.Errorf("%s = %v, want %v", c.expr, got, c.want)
			}
		})
	}
}

func TestEditorEnd(t *testing.T) {
	ctx := kernelTab(t)
	for _, c := range []struct {
		name, html, want string
	}{
		{"after the last character", `<div id="t" contenteditable="true"><p>One</p><p>Two<b>!</b></p></div>`, "! 1"},
		{"inside an empty last block, not after it", `<div id="t" contenteditable="true"><p>One</p><p><br></p></div>`, "P 0"},
		{"before trailing zero-width holders", "<div id=\"t\" contenteditable=\"true\"><p>One\u2060\u2060</p></div>", "One\u2060\u2060 3"},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := onFixture[string](t, ctx, c.html, "", "(() => { const e = K.endOf(el); return (e.node.nodeType === 3 ? e.node.data : e.node.nodeName) + ' ' + e.offset })()")
			if got != c.want {
				t.Errorf("endOf = %q, want %q", got, c.want)
			}
		})
	}
}

// An editor's hidden input carries a label of its own, which is no part
// of its text; where the label says where the caret is (Ace: "Cursor at
// row 1", after the page's label), that part is not its name either: it
// changes with every move of the caret. A label on an ordinary textarea
// is its name whatever it says.
func TestEditorTextLeavesOutItsInputsLabel(t *testing.T) {
	ctx := kernelTab(t)
	for _, c := range []struct{ label, style, want string }{
		{"Cursor at row 1", "opacity:0;position:absolute", " | SELECT 1;"},
		{"Query, Cursor at row 12", "opacity:0;position:absolute", "Query | SELECT 1;"},
		{"Notes", "opacity:0;position:absolute", "Notes | SELECT 1;"},
		{"Line 3, Column 5", "opacity:0;position:absolute", " | SELECT 1;"},
		{"Cursor at row 1", "width:300px;height:40px", "Cursor at row 1 | "},
	} {
		fixture := `<div style="position:relative;width:400px;height:100px"><textarea id="t" aria-label="` + c.label + `" style="` + c.style + `"></textarea>` +
			`<div class="lines"><div>SELECT 1;</div></div></div>`
		got := onFixture[string](t, ctx, fixture, "", "K.nameOf(el, 'textbox') + ' | ' + K.valueText(el, 'textbox')")
		if got != c.want {
			t.Errorf("%q (%s): name | value = %q, want %q", c.label, c.style, got, c.want)
		}
	}
}
