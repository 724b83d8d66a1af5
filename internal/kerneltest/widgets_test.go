package kerneltest_test

import (
	"strings"
	"testing"
)

// Custom selects: a control standing in for a hidden native select reads
// through it (extension/kernel/widgets.js). Each case snapshots its
// fixture and prints the lines the walk reports, role 'name' value states.
func TestWrappedSelects(t *testing.T) {
	ctx := kernelTab(t)
	const options = `<option value="">Pick one</option><option value="a">Apple</option><option value="p" selected>Pear</option>`
	for _, c := range []struct {
		name, html, want string
	}{
		{"inside a combobox, the select hidden (Choices.js)",
			`<label for="s">Fruit</label><div role="combobox" tabindex="0" aria-expanded="false"><div><select id="s" hidden>` + options + `</select><div>Pear</div></div>` +
				`<div><div>Apple</div><div>Pear</div></div></div>`,
			"combobox 'Fruit' value='Pear' collapsed"},
		{"after the select, no role: focusable (Nice Select)",
			`<label for="s">Fruit</label><select id="s" style="opacity:0;width:0;height:0">` + options + `</select>` +
				`<div tabindex="0" style="cursor:pointer"><span>Pear</span><ul><li>Pick one</li><li>Apple</li><li>Pear</li></ul></div>`,
			"combobox 'Fruit' value='Pear'"},
		{"after the select, a combobox inside (Select2)",
			`<label for="s">Fruit</label><select id="s" style="position:absolute;width:1px;height:1px;clip:rect(0 0 0 0);overflow:hidden" aria-hidden="true">` + options + `</select>` +
				`<span><span><span role="combobox" tabindex="0" aria-labelledby="r" aria-expanded="false"><span id="r">Pear</span></span></span></span>`,
			"combobox 'Fruit' value='Pear' collapsed"},
		{"a button showing the choice (bootstrap-select)",
			`<div><label for="s">Fruit</label><select id="s" style="opacity:0;width:0.5px;position:absolute">` + options + `</select><button type="button">Pear</button></div>`,
			"combobox 'Fruit' value='Pear'"},
		{"the placeholder option is no value",
			`<label for="s">Fruit</label><select id="s" style="display:none"><option value="">Pick one</option><option>Apple</option></select><div role="combobox" tabindex="0">Pick one Apple</div>`,
			"combobox 'Fruit'"},
		{"several chosen",
			`<label for="s">Fruit</label><select id="s" multiple hidden><option selected>Apple</option><option>Fig</option><option selected>Pear</option></select><div role="combobox" tabindex="0">Apple Pear Fig</div>`,
			"combobox 'Fruit' value='Apple, Pear'"},
		{"no label on the select: the control's own name",
			`<select id="s" hidden>` + options + `</select><div role="combobox" aria-label="Fruit" tabindex="0">Pear</div>`,
			"combobox 'Fruit' value='Pear'"},
		{"a select people see is itself",
			`<label for="s">Fruit</label><select id="s">` + options + `</select><div role="combobox" aria-label="Other" tabindex="0">x</div>`,
			"combobox 'Fruit' value='Pear' | combobox 'Other' value='x'"},
		{"a hidden select and an unrelated button after it",
			`<select id="s" style="display:none">` + options + `</select><button>Save</button>`,
			"button 'Save'"},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := onFixture[string](t, ctx, c.html, "el = document.body", `K.run({op: 'snapshot', mode: 'interactive'}).elements
				.map((e) => [e.role, "'" + e.name + "'", e.value !== undefined ? "value='" + e.value + "'" : '', ...(e.states || [])].filter(Boolean).join(' ')).join(' | ')`)
			if got != c.want {
				t.Errorf("snapshot: %s\nwant:     %s\n%s", got, c.want, c.html)
			}
		})
	}
}

// The popup of a collapsed combobox is not listed, even when the page
// keeps it rendered (Slim Select); once expanded, and in reach, it is.
// (Off the page, above it, it would not be listed whatever the combobox
// says: visibility.js farOff.)
func TestCollapsedComboboxPopup(t *testing.T) {
	ctx := kernelTab(t)
	const page = `<div id="t" role="combobox" tabindex="0" aria-label="Carrier" aria-controls="lb" aria-expanded="false">UPS</div>` +
		`<div id="w" style="position:absolute;top:9999px"><div id="lb" role="listbox"><div role="option">UPS</div><div role="option">DHL</div></div></div>`
	const lines = `K.run({op: 'snapshot', mode: 'interactive'}).elements.map((e) => e.role + ' ' + e.name).join(' | ')`
	if got := onFixture[string](t, ctx, page, "", lines); got != "combobox Carrier" {
		t.Errorf("collapsed: %s", got)
	}
	if got := onFixture[string](t, ctx, page, "document.getElementById('t').setAttribute('aria-expanded', 'true'); document.getElementById('w').style.top = '40px'", lines); got != "combobox Carrier | listbox  | option UPS | option DHL" {
		t.Errorf("expanded: %s", got)
	}
}

// An action's meaning check sees a stand-in as the snapshot did: a
// combobox named by its select's label.
func TestWrappedSelectDescribed(t *testing.T) {
	ctx := kernelTab(t)
	got := onFixture[string](t, ctx, `<label for="s">Fruit</label><select id="s" hidden><option>Pear</option></select><div id="t" tabindex="0" style="cursor:pointer">Pear</div>`, "",
		`(() => { const d = K.describe(el); return d.role + ' ' + d.name + ' ' + K.controlRole(el) + ' ' + K.valueText(el, 'combobox') })()`)
	if got != "combobox Fruit combobox Pear" {
		t.Errorf("describe, controlRole, value = %q", got)
	}
}

// A field named from table headers says so on its line.
func TestInferredNameState(t *testing.T) {
	ctx := kernelTab(t)
	got := onFixture[string](t, ctx, adminTable, "el = document.body", `K.run({op: 'snapshot', mode: 'interactive'}).elements
		.filter((e) => e.role === 'textbox' || e.role === 'spinbutton').map((e) => e.name + ':' + (e.states || []).join(',')).join(' | ')`)
	want := "Earl Grey / Price:inferred | Stock of Earl Grey: | Darjeeling / Price:inferred | Darjeeling / Stock:inferred"
	if got != want {
		t.Errorf("fields: %s\nwant:   %s", got, want)
	}
	if strings.Contains(onFixture[string](t, ctx, `<label>Email <input id="t"></label>`, "", `JSON.stringify(K.run({op: 'snapshot', mode: 'interactive'}))`), "inferred") {
		t.Error("a labelled field outside a table says inferred")
	}
}
