package mcp

import (
	"testing"

	"github.com/grip-dev/grip/internal/picture"
	"github.com/grip-dev/grip/protocol"
)

// A form's merged reply leaves the agent the picture its replies one by
// one would have: runs of lines that changed only their context put their
// new context on the lines it lists, stand as said when one action had
// them, and become each ref's first and last context over several.
func TestMergeResultsKeepsContextRuns(t *testing.T) {
	in := func(ref, name, ctx string) protocol.Element {
		return protocol.Element{Ref: ref, Role: "button", Name: name, Context: ctx}
	}
	start := protocol.Snapshot{Frames: []protocol.Frame{{Elements: []protocol.Element{
		in("@e1", "Edit", "A"), in("@e2", "Move", "A"), in("@e3", "Pin", "A"), in("@e4", "Edit", "B"), in("@e5", "Move", "B"),
		in("@e9", "Save", ""),
	}}}}
	rename := protocol.ActionResult{Changes: protocol.Changes{
		Changed:  []protocol.Element{in("@e9", "Saved", "B")},
		Contexts: []protocol.ContextChange{{From: "A", To: "B", Refs: []string{"@e1", "@e2", "@e3"}, All: true}},
	}}
	again := protocol.ActionResult{Changes: protocol.Changes{
		Contexts: []protocol.ContextChange{{From: "B", To: "C", Refs: []string{"@e1", "@e2", "@e3", "@e4", "@e5", "@e9"}, All: true}},
		Gone:     []string{"@e5"},
	}}
	later := protocol.ActionResult{Changes: protocol.Changes{Changed: []protocol.Element{in("@e2", "Move", "D")}}}
	first := protocol.ActionResult{Changes: protocol.Changes{Changed: []protocol.Element{in("@e1", "Edit now", "A")}}}
	for _, rs := range [][]protocol.ActionResult{{rename, later}, {first, rename}, {rename, again}, {first, rename, again, later}} {
		oneByOne := picture.Of(start)
		for _, r := range rs {
			oneByOne.Apply(r.Changes)
		}
		merged := picture.Of(start)
		out := mergeResults(rs)
		merged.Apply(out.Changes)
		if !merged.Same(oneByOne) {
			t.Errorf("%d replies merged: %s\n%+v", len(rs), merged.Diff(oneByOne), out.Changes)
		}
	}
}
