package editors_test

import (
	"encoding/json"
	"testing"
)

// lineEditors are editors whose model keeps a document as blocks, read as
// JSON (a string a block) by the test's observer.
var lineEditors = []struct {
	name, path, line, blocks string
}{
	{"Lexical", "/lexical.html", "[textbox 'Notes'", "lexicalParagraphs()"},
	{"Slate", "/slate.html", "[textbox 'Story'", "slateBlocks()"},
	{"Quill", "/quill.html", "[textbox 'Message'", "JSON.stringify(quill.getText().replace(/\\n$/, '').split('\\n'))"},
	{"Tiptap", "/tiptap.html", "[textbox 'Write a comment…'", "JSON.stringify(editor.state.doc.content.content.map((n) => n.textContent))"},
}

// Text of several lines reaches each editor's model as blocks, a line
// each, whether typed key by key, filled, or sent as real input: a line
// break is Enter, and the editor has redrawn the lines before the next one
// (keys come no closer than a person's).
func TestEditorsTakeLines(t *testing.T) {
	for _, e := range lineEditors {
		t.Run(e.name, func(t *testing.T) {
			a := newAgent(t)
			snap := a.open(e.path, e.line)
			box := ref(t, snap, e.line)
			blocks := func(want ...string) {
				t.Helper()
				b, _ := json.Marshal(want)
				eventually(a, e.blocks, string(b))
			}
			a.must("fill", box, "Dear team,\nthe release is out.\n\nThanks")
			blocks("Dear team,", "the release is out.", "", "Thanks")
			a.must("type", box, "!\nAda\n\nPS: notes\nfollow")
			blocks("Dear team,", "the release is out.", "", "Thanks!", "Ada", "", "PS: notes", "follow")
			a.must("fill", "--trusted", box, "First\nSecond")
			blocks("First", "Second")
			a.must("type", "--trusted", box, "\nThird\n\nFourth")
			blocks("First", "Second", "Third", "", "Fourth")
			a.report(e.name + ": write, extend and replace a text of several lines")
		})
	}
}
