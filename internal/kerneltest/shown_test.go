package kerneltest_test

import (
	"testing"
)

// Controls the page left unnamed are named by what a person sees in them
// (extension/kernel/names.js shownName, icons.js): an SVG's <title> and a
// part's title are the accessibility tree's own names; what is hidden
// from it (an aria-hidden icon's ligature or title), the icons classes
// name where an icon is drawn (never a class on a box that draws
// nothing), sprites, and the text beside a checkbox are grip's guesses,
// and the line says inferred. Each case is the snapshot line of the
// control (role 'name' states), and its meaning check (describe) names it
// the same.
func TestNamesFromWhatControlsShow(t *testing.T) {
	ctx := kernelTab(t)
	// An icon font draws its glyph with ::before, as Font Awesome,
	// Bootstrap Icons and Material Design Icons do; a class names an icon
	// only where one is drawn.
	const font = `<style>.fa-trash::before, .bi-gear::before, .mdi-delete-outline::before { content: "\f1f8"; }</style>`
	for _, c := range []struct {
		name, html, want string
	}{
		{"an SVG's title", `<button id="t"><svg viewBox="0 0 8 8" width="16" height="16"><title>Delete</title><path d="M0 0h8v8H0z"/></svg></button>`, "button 'Delete'"},
		{"an SVG's aria-label", `<button id="t"><svg aria-label="Delete" width="16" height="16"></svg></button>`, "button 'Delete'"},
		{"an image's alt", `<button id="t"><img alt="Delete" src="data:," width="16" height="16"></button>`, "button 'Delete'"},
		{"the only child's title", `<button id="t"><span class="icon" title="Delete"></span></button>`, "button 'Delete'"},
		{"the control's title over its icon", `<button id="t" title="Delete"><i class="fa fa-trash"></i></button>`, "button 'Delete'"},
		{"a ligature people can read", `<button id="t"><span class="material-icons">delete</span></button>`, "button 'delete'"},
		{"a ligature hidden from assistive technology", `<button id="t"><span class="material-icons" aria-hidden="true">more_vert</span></button>`, "button 'more vert' inferred"},
		{"an × hidden from assistive technology", `<button id="t"><span aria-hidden="true">×</span></button>`, "button '×' inferred"},
		{"a hidden SVG's title", `<button id="t"><svg aria-hidden="true" width="16" height="16"><title>Close</title></svg></button>`, "button 'Close' inferred"},
		{"Font Awesome, its modifiers skipped", font + `<button id="t"><i class="fa fa-fw fa-trash"></i></button>`, "button 'trash' inferred"},
		{"Font Awesome's glyph in the text", "<button id=\"t\"><i class=\"fas fa-trash\">\uf1f8</i></button>", "button 'trash' inferred"},
		{"a glyph alone is no name", "<button id=\"t\"><i class=\"fa\">\uf1f8</i></button>", "button"},
		{"Bootstrap Icons in a link", font + `<a id="t" href="/settings"><i class="bi bi-gear"></i></a>`, "link 'gear' inferred"},
		{"an icon set's class on a role=button", font + `<div id="t" role="button" tabindex="0"><i class="mdi mdi-delete-outline"></i></div>`, "button 'delete outline' inferred"},
		{"TiddlyWiki's image classes", `<button id="t"><svg class="tc-image-close-button tc-image-button" width="16" height="16"><path d="M0 0h8v8H0z"/></svg></button>`, "button 'close' inferred"},
		{"a sprite's symbol title", `<svg style="display:none"><symbol id="i-trash"><title>Trash</title></symbol></svg><button id="t"><svg width="16" height="16"><use href="#i-trash"/></svg></button>`, "button 'Trash' inferred"},
		{"a sprite in another file, by its id", `<button id="t"><svg width="16" height="16"><use href="/sprite.svg#icon-settings"/></svg></button>`, "button 'settings' inferred"},
		{"an icon class that draws nothing names nothing", `<button id="t"><i class="fa fa-fw fa-trash"></i></button>`, "button"},
		{"a layout class on an empty link names nothing", `<a id="t" href="/" class="logo-image" style="display:inline-block;width:20px;height:20px"></a>`, "link"},
		{"a class on an empty part names nothing", `<div id="t" style="cursor:pointer;width:20px;height:20px"><span class="icon-bar"></span></div>`, "clickable"},
		{"a framework's classes are no icon", `<button id="t" class="btn btn-primary"><span class="caret"></span></button>`, "button"},
		{"a clickable icon", font + `<div id="t" style="cursor:pointer;width:16px;height:16px"><i class="fa fa-trash"></i></div>`, "clickable 'trash' inferred"},
		{"a clickable's text after a guess is the page's", `<button><i class="fa fa-trash"></i></button>` +
			`<div id="t" style="cursor:pointer;display:flex"><span>Ada</span><span>Numbers</span></div>`, "clickable 'Ada Numbers'"},
		{"a checkbox by the text beside it", `<div><label><input type="checkbox" id="t"></label> <button>home</button> <i>Open the default tiddlers</i></div>`, "checkbox 'home Open the default tiddlers' inferred"},
		{"the text beside, cut at a word", `<div><label><input type="checkbox" id="t"></label> <button>fold all tiddlers</button> <i>Fold the bodies of all opened tiddlers</i></div>`,
			"checkbox 'fold all tiddlers Fold the bodies of all' inferred"},
		{"a labelled checkbox is the page's", `<label><input type="checkbox" id="t"> Remember me</label>`, "checkbox 'Remember me'"},
		{"two checkboxes share the text: none", `<div><input type="checkbox" id="t"> Apples <input type="checkbox"> Pears</div>`, "checkbox"},
		{"a long text beside, its start", `<div><input type="checkbox" id="t"> ` + "By ticking this box you agree to the terms of service, the privacy policy and the cookie policy of the shop." + `</div>`,
			"checkbox 'By ticking this box you agree to the' inferred"},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := onFixture[string](t, ctx, c.html, "", `(() => {
				const line = (e) => [e.role, e.name ? "'" + e.name + "'" : '', ...(e.states || [])].filter(Boolean).join(' ');
				const id = K.idFor(el);
				const r = K.run({op: 'snapshot', mode: 'interactive'}).elements.find((e) => e.id === id);
				if (!r) return 'not reported';
				const d = K.describe(el);
				return line(r) + (d.name === r.name ? '' : ' (describe: ' + d.name + ')');
			})()`)
			if got != c.want {
				t.Errorf("line: %s\nwant: %s\n%s", got, c.want, c.html)
			}
		})
	}
}
