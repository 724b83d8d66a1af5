package picture

import (
	"testing"

	"github.com/grip-dev/grip/protocol"
)

func el(ref, role, name string, states ...string) protocol.Element {
	return protocol.Element{Ref: ref, Role: role, Name: name, States: states}
}

// A reply's changes applied to the picture make it the page's; a context
// or a state the reply left out leaves it wrong, and diff says where.
func TestApplyAndSame(t *testing.T) {
	snap := protocol.Snapshot{Frames: []protocol.Frame{{Elements: []protocol.Element{
		el("@e1", "button", "Actions", "collapsed"), el("@e2", "textbox", "Note"),
	}}}}
	p := of(snap)
	p.apply(protocol.Changes{Gone: []string{"@e2"}, Changed: []protocol.Element{el("@e1", "button", "Actions", "expanded")},
		Appeared: []protocol.Element{el("@e3", "menuitem", "Edit")}})
	page := picture{"@e1": el("@e1", "button", "Actions", "expanded"), "@e3": el("@e3", "menuitem", "Edit")}
	if !p.same(page) {
		t.Fatalf("the picture after the reply: %s", p.diff(page))
	}
	edit := page["@e3"]
	edit.Context = "Orders"
	page["@e3"] = edit
	if p.same(page) || p.diff(page) != "@e3 is menuitem|Edit|-|[]|Orders, the picture has menuitem|Edit|-|[]|" {
		t.Fatalf("a context the reply left out: same %v, diff %q", p.same(page), p.diff(page))
	}
	if got := p.find(snap, "[button 'Actions'"); got != "@e1" {
		t.Errorf("find = %q", got)
	}
	if got := p.find(snap, "[textbox"); got != "" {
		t.Errorf("find of a gone element = %q", got)
	}
}

func TestReadOn(t *testing.T) {
	if got := afterRef("grip snapshot --after @e34 --tab 9"); got != "@e34" {
		t.Errorf("afterRef = %q", got)
	}
	if got := afterRef("grip snapshot --tab 9"); got != "" {
		t.Errorf("afterRef without --after = %q", got)
	}
	refs := shownRefs("Tab 9 · 'x' · http://a/\n=== Frame: 0 (Top: http://a/) ===\n@e35: [button 'a']\n@e36: [link 'b']\n… 3 more lines\n")
	if len(refs) != 2 || !refs["@e35"] || !refs["@e36"] {
		t.Errorf("shownRefs = %v", refs)
	}
}

// A run of lines that changed only their context moves them in the
// picture: all the lines in a context by that context, the others by
// their refs, at once (two cards that swapped titles); lines the reply
// lists whole, and refs gone, still win.
func TestApplyContexts(t *testing.T) {
	in := func(ref, name, ctx string) protocol.Element {
		e := el(ref, "button", name)
		e.Context = ctx
		return e
	}
	p := picture{"@e1": in("@e1", "Edit", "A"), "@e2": in("@e2", "Move", "A"), "@e3": in("@e3", "Edit", "B"),
		"@e4": in("@e4", "Move", "B"), "@e5": in("@e5", "Edit", "C"), "@e6": in("@e6", "Move", "C"), "@e7": in("@e7", "Pin", "A")}
	p.apply(protocol.Changes{
		Contexts: []protocol.ContextChange{
			{From: "A", To: "B", Refs: []string{"@e1", "@e2", "@e7"}, All: true},
			{From: "B", To: "A", Refs: []string{"@e3", "@e4"}, All: true},
			{From: "C", To: "D", Refs: []string{"@e5"}},
		},
		Changed: []protocol.Element{in("@e7", "Pin", "E")},
		Gone:    []string{"@e2"},
	})
	page := picture{"@e1": in("@e1", "Edit", "B"), "@e3": in("@e3", "Edit", "A"), "@e4": in("@e4", "Move", "A"),
		"@e5": in("@e5", "Edit", "D"), "@e6": in("@e6", "Move", "C"), "@e7": in("@e7", "Pin", "E")}
	if !p.same(page) {
		t.Fatalf("the picture after the runs: %s", p.diff(page))
	}
}
