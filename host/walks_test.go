package host

import (
	"testing"

	"github.com/grip-dev/grip/protocol"
)

func TestWalkStore(t *testing.T) {
	var s walkStore
	els := []protocol.ExtElement{{ID: 1, Role: "button", Name: "Save"}}
	full := protocol.SnapshotReply{Frames: []protocol.ExtFrame{
		{FrameID: 0, DocumentID: "D0", Walk: "a.1", Elements: els},
		{FrameID: 3, DocumentID: "D3", Error: "blank frame"},
	}}
	if !s.fill(7, &full) {
		t.Fatal("a full reply was refused")
	}
	if got := s.known(7); len(got) != 1 || got[0] != "a.1" {
		t.Fatalf("known = %v, want [a.1]", got)
	}
	same := protocol.SnapshotReply{Frames: []protocol.ExtFrame{{FrameID: 0, DocumentID: "D0", Walk: "a.1", Same: true}}}
	if !s.fill(7, &same) || len(same.Frames[0].Elements) != 1 || same.Frames[0].Elements[0].Name != "Save" {
		t.Fatalf("same reply filled as %+v", same.Frames)
	}
	for name, bad := range map[string]protocol.ExtFrame{
		"another document": {FrameID: 0, DocumentID: "D9", Walk: "a.1", Same: true},
		"another walk":     {FrameID: 0, DocumentID: "D0", Walk: "a.2", Same: true},
		"another frame":    {FrameID: 4, DocumentID: "D0", Walk: "a.1", Same: true},
	} {
		r := protocol.SnapshotReply{Frames: []protocol.ExtFrame{bad}}
		if s.fill(7, &r) {
			t.Errorf("%s: a Same for a walk not held was filled", name)
		}
	}
	if got := s.known(8); len(got) != 0 {
		t.Errorf("another tab knows %v", got)
	}
	// Tabs beyond the bound are forgotten, least recently read first.
	for tab := 100; tab < 100+maxWalkTabs; tab++ {
		r := protocol.SnapshotReply{Frames: []protocol.ExtFrame{{FrameID: 0, DocumentID: "X", Walk: "w", Elements: els}}}
		s.fill(tab, &r)
	}
	if got := s.known(7); len(got) != 0 {
		t.Errorf("tab 7, read least recently, still known: %v", got)
	}
	if len(s.tabs) != maxWalkTabs {
		t.Errorf("%d tabs kept, want %d", len(s.tabs), maxWalkTabs)
	}
}

func TestWalkStorePatch(t *testing.T) {
	var s walkStore
	els := []protocol.ExtElement{{ID: 1, Role: "button", Name: "Save"}, {ID: 2, Role: "link", Name: "Home"}}
	full := protocol.SnapshotReply{Frames: []protocol.ExtFrame{{FrameID: 0, DocumentID: "D0", Walk: "a.1", Elements: els}}}
	if !s.fill(7, &full) {
		t.Fatal("a full reply was refused")
	}
	patched := protocol.SnapshotReply{Frames: []protocol.ExtFrame{{FrameID: 0, DocumentID: "D0", Walk: "a.2", Base: "a.1",
		Patch: []protocol.ExtPatched{{At: 1, Element: protocol.ExtElement{ID: 2, Role: "link", Name: "Away"}}}}}}
	if !s.fill(7, &patched) {
		t.Fatal("a patch against the walk held was refused")
	}
	got := patched.Frames[0].Elements
	if len(got) != 2 || got[0].Name != "Save" || got[1].Name != "Away" {
		t.Fatalf("patched elements %+v", got)
	}
	if els[1].Name != "Home" {
		t.Error("the patch wrote into the elements an earlier reply holds")
	}
	if k := s.known(7); len(k) != 1 || k[0] != "a.2" {
		t.Fatalf("known after the patch = %v, want [a.2]", k)
	}
	// The patched walk is held in turn: the same again fills from it.
	same := protocol.SnapshotReply{Frames: []protocol.ExtFrame{{FrameID: 0, DocumentID: "D0", Walk: "a.2", Same: true}}}
	if !s.fill(7, &same) || same.Frames[0].Elements[1].Name != "Away" {
		t.Fatalf("same after a patch filled as %+v", same.Frames)
	}
	for name, bad := range map[string]protocol.ExtFrame{
		"a base not held":   {FrameID: 0, DocumentID: "D0", Walk: "a.3", Base: "a.1", Patch: []protocol.ExtPatched{{At: 0}}},
		"another document":  {FrameID: 0, DocumentID: "D9", Walk: "a.3", Base: "a.2", Patch: []protocol.ExtPatched{{At: 0}}},
		"a place past them": {FrameID: 0, DocumentID: "D0", Walk: "a.3", Base: "a.2", Patch: []protocol.ExtPatched{{At: 2}}},
		"a place before":    {FrameID: 0, DocumentID: "D0", Walk: "a.3", Base: "a.2", Patch: []protocol.ExtPatched{{At: -1}}},
	} {
		r := protocol.SnapshotReply{Frames: []protocol.ExtFrame{bad}}
		if s.fill(7, &r) {
			t.Errorf("%s: the patch was filled", name)
		}
	}
}
