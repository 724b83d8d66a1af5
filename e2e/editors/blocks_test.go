package editors_test

import (
	"testing"
)

// Editor.js makes each block an editable element of its own: the header
// tool an editable <h2>, the paragraph an editable <div> with its
// placeholder in data-placeholder-active. Each is a textbox the agent can
// type into (a heading or paragraph role does not hide it), and the text
// reaches the editor's model: editor.save().
func TestEditorJSBlocks(t *testing.T) {
	a := newAgent(t)
	snap := a.open("/editorjs.html", "[textbox 'Tell your story…'")
	heading := ref(t, snap, "[textbox 'Heading' value='Spring menu'")
	body := ref(t, snap, "[textbox 'Tell your story…'")

	a.must("type", body, "Wild garlic is back.")
	const blocks = `editor.save().then((d) => d.blocks.map((b) => b.type + ':' + b.data.text).join('|'))`
	eventually(a, blocks, "header:Spring menu|paragraph:Wild garlic is back.")
	out := a.must("fill", heading, "Spring menu, week 2")
	if !saysText(out, "Spring menu, week 2") {
		t.Errorf("fill reply:\n%s", out)
	}
	eventually(a, blocks, "header:Spring menu, week 2|paragraph:Wild garlic is back.")
	snap = a.snapshot()
	if l := lineOf(snap, body); l != body+": [textbox 'Tell your story…' value='Wild garlic is back.']" {
		t.Errorf("after typing, the body's line is %q", l)
	}
	a.report("Editor.js: type the body of a post, retitle its header block")
}

// Lexical's root is the page's own element, here with the role a block
// editor gives its editable area (role=document, as WordPress's blocks
// declare it): still a textbox, named by its label, and typing reaches
// Lexical's editor state.
func TestLexicalDeclaredRole(t *testing.T) {
	a := newAgent(t)
	snap := a.open("/lexical-document.html", "[textbox 'Notes'")
	notes := ref(t, snap, "[textbox 'Notes'")
	ref(t, snap, "[textbox 'Title'")

	a.must("fill", notes, "Agenda\nShip the beta on Friday.")
	eventually(a, "lexicalParagraphs()", `["Agenda","Ship the beta on Friday."]`)
	out := a.must("type", notes, " Then rest.")
	if !saysText(out, "Agenda Ship the beta on Friday. Then rest.") {
		t.Errorf("type's reply does not say the new text:\n%s", out)
	}
	eventually(a, "lexicalParagraphs()", `["Agenda","Ship the beta on Friday. Then rest."]`)
	a.must("type", "--trusted", notes, "\nQuestions?")
	eventually(a, "lexicalParagraphs()", `["Agenda","Ship the beta on Friday. Then rest.","Questions?"]`)
	snap = a.snapshot()
	if l := lineOf(snap, notes); l != notes+": [textbox 'Notes' value='Agenda Ship the beta on Friday. Then rest. Questions?']" {
		t.Errorf("after typing, the line is %q", l)
	}
	a.report("Lexical (role=document): notes in two paragraphs, add to them, a third with real keys")
}

// Slate (slate-react) cancels every beforeinput and applies it to its own
// value, then renders: typing must reach editor.children, and the line
// says what it holds.
func TestSlateLine(t *testing.T) {
	a := newAgent(t)
	snap := a.open("/slate.html", "[textbox 'Story'")
	story := ref(t, snap, "[textbox 'Story'")

	a.must("type", story, "Once upon a time.\nThe end.")
	eventually(a, "slateBlocks()", `["Once upon a time.","The end."]`)
	out := a.must("fill", story, "A short story.")
	if !saysText(out, "A short story.") {
		t.Errorf("fill's reply does not say the new text:\n%s", out)
	}
	eventually(a, "slateBlocks()", `["A short story."]`)
	snap = a.snapshot()
	if l := lineOf(snap, story); l != story+": [textbox 'Story' value='A short story.']" {
		t.Errorf("after typing, the line is %q", l)
	}
	a.report("Slate: a story in two paragraphs, replace it")
}
